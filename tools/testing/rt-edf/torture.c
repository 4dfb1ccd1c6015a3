// SPDX-License-Identifier: GPL-2.0
/*
 * Churn torture: for a given time, a seeded random sequence of everything
 * an administrator and the tasks can do to RT groups, at once:
 *
 *  - create and remove groups at depths 1 to 3;
 *  - change the four RT files of busy groups, with valid values (bigger
 *    and smaller) and invalid ones;
 *  - move tasks between groups, change their policy and priority (as chrt
 *    does) and their affinity;
 *  - fork and exit storms inside groups;
 *  - kill -9 tasks, throttled and PI-boosted ones included;
 *  - PI mutex chains across groups (robust PTHREAD_PRIO_INHERIT mutexes,
 *    taken in index order so that there is no deadlock);
 *  - CPU offline and online.
 *
 * The workers are busy, periodic or lock chain takers, and all of them
 * pause together for QUIET_NS every QUIET_EVERY (see quiet()).
 *
 * A sentinel reservation with a periodic task runs throughout and must
 * miss no deadline.  At the end every task must be reaped, every group
 * removable, all CPUs online, and the bandwidth admission control still
 * hands out must be exactly what the surviving groups leave free.
 *
 * On cgroup v2 (a boot with rtedf.cgroup=v2, 'make torture CGROUP=v2')
 * the same through cpu.rt.max and cpu.rt.tasks.max; a group that holds
 * tasks gets no children there and one with children takes no tasks (no
 * internal processes), so more of those operations are refused.
 *
 * RTEDF_TORTURE="seconds:seed[:1]" (the guest init takes it from the
 * kernel command line rtedf.torture=; ":1" logs every operation to the
 * console); the same seed gives the same sequence of operations.
 * RTEDF_TORTURE_FREEZE=1 (by hand, for a post-mortem): the sentinel turns
 * tracing off at its first late job, so that a trace started before the
 * run ends with what made it late.
 *
 * The sentinel needs 20 ms every 200 ms and has 50 ms every 200 ms: its
 * slack absorbs what runs above RT (the fair server's burst, short stop
 * class work) and the PI critical sections of boosted groups (a few ms);
 * a miss means the reservation was broken.  With three exceptions, which
 * the sentinel measures.  First, time charged to it as CPU time while it
 * did not run.  The guests run in plain TCG (see scripts/torture.sh),
 * where a vCPU thread the host does not schedule for a while looks to
 * the guest like a CPU that ran its current task all along; the
 * sentinel's budget pays for it.  The sentinel reads its thread CPU time
 * in a tight loop, so a jump of more than HOLE_NS between two reads is
 * such time (or interrupts).  Second, the time CPU 0's stopper runs: CPU
 * hotplug's stop_machine holds every online CPU with interrupts off
 * until all have arrived, and in TCG that waits for vCPU threads the
 * host is not running; no reservation can promise anything there (only
 * when the stopper ran at most STOP_ROUNDS times in the job: many rounds
 * are migrations the scheduler asked for, its own doing).  Third, the
 * wakeup latency: the reservation promises Q within P of the instant
 * the task is queued (see periodic_met() in rtedf.h), and the time from
 * the release to that instant (the timer interrupt, a vCPU thread the
 * host wakes late) is not the scheduler's; the sentinel measures it from
 * its schedstat run delay.  Once the three exceed the job's slack,
 * Q - C = 30 ms, the job needs more than what it was left and finishes
 * late by the reservation's own terms: such a miss is reported, but is
 * the emulator's, not the scheduler's.  So is the miss of a job queued
 * only when such a late job ended, as long as it is no later than that
 * one: it inherits the lateness.  For every late job it also
 * reports, for the post-mortem, the jumps between SMALL_HOLE_NS and
 * HOLE_NS (interrupts, short emulator holes) and how long it waited
 * queued while something else ran on CPU 0 (within one period of 200 ms
 * the other servers can take 150 ms at most when each keeps to its
 * budget: more means that some overran theirs), and how long it slept
 * in the job (on a kernel lock: see rt-known-fail for PREEMPT_RT).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define SENTINEL	"sentinel"
#define S_PERIOD_US	200000
#define S_RUNTIME_US	50000
#define S_WCET_NS	(20 * NSEC_PER_MSEC)
#define HOLE_NS		(500 * NSEC_PER_USEC)
/* Shorter jumps, down to this, are only reported (interrupts are in there). */
#define SMALL_HOLE_NS	(50 * NSEC_PER_USEC)
#define STOP_ROUNDS	4

/* The late jobs the controller has not shown yet (it may be blocked). */
#define LATE_RING	16

/* A late job of the sentinel. */
struct late {
	__u64 release_ns, late_ns, stolen_ns, stopper_ns;
	unsigned long rounds;
	__u64 wake_ns;			/* wakeup latency */
	/* Queued after its release: at its wakeup, or when the job before ended. */
	__u64 queued_ns;
	/* Jumps under HOLE_NS; time others ran on CPU 0; time it slept. */
	__u64 small_ns, waited_ns, blocked_ns;
};

/* What the sentinel saw; in memory shared with the controller. */
struct sentinel {
	unsigned long jobs, misses, excused;
	__s64 max_lateness_ns;
	__u64 stolen_ns, max_stolen_ns;	/* per job: the worst */
	__u64 stopper_ns, max_stopper_ns;
	__u64 wake_ns, max_wake_ns;		/* wakeup latency */
	__u64 small_ns;
	struct late late[LATE_RING];		/* miss n in late[n % LATE_RING] */
};

