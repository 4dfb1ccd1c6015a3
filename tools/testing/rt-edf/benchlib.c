// SPDX-License-Identifier: GPL-2.0
/* Helpers of the rt-edf benchmark and demo; see benchlib.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"

#define SCHED_DEBUG "/sys/kernel/debug/sched/debug"

static volatile __u64 spin_sink;

static inline void spin_iters(int n)
{
	__u64 a = spin_sink, b = 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < n; i++) {
		a = a * 6364136223846793005ULL + b;
		b ^= a >> 7;
	}
	spin_sink = a;
}

/* About 7 instructions per iteration: 1000 iterations, 7 us of icount. */
void spin_chunk(void)
{
	spin_iters(1000);
}

void spin_forever(void)
{
	for (;;)
		spin_iters(1000);
}

void work_ns(__u64 ns)
{
	__u64 start = thread_cputime_ns(), done;

	while ((done = thread_cputime_ns() - start) < ns)
		spin_iters(ns - done > 20 * NSEC_PER_USEC ? 1000 : 150);
}

void sleep_until_ns(__u64 t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* A busy SCHED_FIFO loop at prio in group, on CPU 0. */
pid_t spawn_spinner(const char *group, int prio)
{
	return spawn_busy(group, SCHED_FIFO, prio, 0);
}

pid_t spawn_worker(const char *group, int prio, __u64 work, __u64 period,
		   __u64 duration, __u64 *t0p, struct pw_stats **statsp)
{
	return spawn_worker_on(group, prio, 0, work, period, duration, t0p, statsp);
}

pid_t spawn_worker_on(const char *group, int prio, int cpu, __u64 work,
		      __u64 period, __u64 duration, __u64 *t0p,
		      struct pw_stats **statsp)
{
	struct pw_stats *st = shared_alloc(sizeof(*st));
	pid_t pid;

	*statsp = st;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		__u64 t0, release, finish, c0;
		__s64 late;

		if (cg_attach(group, getpid()) || (cpu >= 0 && pin_cpu(0, cpu)) ||
		    set_sched(0, SCHED_FIFO, prio))
			_exit(2);
		__atomic_store_n(&st->ok, 1, __ATOMIC_SEQ_CST);
		/* *t0p: 0 wait, 1 armed (say that we run), else the release. */
		while ((t0 = __atomic_load_n(t0p, __ATOMIC_SEQ_CST)) <= 1) {
			if (t0 == 1)
				__atomic_store_n(&st->armed, 1, __ATOMIC_SEQ_CST);
			sleep_ns(NSEC_PER_MSEC);
		}
		c0 = thread_cputime_ns();
		st->ready_ns = (__s64)(now_ns() - t0);
		st->late_start = st->ready_ns >= 0;
		for (release = t0; release < t0 + duration; release += period) {
			sleep_until_ns(release);
			work_ns(work);
			finish = now_ns();
			late = (__s64)(finish - (release + period));
			if (st->nrec < PW_REC_MAX) {
				st->rec[st->nrec].release = release;
				st->rec[st->nrec].finish = finish;
				st->nrec++;
			}
			st->jobs++;
			if (late > 0)
				st->misses++;
			if (st->jobs == 1 || late > st->max_lateness_ns)
				st->max_lateness_ns = late;
		}
		st->cputime_ns = thread_cputime_ns() - c0;
		_exit(0);
	}
	return pid;
}

static void wait_workers(struct pw_stats *const *stats, int n, size_t off)
{
	int i, tries;

	for (tries = 0; tries < 5000; tries++) {
		for (i = 0; i < n; i++)
			if (!__atomic_load_n((int *)((char *)stats[i] + off), __ATOMIC_SEQ_CST))
				break;
		if (i == n)
			return;
		sleep_ns(NSEC_PER_MSEC);
	}
}

__u64 release_workers(struct pw_stats *const *stats, int n, __u64 *t0p,
			 __u64 lead_ns)
{
	__u64 t0;

	wait_workers(stats, n, offsetof(struct pw_stats, ok));
	__atomic_store_n(t0p, 1, __ATOMIC_SEQ_CST);
	wait_workers(stats, n, offsetof(struct pw_stats, armed));
	t0 = now_ns() + lead_ns;
	__atomic_store_n(t0p, t0, __ATOMIC_SEQ_CST);
	return t0;
}

void groups_zero(const char *const *groups, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!cg_has(groups[i], ""))
			continue;
		if (cg_has(groups[i], "cpu.rt_task_runtime_us"))
			cg_write_ll(groups[i], "cpu.rt_task_runtime_us", 0);
		cg_write_ll(groups[i], "cpu.rt_runtime_us", 0);
	}
}

