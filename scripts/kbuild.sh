#!/usr/bin/env bash
# Configure and build one kernel image, incrementally, with ccache.
#
#   kbuild.sh rtedf|stock [make target...]
#
# rtedf builds build/linux (base + patches/), stock builds the pristine
# worktree build/linux-stock.  DEBUG=1 adds config/debug.config, RT=1
# config/rt.config (PREEMPT_RT).  Objects go to
# build/out/<variant>[-debug][-rt]; the image is copied to
# build/bzImage[-stock][-debug][-rt].  Extra arguments are passed to make
# instead of the default 'bzImage' (e.g. C=2 kernel/sched/).
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: kbuild.sh rtedf|stock [make args]}
shift
case $variant in
rtedf) src=$KTREE; img=bzImage ;;
stock) src=$STOCKTREE; img=bzImage-stock ;;
*) die "unknown variant $variant" ;;
esac
frags=("$TOP/config/rt-edf.config")
out=$BUILD/out/$variant
[ "$variant" = stock ] && out=$BUILD/stock/out/$variant
if [ "${DEBUG:-0}" = 1 ]; then
	frags+=("$TOP/config/debug.config")
	out=$out-debug
	img=$img-debug
fi
if [ "${RT:-0}" = 1 ]; then
	frags+=("$TOP/config/rt.config")
	out=$out-rt
	img=$img-rt
fi

"$TOP/scripts/tree.sh" "$variant"
mkdir -p "$out"

export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
export KBUILD_BUILD_USER=rt-edf KBUILD_BUILD_HOST=qemu
export KBUILD_BUILD_TIMESTAMP="@0"
jobs=$(nproc)
kmake() { make -s -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "$@"; }

# Configure only when a fragment (or the tree) is newer than the config.
cfg=$out/.config
stamp=$out/.rt-edf-config
want=$(cat "${frags[@]}" | sha1sum)
want="$want $(git -C "$src" rev-parse HEAD)"
if [ ! -f "$cfg" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	msg "configuring $variant (tinyconfig + ${frags[*]##*/})"
	kmake tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$cfg" "${frags[@]}" >merge.log 2>&1) ||
		{ cat "$out/merge.log"; die "merge_config.sh failed"; }
	kmake olddefconfig >/dev/null
	# Check that every option of the fragments really stuck (a later
	# fragment's setting of an option replaces an earlier one's).
	bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$cfg" || {
				msg "config: wanted '$line', got '$(grep -E "^(# )?${line%%=*}[= ]" "$cfg" || echo "${line%%=*} absent")'"
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -qE "^$opt=" "$cfg"; then
				msg "config: wanted $opt off, got '$(grep -E "^$opt=" "$cfg")'"
				bad=1
			fi ;;
		esac
	done < <(cat "${frags[@]}" | awk '
		/^CONFIG_[A-Za-z0-9_]*=/ { o = $0; sub(/=.*/, "", o) }
		/^# CONFIG_[A-Za-z0-9_]* is not set/ { o = $2 }
		/^(CONFIG_|# CONFIG_.* is not set)/ { if (!(o in last)) order[n++] = o; last[o] = $0 }
		END { for (i = 0; i < n; i++) print last[order[i]] }')
	[ $bad = 0 ] || die "the config fragments did not stick (see above)"
	echo "$want" >"$stamp"
fi

if [ $# -gt 0 ]; then
	kmake "$@"
	exit
fi
msg "building $variant$([ "${DEBUG:-0}" = 1 ] && echo ' (debug)')$([ "${RT:-0}" = 1 ] && echo ' (PREEMPT_RT)') in ${out#"$TOP"/}"
kmake bzImage
cp "$out/arch/x86/boot/bzImage" "$BUILD/$img"
msg "image: build/$img ($(make -s -C "$src" kernelversion))"
