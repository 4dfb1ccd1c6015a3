// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the guest side of the side-by-side benchmark of rt-edf and
 * the stock kernel (scripts/bench.sh boots both with the same initramfs
 * and runs this program with the same arguments on each).
 *
 *   bench [SECTION...] [reps=N] [sets=N] [setms=N] [delta=US] ...
 *
 * Sections (all by default, in this order):
 *   article    the IRMOS article's example (5 ms / 9 ms and 2 ms / 6 ms,
 *              jobs of 90% of the budget, the shorter period at the lower
 *              priority), released together: jobs, misses, max lateness
 *   rtapp      the article's example with rt-app (see below)
 *   random     random task sets: UUniFast utilisations of 3 to 6 periodic
 *              tasks, one per group, periods log-uniform in 5..40 ms,
 *              budget = the task's need, priorities inverse to rate (the
 *              longest period highest), total utilisation 0.5 up to the
 *              admission bound, in four bins
 *   share      four busy groups (87% in all): received vs reserved share
 *   precision  a busy group, Q of 10 to 10.75 ms every 50 ms: run per
 *              period from sched_switch events; alone, then with a
 *              SCHED_OTHER task that wakes every 3 ms
 *   pingpong   pipe round trips between two SCHED_FIFO tasks of a group,
 *              then of the root group with no group configured and the
 *              root's own tasks at their default (all of the RT limit)
 *   decision   round trips between tasks of two groups while N = 1, 4,
 *              16, 64, 256 other groups are active (runnable, queued,
 *              never picked): the cost of a scheduling decision
 *   latency    cyclictest in a 200 us / 1 ms reservation while two
 *              reservations (40% and 30%) run busy loops, one above and
 *              one below cyclictest's priority ("hi"), or both below
 *              ("lo")
 *   smpcost    two CPUs, not in "all": round trips across CPUs with 0, 1,
 *              16 and 64 groups, pinned and unpinned (see bench_smpcost())
 *   smppush    two CPUs, not in "all": round trips with a push or pull
 *              per wakeup
 *   smpdecide  two CPUs, not in "all": the time of each placement
 *              decision (wakeup, push, pull) in the round trips of
 *              smpcost's "unpinned" and smppush's "push", under icount
 *              (see bench_smpcost())
 *   smprandom  two CPUs, not in "all": random task sets, partitioned and
 *              global inside groups (see bench_smpcost())
 *
 * Each measurement runs reps times (3 by default).  The program prints
 * raw results as lines "@<section> key=value ..." on stdout; the host
 * (scripts/bench-report.py) takes the medians and writes the report.  A
 * benchmark reports what it measures: nothing here fails on a timing.
 *
 * The one-CPU sections run everything on CPU 0.  On rt-edf the RT groups
 * and SCHED_DEADLINE, here the fair server's 50 ms every second, share the
 * global limit of 95%, so groups may take 90% of the CPU: the admission
 * bound, printed as bound=.  The stock kernel admits 95%; the
 * same task sets run on both.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

#define ROOT_OWN_US	10000
#define BOUND		0.90
#define MAXT		6

static int reps = 3;
static int sets_per_rep = 40;		/* random task sets per repetition */
static int set_ms = 1000;		/* guest time per task set */
static int delta_us = 30;		/* a job burns Q - delta (see random) */
static int share_ms = 5000;		/* window of the share measurement */
static int article_ms = 2000;
static int lat_loops = 2000;		/* cyclictest: 1 ms each */
static int prec_dump;			/* print the precision trace */

