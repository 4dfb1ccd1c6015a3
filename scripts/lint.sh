#!/usr/bin/env bash
# checkpatch.pl --strict on every patch of the series, and sparse (C=2) on
# kernel/sched/ compared with the stock tree's own warnings.
#
#   lint.sh DIR    (writes DIR/counts "passed failed" and the logs)
. "$(dirname "$0")/lib.sh"

dir=${1:?dir}
mkdir -p "$dir"
pass=0 fail=0
verdict() {
	printf '%-5s lint %s\n' "$1" "$2"
	if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

n=0
while read -r p; do
	[ -n "$p" ] || continue
	n=$((n + 1))
	# As a patch (from stdin), and as a reviewer runs it from this
	# repository's root, where checkpatch reads a tracked file as source.
	# UNKNOWN_COMMIT_ID is left out: the base is Debian's source tarball,
	# with no upstream history in which checkpatch could find a commit
	# that a message names (patches 11 and 21 name the upstream commits they backport).
	if "$KTREE/scripts/checkpatch.pl" --strict --no-tree --terse -q \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID - <"$TOP/patches/$p" >"$dir/checkpatch-$p.log" 2>&1 &&
	   (cd "$TOP" && "$KTREE/scripts/checkpatch.pl" --strict --no-tree --terse -q \
		"patches/$p") >>"$dir/checkpatch-$p.log" 2>&1; then
		verdict PASS "checkpatch --strict: $p"
	else
		verdict FAIL "checkpatch --strict: $p"
		sed 's/^/    /' "$dir/checkpatch-$p.log"
	fi
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" 2>/dev/null)
[ $n -gt 0 ] || msg "checkpatch: the series is empty"

# sparse: normalise 'path:line:col: warning: text' to 'file: warning: text'
# so that line moves do not count, then compare the multisets.
# A warning is its file, the text of the source line it points at and
# its message, once: line numbers differ between the trees, and an inline
# helper's warning (rq->curr is __rcu in this kernel: task_current(),
# put_prev_task()) is reported again for every new caller.
sparse_run() {
	local variant=$1 log=$2
	DEBUG=0 RT=0 "$TOP/scripts/kbuild.sh" "$variant" C=2 kernel/sched/ 2>&1 |
		grep -E ':[0-9]+:[0-9]+: (warning|error):' |
		python3 -c '
import re, sys
for l in sys.stdin:
    m = re.match(r"(.*?):(\d+):\d+: (.*)", l.rstrip("\n"))
    path, line, msg = m.group(1), int(m.group(2)), m.group(3)
    try:
        src = open(path, errors="replace").read().split("\n")[line - 1].strip()
    except (OSError, IndexError):
        src = "?"
    short = re.sub(r"^.*/(kernel|include|arch)/", r"\1/", path)
    print("%s: %s [%s]" % (short, msg, src))
' | LC_ALL=C sort -u >"$log"
}
base=$BUILD/stock/out/stock/sparse-kernel-sched-lines.log
mkdir -p "${base%/*}"
if [ ! -s "$base" ] || [ "$base" -ot "$BUILD/stock/out/stock/.config" ]; then
	sparse_run stock "$base.tmp" && mv "$base.tmp" "$base"
fi
sparse_run rtedf "$dir/sparse.log"
LC_ALL=C comm -13 "$base" "$dir/sparse.log" >"$dir/sparse-new.log"
if [ -s "$dir/sparse-new.log" ]; then
	verdict FAIL "sparse kernel/sched/: $(wc -l <"$dir/sparse-new.log") warning(s) beyond stock's $(wc -l <"$base")"
	sed 's/^/    /' "$dir/sparse-new.log"
else
	verdict PASS "sparse kernel/sched/: no warning beyond stock's $(wc -l <"$base")"
fi
echo "$pass $fail" >"$dir/counts"
[ $fail = 0 ]
