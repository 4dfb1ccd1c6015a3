// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the rt-edf guest tests; see rtedf.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rtedf.h"

void rtedf_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	cg_mount();
}

static int raw_write(const char *group, const char *file, const char *val);

void v1_interface_only(void)
{
	if (!cg_v2())
		return;
	ksft_set_plan(1);
	ksft_test_result_skip("the cgroup v1 files (cgroup_v2 tests the v2 ones)\n");
	ksft_finished();
}

void v2_only(int plan)
{
	if (cg_v2())
		return;
	ksft_print_msg("needs a cgroup v2 boot (rtedf.cgroup=v2)\n");
	ksft_set_plan(plan);
	for (int i = 0; i < plan; i++)
		ksft_test_result_skip("cgroup v2\n");
	ksft_finished();
}

bool cg_v2(void)
{
	const char *v = getenv("RTEDF_CGROUP");

	return v && !strcmp(v, "v2");
}

bool preempt_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

int root_own_reserve(long long runtime_us, long long period_us)
{
	char val[64];
	int err;

	if (cg_v2()) {
		snprintf(val, sizeof(val), "%lld %lld", runtime_us, period_us);
		return raw_write("", "cpu.rt.tasks.max", val);
	}
	/* 100 us: at least DEADLINE's smallest runtime, at most any period */
	err = cg_write_ll("", "cpu.rt_task_runtime_us", 100);
	if (!err)
		err = cg_write_ll("", "cpu.rt_task_period_us", period_us);
	if (!err)
		err = cg_write_ll("", "cpu.rt_task_runtime_us", runtime_us);
	return err;
}

/*
 * rt-edf: by default the root group's own RT tasks hold all of the RT
 * bandwidth; leave them 5% so that groups can be reserved, as the
 * administrator's tutorial does (see ROOT_TASK_PERIOD_RT_US for
 * PREEMPT_RT).  The files are missing on stock.
 */
void root_own_default(void)
{
	if (cg_has("", cg_v2() ? "cpu.rt.tasks.max" : "cpu.rt_task_runtime_us") &&
	    root_own_reserve(ROOT_TASK_RUNTIME_US, 1000000))
		die("leaving the root group's own tasks %d us every second",
		    ROOT_TASK_RUNTIME_US);
}

void cg_mount(void)
{
	struct stat st;

	if (cg_v2()) {
		if (stat(CG_ROOT_V2 "/cgroup.controllers", &st) == 0)
			return;
		mkdir(CG_ROOT_V2, 0755);
		if (mount("cgroup2", CG_ROOT_V2, "cgroup2", 0, "nsdelegate"))
			die("mount -t cgroup2 -o nsdelegate " CG_ROOT_V2);
		root_own_default();
		/* Refused on stock while RT tasks are in groups (cgroup_v2.c). */
		raw_write("", "cgroup.subtree_control", "+cpu");
		return;
	}
	if (stat(CG_ROOT_V1 "/cpu.rt_period_us", &st) == 0)
		return;
	mkdir("/sys/fs/cgroup", 0755);
	mount("cgroup_root", "/sys/fs/cgroup", "tmpfs", 0, "mode=755");
	mkdir(CG_ROOT_V1, 0755);
	if (mount("cgroup", CG_ROOT_V1, "cgroup", 0, "cpu,cpuacct"))
		die("mount -t cgroup -o cpu,cpuacct " CG_ROOT_V1);
	root_own_default();
}

const char *cg_path(const char *group, const char *file)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s%s%s%s", cg_v2() ? CG_ROOT_V2 : CG_ROOT_V1,
		 *group ? "/" : "",
		 group, *file ? "/" : "", file);
	return buf;
}

/*
 * On cgroup v2 the tests' v1 file names stand for their v2 counterparts:
 * "tasks" for cgroup.procs (the tests move single-threaded processes),
 * the runtime and the period of cpu.rt_* for one of the two fields of
 * cpu.rt.max, those of cpu.rt_task_* for one of cpu.rt.tasks.max, and
 * cpuacct.usage (ns) for usage_usec of cpu.stat.  Other names are used
 * as they are.
 */
struct v2_file {
	const char *v1, *v2;
	int field;		/* -1: the whole file; 0 runtime, 1 period */
};

static const struct v2_file v2_files[] = {
	{ "tasks", "cgroup.procs", -1 },
	{ "cpu.rt_runtime_us", "cpu.rt.max", 0 },
	{ "cpu.rt_period_us", "cpu.rt.max", 1 },
	{ "cpu.rt_task_runtime_us", "cpu.rt.tasks.max", 0 },
	{ "cpu.rt_task_period_us", "cpu.rt.tasks.max", 1 },
	{ "cpuacct.usage", "cpu.stat", -1 },
};

