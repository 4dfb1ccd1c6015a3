#!/usr/bin/env bash
# make torture: the churn torture (tools/testing/rt-edf/torture.c) on the
# rt-edf kernel, one guest run per vCPU count.
#
# Environment: DURATION (guest seconds of churn per run, default 90),
# SEED (default: from the clock; printed, and the same seed replays the
# same run), SMP (vCPU counts, default "2 4"), DEBUG=1 (debug config),
# KERNEL=stock, TORTURE_LOGS (log folder; make check sets it).  The seed fixes the sequence of operations.  Unlike the
# suite, the torture runs in plain multi-threaded TCG (guest time follows
# the host clock): under '-icount' with 2 vCPUs, CPU hotplug churn left a
# vCPU spinning for good on a spinlock the other vCPU no longer held
# (seen twice, on different locks; never without icount),
# which we take for an emulator limit.  In plain TCG the host may leave a
# vCPU thread unscheduled while guest time runs on; torture.c's sentinel
# measures what that costs it (see there).  Then, for the scheduler's
# decisions, a shorter run per vCPU count under icount (ICOUNT_SMP,
# default the same counts; ICOUNT_DURATION, default 20 s), without CPU
# hotplug: torture.c traces its last 5 s and schedcheck.py judges them
# (the icount vCPUs stand still in turn, which the checker allows for).
# Ends with 'N passed, N failed'.
. "$(dirname "$0")/lib.sh"

dur=${DURATION:-90}
seed=${SEED:-$(date +%s)}
smps=${SMP:-2 4}
kernel=${KERNEL:-rtedf}
sfx=$([ "${DEBUG:-0}" = 1 ] && echo -debug || true)$([ "${RT:-0}" = 1 ] && echo -rt || true)
# The rt-edf kernel's known failures (tools/testing/rt-edf/known-fail, and
# rt-known-fail on PREEMPT_RT; make check passes its own list).
xfail=${TORTURE_XFAIL:-$([ "$kernel" = rtedf ] && echo "$TESTDIR/known-fail" || echo /dev/null)}
img=$BUILD/bzImage$([ "$kernel" = stock ] && echo -stock || true)$sfx
# CGROUP=v2 (qemu-run.sh): the same churn on cgroup v2, reported as torture-v2-*.
tag=$([ "${CGROUP:-v1}" = v2 ] && echo -v2 || true)

start=$(date +%s)
if [ "${TORTURE_NOBUILD:-0}" != 1 ]; then
	"$TOP/scripts/deps.sh"
	"$TOP/scripts/kbuild.sh" "$kernel"
	"$TOP/scripts/initramfs.sh"
fi

logs=${TORTURE_LOGS:-$BUILD/logs/torture-$kernel$sfx}
rm -rf "$logs"
mkdir -p "$logs"
if [ -z "${TORTURE_XFAIL:-}" ] && [ "$kernel" = rtedf ] && [ "${RT:-0}" = 1 ]; then
	cat "$xfail" "$TESTDIR/rt-known-fail" >"$logs/known-fail"
	xfail=$logs/known-fail
fi
status=0
msg "torture: $dur s per run, seed $seed, vCPUs: $smps"
for smp in $smps; do
	d=$logs/smp$smp
	t0=$(date +%s)
	# More vCPU threads than host CPUs: give vCPU 0 a host CPU (qemu-run.sh).
	pin=$([ "$smp" -gt "$(nproc)" ] && echo 1 || echo 0)
	RTEDF_PIN=$pin RTEDF_ICOUNT=0 RTEDF_APPEND="rtedf.torture=$dur:$seed rtedf.timeout=$((dur + 300))" \
		"$TOP/scripts/qemu-run.sh" -k "$img" -s "$smp" -t torture \
		-T $((dur * 2 + 600)) -o "$d" || true
	"$TOP/scripts/report.sh" "$d" "torture$tag-smp$smp" "$xfail" || status=1
	grep -a '^# \(torture\|sentinel\|free\|[a-z]* *[0-9]* done\)' "$d/results.log" |
		sed "s/^# /torture$tag-smp$smp: /" || true
	msg "smp$smp: torture run took $(($(date +%s) - t0)) s; logs in ${d#"$TOP"/}"
	cat "$d/counts" >>"$logs/counts"
done

idur=${ICOUNT_DURATION:-20}
for smp in ${ICOUNT_SMP-$smps}; do
	d=$logs/icount-smp$smp
	t0=$(date +%s)
	RTEDF_APPEND="rtedf.torture=$idur:$seed rtedf.timeout=$((idur + 300))" \
		"$TOP/scripts/qemu-run.sh" -k "$img" -s "$smp" -t torture \
		-T $((idur * 4 + 600)) -o "$d" || true
	"$TOP/scripts/report.sh" "$d" "torture$tag-icount-smp$smp" "$xfail" || status=1
	msg "icount smp$smp: torture run took $(($(date +%s) - t0)) s; logs in ${d#"$TOP"/}"
	cat "$d/counts" >>"$logs/counts"
done

read -r p f < <(awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }' "$logs/counts")
msg "took $(($(date +%s) - start)) s (seed $seed)"
echo "$p passed, $f failed"
[ "$f" = 0 ] && [ "$status" = 0 ]