bool is_rtedf(void)
{
	return cg_has("", "cpu.rt_task_runtime_us");
}

void root_own_runtime(long long us)
{
	/* us of every second: the suite's period for the root's own tasks */
	if (is_rtedf() && root_own_reserve(us, 1000000))
		printf("# could not give the root's own tasks %lld us every second\n", us);
}

void fair_server_runtime(__u64 ns)
{
	char path[96], val[32];
	int fd;

	snprintf(val, sizeof(val), "%llu", (unsigned long long)ns);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			break;
		if (write(fd, val, strlen(val)) < 0)
			printf("# could not set %s to %s: %s\n", path, val, strerror(errno));
		close(fd);
	}
}

/* tracefs */

int trace_begin(int buffer_kb)
{
	char buf[32];
	int err;

	tracefs_write("tracing_on", "0");
	err = tracefs_write("trace_clock", "mono");
	snprintf(buf, sizeof(buf), "%d", buffer_kb);
	if (!err)
		err = tracefs_write("buffer_size_kb", buf);
	if (!err)
		err = tracefs_write("trace", "");
	if (!err)
		err = tracefs_write("events/sched/sched_switch/enable", "1");
	if (!err)
		err = tracefs_write("tracing_on", "1");
	return err;
}

void trace_end(void)
{
	tracefs_write("tracing_on", "0");
}

static int field_int(const char *line, const char *key, int *val)
{
	const char *p = strstr(line, key);

	if (!p)
		return -1;
	*val = atoi(p + strlen(key));
	return 0;
}

int trace_for_each(void (*cb)(const struct sw_event *e, void *arg), void *arg)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[1024];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct sw_event e = { 0 };
		char *p = strstr(line, ": sched_switch: "), *q, *ts;
		unsigned long long sec, usec;

		if (line[0] == '#' || !p)
			continue;
		/* The timestamp is the word before ": sched_switch:". */
		*p = 0;
		ts = strrchr(line, ' ');
		if (!ts || sscanf(ts + 1, "%llu.%llu", &sec, &usec) != 2)
			continue;
		e.t = sec * NSEC_PER_SEC + usec * NSEC_PER_USEC;
		p += strlen(": sched_switch: ");
		if (field_int(p, " prev_pid=", &e.prev_pid) ||
		    field_int(p, " prev_prio=", &e.prev_prio) ||
		    field_int(p, " next_pid=", &e.next_pid) ||
		    field_int(p, " next_prio=", &e.next_prio))
			continue;
		q = strstr(p, " prev_state=");
		if (!q)
			continue;
		sscanf(q + strlen(" prev_state="), "%7s", e.prev_state);
		cb(&e, arg);
	}
	fclose(f);
	return 0;
}

/* "  .name   : 123.456789" (msecs) or "name  : 123.456789" to ns. */
static int value_ns(const char *line, long long *ns)
{
	const char *c = strchr(line, ':');
	long long ms, frac;
	int neg;

	if (!c)
		return -1;
	c++;
	while (*c == ' ')
		c++;
	neg = *c == '-';
	if (sscanf(c + neg, "%lld.%lld", &ms, &frac) != 2)
		return -1;
	*ns = ms * 1000000LL + frac;
	if (neg)
		*ns = -*ns;
	return 0;
}

int rt_server_state(const char *group, int cpu, __u64 *deadline_ns,
		    long long *budget_ns)
{
	FILE *f = fopen(SCHED_DEBUG, "r");
	long long ktime = -1, cpu_clk = -1, dl = -1, budget = 0;
	char line[512], want[256];
	int in = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "rt_rq[%d]:/%s\n", cpu, group);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "ktime ", 6))
			value_ns(line, &ktime);
		else if (!strncmp(line, "cpu_clk ", 8))
			value_ns(line, &cpu_clk);
		else if (!strcmp(line, want))
			in = 1;
		else if (in && line[0] == '\n')
			in = 0;
		else if (in && strstr(line, ".rt_deadline "))
			value_ns(line, &dl);
		else if (in && strstr(line, ".rt_budget ")) {
			const char *c = strchr(line, ':');

			budget = c ? strtoll(c + 1, NULL, 10) : 0;
		}
	}
	fclose(f);
	if (dl < 0 || ktime < 0 || cpu_clk < 0)
		return -1;
	/* rq_clock follows local_clock(); the header gives both clocks. */
	*deadline_ns = dl - (cpu_clk - ktime);
	if (budget_ns)
		*budget_ns = budget;
	return 0;
}

__u64 rnd_next(__u64 *s)
{
	__u64 x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

double rnd_unit(__u64 *s)
{
	return (rnd_next(s) >> 11) * (1.0 / 9007199254740992.0);
}