static const struct v2_file *v2_map(const char *file)
{
	if (!cg_v2())
		return NULL;
	for (size_t i = 0; i < sizeof(v2_files) / sizeof(v2_files[0]); i++)
		if (!strcmp(file, v2_files[i].v1))
			return &v2_files[i];
	return NULL;
}

static int raw_write(const char *group, const char *file, const char *val)
{
	int fd = open(cg_path(group, file), O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static int raw_read(const char *group, const char *file, char *buf, size_t len)
{
	int fd = open(cg_path(group, file), O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENODATA;
	buf[n] = 0;
	return 0;
}

bool cg_has(const char *group, const char *file)
{
	const struct v2_file *m = v2_map(file);

	return access(cg_path(group, m ? m->v2 : file), F_OK) == 0;
}

int cg_write(const char *group, const char *file, const char *val)
{
	const struct v2_file *m = v2_map(file);
	char cur[128], out[160];
	int err;

	if (!m || m->field < 0)
		return raw_write(group, m ? m->v2 : file, val);
	/* One field of "$RUNTIME $PERIOD": the other stays. */
	err = raw_read(group, m->v2, cur, sizeof(cur));
	if (err)
		return err;
	if (!strncmp(cur, "auto", 4)) {
		/* Own tasks that follow the group: -1 keeps them so. */
		if (!strcmp(val, "-1"))
			return 0;
		/* A period alone: the runtime v1 would keep is not shown. */
		if (m->field)
			return access(cg_path(group, m->v2), W_OK) ? -errno : -EOPNOTSUPP;
		return raw_write(group, m->v2, val);
	}
	if (m->field == 0 && !strcmp(val, "-1") && !strcmp(m->v2, "cpu.rt.tasks.max"))
		return raw_write(group, m->v2, "auto");
	cur[strcspn(cur, "\n")] = 0;
	if (m->field == 0)
		snprintf(out, sizeof(out), "%s %s", val, strchr(cur, ' ') ? strchr(cur, ' ') + 1 : "");
	else
		snprintf(out, sizeof(out), "%.*s %s", (int)strcspn(cur, " "), cur, val);
	return raw_write(group, m->v2, out);
}

int cg_read_str(const char *group, const char *file, char *buf, size_t len)
{
	return read_str(cg_path(group, file), buf, len);
}

int read_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = 0;
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

bool cg_file_is(const char *group, const char *file, const char *want)
{
	char buf[256];

	return !cg_read_str(group, file, buf, sizeof(buf)) && !strcmp(buf, want);
}

long long cg_stat_key(const char *group, const char *file, const char *key)
{
	char buf[1024], *p;
	size_t k = strlen(key);

	if (cg_read_str(group, file, buf, sizeof(buf)))
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return atoll(p + k + 1);
	return -1;
}

int cg_write_ll(const char *group, const char *file, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	return cg_write(group, file, buf);
}

int cg_read_ll(const char *group, const char *file, long long *val)
{
	const struct v2_file *m = v2_map(file);
	char buf[512], *p = buf;
	int err;

	err = raw_read(group, m ? m->v2 : file, buf, sizeof(buf));
	if (err)
		return err;
	if (m && !strcmp(m->v2, "cpu.stat")) {
		p = strstr(buf, "usage_usec ");
		if (!p)
			return -ENODATA;
		*val = strtoll(p + 11, NULL, 10) * 1000;
		return 0;
	}
	if (m && m->field >= 0) {
		if (!strncmp(buf, "auto", 4)) {
			*val = -1;
			return 0;
		}
		if (m->field == 1) {
			p = strchr(buf, ' ');
			if (!p)
				return -ENODATA;
		}
	}
	*val = strtoll(p, NULL, 10);
	return 0;
}

static int __cg_group(const char *group, long long period_us, long long runtime_us);

/*
 * A group removed just before may still count against admission on the
 * stock kernel until it is released: retry for up to a second.
 */
int cg_group(const char *group, long long period_us, long long runtime_us)
{
	int err, i;

	for (i = 0; i < 10; i++) {
		err = __cg_group(group, period_us, runtime_us);
		if (err != -EBUSY && err != -EINVAL)
			break;
		sleep_ns(100 * NSEC_PER_MSEC);
	}
	return err;
}

static int __cg_group(const char *group, long long period_us, long long runtime_us)
{
	int err;

	if (cg_v2()) {
		char parent[256], val[64];
		char *slash;

		snprintf(parent, sizeof(parent), "%s", group);
		slash = strrchr(parent, '/');
		if (slash)
			*slash = 0;
		else
			parent[0] = 0;
		err = cg_write(parent, "cgroup.subtree_control", "+cpu");
		if (err)
			return err;
		if (mkdir(cg_path(group, ""), 0755) && errno != EEXIST)
			return -errno;
		snprintf(val, sizeof(val), "%lld %lld", runtime_us, period_us);
		err = cg_write(group, "cpu.rt.max", val);
		/* Its own tasks get it all, as v1's cpu.rt_task_* below. */
		if (!err)
			err = cg_write(group, "cpu.rt.tasks.max", "auto");
		return err;
	}
	if (mkdir(cg_path(group, ""), 0755) && errno != EEXIST)
		return -errno;
	/*
	 * Shrink before growing, so that no intermediate state is refused:
	 * runtime to zero, then the period, then the runtime.
	 */
	if (cg_has(group, "cpu.rt_task_runtime_us")) {
		err = cg_write_ll(group, "cpu.rt_task_runtime_us", 0);
		if (err)
			return err;
	}
	err = cg_write_ll(group, "cpu.rt_runtime_us", 0);
	if (!err)
		err = cg_write_ll(group, "cpu.rt_period_us", period_us);
	if (!err)
		err = cg_write_ll(group, "cpu.rt_runtime_us", runtime_us);
	if (!err && cg_has(group, "cpu.rt_task_period_us")) {
		err = cg_write_ll(group, "cpu.rt_task_period_us", period_us);
		if (!err)
			err = cg_write_ll(group, "cpu.rt_task_runtime_us",
					  runtime_us);
	}
	return err;
}

int cg_remove(const char *group)
{
	return rmdir(cg_path(group, "")) ? -errno : 0;
}

long long cg_ino(const char *group)
{
	struct stat st;

	return stat(cg_path(group, ""), &st) ? -1 : (long long)st.st_ino;
}

/*
 * A line in the trace, for tools/testing/rt-edf/schedcheck.py: which
 * group and which CPUs a task has.  Dropped while tracing is off.
 */
static void trace_mark(const char *fmt, ...)
{
	static int fd = -2;
	char buf[256];
	va_list ap;
	int n;

	if (fd == -2)
		fd = open(TRACEFS "/trace_marker", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, buf, n) < 0)
		return;
}

/* The thread a pid argument names: 0 is the caller, as for the syscalls. */
static pid_t tid_of(pid_t pid)
{
	return pid ? pid : (pid_t)syscall(SYS_gettid);
}

void sched_trace_mark_affinity(pid_t pid)
{
	char list[128] = "";
	cpu_set_t set;
	size_t len = 0;

	pid = tid_of(pid);
	if (sched_getaffinity(pid, sizeof(set), &set))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE && len + 8 < sizeof(list); cpu++)
		if (CPU_ISSET(cpu, &set))
			len += snprintf(list + len, sizeof(list) - len, "%s%d", len ? "," : "", cpu);
	trace_mark("rtedf_affinity pid=%d cpus=%s\n", pid, list);
}

/* Writes id to group's file, the move of thread tid marked in the trace. */
static int attach_marked(const char *group, const char *file, pid_t tid, pid_t id)
{
	int err;

	/* Its group is not known until the move is marked (schedcheck.py). */
	trace_mark("rtedf_moving pid=%d\n", tid);
	err = cg_write_ll(group, file, id);
	if (!err) {
		trace_mark("rtedf_attach pid=%d cgroup_id=%lld\n", tid, cg_ino(group));
		sched_trace_mark_affinity(tid);
	} else {
		trace_mark("rtedf_unmoved pid=%d\n", tid);
	}
	return err;
}

int cg_attach(const char *group, pid_t pid)
{
	return attach_marked(group, cg_v2() ? "cgroup.procs" : "tasks", tid_of(pid), pid);
}

int cg_attach_thread(const char *group, pid_t tid)
{
	char type[32] = "";
	int err;

	if (!cg_v2())
		return cg_attach(group, tid);
	if (raw_read(group, "cgroup.type", type, sizeof(type)))
		return -ENOENT;
	if (strncmp(type, "threaded", 8)) {
		err = raw_write(group, "cgroup.type", "threaded");
		if (err)
			return err;
	}
	return attach_marked(group, "cgroup.threads", tid, tid);
}

bool cg_contains(const char *group, pid_t pid)
{
	char path[64], line[512], want[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	snprintf(want, sizeof(want), "/%s\n", group);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *grp;

		if (!ctl || !(grp = strchr(ctl + 1, ':')))
			continue;
		*grp++ = 0;
		/* v2: "0::/path", no controller named */
		if ((cg_v2() ? !ctl[1] : !!strstr(ctl + 1, "cpu")) && !strcmp(grp, want))
			found = true;
	}
	fclose(f);
	return found;
}

/* The kernel's prio of a policy and priority, as sched_switch prints it. */
static int kernel_prio(int policy, int prio)
{
	policy &= ~SCHED_RESET_ON_FORK;
	return policy == SCHED_FIFO || policy == SCHED_RR ? 99 - prio : 120;
}

int set_sched(pid_t pid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	pid_t tid = tid_of(pid);

	trace_mark("rtedf_moving pid=%d\n", tid);
	if (sched_setscheduler(pid, policy, &sp)) {
		int err = -errno;

		trace_mark("rtedf_unmoved pid=%d\n", tid);
		return err;
	}
	trace_mark("rtedf_prio pid=%d prio=%d\n", tid, kernel_prio(policy, prio));
	return 0;
}

int set_affinity(pid_t pid, const cpu_set_t *set)
{
	pid_t tid = tid_of(pid);

	/*
	 * Its CPUs are not known until the change is marked: the stopper
	 * moves it off a CPU that its old mark still allows (schedcheck.py).
	 */
	trace_mark("rtedf_moving pid=%d\n", tid);
	if (sched_setaffinity(pid, sizeof(*set), set)) {
		int err = -errno;

		trace_mark("rtedf_unmoved pid=%d\n", tid);
		return err;
	}
	sched_trace_mark_affinity(tid);
	trace_mark("rtedf_unmoved pid=%d\n", tid);
	return 0;
}

int pin_cpu(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return set_affinity(pid, &set);
}

/* Lets the calling thread run on every CPU again. */
static void unpin_self(void)
{
	cpu_set_t all;

	CPU_ZERO(&all);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &all);
	set_affinity(0, &all);
}

int nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

uint64_t cputime_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

pid_t rtedf_fork(void)
{
	fflush(NULL);
	return fork();
}

bool child_exited_ok(const char *name, pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid) {
		ksft_print_msg("%s: cannot wait for it: %s\n", name, strerror(errno));
		return false;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return true;
	if (WIFEXITED(status))
		ksft_print_msg("%s: exited %d\n", name, WEXITSTATUS(status));
	else
		ksft_print_msg("%s: ended by signal %d\n", name, WTERMSIG(status));
	return false;
}

#define STALL_MAX	1024

/* See stall_log_start(); in memory shared by the workers and the parent. */
static struct stall_log {
	unsigned long n;
	struct stall {
		uint64_t start_ns, end_ns;	/* end_ns stored last */
		int cpu;
	} s[STALL_MAX];
} *stalls;

void stall_log_start(void)
{
	stalls = shared_alloc(sizeof(*stalls));
}

/* A loop's previous read of its thread CPU time and of the clock. */
struct stall_clock {
	uint64_t cpu_ns, wall_ns;
};

static void stall_clock_start(struct stall_clock *sc)
{
	sc->cpu_ns = thread_cputime_ns();
	sc->wall_ns = now_ns();
}

/*
 * Reads both again, and logs a jump of the CPU time as a stall that
 * began at the previous read (the interrupt a stall holds back may
 * preempt the loop after it, which would shift the end).
 */
