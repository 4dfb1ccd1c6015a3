// SPDX-License-Identifier: GPL-2.0
/*
 * A new runtime takes effect at once, within the current period:
 *
 *  - raised: group rc-up reserves 10 ms every second; its busy task
 *    (SCHED_FIFO 50, CPU 0) starts a period at t0 and is throttled at
 *    t0 + 10 ms.  At t0 + 100 ms the runtime is raised to 500 ms: the
 *    task must run again at once, not at its deadline t0 + 1 s.  It reads
 *    its own CPU time when it first runs at or after t0 + 110 ms and
 *    t0 + 310 ms: at least 100 ms between the two (it has the CPU but for
 *    the fair server's 5% and the root's own tasks; half leaves room for
 *    the emulator).  Without the change it gets nothing before t0 + 1 s.
 *  - lowered: group rc-down reserves 150 ms every 200 ms; its busy task
 *    starts a period at t0 and, at t0 + 60 ms (about 57 ms of CPU time
 *    spent, which it reads), lowers the runtime to 80 ms itself.  The
 *    budget is cut to 80 ms at once: its CPU time from then until it
 *    first runs at or after t0 + 190 ms (throttled by then, it runs again
 *    at the replenishment, t0 + 200 ms) is at most 80 ms plus 5 ms (an
 *    overrun is the hrtick's lateness, microseconds here), where the old
 *    budget would have given it the 93 ms it had left.
 *
 *  - shortened period: group rc-period reserves 10 ms every second; its
 *    busy task starts a period at t0 and is throttled at t0 + 10 ms, its
 *    deadline t0 + 1 s.  At t0 + 100 ms the group becomes 2 ms every
 *    20 ms.  The new reservation must hold from then: the deadline comes
 *    in to t0 + 120 ms, where the server is replenished, and it gets
 *    2 ms in each 20 ms period after, 20 ms of CPU time from t0 + 110 ms
 *    to t0 + 310 ms (the period from t0 + 300 ms included, 22 ms at
 *    most).  Asserted: at least 10 ms (half, as above), and at most
 *    22 ms + 1 ms (a budget is overrun by the hrtick's lateness, well
 *    under 100 us a period).  Where a new period takes effect only at
 *    the next replenishment, as for a SCHED_DEADLINE task, the group
 *    gets nothing before t0 + 1 s: the point fails so on the series at
 *    284d268 (0.0 ms).  There the root's own tasks, taken from 50 ms
 *    every second to 1 ms every 20 ms by irq_thread, waited up to
 *    953 ms on the debug PREEMPT_RT kernel, which spent the 1 ms at once.
 *
 * The task reads its own CPU time, which the kernel charges by its clock
 * even while a vCPU stands still under icount: judged on every clock.
 * Fails on the series before raised runtimes applied to the current
 * period (d5f4cf8): raised, the task got 0.0 ms until its deadline (the
 * lowered point passed there too).  Fails on stock (stock-xfail): raised
 * 0.0 ms (a throttled group waits for the period timer); lowered, stock
 * keeps counting the period's time against the new runtime (160.4 ms in
 * the period, a first version of this point; 100.4 ms after the cut);
 * shortened 0.0 ms (the period timer keeps its old expiry).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define UP		"rc-up"
#define DOWN		"rc-down"
#define PERIOD		"rc-period"
#define MS		NSEC_PER_MSEC
#define UP_MSG		"a raised runtime lets a throttled group run again at once"
#define DOWN_MSG	"a lowered runtime cuts the budget at once"
#define PERIOD_MSG	"a shortened period gives a throttled group the new budget within the new period"

struct seen {
	uint64_t cpu[3];	/* at t0, at mark[0], at mark[1] */
	int err;	/* of the write of the lower runtime */
};

/*
 * The group's runtime, and on rt-edf its own tasks' (cg_group() gives them
 * the group's reservation): raised, the group's first; lowered, the own
 * tasks' first, so that no intermediate state is refused.
 */
static int set_runtime(const char *group, long long us, bool raise)
{
	bool own = cg_has(group, "cpu.rt_task_runtime_us");
	int err = 0;

	if (raise)
		err = cg_write_ll(group, "cpu.rt_runtime_us", us);
	if (!err && own)
		err = cg_write_ll(group, "cpu.rt_task_runtime_us", us);
	if (!err && !raise)
		err = cg_write_ll(group, "cpu.rt_runtime_us", us);
	return err;
}

/*
 * 10 ms / 1 s to 2 ms / 20 ms, on rt-edf for its own tasks too: on v1 the
 * group's period first, then its runtime, then its own tasks' runtime and
 * period, so that no intermediate state is refused (the own tasks within
 * the group).  On v2, one write (the own tasks follow the group).
 */
