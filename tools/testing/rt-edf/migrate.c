// SPDX-License-Identifier: GPL-2.0
/*
 * Task migration: a group of Q/P has a server of Q every P on every CPU,
 * and a task whose group is throttled on its CPU is pushed to a CPU where
 * the group still has budget (and pulled back when its CPU's server is
 * replenished).  So a single unpinned busy task of a 20 ms / 100 ms group
 * on M otherwise RT-idle CPUs runs on one CPU after the other and
 * receives min(1000, M * 200) per mille, never more than M * 200; pinned
 * to one CPU it receives exactly 200.
 *
 * Tolerances: the windows are 20 whole periods; the task's schedule
 * repeats every period once settled, so a window of whole periods holds
 * exactly 20 periods' worth whatever its phase.  Every period the task
 * changes CPU up to M times; each move costs a push or pull and a context
 * switch, tens of microseconds under QEMU: 10 per mille (1 ms per period)
 * below the ideal covers that for M <= 4.  It can never receive more
 * than the M budgets: + 5 per mille covers an enforcement overrun and
 * the sampling instants.  Pinned, it is share.c with Q = 20 ms: 200
 * within 5.  With one CPU there is nowhere to go, and the unpinned point
 * is skipped (the pinned one covers it).
 */
#include <math.h>

#include "rtedf.h"

#define G	"migrate"
#define Q_US	20000
#define P_US	100000
#define PERIOD	(P_US * NSEC_PER_USEC)
#define WINDOW	(20 * PERIOD)

#define MIG_MSG	"an unpinned busy task in 20ms/100ms receives min(1000, nr_cpus * 200) per mille within 10"

int main(void)
{
	int m = nr_cpus();
	double pm, pinned, want = fmin(1000.0, m * 200.0);
	pid_t pid;

	rtedf_init();
	ksft_set_plan(3);

	if (cg_group(G, P_US, Q_US))
		die("setting up group " G);
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	pid = spawn_busy(G, SCHED_FIFO, 50, -1);
	if (pid < 0)
		ksft_exit_fail_msg("cannot start the busy task\n");
	sleep_ns(5 * PERIOD);
	measure_permille(&pid, 1, WINDOW, &pm);
	if (pin_cpu(pid, 0))
		die("pinning the busy task");
	sleep_ns(5 * PERIOD);
	measure_permille(&pid, 1, WINDOW, &pinned);
	stop_child(pid);
	sched_trace_save("migrate");
	cg_remove(G);

	ksft_print_msg("%d CPU(s): unpinned %.1f per mille (ideal %.0f), pinned to CPU 0 %.1f\n",
		       m, pm, want, pinned);
	if (m < 2)
		ksft_test_result_skip(MIG_MSG "\n");	/* nowhere to go */
	else
		ksft_test_result(fabs(pm - want) <= 10.0, MIG_MSG "\n");
	ksft_test_result(pm <= m * 200.0 + 5.0,
			 "an unpinned busy task in 20ms/100ms never receives more than nr_cpus * 200 + 5 per mille\n");
	ksft_test_result(fabs(pinned - 200.0) <= 5.0,
			 "the same task pinned to one CPU receives 200 per mille within 5\n");
	ksft_finished();
}