#define MAX_GROUPS	24
#define MAX_WORKERS	32
#define NLOCKS		4

enum kind { BUSY, PERIODIC, LOCKER, NR_KINDS };

enum op {
	OP_CREATE, OP_REMOVE, OP_PARAM, OP_MOVE, OP_CHRT, OP_AFFINITY,
	OP_FORK, OP_KILL, OP_HOTPLUG, NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"create", "remove", "param", "move", "chrt", "affinity", "fork",
	"kill", "hotplug",
};
static const int op_weight[NR_OPS] = { 8, 5, 20, 15, 12, 6, 4, 8, 3 };

struct group {
	char name[96];
	int depth;
	bool used;
};

struct shared {
	pthread_mutex_t lock[NLOCKS];
	volatile unsigned long heartbeat;
};

static struct group groups[MAX_GROUPS];
static pid_t workers[MAX_WORKERS];
/* Killed workers and fork storms, to be reaped (never waitpid(-1)). */
static pid_t pending[4096];
static int nr_pending;
static struct shared *sh;
static int shm_fd;	/* where sh lives: a memfd the spawned images map */
static int ncpus, next_id;
static unsigned long ops_done[NR_OPS], ops_ok[NR_OPS];
static __u64 rng;
/* With a third field in RTEDF_TORTURE, every operation goes to the console. */
static int trace;
/*
 * Under icount on several vCPUs (the suite's clock there), the last
 * TRACE_NS of the churn are traced for the host's checker (schedcheck.py):
 * the decisions are exact there though outcomes in time are not.  No CPU
 * hotplug in such a run: under icount it left a vCPU spinning on a lock
 * nobody held (scripts/torture.sh).
 */
static bool traced;
#define TRACE_NS	(5 * NSEC_PER_SEC)

/* The last operations, to show what ran around a sentinel miss. */
#define OPLOG	512
static struct {
	__u64 start_ns, end_ns;
	unsigned char op, ok;
} oplog[OPLOG];

/* xorshift64*: the whole sequence follows from the seed. */
static __u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static int rnd_n(int n)
{
	return n > 0 ? (int)(rnd() % n) : 0;
}

/* A random group (index), or -1 for the root; only used slots. */
static bool is_ancestor(int a, int g)
{
	size_t n = strlen(groups[a].name);

	return !strncmp(groups[g].name, groups[a].name, n) &&
	       groups[g].name[n] == '/';
}

/* One of the n groups in idx, or (root_ok, one time in four) the root: -1. */
static int rnd_of(const int *idx, int n, bool root_ok)
{
	if (!n || (root_ok && !rnd_n(4)))
		return -1;
	return idx[rnd_n(n)];
}

static int rnd_group(bool root_ok)
{
	int idx[MAX_GROUPS], n = 0;

	for (int i = 0; i < MAX_GROUPS; i++)
		if (groups[i].used)
			idx[n++] = i;
	return rnd_of(idx, n, root_ok);
}

/*
 * A group for tasks.  On v2 only a group without children: the cpu
 * controller, threaded, would let a parent take tasks too, and that makes
 * it a thread root, whose children then refuse every process
 * (EOPNOTSUPP), and RT workers would pile up in the root.
 */
static int rnd_home(bool root_ok)
{
	int idx[MAX_GROUPS], n = 0;

	if (!cg_v2())
		return rnd_group(root_ok);
	for (int i = 0; i < MAX_GROUPS; i++) {
		bool leaf = groups[i].used;

		for (int j = 0; leaf && j < MAX_GROUPS; j++)
			leaf = !(groups[j].used && is_ancestor(i, j));
		if (leaf)
			idx[n++] = i;
	}
	return rnd_of(idx, n, root_ok);
}

static const char *gname(int g)
{
	return g < 0 ? "" : groups[g].name;
}

static void add_pending(pid_t pid)
{
	if (nr_pending < (int)(sizeof(pending) / sizeof(pending[0])))
		pending[nr_pending++] = pid;
}

/* Reaps what has exited; with a limit, waits for all until it. */
static bool reap_pending(__u64 limit)
{
	for (;;) {
		for (int i = 0; i < nr_pending; i++)
			if (waitpid(pending[i], NULL, WNOHANG) != 0) {
				pending[i--] = pending[--nr_pending];
				sh->heartbeat++;	/* progress, for the watchdog */
			}
		if (!nr_pending || !limit || now_ns() > limit)
			return !nr_pending;
		sleep_ns(10 * NSEC_PER_MSEC);
	}
}

static void lock_chain(void)
{
	int first = rnd_n(NLOCKS), len = 1 + rnd_n(NLOCKS - first);
	int i, err;

	for (i = first; i < first + len; i++) {
		err = pthread_mutex_lock(&sh->lock[i]);
		if (err == EOWNERDEAD)
			pthread_mutex_consistent(&sh->lock[i]);
		else if (err)
			break;
	}
	burn_cpu((200 + rnd_n(800)) * NSEC_PER_USEC);
	while (--i >= first)
		pthread_mutex_unlock(&sh->lock[i]);
}

/*
 * The workers' quiet time: every QUIET_EVERY, for QUIET_NS (longer than
 * the periods the churn starts groups with), every worker but a PI lock
 * holder sleeps.  Fixed priority inside a group lets busy tasks starve
 * the group's lower priority tasks for good, and one starved while it
 * holds a kernel lock without priority inheritance (cgroup_mutex, the
 * cgroup threadgroup rwsem of a fork or exit, a CPU hotplug lock, ...)
 * stops everyone who needs the lock, on any kernel: the sleep bounds it.
 */