static void section_time(const char *name, __u64 start)
{
	printf("@time section=%s guest_ms=%.0f\n", name, (now_ns() - start) / 1e6);
}

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake_all(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Runs a task set: group i gets q[i] / p[i] (us) and a periodic task at
 * prio[i] burning work[i] (ns) every p[i]; all released together. */
struct tset {
	int n;
	long long q[MAXT], p[MAXT], work[MAXT];
	int prio[MAXT];
	struct pw_stats *st[MAXT];
	__u64 *t0;		/* shared with the workers */
};

static const char *const rs_groups[MAXT] = {
	"rs0", "rs1", "rs2", "rs3", "rs4", "rs5",
};

static int run_set(struct tset *s, __u64 duration)
{
	pid_t pid[MAXT];
	int i, status, err = 0;

	groups_zero(rs_groups, MAXT);
	for (i = 0; i < s->n; i++)
		if (cg_group(rs_groups[i], s->p[i], s->q[i])) {
			printf("# cannot reserve %lld/%lld us for %s\n", s->q[i],
			       s->p[i], rs_groups[i]);
			return -1;
		}
	if (!s->t0)
		s->t0 = shared_alloc(sizeof(*s->t0));
	*s->t0 = 0;
	for (i = 0; i < s->n; i++)
		pid[i] = spawn_worker(rs_groups[i], s->prio[i], s->work[i],
				      s->p[i] * 1000, duration, s->t0, &s->st[i]);
	/*
	 * A reused group whose runtime was set to 0 and back may wait to run:
	 * rt-edf keeps its old deadline with no budget (as a debt), up to its
	 * old period; stock keeps it throttled for a while.  release_workers()
	 * waits until every worker ran in its group.
	 */
	release_workers(s->st, s->n, s->t0, 20 * NSEC_PER_MSEC);
	for (i = 0; i < s->n; i++) {
		if (pid[i] < 0 || waitpid(pid[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) || !s->st[i]->ok) {
			printf("# worker %d of the set failed\n", i);
			err = -1;
		}
	}
	return err;
}

static void free_set(struct tset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->st[i])
			munmap(s->st[i], sizeof(*s->st[i]));
	if (s->t0)
		munmap(s->t0, sizeof(*s->t0));
}

static void print_task(const char *sec, int rep, int set, struct tset *s, int i)
{
	printf("@%s rep=%d set=%d task=%d q=%lld p=%lld prio=%d work=%lld jobs=%lu misses=%lu maxlate=%lld late_start=%d ready_us=%lld\n",
	       sec, rep, set, i, s->q[i], s->p[i], s->prio[i], s->work[i],
	       s->st[i]->jobs, s->st[i]->misses,
	       (long long)s->st[i]->max_lateness_ns, s->st[i]->late_start,
	       (long long)s->st[i]->ready_ns / 1000);
}

static void bench_article(void)
{
	__u64 start = now_ns();
	int rep, i;

	for (rep = 0; rep < reps; rep++) {
		struct tset s = {
			.n = 2,
			.q = { 5000, 2000 }, .p = { 9000, 6000 },
			.work = { 4500000, 1800000 }, .prio = { 80, 20 },
		};

		if (run_set(&s, article_ms * NSEC_PER_MSEC) == 0)
			for (i = 0; i < s.n; i++)
				print_task("article", rep, 0, &s, i);
		free_set(&s);
	}
	groups_zero(rs_groups, MAXT);
	section_time("article", start);
}

/*
 * The article's example again with rt-app, the community's periodic load
 * generator.  rt-app 1.0 has no task groups: one rt-app process runs both
 * threads, which wait 100 ms ("delay") after they take their policy, and
 * this program moves each thread (by name) into its group meanwhile.  The
 * threads start their absolute timers within microseconds of each other.
 * Each job is a calibrated "run" of 90% of the budget; rt-app logs one
 * line per job, whose slack (deadline - end) is the lateness negated.
 */
static void bench_article_rtapp(void)
{
	static const struct { const char *t, *g; int q, p, prio; } tk[2] = {
		{ "t9ms", "ra-9ms", 5000, 9000, 80 },
		{ "t6ms", "ra-6ms", 2000, 6000, 20 },
	};
	const char *threads[2] = { tk[0].t, tk[1].t }, *groups[2] = { tk[0].g, tk[1].g };
	__u64 start = now_ns();
	long cal = rtapp_calibrate();
	int rep, i;

	if (cal <= 0) {
		printf("# rt-app did not calibrate: no rt-app figures\n");
		return;
	}
	printf("@rtapp calibration_ns=%ld\n", cal);
	for (i = 0; i < 2; i++)
		if (cg_group(tk[i].g, tk[i].p, tk[i].q))
			printf("# cannot reserve %s\n", tk[i].g);
	for (rep = 0; rep < reps; rep++) {
		char path[320];
		FILE *f;

		mkdir("/tmp/ra", 0755);
		system("rm -f /tmp/ra/*");
		f = fopen("/tmp/ra.json", "w");
		if (!f)
			return;
		fprintf(f, "{ \"global\": { \"duration\": %d, \"calibration\": %ld,\n"
			   "  \"default_policy\": \"SCHED_FIFO\", \"lock_pages\": false,\n"
			   "  \"logdir\": \"/tmp/ra\", \"log_basename\": \"ra\" },\n  \"tasks\": {\n",
			1, cal);
		for (i = 0; i < 2; i++)
			fprintf(f, "    \"%s\": { \"priority\": %d, \"cpus\": [0], \"delay\": 100000,\n"
				   "      \"loop\": -1, \"run\": %d, \"timer\": { \"ref\": \"tick%d\",\n"
				   "      \"period\": %d, \"mode\": \"absolute\" } }%s\n",
				tk[i].t, tk[i].prio, tk[i].q * 9 / 10, i, tk[i].p, i ? "" : ",");
		fprintf(f, "  } }\n");
		fclose(f);
		if (rtapp_run("/tmp/ra.json", threads, groups, 2) < 2) {
			printf("# could not move rt-app's threads into their groups\n");
			continue;
		}
		for (i = 0; i < 2; i++) {
			struct rtapp_stats st;

			snprintf(path, sizeof(path), "/tmp/ra/ra-%s-%d.log", tk[i].t, i);
			if (rtapp_log(path, &st)) {
				printf("# no rt-app log %s\n", path);
				continue;
			}
			printf("@article_rtapp rep=%d task=%d q=%d p=%d prio=%d work=%d jobs=%lu misses=%lu maxlate=%lld\n",
			       rep, i, tk[i].q, tk[i].p, tk[i].prio, tk[i].q * 900, st.jobs,
			       st.misses, st.max_late_ns);
		}
	}
	for (i = 0; i < 2; i++)
		cg_remove(tk[i].g);
	section_time("article_rtapp", start);
}

/* UUniFast (Bini and Buttazzo): n utilisations summing to u. */
static void uunifast(__u64 *rs, int n, double u, double *out)
{
	double sum = u, next;
	int i;

	for (i = 0; i < n - 1; i++) {
		next = sum * pow(rnd_unit(rs), 1.0 / (n - 1 - i));
		out[i] = sum - next;
		sum = next;
	}
	out[n - 1] = sum;
}

static void make_set_periods(__u64 *rs, double lo, double hi, double pmin,
			     double pmax, long long qmin, struct tset *s);

static void make_set(__u64 *rs, double lo, double hi, struct tset *s)
{
	make_set_periods(rs, lo, hi, 5000, 40000, 300, s);
}

/* A task set with periods log-uniform in pmin..pmax us, budgets >= qmin. */
static void make_set_periods(__u64 *rs, double lo, double hi, double pmin,
			     double pmax, long long qmin, struct tset *s)
{
	int i, j, tries;

	for (tries = 0; tries < 10000; tries++) {
		double target = lo + (hi - lo) * rnd_unit(rs), u[MAXT], tot = 0;
		int order[MAXT];
		bool ok = true;

		s->n = 3 + rnd_next(rs) % 4;
		uunifast(rs, s->n, target, u);
		for (i = 0; i < s->n; i++) {
			double p = exp(log(pmin) + (log(pmax) - log(pmin)) * rnd_unit(rs));

			s->p[i] = (long long)(p / 100 + 0.5) * 100;
			s->q[i] = (long long)(u[i] * s->p[i]);	/* rounded down */
			if (s->q[i] < qmin || s->q[i] > s->p[i])
				ok = false;
			tot += (double)s->q[i] / s->p[i];
		}
		if (!ok || tot < lo || tot > hi)
			continue;
		/* Priorities inverse to rate: the longest period highest. */
		for (i = 0; i < s->n; i++)
			order[i] = i;
		for (i = 0; i < s->n; i++)
			for (j = i + 1; j < s->n; j++)
				if (s->p[order[j]] < s->p[order[i]]) {
					int t = order[i];

					order[i] = order[j];
					order[j] = t;
				}
		for (i = 0; i < s->n; i++)
			s->prio[order[i]] = 10 + 10 * i;
		for (i = 0; i < s->n; i++)
			s->work[i] = (s->q[i] - delta_us) * 1000;
		return;
	}
	s->n = 0;
}

static void bench_random(void)
{
	__u64 start = now_ns();
	int rep, k, i;

	for (rep = 0; rep < reps; rep++) {
		__u64 rs = 0x5eed0000ULL + rep * 7919;

		for (k = 0; k < sets_per_rep; k++) {
			int bin = k % 4;
			double lo = 0.5 + 0.1 * bin, hi = bin == 3 ? BOUND : lo + 0.1;
			struct tset s = { 0 };
			double u = 0;

			make_set(&rs, lo, hi, &s);
			if (!s.n) {
				printf("# no task set for bin %d\n", bin);
				continue;
			}
			for (i = 0; i < s.n; i++)
				u += (double)s.q[i] / s.p[i];
			if (run_set(&s, set_ms * NSEC_PER_MSEC) == 0) {
				printf("@set rep=%d set=%d bin=%d u=%.4f n=%d\n", rep,
				       k, bin, u, s.n);
				for (i = 0; i < s.n; i++)
					print_task("task", rep, k, &s, i);
			}
			free_set(&s);
		}
	}
	groups_zero(rs_groups, MAXT);
	for (i = 0; i < MAXT; i++)
		cg_remove(rs_groups[i]);
	section_time("random", start);
}

static void bench_share(void)
{
	static const struct { const char *g; long long q, p; int prio; } grp[] = {
		{ "sh-100ms", 3000, 100000, 99 },
		{ "sh-50ms", 17000, 50000, 90 },
		{ "sh-30ms", 9000, 30000, 50 },
		{ "sh-10ms", 2000, 10000, 10 },
	};
	enum { N = sizeof(grp) / sizeof(grp[0]) };
	__u64 start = now_ns();
	double pm[N];
	pid_t pid[N];
	int i, rep;

	for (i = 0; i < N; i++)
		if (cg_group(grp[i].g, grp[i].p, grp[i].q))
			printf("# cannot reserve %s\n", grp[i].g);
	for (i = 0; i < N; i++)
		pid[i] = spawn_spinner(grp[i].g, grp[i].prio);
	sleep_ns(200 * NSEC_PER_MSEC);
	for (rep = 0; rep < reps; rep++) {
		measure_permille(pid, N, share_ms * NSEC_PER_MSEC, pm);
		for (i = 0; i < N; i++)
			printf("@share rep=%d group=%s q=%lld p=%lld prio=%d permille=%.2f\n",
			       rep, grp[i].g, grp[i].q, grp[i].p, grp[i].prio, pm[i]);
	}
	for (i = 0; i < N; i++)
		stop_child(pid[i]);
	for (i = 0; i < N; i++)
		cg_remove(grp[i].g);
	section_time("share", start);
}

/* Precision: the spinner's running time per period, from the trace. */
struct bursts {
	pid_t pid;
	__u64 since, last_end, ran;
	int n;
	__u64 run[64];
};

static void burst_cb(const struct sw_event *e, void *arg)
{
	struct bursts *b = arg;

	if (prec_dump)
		printf("@ev t=%llu prev=%d state=%s next=%d\n", (unsigned long long)e->t,
		       e->prev_pid, e->prev_state, e->next_pid);

	if (e->prev_pid == b->pid && b->since) {
		b->ran += e->t - b->since;
		b->last_end = e->t;
		b->since = 0;
	}
	if (e->next_pid == b->pid) {
		/* A gap of more than 5 ms ends a period (the group is
		 * throttled for about 40 ms of each 50). */
		if (b->last_end && e->t - b->last_end > 5 * NSEC_PER_MSEC) {
			if (b->n < 64)
				b->run[b->n++] = b->ran;
			b->ran = 0;
		}
		b->since = e->t;
	}
}

/* A SCHED_OTHER task that wakes every 3 ms and sleeps again at once. */
static pid_t spawn_fair_waker(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (;;)
			sleep_ns(3 * NSEC_PER_MSEC);
	}
	return pid;
}

