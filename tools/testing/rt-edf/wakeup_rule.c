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
 */
#include <stdlib.h>
#include <unistd.h>

#include "rtedf.h"

#define DURATION	(10 * NSEC_PER_SEC)

static pid_t spawn_random(const char *group, unsigned int seed)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		uint64_t end;

		if (cg_attach(group, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 99))
			_exit(2);
		end = now_ns() + DURATION + NSEC_PER_SEC;
		while (now_ns() < end) {
			burn_cpu(500 * NSEC_PER_USEC +
				 rand_r(&seed) % (14500 * NSEC_PER_USEC));
			sleep_ns(rand_r(&seed) % (20 * NSEC_PER_MSEC));
		}
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct periodic_stats *st;
	pid_t rnd, periodic;
	double pm;

	rtedf_init();
	ksft_set_plan(2);

	if (cg_group("wake-random", 50000, 10000) ||
	    cg_group("wake-periodic", 6000, 2000))
		die("setting up the groups");
	rnd = spawn_random("wake-random", 42);
	periodic = spawn_periodic("wake-periodic", 10, 0, 1800 * NSEC_PER_USEC,
				  6 * NSEC_PER_MSEC, DURATION, &st);
	measure_permille(&rnd, 1, DURATION, &pm);
	wait_periodic(periodic, st);
	stop_child(rnd);
	cg_remove("wake-random");
	cg_remove("wake-periodic");

	ksft_print_msg("random: %.1f per mille (reserved 200); periodic: %lu jobs, %lu missed, max lateness %lld us\n",
		       pm, st->jobs, st->misses, (long long)st->max_lateness_ns / 1000);
	ksft_test_result(st->jobs > 0 && st->misses == 0,
			 "a random top-priority waker cannot make a periodic reservation miss\n");
	ksft_test_result(pm <= 205.0,
			 "the random waker's share stays within its 200 per mille\n");
	ksft_finished();
}
