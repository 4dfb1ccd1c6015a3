// SPDX-License-Identifier: GPL-2.0
/*
 * The administrator's path of the tutorial: a task joins a group through
 * its 'tasks' file and becomes real-time with util-linux chrt(1).  A group
 * without RT runtime cannot host an RT task.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define G	"tasks-chrt"
#define G0	"tasks-chrt-zero"
#define CHRT	"/usr/bin/chrt"

/* Runs chrt with the given arguments; returns its exit status. */
static int run_chrt(const char *a1, const char *a2, pid_t pid)
{
	char spid[16];
	pid_t c;
	int st;

	snprintf(spid, sizeof(spid), "%d", pid);
	fflush(NULL);
	c = fork();
	if (c == 0) {
		execl(CHRT, "chrt", a1, "-p", a2, spid, (char *)NULL);
		_exit(127);
	}
	if (c < 0 || waitpid(c, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static bool has_sched(pid_t pid, int policy, int prio)
{
	struct sched_param sp;

	return sched_getscheduler(pid) == policy &&
	       !sched_getparam(pid, &sp) && sp.sched_priority == prio;
}

int main(void)
{
	pid_t pid;
	int rc;

	rtedf_init();
	ksft_set_plan(5);

	if (cg_group(G, 100000, 10000))
		die("setting up group " G);
	pid = spawn_sleeper();
	if (pid < 0)
		die("fork");

	ksft_test_result(cg_attach(G, pid) == 0 && cg_contains(G, pid),
			 "a task joins a group through its tasks file\n");

	rc = run_chrt("-f", "10", pid);
	ksft_test_result(rc == 0 && has_sched(pid, SCHED_FIFO, 10),
			 "chrt -f -p 10 makes the grouped task SCHED_FIFO 10\n");

	rc = run_chrt("-r", "20", pid);
	ksft_test_result(rc == 0 && has_sched(pid, SCHED_RR, 20) &&
			 cg_contains(G, pid),
			 "chrt -r -p 20 makes it SCHED_RR 20, still in its group\n");

	/* Back to SCHED_OTHER, then into a group with no RT runtime. */
	rc = run_chrt("-o", "0", pid);
	if (cg_group(G0, 100000, 0))
		die("setting up group " G0);
	ksft_test_result(rc == 0 && cg_attach(G0, pid) == 0 &&
			 cg_contains(G0, pid),
			 "a SCHED_OTHER task moves into a group with no RT runtime\n");

	rc = run_chrt("-f", "10", pid);
	ksft_test_result(rc != 0 && has_sched(pid, SCHED_OTHER, 0),
			 "chrt is refused in a group with no RT runtime\n");

	stop_child(pid);
	cg_remove(G);
	cg_remove(G0);
	ksft_finished();
}
