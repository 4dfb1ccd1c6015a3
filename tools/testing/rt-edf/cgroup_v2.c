// SPDX-License-Identifier: GPL-2.0
/*
 * The reservations on cgroup v2 (in a boot with rtedf.cgroup=v2, which
 * 'make check' runs as 'v2' on 1 vCPU; elsewhere every point skips).
 * cgroup2 is mounted at /sys/fs/cgroup with nsdelegate, as systemd does.
 *
 *  - Enabling the cpu controller down a path whose groups already hold an
 *    RT task (as systemd does at boot, with services that run SCHED_FIFO)
 *    succeeds, and the task runs on: where no group on its path reserves
 *    RT time, RT tasks run on the root's servers, as without groups.  It
 *    may change its priority there (patch 11 as first written refused
 *    that, as it refuses a task that would become RT there).  A
 *    reservation made on such a path while RT tasks run there is refused
 *    (EBUSY): their groups' own servers have none.
 *  - A new group has no reservation ("0 <sched_rt_period_us>", own tasks
 *    "auto"): RT tasks are refused there, as on v1 (EPERM from
 *    sched_setscheduler(), EINVAL from a move into it), and clone3() of
 *    an RT child into it (CLONE_INTO_CGROUP) is refused as a move is
 *    (EINVAL; patch 11 as first written let the child start there as
 *    SCHED_FIFO), while into a group with a reservation it succeeds.
 *  - cpu.rt.max sets runtime and period in one write; a runtime alone
 *    keeps the period; "max" is the whole period.  The bad input of
 *    bad_input.c is refused with EINVAL and admission with EBUSY, and
 *    neither changes anything.
 *  - One write changes a reservation that v1, writing the period and the
 *    runtime one after the other, refuses in either order: sub, 30% of a
 *    CPU with a child of 20%, next to a sibling of 60% and the root's own
 *    5%, to 600 ms / 2 s.  Runtime first, 600 ms / 1 s is 60% and
 *    over-subscribes the root (5 + 60 + 60 > 95); period first, 300 ms /
 *    2 s is 15%, less than its child's 20%.  Both intermediate states are
 *    written here too (a runtime alone keeps the period) and must be
 *    refused.
 *  - cpu.rt.stat shows what a group reserves, what its children take,
 *    what its own tasks have (cpu.rt.tasks.max, or what the children
 *    leave) and what a child can still be given, in millionths of a CPU:
 *    the kernel computes them in 2^-20 fixed point, rounded down, so
 *    within 2 ppm of the exact values.
 *  - The reservation holds: a busy SCHED_FIFO task in a group of 30 ms /
 *    100 ms next to a busy SCHED_OTHER task of the root receives 300 per
 *    mille of the CPU, within 10 (an outcome in time: 1 vCPU).
 *
 * Fails on stock (and on the series before cgroup v2 support), where
 * enabling the cpu controller with an RT task in a group is refused and
 * the cpu.rt.* files do not exist.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define PLAN	18

/*
 * clone3(CLONE_INTO_CGROUP) of a SCHED_FIFO child into group, from a
 * SCHED_FIFO helper in the root: 0 when the child started there with its
 * policy, else the errno of clone3() (or 100 and above for another
 * failure).
 */
static int rt_clone_into(const char *group)
{
	pid_t helper = rtedf_fork();
	int st;

	if (helper == 0) {
		struct clone_args args = {
			.flags = CLONE_INTO_CGROUP,
			.exit_signal = SIGCHLD,
		};
		int fd = open(cg_path(group, ""), O_RDONLY | O_DIRECTORY);
		long pid;

		if (fd < 0 || set_sched(0, SCHED_FIFO, 10))
			_exit(100);
		args.cgroup = fd;
		pid = syscall(SYS_clone3, &args, sizeof(args));
		if (pid == 0)
			_exit(sched_getscheduler(0) == SCHED_FIFO && cg_contains(group, getpid()) ?
			      0 : 1);
		if (pid < 0)
			_exit(errno < 100 ? errno : 101);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			_exit(102);
		_exit(0);
	}
	if (helper < 0 || waitpid(helper, &st, 0) != helper || !WIFEXITED(st))
		return 103;
	return WEXITSTATUS(st);
}

