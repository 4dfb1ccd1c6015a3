// SPDX-License-Identifier: GPL-2.0
/*
 * Work conservation: an RT task that can run on an idle CPU of its
 * affinity runs there, rather than wait behind another group's server.
 * On 2 CPUs or more, for RUN_NS:
 *
 *  - group pl-busy, 60 ms / 100 ms: a busy task (SCHED_FIFO 50) pinned
 *    to CPU 0;
 *  - group pl-per, 20 ms / 100 ms: a periodic task (SCHED_FIFO 10), not
 *    pinned, that last ran on CPU 0 when its first release wakes it:
 *    1 ms every 20 ms, its deadline the next release (its budget is four
 *    times what it needs, so that host stalls charged to it on plain TCG
 *    do not exhaust it);
 *  - the root group: the same, 0.5 ms every 20 ms.
 *
 * Every other CPU is idle, so both periodic tasks can run as soon as they
 * are released, wherever pl-busy is: they must meet every deadline.  On
 * CPU 0 alone they could not: pl-per's server has a deadline up to 100 ms
 * away and pl-busy's budget lasts 60 ms.
 *
 * Judged two ways.  The schedule is traced and judged by schedcheck.py
 * (placement/schedcheck), whose idle rule flags any wait of more than
 * 100 us of the kernel's clock while a CPU idles: under icount, where the
 * decisions are exact but a vCPU may stand still for several
 * milliseconds while the other runs, and charge them to its task's
 * server (up to 18 ms measured here: budgets run out and jobs miss by
 * no fault of the scheduler).  The deadlines, which are outcomes in time,
 * are judged only on the host's clock (RTEDF_CLOCK=tcg, run tcg2 of
 * scripts/check.sh: plain TCG, the vCPUs in parallel), where host stalls
 * are a few milliseconds (vcpu_stall: 4 ms at worst), well below a job's
 * 19 ms of slack; elsewhere these two points skip.  But not always
 * below the root task's slack behind pl-per: when the host stalls CPU 1
 * while pl-per runs there, the stall is charged to pl-per (13.1 ms for
 * a 1 ms job in the fresh-clone check at 010a117), and the root task,
 * queued on CPU 1 with a later deadline, waits for it while pl-busy
 * keeps CPU 0: it finished 0.98 ms late, and the trace was clean.  So
 * every task of the test logs the stalls its own loop sees
 * (stall_log_start()), and a late job counts only when its lateness
 * exceeds its wakeup latency plus the stalls on its CPUs while it was
 * queued (periodic_unexplained()).  A wait behind pl-busy's server is no
 * stall: pl-busy runs through it and is charged only what it runs.  Stalls
 * also drain a budget for later jobs, which this does not excuse: with other
 * emulators running beside it (365 ms of stalls in the 3 s) the root's
 * own budget, the suite's 50 ms a second, ran out on CPU 1 (a throttle
 * in the trace) and 29 root jobs were late by up to 545 ms.  A larger
 * budget for the root's own tasks would hide the root task's wait on
 * the series before the fix (with 100 ms a second it met every
 * deadline there), so the run needs a host that is not loaded otherwise.
 *
 * Fails on the series before work-conserving placement (21d83fc, patch
 * 11 as it was): on 2 vCPUs of plain TCG 60 of the 150 jobs of each task
 * missed, by up to 35 ms (rerun with the stall log: pl-per 60 late, the
 * root task 51, by up to 635 ms, none explained by the 65 stalls, 28.1 ms
 * in all, that the tasks saw);
 * under icount, schedcheck's idle rule flagged 68 waits of up to 31 ms.
 * Passes on stock, which places by priority.
 */
#include <stdio.h>

#include "rtedf.h"

#define GB		"pl-busy"
#define GP		"pl-per"
#define RUN_NS		(3 * NSEC_PER_SEC)
#define PERIOD		(20 * NSEC_PER_MSEC)
#define PER_MSG		"a periodic task of another group, unpinned, misses no deadline next to a busy reservation while a CPU idles"
#define ROOT_MSG	"a root-group periodic task, unpinned, misses no deadline next to a busy reservation while a CPU idles"

int main(void)
{
	struct periodic_stats *ps, *rs;
	unsigned long pu, ru, n, dropped;
	pid_t busy, per, root;
	uint64_t t0, stalled;

	rtedf_init();
	ksft_set_plan(2);
	if (nr_cpus() < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		ksft_test_result_skip(PER_MSG "\n");
		ksft_test_result_skip(ROOT_MSG "\n");
		ksft_finished();
	}
	if (cg_group(GB, 100000, 60000) || cg_group(GP, 100000, 20000))
		die("setting up the groups");
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	stall_log_start();
	t0 = now_ns() + 200 * NSEC_PER_MSEC;
	busy = spawn_busy_until(GB, SCHED_FIFO, 50, 0, t0, t0 + RUN_NS + PERIOD);
	per = spawn_periodic_near(GP, 10, 0, NSEC_PER_MSEC, PERIOD, t0 + PERIOD / 2,
				  RUN_NS, &ps);
	root = spawn_periodic_near("", 10, 0, NSEC_PER_MSEC / 2, PERIOD,
				   t0 + PERIOD / 2 + NSEC_PER_MSEC, RUN_NS, &rs);
	if (busy < 0 || per < 0 || root < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(t0);
	wait_periodic(per, ps);
	wait_periodic(root, rs);
	stop_child(busy);
	sched_trace_save("placement");
	cg_remove(GP);
	cg_remove(GB);

	pu = periodic_unexplained(ps);
	ru = periodic_unexplained(rs);
	n = stall_count(&stalled, &dropped);
	ksft_print_msg(GP ": %lu jobs, %lu late (%lu not explained by host stalls), worst lateness %.3f ms\n",
		       ps->jobs, ps->misses, pu, ps->max_lateness_ns / 1e6);
	ksft_print_msg("root: %lu jobs, %lu late (%lu not explained by host stalls), worst lateness %.3f ms\n",
		       rs->jobs, rs->misses, ru, rs->max_lateness_ns / 1e6);
	ksft_print_msg("host stalls seen by the tasks: %lu, %.3f ms in all%s\n",
		       n, stalled / 1e6, dropped ? " (more not logged)" : "");
	outcome_result(ps->jobs >= 140 && !pu, PER_MSG);
	outcome_result(rs->jobs >= 140 && !ru, ROOT_MSG);
	ksft_finished();
}
