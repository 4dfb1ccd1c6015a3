// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE runs above RT, so the RT reservations only hold if the
 * DEADLINE bandwidth and theirs fit in every CPU together: DEADLINE tasks
 * migrate and may all run on one CPU for a while, beside that CPU's fair
 * server (5%).  With the root's own tasks at 5% and a group of 70%, a
 * DEADLINE task of 30% is refused (5 + 70 + 5 + 30 > 100) on any number of
 * CPUs, and one of 10% admitted; with it, the group cannot grow to 85%.
 * The stock kernel admits both: each stays below the 95% limit alone.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rtedf.h"

#define G	"dl-coexist"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

/* sched_setattr(2)'s argument, first version (glibc has no wrapper). */
struct dl_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static int set_deadline(pid_t pid, uint64_t runtime, uint64_t period)
{
	struct dl_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = runtime,
		.sched_deadline = period,
		.sched_period = period,
	};

	return syscall(SYS_sched_setattr, pid, &attr, 0) ? -errno : 0;
}

int main(void)
{
	pid_t a, b;
	int err;

	rtedf_init();
	ksft_set_plan(3);

	err = cg_group(G, 1000000, 700000);
	if (err)
		ksft_print_msg("setting up %s: %s\n", G, strerror(-err));
	a = spawn_sleeper();
	b = spawn_sleeper();

	err = set_deadline(a, 30 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC);
	ksft_print_msg("DEADLINE 30/100 ms: %s\n", err ? strerror(-err) : "admitted");
	ksft_test_result(err == -EBUSY,
			 "a DEADLINE task that would eat into the RT reservations is refused\n");

	err = set_deadline(b, 10 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC);
	ksft_test_result(!err, "a DEADLINE task that fits beside them is admitted\n");

	err = cg_write_ll(G, "cpu.rt_task_runtime_us", 0);
	if (!err)
		err = cg_write_ll(G, "cpu.rt_runtime_us", 850000);
	ksft_print_msg("group to 85%%: %s\n", err ? strerror(-err) : "admitted");
	ksft_test_result(err == -EBUSY,
			 "an RT group cannot grow into the DEADLINE bandwidth\n");

	stop_child(b);
	stop_child(a);
	cg_remove(G);
	ksft_finished();
}
