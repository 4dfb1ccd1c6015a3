// SPDX-License-Identifier: GPL-2.0
/*
 * The IRMOS article's example: reservations of 5 ms every 9 ms and 2 ms
 * every 6 ms (88.9% of a CPU), each with a periodic task that needs 90% of
 * its budget every period (4.5 ms / 9 ms and 1.8 ms / 6 ms), the task of
 * the shorter period at the lower priority.  Both run on CPU 0 for 10 s.
 *
 * EDF between the two servers meets every deadline: the servers' total
 * utilisation is below 1, so each gets its budget before its deadline,
 * and a job that needs 0.9 Q finishes at the latest 0.1 Q (200 us for the
 * 6 ms task) before the server's deadline; that deadline is at most the
 * wakeup latency after the job's own, which is usually far below 200 us.
 * So no job may miss by more than its (or the previous job's) wakeup
 * latency minus 0.1 Q (periodic_met(); each worker measures the latency
 * from its release to its wakeup, and the test prints the worst).
 * Priorities between groups (the stock kernel) let the
 * 9 ms task run 4.5 ms first when both are released together, and the
 * 6 ms task then finishes 0.3 ms late.
 *
 * A second pass runs the example on every CPU at once, unpinned: nr_cpus
 * tasks of each kind in the same two groups, all released in phase (the
 * worst case, as above), for 3 s, free to migrate.  Each CPU has a server
 * of each group, so there is room for one task of each kind per CPU, and
 * the same EDF argument holds per CPU: neither the placement at the
 * release nor migration may make a task miss.  On one CPU this is the
 * first pass again.  Priorities between groups (stock) run all the 9 ms
 * tasks first on every CPU, and the 6 ms tasks miss as on one CPU.
 *
 * On the debug PREEMPT_RT kernel at 284d268 the last job of article-9ms
 * missed by 17.7 to 21.2 ms (1 vCPU, either pass): article-6ms, done,
 * exited, and its server, out of budget inside a page table lock while
 * the exit unmapped its memory, was held 25 ms past its budget, as each
 * interrupt that could end the hold found it inside the next lock
 * section.  A hold now ends at the end of the holder's section.
 */
#include "rtedf.h"

#define DURATION	(10 * NSEC_PER_SEC)
#define DURATION2	(3 * NSEC_PER_SEC)

struct job {
	const char *group;
	long long q_us, p_us;
	int prio;
	pid_t pid;
	struct periodic_stats *st;
};

/* Each task needs 90% of its budget: Q - C. */
#define SLACK_NS(j)	((uint64_t)(j)->q_us * 100)

/*
 * The second pass: n copies of each task, unpinned, first released
 * together 50 ms from now, copy i on CPU i (spawn_periodic_from()); one
 * test point for all of them (on the stock
 * kernel the 6 ms tasks miss whatever the number of CPUs, while whether
 * the 9 ms ones do depends on where the tasks land).
 */
static void unpinned_pass(struct job *jobs, int n)
{
	struct periodic_stats *st[2][n];
	uint64_t release = now_ns() + 50 * NSEC_PER_MSEC;
	pid_t pid[2][n];
	bool ok = true;
	int i, k;

	if (n > 1 && sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++)
			pid[k][i] = spawn_periodic_from(jobs[k].group, jobs[k].prio, i,
							jobs[k].q_us * 900,
							jobs[k].p_us * 1000, release,
							DURATION2, &st[k][i]);
	for (k = 0; k < 2; k++) {
		unsigned long jobs_done = 0, misses = 0;
		int64_t late = INT64_MIN;
		uint64_t wake = 0;

		for (i = 0; i < n; i++) {
			wait_periodic(pid[k][i], st[k][i]);
			jobs_done += st[k][i]->jobs;
			misses += st[k][i]->misses;
			if (st[k][i]->max_lateness_ns > late)
				late = st[k][i]->max_lateness_ns;
			if (st[k][i]->max_wake_latency_ns > wake)
				wake = st[k][i]->max_wake_latency_ns;
			ok &= st[k][i]->jobs >= DURATION2 / (jobs[k].p_us * 1000) - 1 &&
			      periodic_met(st[k][i], SLACK_NS(&jobs[k]));
		}
		ksft_print_msg("unpinned, %d of %s: %lu jobs, %lu missed, max lateness %lld us, worst wakeup latency %llu us\n",
			       n, jobs[k].group, jobs_done, misses, (long long)late / 1000,
			       (unsigned long long)wake / 1000);
	}
	if (n > 1)
		sched_trace_save("edf_article");
	outcome_result(ok, "the example on every CPU, unpinned, misses no deadline in 3 s");
}

int main(void)
{
	struct job jobs[] = {
		{ "article-9ms", 5000, 9000, 80, 0, NULL },
		{ "article-6ms", 2000, 6000, 20, 0, NULL },
	};
	unsigned int i;

	rtedf_init();
	ksft_set_plan(3);

	for (i = 0; i < 2; i++)
		if (cg_group(jobs[i].group, jobs[i].p_us, jobs[i].q_us))
			die("setting up %s", jobs[i].group);
	for (i = 0; i < 2; i++)
		jobs[i].pid = spawn_periodic(jobs[i].group, jobs[i].prio, 0,
					     jobs[i].q_us * 900, jobs[i].p_us * 1000,
					     DURATION, &jobs[i].st);
	for (i = 0; i < 2; i++) {
		struct periodic_stats *st = wait_periodic(jobs[i].pid, jobs[i].st);

		ksft_print_msg("%s (%lld/%lld us, prio %d): %lu jobs, %lu missed, max lateness %lld us, worst wakeup latency %llu us\n",
			       jobs[i].group, jobs[i].q_us, jobs[i].p_us, jobs[i].prio,
			       st->jobs, st->misses, (long long)st->max_lateness_ns / 1000,
			       (unsigned long long)st->max_wake_latency_ns / 1000);
		ksft_test_result(st->jobs >= DURATION / (jobs[i].p_us * 1000) - 1 &&
				 periodic_met(st, SLACK_NS(&jobs[i])),
				 "%s: the article's example misses no deadline in 10 s\n",
				 jobs[i].group);
	}
	unpinned_pass(jobs, nr_cpus());
	for (i = 0; i < 2; i++)
		cg_remove(jobs[i].group);
	ksft_finished();
}
