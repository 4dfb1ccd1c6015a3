#!/usr/bin/env bash
# make check: the whole verdict.
#
# Environment: KERNEL=rtedf (default) or stock, DEBUG=1 for the debug
# config, RT=1 for PREEMPT_RT (config/rt.config), SMP="1 2 4" (vCPU counts to run the suite on), TESTS="a b" (only
# these test programs), QUICK=1 (suite only: no checkpatch, no sparse, no
# torture), TORTURE=0 (no torture), TORTURE_DURATION (guest seconds per
# vCPU count, default 90) and SEED (default 1) for the torture.
#
# Builds what is missing, runs the guest suite on each vCPU count (and
# the suite on 1 vCPU booted with rtedf.cgroup=v2 (cgroup v2), precision on
# 2 vCPUs booted with nohz_full=1, placement on 2 vCPUs of plain TCG, and
# coresched on 2 vCPUs that are SMT siblings), then on
# the rt-edf kernel the churn torture (scripts/torture.sh)
# on each vCPU count above 1 (90 s each: 3 minutes on 2 and 4 vCPUs,
# then 20 s under icount on each, and 20 s on cgroup v2 on 2 vCPUs),
# checkpatch.pl --strict on every patch and sparse on
# kernel/sched/ against the stock tree's baseline.  On KERNEL=stock, the tests named in
# tools/testing/rt-edf/stock-xfail must fail and all others pass.  Ends
# with one line 'N passed, N failed'; exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-rtedf}
smps=${SMP:-1 2 4}
tests=${TESTS:-}
debug=${DEBUG:-0}
sfx=$([ "$debug" = 1 ] && echo -debug || true)$([ "${RT:-0}" = 1 ] && echo -rt || true)
# The schedule checker judges servers from the sched_rt_* events, which
# stock lacks: its traces are kept, not judged.
case $kernel in
rtedf) img=$BUILD/bzImage$sfx; xfail=$TESTDIR/known-fail ;;
stock) img=$BUILD/bzImage-stock$sfx; xfail=$TESTDIR/stock-xfail; export SCHEDCHECK=0 ;;
*) die "KERNEL must be rtedf or stock" ;;
esac

start=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/kbuild.sh" "$kernel"
# (The sparse baseline comes from the stock tree with the plain config:
# scripts/lint.sh builds what kernel/sched/ needs there, not a kernel.)
"$TOP/scripts/initramfs.sh"

logs=$BUILD/logs/check-$kernel$sfx
rm -rf "$logs"
mkdir -p "$logs"
# The debug kernel's timing margins (tools/testing/rt-edf/debug-known-fail)
# and the PREEMPT_RT kernel's open bugs (rt-known-fail), on top.
if [ "$kernel" = rtedf ]; then
	cat "$xfail" >"$logs/known-fail"
	[ "$debug" = 1 ] && cat "$TESTDIR/debug-known-fail" >>"$logs/known-fail"
	[ "${RT:-0}" = 1 ] && cat "$TESTDIR/rt-known-fail" >>"$logs/known-fail"
	xfail=$logs/known-fail
fi
status=0
for smp in $smps; do
	d=$logs/smp$smp
	t0=$(date +%s)
	"$TOP/scripts/qemu-run.sh" -k "$img" -s "$smp" -t "$tests" \
		-T "${RTEDF_TIMEOUT:-1500}" -o "$d" || true
	"$TOP/scripts/report.sh" "$d" "smp$smp" "$xfail" || status=1
	msg "smp$smp: guest run took $(($(date +%s) - t0)) s; logs in ${d#"$TOP"/}"
	cat "$d/counts" >>"$logs/counts"
done

