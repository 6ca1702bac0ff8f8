#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/apt-repo makes a repository that apt trusts and reads: two versions of a package
# (built here with dpkg-deb) added in two runs are both offered, the newer as candidate; a
# node's apt, in a root of its own, verifies InRelease with the exported key and refuses the
# repository once it is signed by a key the node was not given; bad input is refused by name.
# usage: test-apt-repo.sh SCRIPTS_DIR
# shellcheck source=script-test-lib.sh
source "$(dirname "$0")/script-test-lib.sh" "$1"

for v in 1.0-1 1.1-1; do
	mkdir -p "$tmp/p$v/DEBIAN"
	printf 'Package: memcgd-repo-probe\nVersion: %s\nArchitecture: all\nMaintainer: memcgd tests <t@localhost>\nDescription: probe\n' \
		"$v" > "$tmp/p$v/DEBIAN/control"
	dpkg-deb -b --root-owner-group "$tmp/p$v" "$tmp/memcgd-repo-probe_${v}_all.deb" >/dev/null
done
repo="$tmp/repo"
"$scripts/apt-repo" "$repo" "$tmp/memcgd-repo-probe_1.0-1_all.deb" >/dev/null 2>"$tmp/log" || fail "apt-repo: $(cat "$tmp/log")"
"$scripts/apt-repo" "$repo" "$tmp/memcgd-repo-probe_1.1-1_all.deb" >/dev/null 2>"$tmp/log" || fail "apt-repo: $(cat "$tmp/log")"
for f in dists/bookworm/InRelease dists/bookworm/Release.gpg memcgd-archive-keyring.gpg memcgd.sources \
	pool/main/m/memcgd-repo-probe/memcgd-repo-probe_1.0-1_all.deb; do
	[[ -f "$repo/$f" ]] || fail "no $f in the repository"
done

# a node: its own apt root, the sources file as shipped, the key where Signed-By: points
node="$tmp/node"
mkdir -p "$node/etc/apt/sources.list.d" "$node/etc/apt/keyrings" "$node/etc/apt/preferences.d" \
	"$node/etc/apt/apt.conf.d" "$node/var/lib/apt/lists/partial" "$node/var/cache/apt/archives/partial" \
	"$node/var/lib/dpkg"
: > "$node/var/lib/dpkg/status"
cp "$repo/memcgd-archive-keyring.gpg" "$node/etc/apt/keyrings/"
sed "s|/etc/apt/keyrings/|$node/etc/apt/keyrings/|" "$repo/memcgd.sources" > "$node/etc/apt/sources.list.d/memcgd.sources"
apt_opts=(-o "Dir=$node" -o "Dir::State::status=$node/var/lib/dpkg/status" -o Debug::NoLocking=1
	-o APT::Architecture=amd64 -o Acquire::Languages=none -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" update >"$tmp/update" 2>&1 || fail "apt-get update: $(cat "$tmp/update")"
grep -q '^W:\|^E:' "$tmp/update" && fail "apt-get update warned: $(cat "$tmp/update")"
policy="$(apt-cache "${apt_opts[@]}" policy memcgd-repo-probe)"
grep -q 'Candidate: 1.1-1' <<<"$policy" || fail "candidate is not 1.1-1: $policy"
grep -q '^     1.0-1 500' <<<"$policy" || fail "the older version is not offered: $policy"
apt-get "${apt_opts[@]}" -s install memcgd-repo-probe=1.0-1 | grep -q '^Inst memcgd-repo-probe (1.0-1 ' ||
	fail "apt cannot install the older version"

# the same repository re-signed with another key: the node must refuse it
other="$tmp/other-gnupg"
mkdir -m 700 "$other"
GNUPGHOME="$other" gpg --batch --quiet --passphrase '' --quick-gen-key "not memcgd <x@localhost>" ed25519 sign never 2>/dev/null
"$scripts/apt-repo" --gnupg-home "$other" "$repo" "$tmp/memcgd-repo-probe_1.1-1_all.deb" >/dev/null 2>&1 ||
	fail "apt-repo --gnupg-home failed"
if apt-get "${apt_opts[@]}" update >"$tmp/update" 2>&1 && ! grep -q '^W:\|^E:' "$tmp/update"; then
	fail "apt accepted a repository signed by a key the node does not have: $(cat "$tmp/update")"
fi
grep -q 'NO_PUBKEY\|not signed' "$tmp/update" || fail "apt refused, but not for the signature: $(cat "$tmp/update")"

# bad input is named
if out="$("$scripts/apt-repo" "$repo" "$tmp/update" 2>&1)"; then fail "apt-repo took a file that is not a .deb"; fi
grep -q "'$tmp/update' is not a .deb file" <<<"$out" || fail "apt-repo's error does not name the file: $out"
echo "ok: apt-repo: two versions, signature checked by apt, a foreign key refused"
