// SPDX-License-Identifier: GPL-2.0
/*
 * Temporal isolation from a greedy task: a SCHED_FIFO 99 busy loop in a
 * 10 ms / 100 ms reservation receives 100 per mille of CPU 0 (within 5:
 * Q/W = 10 ms / 5 s = 2 per mille of window alignment, the rest for the
 * measurer's wakeups), while a periodic task at priority 10 in a 2 ms /
 * 6 ms reservation (needing 1.8 ms per 6 ms) misses no deadline (beyond
 * its wakeup latency, see periodic_met()).  With priorities between
 * groups (stock) the greedy loop runs its 10 ms in one go and the
 * periodic task misses.
 */
#include <math.h>

#include "rtedf.h"

#define WINDOW	(5 * NSEC_PER_SEC)

int main(void)
{
	struct periodic_stats *st;
	pid_t greedy, periodic;
	double pm;

	rtedf_init();
	ksft_set_plan(2);

	if (cg_group("iso-greedy", 100000, 10000) || cg_group("iso-periodic", 6000, 2000))
		die("setting up the groups");
	greedy = spawn_busy("iso-greedy", SCHED_FIFO, 99, 0);
	if (greedy < 0)
		ksft_exit_fail_msg("cannot start the greedy task\n");
	periodic = spawn_periodic("iso-periodic", 10, 0, 1800 * NSEC_PER_USEC,
				  6 * NSEC_PER_MSEC, WINDOW + 200 * NSEC_PER_MSEC, &st);
	sleep_ns(100 * NSEC_PER_MSEC);
	measure_permille(&greedy, 1, WINDOW, &pm);
	wait_periodic(periodic, st);
	stop_child(greedy);
	cg_remove("iso-greedy");
	cg_remove("iso-periodic");

	ksft_print_msg("greedy: %.1f per mille; periodic: %lu jobs, %lu missed, max lateness %lld us, worst wakeup latency %llu us\n",
		       pm, st->jobs, st->misses, (long long)st->max_lateness_ns / 1000,
		       (unsigned long long)st->max_wake_latency_ns / 1000);
	ksft_test_result(fabs(pm - 100.0) <= 5.0,
			 "a greedy top-priority task receives its 100 per mille within 5\n");
	ksft_test_result(st->jobs > 0 && periodic_met(st, 200 * NSEC_PER_USEC),
			 "a periodic task in another reservation misses no deadline\n");
	ksft_finished();
}
