/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the rt-edf guest tests: cgroup v1 'cpu' setup, RT
 * policy changes, busy and periodic workers, CPU share measurement.
 * Every test is a static program printing kselftest TAP on stdout.
 */
#ifndef RTEDF_H
#define RTEDF_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kselftest.h"

/*
 * Where the groups are: the cgroup v1 cpu,cpuacct hierarchy the tests
 * mount, or with RTEDF_CGROUP=v2 (rtedf.cgroup=v2 on the guest's command
 * line) the cgroup2 hierarchy, mounted as systemd does.
 */
#define CG_ROOT_V1 "/sys/fs/cgroup/cpu"
#define CG_ROOT_V2 "/sys/fs/cgroup"
bool cg_v2(void);

/* What the tests leave to the root group's own RT tasks (of 1 s). */
#define ROOT_TASK_RUNTIME_US	50000
/*
 * On PREEMPT_RT the root's own tasks include the threaded interrupt
 * handlers, which may wait up to a period of that reservation for it
 * (Documentation/scheduler/sched-rt-group.rst, section 0; irq_thread.c).
 * The suite still leaves them 50 ms of every second there: at 1 ms every
 * 20 ms (ROOT_TASK_PERIOD_RT_US, the same 5%) the serial port's handler
 * fell so far behind in a trace dump on 2 vCPUs that the kernel
 * disabled its interrupt ("irq 3: nobody cared") and the run hung.
 */
#define ROOT_TASK_PERIOD_RT_US	20000
/* Is the kernel built with PREEMPT_RT? */
bool preempt_rt(void);
/*
 * rt-edf: reserves runtime_us every period_us for the root's own tasks,
 * through a small runtime (100 us), so that no step is refused; 0 or
 * -errno.
 */
int root_own_reserve(long long runtime_us, long long period_us);
/* What the tests leave to the root's own tasks, as cg_mount() sets it. */
void root_own_default(void);

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/*
 * Mounts the hierarchy unless it is; exits on failure.  On v2, cgroup2
 * with nsdelegate at CG_ROOT_V2; cg_group() enables the cpu controller
 * where it makes a group.
 */
void cg_mount(void);
/* Line-buffers stdout, prints the TAP header, mounts the hierarchy. */
void rtedf_init(void);
/*
 * For a test of the v1 files themselves: on cgroup v2, one point skipped
 * (cgroup_v2.c tests the v2 files) and the program exits.
 */
void v1_interface_only(void);
/*
 * For a test of cgroup v2: elsewhere, its plan of points skipped and the
 * program exits.
 */
void v2_only(int plan);

/* "<root>/<group>/<file>"; group "" is the root.  Static buffer. */
const char *cg_path(const char *group, const char *file);
bool cg_has(const char *group, const char *file);
/* Writes the string as one write(2); returns 0 or -errno. */
int cg_write(const char *group, const char *file, const char *val);
int cg_write_ll(const char *group, const char *file, long long val);
/* Reads a number; returns 0 or -errno. */
int cg_read_ll(const char *group, const char *file, long long *val);
/*
 * Creates (or reuses) a group and gives it runtime every period (us); on
 * v2 in one write of cpu.rt.max, after enabling the cpu controller in the
 * parent's cgroup.subtree_control.
 */
int cg_group(const char *group, long long period_us, long long runtime_us);
/* Removes a group (it must hold no task).  Returns 0 or -errno. */
int cg_remove(const char *group);
/* Moves pid (0: the caller) to group: 'tasks' on v1, 'cgroup.procs' on v2. */
/*
 * The text of a group's file without its last newline (cut to len - 1;
 * "" and an error if it cannot be read); whether it is want; the value
 * of key in a flat-keyed file such as cpu.stat or cpu.rt.stat, or -1.
 */
