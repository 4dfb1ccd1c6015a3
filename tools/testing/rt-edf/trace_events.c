// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_rt_* trace events (Documentation/scheduler/sched-rt-edf.rst,
 * "Observing") say what the servers did, in values that agree with the
 * rules they document.  With the events on, on CPU 0:
 *
 *  - a busy task in group A, 2 ms / 10 ms, for BUSY_NS: throttles and
 *    replenishments;
 *  - a task of A that runs 1 ms, sleeps 1 ms, runs 1 ms and sleeps 20 ms,
 *    five times: its server wakes with budget and deadline kept (1 ms
 *    left with 8 ms to go: 1 * 10 <= 8 * 2) and reset (20 ms later, past
 *    the deadline);
 *  - a task of A (SCHED_FIFO 10) that holds a PI mutex for 3 ms of CPU
 *    time, which a task of group B, 2 ms / 10 ms (SCHED_FIFO 20), waits
 *    for: a boost onto B's server, and its end.
 *
 * Then from the trace:
 *  1. every event is there (server_start both kept and reset);
 *  2. a group's events carry its cgroup id, the inode number of its
 *     directory, and the boost names the holder, A and B;
 *  3. each server_start's outcome is the CBS rule applied to the values
 *     it prints: kept if and only if now < deadline and
 *     budget * period / runtime <= deadline - now (integer division);
 *  4. each replenishment of A or B leaves a budget of at most 2 ms and a
 *     deadline after "now", and a debt >= 0;
 *  5. each throttle's overrun is at most the lateness of what stopped
 *     the server + 50 us: the hrtick's (hrtick_fired - hrtick_expires),
 *     or else the tick's (the time charged with the throttle, "ran",
 *     beyond a tick: the hrtick is armed only for a budget that ends
 *     before the next tick).  The hrtick is programmed for the end of
 *     the budget, so what goes past it is the interrupt's lateness and
 *     the few microseconds from the interrupt to the charge (tests
 *     precision and hrtick bound those by 50 us).  On PREEMPT_RT a
 *     server may run on past its budget while a task of it holds a
 *     lock (the PI mutex here): its sched_rt_held is judged as a
 *     throttle, and what it charges until its throttle, at most the
 *     time since, is a debt, not an overrun;
 *  6. per server, enqueue and dequeue alternate.
 *
 * A new feature: fails on stock and on the series before the events
 * (21d83fc), which have no sched_rt_* events to enable.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define GA		"trace-a"
#define GB		"trace-b"
#define Q_NS		(2 * NSEC_PER_MSEC)
#define P_NS		(10 * NSEC_PER_MSEC)
#define BUSY_NS		(100 * NSEC_PER_MSEC)
#define SLACK_NS	(50 * NSEC_PER_USEC)
#define MAX_SERVERS	64

static const char *const events[] = {
	"sched_rt_server_enqueue", "sched_rt_server_dequeue",
	"sched_rt_server_start", "sched_rt_throttle", "sched_rt_replenish",
	"sched_rt_boost_begin", "sched_rt_boost_end",
	"sched_rt_held",	/* PREEMPT_RT only: not required */
};
#define NR_EVENTS	(sizeof(events) / sizeof(events[0]))
#define NR_REQUIRED	(NR_EVENTS - 1)

struct pi_shared {
	pthread_mutex_t m;
	volatile int locked;
};

/* One event: its name's index and the key=value fields after it. */
struct event {
	unsigned int type;
	bool kept;
	long long cpu, cgid, budget, deadline, now, runtime, period, debt;
	long long overrun, ran, hrtick_expires, hrtick_fired, pid, server, throttled;
};

static bool parse(const char *line, struct event *e)
{
	const char *p = strstr(line, ": sched_rt_");
	unsigned int i;

	if (!p)
		return false;
	p += 2;
	for (i = 0; i < NR_EVENTS; i++) {
		size_t n = strlen(events[i]);

		if (!strncmp(p, events[i], n) && p[n] == ':')
			break;
	}
	if (i == NR_EVENTS)
		return false;
	p = strchr(p, ':');
	memset(e, 0, sizeof(*e));
	e->type = i;
	e->kept = strstr(p, " kept ") != NULL;
	e->cpu = trace_field(p, "cpu");
	e->cgid = trace_field(p, "cgroup_id");
	e->budget = trace_field(p, "budget");
	e->deadline = trace_field(p, "deadline");
	e->now = trace_field(p, "now");
	e->runtime = trace_field(p, "runtime");
	e->period = trace_field(p, "period");
	e->debt = trace_field(p, "debt");
	e->overrun = trace_field(p, "overrun");
	e->ran = trace_field(p, "ran");
	e->hrtick_expires = trace_field(p, "hrtick_expires");
	e->hrtick_fired = trace_field(p, "hrtick_fired");
	e->pid = trace_field(p, "pid");
	e->server = trace_field(p, "server_cgroup_id");
	e->throttled = trace_field(p, "throttled");
	return true;
}

