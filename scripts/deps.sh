#!/usr/bin/env bash
# Install what the harness needs from Debian's archive.  Idempotent: does
# nothing when everything is present.  Uses sudo when not root.
. "$(dirname "$0")/lib.sh"

PKGS=(build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
      gzip ccache sparse git qemu-system-x86 busybox-static util-linux
      rt-app rt-tests trace-cmd gawk python3 rsync)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

have_ver=$(dpkg-query -W -f='${Version}' "$KERNEL_PKG" 2>/dev/null || true)
[ "$have_ver" = "$KERNEL_DEB_VERSION" ] || missing+=("$KERNEL_PKG")

[ ${#missing[@]} -eq 0 ] && exit 0

export DEBIAN_FRONTEND=noninteractive
msg "installing: ${missing[*]}"
as_root apt-get update -q >/dev/null
others=()
for p in "${missing[@]}"; do [ "$p" = "$KERNEL_PKG" ] || others+=("$p"); done
[ ${#others[@]} -eq 0 ] || as_root apt-get install -y -q --no-install-recommends "${others[@]}" >/dev/null

if [ "$have_ver" != "$KERNEL_DEB_VERSION" ]; then
	if apt-cache madison "$KERNEL_PKG" | awk '{print $3}' | grep -qxF "$KERNEL_DEB_VERSION"; then
		as_root apt-get install -y -q --allow-downgrades "$KERNEL_PKG=$KERNEL_DEB_VERSION" >/dev/null
	else
		msg "WARNING: $KERNEL_PKG $KERNEL_DEB_VERSION is no longer offered;"
		msg "WARNING: falling back to the newest $KERNEL_PKG in the archive."
		msg "WARNING: the series must still apply, or the build stops."
		as_root apt-get install -y -q "$KERNEL_PKG" >/dev/null
	fi
fi
[ -f "$KTARBALL" ] || die "$KTARBALL missing after installing $KERNEL_PKG"
