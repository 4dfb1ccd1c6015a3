// SPDX-License-Identifier: GPL-2.0
/*
 * Fixed priority inside a group: two busy SCHED_FIFO tasks (60 and 30) in
 * one 10 ms / 100 ms reservation on CPU 0.  The higher one takes the whole
 * budget, 100 per mille within 5 (see share.c), and the lower one gets at
 * most 5 per mille: it may only run while the higher one is not queued,
 * which never happens.
 */
#include <math.h>

#include "rtedf.h"

#define G	"fixed-prio"

int main(void)
{
	double pm[2];
	pid_t pid[2];

	rtedf_init();
	ksft_set_plan(2);

	if (cg_group(G, 100000, 10000))
		die("setting up " G);
	/*
	 * The lower one first: once the higher one spins, the lower one
	 * would never run to say it is ready.
	 */
	pid[1] = spawn_busy(G, SCHED_FIFO, 30, 0);
	pid[0] = spawn_busy(G, SCHED_FIFO, 60, 0);
	if (pid[0] < 0 || pid[1] < 0)
		ksft_exit_fail_msg("cannot start the busy tasks\n");
	sleep_ns(100 * NSEC_PER_MSEC);
	measure_permille(pid, 2, 5 * NSEC_PER_SEC, pm);
	stop_child(pid[0]);
	stop_child(pid[1]);
	cg_remove(G);

	ksft_print_msg("priority 60: %.1f, priority 30: %.1f per mille\n", pm[0], pm[1]);
	ksft_test_result(fabs(pm[0] - 100.0) <= 5.0,
			 "the higher-priority task receives the group's budget\n");
	ksft_test_result(pm[1] <= 5.0,
			 "the lower-priority task receives at most 5 per mille\n");
	ksft_finished();
}
