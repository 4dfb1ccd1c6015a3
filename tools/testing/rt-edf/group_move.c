// SPDX-License-Identifier: GPL-2.0
/*
 * A task moved into a group whose server goes first runs at once.  All
 * on CPU 0:
 *
 *  - group gm-a, 400 ms / 1 s: a busy task (SCHED_FIFO 50) and a busy
 *    task t (SCHED_FIFO 40), which waits behind the first;
 *  - group gm-b, 20 ms / 100 ms, empty;
 *  - group gm-m, 2 ms / 10 ms: the measurer (SCHED_FIFO 99), whose
 *    server goes first, so that it samples on time.
 *
 * t is written into gm-b's tasks file.  gm-b's server starts with a
 * deadline 100 ms away, gm-a's is up to 1 s away: EDF runs gm-b at once,
 * so t receives gm-b's whole budget, 20 ms, in the 50 ms that follow the
 * move (at least 19 ms: the move itself and the measurer's two wakeups
 * take microseconds, the tick's budget enforcement up to a tick of 1 ms).
 * A move is not a wakeup, and nothing else asked whether the moved task's
 * server now leads: at 27e939d (patch 1 without that check) t received
 * 0.000 ms on 2 vCPUs, waiting for a scheduling point on CPU 0, where the
 * busy task never sleeps (on 1 vCPU the measurer's wakeups gave it one:
 * 20.002 ms).  Stock passes, with 20.96 ms.
 *
 * Found by the torture's trace (scripts/torture.sh, icount runs): a
 * moved task's server waited 3.5 ms behind a later one.
 */
#include "rtedf.h"

#define GA	"gm-a"
#define GB	"gm-b"
#define GM	"gm-m"
#define MSG	"a waiting task moved into a group whose server goes first runs at once: 20 ms of its budget within 50 ms"

int main(void)
{
	uint64_t c0, c1;
	pid_t a, t;
	int err;

	rtedf_init();
	ksft_set_plan(1);
	if (cg_group(GA, 1000000, 400000) || cg_group(GB, 100000, 20000) ||
	    cg_group(GM, 10000, 2000))
		die("setting up the groups");
	t = spawn_busy(GA, SCHED_FIFO, 40, 0);
	a = spawn_busy(GA, SCHED_FIFO, 50, 0);
	if (t < 0 || a < 0)
		ksft_exit_fail_msg("cannot start the tasks\n");
	if (cg_attach(GM, 0) || set_sched(0, SCHED_FIFO, 99))
		die("setting up the measurer");
	sleep_ns(20 * NSEC_PER_MSEC);
	c0 = cputime_ns(t);
	err = cg_attach(GB, t);
	sleep_ns(50 * NSEC_PER_MSEC);
	c1 = cputime_ns(t);
	set_sched(0, SCHED_OTHER, 0);
	cg_attach("", 0);
	stop_child(a);
	stop_child(t);
	cg_remove(GA);
	cg_remove(GB);
	cg_remove(GM);

	if (err)
		ksft_print_msg("moving the task: %s\n", strerror(-err));
	ksft_print_msg("the moved task received %.3f ms in the 50 ms after its move\n",
		       (c1 - c0) / 1e6);
	ksft_test_result(!err && c1 - c0 >= 19 * NSEC_PER_MSEC, MSG "\n");
	ksft_finished();
}
