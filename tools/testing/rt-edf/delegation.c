// SPDX-License-Identifier: GPL-2.0
/*
 * Delegation on cgroup v2 (in the boot with rtedf.cgroup=v2, run 'v2'
 * of 'make check'; elsewhere every point skips).  Root gives group
 * "deleg" 40 ms every 100 ms and delegates it to user 1000 as the cgroup
 * v2 documentation says (chown of the directory, cgroup.procs,
 * cgroup.threads and cgroup.subtree_control), with RLIMIT_RTPRIO 50.
 * Next to it, root's group "other" (30 ms / 100 ms) runs a periodic
 * SCHED_FIFO task of 10 ms every 100 ms.  All on CPU 0 (1 vCPU).  The
 * user, without CAP_SYS_NICE:
 *
 *  - moves out of the delegated group into a leaf of its own, enables the
 *    cpu controller below it, and gives children parts of the 40 ms:
 *    rt 2 ms / 10 ms and bomb 20 ms / 100 ms (20% + 20%), but not a
 *    third 1 ms / 100 ms (EBUSY);
 *  - cannot write the delegated group's own cpu.rt.max or
 *    cpu.rt.tasks.max (EACCES), nor move a task out of the delegation
 *    (to the root or to "other": EACCES or ENOENT), nor make a task RT
 *    in a group without a reservation (EPERM), nor in the root group,
 *    where no reservation of its own bounds it (EPERM, see below);
 *  - runs a periodic SCHED_FIFO 20 task in rt, 1 ms every 10 ms for 3 s,
 *    which misses no deadline: rt's server has 2 ms by 10 ms after each
 *    release (the CBS wakeup rule), EDF with 5 + 40 + 30 = 75% reserved;
 *  - meanwhile forks 16 busy SCHED_FIFO 40 tasks in bomb: they receive
 *    at most bomb's 200 per mille over the 2.8 s measured, and the whole
 *    delegation at most its 400 (plus one budget, 20 ms of bomb's, for a
 *    period boundary in the window: 7 per mille; the test allows 10),
 *    and other's periodic task misses no deadline (its 10 ms by 100 ms
 *    after each release, with 30 ms reserved).
 *
 * RLIMIT_RTPRIO lets a task of an unprivileged user become SCHED_FIFO or
 * SCHED_RR; with RT group scheduling only in a group that reserves RT
 * time of its own, whose reservation bounds it: not in the root group,
 * whose own tasks (kernel threads among them) it would starve.  An RT
 * task there may still lower its priority (patch 12 as first written
 * refused that too).  Fails on
 * stock (no cgroup v2 reservations, and RT for anybody with
 * RLIMIT_RTPRIO in the root group) and on the series before the
 * unprivileged rule (patch 12): the root-group point fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define PLAN		11
#define USER		1000
#define D		"deleg"
#define OTHER		"other"
#define RUN_NS		(3 * NSEC_PER_SEC)
#define BOMB		16

/* What the user's process found, for the parent to judge. */
struct outcome {
	int setup;		/* 0, or the step that failed */
	int divide, exceed;	/* errors of the children's cpu.rt.max */
	int parent_max, parent_tasks;
	int leave_root, leave_other;
	int rt_unreserved;
	unsigned long jobs, misses;
	int bomb;
};

static struct outcome *out;

static int become_user(void)
{
	struct rlimit rl = { 50, 50 };

	if (setrlimit(RLIMIT_RTPRIO, &rl) || setgroups(0, NULL) ||
	    setgid(USER) || setuid(USER))
		return -errno;
	return 0;
}

/* A busy SCHED_FIFO 40 task in bomb, pinned to CPU 0, until end. */
static void bomb_task(uint64_t end)
{
	if (cg_attach(D "/bomb", 0) || pin_cpu(0, 0) || set_sched(0, SCHED_FIFO, 40))
		_exit(2);
	while (now_ns() < end)
		;
	_exit(0);
}