int cg_read_str(const char *group, const char *file, char *buf, size_t len);
/* The same of any file: its first len - 1 bytes, without a final newline. */
int read_str(const char *path, char *buf, size_t len);
bool cg_file_is(const char *group, const char *file, const char *want);
long long cg_stat_key(const char *group, const char *file, const char *key);
int cg_attach(const char *group, pid_t pid);
/*
 * Moves one thread to group: as cg_attach() on v1; on v2, where the
 * threads of a process share its cgroup unless they are in threaded
 * groups of its domain, makes group threaded (it must be a child of the
 * process's group, and empty) and writes cgroup.threads.
 */
int cg_attach_thread(const char *group, pid_t tid);
/* The group directory's inode number: its cgroup id, or -1. */
long long cg_ino(const char *group);
/* True when pid is in group (as /proc/<pid>/cgroup says). */
bool cg_contains(const char *group, pid_t pid);

int set_sched(pid_t pid, int policy, int prio);
/*
 * sched_setaffinity(), the change marked in the trace: pid is not judged
 * while the kernel moves it (rtedf_moving), then has its new CPUs.
 */
int set_affinity(pid_t pid, const cpu_set_t *set);
int pin_cpu(pid_t pid, int cpu);
int nr_cpus(void);

uint64_t now_ns(void);
void sleep_ns(uint64_t ns);
/* Sleeps until now_ns() >= t. */
void sleep_until(uint64_t t);
/* CPU time consumed by process pid so far, in ns. */
uint64_t cputime_ns(pid_t pid);

/*
 * Forks a child that joins group, pins itself to cpu (-1: any), takes the
 * policy and priority, then spins until killed.  Returns its pid once it
 * runs with the policy, or -1.
 */
pid_t spawn_busy(const char *group, int policy, int prio, int cpu);
/*
 * The same, but the child blocks until start_ns (CLOCK_MONOTONIC) before it
 * spins, so that several workers start in phase: their timers expire
 * together, and one timer interrupt per CPU wakes all of them at once, so
 * their servers start within microseconds of each other.  (A pipe or
 * futex woken by the parent would release them one after the other, and a
 * woken worker can preempt the parent or hold the pipe's lock.)  start_ns
 * must leave time to spawn them all: check with start_in_future().
 */
pid_t spawn_busy_at(const char *group, int policy, int prio, int cpu,
		    uint64_t start_ns);
/*
 * The same, but the child exits by itself at end_ns: where nothing
 * stops it, a busy task may starve the program that would kill it.
 */
pid_t spawn_busy_until(const char *group, int policy, int prio, int cpu,
		       uint64_t start_ns, uint64_t end_ns);
/*
 * The same, unpinned, but the child sleeps on home_cpu and lets go of it
 * only once woken at start_ns: workers with different home CPUs then wake
 * on their own CPUs, each by its CPU's timer, rather than all on the CPU
 * they were forked on, from where all but one would have to be pushed
 * away (which takes up to a millisecond under QEMU and would start their
 * servers out of phase).
 */
pid_t spawn_busy_from(const char *group, int policy, int prio, int home_cpu,
		      uint64_t start_ns);
/* Fails the program if start_ns has passed (workers started out of phase). */
void start_in_future(uint64_t start_ns);
/* fork() for the tests, with stdio flushed first. */
pid_t rtedf_fork(void);
/*
 * Wait for the child pid: did it exit with status 0?  If not, say how it
 * ended, naming it name.
 */
bool child_exited_ok(const char *name, pid_t pid);
void stop_child(pid_t pid);
/* The state letter of /proc/<pid>/stat ('R', 'S', ...), or 0 if gone. */
char proc_state(pid_t pid);
/* Forks a child that sleeps until killed, where it is (SCHED_OTHER). */
pid_t spawn_sleeper(void);

/*
 * Runs the calling measurer at SCHED_FIFO 99 in the root group (so that it
 * samples on time), waits window_ns and stores in permille[i] the share of
 * one CPU that pids[i] received over the window.
 */
void measure_permille(const pid_t *pids, int n, uint64_t window_ns,
		      double *permille);
