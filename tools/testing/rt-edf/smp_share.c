// SPDX-License-Identifier: GPL-2.0
/*
 * Shares on several CPUs: one 30 ms / 100 ms group holds N = nr_cpus busy
 * SCHED_FIFO tasks of equal priority, none of them pinned.  The group has
 * a server of 30 ms every 100 ms on every CPU, and N tasks can use N of
 * them at once: each task receives 300 per mille of a CPU, within 5.
 *
 * The tasks start spinning together at a common time, so the group's
 * servers start in phase on all CPUs: every CPU runs the group in the
 * first 30 ms of each period and nothing of it in the other 70 ms.  The
 * measuring window is 30 whole periods and starts and ends 50 ms into a
 * period, where every task is throttled: it then holds exactly 30 budgets
 * per CPU, and neither window alignment nor the measurer's wakeup latency
 * adds error.  The 5 per mille (0.5 ms per period) cover budget
 * enforcement (microseconds), the servers' start skew (microseconds) and
 * the kernel's own work on the CPUs.  Of two tasks left on one CPU, the
 * first would take that CPU's whole budget and the other nothing; a task
 * that borrowed another CPU's budget would receive more.
 */
#include <math.h>

#include "rtedf.h"

#define G	"smp-share"
#define Q_US	30000
#define P_US	100000
#define PERIOD	(P_US * NSEC_PER_USEC)
#define WINDOW	(30 * PERIOD)
#define TOL	5.0
#define START	(200 * NSEC_PER_MSEC)	/* to spawn them all */

int main(void)
{
	int i, n = nr_cpus();
	bool ok = true;
	double pm[n];
	pid_t pid[n];
	uint64_t t0;

	rtedf_init();
	ksft_set_plan(1);

	if (cg_group(G, P_US, Q_US))
		die("setting up group " G);
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	t0 = now_ns() + START;
	for (i = 0; i < n; i++) {
		pid[i] = spawn_busy_from(G, SCHED_FIFO, 50, i, t0);
		if (pid[i] < 0)
			ksft_exit_fail_msg("cannot start the busy tasks\n");
	}
	start_in_future(t0);
	/* Settle for 5 periods, then measure from 50 ms into a period. */
	measure_permille_at(pid, n, t0 + 5 * PERIOD + PERIOD / 2, WINDOW, pm);
	for (i = 0; i < n; i++)
		stop_child(pid[i]);
	sched_trace_save("smp_share");
	cg_remove(G);

	for (i = 0; i < n; i++) {
		ksft_print_msg("task %d of %d: reserved %d, received %.1f per mille\n",
			       i + 1, n, Q_US * 1000 / P_US, pm[i]);
		ok &= fabs(pm[i] - 1000.0 * Q_US / P_US) <= TOL;
	}
	outcome_result(ok, "each of nr_cpus unpinned busy tasks in 30ms/100ms receives 300 per mille within 5");
	ksft_finished();
}