static void bench_precision(void)
{
	static const long long q_us[] = { 10000, 10250, 10500, 10750 };
	static const char *const variant[] = { "alone", "fair-waker" };
	__u64 start = now_ns();
	int rep, i, j, v;

	for (v = 0; v < 2; v++) {
		for (rep = 0; rep < reps; rep++) {
			for (i = 0; i < 4; i++) {
				struct bursts b = { 0 };
				pid_t waker = -1;

				if (cg_group("prec", 50000, q_us[i])) {
					printf("# cannot reserve prec\n");
					continue;
				}
				if (trace_begin(2048)) {
					printf("# no tracefs: no precision figures\n");
					cg_remove("prec");
					section_time("precision", start);
					return;
				}
				if (v == 1)
					waker = spawn_fair_waker();
				b.pid = spawn_spinner("prec", 50);
				sleep_ns(22 * 50 * NSEC_PER_MSEC);
				trace_end();
				stop_child(b.pid);
				stop_child(waker);
				trace_for_each(burst_cb, &b);
				/* The first period began before the trace did. */
				printf("@precision variant=%s rep=%d q=%lld p=50000 runs=",
				       variant[v], rep, q_us[i] * 1000);
				for (j = 1; j < b.n; j++)
					printf("%s%llu", j > 1 ? "," : "",
					       (unsigned long long)b.run[j]);
				printf("\n");
				cg_remove("prec");
			}
		}
	}
	section_time("precision", start);
}

/* Ping-pong: a writes a byte to b, b answers; batches of round trips. */
#define PP_BATCHES	10
#define PP_RTT		200

struct pp_shared {
	int start;
	int ready;
	__u64 batch_ns[8][PP_BATCHES];
};

static void pp_side(int rd, int wr, bool leader, struct pp_shared *sh, int nreps)
{
	char c = 'x';
	int r, b, k;

	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&sh->start, __ATOMIC_SEQ_CST))
		futex_wait(&sh->start, 0);
	if (!leader) {
		for (;;) {
			if (read(rd, &c, 1) != 1 || c == 'q')
				_exit(0);
			if (write(wr, &c, 1) != 1)
				_exit(1);
		}
	}
	for (k = 0; k < 2 * PP_RTT; k++)	/* warm up */
		if (write(wr, &c, 1) != 1 || read(rd, &c, 1) != 1)
			_exit(1);
	for (r = 0; r < nreps; r++)
		for (b = 0; b < PP_BATCHES; b++) {
			__u64 t = now_ns();

			for (k = 0; k < PP_RTT; k++)
				if (write(wr, &c, 1) != 1 || read(rd, &c, 1) != 1)
					_exit(1);
			sh->batch_ns[r][b] = now_ns() - t;
		}
	c = 'q';
	if (write(wr, &c, 1) != 1)
		_exit(1);
	_exit(0);
}

static int pp_spawn_on(const char *ga, const char *gb, int cpua, int cpub,
		       struct pp_shared *sh, pid_t *pa, pid_t *pb, int nreps);

/* Forks the two sides, in groups ga and gb at SCHED_FIFO 50, on CPU 0. */
static int pp_spawn(const char *ga, const char *gb, struct pp_shared *sh,
		    pid_t *pa, pid_t *pb, int nreps)
{
	return pp_spawn_on(ga, gb, 0, 0, sh, pa, pb, nreps);
}