/* The user's process, in D when it starts. */
static void user_main(uint64_t t0)
{
	struct periodic_stats *st;
	pid_t per, bombs[BOMB];
	int err;

	if (become_user()) {
		out->setup = 1;
		_exit(1);
	}
	if (mkdir(cg_path(D "/leaf", ""), 0755) || cg_attach(D "/leaf", 0)) {
		out->setup = 2;
		_exit(1);
	}
	if (cg_write(D, "cgroup.subtree_control", "+cpu")) {
		out->setup = 3;
		_exit(1);
	}
	if (mkdir(cg_path(D "/rt", ""), 0755) || mkdir(cg_path(D "/bomb", ""), 0755) ||
	    mkdir(cg_path(D "/more", ""), 0755)) {
		out->setup = 4;
		_exit(1);
	}
	err = cg_write(D "/rt", "cpu.rt.max", "2000 10000");
	if (!err)
		err = cg_write(D "/bomb", "cpu.rt.max", "20000 100000");
	out->divide = err;
	out->exceed = cg_write(D "/more", "cpu.rt.max", "1000 100000");
	out->parent_max = cg_write(D, "cpu.rt.max", "90000 100000");
	out->parent_tasks = cg_write(D, "cpu.rt.tasks.max", "90000 100000");
	out->leave_root = cg_attach("", 0);
	out->leave_other = cg_attach(OTHER, 0);
	out->rt_unreserved = set_sched(0, SCHED_FIFO, 10);

	per = spawn_periodic_at(D "/rt", 20, 0, NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, t0,
				RUN_NS, &st);
	for (int i = 0; i < BOMB; i++) {
		bombs[i] = rtedf_fork();
		if (bombs[i] == 0)
			bomb_task(t0 + RUN_NS);
	}
	if (per < 0) {
		out->setup = 5;
		_exit(1);
	}
	wait_periodic(per, st);
	out->jobs = st->jobs;
	out->misses = st->misses;
	for (int i = 0; i < BOMB; i++) {
		int status;

		if (bombs[i] > 0 && waitpid(bombs[i], &status, 0) > 0 &&
		    WIFEXITED(status) && !WEXITSTATUS(status))
			out->bomb++;
	}
	_exit(0);
}

/*
 * A child of user 1000 with RLIMIT_RTPRIO 50 in the root group: may it go
 * RT (from SCHED_OTHER), or, made SCHED_FIFO 30 by root first, lower its
 * priority to 10?  0 or the errno.
 */
