// SPDX-License-Identifier: GPL-2.0
/*
 * The bad input matrix: every malformed or over-subscribing write to a
 * group's four RT files is refused with the errno the documentation
 * (Documentation/scheduler/sched-rt-edf.rst, "Admission control") gives
 * for it, and changes nothing, in the group or anywhere else.
 *
 * The files: cpu.rt_period_us and cpu.rt_task_period_us take unsigned
 * numbers (kstrtoull), cpu.rt_runtime_us and cpu.rt_task_runtime_us
 * signed ones (kstrtoll); both accept one trailing newline, as echo
 * writes, and nothing else around the number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rtedf.h"

#define G	"bad"
#define CHILD	"bad/child"
#define IDLE	"bad-idle"	/* a new group: no runtime, a period of 1 s */
#define P_US	100000
#define Q_US	20000		/* the group */
#define QT_US	10000		/* its own tasks */
#define QC_US	10000		/* its child */

static const char *const files[] = {
	"cpu.rt_period_us", "cpu.rt_runtime_us",
	"cpu.rt_task_period_us", "cpu.rt_task_runtime_us",
};
#define NR_FILES	4

/* A value written to every file, and what each kind of file answers. */
struct bad_value {
	const char *val;
	const char *what;
	int period_errno;	/* cpu.rt_period_us, cpu.rt_task_period_us */
	int runtime_errno;	/* cpu.rt_runtime_us, cpu.rt_task_runtime_us */
};

static const struct bad_value values[] = {
	{ "-1", "minus one", EINVAL, EINVAL },
	{ "-100000", "a negative value", EINVAL, EINVAL },
	{ "\n", "an empty line", EINVAL, EINVAL },
	{ " ", "whitespace", EINVAL, EINVAL },
	{ " 50000", "leading whitespace", EINVAL, EINVAL },
	{ "50000 ", "a trailing space", EINVAL, EINVAL },
	{ "abc", "a non-numeric value", EINVAL, EINVAL },
	{ "50000abc", "trailing garbage", EINVAL, EINVAL },
	{ "5e4", "a float", EINVAL, EINVAL },
	/* In 64 bits, but more than 2^44 ns (about 4.9 hours). */
	{ "17592186045", "a value above 2^44 ns", EINVAL, EINVAL },
	{ "9223372036854775807", "2^63 - 1", EINVAL, EINVAL },
	/* Signed files cannot hold 2^63; unsigned ones refuse it as too big. */
	{ "9223372036854775808", "2^63", EINVAL, ERANGE },
	{ "18446744073709551615", "2^64 - 1", EINVAL, ERANGE },
	{ "18446744073709551616", "2^64", ERANGE, ERANGE },
	{ "99999999999999999999999", "a 23-digit number", ERANGE, ERANGE },
};

/* The four values of the groups and the root. */
#define NR_GROUPS	4
struct state {
	long long v[NR_GROUPS][NR_FILES];
};

static const char *const groups[NR_GROUPS] = { G, CHILD, IDLE, "" };

static void snapshot(struct state *s)
{
	for (int g = 0; g < NR_GROUPS; g++)
		for (int f = 0; f < NR_FILES; f++)
			if (cg_read_ll(groups[g], files[f], &s->v[g][f]))
				s->v[g][f] = -1;
}

static bool unchanged(const struct state *before)
{
	struct state now;

	snapshot(&now);
	return !memcmp(&now, before, sizeof(now));
}

static int nr_points;

/* The points after the malformed numbers. */
#define NR_LIMITS	16

/* One write that must fail with errno want and change nothing. */
static void refused(const char *group, const char *file, const char *val,
		    int want, const char *what)
{
	struct state before;
	int err;

	nr_points++;
	if (!cg_has(group, file)) {
		ksft_test_result_skip("%s refuses %s: no such file\n", file, what);
		return;
	}
	snapshot(&before);
	err = cg_write(group, file, val);
	if (err != -want)
		ksft_print_msg("%s%s%s <- %s: %s, want %s\n", group, *group ? "/" : "",
			       file, what, err ? strerror(-err) : "accepted",
			       strerror(want));
	ksft_test_result(err == -want && unchanged(&before),
			 "%s%s%s refuses %s with %s and changes nothing\n",
			 group, *group ? "/" : "", file, what, strerrorname_np(want));
}

