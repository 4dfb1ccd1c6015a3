#!/usr/bin/env bash
# make series-check: build and boot every prefix of the series.
#
# For each commit of build/linux base..HEAD, in order: check it out in the
# worktree build/series/linux, build it (incrementally, ccache), boot it on
# one vCPU with a smoke test (SERIES_TESTS, default: cgroup_files share
# fork_inherit: behaviour every patch keeps; bad_input asserts the errors
# of the admission patch and fails before it), and run checkpatch --strict on that patch alone.  Then
# compile the scheduler and locking objects (kernel/sched/, kernel/locking/,
# kernel/softirq.o) in the other configurations a maintainer builds,
# SERIES_CONFIGS (default "nosmp norg rt rt-norg"; "" for none): nosmp
# without CONFIG_SMP, norg without CONFIG_RT_GROUP_SCHED (Debian's
# default), rt with CONFIG_PREEMPT_RT (config/rt.config), rt-norg with it
# but without RT group scheduling (Debian's -rt default); each from
# tinyconfig and config/rt-edf.config, objects in
# build/series/out/<name>, a warning fails as in the main build.  Prints one verdict per patch and
# 'N passed, N failed'.
. "$(dirname "$0")/lib.sh"

tree=$BUILD/series/linux
out=$BUILD/series/out/series
tests=${SERIES_TESTS:-cgroup_files share fork_inherit}

"$TOP/scripts/tree.sh" rtedf
"$TOP/scripts/initramfs.sh"
if [ ! -e "$tree/.git" ]; then
	git -C "$KTREE" worktree prune
	git -C "$KTREE" worktree add -q --detach "$tree" base
fi
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
export KBUILD_BUILD_USER=rt-edf KBUILD_BUILD_HOST=qemu KBUILD_BUILD_TIMESTAMP="@0"
kmake() { make -s -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"; }
vmake() {
	local o=$1
	shift
	make -s -C "$tree" O="$o" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"
}
variants=${SERIES_CONFIGS-nosmp norg rt rt-norg}
# The options that make a variant; each must still be in its .config after
# olddefconfig (other options of config/rt-edf.config may drop out, the
# SMP-only ones without SMP).
vopts() {
	case $1 in
	nosmp) echo '# CONFIG_SMP is not set' ;;
	norg) echo '# CONFIG_RT_GROUP_SCHED is not set' ;;
	rt) printf '%s\n' CONFIG_PREEMPT_RT=y CONFIG_RT_GROUP_SCHED=y ;;
	rt-norg) printf '%s\n' CONFIG_PREEMPT_RT=y '# CONFIG_RT_GROUP_SCHED is not set' ;;
	*) return 1 ;;
	esac
}
# Configure a variant's object folder from tinyconfig, config/rt-edf.config
# (and config/rt.config for rt and rt-norg) and its options, again whenever
# one of them changes; its .config then follows each commit through
# olddefconfig.
vconfig() {
	local v=$1 o=$BUILD/series/out/$1 frags=("$TOP/config/rt-edf.config") stamp
	case $v in rt*) frags+=("$TOP/config/rt.config") ;; esac
	mkdir -p "$o"
	vopts "$v" >"$o/variant.config"
	frags+=("$o/variant.config")
	stamp=$(cat "${frags[@]}" | sha1sum)
	[ -f "$o/.config" ] && [ "$(cat "$o/.rt-edf-stamp" 2>/dev/null)" = "$stamp" ] && return 0
	rm -f "$o/.config" "$o/.rt-edf-stamp"
	vmake "$o" tinyconfig >/dev/null &&
		(cd "$o" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" \
			"${frags[@]}" >merge.log 2>&1) ||
		die "configuring $v failed ($o/merge.log)"
	echo "$stamp" >"$o/.rt-edf-stamp"
}
for v in $variants; do
	vopts "$v" >/dev/null || die "SERIES_CONFIGS: unknown configuration $v (nosmp, norg, rt, rt-norg)"
	vconfig "$v"
done

pass=0 fail=0
n=0
for c in $(git -C "$KTREE" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	subject=$(git -C "$KTREE" log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach "$c"
	mkdir -p "$out"
	if [ ! -f "$out/.config" ]; then
		cp "$BUILD/out/rtedf/.config" "$out/.config"
	fi
	kmake olddefconfig >/dev/null
	why=
	if ! kmake bzImage >"$out/build-$n.log" 2>&1; then
		why="does not build (build/series/out/series/build-$n.log)"
	elif grep -q 'warning:' "$out/build-$n.log"; then
		why="builds with warnings (build/series/out/series/build-$n.log)"
	else
		d=$BUILD/logs/series/$n
		"$TOP/scripts/qemu-run.sh" -k "$out/arch/x86/boot/bzImage" -s 1 \
			-t "$tests" -T 600 -o "$d" || true
		"$TOP/scripts/report.sh" "$d" "patch $n" >"$d/report" ||
			why="fails its smoke test ($(grep -c '^FAIL' "$d/report") failures, $d)"
		for v in $variants; do
			vo=$BUILD/series/out/$v
			if ! vmake "$vo" olddefconfig >"$vo/config-$n.log" 2>&1; then
				why="${why:+$why; }configuration $v fails (build/series/out/$v/config-$n.log)"
				continue
			fi
			lost=$(vopts "$v" | grep -vxF -f "$vo/.config" || true)
			if [ -n "$lost" ]; then
				why="${why:+$why; }configuration $v lost ${lost//$'\n'/, }"
			elif ! vmake "$vo" kernel/sched/ kernel/locking/ kernel/softirq.o \
				>"$vo/build-$n.log" 2>&1; then
				why="${why:+$why; }does not build in configuration $v (build/series/out/$v/build-$n.log)"
			elif grep -q 'warning:' "$vo/build-$n.log"; then
				why="${why:+$why; }builds with warnings in configuration $v (build/series/out/$v/build-$n.log)"
			fi
		done
		git -C "$KTREE" format-patch -1 --stdout "$c" |
			"$KTREE/scripts/checkpatch.pl" --strict --terse -q \
			--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID - >"$d/checkpatch" 2>/dev/null ||
			why="${why:+$why; }checkpatch --strict complains ($d/checkpatch)"
	fi
	if [ -z "$why" ]; then
		printf 'PASS  series %02d %s\n' "$n" "$subject"
		pass=$((pass + 1))
	else
		printf 'FAIL  series %02d %s: %s\n' "$n" "$subject" "$why"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
