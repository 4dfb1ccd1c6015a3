// SPDX-License-Identifier: GPL-2.0
/*
 * A migrate-disabled task waiting behind a task of its group runs as soon
 * as another CPU can take the task that runs: the scheduler pushes the
 * running task away (push_cpu_stop()), since the waiting one cannot move.
 * On PREEMPT_RT every spinlock section is migrate-disabled; here a
 * seccomp filter, which runs with migration disabled
 * (bpf_prog_run_pin_on_cpu()), holds the task so for almost all of its
 * time.  On 2 CPUs or more, group md (500 ms / 1 s, so that nothing here
 * throttles it), from t0:
 *
 *  - lo, SCHED_FIFO 70, may run on CPUs 0 and 1 but starts on CPU 0 and
 *    makes system calls through a stack of seccomp filters of 28000
 *    instructions (hundreds of microseconds each, migrate-disabled);
 *  - x, SCHED_FIFO 90, busy on CPU 1 until t0 + 100 ms, then exits;
 *  - hi, SCHED_FIFO 80, wakes on CPU 0 at t0 + 20 ms, preempting lo inside
 *    a filter, lets itself run on CPUs 0 and 1, and stays busy until
 *    t0 + 300 ms.
 *
 * When x exits, CPU 1 idles and pulls: lo waits there for its group, but
 * it cannot move, so hi must go to CPU 1 and lo run on CPU 0.  lo's CPU
 * time between t0 + 110 ms and t0 + 300 ms must then be at least half of
 * those 190 ms: the push takes microseconds, the rest of the window is
 * lo's (its group has budget for it), and half leaves room for anything
 * the emulator does; where hi is not pushed, lo gets nothing until hi
 * ends.  CPU time is charged by the guest's own clock, also while a vCPU
 * stands still under icount, so the point is judged there too; the
 * schedule is traced and judged by schedcheck.py as well.
 *
 * Fails on the series before the push of the running task was handled
 * again (d5f4cf8): rt_group_find_cpu() had no CPU for a running task, and
 * lo got 0.9 ms of the window on 2 vCPUs under icount (184.7 ms with the
 * fix, 189.9 ms on stock).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define G		"md"
#define NFILTERS	7
#define FILTER_LEN	4000
#define MS		NSEC_PER_MSEC
#define MSG		"a migrate-disabled task behind a task of its group runs once another CPU can take that task"

static struct sock_filter insns[FILTER_LEN];

/*
 * NFILTERS filters of FILTER_LEN instructions: loads of the first
 * argument, then allow.  The argument keeps seccomp from caching the
 * verdict per system call (seccomp_cache_prepare() takes a filter that
 * reads only the number and architecture for a constant), so every call
 * runs the filters.
 */
static int install_filters(void)
{
	struct sock_fprog prog = { .len = FILTER_LEN, .filter = insns };
	int i;

	for (i = 0; i < FILTER_LEN - 1; i++)
		insns[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, args[0]));
	insns[i] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	for (i = 0; i < NFILTERS; i++)
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			return -1;
	return 0;
}

static int unpin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

struct lo_seen {
	long calls;
	uint64_t cpu[2];	/* lo's CPU time when it first saw each mark */
};

/* lo: system calls through the filters from t0 until end. */
static pid_t spawn_lo(uint64_t t0, uint64_t end, const uint64_t mark[2],
		      volatile struct lo_seen *seen)
{
	int next = 0;

	pid_t pid = rtedf_fork();

	if (pid)
		return pid;
	if (cg_attach(G, getpid()) || pin_cpu(0, 0) || set_sched(0, SCHED_FIFO, 70) ||
	    install_filters())
		_exit(2);
	sleep_until(t0);
	if (unpin())
		_exit(3);
	for (;;) {
		uint64_t t = now_ns();

		if (t >= end)
			break;
		if (next < 2 && t >= mark[next])
			seen->cpu[next++] = thread_cputime_ns();
		syscall(SYS_getppid);
		seen->calls++;
	}
	_exit(0);
}

/* hi: wakes on CPU 0 at start, lets go of it, spins until end. */
static pid_t spawn_hi(uint64_t start, uint64_t end)
{
	pid_t pid = rtedf_fork();

	if (pid)
		return pid;
	if (cg_attach(G, getpid()) || pin_cpu(0, 0) || set_sched(0, SCHED_FIFO, 80))
		_exit(2);
	sleep_until(start);
	if (unpin())
		_exit(3);
	while (now_ns() < end)
		;
	_exit(0);
}

int main(void)
{
	volatile struct lo_seen *seen;
	uint64_t t0, mark[2], got;
	pid_t lo, hi, x;

	rtedf_init();
	ksft_set_plan(1);
	if (nr_cpus() < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		ksft_test_result_skip(MSG "\n");
		ksft_finished();
	}
	if (cg_group(G, 1000000, 500000))
		die("setting up the group");
	seen = shared_alloc(sizeof(*seen));
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	t0 = now_ns() + 200 * MS;
	x = spawn_busy_until(G, SCHED_FIFO, 90, 1, t0 - 10 * MS, t0 + 100 * MS);
	mark[0] = t0 + 110 * MS;
	mark[1] = t0 + 300 * MS;
	lo = spawn_lo(t0, t0 + 400 * MS, mark, seen);
	hi = spawn_hi(t0 + 20 * MS, t0 + 300 * MS);
	if (x < 0 || lo < 0 || hi < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(t0 - 10 * MS);
	/* lo reads its own CPU time at the window's ends: this program,
	 * SCHED_OTHER, may not run then.  lo starved sees both ends late,
	 * together. */
	waitpid(hi, NULL, 0);
	waitpid(lo, NULL, 0);
	waitpid(x, NULL, 0);
	got = seen->cpu[1] - seen->cpu[0];
	sched_trace_save("migrate_disabled");
	cg_remove(G);

	ksft_print_msg("lo: %.1f ms of CPU time between t0 + 110 ms and t0 + 300 ms, %ld system calls in all\n",
		       got / 1e6, seen->calls);
	ksft_test_result(seen->cpu[1] && got >= 95 * MS, MSG "\n");
	ksft_finished();
}