#define QUIET_EVERY	(2 * NSEC_PER_SEC)
#define QUIET_NS	(400 * NSEC_PER_MSEC)

static void quiet(void)
{
	__u64 t = now_ns() % QUIET_EVERY;

	if (t < QUIET_NS)
		sleep_ns(QUIET_NS - t);
}

/* Burns ns of CPU time, in slices of 1 ms, pausing in the quiet time. */
static void work(__u64 ns)
{
	while (ns) {
		__u64 slice = ns < NSEC_PER_MSEC ? ns : NSEC_PER_MSEC;

		quiet();
		burn_cpu(slice);
		ns -= slice;
	}
}

/* A worker: spins, runs periodically, or takes PI lock chains. */
static void worker(enum kind k)
{
	for (;;) {
		switch (k) {
		case BUSY:
			work((5 + rnd_n(20)) * NSEC_PER_MSEC);
			sleep_ns((1 + rnd_n(3)) * NSEC_PER_MSEC);
			break;
		case PERIODIC:
			work((100 + rnd_n(3000)) * NSEC_PER_USEC);
			sleep_ns((1 + rnd_n(20)) * NSEC_PER_MSEC);
			break;
		default:
			quiet();
			lock_chain();
			sleep_ns(rnd_n(3) * NSEC_PER_MSEC);
			break;
		}
	}
}

/* Is pid in the root group? */
static bool in_root(pid_t pid)
{
	char path[64], line[256];
	bool root = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid ? pid : getpid());
	f = fopen(path, "r");
	/* v1: the cpu controller's line; v2: the one line, "0::/path". */
	while (f && fgets(line, sizeof(line), f))
		if (cg_v2() ? !strncmp(line, "0::", 3) :
		    strstr(line, ":cpu,") || strstr(line, ":cpu:"))
			root = !strcmp(strrchr(line, ':'), ":/\n");
	if (f)
		fclose(f);
	return root;
}

/*
 * Tasks of the churn are real-time only in their own groups: the root
 * group's own reservation is the kernel threads'.
 */
static void set_random_sched(pid_t pid)
{
	static const int policies[] = { SCHED_FIFO, SCHED_RR, SCHED_OTHER };
	int policy = in_root(pid) ? SCHED_OTHER : policies[rnd_n(3)];

	set_sched(pid, policy, policy == SCHED_OTHER ? 0 : 1 + rnd_n(90));
}

static struct shared *map_shared(int fd)
{
	void *p = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	if (p == MAP_FAILED)
		die("mapping the shared memfd");
	return p;
}

/*
 * Workers and fork storms are new images of this program (posix_spawn:
 * vfork and exec, SCHED_OTHER in the controller's group until the
 * controller moves them), not forks of the controller.  A fork shares
 * the anon_vma of every private mapping with its parent, and a child
 * killed in a group of a tiny budget exits (unlink_anon_vmas(), under
 * that anon_vma's rwsem) only on its group's budget: the controller's
 * next fork waits for it on the rwsem, which has no priority
 * inheritance, for seconds.  The controller's own fork stall is not
 * what the churn is after.  argv: role, two arguments, a seed for the
 * image's random numbers and the memfd that holds the PI mutexes.
 */
static pid_t spawn_self(const char *role, const char *a, const char *b)
{
	struct sched_param sp = { .sched_priority = 0 };
	char seed[24], fd[12];
	char *const argv[] = { "torture", (char *)role, (char *)a, (char *)b,
			       seed, fd, NULL };
	posix_spawnattr_t attr;
	pid_t pid;

	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rnd());
	snprintf(fd, sizeof(fd), "%d", shm_fd);
	if (posix_spawnattr_init(&attr))
		return -1;
	if (posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER) ||
	    posix_spawnattr_setschedpolicy(&attr, SCHED_OTHER) ||
	    posix_spawnattr_setschedparam(&attr, &sp) ||
	    posix_spawn(&pid, "/proc/self/exe", NULL, &attr, argv, environ))
		pid = -1;
	posix_spawnattr_destroy(&attr);
	return pid;
}

/* A fork and exit storm in group, from a spawned image. */
static void storm(const char *group, int n)
{
	if (cg_attach(group, getpid()))
		_exit(1);
	set_random_sched(0);
	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c == 0) {
			burn_cpu(100 * NSEC_PER_USEC);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	_exit(0);
}

static bool spawn_worker(int slot)
{
	enum kind k = rnd_n(NR_KINDS);
	int g = rnd_home(true);
	char kind[4];
	pid_t pid;

	snprintf(kind, sizeof(kind), "%d", k);
	pid = spawn_self("worker", kind, "");
	if (pid < 0)
		return false;
	workers[slot] = pid;
	cg_attach(gname(g), pid);
	set_random_sched(pid);
	return true;
}

/* The file that lists a group's tasks, every thread. */
static const char *procs_file(void)
{
	return cg_v2() ? "cgroup.threads" : "tasks";
}

static bool holds_tasks(const char *group)
{
	char buf[16];

	cg_read_str(group, "cgroup.procs", buf, sizeof(buf));
	return buf[0] != 0;
}

static bool subtree_has_cpu(const char *group)
{
	char buf[256];

	cg_read_str(group, "cgroup.subtree_control", buf, sizeof(buf));
	return strstr(buf, "cpu") != NULL;
}

