// SPDX-License-Identifier: GPL-2.0
/*
 * The bad input matrix: every malformed or over-subscribing write to a
 * group's RT files is refused with the errno the documentation
 * (Documentation/scheduler/sched-rt-edf.rst, "Admission control") gives
 * for it, and changes nothing, in the group or anywhere else.
 *
 * cgroup v1 has four files: cpu.rt_period_us and cpu.rt_task_period_us
 * take unsigned numbers (kstrtoull), cpu.rt_runtime_us and
 * cpu.rt_task_runtime_us signed ones (kstrtoll); both accept one trailing
 * newline, as echo writes, and nothing else around the number.
 *
 * cgroup v2 (a boot with rtedf.cgroup=v2) has the same four values as
 * the two fields of cpu.rt.max and cpu.rt.tasks.max, "$RUNTIME $PERIOD",
 * both unsigned decimals: every value of the table is written in each of
 * the four fields, with the other field as it is, and gets the errno of a
 * v1 period file.  Whitespace separates the fields there, so the table's
 * values with whitespace are replaced by the v2 format's own bad writes.
 * The limits below are one table with a v1 and a v2 write on each line.
 * Failed before the v2 numbers kept kstrtou64()'s ERANGE (patch 11, cgroup
 * v2, as first written answered EINVAL to numbers beyond 64 bits).
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

/* What is read back: the groups' and the root's files, as text. */
#define NR_GROUPS	4
#define NR_SHOWN	4
struct state {
	char v[NR_GROUPS][NR_SHOWN][192];
};

static const char *const groups[NR_GROUPS] = { G, CHILD, IDLE, "" };

static const char *const shown_v2[NR_SHOWN] = {
	"cpu.rt.max", "cpu.rt.tasks.max", "cpu.rt.stat",
};

static void snapshot(struct state *s)
{
	memset(s, 0, sizeof(*s));
	for (int g = 0; g < NR_GROUPS; g++)
		for (int f = 0; f < NR_SHOWN; f++) {
			const char *file = cg_v2() ? shown_v2[f] : files[f];
			FILE *in = file ? fopen(cg_path(groups[g], file), "r") : NULL;

			if (in) {
				fread(s->v[g][f], 1, sizeof(s->v[g][f]) - 1, in);
				fclose(in);
			}
		}
}

static bool unchanged(const struct state *before)
{
	struct state now;

	snapshot(&now);
	return !memcmp(&now, before, sizeof(now));
}

static int nr_points;

/* One write that must fail with errno want and change nothing. */
static void refused(const char *group, const char *file, const char *val,
		    int want, const char *what)
{
	struct state before;
	char shown[96];
	int err, i;

	for (i = 0; val[i] && i < (int)sizeof(shown) - 1; i++)
		shown[i] = val[i] == '\n' ? '|' : val[i];
	shown[i] = 0;
	nr_points++;
	if (!cg_has(group, file)) {
		ksft_test_result_skip("%s refuses %s: no such file\n", file, what);
		return;
	}
	snapshot(&before);
	err = cg_write(group, file, val);
	if (err != -want)
		ksft_print_msg("%s%s%s <- '%s' (%s, '|' a newline): %s, want %s\n", group, *group ? "/" : "",
			       file, shown, what, err ? strerror(-err) : "accepted",
			       strerror(want));
	ksft_test_result(err == -want && unchanged(&before),
			 "%s%s%s refuses %s with %s and changes nothing\n",
			 group, *group ? "/" : "", file, what, strerrorname_np(want));
}

/*
 * The limits: numbers that make no reservation or over-subscribe, each
 * written on v1 (v1_file) or v2 (v2_file, the whole "$RUNTIME $PERIOD").
 */
struct limit {
	const char *group;
	const char *v1_file, *v1_val;
	const char *v2_file, *v2_val;
	int want;
	const char *what;
};

static const struct limit limits[] = {
	/* Values that are numbers but make no reservation. */
	{ G, "cpu.rt_period_us", "0", "cpu.rt.max", "20000 0",
	  EINVAL, "a zero period" },
	{ G, "cpu.rt_task_period_us", "0", "cpu.rt.tasks.max", "10000 0",
	  EINVAL, "a zero period" },
	{ G, "cpu.rt_runtime_us", "100001", "cpu.rt.max", "100001 100000",
	  EINVAL, "a runtime longer than the period" },
	{ G, "cpu.rt_task_runtime_us", "100001", "cpu.rt.tasks.max", "100001 100000",
	  EINVAL, "a runtime longer than the period" },
	{ G, "cpu.rt_period_us", "19999", "cpu.rt.max", "20000 19999",
	  EINVAL, "a period shorter than the runtime" },
	/*
	 * Below the minimum period (sched_deadline_period_min_us, 100 us by
	 * default) and the minimum runtime (10 us), each in a group where the
	 * value would otherwise be admitted.  Failed before the limits (at
	 * 34e0892): accepted.
	 */
	{ IDLE, "cpu.rt_period_us", "99", "cpu.rt.max", "0 99",
	  EINVAL, "a period below sched_deadline_period_min_us" },
	{ IDLE, "cpu.rt_task_period_us", "99", "cpu.rt.tasks.max", "0 99",
	  EINVAL, "a period below sched_deadline_period_min_us" },
	{ IDLE, "cpu.rt_runtime_us", "9", "cpu.rt.max", "9",
	  EINVAL, "a runtime below 10 us" },
	{ G, "cpu.rt_task_runtime_us", "9", "cpu.rt.tasks.max", "9 100000",
	  EINVAL, "a runtime below 10 us" },
	/* Over-subscription, at every level. */
	{ CHILD, "cpu.rt_runtime_us", "30000", "cpu.rt.max", "30000 100000",
	  EBUSY, "a child larger than its parent" },
	{ G, "cpu.rt_runtime_us", "15000", "cpu.rt.max", "15000 100000",
	  EBUSY, "a parent shrunk below its children and own tasks" },
	{ G, "cpu.rt_period_us", "200000", "cpu.rt.max", "20000 200000",
	  EBUSY, "a parent period that shrinks it below its children" },
	{ G, "cpu.rt_task_runtime_us", "15000", "cpu.rt.tasks.max", "15000 100000",
	  EBUSY, "own tasks that no longer fit next to the children" },
	{ G, "cpu.rt_runtime_us", "100000", "cpu.rt.max", "max",
	  EBUSY, "a whole CPU, above the global RT limit" },
	/* NULL: the root's period, all of it; on v2 the root has no cpu.rt.max. */
	{ "", "cpu.rt_runtime_us", NULL, "cpu.rt.tasks.max", "1000000 1000000",
	  EBUSY, "a root or its own tasks above the global RT limit" },
	{ "", "cpu.rt_task_runtime_us", "0", "cpu.rt.tasks.max", "0 1000000",
	  EINVAL, "no runtime for the root's own tasks" },
};
#define NR_LIMITS	(sizeof(limits) / sizeof(limits[0]))