static void setup(void)
{
	cg_remove(CHILD);
	cg_remove(G);
	cg_remove(IDLE);
	if (mkdir(cg_path(IDLE, ""), 0755))
		die("making " IDLE);
	if (cg_group(G, P_US, Q_US))
		die("setting up " G);
	if (cg_has(G, "cpu.rt_task_runtime_us") &&
	    cg_write_ll(G, "cpu.rt_task_runtime_us", QT_US))
		die("setting up " G "'s own tasks");
	if (cg_group(CHILD, P_US, QC_US))
		die("setting up " CHILD);
}

int main(void)
{
	const int nv = sizeof(values) / sizeof(values[0]);
	long long root_p = 0, root_q = 0;
	char val[64];
	pid_t pid;

	rtedf_init();
	v1_interface_only();
	ksft_set_plan(nv * NR_FILES - 1 + NR_LIMITS);
	setup();

	/*
	 * Malformed numbers, in every file; but -1 in cpu.rt_task_runtime_us
	 * makes own tasks follow the group (container_rt.c).
	 */
	for (int f = 0; f < NR_FILES; f++)
		for (int i = 0; i < nv; i++)
			if (strcmp(files[f], "cpu.rt_task_runtime_us") ||
			    strcmp(values[i].val, "-1"))
				refused(G, files[f], values[i].val,
					strstr(files[f], "period") ?
					values[i].period_errno :
					values[i].runtime_errno,
					values[i].what);

	/* Values that are numbers but make no reservation. */
	refused(G, "cpu.rt_period_us", "0", EINVAL, "a zero period");
	refused(G, "cpu.rt_task_period_us", "0", EINVAL, "a zero period");
	refused(G, "cpu.rt_runtime_us", "100001", EINVAL,
		"a runtime longer than the period");
	refused(G, "cpu.rt_task_runtime_us", "100001", EINVAL,
		"a runtime longer than the period");
	refused(G, "cpu.rt_period_us", "19999", EINVAL,
		"a period shorter than the runtime");

	/*
	 * Below the minimum period (sched_deadline_period_min_us, 100 us by
	 * default) and the minimum runtime (10 us), each in a group where the
	 * value would otherwise be admitted.  Failed before the limits (at
	 * 34e0892): accepted.
	 */
	refused(IDLE, "cpu.rt_period_us", "99", EINVAL,
		"a period below sched_deadline_period_min_us");
	refused(IDLE, "cpu.rt_task_period_us", "99", EINVAL,
		"a period below sched_deadline_period_min_us");
	refused(IDLE, "cpu.rt_runtime_us", "9", EINVAL,
		"a runtime below 10 us");
	refused(G, "cpu.rt_task_runtime_us", "9", EINVAL,
		"a runtime below 10 us");

	/* Over-subscription, at every level. */
	refused(CHILD, "cpu.rt_runtime_us", "30000", EBUSY,
		"a child larger than its parent");
	refused(G, "cpu.rt_runtime_us", "15000", EBUSY,
		"a parent shrunk below its children and own tasks");
	refused(G, "cpu.rt_period_us", "200000", EBUSY,
		"a parent period that shrinks it below its children");
	refused(G, "cpu.rt_task_runtime_us", "15000", EBUSY,
		"own tasks that no longer fit next to the children");
	cg_read_ll("", "cpu.rt_period_us", &root_p);
	cg_read_ll("", "cpu.rt_runtime_us", &root_q);
	snprintf(val, sizeof(val), "%lld", root_p);
	refused("", "cpu.rt_runtime_us", val, EBUSY,
		"a root above the global RT limit");
	refused("", "cpu.rt_task_runtime_us", "0", EINVAL,
		"no runtime for the root's own tasks");

	/* Taking all runtime from own tasks while they include an RT task. */
	pid = spawn_busy(G, SCHED_FIFO, 10, -1);
	if (pid < 0)
		die("starting an RT task in " G);
	refused(G, "cpu.rt_task_runtime_us", "0", EBUSY,
		"no runtime while the group has an RT task");
	stop_child(pid);

	cg_remove(CHILD);
	cg_remove(G);
	cg_remove(IDLE);
	if (nr_points != nv * NR_FILES - 1 + NR_LIMITS)
		ksft_exit_fail_msg("planned %d points, ran %d\n",
				   nv * NR_FILES - 1 + NR_LIMITS, nr_points);
	ksft_finished();
}