static bool op_create(void)
{
	int parent = rnd_group(true), slot = -1;
	long long period = (10 + rnd_n(20)) * 10000;	/* 100 to 290 ms */
	long long runtime = period * (1 + rnd_n(8)) / 100;
	char pname[sizeof(groups[0].name) + 16];

	if (parent >= 0 && groups[parent].depth >= 3)
		return false;
	/* v2: no children for a group with tasks (see rnd_home()). */
	if (cg_v2() && parent >= 0 && holds_tasks(gname(parent)))
		return false;
	for (int i = 0; i < MAX_GROUPS; i++)
		if (!groups[i].used) {
			slot = i;
			break;
		}
	if (slot < 0)
		return false;
	snprintf(pname, sizeof(pname), "%s", gname(parent));
	snprintf(groups[slot].name, sizeof(groups[slot].name), "%.64s%st%d",
		 pname, parent >= 0 ? "/" : "", next_id++);
	/*
	 * v2: the parent hands the controller down, once: every write of
	 * cgroup.subtree_control takes the cgroup locks and updates the
	 * csses below (about 100 ms a create here when written each time).
	 */
	if (cg_v2() && !subtree_has_cpu(pname) &&
	    cg_write(pname, "cgroup.subtree_control", "+cpu"))
		return false;
	if (mkdir(cg_path(groups[slot].name, ""), 0755))
		return false;
	groups[slot].used = true;
	groups[slot].depth = parent >= 0 ? groups[parent].depth + 1 : 1;
	/* Make room in the parent when it can grow; then the group's values. */
	if (parent >= 0) {
		long long q = 0;

		cg_read_ll(gname(parent), "cpu.rt_runtime_us", &q);
		cg_write_ll(gname(parent), "cpu.rt_runtime_us", q + runtime);
	}
	if (cg_v2()) {
		char val[64];

		snprintf(val, sizeof(val), "%lld %lld", runtime, period);
		if (cg_write(groups[slot].name, "cpu.rt.max", val))
			return false;
		snprintf(val, sizeof(val), "%lld %lld", runtime / (1 + rnd_n(2)), period);
		return !cg_write(groups[slot].name, "cpu.rt.tasks.max", val);
	}
	if (cg_write_ll(groups[slot].name, "cpu.rt_period_us", period) ||
	    cg_write_ll(groups[slot].name, "cpu.rt_runtime_us", runtime))
		return false;
	if (cg_has(groups[slot].name, "cpu.rt_task_runtime_us") &&
	    (cg_write_ll(groups[slot].name, "cpu.rt_task_period_us", period) ||
	     cg_write_ll(groups[slot].name, "cpu.rt_task_runtime_us",
			 runtime / (1 + rnd_n(2)))))
		return false;
	return true;
}

/* Removes a leaf group, killing its tasks first. */
static bool op_remove(void)
{
	int g = rnd_group(false);
	char path[4200], line[32];
	FILE *f;

	if (g < 0)
		return false;
	for (int i = 0; i < MAX_GROUPS; i++)
		if (groups[i].used && is_ancestor(g, i))
			return false;
	snprintf(path, sizeof(path), "%s", cg_path(groups[g].name, procs_file()));
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		pid_t pid = atoi(line);

		for (int i = 0; i < MAX_WORKERS; i++)
			if (workers[i] == pid) {
				workers[i] = 0;
				add_pending(pid);
			}
		kill(pid, SIGKILL);
	}
	if (f)
		fclose(f);
	/* A killed task of a throttled group dies when its group runs. */
	for (int i = 0; i < 50; i++) {
		if (!rmdir(cg_path(groups[g].name, ""))) {
			groups[g].used = false;
			return true;
		}
		sleep_ns(10 * NSEC_PER_MSEC);
	}
	return false;
}

static bool op_param(void)
{
	static const char *const files[] = {
		"cpu.rt_period_us", "cpu.rt_runtime_us",
		"cpu.rt_task_period_us", "cpu.rt_task_runtime_us",
	};
	static const char *const bad[] = {
		"-1", "", " ", "abc", "12abc", "0", "9223372036854775808",
		"18446744073709551616", "99999999999",
	};
	int g = rnd_group(false);
	const char *file = files[rnd_n(4)];
	long long v = 0;
	char val[32];

	if (g < 0 || !cg_has(gname(g), file))
		return false;
	if (!rnd_n(3))
		return !cg_write(gname(g), file, bad[rnd_n(9)]);
	cg_read_ll(gname(g), file, &v);
	/* Bigger or smaller, by up to half. */
	v += (rnd_n(2) ? 1 : -1) * (v / 2 + 1) * rnd_n(100) / 100;
	snprintf(val, sizeof(val), "%lld", v);
	return !cg_write(gname(g), file, val);
}

static pid_t rnd_worker(void)
{
	int i = rnd_n(MAX_WORKERS);

	return workers[i];
}

static bool op_move(void)
{
	pid_t pid = rnd_worker();
	int g = rnd_home(true);

	if (pid <= 0)
		return false;
	if (g < 0)
		set_sched(pid, SCHED_OTHER, 0);
	return !cg_attach(gname(g), pid);
}

static bool op_chrt(void)
{
	pid_t pid = rnd_worker();

	if (pid <= 0)
		return false;
	set_random_sched(pid);
	return true;
}

static bool op_affinity(void)
{
	pid_t pid = rnd_worker();
	cpu_set_t set;

	if (pid <= 0)
		return false;
	CPU_ZERO(&set);
	for (int c = 0; c < ncpus; c++)
		if (rnd_n(2))
			CPU_SET(c, &set);
	if (!CPU_COUNT(&set))
		CPU_SET(rnd_n(ncpus), &set);
	return !set_affinity(pid, &set);
}

