// SPDX-License-Identifier: GPL-2.0
/*
 * Global fixed priority inside a group: one 30 ms / 100 ms group on M =
 * nr_cpus CPUs (M >= 2) holds M + 1 busy SCHED_FIFO tasks of distinct
 * priorities, none of them pinned.  The M highest-priority runnable tasks
 * of a group run on M CPUs where the group has budget: the M highest each
 * receive the 300 per mille of one CPU's server, within 5, and the lowest
 * at most 5 per mille.  On one CPU this is fixed_prio, and both points
 * are skipped.
 *
 * The tasks start spinning together at a common time, so the group's
 * servers start in phase: all of them run in the first 30 ms of each
 * period, when the M highest tasks occupy every CPU the group has budget
 * on, and none runs in the other 70 ms.  The lowest task could only run
 * where a server has budget and no higher task is runnable there, which
 * is never the case; its 5 per mille (0.5 ms per period) cover the
 * microseconds of skew between the servers' timers on different CPUs and
 * around the common start.  With servers out of phase a higher task
 * would follow the budget from CPU to CPU (task migration) and receive
 * more, the lowest one the rest.  The window is 30 whole periods and
 * starts and ends 50 ms into a period, where everything is throttled, so
 * it holds exactly 30 budgets per server (see smp_share.c); the 5 per
 * mille of the M highest cover enforcement and the kernel's own work.
 *
 * The lowest task's share is a decision of the scheduler as long as the
 * CPU whose server is replenished first pulls the higher tasks itself.
 * With RT_PUSH_IPI (PREEMPT_RT's default) it asks the CPU that holds
 * them, by IPI, to push them; until that CPU has done so and the pusher's
 * resched IPI is served, the lowest task runs.  On real CPUs that is
 * microseconds.  Under icount on several vCPUs a vCPU stands still while
 * another runs.  make check RT=1 at 9044241 gave the lowest task 10.5
 * per mille on 2 vCPUs; its trace, recorded again with the irq_vectors
 * and ipi events, shows the push 300 us after its IPI's handler began and
 * the pushed task running 1 to 5 ms after the resched IPI.  A handler
 * of a few thousand instructions takes a few microseconds of icount time
 * when its vCPU runs, so those waits were the emulator's.  There the point is an outcome in time (outcome_result()),
 * and the checker's global-fp rule, which waits for the IPIs, judges the
 * decisions; without RT_PUSH_IPI it is judged on every clock.
 */
#include <math.h>

#include "rtedf.h"

#define G	"global-fp"
#define Q_US	30000
#define P_US	100000
#define PERIOD	(P_US * NSEC_PER_USEC)
#define WINDOW	(30 * PERIOD)
#define TOL	5.0
#define START	(200 * NSEC_PER_MSEC)	/* to spawn them all */

#define HIGH_MSG "the nr_cpus highest of nr_cpus + 1 unpinned tasks each receive 300 per mille within 5"
#define LOW_MSG	"the lowest of nr_cpus + 1 unpinned tasks receives at most 5 per mille"

int main(void)
{
	int i, m = nr_cpus();
	bool ok = true;
	double pm[m + 1];
	pid_t pid[m + 1];
	uint64_t t0;

	rtedf_init();
	ksft_set_plan(2);

	if (m < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		ksft_test_result_skip(HIGH_MSG "\n");
		ksft_test_result_skip(LOW_MSG "\n");
		ksft_finished();
	}
	if (cg_group(G, P_US, Q_US))
		die("setting up group " G);
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	/* pid[0] is the highest priority, pid[m] the lowest. */
	t0 = now_ns() + START;
	for (i = 0; i <= m; i++) {
		pid[i] = spawn_busy_from(G, SCHED_FIFO, 80 - 10 * i, i % m, t0);
		if (pid[i] < 0)
			ksft_exit_fail_msg("cannot start the busy tasks\n");
	}
	start_in_future(t0);
	measure_permille_at(pid, m + 1, t0 + 5 * PERIOD + PERIOD / 2, WINDOW, pm);
	for (i = 0; i <= m; i++)
		stop_child(pid[i]);
	sched_trace_save("global_fp");
	cg_remove(G);

	for (i = 0; i <= m; i++) {
		ksft_print_msg("priority %d: %.1f per mille\n", 80 - 10 * i, pm[i]);
		if (i < m)
			ok &= fabs(pm[i] - 1000.0 * Q_US / P_US) <= TOL;
	}
	outcome_result(ok, HIGH_MSG);
	if (sched_feature_on("RT_PUSH_IPI") == 0)
		ksft_test_result(pm[m] <= TOL, LOW_MSG "\n");
	else
		outcome_result(pm[m] <= TOL, LOW_MSG);
	ksft_finished();
}
