// SPDX-License-Identifier: GPL-2.0
/*
 * make demo: the IRMOS article's example with a greedy intruder, on CPU 0.
 *
 *   article-9ms  5 ms every 9 ms, a periodic task needing 4.5 ms every 9 ms
 *   article-6ms  2 ms every 6 ms, a periodic task needing 1.8 ms every 6 ms
 *   intruder     1 ms every 20 ms, a SCHED_FIFO 99 busy loop
 *
 * The shorter period has the lower priority (20 against 80) and the
 * intruder the highest, so priorities alone (the stock kernel) make the
 * 6 ms task miss.  The root group's own RT tasks keep 1%, so the groups may
 * take 94% (they take 93.9%).  On rt-edf the groups share the global
 * limit of 95% with SCHED_DEADLINE, the fair server included (50 ms every
 * second by default, which leaves them 90%): the demo lowers the fair
 * server of every CPU to 10 ms every second, on both kernels (it has no
 * fair load to serve).  Both periodic tasks are first released
 * together at t0 and run DURATION; the intruder spins from before t0.
 *
 * Prints a table per group (reserved, received from the sched_switch
 * trace over [t0, t0 + DURATION), jobs, misses, maximum lateness) as lines
 * "rt-edf demo: ...", then for the picture (scripts/demo-report.py) lines
 * starting with '@': the groups and their pids, the first jobs' release and
 * finish times, the sched_switch events up to t0 + 60 ms, and on rt-edf
 * the intruder's server deadline read from the scheduler debug file right
 * after the run.
 *
 * The trace also holds the wakeups and, on rt-edf, the servers' events
 * (sched_rt_server_*, throttle, replenish); the demo leaves it in the ring
 * buffer, where the guest's /init saves it with 'trace-cmd extract' for
 * the host (build/demo/trace-<kernel>.dat, for kernelshark).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "benchlib.h"

#define DURATION	(2 * NSEC_PER_SEC)
#define PICTURE		(60 * NSEC_PER_MSEC)
#define NG		3

struct grp {
	const char *name;
	long long q_us, p_us;
	int prio;
	long long work_us;	/* per job; 0: busy loop */
	pid_t pid;
	struct pw_stats *st;
	__u64 ran;		/* ns in [t0, t0 + DURATION) */
	__u64 since;		/* running since (0: not running) */
};

static struct grp g[NG] = {
	{ .name = "article-9ms", .q_us = 5000, .p_us = 9000, .prio = 80, .work_us = 4500 },
	{ .name = "article-6ms", .q_us = 2000, .p_us = 6000, .prio = 20, .work_us = 1800 },
	{ .name = "intruder", .q_us = 1000, .p_us = 20000, .prio = 99 },
};
static __u64 t0, t_end;

static struct grp *grp_of(int pid)
{
	int i;

	for (i = 0; i < NG; i++)
		if (g[i].pid == pid)
			return &g[i];
	return NULL;
}

static __u64 clip(__u64 t)
{
	return t < t0 ? t0 : t > t_end ? t_end : t;
}

static void on_switch(const struct sw_event *e, void *arg)
{
	struct grp *p = grp_of(e->prev_pid), *n = grp_of(e->next_pid);

	if (p && p->since) {
		p->ran += clip(e->t) - clip(p->since);
		p->since = 0;
	}
	if (n)
		n->since = e->t;
	if (e->t < t0 + PICTURE)
		printf("@sw t=%llu prev=%d prev_prio=%d state=%s next=%d next_prio=%d\n",
		       (unsigned long long)e->t, e->prev_pid, e->prev_prio,
		       e->prev_state, e->next_pid, e->next_prio);
}

static const char *const demo_events[] = {
	"events/sched/sched_wakeup/enable",
	"events/sched/sched_rt_server_start/enable",
	"events/sched/sched_rt_server_enqueue/enable",
	"events/sched/sched_rt_server_dequeue/enable",
	"events/sched/sched_rt_throttle/enable",
	"events/sched/sched_rt_replenish/enable",
};

