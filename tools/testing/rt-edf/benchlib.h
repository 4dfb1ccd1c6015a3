/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the rt-edf benchmark and demo (bench.c, demo.c), on top of
 * rtedf.h: CPU burners that are cheap to emulate, periodic workers with a
 * common release, sched_switch tracing through tracefs, and the scheduler
 * debug file.
 *
 * The guest runs under QEMU TCG with icount: one instruction is one
 * nanosecond of guest time, and the wall time a guest second costs depends
 * on the instructions.  A one-instruction loop ("for (;;);") costs about
 * 9 s of wall time per guest second here, an unrolled integer loop 0.75 s,
 * a loop of clock_gettime() system calls 4 s.  The burners below spin on
 * integer work and look at the clock every few microseconds.
 */
#ifndef RTEDF_BENCHLIB_H
#define RTEDF_BENCHLIB_H

#include "rtedf.h"

/* Integer work of a few microseconds of guest time. */
void spin_chunk(void);
/* Spins forever (a greedy task). */
void spin_forever(void) __attribute__((noreturn));
/* Burns ns of the calling thread's CPU time (to within ~2 us). */
void work_ns(__u64 ns);
void sleep_until_ns(__u64 t);

/*
 * Forks a child that joins group, takes SCHED_FIFO prio on CPU 0 and spins
 * forever (cheaply).  Returns its pid once it runs with the policy, or -1.
 */
pid_t spawn_spinner(const char *group, int prio);

/* A periodic worker's results, in memory shared with the parent. */
#define PW_REC_MAX	64
struct pw_stats {
	int ok;				/* the worker set itself up */
	int armed;			/* it ran after release_workers() armed */
	int late_start;			/* it was not ready at the first release */
	__s64 ready_ns;		/* when it was ready, minus t0 */
	unsigned long jobs;
	unsigned long misses;		/* jobs finished after their deadline */
	__s64 max_lateness_ns;	/* finish - deadline, worst job */
	__u64 cputime_ns;
	int nrec;			/* the first jobs, release and finish */
	struct { __u64 release, finish; } rec[PW_REC_MAX];
};

/*
 * Forks a periodic worker in group at SCHED_FIFO prio on CPU 0.  Once set
 * up (stats->ok) it waits for the parent to publish the first release in
 * *t0 (shared memory, see release_workers()); jobs are then released at
 * t0, t0 + period, ... while before t0 + duration; each burns work_ns of
 * CPU time and has the next release as its deadline.  Collect it with
 * waitpid(); *stats stays valid (shared memory).
 */
pid_t spawn_worker(const char *group, int prio, __u64 work, __u64 period,
		   __u64 duration, __u64 *t0, struct pw_stats **stats);
/* The same on cpu (-1: any CPU). */
pid_t spawn_worker_on(const char *group, int prio, int cpu, __u64 work,
		      __u64 period, __u64 duration, __u64 *t0,
		      struct pw_stats **stats);
/*
 * Waits until the n workers are set up (every cgroup attach waits for an
 * RCU grace period, milliseconds) and have run in their groups since (a
 * reconfigured group may be throttled for a while), then releases them
 * together lead_ns from now: returns t0, stored in *t0.
 */
__u64 release_workers(struct pw_stats *const *stats, int n, __u64 *t0,
			 __u64 lead_ns);

/* Sets every group's runtime to 0 (own tasks first), so that any new
 * configuration of them is admitted step by step. */
void groups_zero(const char *const *groups, int n);
/* rt-edf: leaves us every second to the root group's own RT tasks. */
void root_own_runtime(long long us);
/* Sets the fair server's runtime (per second) on every CPU (debugfs). */
void fair_server_runtime(__u64 ns);
/* True on the rt-edf kernel (the group files cpu.rt_task_* exist). */
bool is_rtedf(void);

/* tracefs: sched_switch events with the CLOCK_MONOTONIC clock. */
struct sw_event {
	__u64 t;		/* ns, CLOCK_MONOTONIC (us resolution) */
	int prev_pid, next_pid;
	int prev_prio, next_prio;	/* kernel priorities: < 100 real-time */
	char prev_state[8];	/* "R", "R+", "S", "D", ... */
};
/* Stops tracing, clears the buffer, enables sched_switch, starts. */
int trace_begin(int buffer_kb);
void trace_end(void);
/* Calls cb for every sched_switch event in the buffer, oldest first. */
int trace_for_each(void (*cb)(const struct sw_event *e, void *arg), void *arg);

/*
 * rt-edf: the deadline (ns, CLOCK_MONOTONIC) and budget of group's server
 * on cpu, from /sys/kernel/debug/sched/debug.  Returns 0 or -1.
 */
int rt_server_state(const char *group, int cpu, __u64 *deadline_ns,
		    long long *budget_ns);

/* xorshift64* pseudo-random numbers, deterministic for a seed. */
__u64 rnd_next(__u64 *s);
double rnd_unit(__u64 *s);	/* [0, 1) */

#endif
