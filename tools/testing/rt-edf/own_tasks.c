// SPDX-License-Identifier: GPL-2.0
/*
 * A group's own tasks run on the group's cpu.rt_task_* reservation, not
 * on the whole group's: a busy task in a 40 ms / 100 ms group whose own
 * tasks have 10 ms / 100 ms (a child holds 30 ms / 100 ms) receives 100
 * per mille of CPU 0 within 5 (see share.c), not 400.
 *
 * On cgroup v2 (run v2) the same through cpu.rt.max and cpu.rt.tasks.max:
 * the cpu controller is threaded, so the group may take a process while
 * it hands the controller to an empty child; it becomes a thread root,
 * whose own tasks are what cpu.rt.tasks.max is for.
 */
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "rtedf.h"

#define G	"own"
#define CHILD	"own/child"

int main(void)
{
	double pm;
	pid_t pid;
	int err;

	rtedf_init();
	ksft_set_plan(2);

	cg_remove(CHILD);
	cg_remove(G);
	if (mkdir(cg_path(G, ""), 0755) || mkdir(cg_path(CHILD, ""), 0755))
		die("mkdir");
	if (cg_v2())
		err = cg_write(G, "cpu.rt.max", "40000 100000") ||
		      cg_write(G, "cpu.rt.tasks.max", "10000 100000") ||
		      cg_group(CHILD, 100000, 30000);
	else
		err = cg_write_ll(G, "cpu.rt_period_us", 100000) ||
		      cg_write_ll(G, "cpu.rt_runtime_us", 40000) ||
		      cg_write_ll(G, "cpu.rt_task_period_us", 100000) ||
		      cg_write_ll(G, "cpu.rt_task_runtime_us", 10000) ||
		      cg_group(CHILD, 100000, 30000);
	ksft_test_result(!err, "a 40/100 ms group takes 10/100 ms for its tasks and a 30/100 ms child\n");

	pid = spawn_busy(G, SCHED_FIFO, 50, 0);
	if (pid < 0)
		ksft_exit_fail_msg("cannot start the busy task\n");
	sleep_ns(100 * NSEC_PER_MSEC);
	measure_permille(&pid, 1, 5 * NSEC_PER_SEC, &pm);
	stop_child(pid);
	cg_remove(CHILD);
	cg_remove(G);

	ksft_print_msg("own task received %.1f per mille\n", pm);
	ksft_test_result(fabs(pm - 100.0) <= 5.0,
			 "a busy task of the group receives the own-task share, 100 per mille\n");
	ksft_finished();
}