int main(void)
{
	const char *names[NG];
	struct pw_stats *sts[2];
	bool rtedf, traced;
	__u64 *t0p;
	struct utsname u;
	int i, status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cg_mount();
	rtedf = is_rtedf();
	root_own_runtime(10000);
	fair_server_runtime(10 * NSEC_PER_MSEC);
	for (i = 0; i < NG; i++)
		names[i] = g[i].name;
	groups_zero(names, NG);
	for (i = 0; i < NG; i++)
		if (cg_group(g[i].name, g[i].p_us, g[i].q_us))
			die("creating the reservation %s", g[i].name);

	traced = trace_begin(4096) == 0;
	/* For trace.dat; stock lacks the server events. */
	for (i = 0; traced && i < (int)ARRAY_SIZE(demo_events); i++)
		tracefs_write(demo_events[i], "1");
	g[2].pid = spawn_spinner(g[2].name, g[2].prio);
	if (g[2].pid < 0)
		ksft_exit_fail_msg("cannot start the intruder\n");
	sleep_ns(30 * NSEC_PER_MSEC);
	t0p = shared_alloc(sizeof(*t0p));
	for (i = 0; i < 2; i++)
		g[i].pid = spawn_worker(g[i].name, g[i].prio, g[i].work_us * 1000,
					g[i].p_us * 1000, DURATION, t0p, &g[i].st);
	sts[0] = g[0].st;
	sts[1] = g[1].st;
	t0 = release_workers(sts, 2, t0p, 10 * NSEC_PER_MSEC);
	t_end = t0 + DURATION;
	for (i = 0; i < 2; i++)
		if (waitpid(g[i].pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) || !g[i].st->ok)
			printf("# worker %s failed (status %#x)\n", g[i].name, status);
	if (rtedf) {
		__u64 dl;
		long long budget;

		if (rt_server_state(g[2].name, 0, &dl, &budget) == 0)
			printf("@repl group=%s deadline=%llu budget=%lld period=%llu\n",
			       g[2].name, (unsigned long long)dl, budget,
			       g[2].p_us * 1000ULL);
	}
	trace_end();
	stop_child(g[2].pid);

	uname(&u);
	printf("@kernel name=%s release=%s t0=%llu duration=%llu\n",
	       rtedf ? "rt-edf" : "stock", u.release, (unsigned long long)t0,
	       (unsigned long long)DURATION);
	for (i = 0; i < NG; i++)
		printf("@group name=%s q=%lld p=%lld prio=%d pid=%d work=%lld\n",
		       g[i].name, g[i].q_us * 1000, g[i].p_us * 1000, g[i].prio,
		       g[i].pid, g[i].work_us * 1000);
	for (i = 0; i < NG; i++) {
		int j;

		for (j = 0; g[i].st && j < g[i].st->nrec; j++)
			if (g[i].st->rec[j].release < t0 + PICTURE)
				printf("@job group=%s release=%llu finish=%llu\n",
				       g[i].name,
				       (unsigned long long)g[i].st->rec[j].release,
				       (unsigned long long)g[i].st->rec[j].finish);
	}
	if (!traced || trace_for_each(on_switch, NULL))
		printf("# no sched_switch trace: received shares unknown\n");
	for (i = 0; i < NG; i++)
		if (g[i].since)
			g[i].ran += t_end - clip(g[i].since);

	printf("rt-edf demo: %s kernel %s, CPU 0, %.0f s, tasks released together at t0\n",
	       rtedf ? "rt-edf" : "stock", u.release, DURATION / 1e9);
	printf("rt-edf demo: %-12s %-22s %5s %9s %5s %7s %13s\n", "group",
	       "reserved (Q / P)", "prio", "received", "jobs", "missed",
	       "max lateness");
	for (i = 0; i < NG; i++) {
		char res[64], jobs[16], miss[16], late[24];

		snprintf(res, sizeof(res), "%g / %g ms = %.1f%%", g[i].q_us / 1e3,
			 g[i].p_us / 1e3, 100.0 * g[i].q_us / g[i].p_us);
		if (g[i].st) {
			snprintf(jobs, sizeof(jobs), "%lu", g[i].st->jobs);
			snprintf(miss, sizeof(miss), "%lu", g[i].st->misses);
			snprintf(late, sizeof(late), "%+.0f us",
				 g[i].st->max_lateness_ns / 1e3);
		} else {
			strcpy(jobs, "-");
			strcpy(miss, "-");
			strcpy(late, "(busy loop)");
		}
		printf("rt-edf demo: %-12s %-22s %5d %8.1f%% %5s %7s %13s\n",
		       g[i].name, res, g[i].prio, 100.0 * g[i].ran / DURATION,
		       jobs, miss, late);
		printf("@stats group=%s ran=%llu jobs=%s misses=%s maxlate=%lld\n",
		       g[i].name, (unsigned long long)g[i].ran, jobs, miss,
		       g[i].st ? (long long)g[i].st->max_lateness_ns : 0LL);
	}
	for (i = 0; i < NG; i++)
		cg_remove(g[i].name);
	return 0;
}
