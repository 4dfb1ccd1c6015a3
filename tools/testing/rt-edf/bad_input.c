// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed or over-subscribing writes to a group's RT bandwidth files are
 * refused with an error and change nothing.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rtedf.h"

#define G	"bad"
#define CHILD	"bad/child"
#define BIG	"bad-big"
#define P_US	100000
#define Q_US	10000

struct bad_write {
	const char *file;
	const char *val;
	const char *what;
};

static const struct bad_write cases[] = {
	{ "cpu.rt_runtime_us", "-5", "a negative runtime" },
	{ "cpu.rt_runtime_us", "abc", "a non-numeric runtime" },
	{ "cpu.rt_runtime_us", "12abc", "a runtime with trailing garbage" },
	{ "cpu.rt_runtime_us", "\n", "an empty runtime" },
	{ "cpu.rt_runtime_us", "99999999999999999999", "a runtime beyond 64 bits" },
	{ "cpu.rt_runtime_us", "9223372036854775807", "a runtime overflowing ns" },
	{ "cpu.rt_runtime_us", "200000", "a runtime longer than the period" },
	{ "cpu.rt_period_us", "0", "a zero period" },
	{ "cpu.rt_period_us", "-100000", "a negative period" },
	{ "cpu.rt_period_us", "abc", "a non-numeric period" },
	{ "cpu.rt_period_us", "99999999999999999999", "a period beyond 64 bits" },
	{ "cpu.rt_period_us", "9223372036854775808", "a period overflowing ns" },
	{ "cpu.rt_period_us", "5000", "a period shorter than the runtime" },
};

static bool unchanged(const char *group, long long period, long long runtime)
{
	long long p = -1, r = -1;

	cg_read_ll(group, "cpu.rt_period_us", &p);
	cg_read_ll(group, "cpu.rt_runtime_us", &r);
	return p == period && r == runtime;
}

static void printable(const char *in, char *out, size_t len)
{
	snprintf(out, len, "%s", in);
	for (char *s = out; *s; s++)
		if (*s == '\n')
			*s = ' ';
}

int main(void)
{
	unsigned int i, n = sizeof(cases) / sizeof(cases[0]);
	long long root_period = 0, root_runtime = 0;
	char shown[64];
	int err;

	rtedf_init();
	ksft_set_plan(n + 2);

	cg_remove(CHILD);
	cg_remove(G);
	if (cg_group(G, P_US, Q_US))
		die("setting up group " G);

	for (i = 0; i < n; i++) {
		err = cg_write(G, cases[i].file, cases[i].val);
		printable(cases[i].val, shown, sizeof(shown));
		ksft_print_msg("%s <- '%s': %s\n", cases[i].file, shown,
			       err ? strerror(-err) : "accepted");
		ksft_test_result(err && unchanged(G, P_US, Q_US),
				 "%s refuses %s and changes nothing\n",
				 cases[i].file, cases[i].what);
	}

	/* Over-subscription: a child larger than its parent. */
	if (mkdir(cg_path(CHILD, ""), 0755))
		die("mkdir " CHILD);
	cg_write_ll(CHILD, "cpu.rt_period_us", P_US);
	err = cg_write_ll(CHILD, "cpu.rt_runtime_us", 2 * Q_US);
	ksft_test_result(err && unchanged(CHILD, P_US, 0) &&
			 unchanged(G, P_US, Q_US),
			 "a child larger than its parent is refused\n");
	cg_remove(CHILD);

	/* Over-subscription at the root: more than the global RT limit. */
	cg_read_ll("", "cpu.rt_period_us", &root_period);
	cg_read_ll("", "cpu.rt_runtime_us", &root_runtime);
	cg_remove(BIG);
	if (mkdir(cg_path(BIG, ""), 0755))
		die("mkdir " BIG);
	cg_write_ll(BIG, "cpu.rt_period_us", root_period);
	err = cg_write_ll(BIG, "cpu.rt_runtime_us",
			  root_runtime + (root_period - root_runtime) / 2);
	ksft_test_result(err && unchanged(BIG, root_period, 0) &&
			 unchanged("", root_period, root_runtime),
			 "a group larger than the global RT limit is refused\n");
	cg_remove(BIG);

	cg_remove(G);
	ksft_finished();
}