static int shorten_period(const char *group)
{
	int err;

	if (cg_v2())
		return cg_write(group, "cpu.rt.max", "2000 20000");
	err = cg_write_ll(group, "cpu.rt_period_us", 20000);
	if (!err)
		err = cg_write_ll(group, "cpu.rt_runtime_us", 2000);
	if (!err && cg_has(group, "cpu.rt_task_runtime_us"))
		err = cg_write_ll(group, "cpu.rt_task_runtime_us", 2000);
	if (!err && cg_has(group, "cpu.rt_task_period_us"))
		err = cg_write_ll(group, "cpu.rt_task_period_us", 20000);
	return err;
}

/*
 * The busy task: in group on CPU 0 from t0, reading its CPU time when it
 * first runs at or after mark[0] and mark[1]; at mark[0] it first writes
 * lower_us as its group's runtime if lower_us > 0.
 */
static pid_t spawn_task(const char *group, uint64_t t0, const uint64_t mark[2],
			long long lower_us, volatile struct seen *seen)
{
	pid_t pid = rtedf_fork();
	int next = 0;

	if (pid)
		return pid;
	if (cg_attach(group, getpid()) || pin_cpu(0, 0) || set_sched(0, SCHED_FIFO, 50))
		_exit(2);
	sleep_until(t0);
	seen->cpu[0] = thread_cputime_ns();
	while (next < 2) {
		if (now_ns() < mark[next])
			continue;
		if (next == 0 && lower_us > 0)
			seen->err = set_runtime(group, lower_us, false);
		seen->cpu[next + 1] = thread_cputime_ns();
		next++;
	}
	_exit(0);
}

static int raise_runtime(const char *group)
{
	return set_runtime(group, 500000, true);
}

/*
 * The raised and shortened points: group reserves 10 ms every second, its
 * task starts a period at t0 and is throttled at t0 + 10 ms, and change()
 * rewrites the group's reservation at t0 + 100 ms.
 */
static void change_throttled(const char *group, int (*change)(const char *group),
			     volatile struct seen *seen)
{
	uint64_t t0, mark[2];
	pid_t pid;

	if (cg_group(group, 1000000, 10000))
		die("setting up %s", group);
	t0 = now_ns() + 100 * MS;
	mark[0] = t0 + 110 * MS;
	mark[1] = t0 + 310 * MS;
	pid = spawn_task(group, t0, mark, 0, seen);
	if (pid < 0)
		die("starting the task");
	sleep_until(t0 + 100 * MS);
	if (change(group))
		die("changing the reservation of %s", group);
	waitpid(pid, NULL, 0);
	cg_remove(group);
}

int main(void)
{
	volatile struct seen *up, *down, *per;
	uint64_t t0, mark[2], got_up, got_down, got_per;
	pid_t pid;

	rtedf_init();
	ksft_set_plan(3);
	up = shared_alloc(sizeof(*up));
	down = shared_alloc(sizeof(*down));
	per = shared_alloc(sizeof(*per));

	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	change_throttled(UP, raise_runtime, up);

	if (cg_group(DOWN, 200000, 150000))
		die("setting up " DOWN);
	t0 = now_ns() + 300 * MS;
	mark[0] = t0 + 60 * MS;
	mark[1] = t0 + 190 * MS;
	pid = spawn_task(DOWN, t0, mark, 80000, down);
	if (pid < 0)
		die("starting the task");
	waitpid(pid, NULL, 0);
	cg_remove(DOWN);

	change_throttled(PERIOD, shorten_period, per);
	sched_trace_save("runtime_change");

	got_up = up->cpu[2] - up->cpu[1];
	got_down = down->cpu[2] - down->cpu[1];
	got_per = per->cpu[2] - per->cpu[1];
	ksft_print_msg("raised at t0 + 100 ms: %.1f ms of CPU time from t0 + 110 ms to t0 + 310 ms\n",
		       got_up / 1e6);
	ksft_print_msg("lowered to 80 ms at t0 + 60 ms, after %.1f ms: %.1f ms of CPU time in the rest of the period\n",
		       (down->cpu[1] - down->cpu[0]) / 1e6, got_down / 1e6);
	ksft_print_msg("10 ms / 1 s to 2 ms / 20 ms at t0 + 100 ms: %.1f ms of CPU time from t0 + 110 ms to t0 + 310 ms\n",
		       got_per / 1e6);
	if (down->err)
		ksft_print_msg("the write of the lower runtime failed: %s\n",
			       strerror(-down->err));
	ksft_test_result(got_up >= 100 * MS, UP_MSG "\n");
	ksft_test_result(!down->err && got_down <= 85 * MS, DOWN_MSG "\n");
	ksft_test_result(got_per >= 10 * MS && got_per <= 23 * MS, PERIOD_MSG "\n");
	ksft_finished();
}
