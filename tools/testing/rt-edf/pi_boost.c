// SPDX-License-Identifier: GPL-2.0
/*
 * Priority inheritance across reservations, all on CPU 0:
 *
 *  - group C, 50 ms / 100 ms: a busy task (SCHED_FIFO 50) from t0, so C
 *    runs in the first 50 ms of every 100 ms after t0 (its deadline is the
 *    earliest then), and is throttled in the other 50;
 *  - group A, 10 ms / 100 ms: L (SCHED_FIFO 10), from t0 + 5 ms, loops
 *    forever: lock a PTHREAD_PRIO_INHERIT mutex shared between processes,
 *    burn 2 ms of CPU, unlock, burn 3.3 ms.  A's deadline is always 5 ms
 *    after C's, so A runs when C is throttled, from 50 to 60 ms in the
 *    period, and then is throttled until 105 ms; about two times in five
 *    while L holds the mutex (with exactly 3 ms outside, the 10 ms budget
 *    would hold two whole loops, and L would always stop just before
 *    locking);
 *  - group B, 3 ms / 10 ms: W (SCHED_FIFO 90) wakes every 67 ms, takes the
 *    mutex and lets it go at once.  The short period gives B the earliest
 *    deadline whenever W wakes (with 20 ms / 100 ms, W would wait for C
 *    like A does, and would only ever find the mutex held while C is
 *    throttled).  The period is longer than the 40 ms from A's throttling
 *    to C's next budget, so that W's first attempt after L was throttled
 *    in its critical section falls into C's 50 ms about one time in three
 *    (every 37 ms, W always came first in those 40 ms, and L's boost
 *    ended the critical section before C's budget came back).
 *
 * When W blocks on the mutex, L inherits W's priority and runs on B's
 * server in place of A's (bandwidth inheritance), even if A is
 * throttled: at B's deadline, the earliest of CPU 0 whenever W wakes,
 * before C's too, whose server has budget and an earlier deadline than
 * A's when W blocks in the first 50 ms of a period.  B's budget, renewed
 * when W wakes after 67 ms asleep, is 3 ms: enough for W's own few
 * microseconds and the at most 2 ms left of L's critical section, so
 * that L does not wait for B's next period.  W is then blocked for at
 * most what is left of one critical section, 2 ms of CPU: W's longest
 * blocking (from its lock attempt to L's release of the mutex, which L
 * stamps just before unlocking) must stay within 2 ms + 1 ms.  The 1 ms
 * covers what boosting itself costs and what may still run ahead of L:
 * the futex system calls and PI chain walk, two context switches, and
 * the tick and timer interrupts of CPU 0 (tens of microseconds together
 * under QEMU).  A throttled holder that is not boosted would wait for
 * A's replenishment (up to 45 ms), one boosted only within A's server
 * for C's budget to run out (up to 45 ms).
 *
 * What L runs while boosted is charged to B, so L receives at most A's
 * share, Q + Q/P * t in any interval t (100 + 10 ms / 5 s = 102 per
 * mille over the 5 s window), plus at most one critical section per
 * job of W on B's server (75 jobs of 2 ms in 5 s, 30 per mille); 135
 * is the bound.  A third point checks that W did find the mutex held, at
 * least 10 times and 3 of them while C had budget (about 20 and 8 are
 * expected), so that the first point is not vacuous.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define GA	"pi-a"
#define GB	"pi-b"
#define GC	"pi-c"
#define CS_NS		(2 * NSEC_PER_MSEC)
#define OUTSIDE_NS	(3300 * NSEC_PER_USEC)
#define W_PERIOD	(67 * NSEC_PER_MSEC)
#define PERIOD		(100 * NSEC_PER_MSEC)	/* of A and C */
#define WINDOW		(5 * NSEC_PER_SEC)

struct shared {
	pthread_mutex_t lock;
	uint64_t t0;			/* C's start */
	uint64_t last_release;		/* L's stamp just before unlocking */
	unsigned long attempts, contended, contended_c;
	uint64_t max_blocking_ns, max_wait_ns;
	int w_done;
};

