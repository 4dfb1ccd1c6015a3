// SPDX-License-Identifier: GPL-2.0
/*
 * Hierarchical admission control with the four values of rt-edf.  At
 * every level the group's own tasks (cpu.rt_task_*) and its children must
 * fit in the group (cpu.rt_*), and the root's in the global limit.  A
 * write that does not fit gets EBUSY, a malformed one EINVAL (ERANGE for
 * numbers beyond 64 bits); neither changes anything.
 *
 * One table of writes for both hierarchies: on cgroup v2 (a boot with
 * rtedf.cgroup=v2) each line's write goes to cpu.rt.max or
 * cpu.rt.tasks.max, "$RUNTIME $PERIOD", where v1 writes one of the four
 * files; the root has no cpu.rt.max there, and its line lowers the
 * global limit (sched_rt_runtime_us) instead.
 */
#include <errno.h>
#include <stdio.h>
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

static const char *const files_v2[4] = {
	"cpu.rt.max", "cpu.rt.tasks.max", "cpu.rt.stat", NULL,
};

#define SYSCTL_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"

/* group NULL: file is a path of its own. */
static const char *path_of(const char *group, const char *file)
{
	return group ? cg_path(group, file) : file;
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/* The files of a group and of the root, and the global limit, as text. */
struct snap {
	char t[2][4][160];
	char global[32];
};

static void snapshot(const char *g, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 2; i++)
		for (int f = 0; f < 4; f++) {
			const char *file = cg_v2() ? files_v2[f] : files[f];

			if (file && g)
				read_text(cg_path(i ? "" : g, file), s->t[i][f], sizeof(s->t[i][f]));
		}
	read_text(SYSCTL_RUNTIME, s->global, sizeof(s->global));
}