static void stall_check(struct stall_clock *sc)
{
	uint64_t c = thread_cputime_ns(), t = now_ns();
	struct stall *s;
	unsigned long i;

	if (c - sc->cpu_ns > STALL_NS) {
		i = __atomic_fetch_add(&stalls->n, 1, __ATOMIC_RELAXED);
		if (i < STALL_MAX) {
			s = &stalls->s[i];
			s->start_ns = sc->wall_ns;
			s->cpu = sched_getcpu();
			__atomic_store_n(&s->end_ns, sc->wall_ns + (c - sc->cpu_ns),
					 __ATOMIC_RELEASE);
		}
	}
	sc->cpu_ns = c;
	sc->wall_ns = t;
}

/* A whole record (a worker killed while writing one leaves it torn). */
static bool stall_valid(const struct stall *s)
{
	uint64_t end = __atomic_load_n(&s->end_ns, __ATOMIC_ACQUIRE);

	return s->start_ns && end > s->start_ns;
}

static int stall_cmp(const void *a, const void *b)
{
	const struct stall *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

uint64_t stall_overlap_ns(uint64_t from_ns, uint64_t to_ns, uint64_t cpus)
{
	static struct stall s[STALL_MAX];
	uint64_t sum = 0, end = 0;
	unsigned long i, n = 0;

	if (!stalls)
		return 0;
	/* The stalls on those CPUs clipped to the window, then their union. */
	for (i = 0; i < stalls->n && i < STALL_MAX; i++) {
		const struct stall *x = &stalls->s[i];

		if (!stall_valid(x) || x->cpu < 0 || x->cpu > 63 ||
		    !(cpus & (1ULL << x->cpu)))
			continue;
		s[n].start_ns = x->start_ns > from_ns ? x->start_ns : from_ns;
		s[n].end_ns = x->end_ns < to_ns ? x->end_ns : to_ns;
		if (s[n].start_ns < s[n].end_ns)
			n++;
	}
	qsort(s, n, sizeof(s[0]), stall_cmp);
	for (i = 0; i < n; i++) {
		if (s[i].start_ns < end)
			s[i].start_ns = end;
		if (s[i].start_ns < s[i].end_ns) {
			sum += s[i].end_ns - s[i].start_ns;
			end = s[i].end_ns;
		}
	}
	return sum;
}

unsigned long stall_count(uint64_t *total_ns, unsigned long *dropped)
{
	unsigned long i, n = 0;

	*total_ns = 0;
	*dropped = 0;
	if (!stalls)
		return 0;
	for (i = 0; i < stalls->n && i < STALL_MAX; i++)
		if (stall_valid(&stalls->s[i])) {
			*total_ns += stalls->s[i].end_ns - stalls->s[i].start_ns;
			n++;
		}
	if (stalls->n > STALL_MAX)
		*dropped = stalls->n - STALL_MAX;
	return n;
}

static pid_t __spawn_busy(const char *group, int policy, int prio, int cpu,
			  bool unpin, uint64_t start_ns, uint64_t end_ns)
{
	int pfd[2], err = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = rtedf_fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		err = -cg_attach(group, getpid());
		if (!err && cpu >= 0)
			err = -pin_cpu(0, cpu);
		if (!err)
			err = -set_sched(0, policy, prio);
		if (write(pfd[1], &err, sizeof(err)) != sizeof(err) || err)
			_exit(1);
		close(pfd[1]);
		if (start_ns)
			sleep_until(start_ns);
		if (unpin)
			unpin_self();
		if (stalls) {
			struct stall_clock sc;

			for (stall_clock_start(&sc); !end_ns || sc.wall_ns < end_ns;)
				stall_check(&sc);
			_exit(0);
		}
		while (!end_ns || now_ns() < end_ns)
			;
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) != sizeof(err) || err) {
		ksft_print_msg("busy worker in '%s' failed: %s\n", group,
			       strerror(err));
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(pfd[0]);
	return pid;
}

