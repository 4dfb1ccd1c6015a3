// SPDX-License-Identifier: GPL-2.0
/*
 * The IRMOS article's example: reservations of 5 ms every 9 ms and 2 ms
 * every 6 ms (88.9% of a CPU), each with a periodic task that needs 90% of
 * its budget every period (4.5 ms / 9 ms and 1.8 ms / 6 ms), the task of
 * the shorter period at the lower priority.  Both run on CPU 0 for 10 s.
 *
 * EDF between the two servers meets every deadline: the servers' total
 * utilisation is below 1, so each gets its budget before its deadline,
 * and a job that needs 0.9 Q finishes at the latest 0.1 Q (180 us for the
 * 6 ms task) before the server's deadline; that deadline is at most the
 * wakeup latency after the job's own, which is far below 180 us.  So no
 * job may miss.  Priorities between groups (the stock kernel) let the
 * 9 ms task run 4.5 ms first when both are released together, and the
 * 6 ms task then finishes 0.3 ms late.
 */
#include "rtedf.h"

#define DURATION	(10 * NSEC_PER_SEC)

struct job {
	const char *group;
	long long q_us, p_us;
	int prio;
	pid_t pid;
	struct periodic_stats *st;
};

int main(void)
{
	struct job jobs[] = {
		{ "article-9ms", 5000, 9000, 80, 0, NULL },
		{ "article-6ms", 2000, 6000, 20, 0, NULL },
	};
	unsigned int i;

	rtedf_init();
	ksft_set_plan(2);

	for (i = 0; i < 2; i++)
		if (cg_group(jobs[i].group, jobs[i].p_us, jobs[i].q_us))
			die("setting up %s", jobs[i].group);
	for (i = 0; i < 2; i++)
		jobs[i].pid = spawn_periodic(jobs[i].group, jobs[i].prio, 0,
					     jobs[i].q_us * 900, jobs[i].p_us * 1000,
					     DURATION, &jobs[i].st);
	for (i = 0; i < 2; i++) {
		struct periodic_stats *st = wait_periodic(jobs[i].pid, jobs[i].st);

		ksft_print_msg("%s (%lld/%lld us, prio %d): %lu jobs, %lu missed, max lateness %lld us\n",
			       jobs[i].group, jobs[i].q_us, jobs[i].p_us, jobs[i].prio,
			       st->jobs, st->misses, (long long)st->max_lateness_ns / 1000);
		ksft_test_result(st->jobs >= DURATION / (jobs[i].p_us * 1000) - 1 &&
				 st->misses == 0,
				 "%s: the article's example misses no deadline in 10 s\n",
				 jobs[i].group);
	}
	for (i = 0; i < 2; i++)
		cg_remove(jobs[i].group);
	ksft_finished();
}
