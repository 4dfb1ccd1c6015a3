#!/usr/bin/env bash
# make bench: the side-by-side benchmark of rt-edf and the stock kernel.
#
# Builds both images (build/bzImage, build/bzImage-stock) and the
# initramfs, boots each on one vCPU with the same workloads
# (tools/testing/rt-edf/bench.c: the article's example and random task
# sets, share accuracy, enforcement precision, ping-pong and scheduling
# decision cost, cyclictest latency, every measurement repeated), then
# writes build/bench/results.md and SVG plots (scripts/bench-report.py).
# A benchmark reports: it fails only when a guest does not finish.
#
# Then two more boots per kernel with 2 vCPUs: the costs across CPUs
# under icount (bench.c's smpcost, and smpdecide: each placement decision
# timed by the function graph tracer), and on plain TCG, the vCPUs in
# parallel on the host's clock, round trips with a push or pull per
# wakeup and random task sets on two CPUs (smppush, smprandom; on rt-edf
# the trace of a set with a missed deadline goes into the guest log for
# tools/testing/rt-edf/schedcheck.py).
#
# Environment: BENCH_ARGS="random,reps=5,..." replaces the guest program's
# arguments on one vCPU (see the top of bench.c); the default runs every
# one-CPU section.  BENCH_SMPCOST_ARGS and BENCH_SMPRANDOM_ARGS do the same
# for the two-vCPU boots; BENCH_SMP=0 skips them.  CGROUP=v2 makes rt-edf's
# groups on cgroup v2 (cpu.rt.max); the stock kernel has no RT reservations
# there and keeps cgroup v1.
. "$(dirname "$0")/lib.sh"

start=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/kbuild.sh" rtedf
"$TOP/scripts/kbuild.sh" stock
"$TOP/scripts/initramfs.sh"

out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out"
args=${BENCH_ARGS:-all,reps=3,sets=48,setms=1500}
status=0
detail=
# run LABEL SMP ARGS [env...]: one guest run per kernel, logs in
# $out/KERNEL (LABEL empty) or $out/KERNEL-LABEL.
run() {
	local label=$1 smp=$2 args=$3 k img d t0 t
	shift 3
	for k in rtedf stock; do
		img=$BUILD/bzImage$([ $k = stock ] && echo -stock || true)
		d=$out/$k${label:+-$label}
		t0=$(date +%s)
		msg "$k: $smp vCPU(s), $args (guest log: ${d#"$TOP"/}/)"
		env "$@" CGROUP="$([ $k = stock ] && echo v1 || echo "${CGROUP:-v1}")" \
			RTEDF_APPEND="rtedf.args=$args" "$TOP/scripts/qemu-run.sh" -k "$img" -s "$smp" \
			-m bench -T "${RTEDF_TIMEOUT:-3000}" -o "$d" || status=1
		grep -aq '^# rtedf: end bench rc=0' "$d/results.log" 2>/dev/null || {
			msg "WARNING: the $k guest did not finish the benchmark; see ${d#"$TOP"/}/console.log"
			status=1
		}
		t=$(($(date +%s) - t0))
		detail+="${detail:+, }$k ${label:-guest} $((t / 60)) min $((t % 60)) s"
		msg "$k: $t s"
	done
}
run "" 1 "$args"
qemu_smp2= qemu_tcg2=
if [ "${BENCH_SMP:-1}" != 0 ]; then
	run smp2 2 "${BENCH_SMPCOST_ARGS:-smpcost,smpdecide,reps=3}"
	run tcg2 2 "${BENCH_SMPRANDOM_ARGS:-smppush,smprandom,reps=2,sets=20,setms=1500,trace=1}" RTEDF_ICOUNT=0
	qemu_smp2="$(grep -m1 -o -- '-accel [^ ]*\( -icount [^ ]*\)\?' "$out/rtedf-smp2/qemu.cmd") -smp 2 -m 512M"
	qemu_tcg2="$(grep -m1 -o -- '-accel [^ ]*\( -icount [^ ]*\)\?' "$out/rtedf-tcg2/qemu.cmd") -smp 2 -m 512M"
fi

wall=$(($(date +%s) - start))
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
machine="$(nproc) cores, ${cpu:-unknown CPU}, Debian $(cat /etc/debian_version 2>/dev/null || echo '?'), $(qemu-system-x86_64 --version | sed -n 1p)"
qemu=$(grep -m1 -o -- '-accel [^ ]*\( -icount [^ ]*\)\?' "$out/rtedf/qemu.cmd")
qemu+=" -smp 1 -m 512M"
python3 "$TOP/scripts/bench-report.py" "$out" "$out/rtedf/results.log" "$out/stock/results.log" \
	"date=$(date -u '+%Y-%m-%d')" "commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')" \
	"machine=$machine" "qemu=$qemu" \
	"qemu_smp2=$qemu_smp2" "qemu_tcg2=$qemu_tcg2" "cgroup=${CGROUP:-v1}" \
	"wall=$((wall / 60)) min $((wall % 60)) s" "wall_detail=builds and initramfs included; $detail" ||
	die "could not write the report"
msg "report: ${out#"$TOP"/}/results.md (plots: ${out#"$TOP"/}/*.svg)"
msg "took $((wall / 60)) min $((wall % 60)) s"
exit $status