/* The same, a on cpua and b on cpub (-1: any CPU). */
static int pp_spawn_on(const char *ga, const char *gb, int cpua, int cpub,
		       struct pp_shared *sh, pid_t *pa, pid_t *pb, int nreps)
{
	int ab[2], ba[2];

	if (pipe(ab) || pipe(ba))
		return -1;
	fflush(NULL);
	*pb = fork();
	if (*pb == 0) {
		if (cg_attach(gb, getpid()) || (cpub >= 0 && pin_cpu(0, cpub)) ||
		    set_sched(0, SCHED_FIFO, 50))
			_exit(2);
		pp_side(ab[0], ba[1], false, sh, nreps);
	}
	*pa = fork();
	if (*pa == 0) {
		if (cg_attach(ga, getpid()) || (cpua >= 0 && pin_cpu(0, cpua)) ||
		    set_sched(0, SCHED_FIFO, 50))
			_exit(2);
		pp_side(ba[0], ab[1], true, sh, nreps);
	}
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	return *pa < 0 || *pb < 0 ? -1 : 0;
}

static void wait_ready(int *ready, int n)
{
	int i;

	for (i = 0; i < 5000 && __atomic_load_n(ready, __ATOMIC_SEQ_CST) < n; i++)
		sleep_ns(NSEC_PER_MSEC);
}

static void print_batches(const char *sec, const char *extra, struct pp_shared *sh, int nreps)
{
	int r, b;

	for (r = 0; r < nreps; r++) {
		printf("@%s %srep=%d rtt_per_batch=%d batch_ns=", sec, extra, r, PP_RTT);
		for (b = 0; b < PP_BATCHES; b++)
			printf("%s%llu", b ? "," : "", (unsigned long long)sh->batch_ns[r][b]);
		printf("\n");
	}
}

/* One ping-pong between two tasks of group ("" the root). */
static void pp_run(const char *group, const char *variant)
{
	struct pp_shared *sh = shared_alloc(sizeof(*sh));
	char extra[64];
	pid_t pa, pb;

	snprintf(extra, sizeof(extra), "variant=%s ", variant);
	if (pp_spawn(group, group, sh, &pa, &pb, reps) == 0) {
		wait_ready(&sh->ready, 2);
		__atomic_store_n(&sh->start, 1, __ATOMIC_SEQ_CST);
		futex_wake_all(&sh->start);
		waitpid(pa, NULL, 0);
		waitpid(pb, NULL, 0);
		print_batches("pingpong", extra, sh, reps);
	}
	munmap(sh, sizeof(*sh));
}

static void bench_pingpong(void)
{
	__u64 start = now_ns();

	if (cg_group("pp", 1000000, 500000)) {
		printf("# cannot reserve pp\n");
		return;
	}
	pp_run("pp", "group");
	cg_remove("pp");
	/* No group: the root's own tasks as a default boot has them. */
	root_own_runtime(950000);
	pp_run("", "root");
	root_own_runtime(ROOT_OWN_US);
	section_time("pingpong", start);
}

/*
 * Decision cost.  n background groups (1 ms every 10 s each) hold a
 * SCHED_FIFO 1 busy loop that blocks on a futex until the measurement
 * starts; the ping-pong tasks are in two groups of 300 ms / 1 s at
 * SCHED_FIFO 50, and this program, in a group of 20 ms / 100 ms at
 * SCHED_FIFO 99, wakes them all, so that the background servers are
 * queued with deadlines ten seconds away (rt-edf) or at the lowest
 * priority (stock) and never run while the ping-pong lasts.  Every round
 * trip blocks one ping-pong group and wakes the other: on rt-edf two
 * servers leave and join an EDF tree of n + 2.
 */
#define BG_MAX	256

static void bench_decision(void)
{
	static const int ns[] = { 1, 4, 16, 64, 256 };
	struct pp_shared *sh = shared_alloc(sizeof(*sh));
	int *go = shared_alloc(2 * sizeof(int)), *ready = go + 1;
	__u64 start = now_ns();
	char name[32];
	int i, k;

	if (cg_group("dctl", 100000, 20000) || cg_group("dpa", 1000000, 300000) ||
	    cg_group("dpb", 1000000, 300000)) {
		printf("# cannot reserve the decision groups\n");
		return;
	}
	for (i = 0; i < BG_MAX; i++) {
		snprintf(name, sizeof(name), "dbg%d", i);
		if (cg_group(name, 10000000, 1000)) {
			printf("# cannot reserve %s\n", name);
			return;
		}
	}
	for (k = 0; k < (int)(sizeof(ns) / sizeof(ns[0])); k++) {
		int n = ns[k];
		pid_t bg[BG_MAX], pa, pb;
		char extra[32];

		memset(sh, 0, sizeof(*sh));
		*go = 0;
		*ready = 0;
		for (i = 0; i < n; i++) {
			fflush(NULL);
			bg[i] = fork();
			if (bg[i] == 0) {
				snprintf(name, sizeof(name), "dbg%d", i);
				if (cg_attach(name, getpid()) || pin_cpu(0, 0) ||
				    set_sched(0, SCHED_FIFO, 1))
					_exit(2);
				__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
				while (!__atomic_load_n(go, __ATOMIC_SEQ_CST))
					futex_wait(go, 0);
				spin_forever();
			}
		}
		if (pp_spawn("dpa", "dpb", sh, &pa, &pb, reps))
			printf("# cannot start the ping-pong\n");
		wait_ready(ready, n);
		wait_ready(&sh->ready, 2);
		/* Become the most urgent, start everything, then step back. */
		if (cg_attach("dctl", getpid()) || set_sched(0, SCHED_FIFO, 99))
			printf("# cannot enter dctl\n");
		__atomic_store_n(&sh->start, 1, __ATOMIC_SEQ_CST);
		futex_wake_all(&sh->start);
		__atomic_store_n(go, 1, __ATOMIC_SEQ_CST);
		futex_wake_all(go);
		waitpid(pa, NULL, 0);
		waitpid(pb, NULL, 0);
		/* Still the most urgent: the background tasks die as soon as
		 * they run, before they could use up their budget. */
		for (i = 0; i < n; i++)
			kill(bg[i], SIGKILL);
		for (i = 0; i < n; i++)
			waitpid(bg[i], NULL, 0);
		set_sched(0, SCHED_OTHER, 0);
		cg_attach("", getpid());
		snprintf(extra, sizeof(extra), "n=%d ", n);
		print_batches("decision", extra, sh, reps);
	}
	for (i = 0; i < BG_MAX; i++) {
		snprintf(name, sizeof(name), "dbg%d", i);
		cg_remove(name);
	}
	cg_remove("dctl");
	cg_remove("dpa");
	cg_remove("dpb");
	munmap(sh, sizeof(*sh));
	munmap(go, 2 * sizeof(int));
	section_time("decision", start);
}

