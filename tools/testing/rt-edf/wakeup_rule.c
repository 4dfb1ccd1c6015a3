// SPDX-License-Identifier: GPL-2.0
/*
 * The CBS wakeup rule.  A SCHED_FIFO 99 task in a 10 ms / 50 ms
 * reservation runs bursts of 0.5 to 15 ms of CPU and sleeps 0 to 20 ms at
 * random (fixed seed), for 10 s on CPU 0, next to a periodic task at
 * priority 10 in a 2 ms / 6 ms reservation that needs 1.8 ms every 6 ms.
 *
 * A server that woke up with its old deadline and budget could run ahead
 * of the periodic one with more than its rate allows; the wakeup rule
 * gives it a fresh deadline then, so the periodic task misses nothing
 * (see edf_article.c for its slack).  The random task's own share stays
 * at most Q/P: a CBS serves at most Q/P * t + Q in any interval t, i.e.
 * 200 + 1 per mille over 10 s; 5 per mille of tolerance covers the
 * measurement.
 *
 * A second pass runs the pair on every CPU at once, unpinned, for 3 s:
 * nr_cpus random wakers (seeds 42, 43, ...) in the 10 ms / 50 ms group and
 * nr_cpus periodic tasks in the 2 ms / 6 ms group, the periodic ones
 * released in phase.  Every CPU has a server of each group, so each can
 * keep one periodic task on schedule whatever the wakers do; a waker that
 * moves to a CPU where its group still has budget wakes that CPU's server
 * under the same rule.  No periodic task may miss, and the wakers
 * together stay within the nr_cpus budgets: Q/P + Q/t per CPU, 200 + 3.3
 * per mille over 3 s, so nr_cpus * 205 with the measurement.  On one CPU
 * this is the first pass again; with priorities between groups (stock)
 * the wakers preempt the periodic tasks on every CPU.
 */
#include <stdlib.h>
#include <unistd.h>

#include "rtedf.h"

#define DURATION	(10 * NSEC_PER_SEC)
#define DURATION2	(3 * NSEC_PER_SEC)

/* A random waker in group, pinned to cpu (-1: any), for duration + 1 s. */
static pid_t spawn_random(const char *group, unsigned int seed, int cpu,
			  uint64_t duration)
{
	pid_t pid;

	pid = rtedf_fork();
	if (pid == 0) {
		uint64_t end;

		if (cg_attach(group, getpid()) || (cpu >= 0 && pin_cpu(0, cpu)) ||
		    set_sched(0, SCHED_FIFO, 99))
			_exit(2);
		end = now_ns() + duration + NSEC_PER_SEC;
		while (now_ns() < end) {
			burn_cpu(500 * NSEC_PER_USEC +
				 rand_r(&seed) % (14500 * NSEC_PER_USEC));
			sleep_ns(rand_r(&seed) % (20 * NSEC_PER_MSEC));
		}
		_exit(0);
	}
	return pid;
}

/* The periodic task needs 1.8 of its server's 2 ms: Q - C. */
#define SLACK_NS	(200 * NSEC_PER_USEC)

/* The second pass: n pairs, unpinned; two test points. */
static void unpinned_pass(int n)
{
	struct periodic_stats *st[n];
	unsigned long jobs = 0, misses = 0;
	int64_t late = INT64_MIN;
	uint64_t wake = 0;
	bool met = true;
	pid_t rnd[n], periodic[n];
	double pm[n], sum = 0;
	uint64_t release;
	int i;

	if (n > 1 && sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	for (i = 0; i < n; i++)
		rnd[i] = spawn_random("wake-random", 42 + i, -1, DURATION2);
	release = now_ns() + 50 * NSEC_PER_MSEC;
	for (i = 0; i < n; i++)
		periodic[i] = spawn_periodic_from("wake-periodic", 10, i,
						  1800 * NSEC_PER_USEC,
						  6 * NSEC_PER_MSEC, release,
						  DURATION2, &st[i]);
	measure_permille_at(rnd, n, release, DURATION2, pm);
	for (i = 0; i < n; i++) {
		wait_periodic(periodic[i], st[i]);
		stop_child(rnd[i]);
		jobs += st[i]->jobs;
		misses += st[i]->misses;
		if (st[i]->max_lateness_ns > late)
			late = st[i]->max_lateness_ns;
		if (st[i]->max_wake_latency_ns > wake)
			wake = st[i]->max_wake_latency_ns;
		met &= periodic_met(st[i], SLACK_NS);
		sum += pm[i];
	}
	ksft_print_msg("unpinned, %d pairs: random %.1f per mille together (reserved %d); periodic: %lu jobs, %lu missed, max lateness %lld us, worst wakeup latency %llu us\n",
		       n, sum, 200 * n, jobs, misses, (long long)late / 1000,
		       (unsigned long long)wake / 1000);
	if (n > 1)
		sched_trace_save("wakeup_rule");
	outcome_result(jobs > 0 && met,
		       "random wakers on every CPU, unpinned, cannot make a periodic reservation miss");
	ksft_test_result(sum <= 205.0 * n,
			 "unpinned random wakers together stay within nr_cpus * 200 per mille\n");
}

int main(void)
{
	struct periodic_stats *st;
	pid_t rnd, periodic;
	double pm;

	rtedf_init();
	ksft_set_plan(4);

	if (cg_group("wake-random", 50000, 10000) ||
	    cg_group("wake-periodic", 6000, 2000))
		die("setting up the groups");
	rnd = spawn_random("wake-random", 42, 0, DURATION);
	periodic = spawn_periodic("wake-periodic", 10, 0, 1800 * NSEC_PER_USEC,
				  6 * NSEC_PER_MSEC, DURATION, &st);
	measure_permille(&rnd, 1, DURATION, &pm);
	wait_periodic(periodic, st);
	stop_child(rnd);

	ksft_print_msg("random: %.1f per mille (reserved 200); periodic: %lu jobs, %lu missed, max lateness %lld us, worst wakeup latency %llu us\n",
		       pm, st->jobs, st->misses, (long long)st->max_lateness_ns / 1000,
		       (unsigned long long)st->max_wake_latency_ns / 1000);
	ksft_test_result(st->jobs > 0 && periodic_met(st, SLACK_NS),
			 "a random top-priority waker cannot make a periodic reservation miss\n");
	ksft_test_result(pm <= 205.0,
			 "the random waker's share stays within its 200 per mille\n");

	unpinned_pass(nr_cpus());
	cg_remove("wake-random");
	cg_remove("wake-periodic");
	ksft_finished();
}
