#!/usr/bin/env bash
# make deb: Debian binary packages of the patched kernel (bindeb-pkg),
# for Debian 12 amd64, then the 1-vCPU suite on the packaged kernel.
#
#   DEB_CONFIG=full   Debian's own configuration of linux-image-amd64
#                     (linux-config-6.12: config.amd64_none_amd64)
#   DEB_CONFIG=small  the same, with localmodconfig keeping only the
#                     modules of a list (DEB_LSMOD, by default
#                     config/deb-small.modules: a Debian 12 guest of
#                     QEMU/KVM; give lsmod's output of the machine the
#                     package is for), and no debug information, for a
#                     quicker build
#   RT=1              Debian's PREEMPT_RT configuration instead
#                     (config.amd64_rt_amd64), full or small
#
# Changed from Debian's configuration: CONFIG_RT_GROUP_SCHED=y, and
# CONFIG_SYSTEM_TRUSTED_KEYS emptied (Debian's certificates are not in the
# kernel source; modules are signed with a key the build makes).  The
# small variant also drops the modules not listed and the debug
# information (and so BTF).
#
# Objects go to build/deb/out-<variant>, packages to build/deb/.  The
# packaged image (from the linux-image .deb) then boots in QEMU with the
# suite's initramfs on 1 vCPU, judged as 'make check' judges smp1.
. "$(dirname "$0")/lib.sh"

variant=${DEB_CONFIG:-full}
case $variant in
full | small) ;;
*) die "DEB_CONFIG must be full or small" ;;
esac
cfg=config.amd64_none_amd64
if [ "${RT:-0}" = 1 ]; then
	cfg=config.amd64_rt_amd64
	variant=$variant-rt
fi
lsmod=${DEB_LSMOD:-$TOP/config/deb-small.modules}
[ -f "$lsmod" ] || die "DEB_LSMOD: $lsmod not found"
start=$(date +%s)
"$TOP/scripts/deps.sh"
# debian/rules of bindeb-pkg calls debhelper; the configuration comes
# from the same Debian kernel version as the source.
missing=()
for p in linux-config-6.12 dpkg-dev debhelper kmod rsync dwarves; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	as_root apt-get update -q >/dev/null
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${missing[@]}" >/dev/null
fi
have=$(dpkg-query -W -f='${Version}' linux-config-6.12)
[ "$have" = "$KERNEL_DEB_VERSION" ] ||
	msg "WARNING: linux-config-6.12 is $have, the source $KERNEL_DEB_VERSION"
src=/usr/src/linux-config-6.12/$cfg.xz
[ -f "$src" ] || die "$src missing (package linux-config-6.12)"
"$TOP/scripts/tree.sh" rtedf

out=$BUILD/deb/out-$variant
mkdir -p "$out"
# A cache of its own: these objects would push the guest kernels' out.
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache-deb}
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
export KBUILD_BUILD_USER=rt-edf KBUILD_BUILD_HOST=debian
export KBUILD_BUILD_TIMESTAMP="@0"
kmake() { make -s -C "$KTREE" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" "$@"; }

xzcat "$src" >"$out/.config"
cfgtool=$KTREE/scripts/config
"$cfgtool" --file "$out/.config" -e RT_GROUP_SCHED --set-str SYSTEM_TRUSTED_KEYS ""
kmake olddefconfig >/dev/null
if [ "${variant%-rt}" = small ]; then
	"$cfgtool" --file "$out/.config" -d DEBUG_INFO_DWARF5 -d DEBUG_INFO_DWARF4 \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_BTF -e DEBUG_INFO_NONE
	kmake olddefconfig >/dev/null
	cp "$lsmod" "$out/lsmod"
	kmake LSMOD="$out/lsmod" localmodconfig </dev/null >/dev/null 2>"$out/localmodconfig.log" ||
		die "localmodconfig failed; see ${out#"$TOP"/}/localmodconfig.log"
	kmake olddefconfig >/dev/null
	msg "small: $(grep -c '=m$' "$out/.config") modules kept of $(xzcat "$src" | grep -c '=m$')"
fi
grep -qx 'CONFIG_RT_GROUP_SCHED=y' "$out/.config" || die "CONFIG_RT_GROUP_SCHED did not stick"
msg "building Debian packages ($variant: $cfg + RT_GROUP_SCHED) in ${out#"$TOP"/}"
t0=$(date +%s)
rm -f "$BUILD"/deb/*.deb "$BUILD"/deb/*.buildinfo "$BUILD"/deb/*.changes
kmake bindeb-pkg >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log"
	die "bindeb-pkg failed; see ${out#"$TOP"/}/build.log"
}
msg "packages built in $(($(date +%s) - t0)) s:"
img=
for f in "$BUILD"/deb/*.deb; do
	msg "  ${f#"$TOP"/}"
	case ${f##*/} in
	linux-image-*-dbg_*) ;;
	linux-image-*) img=$f ;;
	esac
done
[ -n "$img" ] || die "no linux-image package"

# The image from the package, booted with the suite's initramfs.
rm -rf "$BUILD/deb/root"
dpkg-deb -x "$img" "$BUILD/deb/root"
vmlinuz=
for f in "$BUILD"/deb/root/boot/vmlinuz-*; do vmlinuz=$f; done
[ -f "$vmlinuz" ] || die "no vmlinuz in ${img#"$TOP"/}"
"$TOP/scripts/initramfs.sh"
d=$BUILD/logs/deb-$variant
"$TOP/scripts/qemu-run.sh" -k "$vmlinuz" -s 1 -T "${RTEDF_TIMEOUT:-1500}" -o "$d" || true
status=0
"$TOP/scripts/report.sh" "$d" "deb-$variant" "$TESTDIR/known-fail" || status=1
msg "make deb ($variant) took $(($(date +%s) - start)) s; install with: dpkg -i ${img#"$TOP"/}"
exit $status
