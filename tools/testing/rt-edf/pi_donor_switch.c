// SPDX-License-Identifier: GPL-2.0
/*
 * A PI-boosted task runs on the server of its top donor's group
 * (bandwidth inheritance, pi_isolation): when the top donor changes to a
 * task of another group at the same priority, the holder must move to
 * the new donor's server, or the old donor's group keeps paying for a
 * lock it no longer waits for.  On CPU 0, for ROUND_NS:
 *
 *  - group A, 10 ms / 100 ms: L (SCHED_RR 10) takes a
 *    PTHREAD_PRIO_INHERIT mutex at t0 and spins with it to the end;
 *  - group B, 20 ms / 100 ms: D1 (SCHED_FIFO 50) blocks on the mutex at
 *    t0 + 50 ms with a timeout at t0 + 1 s, and leaves then; P
 *    (SCHED_FIFO 20), a periodic task that needs 10 ms every 100 ms,
 *    from t0 + 2 s to the end;
 *  - group C, 20 ms / 100 ms: D2 (SCHED_FIFO 50) blocks on the mutex at
 *    t0 + 500 ms and waits to the end.
 *
 * While D1 waits, L runs at priority 50 on B's server.  D2 queues behind
 * D1 (same priority), so nothing changes then.  D1's timeout wakes it on
 * B's server behind L, at L's priority: L is SCHED_RR so that its time
 * slice (100 ms of CPU, at most 0.5 s at B's 20 ms every 100 ms) ends
 * and D1 runs to leave the lock's waiters.  D2 then becomes L's top
 * donor at the same priority 50: L must go to C's server.  From t0 + 2 s
 * B serves P alone, 10 ms of its 20 in every period (slack 10 ms), so P
 * misses no deadline; the periodic check excuses wakeup latency as
 * periodic_met() says.  Admitted: 10 + 20 + 20 ms of every 100 ms and
 * the root's own 50 ms of every second on CPU 0.
 *
 * Fails on the series before the fix (patch 7 as of 835f4cc):
 * rt_mutex_setprio() left a task whose FIFO/RR priority did not change
 * where it was, so L stayed on B's server at priority 50, above P, took
 * B's budget, and P missed all 20 jobs (by up to 1960 ms).  Fails on
 * stock: a boosted group is not throttled there, and L at priority 50
 * starves P (20 of 20 late).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rtedf.h"

#define GA		"pids-a"
#define GB		"pids-b"
#define GC		"pids-c"
#define ROUND_NS	(4000 * NSEC_PER_MSEC)
#define D1_AT		(50 * NSEC_PER_MSEC)
#define D1_UNTIL	(1000 * NSEC_PER_MSEC)
#define D2_AT		(500 * NSEC_PER_MSEC)
#define P_AT		(2000 * NSEC_PER_MSEC)
#define PERIOD		(100 * NSEC_PER_MSEC)

struct shared {
	pthread_mutex_t lock;
	int locked;
	int d1_timed_out, d2_waited;
	int d1_err;
};

static pid_t spawn_holder(struct shared *sh, uint64_t start, uint64_t end)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GA, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_RR, 10))
			_exit(2);
		sleep_until(start);
		pthread_mutex_lock(&sh->lock);
		sh->locked = 1;
		while (now_ns() < end)
			;
		pthread_mutex_unlock(&sh->lock);
		_exit(0);
	}
	return pid;
}

/* A donor: blocks on the mutex at at, gives up at until (0: never). */
static pid_t spawn_donor(struct shared *sh, const char *group, uint64_t at,
			 uint64_t until)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		struct timespec ts = {
			.tv_sec = until / NSEC_PER_SEC,
			.tv_nsec = until % NSEC_PER_SEC,
		};
		int err;

		if (cg_attach(group, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 50))
			_exit(2);
		sleep_until(at);
		if (!sh->locked || !pthread_mutex_trylock(&sh->lock))
			_exit(3);	/* L did not hold it: vacuous round */
		if (!until) {
			pthread_mutex_lock(&sh->lock);
			sh->d2_waited = 1;
			pthread_mutex_unlock(&sh->lock);
			_exit(0);
		}
		err = pthread_mutex_clocklock(&sh->lock, CLOCK_MONOTONIC, &ts);
		sh->d1_err = err;
		if (err != ETIMEDOUT)
			_exit(4);
		sh->d1_timed_out = 1;
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct shared *sh;
	struct periodic_stats *ps;
	uint64_t t0, end;
	pid_t l, d1, d2, p;
	bool ok;

	rtedf_init();
	ksft_set_plan(1);

	if (cg_group(GA, 100000, 10000) || cg_group(GB, 100000, 20000) ||
	    cg_group(GC, 100000, 20000))
		die("setting up the groups");
	sh = shared_alloc(sizeof(*sh));
	if (pi_mutex_init(&sh->lock, false))
		ksft_exit_fail_msg("cannot make a shared PI mutex\n");
	t0 = now_ns() + 100 * NSEC_PER_MSEC;
	end = t0 + ROUND_NS;
	l = spawn_holder(sh, t0, end);
	d1 = spawn_donor(sh, GB, t0 + D1_AT, t0 + D1_UNTIL);
	d2 = spawn_donor(sh, GC, t0 + D2_AT, 0);
	p = spawn_periodic_at(GB, 20, 0, 10 * NSEC_PER_MSEC, PERIOD, t0 + P_AT,
			      ROUND_NS - P_AT, &ps);
	if (l < 0 || d1 < 0 || d2 < 0 || p < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	ps = wait_periodic(p, ps);
	ok = child_exited_ok("D1", d1);
	ok = child_exited_ok("D2", d2) && ok;
	ok = child_exited_ok("L", l) && ok;

	if (sh->d1_err && sh->d1_err != ETIMEDOUT)
		ksft_print_msg("D1's timed lock: %s\n", strerror(sh->d1_err));
	ksft_print_msg("D1 timed out: %d, D2 got the lock at the end: %d; P: %lu of %lu jobs late (worst %+.3f ms)\n",
		       sh->d1_timed_out, sh->d2_waited, ps->misses, ps->jobs,
		       ps->max_lateness_ns / 1e6);
	ksft_test_result(ok && sh->d1_timed_out && sh->d2_waited &&
			 ps->jobs == (ROUND_NS - P_AT) / PERIOD &&
			 periodic_met(ps, 10 * NSEC_PER_MSEC),
			 "a holder whose top donor changes group at the same priority leaves the old donor's server\n");
	cg_remove(GA);
	cg_remove(GB);
	cg_remove(GC);
	ksft_finished();
}