static int root_group_rt(bool lower)
{
	pid_t pid = rtedf_fork();
	int status;

	if (pid == 0) {
		if (lower && set_sched(0, SCHED_FIFO, 30))
			_exit(101);
		if (become_user())
			_exit(100);
		_exit(-set_sched(0, SCHED_FIFO, 10));
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static long long usage_us(const char *group)
{
	char buf[512], *p;
	FILE *f = fopen(cg_path(group, "cpu.stat"), "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strstr(buf, "usage_usec ");
	return p ? atoll(p + 11) : -1;
}

int main(void)
{
	static const char *const files[] = {
		"", "cgroup.procs", "cgroup.threads", "cgroup.subtree_control",
	};
	struct periodic_stats *ost;
	long long u0, u1, b0, b1;
	uint64_t t0, w0, w1;
	pid_t user, oper;
	double pm, bpm;
	int status, rc;

	rtedf_init();
	v2_only(PLAN);
	ksft_set_plan(PLAN);
	out = shared_alloc(sizeof(*out));
	if (cg_group(D, 100000, 40000) || cg_group(OTHER, 100000, 30000))
		ksft_exit_fail_msg("setting up the groups\n");
	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (chown(cg_path(D, files[i]), USER, USER))
			ksft_exit_fail_msg("chown %s: %s\n", cg_path(D, files[i]), strerror(errno));

	rc = root_group_rt(false);
	ksft_test_result(rc == EPERM,
			 "an unprivileged task with RLIMIT_RTPRIO cannot become RT in the root group\n");
	rc = root_group_rt(true);
	ksft_test_result(rc == 0,
			 "an unprivileged RT task in the root group may lower its priority\n");

	t0 = now_ns() + 300 * NSEC_PER_MSEC;
	oper = spawn_periodic_at(OTHER, 10, 0, 10 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC, t0,
				 RUN_NS, &ost);
	user = rtedf_fork();
	if (user == 0) {
		if (cg_attach(D, 0) || pin_cpu(0, 0))
			_exit(2);
		user_main(t0);
	}
	if (user < 0 || oper < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	start_in_future(t0);
	/* The delegation's CPU time over the run (a window past its start). */
	sleep_until(t0 + 100 * NSEC_PER_MSEC);
	u0 = usage_us(D);
	b0 = usage_us(D "/bomb");
	w0 = now_ns();
	sleep_until(t0 + RUN_NS - 100 * NSEC_PER_MSEC);
	u1 = usage_us(D);
	b1 = usage_us(D "/bomb");
	w1 = now_ns();
	waitpid(user, &status, 0);
	wait_periodic(oper, ost);
	pm = 1000.0 * (u1 - u0) * NSEC_PER_USEC / (w1 - w0);
	bpm = 1000.0 * (b1 - b0) * NSEC_PER_USEC / (w1 - w0);
	if (out->setup)
		ksft_print_msg("the user's setup failed at step %d\n", out->setup);
	ksft_print_msg("divide %d, exceed %d, parent's files %d %d, leave %d %d, RT unreserved %d\n",
		       out->divide, out->exceed, out->parent_max, out->parent_tasks,
		       out->leave_root, out->leave_other, out->rt_unreserved);
	ksft_print_msg("rt: %lu jobs, %lu late; %d of %d bombs ran: %.1f per mille; the delegation: %.1f per mille; other: %lu jobs, %lu late\n",
		       out->jobs, out->misses, out->bomb, BOMB, bpm, pm, ost->jobs,
		       ost->misses);

	ksft_test_result(!out->setup && !out->divide,
			 "the user divides the delegated reservation among its own groups\n");
	ksft_test_result(out->exceed == -EBUSY, "the user cannot exceed it (EBUSY)\n");
	ksft_test_result((out->parent_max == -EACCES || out->parent_max == -EPERM) &&
			 (out->parent_tasks == -EACCES || out->parent_tasks == -EPERM),
			 "the user cannot change the delegated group's own files\n");
	ksft_test_result(out->leave_root && out->leave_other && out->leave_root != -EINVAL &&
			 out->leave_other != -EINVAL,
			 "the user cannot move a task out of the delegation\n");
	ksft_test_result(out->rt_unreserved == -EPERM,
			 "the user cannot make a task RT in a group without a reservation\n");
	ksft_test_result(!out->setup && out->jobs >= RUN_NS / (10 * NSEC_PER_MSEC) - 1 &&
			 !out->misses,
			 "an unprivileged periodic SCHED_FIFO task misses no deadline in its delegated budget\n");
	ksft_test_result(out->bomb == BOMB, "the user's %d busy SCHED_FIFO tasks ran\n", BOMB);
	outcome_result(bpm <= 210 && pm <= 410,
		       "the busy tasks receive at most their group's 200 per mille, the delegation its 400, within 10");
	outcome_result(ost->jobs >= RUN_NS / (100 * NSEC_PER_MSEC) - 1 && !ost->misses,
		       "another group's periodic task misses no deadline meanwhile");

	cg_remove(D "/rt");
	cg_remove(D "/bomb");
	cg_remove(D "/more");
	cg_remove(D "/leaf");
	cg_remove(D);
	cg_remove(OTHER);
	ksft_finished();
}