pid_t spawn_busy(const char *group, int policy, int prio, int cpu)
{
	return __spawn_busy(group, policy, prio, cpu, false, 0, 0);
}

pid_t spawn_busy_at(const char *group, int policy, int prio, int cpu,
		    uint64_t start_ns)
{
	return __spawn_busy(group, policy, prio, cpu, false, start_ns, 0);
}

pid_t spawn_busy_until(const char *group, int policy, int prio, int cpu,
		       uint64_t start_ns, uint64_t end_ns)
{
	return __spawn_busy(group, policy, prio, cpu, false, start_ns, end_ns);
}

pid_t spawn_busy_from(const char *group, int policy, int prio, int home_cpu,
		      uint64_t start_ns)
{
	return __spawn_busy(group, policy, prio, home_cpu, true, start_ns, 0);
}

void start_in_future(uint64_t start_ns)
{
	if (now_ns() >= start_ns)
		ksft_exit_fail_msg("the workers were not ready before their start time\n");
}

char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "pid (comm) S ...": comm may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

pid_t spawn_sleeper(void)
{
	pid_t pid;

	pid = rtedf_fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

void stop_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void measure_permille(const pid_t *pids, int n, uint64_t window_ns,
		      double *permille)
{
	measure_permille_at(pids, n, now_ns(), window_ns, permille);
}

void measure_permille_at(const pid_t *pids, int n, uint64_t start_ns,
			 uint64_t window_ns, double *permille)
{
	uint64_t t0, t1, c0[n], c1[n];
	int i;

	set_sched(0, SCHED_FIFO, 99);
	sleep_until(start_ns);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		c0[i] = cputime_ns(pids[i]);
	sleep_until(start_ns + window_ns);
	for (i = 0; i < n; i++)
		c1[i] = cputime_ns(pids[i]);
	t1 = now_ns();
	set_sched(0, SCHED_OTHER, 0);
	for (i = 0; i < n; i++)
		permille[i] = 1000.0 * (c1[i] - c0[i]) / (t1 - t0);
}

uint64_t thread_cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void burn_cpu(uint64_t ns)
{
	uint64_t start = thread_cputime_ns();

	if (stalls) {
		struct stall_clock sc;

		for (stall_clock_start(&sc); sc.cpu_ns - start < ns;)
			stall_check(&sc);
		return;
	}
	while (thread_cputime_ns() - start < ns)
		;
}

/* The calling thread's CPUs: a and b. */
static void set_cpus(int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	CPU_SET(b, &set);
	if (set_affinity(0, &set))
		_exit(2);
}

void periodic_from_cpu0(uint64_t t0, uint64_t run_ns, uint64_t period_ns,
			uint64_t work_ns, uint64_t *worst)
{
	for (uint64_t r = t0; r < t0 + run_ns; r += period_ns) {
		sleep_until(r);
		set_cpus(0, 0);
		set_cpus(0, 1);
		burn_cpu(work_ns);
		if (now_ns() - r > *worst)
			*worst = now_ns() - r;
	}
	_exit(0);
}

int write_file(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int tracefs_write(const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	return write_file(path, val);
}

long long trace_field(const char *s, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(s, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

static const char *const sched_trace_events[] = {
	"sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new",
	"sched/sched_migrate_task", "sched/sched_rt_server_enqueue",
	"sched/sched_rt_server_dequeue", "sched/sched_rt_server_start",
	"sched/sched_rt_throttle", "sched/sched_rt_replenish",
	"sched/sched_rt_boost_begin", "sched/sched_rt_boost_end",
	"sched/sched_rt_held", "sched/sched_process_fork", "sched/sched_pi_setprio",
};

static void sched_trace_enable(const char *val)
{
	char path[128];

	for (unsigned int i = 0; i < sizeof(sched_trace_events) / sizeof(sched_trace_events[0]); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", sched_trace_events[i]);
		tracefs_write(path, val);	/* stock has no sched_rt_* */
	}
}

int sched_trace_start_with(void (*mark)(void))
{
	int err, push_ipi;

	err = tracefs_write("tracing_on", "0");
	if (!err)
		err = tracefs_write("trace_clock", "global");
	if (!err)
		err = tracefs_write("buffer_size_kb", "16384");
	if (!err)
		err = tracefs_write("trace", "");
	if (err)
		return err;
	sched_trace_enable("1");
	err = tracefs_write("tracing_on", "1");
	/*
	 * RT_PUSH_IPI (on by default on PREEMPT_RT) changes who pulls: the
	 * checker is told whether it is on ("NO_RT_PUSH_IPI" when off).
	 */
	push_ipi = err ? -1 : sched_feature_on("RT_PUSH_IPI");
	if (push_ipi >= 0)
		trace_mark("rtedf_features %sRT_PUSH_IPI\n", push_ipi ? "" : "NO_");
	/*
	 * The schedule is judged from the end of the marks on: before it,
	 * the checker does not know the groups of all the tasks yet.
	 */
	if (!err && mark) {
		trace_mark("rtedf_hold\n");
		mark();
		trace_mark("rtedf_judge\n");
	}
	return err;
}

int sched_trace_start(void)
{
	return sched_trace_start_with(NULL);
}

int sched_trace_mark_group(const char *group)
{
	long long cgid = cg_ino(group);
	struct sched_param sp;
	int policy, n = 0;
	FILE *f;
	pid_t pid;

	/* Every thread: cgroup.threads lists them on v2, in any group. */
	f = fopen(cg_path(group, cg_v2() ? "cgroup.threads" : "tasks"), "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%d", &pid) == 1) {
		policy = sched_getscheduler(pid);
		if (policy < 0 || sched_getparam(pid, &sp))
			continue;	/* gone meanwhile */
		trace_mark("rtedf_attach pid=%d cgroup_id=%lld old=1\n", pid, cgid);
		sched_trace_mark_affinity(pid);
		trace_mark("rtedf_prio pid=%d prio=%d\n", pid,
			   kernel_prio(policy, sp.sched_priority));
		n++;
	}
	fclose(f);
	return n;
}

int sched_trace_save(const char *name)
{
	char path[128], buf[65536];
	int in, out, err = 0;
	ssize_t n;

	tracefs_write("tracing_on", "0");
	sched_trace_enable("0");
	mkdir(SCHED_TRACE_DIR, 0755);
	snprintf(path, sizeof(path), SCHED_TRACE_DIR "/%s.txt", name);
	in = open(TRACEFS "/trace", O_RDONLY);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		err = -errno;
	while (!err && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			err = -EIO;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	tracefs_write("trace", "");
	tracefs_write("buffer_size_kb", "1408");
	return err;
}

bool outcomes_judged(void)
{
	const char *clock = getenv("RTEDF_CLOCK");

	if (!clock)
		return true;
	return !(!strcmp(clock, "icount") && nr_cpus() > 1) &&
	       strcmp(clock, "tcg-shared");
}

bool on_host_clock(void)
{
	const char *clock = getenv("RTEDF_CLOCK");

	return clock && !strcmp(clock, "tcg");
}

int sched_feature(const char *feat)
{
	return write_file("/sys/kernel/debug/sched/features", feat);
}

int sched_feature_on(const char *feat)
{
	char buf[1024], *p;
	size_t n = strlen(feat);

	if (read_str("/sys/kernel/debug/sched/features", buf, sizeof(buf)))
		return -1;
	/* Space-separated names, NO_ before those that are off. */
	for (p = strtok(buf, " \n"); p; p = strtok(NULL, " \n")) {
		if (!strcmp(p, feat))
			return 1;
		if (!strncmp(p, "NO_", 3) && !strncmp(p + 3, feat, n) && !p[3 + n])
			return 0;
	}
	return -1;
}

void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 0, size);
	return p;
}

int pi_mutex_init(pthread_mutex_t *m, bool robust)
{
	pthread_mutexattr_t attr;
	int err;

	err = pthread_mutexattr_init(&attr) ||
	      pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) ||
	      pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) ||
	      (robust && pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST)) ||
	      pthread_mutex_init(m, &attr);
	pthread_mutexattr_destroy(&attr);
	return err;
}

