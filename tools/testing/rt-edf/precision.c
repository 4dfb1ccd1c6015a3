// SPDX-License-Identifier: GPL-2.0
/*
 * Enforcement precision: a busy task alone in a reservation of Q every
 * 50 ms never runs more than Q + 50 us in one period.  The task measures
 * itself without entering the kernel (a syscall that reads its CPU time
 * would make the scheduler account, and so throttle, at every call): it
 * spins reading CLOCK_MONOTONIC, counts the steps shorter than 200 us as
 * its running time (ticks and other interrupts included, as the budget
 * includes them), and a gap of more than 5 ms (the group is throttled for
 * about 40 ms) ends a period.
 *
 * Q takes the values 10, 10.25, 10.5 and 10.75 ms, 20 periods each, on
 * CPU 0.  Budgets enforced only at the 1 ms tick overrun by the distance
 * from the budget's end to the next tick, which differs by 0.25 ms from
 * one Q to the next, so at least one of them shows an overrun of 0.7 ms
 * or more; the hrtick stops the group within tens of microseconds.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define P_US		50000
#define PERIODS		20
#define GAP		(5 * NSEC_PER_MSEC)
#define STEP		(200 * NSEC_PER_USEC)
#define TOL_NS		(50 * NSEC_PER_USEC)

struct burst_stats {
	int periods;
	uint64_t max_ns;
};

/* Child: busy in group, recording the running time of each full period. */
static void measure_bursts(const char *group, struct burst_stats *bs)
{
	uint64_t last, t, ran = 0;
	int seen = 0;

	if (cg_attach(group, getpid()) || pin_cpu(0, 0) ||
	    set_sched(0, SCHED_FIFO, 50))
		_exit(2);
	last = now_ns();
	while (bs->periods < PERIODS) {
		t = now_ns();
		if (t - last > GAP) {
			/* The period before the gap is over. */
			if (seen++ > 0) {	/* the first one began mid-budget */
				if (ran > bs->max_ns)
					bs->max_ns = ran;
				bs->periods++;
			}
			ran = 0;
		} else if (t - last < STEP) {
			ran += t - last;
		}
		last = t;
	}
	_exit(0);
}

int main(void)
{
	static const long long q_us[] = { 10000, 10250, 10500, 10750 };
	long long worst = LLONG_MIN;
	bool all = true;
	unsigned int i;

	rtedf_init();
	ksft_set_plan(1);

	for (i = 0; i < 4; i++) {
		struct burst_stats *bs = shared_alloc(sizeof(*bs));
		long long overrun;
		char group[32];
		pid_t pid;

		snprintf(group, sizeof(group), "precision-%lld", q_us[i]);
		if (cg_group(group, P_US, q_us[i]))
			die("setting up %s", group);
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			measure_bursts(group, bs);
		if (pid < 0 || waitpid(pid, NULL, 0) < 0)
			die("fork");
		cg_remove(group);
		overrun = (long long)bs->max_ns - q_us[i] * 1000;
		ksft_print_msg("Q = %lld us: %d periods, most run in one %llu us, overrun %lld us\n",
			       q_us[i], bs->periods, (unsigned long long)bs->max_ns / 1000,
			       overrun / 1000);
		all = all && bs->periods == PERIODS;
		if (overrun > worst)
			worst = overrun;
	}
	ksft_test_result(all && worst <= (long long)TOL_NS,
			 "no budget of 10 to 10.75 ms is overrun by more than 50 us\n");
	ksft_finished();
}