/* cyclictest's histogram (-h): max and 99th percentile, in us. */
static int parse_cyclictest(const char *path, long *max, long *p99, double *avg,
			    long *total, long *over)
{
	static long hist[100001];
	char line[256];
	long bin, cnt, n = 0, acc = 0, limit = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	memset(hist, 0, sizeof(hist));
	*max = *p99 = *total = *over = -1;
	*avg = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%ld %ld", &bin, &cnt) == 2 && line[0] != '#') {
			if (bin >= 0 && bin <= 100000) {
				hist[bin] = cnt;
				if (bin > limit)
					limit = bin;
				n += cnt;
			}
		} else if (sscanf(line, "# Max Latencies: %ld", max) == 1) {
		} else if (sscanf(line, "# Avg Latencies: %lf", avg) == 1) {
		} else if (sscanf(line, "# Histogram Overflows: %ld", over) == 1) {
		}
	}
	fclose(f);
	*total = n + (*over > 0 ? *over : 0);
	for (bin = 0; bin <= limit; bin++) {
		acc += hist[bin];
		if (acc >= 0.99 * *total) {
			*p99 = bin;
			break;
		}
	}
	if (*p99 < 0 && *total > 0)
		*p99 = limit + 1;	/* in the overflow */
	return n > 0 ? 0 : -1;
}

static void bench_latency(void)
{
	static const struct { const char *v; int hi_prio, lo_prio; } var[] = {
		{ "hi", 99, 10 },
		{ "lo", 20, 10 },
	};
	__u64 start = now_ns();
	int v, rep;

	/* cyclictest wants POSIX shared memory (shm_open). */
	mkdir("/dev/shm", 01777);
	mount("shm", "/dev/shm", "tmpfs", 0, "mode=1777");
	for (v = 0; v < 2; v++) {
		for (rep = 0; rep < reps; rep++) {
			long max, p99, total, over;
			char loops[32];
			pid_t a, b, c;
			double avg;
			int status;

			if (cg_group("lat", 1000, 200) || cg_group("busy-a", 50000, 20000) ||
			    cg_group("busy-b", 100000, 30000)) {
				printf("# cannot reserve the latency groups\n");
				return;
			}
			a = spawn_spinner("busy-a", var[v].hi_prio);
			b = spawn_spinner("busy-b", var[v].lo_prio);
			sleep_ns(100 * NSEC_PER_MSEC);
			snprintf(loops, sizeof(loops), "-l%d", lat_loops);
			fflush(NULL);
			c = fork();
			if (c == 0) {
				if (cg_attach("lat", getpid()) || pin_cpu(0, 0) ||
				    !freopen("/tmp/cyclictest.out", "w", stdout))
					_exit(2);
				execl("/usr/bin/cyclictest", "cyclictest", "-q", "-m",
				      "-p80", "-i1000", loops, "-h20000", "-t1", "-a0",
				      (char *)NULL);
				_exit(127);
			}
			waitpid(c, &status, 0);
			stop_child(a);
			stop_child(b);
			if (!WIFEXITED(status) || WEXITSTATUS(status) ||
			    parse_cyclictest("/tmp/cyclictest.out", &max, &p99, &avg,
					     &total, &over)) {
				printf("# cyclictest failed (status %#x)\n", status);
				continue;
			}
			printf("@latency variant=%s rep=%d busy_prio=%d,%d cyclictest_prio=80 samples=%ld overflows=%ld max_us=%ld p99_us=%ld avg_us=%.1f\n",
			       var[v].v, rep, var[v].hi_prio, var[v].lo_prio, total,
			       over, max, p99, avg);
		}
	}
	cg_remove("lat");
	cg_remove("busy-a");
	cg_remove("busy-b");
	section_time("latency", start);
}

/*
 * Two CPUs.  scripts/bench.sh boots 2 vCPUs for these sections, which
 * "all" leaves out.
 *
 * smpcost (under icount: guest time, deterministic): round trips between
 * two SCHED_FIFO 50 tasks, as in pingpong, with n groups:
 *   n = 0    no group configured: the root's tasks, the root's own RT
 *            runtime at its default (950 ms every second)
 *   n = 1    the pair's group xp (600 ms / 1 s) alone
 *   n = 16, 64  xp and n - 1 other groups (100 ms every 40 s each), each
 *            with a SCHED_FIFO 1 task on each CPU that sleeps.  Not busy:
 *            under icount a busy vCPU holds back the other's wakeups by
 *            the emulator's round-robin slice (milliseconds), so queued
 *            servers cannot be measured on two vCPUs; their cost is the
 *            decision section's, on one.
 * Variants:
 *   pinned   a on CPU 0, b on CPU 1: every wakeup crosses CPUs, with no
 *            choice of CPU
 *   unpinned both may run on both CPUs: every wakeup chooses its CPU
 *            (select_task_rq_rt())
 *
 * smppush (on the host's clock: plain TCG, the vCPUs in parallel): the
 * variant "push", a on CPU 0, b on CPU 1, and a SCHED_FIFO 10 task of the
 * pair's group, on either CPU, that runs 200 us and sleeps 200 us in
 * turn: a wakeup that finds it running preempts it, and it moves to the
 * other CPU (pushed, or pulled by the CPU that goes idle); its migrations
 * per round trip are counted.  n = 0 and 1 (xp reserves 700 ms / 1 s).
 * Not under icount: there one host thread runs the vCPUs in turn, and an
 * interrupt sent to a vCPU waits until the busy one ends its slice (the
 * task's 200 us burst), so the round trips would time the emulator.
 *
 * smpdecide (under icount: guest time, deterministic): the cost of each
 * decision where a task goes, which round trips under icount cannot show
 * for pushes and pulls (above).  The function graph tracer times every
 * call of select_task_rq_rt() (a waking task's CPU), task_woken_rt() and
 * push_rt_tasks() (a CPU pushes its waiting RT tasks away), balance_rt()
 * and pull_rt_task() (a CPU that lowers its priority pulls waiting tasks
 * in) during one repetition of "unpinned" and of "push" (here the pair's
 * group reserves 700 ms / 1 s, so that 63 more groups fit), with n = 0,
 * 1, 16 and 64 groups.  A call's time includes the tracer's own cost,
 * on both kernels alike: about the time of a pull_rt_task() that finds
 * no CPU overloaded and returns at once (scripts/bench-report.py takes
 * that as the baseline).  Under icount a call during which the emulator
 * switched vCPUs also counts the other vCPU's slice: the medians leave
 * it out, and the sum of the outermost calls' times (placement's whole
 * time per round trip) drops the calls that took 50 us or more.
 *
 * smprandom (on the host's clock: plain TCG, the vCPUs in parallel): the
 * random task sets of "random" on both CPUs, with periods of 20 to 100
 * ms and budgets of 8 ms or more, each job needing its budget less 4 ms
 * (a margin for the host's stalls, which the guest charges to the task
 * that runs), total utilisation 0.5 to 0.9 per CPU in four bins:
 *   partitioned  every group gets one task on each CPU, each pinned,
 *            each needing Q - 4 ms every P
 *   global   every group gets three tasks that may run on both CPUs, at
 *            three priorities, each needing 40% of Q - 4 ms every P
 *            (1.2 (Q - 4 ms) of the 2 Q the group has on the two CPUs)
 */