/* A process in a random group, RT or not, forking short-lived children. */
static bool op_fork(void)
{
	int g = rnd_home(true), n = 5 + rnd_n(30);
	char count[12];
	pid_t pid;

	snprintf(count, sizeof(count), "%d", n);
	pid = spawn_self("storm", gname(g), count);
	if (pid < 0)
		return false;
	add_pending(pid);
	return true;
}

static bool op_kill(void)
{
	int i = rnd_n(MAX_WORKERS);

	if (workers[i] > 0) {
		kill(workers[i], SIGKILL);
		add_pending(workers[i]);
		workers[i] = 0;
	}
	return spawn_worker(i);
}

static int cpu_online_write(int cpu, int on)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

static bool op_hotplug(void)
{
	if (ncpus < 2 || traced)
		return false;
	return !cpu_online_write(1 + rnd_n(ncpus - 1), rnd_n(2));
}

/* Copies a file to stdout as TAP comments. */
static void dump_file(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		printf("# %s", line);
	if (f)
		fclose(f);
}

/* Every task in uninterruptible sleep: its name and kernel stack. */
static void dump_blocked(void)
{
	char path[300], line[256];
	struct dirent *d;
	DIR *dir = opendir("/proc");

	while (dir && (d = readdir(dir))) {
		char state = 0, *p;
		FILE *f;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')))
			state = p[2];
		fclose(f);
		if (state != 'D')
			continue;
		printf("# blocked: %s\n", line);
		snprintf(path, sizeof(path), "/proc/%s/stack", d->d_name);
		dump_file(path);
	}
	if (dir)
		closedir(dir);
}

/*
 * A watchdog (a normal task, which the fair server runs whatever RT does):
 * if the controller makes no progress for 20 s, it dumps the scheduler's
 * state and the blocked tasks once, for the post-mortem of a hang.
 */
static pid_t spawn_watchdog(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		unsigned long last = sh->heartbeat;
		int stale = 0;

		for (;;) {
			sleep_ns(5 * NSEC_PER_SEC);
			stale = sh->heartbeat == last ? stale + 1 : 0;
			last = sh->heartbeat;
			if (stale == 4) {
				printf("# watchdog: no progress for 20 s\n");
				dump_file("/sys/kernel/debug/sched/debug");
				dump_file("/proc/loadavg");
				dump_blocked();
				fflush(NULL);
			}
		}
	}
	return pid;
}

/*
 * CPU 0's stopper thread, migration/0: its CPU time is the time the
 * stop class (stop_machine of CPU hotplug, migrations) took from CPU 0.
 */
static pid_t stopper_pid;

static void find_stopper(void)
{
	char path[64], comm[32];

	for (int pid = 2; pid < 200 && !stopper_pid; pid++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "migration/0\n"))
			stopper_pid = pid;
		fclose(f);
	}
	if (!stopper_pid)
		ksft_print_msg("sentinel: no migration/0 found\n");
}

