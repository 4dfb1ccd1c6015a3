#!/usr/bin/env bash
# build/initramfs.cpio.gz: busybox-static, the kernel's selftests
# sched/rt-edf (added by patches/) and the programs of tools/testing/rt-edf,
# all static, and util-linux chrt, rt-app, cyclictest and trace-cmd with
# the shared libraries they load.
#
# The selftests are built and installed the kselftest way, 'make -C
# tools/testing/selftests TARGETS=sched/rt-edf install', into build/ksft
# (run_kselftest.sh, kselftest-list.txt).  /rtedf/tests.list is the order
# 'make check' runs them in: vcpu_stall, then kselftest-list.txt's.
. "$(dirname "$0")/lib.sh"

root=$BUILD/initramfs
bin=$BUILD/tests
ksft=$BUILD/ksft
"$TOP/scripts/tree.sh" rtedf
make -s -C "$KTREE/tools/testing/selftests" TARGETS=sched/rt-edf \
	O="$BUILD/ksft-build" KSFT_INSTALL_PATH="$ksft" LDFLAGS=-static install >/dev/null ||
	die "building the selftests sched/rt-edf failed"
[ -s "$ksft/kselftest-list.txt" ] || die "no $ksft/kselftest-list.txt"
make -s -C "$TESTDIR" OUT="$bin" KSFT_DIR="$KTREE/tools/testing/selftests"
{ echo vcpu_stall; sed -n 's|^sched/rt-edf:||p' "$ksft/kselftest-list.txt"; } >"$bin/tests.list"

rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,rtedf/bin,usr/bin,etc}
cp /bin/busybox "$root/bin/busybox"
cp "$TESTDIR/init" "$root/init"
chmod 755 "$root/init"
cp "$bin/tests.list" "$root/rtedf/"
# The installed selftests as they are (/ksft/run_kselftest.sh runs them:
# rtedf.mode=ksft), and each test in /rtedf/bin as well, for /init.
cp -a "$ksft" "$root/ksft"
while read -r t; do ln -s "/ksft/sched/rt-edf/$t" "$root/rtedf/bin/$t"; done < <(sed 1d "$bin/tests.list")
for w in vcpu_stall demo bench torture; do cp "$bin/$w" "$root/rtedf/bin/"; done

# A dynamically linked program and every library it loads.
copy_dyn() {
	local exe=$1 lib
	cp "$exe" "$root/usr/bin/"
	for lib in $(ldd "$exe" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_dyn /usr/bin/chrt
copy_dyn /usr/bin/rt-app
copy_dyn /usr/bin/cyclictest
copy_dyn /usr/bin/trace-cmd
# rt-app's pthread_exit() loads libgcc_s at run time.  awk reads all of
# ldconfig's output: exiting early could kill ldconfig with SIGPIPE, which
# pipefail turns into a failed build (seen as 'Error 141').
gcc_s=$(/sbin/ldconfig -p | awk '/libgcc_s\.so\.1 .*x86-64/ && !f { print $NF; f = 1 }')
[ -n "$gcc_s" ] || die "libgcc_s.so.1 not found"
mkdir -p "$root$(dirname "$gcc_s")"
cp -L "$gcc_s" "$root$gcc_s"
echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --reproducible --quiet) | gzip -9n >"$BUILD/initramfs.cpio.gz.tmp"
mv "$BUILD/initramfs.cpio.gz.tmp" "$BUILD/initramfs.cpio.gz"
msg "initramfs: build/initramfs.cpio.gz ($(du -k "$BUILD/initramfs.cpio.gz" | cut -f1) KiB)"