#define XP_RTT_GROUP	"xp"
#define XBG_MAX		64

static long nr_migrations(pid_t pid)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "se.nr_migrations : %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void xbg_name(char *buf, size_t len, int i)
{
	snprintf(buf, len, "xbg%d", i);
}

/*
 * smpdecide: the function graph tracer times each call of these, from
 * entry to return, in guest time.
 */
static const char *const dec_fn[] = {
	"select_task_rq_rt", "task_woken_rt", "balance_rt", "push_rt_tasks",
	"pull_rt_task",
};
#define NR_DEC		(sizeof(dec_fn) / sizeof(dec_fn[0]))
/*
 * No call of these takes 50 us of guest time; one that seems to was cut
 * by the emulator's switch to the other vCPU and counts its slice.
 */
#define DEC_CUT_NS	(50 * NSEC_PER_USEC)

/* tracefs file, value: the tracer's setting, in this order. */
static const char *const dec_setup[][2] = {
	{ "trace_clock", "local" },
	{ "buffer_size_kb", "16384" },
	{ "options/funcgraph-overhead", "0" },
	{ "options/funcgraph-tail", "1" },
	{ "trace", "" },
	{ "current_tracer", "function_graph" },
	{ "tracing_on", "1" },
};

static int dec_begin(void)
{
	char name[64];
	unsigned int i;
	int err = 0, fd;

	tracefs_write("tracing_on", "0");
	tracefs_write("current_tracer", "nop");
	/* set_ftrace_filter takes one function per write. */
	fd = open(TRACEFS "/set_ftrace_filter", O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	for (i = 0; i < NR_DEC && !err; i++) {
		snprintf(name, sizeof(name), "%s\n", dec_fn[i]);
		if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
			err = -errno;
	}
	if (close(fd) && !err)
		err = -errno;
	for (i = 0; !err && i < sizeof(dec_setup) / sizeof(dec_setup[0]); i++)
		err = tracefs_write(dec_setup[i][0], dec_setup[i][1]);
	return err;
}

struct dec_times {
	long long *ns;
	long n, cap;
};

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * A function graph line: "  1)   2.345 us    |  name();" ends a call
 * that traced nothing inside, "  1)               |  name() {" begins
 * one that did, and "  1)   2.345 us    |  } /" "* name *" "/" ends it
 * (option funcgraph-tail).  Returns the function's index in dec_fn, or
 * -1; *cpu, *ns, *begins and *closes tell the rest.
 */
static int dec_line(const char *line, int *cpu, long long *ns, bool *begins,
		    bool *closes)
{
	const char *bar = strchr(line, '|'), *p, *name;
	unsigned int i;
	size_t len;
	double t = 0;

	p = strchr(line, ')');
	if (!bar || !p || p > bar || sscanf(line, " %d)", cpu) != 1)
		return -1;
	name = bar + 1;
	while (*name == ' ')
		name++;
	*begins = false;
	*closes = *name == '}';
	if (*closes) {
		name = strstr(name, "/* ");
		if (!name)
			return -1;
		name += 3;
		len = strcspn(name, " *");
	} else {
		len = strcspn(name, "(");
		if (!strncmp(name + len, "() {", 4))
			*begins = true;
		else if (strncmp(name + len, "();", 3))
			return -1;
	}
	if (!*begins && sscanf(p + 1, " %lf us", &t) != 1)
		return -1;
	for (i = 0; i < NR_DEC; i++)
		if (strlen(dec_fn[i]) == len && !strncmp(name, dec_fn[i], len)) {
			*ns = (long long)(t * 1000 + 0.5);
			return i;
		}
	return -1;
}

/*
 * Stops the tracer and prints each function's calls and times, and the
 * time of the outermost calls (a traced call inside another counts in
 * the outer one's time): all of placement's time, less the calls cut by
 * a vCPU switch.
 */
static void dec_end(const char *extra, int rtts)
{
	struct dec_times d[NR_DEC] = { 0 };
	long long ns, sum, top_ns = 0;
	long top = 0, cut = 0, calls = 0, k;
	int depth[CPU_SETSIZE] = { 0 }, inner[CPU_SETSIZE] = { 0 };
	char line[512];
	unsigned int i;
	bool begins, closes;
	int fn, cpu;
	FILE *f;

	tracefs_write("tracing_on", "0");
	f = fopen(TRACEFS "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		fn = dec_line(line, &cpu, &ns, &begins, &closes);
		if (fn < 0 || cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		if (begins) {
			depth[cpu]++;
			continue;
		}
		if (closes && depth[cpu] > 0)
			depth[cpu]--;
		inner[cpu]++;
		if (!depth[cpu]) {	/* an outermost call ended */
			if (ns < (long long)DEC_CUT_NS) {
				top++;
				top_ns += ns;
				calls += inner[cpu];
			} else {
				cut++;
			}
			inner[cpu] = 0;
		}
		if (d[fn].n == d[fn].cap) {
			long long *q;

			d[fn].cap = d[fn].cap ? 2 * d[fn].cap : 1024;
			q = realloc(d[fn].ns, d[fn].cap * sizeof(*q));
			if (!q)
				break;
			d[fn].ns = q;
		}
		d[fn].ns[d[fn].n++] = ns;
	}
	if (f)
		fclose(f);
	tracefs_write("current_tracer", "nop");
	tracefs_write("set_ftrace_filter", "");
	tracefs_write("buffer_size_kb", "1408");
	printf("@smpdecsum %srtts=%d outer=%ld outer_ns=%lld calls=%ld cut=%ld\n",
	       extra, rtts, top, top_ns, calls, cut);
	for (i = 0; i < NR_DEC; i++) {
		if (!d[i].n) {
			printf("@smpdecide %sfn=%s calls=0\n", extra, dec_fn[i]);
			continue;
		}
		qsort(d[i].ns, d[i].n, sizeof(*d[i].ns), cmp_ll);
		for (sum = 0, k = 0; k < d[i].n; k++)
			sum += d[i].ns[k];
		printf("@smpdecide %sfn=%s calls=%ld median_ns=%lld p90_ns=%lld mean_ns=%lld\n",
		       extra, dec_fn[i], d[i].n, d[i].ns[d[i].n / 2],
		       d[i].ns[d[i].n * 9 / 10], sum / d[i].n);
		free(d[i].ns);
	}
}

/* Round trips of one variant with n groups (decide: time the decisions). */
static void smp_pp(const char *variant, int n, bool decide)
{
	struct pp_shared *sh = shared_alloc(sizeof(*sh));
	int *go = shared_alloc(2 * sizeof(int)), *ready = go + 1;
	pid_t bg[2 * XBG_MAX], loop = -1, pa, pb;
	const char *g = n ? XP_RTT_GROUP : "";
	bool push = !strcmp(variant, "push");
	bool unpinned = !strcmp(variant, "unpinned");
	int i, cpu, nbg = 0;
	long m0 = 0, m1;
	char name[32], extra[64];

	if (!n) {
		root_own_runtime(950000);
	} else if (cg_group(g, 1000000, push ? 700000 : 600000)) {
		printf("# cannot reserve %s\n", g);
		goto out;
	}
	*go = 0;
	*ready = 0;
	for (i = 0; i + 1 < n; i++) {
		xbg_name(name, sizeof(name), i);
		if (cg_group(name, 40000000, 100000)) {
			printf("# cannot reserve %s\n", name);
			goto out;
		}
		for (cpu = 0; cpu < 2; cpu++) {
			fflush(NULL);
			bg[nbg] = fork();
			if (bg[nbg] == 0) {
				if (cg_attach(name, getpid()) || pin_cpu(0, cpu) ||
				    set_sched(0, SCHED_FIFO, 1))
					_exit(2);
				__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
				for (;;)	/* killed at the end */
					futex_wait(go, 0);
			}
			nbg++;
		}
	}
	if (push) {
		fflush(NULL);
		loop = fork();
		if (loop == 0) {
			if (cg_attach(g, getpid()) || set_sched(0, SCHED_FIFO, 10))
				_exit(2);
			for (;;) {
				work_ns(200 * NSEC_PER_USEC);
				sleep_ns(200 * NSEC_PER_USEC);
			}
		}
	}
	if (pp_spawn_on(g, g, unpinned ? -1 : 0, unpinned ? -1 : 1, sh, &pa, &pb,
			decide ? 1 : reps)) {
		printf("# cannot start the ping-pong\n");
		goto out;
	}
	wait_ready(ready, nbg);
	wait_ready(&sh->ready, 2);
	if (loop > 0)
		m0 = nr_migrations(loop);
	if (decide && dec_begin()) {
		printf("# cannot start the function graph tracer\n");
		decide = false;
	}
	__atomic_store_n(&sh->start, 1, __ATOMIC_SEQ_CST);
	futex_wake_all(&sh->start);
	waitpid(pa, NULL, 0);
	waitpid(pb, NULL, 0);
	snprintf(extra, sizeof(extra), "variant=%s n=%d ", variant, n);
	if (decide) {
		dec_end(extra, (PP_BATCHES + 2) * PP_RTT);
		goto out;
	}
	if (loop > 0) {
		m1 = nr_migrations(loop);
		/* warm-up and measured round trips alike */
		printf("@smpmig variant=%s n=%d migrations=%ld rtts=%d\n", variant, n,
		       m1 - m0, (reps * PP_BATCHES + 2) * PP_RTT);
	}
	print_batches("smpcost", extra, sh, reps);
out:
	if (loop > 0)
		stop_child(loop);
	for (i = 0; i < nbg; i++)
		if (bg[i] > 0)
			kill(bg[i], SIGKILL);
	for (i = 0; i < nbg; i++)
		if (bg[i] > 0)
			waitpid(bg[i], NULL, 0);
	for (i = 0; i + 1 < n; i++) {
		xbg_name(name, sizeof(name), i);
		cg_remove(name);
	}
	if (n)
		cg_remove(g);
	else
		root_own_runtime(ROOT_OWN_US);
	munmap(sh, sizeof(*sh));
	munmap(go, 2 * sizeof(int));
}

/* Two variants of the round trips, with n = 0, 1, 16 and 64 groups. */
static void smp_pp_groups(const char *sec, const char *a, const char *b, bool decide)
{
	static const int ns[] = { 0, 1, 16, 64 };
	__u64 start = now_ns();
	int k;

	if (nr_cpus() < 2) {
		printf("# %s needs 2 CPUs\n", sec);
		return;
	}
	for (k = 0; k < 4; k++) {
		smp_pp(a, ns[k], decide);
		smp_pp(b, ns[k], decide);
	}
	section_time(sec, start);
}

static void bench_smpcost(void)
{
	smp_pp_groups("smpcost", "pinned", "unpinned", false);
}

/* The push variant, on plain TCG (see above). */
static void bench_smppush(void)
{
	__u64 start = now_ns();

	if (nr_cpus() < 2) {
		printf("# smppush needs 2 CPUs\n");
		return;
	}
	smp_pp("push", 0, false);
	smp_pp("push", 1, false);
	section_time("smppush", start);
}

/* The decisions' costs, under icount (see above). */
static void bench_smpdecide(void)
{
	smp_pp_groups("smpdecide", "unpinned", "push", true);
}

#define SMPT	(3 * MAXT)
/*
 * On plain TCG the host stalls a vCPU thread now and then, up to 4 ms
 * (vcpu_stall), and the guest charges that time to the task that runs:
 * a job needs its budget less SMP_MARGIN_US, and budgets are at least
 * SMP_QMIN_US.
 */
#define SMP_MARGIN_US	4000
#define SMP_QMIN_US	8000

/*
 * trace=1: on rt-edf each set of smprandom runs traced
 * (sched_trace_start()), and the trace of a set where a job missed its
 * deadline goes to the host (smprandom-VARIANT-rREP-sSET in results.log,
 * SMP_TRACES at most), for schedcheck.py: was it the scheduler's
 * decision, or a vCPU that stood still?
 */
static int smp_trace;
#define SMP_TRACES	6

static void smp_trace_keep(struct pw_stats **st, int nw, const char *variant,
			   int rep, int set)
{
	static int saved;
	char name[64];
	int i;

	for (i = 0; i < nw; i++)
		if (st[i] && st[i]->misses)
			break;
	if (i == nw || saved == SMP_TRACES) {
		tracefs_write("tracing_on", "0");
		tracefs_write("trace", "");
		return;
	}
	snprintf(name, sizeof(name), "smprandom-%s-r%d-s%d", variant, rep, set);
	if (sched_trace_save(name))
		printf("# cannot save the trace %s\n", name);
	else
		saved++;
}

static void bench_smprandom(void)
{
	static const char *const variant[] = { "partitioned", "global" };
	__u64 start = now_ns();
	int rep, k, v, i, j;

	if (nr_cpus() < 2) {
		printf("# smprandom needs 2 CPUs\n");
		return;
	}
	for (v = 0; v < 2; v++) {
		int per = v ? 3 : 2;

		for (rep = 0; rep < reps; rep++) {
			__u64 rs = 0x5eed5000ULL + rep * 7919;

			for (k = 0; k < sets_per_rep; k++) {
				int bin = k % 4;
				double lo = 0.5 + 0.1 * bin, hi = lo + 0.1;
				struct pw_stats *st[SMPT] = { 0 };
				__u64 *t0 = shared_alloc(sizeof(*t0));
				pid_t pid[SMPT];
				struct tset s = { 0 };
				double u = 0;
				int nw = 0, err = 0, status;

				make_set_periods(&rs, lo, hi, 20000, 100000,
						 SMP_QMIN_US, &s);
				if (!s.n) {
					printf("# no task set for bin %d\n", bin);
					munmap(t0, sizeof(*t0));
					continue;
				}
				groups_zero(rs_groups, MAXT);
				if (smp_trace && is_rtedf() && sched_trace_start())
					printf("# cannot trace the set\n");
				for (i = 0; i < s.n; i++) {
					u += (double)s.q[i] / s.p[i];
					if (!err && cg_group(rs_groups[i], s.p[i], s.q[i])) {
						printf("# cannot reserve %lld/%lld us for %s\n",
						       s.q[i], s.p[i], rs_groups[i]);
						err = -1;
					}
				}
				for (i = 0; i < s.n && !err; i++)
					for (j = 0; j < per; j++) {
						/* Q less the margin, or 40% of
						 * that each at priorities prio + 2,
						 * + 1, + 0 */
						long long w = (s.q[i] - SMP_MARGIN_US) * (v ? 400 : 1000);

						pid[nw] = spawn_worker_on(rs_groups[i],
								v ? s.prio[i] + 2 - j : s.prio[i],
								v ? -1 : j, w, s.p[i] * 1000,
								set_ms * NSEC_PER_MSEC, t0, &st[nw]);
						nw++;
					}
				if (!err)
					release_workers(st, nw, t0, 20 * NSEC_PER_MSEC);
				for (i = 0; i < nw; i++)
					if (pid[i] < 0 || waitpid(pid[i], &status, 0) < 0 ||
					    !WIFEXITED(status) || WEXITSTATUS(status) || !st[i]->ok) {
						printf("# worker %d of the set failed (status %#x)\n",
						       i, status);
						err = -1;
					}
				if (!err) {
					printf("@smpset variant=%s rep=%d set=%d bin=%d u=%.4f n=%d\n",
					       variant[v], rep, k, bin, u, s.n);
					for (i = 0; i < nw; i++)
						printf("@smptask variant=%s rep=%d set=%d task=%d q=%lld p=%lld jobs=%lu misses=%lu maxlate=%lld late_start=%d\n",
						       variant[v], rep, k, i, s.q[i / per], s.p[i / per],
						       st[i]->jobs, st[i]->misses,
						       (long long)st[i]->max_lateness_ns, st[i]->late_start);
				} else {
					printf("# set %d of %s failed\n", k, variant[v]);
				}
				if (smp_trace && is_rtedf())
					smp_trace_keep(st, nw, variant[v], rep, k);
				for (i = 0; i < nw; i++)
					munmap(st[i], sizeof(*st[i]));
				munmap(t0, sizeof(*t0));
			}
		}
	}
	groups_zero(rs_groups, MAXT);
	for (i = 0; i < MAXT; i++)
		cg_remove(rs_groups[i]);
	section_time("smprandom", start);
}

static const struct {
	const char *name;
	void (*fn)(void);
} sections[] = {
	{ "article", bench_article },
	{ "rtapp", bench_article_rtapp },
	{ "random", bench_random },
	{ "share", bench_share },
	{ "precision", bench_precision },
	{ "pingpong", bench_pingpong },
	{ "decision", bench_decision },
	{ "latency", bench_latency },
	/* Two CPUs: not in "all". */
	{ "smpcost", bench_smpcost },
	{ "smppush", bench_smppush },
	{ "smpdecide", bench_smpdecide },
	{ "smprandom", bench_smprandom },
};
#define NSEC_ALL	8
#define NSEC	(int)(sizeof(sections) / sizeof(sections[0]))

int main(int argc, char **argv)
{
	bool want[NSEC] = { false }, any = false;
	__u64 start = now_ns();
	struct utsname u;
	int i, j;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq) {
			int val = atoi(eq + 1);

			*eq = 0;
			if (!strcmp(argv[i], "reps"))
				reps = val < 1 ? 1 : val > 8 ? 8 : val;
			else if (!strcmp(argv[i], "sets"))
				sets_per_rep = val;
			else if (!strcmp(argv[i], "setms"))
				set_ms = val;
			else if (!strcmp(argv[i], "delta"))
				delta_us = val;
			else if (!strcmp(argv[i], "sharems"))
				share_ms = val;
			else if (!strcmp(argv[i], "articlems"))
				article_ms = val;
			else if (!strcmp(argv[i], "latloops"))
				lat_loops = val;
			else if (!strcmp(argv[i], "precdump"))
				prec_dump = val;
			else if (!strcmp(argv[i], "trace"))
				smp_trace = val;
			else
				printf("# unknown parameter %s\n", argv[i]);
			continue;
		}
		for (j = 0; j < NSEC; j++)
			if (!strcmp(argv[i], sections[j].name))
				want[j] = any = true;
		if (!strcmp(argv[i], "all"))
			for (j = 0; j < NSEC_ALL; j++)
				want[j] = any = true;
	}
	if (!any)
		for (j = 0; j < NSEC_ALL; j++)
			want[j] = true;

	cg_mount();
	root_own_runtime(ROOT_OWN_US);
	uname(&u);
	printf("@meta kernel=%s release=%s cpus=%d bound=%.2f reps=%d sets=%d setms=%d delta_us=%d share_ms=%d article_ms=%d lat_loops=%d\n",
	       is_rtedf() ? "rt-edf" : "stock", u.release, nr_cpus(), BOUND, reps,
	       sets_per_rep, set_ms, delta_us, share_ms, article_ms, lat_loops);
	for (j = 0; j < NSEC; j++)
		if (want[j])
			sections[j].fn();
	section_time("all", start);
	return 0;
}