/* Runs 1 ms, sleeps 1 ms, runs 1 ms, sleeps 20 ms, five times. */
static pid_t spawn_sleepy(void)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(GA, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 10))
			_exit(2);
		for (int i = 0; i < 5; i++) {
			burn_cpu(NSEC_PER_MSEC);
			sleep_ns(NSEC_PER_MSEC);
			burn_cpu(NSEC_PER_MSEC);
			sleep_ns(20 * NSEC_PER_MSEC);
		}
		_exit(0);
	}
	return pid;
}

static pid_t spawn_locker(struct pi_shared *sh, const char *group, int prio,
			  uint64_t hold_ns)
{
	pid_t pid = rtedf_fork();

	if (pid == 0) {
		if (cg_attach(group, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, prio) || pthread_mutex_lock(&sh->m))
			_exit(2);
		sh->locked = 1;
		burn_cpu(hold_ns);
		pthread_mutex_unlock(&sh->m);
		_exit(0);
	}
	return pid;
}

static void run_workload(pid_t *holder)
{
	struct pi_shared *sh = shared_alloc(sizeof(*sh));
	uint64_t t0 = now_ns() + 20 * NSEC_PER_MSEC;
	pid_t busy, sleepy, waiter;

	busy = spawn_busy_until(GA, SCHED_FIFO, 10, 0, t0, t0 + BUSY_NS);
	if (busy < 0 || waitpid(busy, NULL, 0) < 0)
		die("running the busy task");
	sleepy = spawn_sleepy();
	if (sleepy < 0 || waitpid(sleepy, NULL, 0) < 0)
		die("running the sleepy task");

	if (pi_mutex_init(&sh->m, false))
		die("initialising the PI mutex");
	*holder = spawn_locker(sh, GA, 10, 3 * NSEC_PER_MSEC);
	while (*holder > 0 && !sh->locked)
		sleep_ns(100 * NSEC_PER_USEC);
	waiter = spawn_locker(sh, GB, 20, 0);
	if (*holder < 0 || waiter < 0 || waitpid(*holder, NULL, 0) < 0 ||
	    waitpid(waiter, NULL, 0) < 0)
		die("running the PI pair");
}

