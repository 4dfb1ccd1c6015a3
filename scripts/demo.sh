#!/usr/bin/env bash
# make demo: build and boot the rt-edf kernel on one vCPU (virtual time),
# reserve 10 ms every 100 ms for a SCHED_FIFO busy loop, print its share.
# KERNEL=stock runs the same on the stock kernel.
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-rtedf}
img=$BUILD/bzImage$([ "$kernel" = stock ] && echo -stock || true)
start=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/kbuild.sh" "$kernel"
"$TOP/scripts/initramfs.sh"
d=$BUILD/logs/demo-$kernel
"$TOP/scripts/qemu-run.sh" -k "$img" -s 1 -m demo -T 300 -o "$d" ||
	die "the guest did not finish; see ${d#"$TOP"/}/console.log"
grep -a '^rt-edf demo:' "$d/results.log" || {
	cat "$d/results.log"
	die "the demo printed no figure; see ${d#"$TOP"/}/console.log"
}
msg "took $(($(date +%s) - start)) s ($kernel kernel, 1 vCPU, QEMU TCG with icount)"
