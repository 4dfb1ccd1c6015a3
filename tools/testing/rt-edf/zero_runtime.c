// SPDX-License-Identifier: GPL-2.0
/*
 * With RT throttling off (kernel.sched_rt_runtime_us = -1), RT tasks may
 * run in groups that reserve nothing (a new group has runtime 0), as on
 * stock.  They must not starve anybody: servers without runtime serve
 * in the background, after every server with a runtime, and share what
 * is left among themselves.  All on CPU 0, for RUN_NS:
 *
 *  - groups Z1 and Z2, runtime 0 (period 1 s, a new group's): a busy
 *    task each, SCHED_FIFO 50;
 *  - group T, 20 ms / 100 ms: a periodic task (SCHED_FIFO 1) that needs
 *    15 ms every 100 ms, its deadline the next release;
 *  - the root group: a periodic task (SCHED_FIFO 1) that needs 1 ms
 *    every 100 ms.
 *
 * T's and the root's servers always go before Z1's and Z2's, so their
 * tasks meet every deadline: T's task is served first whenever it has
 * work but for the root's 1 ms (and the test's measurer), and the root
 * task waits at most for T's 15 ms.  Z1 and Z2 share the rest, about
 * 1000 - 150 - 10 = 840 per mille: each must receive at least a quarter
 * of it, 210 per mille, over the RUN_NS - 1.5 s measured (from 1.2 s,
 * past the 1 s period of Z1 and Z2).
 *
 * Fails on the series before this rule (patch 1 as of 34e0892): a server
 * without runtime kept the deadline it woke with, so a period after
 * waking it had the earliest deadline of its CPU for ever: Z1 starved
 * T, the root and Z2.  Fails on stock, where priorities order the groups
 * and the FIFO 50 tasks starve the FIFO 1 ones.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtedf.h"

#define GZP		"zero-p"
/*
 * On cgroup v2 a group without runtime directly below the root runs its
 * RT tasks on the root's reservation (unreserved, as without groups):
 * there Z1 and Z2 are children of zero-p, which reserves 1%, and so
 * servers of their own.
 */
#define GZ1		(cg_v2() ? GZP "/zero-1" : "zero-1")
#define GZ2		(cg_v2() ? GZP "/zero-2" : "zero-2")
#define GT		"zero-t"
#define RUN_NS		(3 * NSEC_PER_SEC)
#define PERIOD		(100 * NSEC_PER_MSEC)
#define SYSCTL		"/proc/sys/kernel/sched_rt_runtime_us"

static int write_sysctl(long long v)
{
	FILE *f = fopen(SYSCTL, "w");
	int err;

	if (!f)
		return -1;
	err = fprintf(f, "%lld\n", v) < 0;
	return fclose(f) || err ? -1 : 0;
}

static long long read_sysctl(void)
{
	FILE *f = fopen(SYSCTL, "r");
	long long v = 0;

	if (!f || fscanf(f, "%lld", &v) != 1)
		v = 0;
	if (f)
		fclose(f);
	return v;
}

int main(void)
{
	struct periodic_stats *ts, *rs;
	long long old;
	pid_t z[2], t, r;
	uint64_t t0;
	double pm[2];

	rtedf_init();
	ksft_set_plan(3);

	old = read_sysctl();
	if (cg_group(GT, 100000, 20000))
		die("setting up T");
	if (cg_v2() && (cg_group(GZP, 1000000, 10000) ||
			cg_write(GZP, "cgroup.subtree_control", "+cpu")))
		die("setting up " GZP);
	if ((mkdir(cg_path(GZ1, ""), 0755) && errno != EEXIST) ||
	    (mkdir(cg_path(GZ2, ""), 0755) && errno != EEXIST))
		die("making the groups without runtime");
	if (write_sysctl(-1))
		die("sched_rt_runtime_us = -1");

	t0 = now_ns() + 100 * NSEC_PER_MSEC;
	/* They end by themselves: on stock they starve this program too. */
	z[0] = spawn_busy_until(GZ1, SCHED_FIFO, 50, 0, t0, t0 + RUN_NS);
	z[1] = spawn_busy_until(GZ2, SCHED_FIFO, 50, 0, t0, t0 + RUN_NS);
	t = spawn_periodic_at(GT, 1, 0, 15 * NSEC_PER_MSEC, PERIOD, t0, RUN_NS, &ts);
	r = spawn_periodic_at("", 1, 0, NSEC_PER_MSEC, PERIOD, t0, RUN_NS, &rs);
	if (z[0] < 0 || z[1] < 0 || t < 0 || r < 0) {
		write_sysctl(old);
		ksft_exit_fail_msg("cannot start the tasks\n");
	}
	start_in_future(t0);
	measure_permille_at(z, 2, t0 + 1200 * NSEC_PER_MSEC,
			    RUN_NS - 1500 * NSEC_PER_MSEC, pm);
	ts = wait_periodic(t, ts);
	rs = wait_periodic(r, rs);
	stop_child(z[0]);
	stop_child(z[1]);
	if (write_sysctl(old))
		ksft_print_msg("cannot restore sched_rt_runtime_us to %lld\n", old);
	cg_remove(GZ1);
	cg_remove(GZ2);
	if (cg_v2())
		cg_remove(GZP);
	cg_remove(GT);

	ksft_print_msg("T: %lu of %lu jobs late (worst %+.3f ms); root: %lu of %lu late (worst %+.3f ms); without runtime: %.1f and %.1f per mille\n",
		       ts->misses, ts->jobs, ts->max_lateness_ns / 1e6,
		       rs->misses, rs->jobs, rs->max_lateness_ns / 1e6, pm[0], pm[1]);
	ksft_test_result(ts->jobs == RUN_NS / PERIOD &&
			 periodic_met(ts, 5 * NSEC_PER_MSEC),
			 "throttling off: a reservation's periodic task misses no deadline beside groups without runtime\n");
	ksft_test_result(rs->jobs == RUN_NS / PERIOD && periodic_met(rs, 0),
			 "throttling off: a root-group periodic task misses no deadline beside groups without runtime\n");
	ksft_test_result(pm[0] >= 210.0 && pm[1] >= 210.0,
			 "throttling off: two busy groups without runtime each receive 210 per mille or more\n");
	ksft_finished();
}
