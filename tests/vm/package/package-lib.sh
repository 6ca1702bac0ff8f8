# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the VM suite "package" (sourced). The suite boots WITHOUT the meson payload: the
# .debs from scripts/package arrive through a payload of their own at /usr/lib/memcgd/debs
# (tests/package/run-package-test.sh) and the tests install them with apt, run the
# end-to-end tests of memcgd-tests against the installed files, and purge them.
set -euo pipefail

PKG_DEBS=/usr/lib/memcgd/debs
PKG_STATE=/var/tmp/memcgd-package-test   # /var/tmp is outside the file lists compared
PKG_NODOC=/etc/dpkg/dpkg.cfg.d/01_nodoc   # mkosi's WithDocs=no: dpkg would drop /usr/share/{doc,man}

log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }
fail() { log "FAIL: $*"; exit 1; }

pkg_debs() {	# the two binary packages, or fail
	local d
	d=$(find "$PKG_DEBS" -maxdepth 1 \( -name 'memcgd_*.deb' -o -name 'memcgd-tests_*.deb' \) | sort)
	[[ $(wc -l <<< "$d") == 2 ]] || fail "expected memcgd_*.deb and memcgd-tests_*.deb in $PKG_DEBS, found: ${d:-nothing}"
	printf '%s\n' "$d"
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

pkg_install() {	# apt-get install of the local .debs (no network: every dependency is in the image)
	local debs
	mapfile -t debs < <(pkg_debs)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${debs[@]}" || fail "apt-get install ${debs[*]} failed"
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
