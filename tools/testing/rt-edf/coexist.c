// SPDX-License-Identifier: GPL-2.0
/*
 * The fair class's group controls, cpu.max and cpu.weight, on the same
 * cgroup v2 groups as RT reservations (cpu.rt.max): each keeps doing
 * what it does, and neither touches the other (a boot with
 * rtedf.cgroup=v2, 1 vCPU; elsewhere every point skips).
 *
 * On one CPU:
 *   web    cpu.rt.max "20000 100000", cpu.max "10000 100000", weight 100:
 *          a busy SCHED_FIFO task and a busy SCHED_OTHER task
 *   batch  cpu.weight 300: a busy SCHED_OTHER task
 *   b2     cpu.weight 100: a busy SCHED_OTHER task
 *
 * The RT task gets its reservation, 200 per mille, guarantee and limit:
 * within 10 as in cgroup_v2.c (a throttle overruns by at most a tick of
 * 1 ms in a 100 ms period, 10 per mille, and the measurement window of
 * 2 s holds 20 periods exactly).  web's fair task is held to its quota,
 * 100 per mille, and the RT task's time is not charged to that quota
 * (it would then get nothing): the quota is refilled every 100 ms and
 * enforced at the tick, so within 10 per mille as well.  The rest, 700,
 * goes to batch and b2 by their weights, 3:1: 525 and 175.  EEVDF keeps
 * each entity within a slice (3 ms at the top level, 0.75 ms below) of
 * its share, a few per mille in 2 s; the bound here is 0.75 +- 0.03 of
 * what batch and b2 receive together, and 700 +- 20 for that sum (what
 * the fair server, the ticks and the measurer take).  cpu.stat of web
 * counts throttled quota periods: it must have some.
 *
 * Fails on stock, which has no cpu.rt.max (the RT task cannot join web).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rtedf.h"

#define PLAN	6

int main(void)
{
	double pm[4];
	pid_t pids[4];
	long long thr0;
	bool ok;
	int err;

	rtedf_init();
	v2_only(PLAN);
	ksft_set_plan(PLAN);

	cg_remove("web");
	cg_remove("batch");
	cg_remove("b2");
	err = cg_group("web", 100000, 20000);
	if (!err && (mkdir(cg_path("batch", ""), 0755) || mkdir(cg_path("b2", ""), 0755)))
		err = -errno;
	if (err)
		ksft_exit_fail_msg("making the groups: %s\n", strerror(-err));

	/* The files, next to each other. */
	ok = cg_has("web", "cpu.max") && cg_has("web", "cpu.weight");
	ok = ok && !cg_write("web", "cpu.max", "10000 100000") &&
	     !cg_write("web", "cpu.weight", "100") &&
	     !cg_write("batch", "cpu.weight", "300") &&
	     !cg_write("b2", "cpu.weight", "100");
	ksft_test_result(ok && cg_file_is("web", "cpu.max", "10000 100000") &&
			 cg_file_is("web", "cpu.rt.max", "20000 100000") &&
			 cg_file_is("batch", "cpu.weight", "300"),
			 "cpu.max and cpu.weight are set on groups next to cpu.rt.max\n");
	err = cg_write("web", "cpu.rt.max", "20000 50000");
	ok = !err && cg_file_is("web", "cpu.max", "10000 100000");
	err = cg_write("web", "cpu.rt.max", "20000 100000");
	ok = ok && !err && !cg_write("web", "cpu.max", "max 100000") &&
	     cg_file_is("web", "cpu.rt.max", "20000 100000") &&
	     !cg_write("web", "cpu.max", "10000 100000");
	ksft_test_result(ok, "changing cpu.rt.max leaves cpu.max, and cpu.max leaves cpu.rt.max\n");

	thr0 = cg_stat_key("web", "cpu.stat", "nr_throttled");
	pids[0] = spawn_busy("web", SCHED_FIFO, 50, 0);
	pids[1] = spawn_busy("web", SCHED_OTHER, 0, 0);
	pids[2] = spawn_busy("batch", SCHED_OTHER, 0, 0);
	pids[3] = spawn_busy("b2", SCHED_OTHER, 0, 0);
	for (int i = 0; i < 4; i++)
		if (pids[i] < 0)
			ksft_exit_fail_msg("cannot start busy task %d\n", i);
	sleep_ns(200 * NSEC_PER_MSEC);
	measure_permille(pids, 4, 2 * NSEC_PER_SEC, pm);
	ksft_print_msg("web RT %.1f, web fair %.1f, batch %.1f, b2 %.1f per mille\n",
		       pm[0], pm[1], pm[2], pm[3]);
	for (int i = 0; i < 4; i++)
		stop_child(pids[i]);

	outcome_result(pm[0] >= 190 && pm[0] <= 210,
		       "the RT task receives its reservation, 200 per mille within 10");
	outcome_result(pm[1] >= 90 && pm[1] <= 110,
		       "web's fair task is held to cpu.max, 100 per mille within 10, RT time not charged");
	outcome_result(pm[2] + pm[3] >= 680 && pm[2] + pm[3] <= 720 &&
		       pm[2] / (pm[2] + pm[3]) >= 0.72 && pm[2] / (pm[2] + pm[3]) <= 0.78,
		       "batch and b2 share the rest, 700 within 20, by cpu.weight 3:1 within 0.03");
	ksft_test_result(cg_stat_key("web", "cpu.stat", "nr_throttled") > thr0,
			 "web's cpu.stat counts throttled quota periods\n");

	cg_remove("web");
	cg_remove("batch");
	cg_remove("b2");
	ksft_finished();
}