void sched_stat(int fd, uint64_t *delay, unsigned long long *runs)
{
	unsigned long long exec = 0, d = 0, r = 0;
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n > 0) {
		buf[n] = 0;
		sscanf(buf, "%llu %llu %llu", &exec, &d, &r);
	}
	*delay = d;
	if (runs)
		*runs = r;
}

/* The time the thread has waited on a runqueue, from its schedstat. */
static uint64_t run_delay_ns(int fd)
{
	uint64_t delay;

	sched_stat(fd, &delay, NULL);
	return delay;
}

uint64_t sleep_until_queued(int fd, uint64_t release)
{
	uint64_t delay = run_delay_ns(fd), t = now_ns();

	sleep_until(release);
	/* Never dequeued if the release has passed. */
	if (t >= release)
		return 0;
	/* Queued at the time it ran minus the time it waited to run. */
	t = now_ns() - (run_delay_ns(fd) - delay);
	return t > release ? t - release : 0;
}

bool periodic_met(const struct periodic_stats *st, uint64_t slack_ns)
{
	return !st->misses || st->max_late_past_wake_ns <= -(int64_t)slack_ns;
}

static uint64_t cpu_bit(int cpu)
{
	return cpu >= 0 && cpu < 64 ? 1ULL << cpu : 0;
}

