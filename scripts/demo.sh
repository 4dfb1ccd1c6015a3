#!/usr/bin/env bash
# make demo: build and boot the rt-edf kernel on one vCPU (virtual time) and
# run the IRMOS article's example (5 ms / 9 ms and 2 ms / 6 ms reservations
# with periodic tasks needing 90% of them) next to a greedy busy loop in a
# third reservation (1 ms / 20 ms).  Prints a table per group and draws the
# first 50 ms of the schedule from sched_switch events into
# build/demo/timeline-<kernel>.svg.  KERNEL=stock runs the same on the stock
# kernel, for the picture beside it.  CGROUP=v2 makes the reservations on
# cgroup v2 (cpu.rt.max), which only rt-edf offers.  The whole trace
# (switches, wakeups, on rt-edf the servers' events), saved in the guest
# by trace-cmd, goes to build/demo/trace-<kernel>.dat: open it with
# 'trace-cmd report' or kernelshark.
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-rtedf}
case $kernel in
rtedf|stock) ;;
*) die "KERNEL must be rtedf or stock" ;;
esac
[ "$kernel/${CGROUP:-v1}" = stock/v2 ] &&
	die "the stock kernel has no RT reservations on cgroup v2 (run KERNEL=stock with CGROUP=v1)"
img=$BUILD/bzImage$([ "$kernel" = stock ] && echo -stock || true)
start=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/kbuild.sh" "$kernel"
"$TOP/scripts/initramfs.sh"
d=$BUILD/logs/demo-$kernel${CGROUP:+-$CGROUP}
"$TOP/scripts/qemu-run.sh" -k "$img" -s 1 -m demo -T 300 -o "$d" ||
	die "the guest did not finish; see ${d#"$TOP"/}/console.log"
tr -d '\r' <"$d/results.log" | grep -a '^rt-edf demo:' || {
	cat "$d/results.log"
	die "the demo printed no table; see ${d#"$TOP"/}/console.log"
}
mkdir -p "$BUILD/demo"
svg=$BUILD/demo/timeline-$kernel$([ "${CGROUP:-v1}" = v2 ] && echo -v2 || true).svg
python3 "$TOP/scripts/demo-report.py" "$d/results.log" "$svg" ||
	die "could not draw the timeline"
msg "timeline of the first 50 ms: ${svg#"$TOP"/}"
dat=${svg%.svg}.dat
dat=${dat/timeline-/trace-}
tr -d '\r' <"$d/results.log" |
	awk '/^# rtedf: file-end/ { f = 0 } f; /^# rtedf: file trace.dat/ { f = 1 }' |
	base64 -d | gunzip >"$dat" 2>/dev/null || {
	grep -a '^# trace-cmd:' "$d/results.log" || true
	die "the guest sent no trace.dat"
}
n=$(trace-cmd report "$dat" 2>/dev/null | grep -c ': sched_switch:' || true)
[ "$n" -gt 0 ] || die "trace-cmd report finds no sched_switch in ${dat#"$TOP"/}"
msg "trace: ${dat#"$TOP"/} ($n switches): trace-cmd report ${dat#"$TOP"/}, or kernelshark"
msg "took $(($(date +%s) - start)) s ($kernel kernel, cgroup ${CGROUP:-v1}, 1 vCPU, QEMU TCG with icount)"
