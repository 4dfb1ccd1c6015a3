// SPDX-License-Identifier: GPL-2.0
/*
 * A PI lock held for ever must not break the reservations of groups that
 * do not take part in it.  Two rounds on CPU 0, each of HOLD_NS:
 *
 *  - group A, 10 ms / 100 ms: L (SCHED_FIFO 10) takes a
 *    PTHREAD_PRIO_INHERIT mutex and spins with it for the whole round;
 *  - the waiter, SCHED_FIFO 50, blocks on the mutex 50 ms into the round
 *    and stays blocked until L lets go at the end: in the first round a
 *    task of A itself (in-group), in the second a task of group B,
 *    10 ms / 100 ms (cross-group);
 *  - group T, 20 ms / 100 ms: a periodic task (SCHED_FIFO 1) that needs
 *    15 ms every 100 ms, its deadline the next release;
 *  - the root group: a periodic task (SCHED_FIFO 1) that needs 1 ms
 *    every 100 ms.
 *
 * L inherits the waiter's priority.  A boost from A's own task changes
 * only the order inside A, so A is throttled as usual and L receives
 * A's 100 per mille.  A boost from B moves L to B's server in place of
 * A's (bandwidth inheritance): it is charged to B and throttled with B.
 * Either way L receives no more than the reservations of the groups
 * involved, which is what this test asserts: 100 per mille in-group,
 * 200 cross-group.  A CBS server of Q every P serves at most Q/P * t + Q
 * in a time t, plus what the hrtick lets it overrun per period
 * (precision: under 50 us): over the 3 s or more that L holds the lock,
 * 100 + 3.3 + 0.5 per mille per server, so the bounds are 105 and 210.
 * L measures its share itself, from its lock to its release: when it
 * starves every other task, nothing else could sample it.
 *
 * T's task and the root's task meet every deadline, whatever L does:
 * the servers of CPU 0 are admitted (10 + 10 + 20 ms of every 100 ms
 * and the root's 50 ms of every second, 45 % in all), so by EDF each
 * receives its budget by its deadline, and T's 20 ms cover its task's
 * 15 ms in every period (slack 5 ms).  The root task's 1 ms job has a
 * server deadline up to a second away and may wait for the other
 * servers: in 100 ms they serve at most Q/P * t + Q each, 20 + 20 +
 * 40 ms, so the job ends within 81 ms.  The periodic checks excuse the
 * wakeup latency as periodic_met() says.
 *
 * Fails on the series before the bandwidth inheritance (patch 8 at
 * 34e0892, now patch 7): a boosted server was never throttled and ran
 * ahead of every deadline, so L received 999 per mille and both periodic
 * tasks missed nearly all of their 30 jobs, in-group and cross-group
 * alike.  Fails on stock the same way (a boosted group is not throttled
 * there either).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rtedf.h"

#define GA		"pii-a"
#define GB		"pii-b"
#define GT		"pii-t"
#define HOLD_NS		(3 * NSEC_PER_SEC)
#define WAIT_AT		(50 * NSEC_PER_MSEC)
#define PERIOD		(100 * NSEC_PER_MSEC)

struct shared {
	pthread_mutex_t lock;
	int locked, waited;
	/* L's CPU time and the time that passed while it held the lock */
	uint64_t held_cpu_ns, held_ns;
};

/*
 * L: lock, spin until end, unlock; L measures its own share, since
 * nothing else may get to run while it holds the lock.
 */
static pid_t spawn_holder(struct shared *sh, uint64_t start, uint64_t end)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GA, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 10))
			_exit(2);
		uint64_t t, c;

		sleep_until(start);
		pthread_mutex_lock(&sh->lock);
		t = now_ns();
		c = thread_cputime_ns();
		sh->locked = 1;
		while (now_ns() < end)
			;
		sh->held_cpu_ns = thread_cputime_ns() - c;
		sh->held_ns = now_ns() - t;
		pthread_mutex_unlock(&sh->lock);
		_exit(0);
	}
	return pid;
}

static pid_t spawn_waiter(struct shared *sh, const char *group, uint64_t at)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(group, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 50))
			_exit(2);
		sleep_until(at);
		if (!sh->locked || !pthread_mutex_trylock(&sh->lock))
			_exit(3);	/* L did not hold it: vacuous round */
		pthread_mutex_lock(&sh->lock);
		sh->waited = 1;
		pthread_mutex_unlock(&sh->lock);
		_exit(0);
	}
	return pid;
}

static void round_run(const char *name, const char *waiter_group, double bound)
{
	struct shared *sh = shared_alloc(sizeof(*sh));
	struct periodic_stats *ts, *rs;
	uint64_t t0, end;
	pid_t l, w, t, r;
	double pm;
	bool ok;

	if (pi_mutex_init(&sh->lock, false))
		ksft_exit_fail_msg("cannot make a shared PI mutex\n");
	t0 = now_ns() + 100 * NSEC_PER_MSEC;
	end = t0 + HOLD_NS;
	l = spawn_holder(sh, t0, end);
	w = spawn_waiter(sh, waiter_group, t0 + WAIT_AT);
	t = spawn_periodic_at(GT, 1, 0, 15 * NSEC_PER_MSEC, PERIOD, t0,
			      HOLD_NS, &ts);
	r = spawn_periodic_at("", 1, 0, NSEC_PER_MSEC, PERIOD, t0, HOLD_NS,
			      &rs);
	if (l < 0 || w < 0 || t < 0 || r < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	ts = wait_periodic(t, ts);
	rs = wait_periodic(r, rs);
	ok = child_exited_ok("the waiter", w);
	ok = child_exited_ok("L", l) && ok;
	pm = sh->held_ns ? 1000.0 * sh->held_cpu_ns / sh->held_ns : 1000.0;

	ksft_print_msg("%s: holder received %.1f per mille; T: %lu of %lu jobs late (worst %+.3f ms), root: %lu of %lu late (worst %+.3f ms)\n",
		       name, pm, ts->misses, ts->jobs, ts->max_lateness_ns / 1e6,
		       rs->misses, rs->jobs, rs->max_lateness_ns / 1e6);
	ksft_test_result(ok && sh->waited && pm <= bound,
			 "%s: a holder that never lets go receives at most %.0f per mille\n",
			 name, bound);
	ksft_test_result(ts->jobs == HOLD_NS / PERIOD &&
			 periodic_met(ts, 5 * NSEC_PER_MSEC),
			 "%s: a third group's periodic task misses no deadline\n",
			 name);
	ksft_test_result(rs->jobs == HOLD_NS / PERIOD &&
			 periodic_met(rs, 0),
			 "%s: a root-group periodic task misses no deadline\n",
			 name);
}

int main(void)
{
	rtedf_init();
	ksft_set_plan(6);

	if (cg_group(GA, 100000, 10000) || cg_group(GB, 100000, 10000) ||
	    cg_group(GT, 100000, 20000))
		die("setting up the groups");
	round_run("in-group", GA, 105.0);
	round_run("cross-group", GB, 210.0);
	cg_remove(GA);
	cg_remove(GB);
	cg_remove(GT);
	ksft_finished();
}