/* How many times the stopper went to sleep: one per round of work. */
static unsigned long stopper_rounds(void)
{
	char path[64], line[128];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", stopper_pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %lu", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/*
 * The sentinel: pinned to CPU 0 (which the churn never takes offline;
 * deadlines are guaranteed per CPU, and a job that migrates may find the
 * server of each CPU it arrives on with a later deadline), SCHED_FIFO 50
 * in its own group, a job of S_WCET_NS of CPU time every period until
 * the end.
 */
static pid_t spawn_sentinel(__u64 duration_ns, struct sentinel *st)
{
	const __u64 period = (__u64)S_PERIOD_US * NSEC_PER_USEC;
	const __u64 slack = (__u64)S_RUNTIME_US * NSEC_PER_USEC - S_WCET_NS;
	__u64 lat, prev_lat = 0, prev_end = 0;
	/* The job before: its lateness if it was late and excused, else 0. */
	__s64 prev_excused_late = 0;
	pid_t pid = rtedf_fork();
	int fd;

	if (pid)
		return pid;
	fd = open("/proc/thread-self/schedstat", O_RDONLY);
	if (fd < 0 || cg_attach(SENTINEL, getpid()) || pin_cpu(0, 0) ||
	    set_sched(0, SCHED_FIFO, 50))
		_exit(2);
	find_stopper();
	for (__u64 rel = now_ns() + 10 * NSEC_PER_MSEC, end = rel + duration_ns;
	     rel < end; rel += period) {
		__u64 c0, c, prev, s0, stop, stolen = 0, small = 0, q, f, d0, d1;
		unsigned long r0, rounds;
		bool excused = false;
		__s64 late;

		sched_stat(fd, &d0, NULL);
		lat = sleep_until_queued(fd, rel);
		r0 = stopper_rounds();
		s0 = stopper_pid ? cputime_ns(stopper_pid) : 0;
		/* Queued at rel + lat, or when the previous job ended. */
		q = rel + lat > prev_end ? rel + lat : prev_end;
		c0 = prev = thread_cputime_ns();
		do {
			c = thread_cputime_ns();
			if (c - prev > HOLE_NS)
				stolen += c - prev;
			else if (c - prev > SMALL_HOLE_NS)
				small += c - prev;
			prev = c;
		} while (c - c0 < S_WCET_NS);
		f = prev_end = now_ns();
		late = (__s64)(f - (rel + period));
		stop = stopper_pid ? cputime_ns(stopper_pid) - s0 : 0;
		rounds = stopper_rounds() - r0;
		if (stolen > st->max_stolen_ns)
			st->max_stolen_ns = stolen;
		if (stop > st->max_stopper_ns)
			st->max_stopper_ns = stop;
		st->stolen_ns += stolen;
		st->small_ns += small;
		st->stopper_ns += stop;
		st->wake_ns += lat;
		if (lat > st->max_wake_ns)
			st->max_wake_ns = lat;
		if (!st->jobs++ || late > st->max_lateness_ns)
			st->max_lateness_ns = late;
		if (late > 0) {
			struct late *l = &st->late[st->misses % LATE_RING];

			if (!st->misses && getenv("RTEDF_TORTURE_FREEZE"))
				tracefs_write("tracing_on", "0");

			l->release_ns = rel;
			l->late_ns = late;
			l->stolen_ns = stolen;
			l->stopper_ns = stop;
			l->rounds = rounds;
			l->small_ns = small;
			l->queued_ns = q - rel;
			/* Not running: queued (its schedstat's run delay), or asleep. */
			sched_stat(fd, &d1, NULL);
			l->waited_ns = f - q > c - c0 ? f - q - (c - c0) : 0;
			l->blocked_ns = l->waited_ns > d1 - d0 ? l->waited_ns - (d1 - d0) : 0;
			l->waited_ns -= l->blocked_ns;
			l->wake_ns = lat > prev_lat ? lat : prev_lat;
			excused = stolen + (rounds <= STOP_ROUNDS ? stop : 0) + l->wake_ns > slack ||
				  (q > rel + lat && late <= prev_excused_late);
			st->excused += excused;
			/* The record before the count: the controller reads it after. */
			__atomic_store_n(&st->misses, st->misses + 1, __ATOMIC_RELEASE);
		}
		prev_excused_late = late > 0 && excused ? late : 0;
		prev_lat = lat;
	}
	_exit(0);
}

/*
 * The operations that ended after a late sentinel job's release (its
 * deadline is one period later; it finished after that).
 */
static void show_miss(const struct sentinel *st, unsigned long n,
		      unsigned long total, __u64 t0)
{
	const struct late *l = &st->late[(n - 1) % LATE_RING];
	__u64 rel = l->release_ns;

	ksft_print_msg("sentinel: miss %lu, job released at %.3f s, queued %.3f ms after, %.3f ms late, %.3f ms charged while not running, stopper %.3f ms in %lu rounds, wakeup latency %.3f ms; %.3f ms in jumps of %lu-%lu us, %.3f ms waiting while queued, %.3f ms asleep in the job; operations since:\n",
		       n, (rel - t0) / 1e9, l->queued_ns / 1e6, l->late_ns / 1e6,
		       l->stolen_ns / 1e6, l->stopper_ns / 1e6, l->rounds,
		       l->wake_ns / 1e6, l->small_ns / 1e6,
		       (unsigned long)(SMALL_HOLE_NS / NSEC_PER_USEC),
		       (unsigned long)(HOLE_NS / NSEC_PER_USEC),
		       l->waited_ns / 1e6, l->blocked_ns / 1e6);
	for (unsigned long i = total > OPLOG ? total - OPLOG : 0; i < total; i++) {
		typeof(oplog[0]) *o = &oplog[i % OPLOG];

		if (o->end_ns >= rel)
			ksft_print_msg("  %.3f-%.3f s: %s (%s)\n",
				       (o->start_ns - t0) / 1e9,
				       (o->end_ns - t0) / 1e9, op_names[o->op],
				       o->ok ? "accepted" : "refused");
	}
}

/* Every task of the churn's groups to the root group, SCHED_OTHER, killed. */
static void evacuate(void)
{
	for (int i = 0; i < MAX_GROUPS; i++) {
		/* A storm may fork while it is moved: until none is left. */
		for (int n = 1, round = 0; groups[i].used && n && round < 20; round++) {
			FILE *f = fopen(cg_path(groups[i].name, procs_file()), "r");
			int pid;

			n = 0;
			while (f && fscanf(f, "%d", &pid) == 1) {
				set_sched(pid, SCHED_OTHER, 0);
				cg_attach("", pid);
				kill(pid, SIGKILL);
				n++;
				sh->heartbeat++;
			}
			if (f)
				fclose(f);
		}
	}
}

/* Every task there is: its group, CPUs and priority. */
static void mark_all(void)
{
	sched_trace_mark_group("");
	sched_trace_mark_group(SENTINEL);
	for (int i = 0; i < MAX_GROUPS; i++)
		if (groups[i].used)
			sched_trace_mark_group(groups[i].name);
}

/*
 * Starts the trace of the churn's end, every task marked first (those
 * forked later inherit their parent's marks).
 */
static bool start_trace(void)
{
	if (sched_trace_start_with(mark_all)) {
		ksft_print_msg("no tracing: the schedule is not checked\n");
		return false;
	}
	return true;
}

static bool (*const ops[NR_OPS])(void) = {
	op_create, op_remove, op_param, op_move, op_chrt, op_affinity,
	op_fork, op_kill, op_hotplug,
};

/* Bandwidth the root still hands out, in 1e-6 of a CPU, from the files. */
static long long ppm(const char *group, const char *period, const char *runtime)
{
	long long p = 1, q = 0;

	cg_read_ll(group, period, &p);
	cg_read_ll(group, runtime, &q);
	return q * 1000000 / p;
}

/* The root's reservation: on v2, which has no cpu.rt.max there, the global limit. */
static long long root_ppm(void)
{
	long long p = 1, q = 0;
	FILE *f;

	if (!cg_v2())
		return ppm("", "cpu.rt_period_us", "cpu.rt_runtime_us");
	f = fopen("/proc/sys/kernel/sched_rt_period_us", "r");
	if (f && fscanf(f, "%lld", &p) != 1)
		p = 1;
	if (f)
		fclose(f);
	f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
	if (f && fscanf(f, "%lld", &q) != 1)
		q = 0;
	if (f)
		fclose(f);
	return q * 1000000 / p;
}

/*
 * Three runs on PREEMPT_RT lost the torture's results after the first
 * line of its closing report, the program exiting with status 0
 * (docs/history.md): a write to stdout (the guest's ttyS1) failed, or
 * what was written never left the guest.  If stdout saw an error, say so
 * on the console, with what a write gets now, the file's flags and
 * ttyS1's counters, so that the next loss tells which.
 */
static void report_stdout(void)
{
	char line[256], path[64];
	int kmsg, err;
	ssize_t w;
	FILE *f;

	if (!fflush(stdout) && !ferror(stdout))
		return;
	clearerr(stdout);
	w = write(STDOUT_FILENO, "# stdout: a write failed\n", 25);
	err = errno;
	kmsg = open("/dev/kmsg", O_WRONLY);
	if (kmsg < 0)
		return;
	dprintf(kmsg, "<3>torture: a write to stdout failed; another now returns %zd (%s)\n",
		w, w < 0 ? strerror(err) : "ok");
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", getpid(), STDOUT_FILENO);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags:", 6))
			dprintf(kmsg, "<3>torture: stdout %s", line);
	if (f)
		fclose(f);
	f = fopen("/proc/tty/driver/serial", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "1:", 2))
			dprintf(kmsg, "<3>torture: ttyS%s", line);
	if (f)
		fclose(f);
	close(kmsg);
}

