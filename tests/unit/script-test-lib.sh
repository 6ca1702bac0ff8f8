# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the host tests of the scripts/ tools (test-apt-repo.sh, test-sign-linux-image.sh)
# with their SCRIPTS_DIR argument: $scripts, a scratch directory $tmp removed at exit, memcgd's
# cache inside it (keys made by the tools stay there), and fail().
set -euo pipefail
scripts="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export MEMCGD_CACHE="$tmp/cache"