static pid_t spawn_l(struct shared *sh, uint64_t start)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GA, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 10))
			_exit(2);
		sleep_until(start);
		for (;;) {
			pthread_mutex_lock(&sh->lock);
			burn_cpu(CS_NS);
			sh->last_release = now_ns();
			pthread_mutex_unlock(&sh->lock);
			burn_cpu(OUTSIDE_NS);
		}
	}
	return pid;
}

static pid_t spawn_w(struct shared *sh, uint64_t start, uint64_t duration)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		uint64_t release, end, t0, t1, rel;

		if (cg_attach(GB, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 90))
			_exit(2);
		release = start;
		end = release + duration;
		for (; release < end; release += W_PERIOD) {
			sleep_until(release);
			t0 = now_ns();
			sh->attempts++;
			if (pthread_mutex_trylock(&sh->lock)) {
				pthread_mutex_lock(&sh->lock);
				t1 = now_ns();
				rel = sh->last_release;
				sh->contended++;
				/* In C's 50 ms, after A's deadline passed C's. */
				if ((t0 - sh->t0) % PERIOD >= 5 * NSEC_PER_MSEC &&
				    (t0 - sh->t0) % PERIOD < 50 * NSEC_PER_MSEC)
					sh->contended_c++;
				if (rel > t0 && rel - t0 > sh->max_blocking_ns)
					sh->max_blocking_ns = rel - t0;
				if (t1 - t0 > sh->max_wait_ns)
					sh->max_wait_ns = t1 - t0;
			}
			pthread_mutex_unlock(&sh->lock);
		}
		sh->w_done = 1;
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct shared *sh = shared_alloc(sizeof(*sh));
	pid_t l, w, c;
	int status;
	double pm;

	rtedf_init();
	ksft_set_plan(3);

	if (pi_mutex_init(&sh->lock, false))
		ksft_exit_fail_msg("cannot make a shared PI mutex\n");
	if (cg_group(GA, 100000, 10000) || cg_group(GB, 10000, 3000) ||
	    cg_group(GC, 100000, 50000))
		die("setting up the groups");
	sh->t0 = now_ns() + 100 * NSEC_PER_MSEC;
	c = spawn_busy_at(GC, SCHED_FIFO, 50, 0, sh->t0);
	l = spawn_l(sh, sh->t0 + 5 * NSEC_PER_MSEC);
	w = spawn_w(sh, sh->t0 + W_PERIOD, WINDOW + 2 * PERIOD);
	if (c < 0 || l < 0 || w < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(sh->t0);
	/* 50 whole periods of A, from the start of one. */
	measure_permille_at(&l, 1, sh->t0 + 5 * NSEC_PER_MSEC + 2 * PERIOD, WINDOW, &pm);
	if (waitpid(w, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		ksft_print_msg("W failed (status %#x)\n", status);
	stop_child(l);
	stop_child(c);
	cg_remove(GA);
	cg_remove(GB);
	cg_remove(GC);

	ksft_print_msg("W: %lu attempts, %lu found the mutex held (%lu while C had budget); longest blocking %.3f ms, longest wait for the mutex %.3f ms\n",
		       sh->attempts, sh->contended, sh->contended_c,
		       sh->max_blocking_ns / 1e6, sh->max_wait_ns / 1e6);
	ksft_print_msg("A (10 ms / 100 ms): L received %.1f per mille\n", pm);
	ksft_test_result(sh->w_done && sh->max_blocking_ns <= CS_NS + NSEC_PER_MSEC,
			 "a waiter is blocked at most one critical section + 1 ms by a throttled holder\n");
	ksft_test_result(pm <= 135.0,
			 "the boosted holder receives at most its group's 100 per mille and one critical section per waiter's job\n");
	ksft_test_result(sh->contended >= 10 && sh->contended_c >= 3,
			 "the waiter found the mutex held at least 10 times, 3 of them while an earlier deadline had budget\n");
	ksft_finished();
}