/* v2: writes the format itself makes bad, to both files. */
static const struct {
	const char *val, *what;
} v2_format[] = {
	{ "\n", "an empty line" },
	{ " ", "whitespace" },
	{ "1000 100000 5", "a third field" },
	{ "max max", "max as the period" },
	{ "0x100 100000", "a hexadecimal number" },
	{ "1000,100000", "a comma between the fields" },
	{ "auto 100000", "auto with a period" },
};
#define NR_V2_FORMAT	(sizeof(v2_format) / sizeof(v2_format[0]))

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

static bool has_space(const char *v)
{
	return strpbrk(v, " \t\n") != NULL;
}

/* The points of the matrix of malformed numbers. */
static int matrix_points(void)
{
	const int nv = sizeof(values) / sizeof(values[0]);
	int n = 0;

	if (!cg_v2())
		return nv * NR_FILES - 1;
	for (int i = 0; i < nv; i++)
		n += has_space(values[i].val) ? 0 : NR_FILES;
	return n + 2 * NR_V2_FORMAT;
}

/* v1: every value in every file. */
static void matrix_v1(void)
{
	const int nv = sizeof(values) / sizeof(values[0]);

	/*
	 * -1 in cpu.rt_task_runtime_us makes own tasks follow the group
	 * (container_rt.c).
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
}

/*
 * v2: every value in each field of cpu.rt.max ("20000 100000") and of
 * cpu.rt.tasks.max ("10000 100000"), the other field as it is.
 */
static void matrix_v2(void)
{
	static const char *const file[2] = { "cpu.rt.max", "cpu.rt.tasks.max" };
	static const int runtime[2] = { Q_US, QT_US };
	const int nv = sizeof(values) / sizeof(values[0]);
	char val[96], what[128];

	for (int f = 0; f < 2; f++)
		for (int field = 0; field < 2; field++)
			for (int i = 0; i < nv; i++) {
				if (has_space(values[i].val))
					continue;
				if (field)
					snprintf(val, sizeof(val), "%d %s", runtime[f], values[i].val);
				else
					snprintf(val, sizeof(val), "%s %d", values[i].val, P_US);
				snprintf(what, sizeof(what), "%s as the %s", values[i].what,
					 field ? "period" : "runtime");
				refused(G, file[f], val, values[i].period_errno, what);
			}
	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < NR_V2_FORMAT; i++)
			refused(G, file[f], v2_format[i].val, EINVAL, v2_format[i].what);
}

int main(void)
{
	long long root_p = 0;
	const char *rt_group;
	int plan;
	char val[64];
	pid_t pid;

	rtedf_init();
	plan = matrix_points() + NR_LIMITS + 1;
	ksft_set_plan(plan);
	setup();

	if (cg_v2())
		matrix_v2();
	else
		matrix_v1();

	cg_read_ll("", "cpu.rt_period_us", &root_p);
	snprintf(val, sizeof(val), "%lld", root_p);
	for (size_t i = 0; i < NR_LIMITS; i++) {
		const struct limit *l = &limits[i];

		if (cg_v2())
			refused(l->group, l->v2_file, l->v2_val, l->want, l->what);
		else
			refused(l->group, l->v1_file, l->v1_val ?: val, l->want, l->what);
	}

	/*
	 * Taking all runtime from own tasks while they include an RT task:
	 * on v2 in the leaf, since a group with children holds no task.
	 */
	rt_group = cg_v2() ? CHILD : G;
	pid = spawn_busy(rt_group, SCHED_FIFO, 10, -1);
	if (pid < 0)
		die("starting an RT task");
	if (cg_v2())
		refused(rt_group, "cpu.rt.tasks.max", "0 100000", EBUSY,
			"no runtime while the group has an RT task");
	else
		refused(rt_group, "cpu.rt_task_runtime_us", "0", EBUSY,
			"no runtime while the group has an RT task");
	stop_child(pid);

	cg_remove(CHILD);
	cg_remove(G);
	cg_remove(IDLE);
	if (nr_points != plan)
		ksft_exit_fail_msg("planned %d points, ran %d\n", plan, nr_points);
	ksft_finished();
}