int main(void)
{
	long long ino_a, ino_b, queued_cgid[MAX_SERVERS];
	int queued_cpu[MAX_SERVERS], queued[MAX_SERVERS], nservers = 0;
	unsigned int seen[NR_EVENTS] = { 0 }, i;
	int kept = 0, reset = 0, bad_ids = 0, bad_rule = 0, bad_repl = 0;
	int bad_thr = 0, bad_seq = 0, a_events = 0, boost_ok = 0, thr = 0;
	long long worst_excess = 0, held_now[2], held_over[2];
	bool held[2] = { false, false };
	char line[512], path[128];
	struct event e;
	pid_t holder;
	FILE *f;

	rtedf_init();
	ksft_set_plan(6);
	if (cg_group(GA, P_NS / 1000, Q_NS / 1000) || cg_group(GB, P_NS / 1000, Q_NS / 1000))
		die("setting up the groups");
	ino_a = cg_ino(GA);
	ino_b = cg_ino(GB);

	if (tracefs_write("tracing_on", "0") || tracefs_write("buffer_size_kb", "8192") ||
	    tracefs_write("trace", ""))
		ksft_exit_fail_msg("no tracefs\n");
	for (i = 0; i < NR_EVENTS; i++) {
		snprintf(path, sizeof(path), "events/sched/%s/enable", events[i]);
		if (tracefs_write(path, "1") && i < NR_REQUIRED)
			ksft_exit_fail_msg("no trace event %s\n", events[i]);
	}
	tracefs_write("tracing_on", "1");
	run_workload(&holder);
	tracefs_write("tracing_on", "0");

	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		die("reading the trace");
	while (fgets(line, sizeof(line), f)) {
		if (!parse(line, &e))
			continue;
		seen[e.type]++;
		if (e.cgid == ino_a)
			a_events++;
		switch (e.type) {
		case 0: case 1: {	/* enqueue, dequeue: alternate */
			int s;

			for (s = 0; s < nservers; s++)
				if (queued_cgid[s] == e.cgid && queued_cpu[s] == e.cpu)
					break;
			if (s == nservers && nservers < MAX_SERVERS) {
				queued_cgid[s] = e.cgid;
				queued_cpu[s] = (int)e.cpu;
				queued[s] = e.type == 1;	/* as if before */
				nservers++;
			}
			if (s < nservers) {
				if (queued[s] != (e.type == 1))
					bad_seq++;
				queued[s] = e.type == 0;
			}
			break;
		}
		case 2: {		/* server_start: the CBS rule */
			/* As the kernel computes it: a 128-bit product, divided. */
			bool rule = e.runtime > 0 && e.now < e.deadline &&
				(e.budget <= 0 ||
				 (__int128)e.budget * e.period / e.runtime <=
				 e.deadline - e.now);

			if (rule != e.kept) {
				bad_rule++;
				ksft_print_msg("CBS rule not applied: %s", line);
			}
			e.kept ? kept++ : reset++;
			break;
		}
		case 3: case 7: {	/* throttle, or held (judged as one) */
			/* The hrtick's lateness, or the tick's (see schedcheck.py). */
			long long late = e.hrtick_fired ? e.hrtick_fired - e.hrtick_expires :
					 e.ran - (long long)NSEC_PER_MSEC;
			long long over = e.overrun, excess;
			int s = e.cgid == ino_b;

			if (e.cgid != ino_a && e.cgid != ino_b)
				break;
			/* A hold: until the throttle, a debt (see above). */
			if (e.type == 7) {
				held[s] = true;
				held_now[s] = e.now;
				held_over[s] = e.overrun;
				if (e.throttled)	/* judged at its throttle */
					break;
			} else if (held[s]) {
				held[s] = false;
				over -= held_over[s] + (e.now - held_now[s]);
				if (over < 0)
					over = 0;
			}
			excess = over - (late > 0 ? late : 0);
			thr++;
			if (excess > worst_excess)
				worst_excess = excess;
			if (e.overrun < 0 || excess > (long long)SLACK_NS) {
				bad_thr++;
				ksft_print_msg("overrun: %s", line);
			}
			break;
		}
		case 4:			/* replenish */
			if (e.cgid != ino_a && e.cgid != ino_b)
				break;
			if (e.budget > (long long)Q_NS || e.deadline <= e.now || e.debt < 0) {
				bad_repl++;
				ksft_print_msg("replenishment: %s", line);
			}
			break;
		case 5: case 6:		/* boost */
			if (e.pid != holder)
				break;
			if (e.cgid == ino_a && e.server == ino_b)
				boost_ok |= 1 << (e.type - 5);
			else
				bad_ids++;
			break;
		}
	}
	fclose(f);
	for (i = 0; i < NR_EVENTS; i++) {
		snprintf(path, sizeof(path), "events/sched/%s/enable", events[i]);
		tracefs_write(path, "0");
	}
	cg_remove(GA);
	cg_remove(GB);

	for (i = 0; i < NR_EVENTS; i++)
		ksft_print_msg("%s: %u\n", events[i], seen[i]);
	ksft_print_msg("server starts: %d kept, %d reset; %d throttles of A and B, worst overrun past the hrtick's lateness %lld us\n",
		       kept, reset, thr, worst_excess / 1000);
	for (i = 0; i < NR_REQUIRED && seen[i]; i++)
		;
	ksft_test_result(i == NR_REQUIRED && kept && reset,
			 "every sched_rt event is recorded, server starts kept and reset\n");
	ksft_test_result(ino_a > 0 && a_events > 0 && boost_ok == 3 && !bad_ids,
			 "events name a group by its directory's inode number; the boost names holder, A and B\n");
	ksft_test_result(seen[2] && !bad_rule,
			 "every server start follows the CBS rule on the values it prints\n");
	ksft_test_result(seen[4] && !bad_repl,
			 "every replenishment leaves at most Q, a deadline to come and a debt >= 0\n");
	ksft_test_result(thr && !bad_thr,
			 "no throttle overruns by more than the hrtick's lateness + 50 us\n");
	ksft_test_result(seen[0] && seen[1] && !bad_seq,
			 "enqueue and dequeue of each server alternate\n");
	ksft_finished();
}