/*
 * The same over [start_ns, start_ns + window_ns) (CLOCK_MONOTONIC, as
 * now_ns()).  A window of whole periods of a periodic schedule holds
 * exactly its share, whatever its phase; one that starts and ends where
 * the measured tasks are throttled does not depend on the measurer's own
 * wakeup latency either.
 */
void measure_permille_at(const pid_t *pids, int n, uint64_t start_ns,
			 uint64_t window_ns, double *permille);

/* Burns ns of the calling thread's CPU time. */
void burn_cpu(uint64_t ns);
/*
 * The calling thread, every period_ns from t0 for run_ns: released on CPU
 * 0 (it pins itself there and lets go again, to CPUs 0 and 1), it burns
 * work_ns; *worst is its worst response (release to the end of the work).
 * Exits the process at the end (a forked child's body).
 */
void periodic_from_cpu0(uint64_t t0, uint64_t run_ns, uint64_t period_ns,
			uint64_t work_ns, uint64_t *worst);
/* The calling thread's CPU time, in ns. */
uint64_t thread_cputime_ns(void);

/*
 * Host stalls, as the workers see them.  On plain TCG a vCPU thread the
 * host does not run for a while looks to the guest like a CPU that ran
 * its current task all along: the task is charged the time as CPU time.
 * After stall_log_start() (in the parent, before it forks the workers),
 * burn_cpu() and the busy workers read their thread CPU time in their
 * loops, and a jump of more than STALL_NS between two reads (an interrupt
 * takes tens of microseconds) is logged, in shared memory, as a stall of
 * that length on that CPU from the first read.  A stall while a CPU idles
 * is not seen: it only delays a wakeup, which the periodic workers
 * measure themselves.
 */
#define STALL_NS	(200 * NSEC_PER_USEC)
void stall_log_start(void);
/*
 * How much of [from_ns, to_ns] (CLOCK_MONOTONIC) a logged stall on one of
 * the CPUs of the mask cpus (bit n: CPU n) covered.
 */
uint64_t stall_overlap_ns(uint64_t from_ns, uint64_t to_ns, uint64_t cpus);
/* The logged stalls: how many, their total length, how many not logged. */
unsigned long stall_count(uint64_t *total_ns, unsigned long *dropped);

/* Writes val to the file (truncated); returns 0 or -errno. */
int write_file(const char *path, const char *val);
/* Where the tests find tracefs (the initramfs mounts it). */
#define TRACEFS "/sys/kernel/tracing"
/* Writes val to the tracefs file; returns 0 or -errno. */
int tracefs_write(const char *file, const char *val);
/* The number after " key=" in a trace line, or -1. */
long long trace_field(const char *s, const char *key);
/*
 * The schedule of a test, for the host's checker (schedcheck.py): starts
 * tracing the switches, wakeups, migrations, forks, PI priority changes
 * and sched_rt_* events with the global clock, then stops and saves the
 * trace as SCHED_TRACE_DIR/name.txt, which /init sends to the host after
 * the test.
 * Groups, CPUs and priorities of the test's tasks are marked in the
 * trace by cg_attach(), set_affinity(), pin_cpu() and set_sched().
 */
#define SCHED_TRACE_DIR "/tmp/rtedf-trace"
int sched_trace_start(void);
int sched_trace_save(const char *name);
/*
 * sched_trace_start(), then mark() writes its marks: the checker judges
 * the schedule only from their end on.
 */
int sched_trace_start_with(void (*mark)(void));
/*
 * Marks group's tasks (their group, CPUs and priority) in a trace started
 * while they already ran, and the group as one whose servers' state the
 * checker learns from their events; returns how many, or -errno.  Tasks forked
 * while tracing take their parent's group and CPUs (sched_process_fork),
 * and set_sched() marks a new priority.
 */