static bool near(long long v, long long want)
{
	return v >= want - 2 && v <= want + 2;
}

/* A child that counts its wakeups every millisecond, as SCHED_FIFO 10. */
static pid_t spawn_ticker(const char *group, volatile long *count)
{
	pid_t pid = rtedf_fork();

	if (pid)
		return pid;
	if (cg_attach(group, 0) || set_sched(0, SCHED_FIFO, 10))
		_exit(2);
	for (;;) {
		sleep_ns(NSEC_PER_MSEC);
		(*count)++;
	}
}

int main(void)
{
	char period[64], want[80];
	volatile long *count;
	long long v;
	pid_t ticker, rt, pids[2];
	double permille[2];
	bool ok;
	int err, err2;

	rtedf_init();
	v2_only(PLAN);
	ksft_set_plan(PLAN);
	{
		FILE *f = fopen("/proc/sys/kernel/sched_rt_period_us", "r");

		if (!f || !fgets(period, sizeof(period), f))
			ksft_exit_fail_msg("reading sched_rt_period_us\n");
		period[strcspn(period, "\n")] = 0;
		fclose(f);
	}
	count = shared_alloc(sizeof(*count));

	/* Systemd's boot: a service with an RT task, then +cpu down the path. */
	err = cg_write("", "cgroup.subtree_control", "-cpu");
	if (err)
		ksft_exit_fail_msg("-cpu at the root: %s\n", strerror(-err));
	if (mkdir(cg_path("sys.slice", ""), 0755) || mkdir(cg_path("sys.slice/svc", ""), 0755))
		ksft_exit_fail_msg("mkdir: %s\n", strerror(errno));
	ticker = spawn_ticker("sys.slice/svc", count);
	sleep_ns(50 * NSEC_PER_MSEC);
	err = cg_write("", "cgroup.subtree_control", "+cpu");
	if (!err)
		err = cg_write("sys.slice", "cgroup.subtree_control", "+cpu");
	if (err) {
		char ctl[256] = "";

		cg_read_str("", "cgroup.controllers", ctl, sizeof(ctl));
		ksft_print_msg("+cpu: %s (controllers: %s)\n", strerror(-err), ctl);
	}
	ksft_test_result(!err && proc_state(ticker),
			 "the cpu controller is enabled down a path whose groups hold an RT task\n");
	v = *count;
	sleep_ns(100 * NSEC_PER_MSEC);
	ksft_print_msg("the RT task woke %lld times in 100 ms\n", *count - v);
	ksft_test_result(*count - v >= 50 && sched_getscheduler(ticker) == SCHED_FIFO &&
			 cg_stat_key("sys.slice/svc", "cpu.rt.stat", "unreserved") == 1,
			 "an RT task where no group on its path reserves runs on the root's servers\n");
	err = set_sched(ticker, SCHED_FIFO, 20);
	ksft_test_result(!err && sched_getscheduler(ticker) == SCHED_FIFO &&
			 cg_stat_key("sys.slice/svc", "cpu.rt.stat", "unreserved") == 1,
			 "and may change its priority there (a new RT task may not)\n");
	snprintf(want, sizeof(want), "0 %s", period);
	err = cg_write("sys.slice", "cpu.rt.max", "100000 1000000");
	ksft_test_result(err == -EBUSY && cg_file_is("sys.slice", "cpu.rt.max", want),
			 "a reservation on a path where RT tasks run without one is refused (EBUSY)\n");
	err = set_sched(ticker, SCHED_OTHER, 0);
	if (!err)
		err = cg_write("sys.slice", "cpu.rt.max", "100000 1000000");
	ksft_test_result(!err && cg_stat_key("sys.slice/svc", "cpu.rt.stat", "unreserved") == 0,
			 "it is accepted once no RT task runs there\n");
	err = set_sched(ticker, SCHED_FIFO, 10);
	ksft_test_result(err == -EPERM,
			 "a task cannot become RT in a group without a reservation (EPERM)\n");
	stop_child(ticker);
	if (cg_remove("sys.slice/svc") || cg_remove("sys.slice"))
		ksft_exit_fail_msg("removing sys.slice: %s\n", strerror(errno));

	/* A new group. */
	if (mkdir(cg_path("a", ""), 0755))
		ksft_exit_fail_msg("mkdir a: %s\n", strerror(errno));
	ksft_test_result(cg_file_is("a", "cpu.rt.max", want) &&
			 cg_file_is("a", "cpu.rt.tasks.max", "auto"),
			 "a new group reserves nothing: cpu.rt.max '%s', cpu.rt.tasks.max 'auto'\n",
			 want);
	rt = rtedf_fork();
	if (rt == 0) {
		if (set_sched(0, SCHED_FIFO, 10))
			_exit(2);
		pause();
		_exit(0);
	}
	sleep_ns(20 * NSEC_PER_MSEC);
	err = cg_attach("a", rt);
	ksft_test_result(err == -EINVAL && sched_getscheduler(rt) == SCHED_FIFO,
			 "an RT task cannot be moved into a group without a reservation (EINVAL)\n");
	stop_child(rt);
	err = rt_clone_into("a");

	/* cpu.rt.max */
	err2 = cg_write("a", "cpu.rt.max", "30000 100000");
	ksft_test_result(!err2 && cg_file_is("a", "cpu.rt.max", "30000 100000") &&
			 near(cg_stat_key("a", "cpu.rt.stat", "reserved_ppm"), 300000),
			 "cpu.rt.max sets runtime and period in one write\n");
	err2 = rt_clone_into("a");
	ksft_print_msg("clone3(CLONE_INTO_CGROUP) of an RT child: %s without a reservation, %s with\n",
		       err ? strerror(err) : "accepted", err2 ? strerror(err2) : "accepted");
	ksft_test_result(err == EINVAL && !err2,
			 "clone3() of an RT child into a group: EINVAL without a reservation, SCHED_FIFO there with one\n");
	err = cg_write("a", "cpu.rt.max", "20000");
	ok = !err && cg_file_is("a", "cpu.rt.max", "20000 100000");
	ksft_test_result(ok && !cg_write("a", "cpu.rt.max", "30000 100000"),
			 "a runtime alone keeps the period\n");
	err = cg_write("a", "cpu.rt.max", "max");
	ksft_test_result(err == -EBUSY && cg_file_is("a", "cpu.rt.max", "30000 100000"),
			 "'max' (the whole period) past the global limit is refused (EBUSY), nothing changes\n");
	{
		static const char *const bad[] = {
			" ", "abc", "-1 100000", "1000 0", "1000 100000 5", "5 100000",
			"1000 abc", "200000 100000", "1000 99999999999999", "auto",
			"max max", "1000 -100000", "0x100 100000",
		};

		ok = true;
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err = cg_write("a", "cpu.rt.max", bad[i]);
			if (err != -EINVAL || !cg_file_is("a", "cpu.rt.max", "30000 100000")) {
				ksft_print_msg("cpu.rt.max '%s': %s\n", bad[i], strerror(-err));
				ok = false;
			}
		}
		err = cg_write("a", "cpu.rt.tasks.max", "abc");
		ok = ok && err == -EINVAL && cg_file_is("a", "cpu.rt.tasks.max", "auto");
		ksft_test_result(ok, "bad input is refused (EINVAL) and changes nothing\n");
	}
	/* 5% (the root's own tasks) + 30% + 70% > 95% */
	if (mkdir(cg_path("b", ""), 0755))
		ksft_exit_fail_msg("mkdir b: %s\n", strerror(errno));
	err = cg_write("b", "cpu.rt.max", "700000 1000000");
	ksft_test_result(err == -EBUSY && cg_file_is("b", "cpu.rt.max", want),
			 "over-subscription is refused (EBUSY) and changes nothing\n");

	/* One write where v1's two are refused in either order. */
	err = cg_write("a", "cpu.rt.max", "0");
	if (!err)
		err = cg_group("sub", 1000000, 300000);
	if (!err)
		err = cg_group("sub/c", 1000000, 200000);
	if (!err)
		err = cg_write("b", "cpu.rt.max", "600000 1000000");
	if (err)
		ksft_exit_fail_msg("setting up sub, sub/c and b: %s\n", strerror(-err));
	ok = cg_write("sub", "cpu.rt.max", "600000") == -EBUSY &&
	     cg_write("sub", "cpu.rt.max", "300000 2000000") == -EBUSY &&
	     cg_file_is("sub", "cpu.rt.max", "300000 1000000");
	err = cg_write("sub", "cpu.rt.max", "600000 2000000");
	ksft_test_result(ok && !err && cg_file_is("sub", "cpu.rt.max", "600000 2000000"),
			 "one write changes what v1 refuses in either order\n");
	ksft_test_result(near(cg_stat_key("sub", "cpu.rt.stat", "reserved_ppm"), 300000) &&
			 near(cg_stat_key("sub", "cpu.rt.stat", "children_ppm"), 200000) &&
			 near(cg_stat_key("sub", "cpu.rt.stat", "tasks_ppm"), 100000) &&
			 near(cg_stat_key("sub", "cpu.rt.stat", "available_ppm"), 100000) &&
			 cg_stat_key("sub", "cpu.rt.stat", "unreserved") == 0,
			 "cpu.rt.stat: 300000 reserved, 200000 to the children, 100000 to the own tasks and to give\n");
	err = cg_write("sub", "cpu.rt.tasks.max", "50000 1000000");
	ok = !err && cg_file_is("sub", "cpu.rt.tasks.max", "50000 1000000") &&
	     near(cg_stat_key("sub", "cpu.rt.stat", "tasks_ppm"), 50000) &&
	     near(cg_stat_key("sub", "cpu.rt.stat", "available_ppm"), 50000);
	err = cg_write("sub", "cpu.rt.tasks.max", "auto");
	ksft_test_result(ok && !err && cg_file_is("sub", "cpu.rt.tasks.max", "auto") &&
			 near(cg_stat_key("sub", "cpu.rt.stat", "tasks_ppm"), 100000),
			 "cpu.rt.tasks.max: the own tasks' reservation, then 'auto' again\n");

	/* The reservation holds. */
	err = cg_write("b", "cpu.rt.max", "0");
	if (!err)
		err = cg_write("a", "cpu.rt.max", "30000 100000");
	if (err)
		ksft_exit_fail_msg("setting up a: %s\n", strerror(-err));
	pids[0] = spawn_busy("a", SCHED_FIFO, 50, 0);
	pids[1] = spawn_busy("", SCHED_OTHER, 0, 0);
	if (pids[0] < 0 || pids[1] < 0)
		ksft_exit_fail_msg("cannot start the busy tasks\n");
	measure_permille(pids, 2, NSEC_PER_SEC, permille);
	ksft_print_msg("a: %.1f per mille, the root's SCHED_OTHER task: %.1f\n",
		       permille[0], permille[1]);
	stop_child(pids[0]);
	stop_child(pids[1]);
	outcome_result(permille[0] >= 290 && permille[0] <= 310,
		       "a busy SCHED_FIFO task in 30 ms / 100 ms receives 300 per mille within 10");

	cg_remove("sub/c");
	cg_remove("sub");
	cg_remove("a");
	cg_remove("b");
	ksft_finished();
}
