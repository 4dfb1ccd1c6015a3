// SPDX-License-Identifier: GPL-2.0
/*
 * A child forked by a real-time task of a group stays in the group with
 * its parent's policy and priority (unless the parent asked for
 * SCHED_RESET_ON_FORK, which resets the policy but not the group).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define G	"fork"

struct report {
	int policy;
	int prio;
	bool in_group;
};

/*
 * In a child of ours that joined G with policy|flags, prio: fork once more
 * and report what the grandchild sees of itself.
 */
static int probe(int policy, int flags, int prio, struct report *r)
{
	int pfd[2], st;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp;
		struct report rep = { -1, -1, false };
		pid_t gc;

		if (cg_attach(G, getpid()) || set_sched(0, policy | flags, prio))
			_exit(2);
		gc = fork();
		if (gc == 0) {
			rep.policy = sched_getscheduler(0);
			if (!sched_getparam(0, &sp))
				rep.prio = sp.sched_priority;
			rep.in_group = cg_contains(G, getpid());
			_exit(write(pfd[1], &rep, sizeof(rep)) != sizeof(rep));
		}
		_exit(gc < 0 || waitpid(gc, &st, 0) < 0 || st);
	}
	close(pfd[1]);
	st = read(pfd[0], r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	return st;
}

int main(void)
{
	struct report r;
	int err;

	rtedf_init();
	ksft_set_plan(4);

	if (cg_group(G, 100000, 10000))
		die("setting up group " G);

	err = probe(SCHED_FIFO, 0, 20, &r);
	ksft_test_result(!err && r.in_group,
			 "a child of a SCHED_FIFO task stays in its group\n");
	ksft_test_result(!err && r.policy == SCHED_FIFO && r.prio == 20,
			 "the child keeps SCHED_FIFO priority 20\n");

	err = probe(SCHED_RR, 0, 7, &r);
	ksft_test_result(!err && r.in_group && r.policy == SCHED_RR && r.prio == 7,
			 "a child of a SCHED_RR task keeps group, policy and priority\n");

	err = probe(SCHED_FIFO, SCHED_RESET_ON_FORK, 20, &r);
	ksft_test_result(!err && r.in_group && r.policy == SCHED_OTHER,
			 "SCHED_RESET_ON_FORK resets the child's policy, not its group\n");

	cg_remove(G);
	ksft_finished();
}