unsigned long periodic_unexplained(const struct periodic_stats *st)
{
	unsigned long i, n = 0;

	if (st->misses > LATE_LOG)
		n = st->misses - LATE_LOG;
	for (i = 0; i < st->misses && i < LATE_LOG; i++) {
		const struct late_job *j = &st->late[i];

		if (j->finish_ns - j->deadline_ns >
		    j->wake_ns + stall_overlap_ns(j->queued_ns, j->finish_ns, j->cpus))
			n++;
	}
	return n;
}

/* unpin: 0 never, 1 once woken at the first release, 2 before sleeping. */
static pid_t __spawn_periodic(const char *group, int prio, int cpu, int unpin,
			      uint64_t wcet_ns, uint64_t period_ns,
			      uint64_t release_ns, uint64_t duration_ns,
			      struct periodic_stats **statsp)
{
	struct periodic_stats *st = shared_alloc(sizeof(*st));
	pid_t pid;

	*statsp = st;
	pid = rtedf_fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		uint64_t release = release_ns, end, lat, prev_lat = 0, cpus;
		int fd = open("/proc/thread-self/schedstat", O_RDONLY);
		int64_t late;

		if (fd < 0 || cg_attach(group, getpid()) ||
		    (cpu >= 0 && pin_cpu(0, cpu)) ||
		    set_sched(0, SCHED_FIFO, prio))
			_exit(2);
		if (!release)
			release = now_ns() + 10 * NSEC_PER_MSEC;
		if (unpin == 2) {
			unpin_self();
			unpin = 0;
		}
		end = release + duration_ns;
		st->max_late_past_wake_ns = INT64_MIN;
		for (; release < end; release += period_ns) {
			lat = sleep_until_queued(fd, release);
			if (unpin) {
				unpin_self();
				unpin = 0;
			}
			cpus = cpu_bit(sched_getcpu());
			burn_cpu(wcet_ns);
			late = (int64_t)(now_ns() - (release + period_ns));
			st->jobs++;
			if (lat > st->max_wake_latency_ns)
				st->max_wake_latency_ns = lat;
			if (late > 0) {
				uint64_t wake = lat > prev_lat ? lat : prev_lat;
				int64_t past = late - (int64_t)wake;

				if (st->misses < LATE_LOG) {
					struct late_job *j = &st->late[st->misses];

					j->release_ns = release;
					j->queued_ns = release + lat;
					j->deadline_ns = release + period_ns;
					j->finish_ns = j->deadline_ns + late;
					j->wake_ns = wake;
					j->cpus = cpus | cpu_bit(sched_getcpu());
				}
				st->misses++;
				if (past > st->max_late_past_wake_ns)
					st->max_late_past_wake_ns = past;
			}
			if (st->jobs == 1 || late > st->max_lateness_ns)
				st->max_lateness_ns = late;
			prev_lat = lat;
		}
		st->cputime_ns = cputime_ns(0);
		_exit(0);
	}
	return pid;
}

pid_t spawn_periodic(const char *group, int prio, int cpu, uint64_t wcet_ns,
		     uint64_t period_ns, uint64_t duration_ns,
		     struct periodic_stats **statsp)
{
	return __spawn_periodic(group, prio, cpu, false, wcet_ns, period_ns, 0,
				duration_ns, statsp);
}