int sched_trace_mark_group(const char *group);
/* Marks pid's CPUs (0: the calling thread's) after a sched_setaffinity(). */
void sched_trace_mark_affinity(pid_t pid);
/*
 * Are outcomes in time (deadlines met, shares) judged on this run?  Not
 * under QEMU's icount on several vCPUs, where one host thread runs the
 * vCPUs in turn and a busy vCPU stands still, its clock going on, for
 * milliseconds while the others run (vcpu_stall): there the trace of the
 * schedule is the verdict (sched_trace_save(), schedcheck.py), and the
 * outcome points skip.  Nor on plain TCG with more vCPUs than host CPUs
 * (RTEDF_CLOCK=tcg-shared, scripts/qemu-run.sh), where vCPU threads wait
 * for a host CPU.  On one vCPU, on plain TCG (on_host_clock()) and on
 * real CPUs they are judged.
 */
bool outcomes_judged(void);
/* Plain TCG: the vCPUs run in parallel on the host's clock (run tcg2). */
bool on_host_clock(void);
/*
 * The TAP point name (no newline) for an outcome in time: passed or
 * failed by ok where outcomes_judged(), skipped (under its own name)
 * elsewhere.  Inline: the kselftest counters are the test's own.
 */
static inline void outcome_result(bool ok, const char *name)
{
	if (outcomes_judged()) {
		ksft_test_result(ok, "%s\n", name);
		return;
	}
	ksft_print_msg("outcomes in time are not judged on this clock (%s, %d vCPUs)\n",
		       getenv("RTEDF_CLOCK"), nr_cpus());
	ksft_test_result_skip("%s\n", name);
}
/* Sets a scheduler feature ("HRTICK_RT", "NO_HRTICK_RT"); 0 or -errno. */
int sched_feature(const char *feat);
/* Whether a scheduler feature is on: 1, 0, or -1 if unknown. */
int sched_feature_on(const char *feat);

#define LATE_LOG	32

/* What a periodic worker saw; lives in memory shared with the parent. */
struct periodic_stats {
	unsigned long jobs;
	unsigned long misses;		/* jobs finished after their deadline */
	int64_t max_lateness_ns;	/* finish - deadline, worst job */
	uint64_t cputime_ns;
	/* release to wakeup (queued on a runqueue), worst job */
	uint64_t max_wake_latency_ns;
	/* over late jobs: lateness - wakeup latency (see periodic_met()) */
	int64_t max_late_past_wake_ns;
	/* the first LATE_LOG late jobs, for periodic_unexplained() */
	struct late_job {
		uint64_t release_ns, queued_ns, deadline_ns, finish_ns;
		uint64_t wake_ns;	/* max(l, l') of periodic_met() */
		uint64_t cpus;		/* where it started and ended its work */
	} late[LATE_LOG];
};

/*
 * Forks a periodic worker in group, pinned to cpu (-1: any) at SCHED_FIFO
 * prio: every period_ns from its first release it needs wcet_ns of CPU
 * time, and its deadline is the next release.  It stops after
 * duration_ns; collect it with wait_periodic().
 */
pid_t spawn_periodic(const char *group, int prio, int cpu, uint64_t wcet_ns,
		     uint64_t period_ns, uint64_t duration_ns,
		     struct periodic_stats **stats);
/*
 * The same with the first release at release_ns (CLOCK_MONOTONIC, in the
 * future), so that several workers are released in phase.
 */
pid_t spawn_periodic_at(const char *group, int prio, int cpu, uint64_t wcet_ns,
			uint64_t period_ns, uint64_t release_ns,
			uint64_t duration_ns, struct periodic_stats **stats);
/* The same, unpinned from its first release on; until then on home_cpu. */
pid_t spawn_periodic_from(const char *group, int prio, int home_cpu,
			  uint64_t wcet_ns, uint64_t period_ns,
			  uint64_t release_ns, uint64_t duration_ns,
			  struct periodic_stats **stats);
/*
 * The same, but it leaves cpu unpinned before it first sleeps: its first
 * release wakes it on cpu, from where the scheduler may place it anywhere.
 */
