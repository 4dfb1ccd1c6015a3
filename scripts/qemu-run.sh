#!/usr/bin/env bash
# Boot a kernel with the test initramfs in QEMU and save what it printed.
#
#   qemu-run.sh [-k IMAGE] [-s SMP] [-m MODE] [-t TESTS] [-T TIMEOUT] -o DIR
#
# MODE is check, demo or shell (see tools/testing/rt-edf/init).
# '-icount shift=0,sleep=off' makes guest time virtual (one instruction, one
# nanosecond; idle time skipped), so runs are reproducible whatever the host
# load, and timers fire on time.  Plain multi-threaded TCG follows the host
# clock instead: its timer interrupts arrive up to a millisecond late here,
# which no microsecond-scale real-time test survives.  icount runs the
# vCPUs in turn on one host thread; with this kernel config it boots with
# 2 and more vCPUs.  RTEDF_ICOUNT=0 selects plain TCG, RTEDF_KVM=1 tries
# KVM first (it does not boot guests on these machines).
# DIR receives console.log (ttyS0) and results.log (ttyS1).  Exit status:
# 0, or 124 when the hard timeout killed QEMU.  RTEDF_SMT=1 makes the
# vCPUs SMT siblings of one core (-smp N,sockets=1,cores=1,threads=N), as
# core scheduling needs.  CGROUP=v2 boots the guest with rtedf.cgroup=v2:
# the tests and workloads then use cgroup v2 (the selftests' rtedf.h).
. "$(dirname "$0")/lib.sh"

img=$BUILD/bzImage smp=1 mode=check tests= timeout=900 outdir=
while getopts k:s:m:t:T:o: opt; do
	case $opt in
	k) img=$OPTARG ;;
	s) smp=$OPTARG ;;
	m) mode=$OPTARG ;;
	t) tests=$OPTARG ;;
	T) timeout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) die "bad option" ;;
	esac
done
[ -f "$img" ] || die "no kernel image $img"
initrd=$BUILD/initramfs.cpio.gz
[ -f "$initrd" ] || die "no initramfs: run scripts/initramfs.sh"

append="console=ttyS0 loglevel=5 panic=-1 rtedf.mode=$mode"
append+=" hung_task_panic=0 softlockup_panic=0"
# RCU boosts a reader that blocks a grace period for RCU_BOOST_DELAY to
# this priority: above every test task, so a reader that its own group's
# higher-priority tasks or an exhausted budget keep off the CPU gets it
# (a PI-boosted task runs even when its group is throttled).
append+=" rcutree.kthread_prio=99"
[ -n "$tests" ] && append+=" rtedf.tests=${tests// /,}"
case ${CGROUP:-v1} in
v1) ;;
v2) append+=" rtedf.cgroup=v2" ;;
*) die "CGROUP must be v1 or v2" ;;
esac
[ -n "${RTEDF_APPEND:-}" ] && append+=" $RTEDF_APPEND"

# The guest learns which clock it runs on (rtedf.clock=, RTEDF_CLOCK in
# the tests): under icount on several vCPUs the tests leave outcomes in
# time to the schedule checker (outcomes_judged() in rtedf.c).
accel=(-accel tcg)
clock=tcg
if [ "${RTEDF_KVM:-0}" = 1 ] && [ -w /dev/kvm ]; then
	accel=(-accel kvm -accel tcg)
	clock=kvm
elif [ "${RTEDF_ICOUNT:-1}" = 1 ]; then
	accel+=(-icount shift=0,sleep=off)
	clock=icount
fi
# Plain TCG with more vCPUs than host CPUs: the vCPU threads take turns on
# the host's CPUs, and a vCPU stands still while its thread waits for one:
# outcomes in time are not judged there either.
[ "$clock" = tcg ] && [ "$smp" -gt "$(nproc)" ] && clock=tcg-shared
append+=" rtedf.clock=$clock"
smpopt=$smp
[ "${RTEDF_SMT:-0}" = 1 ] && smpopt="$smp,sockets=1,cores=1,threads=$smp"
qemu=(qemu-system-x86_64 "${accel[@]}" -m 512M -smp "$smpopt" -no-reboot
      -net none -kernel "$img" -initrd "$initrd" -append "$append")

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -nographic -serial mon:stdio -serial null
fi

[ -n "$outdir" ] || die "-o DIR is required"
mkdir -p "$outdir"
rm -f "$outdir/console.log" "$outdir/results.log"
echo "${qemu[*]}" >"$outdir/qemu.cmd"
# RTEDF_PIN=1 (plain TCG with more vCPUs than host CPUs): vCPU 0's thread
# gets the last host CPU, shared only with QEMU's main loop (which fires
# the emulated timers); the other vCPU threads share the other host CPUs.
# CPU 0 is the one the torture's sentinel uses.  In 90 s 4-vCPU tortures
# it lost 1.9, 2.2 and 3.2 s to holes pinned, 2.3 and 4.1 s unpinned.
pin_vcpus() {
	local pid=$1 t comm last others
	last=$(($(nproc) - 1))
	others=0-$((last - 1))
	[ "$last" -ge 1 ] || return 0
	for _ in $(seq 100); do
		[ -d "/proc/$pid" ] || return 0
		grep -qx "CPU $((smp - 1))/TCG" /proc/"$pid"/task/*/comm 2>/dev/null && break
		sleep 0.1
	done
	for t in /proc/"$pid"/task/*; do
		comm=$(cat "$t/comm" 2>/dev/null) || continue
		case $comm in
		"CPU 0/TCG" | qemu-system-*) taskset -pc "$last" "${t##*/}" ;;
		*) taskset -pc "$others" "${t##*/}" ;;
		esac >/dev/null 2>&1 || true
	done
	msg "pinned vCPU 0 to host CPU $last, the other threads to $others"
}
name=()
[ "${RTEDF_PIN:-0}" = 1 ] && name=(-name "rtedf,debug-threads=on")
rc=0
timeout -k 10 "$timeout" "${qemu[@]}" "${name[@]}" -display none -monitor none \
	-serial "file:$outdir/console.log" -serial "file:$outdir/results.log" \
	</dev/null >"$outdir/qemu.out" 2>&1 &
qpid=$!
if [ "${RTEDF_PIN:-0}" = 1 ]; then
	for _ in $(seq 50); do
		q=$(pgrep -P "$qpid" -x qemu-system-x86 || true)
		[ -n "$q" ] && break
		sleep 0.05
	done
	if [ -n "$q" ]; then pin_vcpus "$q"; fi
fi
wait "$qpid" || rc=$?
[ $rc = 124 ] || [ $rc = 137 ] && { msg "QEMU killed after ${timeout}s"; exit 124; }
[ $rc = 0 ] || { cat "$outdir/qemu.out" >&2; die "QEMU failed ($rc)"; }
exit 0
