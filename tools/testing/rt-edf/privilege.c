// SPDX-License-Identifier: GPL-2.0
/*
 * Privilege and escape: an unprivileged user can neither change a
 * reservation nor move tasks into one; a task cannot get more than its
 * group's reservation by forking, by raising its priority or by leaving
 * and re-entering its group; a group without runtime hosts no RT task.
 *
 * Shares are measured with the group's cpuacct.usage, all tasks pinned to
 * CPU 0 so that the bound is the group's Q / P of that CPU.  Tolerance:
 * over a window W a hard reservation may run one budget more than
 * W * Q / P (a period boundary in the window), Q / W = 10 ms / 4 s =
 * 2.5 per mille; the test allows 5.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define G	"priv"
#define G2	"priv-other"
#define G0	"priv-zero"
#define P_US	100000
#define Q_US	10000
#define WINDOW	(4 * NSEC_PER_SEC)
#define TOL	5.0
#define NOBODY	65534

static long long usage_ns(const char *group)
{
	long long v = 0;

	if (cg_read_ll(group, "cpuacct.usage", &v))
		die("reading %s/cpuacct.usage", group);
	return v;
}

/* The group's share of CPU 0 over WINDOW, per mille. */
static double group_permille(const char *group)
{
	uint64_t t0, t1;
	long long u0, u1;

	set_sched(0, SCHED_FIFO, 99);
	t0 = now_ns();
	u0 = usage_ns(group);
	sleep_ns(WINDOW);
	u1 = usage_ns(group);
	t1 = now_ns();
	set_sched(0, SCHED_OTHER, 0);
	return 1000.0 * (u1 - u0) / (t1 - t0);
}

/* Runs fn in a child that became user nobody; returns its exit status. */
static int as_nobody(int (*fn)(void *), void *arg)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Exit status: 0 if every write was refused with EACCES or EPERM. */
static int nobody_writes(void *arg)
{
	static const char *const files[] = {
		"cpu.rt_period_us", "cpu.rt_runtime_us",
		"cpu.rt_task_period_us", "cpu.rt_task_runtime_us",
	};
	int err;

	for (unsigned int i = 0; i < 4; i++) {
		if (!cg_has(G, files[i]))
			continue;
		err = cg_write(G, files[i], "50000");
		if (err != -EACCES && err != -EPERM)
			return 1;
	}
	return 0;
}

static int nobody_moves(void *arg)
{
	pid_t victim = *(pid_t *)arg;
	int err;

	err = cg_attach(G, getpid());
	if (err != -EACCES && err != -EPERM)
		return 1;
	err = cg_attach(G, victim);
	return err != -EACCES && err != -EPERM ? 2 : 0;
}

static int nobody_goes_rt(void *arg)
{
	return set_sched(0, SCHED_FIFO, 10) == -EPERM ? 0 : 1;
}

static bool values_are(const char *group, long long p, long long q)
{
	long long vp = -1, vq = -1;

	cg_read_ll(group, "cpu.rt_period_us", &vp);
	cg_read_ll(group, "cpu.rt_runtime_us", &vq);
	return vp == p && vq == q;
}

/*
 * A busy RT task in G, pinned to CPU 0, that forks n busy children (they
 * inherit group, policy and affinity); all in a process group of their
 * own, to be killed together.
 */
static pid_t spawn_forker(int n)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		if (cg_attach(G, getpid()) || pin_cpu(0, 0) ||
		    set_sched(0, SCHED_FIFO, 10))
			_exit(1);
		for (int i = 0; i < n; i++)
			if (fork() == 0)
				break;
		for (;;)
			;
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

int main(void)
{
	double pm, bound = 1000.0 * Q_US / P_US;
	pid_t pid, sleeper;
	int rc;

	rtedf_init();
	ksft_set_plan(8);
	cg_remove(G0);
	cg_remove(G2);
	cg_remove(G);
	if (cg_group(G, P_US, Q_US) || cg_group(G2, P_US, Q_US))
		die("setting up the groups");

	/* 1-3: an unprivileged user. */
	rc = as_nobody(nobody_writes, NULL);
	ksft_test_result(rc == 0 && values_are(G, P_US, Q_US),
			 "an unprivileged user cannot change a reservation\n");
	sleeper = spawn_sleeper();
	rc = as_nobody(nobody_moves, &sleeper);
	ksft_test_result(rc == 0 && !cg_contains(G, sleeper),
			 "an unprivileged user cannot move tasks into a reservation\n");
	stop_child(sleeper);
	rc = as_nobody(nobody_goes_rt, NULL);
	ksft_test_result(rc == 0, "an unprivileged user cannot become real-time\n");

	/* 4: forking. */
	pid = spawn_forker(7);
	if (pid < 0)
		die("starting the forker");
	sleep_ns(300 * NSEC_PER_MSEC);
	pm = group_permille(G);
	ksft_print_msg("forking: 8 busy tasks in the group received %.1f per mille\n", pm);
	ksft_test_result(pm <= bound + TOL,
			 "forking does not get a group more than its reservation\n");
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	/* 5: raising the priority to the top. */
	pid = spawn_busy(G, SCHED_FIFO, 1, 0);
	if (pid < 0)
		die("starting the busy task");
	set_sched(pid, SCHED_FIFO, 98);
	sleep_ns(200 * NSEC_PER_MSEC);
	set_sched(pid, SCHED_RR, 98);
	pm = group_permille(G);
	ksft_print_msg("priority 98: the group received %.1f per mille\n", pm);
	ksft_test_result(pm <= bound + TOL,
			 "a top priority does not get a group more than its reservation\n");

	/*
	 * 6: leaving and re-entering.  The task is moved to another group
	 * and back every 3 ms: re-entry must not renew the budget beyond
	 * what the CBS wakeup rule allows, so the group stays at Q / P.
	 */
	{
		uint64_t t0, t1, end;
		long long u0, u1;

		set_sched(0, SCHED_FIFO, 99);
		t0 = now_ns();
		u0 = usage_ns(G);
		end = t0 + WINDOW;
		while (now_ns() < end) {
			cg_attach(G2, pid);
			sleep_ns(3 * NSEC_PER_MSEC);
			cg_attach(G, pid);
			sleep_ns(3 * NSEC_PER_MSEC);
		}
		u1 = usage_ns(G);
		t1 = now_ns();
		set_sched(0, SCHED_OTHER, 0);
		pm = 1000.0 * (u1 - u0) / (t1 - t0);
		ksft_print_msg("re-entry every 6 ms: the group received %.1f per mille\n",
			       pm);
		ksft_test_result(pm <= bound + TOL,
				 "leaving and re-entering does not renew a group's budget\n");
	}
	stop_child(pid);

	/* 7-8: a group whose own tasks have no runtime. */
	if (mkdir(cg_path(G0, ""), 0755) && errno != EEXIST)
		die("mkdir " G0);
	pid = spawn_busy(G, SCHED_FIFO, 10, 0);
	rc = pid > 0 ? cg_attach(G0, pid) : -1;
	ksft_test_result(rc < 0 && !cg_contains(G0, pid),
			 "an RT task cannot move into a group without runtime\n");
	stop_child(pid);
	sleeper = spawn_sleeper();
	if (cg_attach(G0, sleeper))
		die("moving a normal task into " G0);
	rc = set_sched(sleeper, SCHED_FIFO, 10);
	ksft_test_result(rc == -EPERM && sched_getscheduler(sleeper) == SCHED_OTHER,
			 "a task in a group without runtime cannot become real-time\n");
	stop_child(sleeper);

	cg_remove(G0);
	cg_remove(G2);
	cg_remove(G);
	ksft_finished();
}