pid_t spawn_periodic_near(const char *group, int prio, int cpu,
			  uint64_t wcet_ns, uint64_t period_ns,
			  uint64_t release_ns, uint64_t duration_ns,
			  struct periodic_stats **stats);
/*
 * Did a periodic worker that needs C every P in a server of Q every P
 * (slack_ns = Q - C) meet every deadline the reservation promises?  The
 * server promises Q within P of the instant the task is queued.  A job
 * released at r and queued at r + l either gets a full budget with the
 * server deadline r + l + P (the wakeup rule), or keeps what the previous
 * job (queued at r - P + l') left until r + l', and a full budget with
 * the deadline r + l' + P after that.  Either way it has its C by
 * r + P + max(l, l') - (Q - C).  So a job is late by the reservation's
 * terms only when its lateness exceeds max(l, l') - (Q - C); the latency
 * from the timer to the wakeup is the kernel's interrupt latency, not
 * the scheduler's (on the debug kernel it can reach hundreds of
 * microseconds).
 */
bool periodic_met(const struct periodic_stats *st, uint64_t slack_ns);
/*
 * The late jobs that host stalls do not explain: those whose lateness
 * exceeds their wakeup latency (as above) plus the stalls logged (see
 * stall_log_start()) between the instant they were queued and their
 * finish, on the CPUs where they started and ended their work (a job
 * waits behind the task a stall is charged to there).  A late job beyond
 * the first LATE_LOG counts as unexplained.
 */
unsigned long periodic_unexplained(const struct periodic_stats *st);
/*
 * sleep_until(release), then the wakeup latency: from release to the
 * instant the thread was queued (0 if release had passed), from its
 * schedstat run delay; fd: /proc/thread-self/schedstat, opened once.
 */
uint64_t sleep_until_queued(int fd, uint64_t release);
/*
 * From a task's /proc/PID/schedstat opened at FD: the time it has waited
 * on a run queue (ns) and, if RUNS is not NULL, how many times it ran.
 */
void sched_stat(int fd, uint64_t *delay, unsigned long long *runs);
/* Waits for the worker; returns its stats (unmapped by the next call). */
struct periodic_stats *wait_periodic(pid_t pid, struct periodic_stats *stats);
/* Shared anonymous memory for results of a child. */
void *shared_alloc(size_t size);
/* A PTHREAD_PRIO_INHERIT mutex shared between processes (robust: also
 * PTHREAD_MUTEX_ROBUST); 0 on success. */
int pi_mutex_init(pthread_mutex_t *m, bool robust);

/*
 * rt-app (Debian's 1.0), the community's load generator: one process
 * whose threads run the tasks of a JSON file.  It has no task groups:
 * rtapp_run() starts it on json (whose threads must "delay" their start,
 * say 100 ms), moves each thread named threads[i] into groups[i] (by its
 * name, during that delay), waits for it, and returns how many threads
 * it moved, or -1 when rt-app failed.
 */
int rtapp_run(const char *json, const char *const *threads,
	      const char *const *groups, int n);
/*
 * One thread's rt-app log (one line per job): the jobs, the late ones (a
 * negative slack: the job ended after its timer's next expiry, its
 * deadline), the worst lateness and the median time its "run" events
 * took; 0, or -1 without a log.
 */
struct rtapp_stats {
	unsigned long jobs, misses;
	long long max_late_ns;
	long long median_run_us;
};
int rtapp_log(const char *path, struct rtapp_stats *st);
/*
 * rt-app's "run" is a loop calibrated in ns per loop; its own calibration
 * takes seconds of floating-point loops (slow to emulate), so measure it:
 * runs of 200000 loops at 100 ns per loop, SCHED_OTHER alone on the CPU,
 * and the median time they took.  Returns ns per loop, or -1.
 */
long rtapp_calibrate(void);

/* Fails the whole test program with a TAP bail-out. */
#define die(fmt, ...) ksft_exit_fail_msg(fmt ": %s\n", ##__VA_ARGS__, strerror(errno))

#endif
