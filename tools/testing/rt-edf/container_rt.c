// SPDX-License-Identifier: GPL-2.0
/*
 * What container runtimes do with the old interface, file by file: the
 * daemon gives its parent group a runtime (dockerd --cpu-rt-runtime
 * writes cpu.rt_runtime_us of every ancestor that has none), and runc
 * (libcontainer's cgroup v1 driver, SetRtSched() then the process) writes
 * the container group's cpu.rt_period_us, then cpu.rt_runtime_us, moves
 * the process in through cgroup.procs, and the process makes itself
 * SCHED_FIFO.  Nobody writes cpu.rt_task_*.
 *
 * A group's own tasks follow its cpu.rt_* files unless told otherwise:
 * they get what the group's reservation leaves after its children, so
 * the leaf container group's task gets the container's 20 ms every
 * 100 ms, as a guarantee and a limit (measured over 2 s of busy loop,
 * whole periods: 200 per mille, within 5 for the measurer's wakeup and
 * the hrtick's precision), and the parent's own tasks get nothing
 * while the container takes all of the parent, and everything again
 * once the container's group is removed.  Writing -1 to
 * cpu.rt_task_runtime_us makes own tasks follow the group again after
 * they were given a reservation of their own.
 *
 * Failed before this rule (at 34e0892): the container's task could not
 * become SCHED_FIFO (EPERM), since only cpu.rt_task_runtime_us gave own
 * tasks a runtime.  The first two points pass on stock; the others
 * skip there (no cpu.rt_task_* files).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define PARENT		"docker"
#define CTR		"docker/ctr"
#define PERIOD_US	100000
#define RUNTIME_US	20000

/* The container's init: joins through cgroup.procs, then SCHED_FIFO. */
static pid_t start_container(int *err)
{
	int pfd[2];
	pid_t pid;

	*err = 0;
	if (pipe(pfd))
		return -1;
	pid = rtedf_fork();
	if (pid == 0) {
		int e = 0;

		close(pfd[0]);
		/* runc writes the pid before the process runs the payload. */
		e = -cg_write_ll(CTR, "cgroup.procs", getpid());
		if (!e)
			e = -pin_cpu(0, 0);
		if (!e)
			e = -set_sched(0, SCHED_FIFO, 10);
		if (write(pfd[1], &e, sizeof(e)) != sizeof(e) || e)
			_exit(1);
		for (;;)
			;
	}
	close(pfd[1]);
	if (read(pfd[0], err, sizeof(*err)) != sizeof(*err))
		*err = EIO;
	close(pfd[0]);
	if (*err) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	return pid;
}

/* Reads a file of a group, -1 on error. */
static long long rd(const char *group, const char *file)
{
	long long v;

	return cg_read_ll(group, file, &v) ? -1 : v;
}

int main(void)
{
	bool task_files;
	double pm = 0;
	long long own;
	pid_t pid;
	int err, i;

	rtedf_init();
	v1_interface_only();
	ksft_set_plan(5);

	cg_remove(CTR);
	cg_remove(PARENT);
	/* dockerd: the parent group, 200 ms every second (the default period). */
	if ((mkdir(cg_path(PARENT, ""), 0755) && errno != EEXIST) ||
	    cg_write_ll(PARENT, "cpu.rt_runtime_us", 2 * RUNTIME_US * 5))
		die("setting up " PARENT);
	/* runc: the container group, period first, then runtime. */
	if ((mkdir(cg_path(CTR, ""), 0755) && errno != EEXIST) ||
	    cg_write_ll(CTR, "cpu.rt_period_us", PERIOD_US) ||
	    cg_write_ll(CTR, "cpu.rt_runtime_us", RUNTIME_US))
		die("setting up " CTR);
	task_files = cg_has(CTR, "cpu.rt_task_runtime_us");

	pid = start_container(&err);
	if (pid < 0)
		ksft_print_msg("the container's task could not become SCHED_FIFO: %s\n",
			       strerror(err));
	ksft_test_result(pid > 0,
			 "a task moved into a leaf group with cpu.rt_runtime_us can become SCHED_FIFO\n");
	if (pid > 0) {
		uint64_t t0 = now_ns();

		/* From a period boundary of the server (it started at t0). */
		measure_permille_at(&pid, 1, t0 + 5 * PERIOD_US * NSEC_PER_USEC,
				    20 * PERIOD_US * NSEC_PER_USEC, &pm);
		ksft_print_msg("the container's busy task received %.1f per mille of %d\n",
			       pm, RUNTIME_US * 1000 / PERIOD_US);
	}
	ksft_test_result(pid > 0 && pm >= 195.0 && pm <= 205.0,
			 "the container's busy task receives its cpu.rt_runtime_us / cpu.rt_period_us within 5 per mille\n");
	stop_child(pid);

	if (!task_files) {
		ksft_test_result_skip("no cpu.rt_task_runtime_us\n");
		ksft_test_result_skip("no cpu.rt_task_runtime_us\n");
		ksft_test_result_skip("no cpu.rt_task_runtime_us\n");
		cg_remove(CTR);
		cg_remove(PARENT);
		ksft_finished();
	}

	own = rd(CTR, "cpu.rt_task_runtime_us");
	ksft_print_msg("own tasks: container %lld us every %lld us, parent %lld us\n",
		       own, rd(CTR, "cpu.rt_task_period_us"),
		       rd(PARENT, "cpu.rt_task_runtime_us"));
	ksft_test_result(own == RUNTIME_US &&
			 rd(CTR, "cpu.rt_task_period_us") == PERIOD_US &&
			 rd(PARENT, "cpu.rt_task_runtime_us") == 0,
			 "own tasks follow the group: all of a leaf's reservation, what the children leave of a parent's\n");

	err = cg_write_ll(CTR, "cpu.rt_task_runtime_us", RUNTIME_US / 2);
	if (!err)
		err = cg_write_ll(CTR, "cpu.rt_task_runtime_us", -1);
	ksft_test_result(!err && rd(CTR, "cpu.rt_task_runtime_us") == RUNTIME_US,
			 "-1 in cpu.rt_task_runtime_us makes own tasks follow the group again\n");

	/* The parent's own tasks get the container's share back (async). */
	cg_remove(CTR);
	for (i = 0; i < 100 && rd(PARENT, "cpu.rt_task_runtime_us") != 2 * RUNTIME_US * 5; i++)
		sleep_ns(10 * NSEC_PER_MSEC);
	ksft_test_result(rd(PARENT, "cpu.rt_task_runtime_us") == 2 * RUNTIME_US * 5,
			 "a removed child's share goes back to the parent's own tasks that follow the group\n");
	cg_remove(PARENT);
	ksft_finished();
}