# One test more on N vCPUs in another setting, with the N-vCPU runs:
#   run_on N LABEL "TEST..." [VAR=VALUE...]   (the variables for
#   qemu-run.sh and report.sh); run2 is run_on 2.  With TESTS, only the
#   tests named there; "" is the whole suite (or TESTS).
run_on() {
	local n=$1 label=$2 t=$3 d t0 x sel=
	shift 3
	[[ " $smps " == *" $n "* ]] || return 0
	if [ -z "$t" ]; then
		t=$tests
	elif [ -n "$tests" ]; then
		for x in $t; do
			[[ " $tests " == *" $x "* ]] && sel="$sel $x"
		done
		[ -n "$sel" ] || return 0
		t=${sel# }
	fi
	d=$logs/$label
	t0=$(date +%s)
	env "$@" "$TOP/scripts/qemu-run.sh" -k "$img" -s "$n" -t "$t" \
		-T "${RTEDF_TIMEOUT:-1500}" -o "$d" || true
	env "$@" "$TOP/scripts/report.sh" "$d" "$label" "$xfail" || status=1
	msg "$label: guest run took $(($(date +%s) - t0)) s; logs in ${d#"$TOP"/}"
	cat "$d/counts" >>"$logs/counts"
}
run2() { run_on 2 "$@"; }

# The suite once more on cgroup v2, mounted as systemd does, on 1 vCPU
# (RTEDF_CGROUP=v2 in rtedf.h; cgroup_v2.c, delegation.c and coexist.c
# skip themselves in the other runs, the v1 interface's own tests in this
# one).  Stock has no RT reservations on v2: there only the tests of
# them, which stock-xfail lists.
v2tests=$([ "$kernel" = stock ] && echo "cgroup_v2 delegation coexist" || true)
run_on 1 v2 "$v2tests" RTEDF_APPEND="${RTEDF_APPEND:+$RTEDF_APPEND }rtedf.cgroup=v2"

# nohz_full: precision on a CPU whose tick stops under a single task
# (the selftest sched/rt-edf/precision.c).
run2 nohz2 precision RTEDF_APPEND="${RTEDF_APPEND:+$RTEDF_APPEND }nohz_full=1"
# Outcomes in time on the host's clock: plain TCG (the vCPUs in
# parallel; host stalls of a few ms) for the tests whose slack is well
# above that (placement; RTEDF_CLOCK=tcg lets them judge deadlines).
# Their traces are kept, not judged: timers come late by the host's stalls.
run2 tcg2 placement RTEDF_ICOUNT=0 SCHEDCHECK=0
# Core scheduling: coresched on 2 vCPUs that are SMT siblings of one core
# (the selftest sched/rt-edf/coresched.c; it skips itself elsewhere).
run2 smt2 coresched RTEDF_SMT=1

if [ "$kernel" = rtedf ] && [ "${TORTURE:-1}" = 1 ] && [ "${QUICK:-0}" != 1 ] &&
	[ -z "$tests" ]; then
	tsmps=$(for s in $smps; do [ "$s" -gt 1 ] && echo -n "$s "; done)
	if [ -n "$tsmps" ]; then
		TORTURE_XFAIL=$xfail TORTURE_NOBUILD=1 TORTURE_LOGS=$logs/torture SMP="$tsmps" \
			DURATION=${TORTURE_DURATION:-90} SEED=${SEED:-1} \
			"$TOP/scripts/torture.sh" || status=1
		cat "$logs/torture/counts" >>"$logs/counts"
		# The same churn on cgroup v2 (cpu.rt.max, leaves only), once,
		# under icount on 2 vCPUs, judged by the checker.
		CGROUP=v2 TORTURE_XFAIL=$xfail TORTURE_NOBUILD=1 TORTURE_LOGS=$logs/torture-v2 \
			SMP=" " ICOUNT_SMP=2 \
			SEED=${SEED:-1} "$TOP/scripts/torture.sh" || status=1
		cat "$logs/torture-v2/counts" >>"$logs/counts"
	fi
fi

# The schedule checker's own test: a trace that breaks each rule, and a
# clean one (tools/testing/rt-edf/schedcheck.py --selftest).
python3 "$TESTDIR/schedcheck.py" --selftest | awk '
	/^ok / { sub(/^ok /, ""); print "PASS  host schedcheck: " $0; p++; next }
	/^not ok / { sub(/^not ok /, ""); print "FAIL  host schedcheck: " $0; f++ }
	END { print p + 0, f + 0 > "/dev/stderr" }' 2>"$logs/schedcheck.counts" || status=1
cat "$logs/schedcheck.counts" >>"$logs/counts"

if [ "$kernel" = rtedf ] && [ "${QUICK:-0}" != 1 ]; then
	"$TOP/scripts/lint.sh" "$logs/lint" || status=1
	cat "$logs/lint/counts" >>"$logs/counts"
fi

read -r p f < <(awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }' "$logs/counts")
# What a failed program said, last, where the tail of a log (CI's) shows
# it: for a schedule it failed, the checker's first violation (the trace
# itself stays in the run's traces/ folder); for the torture, from its
# sentinel's first miss on; for the others (a failed point, or fewer
# than planned), their last diagnostics.  24 lines a program, 60 in all.
if [ "$f" != 0 ]; then
	find "$logs" -name results-checked.log | sort | while read -r r; do
		awk -v where="${r#"$logs"/}" '
			/^# rtedf: begin / {
				prog = $4; n = 0; m = 0; bad = 0; plan = -1; ran = 0
				sc = prog ~ /\/schedcheck$/; col = !sc; next
			}
			/^# rtedf: end / {
				if (plan > ran)
					buf[++n] = sprintf("# (ran %d of %d planned tests)", ran, plan)
				if (bad || plan > ran) {
					print "--- " where ": " prog
					s = (sc || n <= 12) ? 1 : m ? m : n - 11
					for (i = s; i <= n && i < s + 24; i++)
						print buf[i]
				}
				prog = ""; next
			}
			prog == "" { next }
			/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; next }
			/^ok / { ran++; next }
			/^not ok / { bad = 1; ran++; next }
			sc && /^# [a-z-]+: [0-9]+ violation/ { col = 1 }
			col && /^#/ { buf[++n] = $0; if (!m && /sentinel: miss/) m = n }' "$r"
	done | head -60 || true
fi
msg "took $(($(date +%s) - start)) s"
echo "$p passed, $f failed"
[ "$f" = 0 ] && [ "$status" = 0 ]
