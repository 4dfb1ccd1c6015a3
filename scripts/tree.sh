#!/usr/bin/env bash
# Generated kernel trees.
#
#   tree.sh rtedf   build/linux: git repository, tag 'base' = pristine
#                   Debian source, patches/ applied on top with git am.
#   tree.sh stock   build/linux-stock: a worktree of build/linux at 'base'.
#   tree.sh reset   throw away build/linux's commits, re-apply patches/.
#   tree.sh export  write base..HEAD of build/linux into patches/.
#
# build/linux is the developers' working tree: it is only re-created from
# patches/ when patches/ changed and the tree has no commits of its own
# since the last apply or export, so work in progress is never thrown away.
. "$(dirname "$0")/lib.sh"

STAMP=$KTREE/.git/rt-edf-series   # "<series hash> <HEAD>" after apply/export

git_k() { git -C "$KTREE" "$@"; }

series_files() {
	[ -f "$TOP/patches/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"
}

series_hash() {
	{ cat "$TOP/patches/series" 2>/dev/null
	  series_files | while read -r p; do cat "$TOP/patches/$p"; done
	} | sha1sum | cut -d' ' -f1
}

write_stamp() { echo "$(series_hash) $(git_k rev-parse HEAD)" >"$STAMP"; }

create_tree() {
	[ -f "$KTARBALL" ] || die "$KTARBALL not found: run scripts/deps.sh"
	local ver tmp
	ver=$(dpkg-query -W -f='${Version}' "$KERNEL_PKG" 2>/dev/null || echo unknown)
	[ "$ver" = "$KERNEL_DEB_VERSION" ] ||
		msg "WARNING: building on $KERNEL_PKG $ver, not the pinned $KERNEL_DEB_VERSION"
	msg "extracting $KTARBALL ($ver) into $KTREE"
	tmp=$KTREE.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$KTARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b master
	git -C "$tmp" config user.name "rt-edf harness"
	git -C "$tmp" config user.email "rt-edf@localhost"
	git -C "$tmp" config gc.auto 0
	# Debian's top-level .gitignore ignores everything at the top level
	# ("/*"): add with -f so that base is the whole pristine tarball.
	git -C "$tmp" add -A -f .
	git -C "$tmp" commit -q -m "Linux $(make -s -C "$tmp" kernelversion) from Debian $KERNEL_PKG $ver"
	git -C "$tmp" tag base
	echo "$ver" >"$tmp/.git/rt-edf-source"
	mv "$tmp" "$KTREE"
}

apply_series() {
	local p n=0
	git_k reset -q --hard base
	while read -r p; do
		[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which is missing"
		if ! git_k am -q --whitespace=nowarn "$TOP/patches/$p"; then
			git_k am --abort || true
			git_k reset -q --hard base
			die "patches/$p does not apply to $(cat "$KTREE/.git/rt-edf-source")"
		fi
		n=$((n + 1))
	done < <(series_files)
	msg "applied $n patch(es) from patches/ onto base"
	write_stamp
}

ensure_rtedf() {
	[ -d "$KTREE/.git" ] || { create_tree; apply_series; return; }
	local want have_hash have_head
	want=$(series_hash)
	read -r have_hash have_head <"$STAMP" 2>/dev/null || true
	[ "$want" = "${have_hash:-}" ] && return 0
	if [ "$(git_k rev-parse HEAD)" = "${have_head:-}" ] &&
	   [ -z "$(git_k status --porcelain --untracked-files=no)" ]; then
		msg "patches/ changed: re-applying the series"
		apply_series
	else
		msg "WARNING: patches/ changed, but build/linux has its own commits or"
		msg "WARNING: edits since the last apply/export; building build/linux as"
		msg "WARNING: it is.  'make patches' exports it, 'make tree-reset' discards it."
	fi
}

ensure_stock() {
	ensure_rtedf_exists
	if [ ! -e "$STOCKTREE/.git" ]; then
		git_k worktree prune
		git_k worktree add -q --detach "$STOCKTREE" base
	fi
	git -C "$STOCKTREE" checkout -q --detach base
	[ -z "$(git -C "$STOCKTREE" status --porcelain --untracked-files=no)" ] ||
		die "$STOCKTREE has edits: it must stay the pristine base"
}

ensure_rtedf_exists() { [ -d "$KTREE/.git" ] || ensure_rtedf; }

export_series() {
	[ -d "$KTREE/.git" ] || die "no kernel tree at $KTREE"
	[ -z "$(git_k status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted edits: commit them first"
	local tmp
	tmp=$(mktemp -d)
	git_k -c user.name="rt-edf developers" -c user.email=rt-edf@example.org \
		format-patch -q --zero-commit --no-signature --cover-letter \
		-o "$tmp" base..HEAD
	# The cover letter: its subject is the first line of
	# patches/cover-letter.txt, its text the rest (after a blank line);
	# git fills in the shortlog and the diffstat.  Not in the series.
	# Written before patches/ is touched, so that a failure leaves it.
	if [ -f "$TOP/patches/cover-letter.txt" ] && [ -f "$tmp"/0000-cover-letter.patch ]; then
		python3 - "$TOP/patches/cover-letter.txt" "$tmp"/0000-cover-letter.patch \
			"$(git_k log -1 --format=%aD)" <<-'EOF'
		import re, sys
		src, dst, date = sys.argv[1:4]
		subject, _, blurb = open(src).read().partition('\n')
		text = open(dst).read()
		# Dated as the last patch, so that an export changes it only
		# when the series changed.
		text = re.sub(r'(?m)^Date: .*$', 'Date: ' + date, text, count=1)
		text = text.replace('*** SUBJECT HERE ***', subject.strip(), 1)
		text = text.replace('*** BLURB HERE ***', blurb.strip('\n'), 1)
		open(dst, 'w').write(text)
		EOF
	fi
	rm -f "$TOP"/patches/*.patch
	: >"$TOP/patches/series"
	if [ -f "$TOP/patches/cover-letter.txt" ] && [ -f "$tmp"/0000-cover-letter.patch ]; then
		sed 's/^ $//' "$tmp"/0000-cover-letter.patch >"$TOP/patches/0000-cover-letter.patch"
	fi
	rm -f "$tmp"/0000-cover-letter.patch
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		# A blank context line is written empty, not as one space
		# (git am and patch take both): checkpatch.pl, run from a
		# repository that tracks patches/, reads a tracked .patch as a
		# source file and would call every such line trailing
		# whitespace.
		sed 's/^ $//' "$f" >"$TOP/patches/$(basename "$f")"
		basename "$f" >>"$TOP/patches/series"
	done
	rm -rf "$tmp"
	write_stamp
	msg "exported $(wc -l <"$TOP/patches/series") patch(es) into patches/"
}

mkdir -p "$BUILD"
case "${1:-}" in
rtedf) ensure_rtedf ;;
stock) ensure_stock ;;
reset) ensure_rtedf_exists; apply_series ;;
export) export_series ;;
*) die "usage: $0 rtedf|stock|reset|export" ;;
esac
