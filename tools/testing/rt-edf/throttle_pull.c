// SPDX-License-Identifier: GPL-2.0
/*
 * Global fixed priority inside a group when another group's server runs
 * out: the CPU that throttles it switches to the next group's tasks and
 * pulls that group's higher task waiting elsewhere, rather than run a
 * lower one of the group.  On 2 CPUs or more, every PERIOD for RUN_NS:
 *
 *  - group tp-x, 10 ms / 100 ms: a busy task (SCHED_FIFO 5, below every
 *    task of tp-y: priorities of different groups do not compare) pinned
 *    to CPU 1: it runs the first 10 ms of each period there, then its
 *    server is throttled;
 *  - group tp-z, 25 ms / 50 ms: a periodic task (SCHED_FIFO 50) pinned
 *    to CPU 0, released 2 ms into the period, needing 20 ms;
 *  - group tp-y, 40 ms / 200 ms: its higher task (SCHED_FIFO 90) is
 *    released at the period's start on CPU 0 (it pins itself there and
 *    lets go again) and needs 6 ms; its lower task (SCHED_FIFO 10),
 *    pinned to CPU 1, is released 5 ms into the period and needs 10 ms.
 *
 * tp-y's servers have deadlines up to 200 ms away, tp-x's and tp-z's at
 * most 100 and 50 ms: EDF runs them first.  So the higher task runs 2 ms
 * on CPU 0, is preempted by tp-z's task there, and stays (CPU 1 runs
 * tp-x's earlier server).  At 10 ms tp-x's server on CPU 1 is throttled
 * and CPU 1 switches to tp-y's tasks: it must pull the higher task from
 * CPU 0 (balance_rt()), and run the lower one after it.
 *
 * Judged by the trace (schedcheck.py, throttle_pull/schedcheck): its
 * global-fp rule flags the lower task running on CPU 1 for more than
 * 100 us of the kernel's clock while the higher one waits on CPU 0.  And
 * where outcomes in time are judged (outcome_result(); not under icount
 * on several vCPUs, where a vCPU may stand still for milliseconds) by the
 * higher task's worst response: 2 ms on CPU 0, 8 ms waiting for tp-x's
 * budget on CPU 1 (its earlier server comes first by EDF), 4 ms there:
 * 14 ms; left on CPU 0 it waits for tp-z's 20 ms, 26 ms at least.  The
 * bound, 17 ms, leaves 3 ms for the timers and the pull.
 *
 * Fails on the series before need_pull_rt_task() pulled whenever the
 * running RT task stops (patch 0011 then, now part of 0008): it pulled
 * only when the CPU's highest queued priority went below the throttled
 * task's, and tp-y's lower task is above tp-x's.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>

#include "rtedf.h"

#define GX		"tp-x"
#define GY		"tp-y"
#define GZ		"tp-z"
#define RUN_NS		(1 * NSEC_PER_SEC)
#define PERIOD		(100 * NSEC_PER_MSEC)
#define WORST_NS	(17 * NSEC_PER_MSEC)
#define WORST_MSG	GY "'s higher task, waiting behind " GZ " on CPU 0, responds within 17 ms: " \
			"CPU 1 pulls it when " GX " is throttled"

int main(void)
{
	struct periodic_stats *zs, *ls;
	pid_t busy, z, low, high;
	uint64_t t0, *worst;

	rtedf_init();
	ksft_set_plan(2);
	if (nr_cpus() < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		ksft_test_result_skip("the tasks ran\n");
		ksft_test_result_skip("%s\n", WORST_MSG);
		ksft_finished();
	}
	if (cg_group(GX, 100000, 10000) || cg_group(GZ, 50000, 25000) ||
	    cg_group(GY, 200000, 40000))
		die("setting up the groups");
	worst = shared_alloc(sizeof(*worst));
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	t0 = now_ns() + 500 * NSEC_PER_MSEC;
	busy = spawn_busy_until(GX, SCHED_FIFO, 5, 1, t0, t0 + RUN_NS);
	z = spawn_periodic_at(GZ, 50, 0, 20 * NSEC_PER_MSEC, PERIOD,
			      t0 + 2 * NSEC_PER_MSEC, RUN_NS, &zs);
	low = spawn_periodic_at(GY, 10, 1, 10 * NSEC_PER_MSEC, PERIOD,
				t0 + 5 * NSEC_PER_MSEC, RUN_NS, &ls);
	high = rtedf_fork();
	if (high == 0) {
		if (cg_attach(GY, 0) || set_sched(0, SCHED_FIFO, 90))
			_exit(2);
		/* On CPU 0 at every release, then free to move. */
		periodic_from_cpu0(t0, RUN_NS, PERIOD, 6 * NSEC_PER_MSEC, worst);
	}
	if (busy < 0 || z < 0 || low < 0 || high < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(t0);
	wait_periodic(z, zs);
	wait_periodic(low, ls);
	waitpid(high, NULL, 0);
	stop_child(busy);
	sched_trace_save("throttle_pull");
	cg_remove(GX);
	cg_remove(GY);
	cg_remove(GZ);

	ksft_print_msg(GY ": higher task's worst response %.3f ms for 6 ms of work; lower task %lu jobs, %lu late; "
		       GZ ": %lu jobs, %lu late\n", *worst / 1e6, ls->jobs, ls->misses, zs->jobs, zs->misses);
	/* The placement's verdict is the trace's (throttle_pull/schedcheck). */
	ksft_test_result(zs->jobs >= RUN_NS / PERIOD - 1 && ls->jobs >= RUN_NS / PERIOD - 1 && *worst,
			 "the tasks ran (the trace judges the placement)\n");
	outcome_result(*worst <= WORST_NS, WORST_MSG);
	ksft_finished();
}