pid_t spawn_periodic_at(const char *group, int prio, int cpu, uint64_t wcet_ns,
			uint64_t period_ns, uint64_t release_ns,
			uint64_t duration_ns, struct periodic_stats **statsp)
{
	return __spawn_periodic(group, prio, cpu, 0, wcet_ns, period_ns,
				release_ns, duration_ns, statsp);
}

pid_t spawn_periodic_from(const char *group, int prio, int home_cpu,
			  uint64_t wcet_ns, uint64_t period_ns,
			  uint64_t release_ns, uint64_t duration_ns,
			  struct periodic_stats **statsp)
{
	return __spawn_periodic(group, prio, home_cpu, 1, wcet_ns, period_ns,
				release_ns, duration_ns, statsp);
}

pid_t spawn_periodic_near(const char *group, int prio, int cpu,
			  uint64_t wcet_ns, uint64_t period_ns,
			  uint64_t release_ns, uint64_t duration_ns,
			  struct periodic_stats **statsp)
{
	return __spawn_periodic(group, prio, cpu, 2, wcet_ns, period_ns,
				release_ns, duration_ns, statsp);
}

struct periodic_stats *wait_periodic(pid_t pid, struct periodic_stats *st)
{
	int status;

	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ksft_print_msg("periodic worker %d failed (status %#x)\n",
			       pid, status);
	return st;
}

int rtapp_log(const char *path, struct rtapp_stats *st)
{
	static long long runs[8192];
	char line[512];
	int nruns = 0, i, j;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		long long v[11];

		/* idx perf run period start end rel_st slack c_duration c_period wu_lat */
		if (line[0] == '#' ||
		    sscanf(line, "%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			   &v[8], &v[9], &v[10]) != 11)
			continue;
		if (nruns < (int)ARRAY_SIZE(runs))
			runs[nruns++] = v[2];
		if (!st->jobs || -v[7] * 1000 > st->max_late_ns)
			st->max_late_ns = -v[7] * 1000;
		st->jobs++;
		if (v[7] < 0)
			st->misses++;
	}
	fclose(f);
	for (i = 1; i < nruns; i++)	/* insertion sort, for the median */
		for (j = i; j > 0 && runs[j] < runs[j - 1]; j--) {
			long long t = runs[j];

			runs[j] = runs[j - 1];
			runs[j - 1] = t;
		}
	st->median_run_us = nruns ? runs[nruns / 2] : -1;
	return 0;
}

long rtapp_calibrate(void)
{
	struct rtapp_stats st;
	FILE *f = fopen("/tmp/rtapp-cal.json", "w");

	if (!f)
		return -1;
	fprintf(f, "{ \"tasks\": { \"cal\": { \"loop\": -1, \"run\": 20000,\n"
		   "    \"timer\": { \"ref\": \"calt\", \"period\": 100000 } } },\n"
		   "  \"global\": { \"duration\": 1, \"calibration\": 100,\n"
		   "  \"default_policy\": \"SCHED_OTHER\", \"logdir\": \"/tmp\",\n"
		   "  \"log_basename\": \"rtapp-cal\" } }\n");
	fclose(f);
	if (system("rt-app /tmp/rtapp-cal.json >/dev/null 2>&1") ||
	    rtapp_log("/tmp/rtapp-cal-cal-0.log", &st) || st.median_run_us <= 0)
		return -1;
	return (st.median_run_us * 100 + 10000) / 20000;
}

/* Moves the threads of rt-app (pid) named threads[] that are not there yet. */
static int rtapp_move(pid_t pid, const char *const *threads,
		      const char *const *groups, int n)
{
	char path[320], comm[32];
	struct dirent *de;
	int moved = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t tid = atoi(de->d_name);
		FILE *c;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		c = fopen(path, "r");
		if (!c)
			continue;
		if (fgets(comm, sizeof(comm), c)) {
			comm[strcspn(comm, "\n")] = 0;
			for (i = 0; i < n; i++)
				if (!strcmp(comm, threads[i]) &&
				    (cg_contains(groups[i], tid) ||
				     !cg_attach_thread(groups[i], tid)))
					moved++;
		}
		fclose(c);
	}
	closedir(d);
	return moved;
}

int rtapp_run(const char *json, const char *const *threads,
	      const char *const *groups, int n)
{
	int moved = 0, tries, status;
	pid_t pid = rtedf_fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execl("/usr/bin/rt-app", "rt-app", json, (char *)NULL);
		_exit(127);
	}
	/* Every millisecond for 150 ms, until all are in their groups. */
	for (tries = 0; tries < 150 && moved < n; tries++) {
		sleep_ns(NSEC_PER_MSEC);
		moved = rtapp_move(pid, threads, groups, n);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return moved;
}
