// SPDX-License-Identifier: GPL-2.0
/*
 * Priority inheritance into a throttled group that has a busier, higher
 * priority task than the holder, all on CPU 0, in ROUNDS rounds of ROUND:
 *
 *  - group A, 10 ms / 100 ms: L (SCHED_FIFO 10) wakes at the round's
 *    start, locks a PTHREAD_PRIO_INHERIT mutex shared between processes,
 *    burns CS_NS of CPU and unlocks; H (SCHED_FIFO 30) wakes 1 ms into
 *    the round, preempts L inside its critical section and burns 30 ms of
 *    CPU, so that A runs out of its 10 ms budget about 10 ms into the
 *    round with L holding the mutex, and is throttled until its
 *    replenishment 100 ms into the round;
 *  - group B, 5 ms / 20 ms: W (SCHED_FIFO 20) wakes 30 ms into the round
 *    and takes the mutex.
 *
 * W blocks and L inherits W's priority, 20: below H's 30.  L then runs
 * on B's server, in place of A's throttled one (bandwidth inheritance),
 * where it is the top task: L finishes the 1 ms left of its critical
 * section and W gets the mutex.  So W's blocking (from its lock attempt
 * to L's release, which L stamps just before unlocking) stays within one
 * critical section + 1 ms, as in pi_boost, and H, still in throttled A,
 * runs not at all while W is blocked (0.1 ms is allowed for the
 * accounting).  If the throttled group ran its highest priority task
 * instead, H would run for the 20 ms left of its burn, and W would wait
 * for it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define GA		"pit-a"
#define GB		"pit-b"
#define ROUNDS		8
#define ROUND		(600 * NSEC_PER_MSEC)
#define CS_NS		(2 * NSEC_PER_MSEC)
#define H_NS		(30 * NSEC_PER_MSEC)
#define W_AT		(30 * NSEC_PER_MSEC)

struct shared {
	pthread_mutex_t lock;
	uint64_t t0;
	uint64_t last_release;		/* L's stamp just before unlocking */
	pid_t h;
	unsigned long contended;
	uint64_t max_blocking_ns, max_h_ns;
	int w_done;
};

static pid_t spawn_in_a(struct shared *sh, bool holder)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GA, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, holder ? 10 : 30))
			_exit(2);
		for (int r = 0; r < ROUNDS; r++) {
			uint64_t start = sh->t0 + r * ROUND;

			if (!holder) {
				sleep_until(start + NSEC_PER_MSEC);
				burn_cpu(H_NS);
				continue;
			}
			sleep_until(start);
			pthread_mutex_lock(&sh->lock);
			burn_cpu(CS_NS);
			sh->last_release = now_ns();
			pthread_mutex_unlock(&sh->lock);
		}
		pause();
	}
	return pid;
}

static pid_t spawn_w(struct shared *sh)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GB, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 20))
			_exit(2);
		for (int r = 0; r < ROUNDS; r++) {
			uint64_t t0, h0, h, rel;

			sleep_until(sh->t0 + r * ROUND + W_AT);
			h0 = cputime_ns(sh->h);
			t0 = now_ns();
			if (!pthread_mutex_trylock(&sh->lock)) {
				pthread_mutex_unlock(&sh->lock);
				continue;
			}
			pthread_mutex_lock(&sh->lock);
			rel = sh->last_release;
			h = cputime_ns(sh->h) - h0;
			pthread_mutex_unlock(&sh->lock);
			sh->contended++;
			if (rel > t0 && rel - t0 > sh->max_blocking_ns)
				sh->max_blocking_ns = rel - t0;
			if (h > sh->max_h_ns)
				sh->max_h_ns = h;
		}
		sh->w_done = 1;
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct shared *sh = shared_alloc(sizeof(*sh));
	pid_t l, h, w;
	int status;

	rtedf_init();
	ksft_set_plan(3);

	if (pi_mutex_init(&sh->lock, false))
		ksft_exit_fail_msg("cannot make a shared PI mutex\n");
	if (cg_group(GA, 100000, 10000) || cg_group(GB, 20000, 5000))
		die("setting up the groups");
	sh->t0 = now_ns() + 200 * NSEC_PER_MSEC;
	l = spawn_in_a(sh, true);
	h = spawn_in_a(sh, false);
	sh->h = h;
	w = spawn_w(sh);
	if (l < 0 || h < 0 || w < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(sh->t0);
	if (waitpid(w, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		ksft_print_msg("W failed (status %#x)\n", status);
	stop_child(l);
	stop_child(h);
	cg_remove(GA);
	cg_remove(GB);

	ksft_print_msg("W found the mutex held in %lu of %d rounds; longest blocking %.3f ms; H ran %.3f ms at most while W was blocked\n",
		       sh->contended, ROUNDS, sh->max_blocking_ns / 1e6,
		       sh->max_h_ns / 1e6);
	ksft_test_result(sh->w_done && sh->contended >= ROUNDS - 1,
			 "the waiter found the mutex held by the throttled holder in %d rounds of %d\n",
			 ROUNDS - 1, ROUNDS);
	ksft_test_result(sh->w_done && sh->max_blocking_ns <= CS_NS + NSEC_PER_MSEC,
			 "a waiter is blocked at most one critical section + 1 ms by a throttled holder below a busier task of its group\n");
	ksft_test_result(sh->w_done && sh->max_h_ns <= NSEC_PER_MSEC / 10,
			 "no other task of the holder's throttled group runs while the holder runs for the waiter\n");
	ksft_finished();
}