int main(int argc, char **argv)
{
	const char *env = getenv("RTEDF_TORTURE");
	const char *clock;
	unsigned long seconds = 20, seed = 1, total = 0;
	struct sentinel *st;
	__u64 t0, end, op_ns[NR_OPS] = { 0 };
	unsigned long seen_misses = 0;
	long long free_ppm;
	pid_t sentinel, watchdog;
	bool all_reaped = true, all_removed = true, online = true, tracing = false;
	int err;

	/* A spawned worker or storm (spawn_self()). */
	if (argc == 6) {
		prctl(PR_SET_NAME, argv[1]);
		rng = strtoull(argv[4], NULL, 10) | 1;
		sh = map_shared(atoi(argv[5]));
		if (!strcmp(argv[1], "worker"))
			worker(atoi(argv[2]));
		storm(argv[2], atoi(argv[3]));
	}

	if (env && sscanf(env, "%lu:%lu:%d", &seconds, &seed, &trace) == 3 && trace)
		trace = open("/dev/kmsg", O_WRONLY);
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	rtedf_init();
	ksft_set_plan(6);
	ncpus = nr_cpus();
	clock = getenv("RTEDF_CLOCK");
	traced = ncpus > 1 && clock && !strcmp(clock, "icount");
	ksft_print_msg("torture: %lu s, seed %lu, %d CPUs%s\n", seconds, seed, ncpus,
		       traced ? ", no hotplug, the last seconds traced" : "");

	shm_fd = memfd_create("torture-locks", 0);
	if (shm_fd < 0 || ftruncate(shm_fd, sizeof(*sh)))
		die("making the shared memfd");
	sh = map_shared(shm_fd);
	for (int i = 0; i < NLOCKS; i++)
		if (pi_mutex_init(&sh->lock[i], true))
			die("making the PI mutexes");

	cg_remove(SENTINEL);
	if (cg_group(SENTINEL, S_PERIOD_US, S_RUNTIME_US))
		die("setting up the sentinel reservation");
	st = shared_alloc(sizeof(*st));
	sentinel = spawn_sentinel(seconds * NSEC_PER_SEC, st);
	if (sentinel < 0)
		die("starting the sentinel");

	watchdog = spawn_watchdog();

	/* The controller: top priority in the root group, on time. */
	set_sched(0, SCHED_FIFO, 99);
	for (int i = 0; i < MAX_WORKERS / 2; i++)
		spawn_worker(i);

	t0 = now_ns();
	end = t0 + seconds * NSEC_PER_SEC;
	while (now_ns() < end) {
		int w = rnd_n(100), o = 0;
		bool ok;

		if (traced && !tracing && now_ns() + TRACE_NS >= end)
			tracing = start_trace();

		for (int sum = op_weight[0]; o < NR_OPS - 1 && w >= sum;)
			sum += op_weight[++o];
		ops_done[o]++;
		if (trace)
			dprintf(trace, "<4>torture: op %lu %s\n", total, op_names[o]);
		oplog[total % OPLOG].start_ns = now_ns();
		ok = ops[o]();
		ops_ok[o] += ok;
		oplog[total % OPLOG].end_ns = now_ns();
		oplog[total % OPLOG].op = o;
		oplog[total % OPLOG].ok = ok;
		op_ns[o] += oplog[total % OPLOG].end_ns - oplog[total % OPLOG].start_ns;
		total++;
		for (unsigned long m = __atomic_load_n(&st->misses, __ATOMIC_ACQUIRE);
		     seen_misses < m; ) {
			/* Overwritten records (more than LATE_RING behind): skipped. */
			if (m - seen_misses > LATE_RING)
				seen_misses = m - LATE_RING;
			show_miss(st, ++seen_misses, total, t0);
		}
		sh->heartbeat = total;
		reap_pending(0);
		sleep_ns((1 + rnd_n(10)) * NSEC_PER_MSEC);
	}

	if (tracing)
		sched_trace_save("torture");
	for (int o = 0; o < NR_OPS; o++)
		ksft_print_msg("%-8s %6lu done, %6lu accepted, %8.1f ms in all\n", op_names[o],
			       ops_done[o], ops_ok[o], op_ns[o] / 1e6);

	/* All CPUs back. */
	for (int c = 1; c < ncpus; c++)
		cpu_online_write(c, 1);
	for (int c = 1; c < sysconf(_SC_NPROCESSORS_CONF); c++) {
		char path[64];
		long long on = 1;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		f = fopen(path, "r");
		if (f && fscanf(f, "%lld", &on) == 1 && !on)
			online = false;
		if (f)
			fclose(f);
	}

	/* The sentinel stops by itself at the end. */
	if (waitpid(sentinel, &err, 0) < 0 || !WIFEXITED(err) || WEXITSTATUS(err))
		ksft_print_msg("the sentinel failed (status %#x)\n", err);
	ksft_print_msg("sentinel: %lu jobs, %lu late (%lu of them after more than the slack was taken from it), worst lateness %lld us\n",
		       st->jobs, st->misses, st->excused,
		       (long long)st->max_lateness_ns / 1000);
	ksft_print_msg("sentinel: CPU time charged while not running: %.1f ms in all, %.1f ms in one job at worst (and %.1f ms in jumps of %lu-%lu us)\n",
		       st->stolen_ns / 1e6, st->max_stolen_ns / 1e6,
		       st->small_ns / 1e6,
		       (unsigned long)(SMALL_HOLE_NS / NSEC_PER_USEC),
		       (unsigned long)(HOLE_NS / NSEC_PER_USEC));
	ksft_print_msg("sentinel: CPU 0's stopper ran %.3f ms during jobs in all, %.3f ms during one job at worst\n",
		       st->stopper_ns / 1e6, st->max_stopper_ns / 1e6);
	ksft_print_msg("sentinel: wakeup latency %.3f ms on average, %.3f ms at worst\n",
		       st->jobs ? st->wake_ns / 1e6 / st->jobs : 0, st->max_wake_ns / 1e6);

	/*
	 * Every worker dies and is reaped.  A killed task of a throttled
	 * group exits only on its group's budget, a few ms per period of up
	 * to 290 ms, and an exit costs ms on the debug kernel; a fork storm
	 * of 35 children in a group of 0.24 ms every 159 ms needs minutes.
	 * So, as an administrator would, move every task of the churn's
	 * groups to the root group as SCHED_OTHER, then kill it, and give
	 * them 30 s.
	 */
	for (int i = 0; i < MAX_WORKERS; i++)
		if (workers[i] > 0) {
			kill(workers[i], SIGKILL);
			add_pending(workers[i]);
			workers[i] = 0;
		}
	evacuate();
	all_reaped = reap_pending(now_ns() + 30 * NSEC_PER_SEC);
	for (int i = 0; i < nr_pending; i++)
		ksft_print_msg("task %d was not reaped\n", pending[i]);

	/* Every group can be removed, deepest first. */
	for (int depth = 3; depth >= 1; depth--)
		for (int i = 0; i < MAX_GROUPS; i++) {
			if (!groups[i].used || groups[i].depth != depth)
				continue;
			err = -1;
			for (int t = 0; t < 100 && err; t++) {
				err = rmdir(cg_path(groups[i].name, ""));
				if (err)
					sleep_ns(20 * NSEC_PER_MSEC);
			}
			if (err) {
				ksft_print_msg("%s cannot be removed: %s\n",
					       groups[i].name, strerror(errno));
				all_removed = false;
			}
		}

	/*
	 * Admission state: with only the sentinel left, the root hands out
	 * its own tasks' share and the sentinel's; a group of what remains
	 * (to 0.1%) must fit and one 0.1% larger must not.
	 */
	free_ppm = root_ppm() - ppm(SENTINEL, "cpu.rt_period_us", "cpu.rt_runtime_us");
	if (cg_has("", "cpu.rt_task_runtime_us"))
		free_ppm -= ppm("", "cpu.rt_task_period_us", "cpu.rt_task_runtime_us");
	{
		bool fits, over;

		cg_remove("probe");
		fits = !cg_group("probe", 1000000, free_ppm - 1000);
		over = cg_write_ll("probe", "cpu.rt_runtime_us", free_ppm + 1000) == -EBUSY;
		ksft_print_msg("free bandwidth %lld ppm: %s, +0.1%%: %s\n", free_ppm,
			       fits ? "fits" : "refused", over ? "refused" : "accepted");
		cg_remove("probe");
		ksft_test_result(fits && over,
				 "admission hands out exactly what the surviving groups leave\n");
	}
	cg_remove(SENTINEL);
	stop_child(watchdog);

	/* The controller sleeps 1-10 ms between operations; hotplug is slow. */
	ksft_test_result(total > seconds * 3,
			 "the churn ran (%lu operations)\n", total);
	/* An outcome in time: not judged with vCPUs waiting for host CPUs. */
	outcome_result(st->jobs > 0 && st->misses == st->excused,
		       "the sentinel reservation missed no deadline");
	ksft_test_result(all_reaped, "every task died and was reaped\n");
	ksft_test_result(all_removed, "every group could be removed\n");
	ksft_test_result(online, "every CPU is back online\n");
	report_stdout();
	ksft_finished();
}