/* Sets the four values, shrinking first; returns the first error. */
static int set4(const char *g, long long p, long long r, long long tp, long long tr)
{
	char val[64];
	int err;

	if (cg_v2()) {
		snprintf(val, sizeof(val), "0 %lld", tp);
		err = cg_write(g, "cpu.rt.tasks.max", val);
		snprintf(val, sizeof(val), "%lld %lld", r, p);
		if (!err)
			err = cg_write(g, "cpu.rt.max", val);
		snprintf(val, sizeof(val), "%lld %lld", tr, tp);
		if (!err)
			err = cg_write(g, "cpu.rt.tasks.max", val);
		return err;
	}
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

/* A child group of parent: on v2 the parent hands the cpu controller down. */
static void mkchild(const char *parent, const char *g)
{
	if (cg_v2())
		cg_write(parent, "cgroup.subtree_control", "+cpu");
	mkdir(cg_path(g, ""), 0755);
}

/*
 * One line of the table: the write on v1 (v1_group, v1_file) and on v2
 * (v2_group, v2_file: "" is the root, NULL a path of its own).
 */
struct row {
	const char *v1_group, *v1_file, *v1_val;
	const char *v2_group, *v2_file, *v2_val;
	int want;
	const char *what;
};

/*
 * A write that must fail with want and leave the groups, the root and
 * the global limit as they were.  A write accepted all the same (the
 * stock kernel) is undone, so that the tests after this one do not run
 * with, say, a root shrunk to 30%.
 */
static void refused(const struct row *r)
{
	const char *g = cg_v2() ? r->v2_group : r->v1_group;
	const char *file = cg_v2() ? r->v2_file : r->v1_file;
	const char *val = cg_v2() ? r->v2_val : r->v1_val;
	struct snap before, after;
	char old[160];
	bool ok;
	int err;

	snapshot(g ? g : "", &before);
	read_text(path_of(g, file), old, sizeof(old));
	err = write_file(path_of(g, file), val);
	snapshot(g ? g : "", &after);
	ok = err == -r->want && !memcmp(&before, &after, sizeof(before));
	ksft_print_msg("%s <- '%s': %s\n", path_of(g, file), val,
		       err ? strerror(-err) : "accepted");
	if (!err && *old)
		write_file(path_of(g, file), old);
	ksft_test_result(ok, "%s\n", r->what);
}

static const struct row over[] = {
	{ A_D, "cpu.rt_runtime_us", "1000", A_D, "cpu.rt.max", "1000",
	  EBUSY, "a second child does not fit: children plus own tasks exceed the group" },
	{ A, "cpu.rt_task_runtime_us", "30000", A, "cpu.rt.tasks.max", "30000 100000",
	  EBUSY, "the group's tasks cannot grow over its children's share" },
	{ A, "cpu.rt_runtime_us", "30000", A, "cpu.rt.max", "30000 100000",
	  EBUSY, "the group cannot shrink below its children and tasks" },
	{ A, "cpu.rt_period_us", "200000", A, "cpu.rt.max", "40000 200000",
	  EBUSY, "a longer period that shrinks the group below them is refused" },
	/* At the root: its own tasks plus the children within the limit. */
	{ "", "cpu.rt_task_runtime_us", "700000", "", "cpu.rt.tasks.max", "700000 1000000",
	  EBUSY, "the root's own tasks cannot take what the groups hold" },
	{ "", "cpu.rt_runtime_us", "300000", NULL, SYSCTL_RUNTIME, "300000",
	  EBUSY, "the root (v2: the global limit) cannot shrink below its children and tasks" },
};

static const struct row malformed[] = {
	{ A, "cpu.rt_task_runtime_us", "-2", A, "cpu.rt.tasks.max", "-2 100000",
	  EINVAL, "a negative task runtime other than -1 is invalid" },
	{ A, "cpu.rt_task_runtime_us", "abc", A, "cpu.rt.tasks.max", "abc",
	  EINVAL, "a non-numeric task runtime is invalid" },
	{ A, "cpu.rt_task_runtime_us", "200000", A, "cpu.rt.tasks.max", "200000 100000",
	  EINVAL, "a task runtime longer than the task period is invalid" },
	{ A, "cpu.rt_task_runtime_us", "99999999999999999999",
	  A, "cpu.rt.tasks.max", "99999999999999999999 100000",
	  ERANGE, "a task runtime beyond 64 bits is out of range" },
	{ A, "cpu.rt_task_period_us", "0", A, "cpu.rt.tasks.max", "20000 0",
	  EINVAL, "a zero task period is invalid" },
	{ A, "cpu.rt_task_period_us", "-5", A, "cpu.rt.tasks.max", "20000 -5",
	  EINVAL, "a negative task period is invalid" },
	{ A, "cpu.rt_task_period_us", "18446744073709551615",
	  A, "cpu.rt.tasks.max", "20000 18446744073709551615",
	  EINVAL, "a task period overflowing ns is invalid" },
	{ "", "cpu.rt_task_runtime_us", "0", "", "cpu.rt.tasks.max", "0 1000000",
	  EINVAL, "the root's own tasks cannot be left without runtime" },
};

static bool starts(const char *g, const char *file, const char *prefix)
{
	char buf[160];

	cg_read_str(g, file, buf, sizeof(buf));
	return !strncmp(buf, prefix, strlen(prefix));
}

int main(void)
{
	long long run = -1, trun = -1;
	bool ok;
	int err, i;

	rtedf_init();
	ksft_set_plan(21);

	if (cg_v2()) {
		ok = cg_has("", "cpu.rt.tasks.max") && cg_has("", "cpu.rt.stat") &&
		     !cg_has("", "cpu.rt.max");
		ksft_test_result(ok, "the root group has cpu.rt.tasks.max and cpu.rt.stat\n");
	} else {
		for (i = 0; i < 4 && cg_has("", files[i]); i++)
			;
		ksft_test_result(i == 4, "the root group has the four rt files\n");
	}

	cg_remove(A_C);
	cg_remove(A_D);
	cg_remove(A);
	cg_remove(S_C);
	cg_remove(S);
	err = mkdir(cg_path(A, ""), 0755);
	if (cg_v2()) {
		ok = starts(A, "cpu.rt.max", "0 ") && starts(A, "cpu.rt.tasks.max", "auto");
	} else {
		cg_read_ll(A, "cpu.rt_runtime_us", &run);
		cg_read_ll(A, "cpu.rt_task_runtime_us", &trun);
		ok = run == 0 && trun == 0;
	}
	ksft_test_result(!err && ok, "a new group has no runtime, for the group or its tasks\n");

	/* A group of 40%: its tasks 20%, one child of 20% fits exactly. */
	err = set4(A, 100000, 40000, 100000, 20000);
	ksft_test_result(!err, "a group of 40%% with 20%% for its own tasks is admitted\n");
	mkchild(A, A_C);
	mkchild(A, A_D);
	err = set4(A_C, 100000, 20000, 100000, 20000);
	ksft_test_result(!err, "a child taking the remaining 20%% is admitted\n");
	/* The root's rows are in us of a second (PREEMPT_RT: see rtedf.h). */
	if (root_own_reserve(ROOT_TASK_RUNTIME_US, 1000000))
		ksft_print_msg("cannot give the root's own tasks 50 ms every second\n");
	for (i = 0; i < (int)(sizeof(over) / sizeof(over[0])); i++)
		refused(&over[i]);
	root_own_default();

	/* Exact fixed-point arithmetic: 10000/100000 twice is 20000/100000. */
	mkdir(cg_path(S, ""), 0755);
	mkchild(S, S_C);
	err = set4(S, 100000, 20000, 100000, 10000);
	if (!err)
		err = set4(S_C, 100000, 10000, 100000, 10000);
	ksft_test_result(!err, "a 20000/100000 group splits exactly into two 10000/100000 parts\n");
	err = set4(S_C, 300000, 30000, 300000, 30000);
	ksft_test_result(!err, "and into 10000/100000 plus 30000/300000\n");

	/* Malformed writes to the task files. */
	for (i = 0; i < (int)(sizeof(malformed) / sizeof(malformed[0])); i++)
		refused(&malformed[i]);

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
