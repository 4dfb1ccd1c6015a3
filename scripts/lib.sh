# shellcheck shell=bash
# Common settings for the host scripts.  Sourced, not run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KTREE=$BUILD/linux
# The stock tree and its objects sit at the same relative depth as the
# rt-edf ones (build/linux + build/out/X, build/stock/linux +
# build/stock/out/X), so ccache shares objects between them.
STOCKTREE=$BUILD/stock/linux
TESTDIR=$TOP/tools/testing/rt-edf
# shellcheck source=../config/kernel-version
. "$TOP/config/kernel-version"
KTARBALL=/usr/src/$KERNEL_PKG.tar.xz

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# Run as root, or through sudo when not.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
