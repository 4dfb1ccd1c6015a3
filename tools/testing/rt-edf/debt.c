// SPDX-License-Identifier: GPL-2.0
/*
 * Debt: a budget overrun is paid back, period by period, whatever the
 * replenishment timer's timing.  With HRTICK_RT off only the 1 ms tick
 * stops a server, so a busy task in a reservation whose budget and period
 * are both shorter than a tick runs a whole tick past its budget, and
 * past its deadline: it is throttled several periods late, in debt of
 * several budgets.  Its replenishment timer, armed at the deadline that
 * has passed, fires at once; the periods that have passed since pay
 * their part of the debt then, and the rest is paid one period at a
 * time, each at its deadline (rt_server_replenish()).  The group then
 * gets its reservation Q / P on average, neither more nor less.
 *
 * Three reservations, one after the other, a busy SCHED_FIFO task alone
 * in each on CPU 0, each measured for WINDOW_NS after WARMUP_NS: 100 us
 * every 200 us, 100 us / 300 us and 60 us / 250 us.  Over a window W the
 * server receives Q * W / P, give or take the debt it may owe or the
 * budget it may hold at either end (at most a tick and a budget, 1.1 ms)
 * and what the root group's tasks and interrupts take (the measurer's
 * samples, tens of microseconds): within 1.1 ms + 20 us over 1 s, so the
 * tolerance of TOL_PERMILLE = 10 per mille is wide.
 *
 * Fails on the series before this rule (21d83fc), where a server still
 * in debt whose new deadline had passed was renewed, its debt forgiven:
 * 1000.0, 0.0 and 998.9 per mille.  And with the rule of 34e0892, where
 * the timer moved on by hrtimer_forward_now() while the deadline moved
 * one period, so that the periods that had passed paid nothing: 433.4,
 * 312.0 and 220.7 per mille.
 */
#include <stdio.h>

#include "rtedf.h"

#define WARMUP_NS	(100 * NSEC_PER_MSEC)
#define WINDOW_NS	NSEC_PER_SEC
#define TOL_PERMILLE	10.0

int main(void)
{
	static const struct { long long q_us, p_us; } res[] = {
		{ 100, 200 }, { 100, 300 }, { 60, 250 },
	};
	unsigned int i;

	rtedf_init();
	ksft_set_plan(3);
	if (sched_feature("NO_HRTICK_RT")) {
		ksft_print_msg("no HRTICK_RT feature to turn off\n");
		for (i = 0; i < 3; i++)
			ksft_test_result_skip("HRTICK_RT off, %lld us every %lld us\n",
					      res[i].q_us, res[i].p_us);
		ksft_finished();
	}

	for (i = 0; i < 3; i++) {
		double want = 1000.0 * res[i].q_us / res[i].p_us, pm;
		char group[32];
		pid_t pid;

		snprintf(group, sizeof(group), "debt-%lld-%lld", res[i].q_us, res[i].p_us);
		if (cg_group(group, res[i].p_us, res[i].q_us))
			die("setting up %s", group);
		pid = spawn_busy(group, SCHED_FIFO, 50, 0);
		if (pid < 0)
			die("spawning the task of %s", group);
		sleep_ns(WARMUP_NS);
		measure_permille(&pid, 1, WINDOW_NS, &pm);
		stop_child(pid);
		cg_remove(group);
		ksft_test_result(pm > want - TOL_PERMILLE && pm < want + TOL_PERMILLE,
				 "HRTICK_RT off, %lld us every %lld us: %.1f per mille, reserved %.1f\n",
				 res[i].q_us, res[i].p_us, pm, want);
	}
	sched_feature("HRTICK_RT");
	ksft_finished();
}
