// SPDX-License-Identifier: GPL-2.0
/*
 * Share accuracy: three busy groups on CPU 0 with different periods and
 * 90% of the CPU between them, 20 ms / 50 ms (priority 90), 9 ms / 30 ms
 * (50) and 2 ms / 10 ms (10), each receive Q/P within 5 per mille.
 *
 * Tolerance: a backlogged server receives exactly Q in each of its
 * periods (overruns are paid back), so over a window W the error is at
 * most Q/W: 2 per mille for the 20 ms budget over W = 10 s; the rest is
 * the measurer's own wakeups.  With priorities between groups (stock) the
 * 20 ms group runs first, and the 10 ms group loses whole periods.
 */
#include <math.h>

#include "rtedf.h"

#define WINDOW	(10 * NSEC_PER_SEC)
#define N	3

int main(void)
{
	static const struct { const char *g; long long q, p; int prio; } grp[N] = {
		{ "shares-50ms", 20000, 50000, 90 },
		{ "shares-30ms", 9000, 30000, 50 },
		{ "shares-10ms", 2000, 10000, 10 },
	};
	double pm[N];
	pid_t pid[N];
	int i;

	rtedf_init();
	ksft_set_plan(N);

	for (i = 0; i < N; i++)
		if (cg_group(grp[i].g, grp[i].p, grp[i].q))
			die("setting up %s", grp[i].g);
	for (i = 0; i < N; i++) {
		pid[i] = spawn_busy(grp[i].g, SCHED_FIFO, grp[i].prio, 0);
		if (pid[i] < 0)
			ksft_exit_fail_msg("cannot start the busy tasks\n");
	}
	sleep_ns(100 * NSEC_PER_MSEC);
	measure_permille(pid, N, WINDOW, pm);
	for (i = 0; i < N; i++) {
		stop_child(pid[i]);
		cg_remove(grp[i].g);
	}
	for (i = 0; i < N; i++) {
		double want = 1000.0 * grp[i].q / grp[i].p;

		ksft_print_msg("%s: reserved %.1f, received %.1f per mille\n",
			       grp[i].g, want, pm[i]);
		ksft_test_result(fabs(pm[i] - want) <= 5.0,
				 "%s receives its share within 5 per mille\n", grp[i].g);
	}
	ksft_finished();
}
