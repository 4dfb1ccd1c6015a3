#!/usr/bin/env bash
# Turn one guest run into a verdict.
#
#   report.sh DIR LABEL [XFAIL-LIST]
#
# Reads DIR/results.log (the TAP of every test program, framed by
# '# rtedf: begin/end' lines, and the traces they saved, which
# schedcheck.py judges as programs NAME/schedcheck) and DIR/console.log
# (the kernel console).
# Prints one line per test point, 'PASS', 'FAIL', 'SKIP', or on a run with
# an expected-failure list 'XFAIL' (failed as listed: counts as passed) and
# 'XPASS' (passed although listed: counts as failed).  A listed point that
# skipped itself (too few CPUs) is neither.  A kernel splat on the
# console, a test program that crashed or ran short of its plan, and a run
# that did not finish are failures too.  Appends "passed failed" to
# DIR/counts and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

dir=${1:?dir} label=${2:?label} xfail=${3:-/dev/null}

# Kernel splats: WARN/BUG/Oops, lockdep, sleeping-in-atomic, soft and hard
# lockups, hung tasks, RCU stalls, UBSAN, panics.
SPLAT='WARNING:|BUG:|Oops|general protection fault|Kernel panic|INFO: (possible|inconsistent|lockdep|task .* blocked|rcu)|lockdep|soft lockup|hard LOCKUP|blocked for more than|rcu_.* detected stall|UBSAN:|Call Trace:'

# The schedules the tests traced are judged by the checker, each as a
# program NAME/schedcheck of its own (tools/testing/rt-edf/schedcheck.py).
# SCHEDCHECK=0 (runs on the host's clock, where timers come late by the
# host's stalls): the traces are kept but not judged.
if [ -f "$dir/results.log" ]; then
	python3 "$TESTDIR/schedcheck.py" $([ "${SCHEDCHECK:-1}" = 0 ] && echo --no-verdict) \
		--results "$dir/results.log" "$dir/traces" >"$dir/results-checked.log"
fi
{
	grep -aE "$SPLAT" "$dir/console.log" 2>/dev/null | head -20 | sed 's/^/SPLAT /' || true
	echo "RESULTS"
	cat "$dir/results-checked.log" 2>/dev/null || true
} | tr -d '\r' | awk -v label="$label" -v xfile="$xfail" '
BEGIN {
	while ((getline l < xfile) > 0) {
		sub(/[ \t]*#.*/, "", l)
		# "? line": known to fail in some runs; a pass is no XPASS.
		if (l ~ /^\? /) { sub(/^\? /, "", l); maybe[l] = 1 }
		if (l != "") xf[l] = 1
	}
}
function verdict(v, name) {
	printf "%-5s %s %s\n", v, label, name
	if (v == "PASS" || v == "XFAIL") pass++
	else if (v == "SKIP") skip++
	else fail++
}
function result(ok, name, listed, k) {
	k = (prog in xf) ? prog : ((label " " prog ": " name) in xf) ? label " " prog ": " name : prog ": " name
	listed = k in xf
	# A line for this run stands for the general one of the point too.
	if (listed) { seen[k] = 1; seen[prog ": " name] = 1 }
	if (ok) verdict(listed && !(k in maybe) ? "XPASS" : "PASS", prog ": " name)
	else verdict(listed ? "XFAIL" : "FAIL", prog ": " name)
}
/^SPLAT / { sub(/^SPLAT /, ""); verdict("FAIL", "console: " $0); next }
/^RESULTS$/ { inres = 1; next }
!inres { next }
/^# rtedf: begin / { prog = $4; progs[prog] = 1; planned = -1; ran = 0; bad = 0; open = 1; next }
/^# rtedf: end / {
	rc = $5; sub(/rc=/, "", rc)
	if (planned >= 0 && ran != planned)
		result(0, sprintf("ran %d of %d planned tests", ran, planned))
	else if (rc != 0 && !bad)
		result(0, sprintf("exited with status %s", rc))
	else if (ran == 0 && rc != 0)
		result(0, "ran no test")
	open = 0; next
}
/^# rtedf: done/ { done = 1; next }
/^1\.\.[0-9]+/ { planned = substr($1, 4) + 0; next }
/^(not )?ok [0-9]+ / {
	ok = ($1 == "ok")
	name = $0; sub(/^(not )?ok [0-9]+ /, "", name)
	if (name ~ /# *SKIP/) {
		# "ok N # SKIP reason" (kselftest) names the point after SKIP.
		if (name ~ /^# *SKIP/) sub(/^# *SKIP */, "", name)
		else sub(/ *# *SKIP.*/, "", name)
		# A listed point skipped (too few CPUs, say) did not fail to run.
		if ((prog in xf) || ((prog ": " name) in xf))
			seen[(prog in xf) ? prog : prog ": " name] = 1
		verdict("SKIP", prog ": " name); ran++; next
	}
	sub(/ +# .*$/, "", name)
	ran++
	if (!ok) bad = 1
	result(ok, name)
	next
}
END {
	if (open) result(0, "did not finish")
	if (!done) verdict("FAIL", "the guest run did not complete (timeout, hang or crash)")
	for (k in xf) {
		p = k; sub(/: .*/, "", p)
		# "LABEL prog: point" lines are for the runs of that label only.
		if (p ~ / /) { if (substr(p, 1, length(label) + 1) != label " ") continue; sub(/^[^ ]* /, "", p) }
		if ((p in progs) && !(k in seen))
			verdict("FAIL", "expected to fail but never ran: " k)
	}
	printf "%d %d\n", pass, fail > "/dev/stderr"
}' 2>"$dir/counts.tmp"
read -r p f <"$dir/counts.tmp"
echo "$p $f" >>"$dir/counts"
rm -f "$dir/counts.tmp"
echo "$label: $p passed, $f failed"
[ "$f" = 0 ]
