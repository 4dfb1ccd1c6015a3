// SPDX-License-Identifier: GPL-2.0
/*
 * A busy SCHED_FIFO task alone in a 10 ms / 100 ms group receives 100 per
 * mille of its CPU, within 5.
 *
 * Tolerance: the measuring window W = 5 s is not aligned with the group's
 * periods, so it can hold up to one budget more or less than W/P budgets:
 * Q/W = 10 ms / 5 s = 2 per mille.  The rest (3 per mille, 0.3 ms per
 * period) covers enforcement granularity and the measurer's own wakeups.
 */
#define _GNU_SOURCE
#include <math.h>

#include "rtedf.h"

#define G	"share"
#define Q_US	10000
#define P_US	100000
#define WINDOW	(5 * NSEC_PER_SEC)
#define TOL	5.0

int main(void)
{
	double pm;
	pid_t pid;

	rtedf_init();
	ksft_set_plan(1);

	if (cg_group(G, P_US, Q_US))
		die("setting up group " G);
	pid = spawn_busy(G, SCHED_FIFO, 50, 0);
	if (pid < 0)
		ksft_exit_fail_msg("cannot start the busy task\n");
	sleep_ns(P_US * NSEC_PER_USEC);	/* leave the first period */
	measure_permille(&pid, 1, WINDOW, &pm);
	stop_child(pid);
	cg_remove(G);

	ksft_print_msg("reserved %d per mille, received %.1f per mille\n",
		       Q_US * 1000 / P_US, pm);
	ksft_test_result(fabs(pm - 1000.0 * Q_US / P_US) <= TOL,
			 "busy SCHED_FIFO task in 10ms/100ms receives 100 per mille within 5\n");
	ksft_finished();
}
