# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the VM suite "package" (sourced). The suite boots WITHOUT the meson payload: a
# signed apt repository with the .debs from scripts/package arrives through a payload of its
# own at /usr/lib/memcgd/apt (tests/package/run-package-test.sh, scripts/apt-repo), and the
# tests add it as a node would, install from it, run the end-to-end tests of memcgd-tests
# against the installed files, upgrade from it and purge.
set -euo pipefail

PKG_REPO=/usr/lib/memcgd/apt
PKG_SOURCES=/etc/apt/sources.list.d/memcgd.sources
PKG_KEYRING=/etc/apt/keyrings/memcgd-archive-keyring.gpg
PKG_STATE=/var/tmp/memcgd-package-test   # /var/tmp is outside the file lists compared
PKG_NODOC=/etc/dpkg/dpkg.cfg.d/01_nodoc   # mkosi's WithDocs=no: dpkg would drop /usr/share/{doc,man}

log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }
fail() { log "FAIL: $*"; exit 1; }

pkg_first_version() {	# the version package/10-install installs (the repository also has a newer one)
	[[ -f $PKG_REPO/first-version ]] || fail "no $PKG_REPO/first-version: boot with run-package-test.sh's payload"
	cat "$PKG_REPO/first-version"
}

pkg_debs() {	# the .debs of the first version in the repository's pool, or fail
	local d v
	v=$(pkg_first_version)
	d=$(find "$PKG_REPO/pool" \( -name "memcgd_${v}_*.deb" -o -name "memcgd-tests_${v}_*.deb" \) | sort)
	[[ $(wc -l <<< "$d") == 2 ]] || fail "expected memcgd_$v and memcgd-tests_$v .debs in $PKG_REPO/pool, found: ${d:-nothing}"
	printf '%s\n' "$d"
}

pkg_add_repository() {	# what README's Install tells a node to do: the key and the sources file
	[[ -f $PKG_REPO/memcgd.sources && -f $PKG_REPO/memcgd-archive-keyring.gpg ]] ||
		fail "no memcgd.sources and key in $PKG_REPO"
	mkdir -p "${PKG_KEYRING%/*}"
	install -m 644 "$PKG_REPO/memcgd-archive-keyring.gpg" "$PKG_KEYRING"
	install -m 644 "$PKG_REPO/memcgd.sources" "$PKG_SOURCES"
	# only this source: the guest has no network for the image's Debian mirrors (every other
	# dependency is installed in the image)
	apt-get update -q -o Dir::Etc::SourceList="$PKG_SOURCES" -o Dir::Etc::SourceParts=- \
		> "$PKG_STATE/apt-update.log" 2>&1 || { cat "$PKG_STATE/apt-update.log"; fail "apt-get update of $PKG_SOURCES failed"; }
	if grep -q '^[WE]:' "$PKG_STATE/apt-update.log"; then
		cat "$PKG_STATE/apt-update.log"
		fail "apt-get update of the memcgd repository warned (signature?)"
	fi
}

pkg_remove_repository() {	# the administrator's files of pkg_add_repository, and apt's lists of it
	rm -f "$PKG_SOURCES" "$PKG_KEYRING"
	[[ -f $PKG_STATE/keyrings-created ]] && rmdir "${PKG_KEYRING%/*}"
	rm -f /var/lib/apt/lists/*usr_lib_memcgd_apt*
}

# Every path on the root file system except what dpkg, apt and the running system change by
# themselves: dpkg's and apt's databases and caches, logs, /tmp and /var/tmp (the tests'
# scratch files, the runner's and this suite's work), and the virtual/volatile file systems
# (-xdev).
pkg_file_list() {
	find / -xdev \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache \
		-o -path /var/log -o -path /var/tmp -o -path /tmp -o -path /var/lib/systemd/random-seed \
		-o -path /var/lib/systemd/timers \) -prune -o -print | LC_ALL=C sort
}

pkg_install() {	# pkg_install [VERSION]: apt-get install memcgd memcgd-tests from the repository
		# (default: the first version; "newest": the candidate)
	local v=${1:-$(pkg_first_version)} pkgs=(memcgd memcgd-tests)
	[[ $v == newest ]] || pkgs=("memcgd=$v" "memcgd-tests=$v")
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" ||
		fail "apt-get install ${pkgs[*]} from the memcgd repository failed"
}

pkg_installed() {	# pkg_installed PKG: dpkg says installed
	[[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}

pkg_require_installed() {
	pkg_installed memcgd && pkg_installed memcgd-tests ||
		fail "memcgd and memcgd-tests are not installed (package/10-install failed?)"
}

# The image is built with dpkg path-exclude for /usr/share/{doc,man,...}: directories such as
# /usr/share/man/man8 are in other packages' file lists but missing on disk. A normal system
# has them, and dpkg rightly keeps them when memcgd is purged; create the ones the .debs use
# before the file list is recorded, so the comparison is that of a normal system.
pkg_restore_shared_dirs() {
	local p
	while read -r p; do
		[[ -n "$p" && "$p" != / && ! -e "$p" ]] || continue
		if grep -qxF -- "$p" /var/lib/dpkg/info/*.list; then
			mkdir -p "$p"
			log "created $p: listed by installed packages, missing because of path-exclude"
		fi
	done < <(for deb in $(pkg_debs); do dpkg-deb --fsys-tarfile "$deb" | tar -t; done |
		sed -e 's|^\./|/|' -e 's|/$||' | LC_ALL=C sort -u)
}

pkg_purge() {	# pkg_purge PKG...: apt-get purge of those dpkg still knows (a removed package
		# without conffiles or postrm, like memcgd-tests, is forgotten at removal)
	local p known=()
	for p; do
		dpkg-query -W "$p" >/dev/null 2>&1 && known+=("$p")
	done
	((${#known[@]})) || return 0
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${known[@]}" || fail "apt-get purge ${known[*]} failed"
}
