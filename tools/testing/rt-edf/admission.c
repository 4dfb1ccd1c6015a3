// SPDX-License-Identifier: GPL-2.0
/*
 * Hierarchical admission control with the four files of rt-edf.  At every
 * level the group's own tasks (cpu.rt_task_*) and its children must fit
 * in the group (cpu.rt_*), and the root's in the global limit.  A write
 * that does not fit gets EBUSY, a malformed one EINVAL (ERANGE for
 * numbers beyond 64 bits); neither changes anything.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "rtedf.h"

#define A	"adm"
#define A_C	"adm/child"
#define A_D	"adm/child2"
#define S	"adm-split"
#define S_C	"adm-split/child"

/* The four values of a group, in the order of the files below. */
static const char *const files[4] = {
	"cpu.rt_period_us", "cpu.rt_runtime_us",
	"cpu.rt_task_period_us", "cpu.rt_task_runtime_us",
};

struct four {
	long long v[4];
};

static struct four get(const char *g)
{
	struct four f;
	int i;

	for (i = 0; i < 4; i++) {
		f.v[i] = -1;
		cg_read_ll(g, files[i], &f.v[i]);
	}
	return f;
}

static bool same(struct four a, struct four b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/* Sets the four values, shrinking first; returns the first error. */
static int set4(const char *g, long long p, long long r, long long tp, long long tr)
{
	int err;

	err = cg_write_ll(g, "cpu.rt_task_runtime_us", 0);
	if (!err)
		err = cg_write_ll(g, "cpu.rt_period_us", p);
	if (!err)
		err = cg_write_ll(g, "cpu.rt_runtime_us", r);
	if (!err)
		err = cg_write_ll(g, "cpu.rt_task_period_us", tp);
	if (!err)
		err = cg_write_ll(g, "cpu.rt_task_runtime_us", tr);
	return err;
}

/*
 * A write that must fail with want and leave the groups as they were.  A
 * write accepted all the same (the stock kernel) is undone, so that the
 * tests after this one do not run with, say, a root shrunk to 30%.
 */
static void refused(const char *g, const char *file, const char *val, int want,
		    const char *what)
{
	struct four before = get(g), root = get("");
	int err = cg_write(g, file, val), i;
	bool ok = err == -want && same(before, get(g)) && same(root, get(""));

	ksft_print_msg("%s/%s <- '%s': %s\n", g, file, val, err ? strerror(-err) : "accepted");
	for (i = 0; !err && i < 4; i++)
		if (!strcmp(file, files[i]) && before.v[i] >= 0)
			cg_write_ll(g, file, before.v[i]);
	ksft_test_result(ok, "%s\n", what);
}

int main(void)
{
	struct four f;
	int err, i;

	rtedf_init();
	v1_interface_only();
	ksft_set_plan(21);

	for (i = 0; i < 4 && cg_has("", files[i]); i++)
		;
	ksft_test_result(i == 4, "the root group has the four rt files\n");

	cg_remove(A_C);
	cg_remove(A_D);
	cg_remove(A);
	cg_remove(S_C);
	cg_remove(S);
	err = mkdir(cg_path(A, ""), 0755);
	f = get(A);
	ksft_test_result(!err && f.v[1] == 0 && f.v[3] == 0,
			 "a new group has no runtime, for the group or its tasks\n");

	/* A group of 40%: its tasks 20%, one child of 20% fits exactly. */
	err = set4(A, 100000, 40000, 100000, 20000);
	ksft_test_result(!err, "a group of 40%% with 20%% for its own tasks is admitted\n");
	mkdir(cg_path(A_C, ""), 0755);
	mkdir(cg_path(A_D, ""), 0755);
	err = set4(A_C, 100000, 20000, 100000, 20000);
	ksft_test_result(!err, "a child taking the remaining 20%% is admitted\n");
	refused(A_D, "cpu.rt_runtime_us", "1000", EBUSY,
		"a second child does not fit: children plus own tasks exceed the group");
	refused(A, "cpu.rt_task_runtime_us", "30000", EBUSY,
		"the group's tasks cannot grow over its children's share");
	refused(A, "cpu.rt_runtime_us", "30000", EBUSY,
		"the group cannot shrink below its children and tasks");
	refused(A, "cpu.rt_period_us", "200000", EBUSY,
		"a longer period that shrinks the group below them is refused");

	/* At the root: its own tasks plus the children within the limit. */
	refused("", "cpu.rt_task_runtime_us", "700000", EBUSY,
		"the root's own tasks cannot take what the groups hold");
	refused("", "cpu.rt_runtime_us", "300000", EBUSY,
		"the root cannot shrink below its children and tasks");

	/* Exact fixed-point arithmetic: 10000/100000 twice is 20000/100000. */
	mkdir(cg_path(S, ""), 0755);
	mkdir(cg_path(S_C, ""), 0755);
	err = set4(S, 100000, 20000, 100000, 10000);
	if (!err)
		err = set4(S_C, 100000, 10000, 100000, 10000);
	ksft_test_result(!err, "a 20000/100000 group splits exactly into two 10000/100000 parts\n");
	err = set4(S_C, 300000, 30000, 300000, 30000);
	ksft_test_result(!err, "and into 10000/100000 plus 30000/300000\n");

	/* Malformed writes to the task files. */
	refused(A, "cpu.rt_task_runtime_us", "-2", EINVAL,
		"a negative task runtime other than -1 is invalid");
	refused(A, "cpu.rt_task_runtime_us", "abc", EINVAL, "a non-numeric task runtime is invalid");
	refused(A, "cpu.rt_task_runtime_us", "200000", EINVAL,
		"a task runtime longer than the task period is invalid");
	refused(A, "cpu.rt_task_runtime_us", "99999999999999999999", ERANGE,
		"a task runtime beyond 64 bits is out of range");
	refused(A, "cpu.rt_task_period_us", "0", EINVAL, "a zero task period is invalid");
	refused(A, "cpu.rt_task_period_us", "-5", EINVAL, "a negative task period is invalid");
	refused(A, "cpu.rt_task_period_us", "18446744073709551615", EINVAL,
		"a task period overflowing ns is invalid");
	refused("", "cpu.rt_task_runtime_us", "0", EINVAL,
		"the root's own tasks cannot be left without runtime");

	/* No RT task where the group's own tasks have no runtime. */
	err = set4(A_D, 100000, 0, 100000, 0);
	{
		pid_t pid = spawn_busy(A_D, SCHED_FIFO, 10, 0);

		ksft_test_result(!err && pid < 0,
				 "no RT task in a group whose own tasks have no runtime\n");
		stop_child(pid);
	}

	cg_remove(A_C);
	cg_remove(A_D);
	cg_remove(A);
	cg_remove(S_C);
	cg_remove(S);
	ksft_finished();
}
