// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeups across CPUs are acted on at once: two SCHED_FIFO 50 tasks, one
 * on CPU 0 and one on CPU 1, exchange a byte through pipes, ROUNDS round
 * trips, first as root-group tasks with no group configured (the root's
 * own RT runtime at 950 ms every second, as a default boot has it), then
 * in one group (600 ms / 1 s).  A round trip is two wakeups across CPUs
 * and takes about 14 us of guest time under icount; the slowest must
 * stay below 5 ms, which leaves room for a host stall on plain TCG (4 ms
 * at worst, vcpu_stall) but not for a wakeup that waits for a timer.
 * The CPUs idle between the wakeups, so under icount no vCPU stands
 * still behind a busy one: judged on every clock.
 *
 * A guard of the wakeup path across CPUs, which the placement of patch
 * 11 changed: it passes on stock and on the series since that patch (23
 * us on average under icount, 19 us on stock, with tracing on).
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtedf.h"

#define ROUNDS		4000
#define LIMIT_NS	(5 * NSEC_PER_MSEC)

struct pp {
	int go;
	uint64_t worst_ns, total_ns;
	int worst_at;
};

static void side(const char *group, int cpu, int rd, int wr, bool lead, struct pp *pp)
{
	char c = 'x';
	int i;

	if (cg_attach(group, getpid()) || pin_cpu(0, cpu) || set_sched(0, SCHED_FIFO, 50))
		_exit(2);
	if (!lead) {
		while (read(rd, &c, 1) == 1 && c != 'q')
			if (write(wr, &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	while (!__atomic_load_n(&pp->go, __ATOMIC_SEQ_CST))
		sleep_ns(NSEC_PER_MSEC);
	for (i = 0; i < ROUNDS; i++) {
		uint64_t t = now_ns(), d;

		if (write(wr, &c, 1) != 1 || read(rd, &c, 1) != 1)
			_exit(1);
		d = now_ns() - t;
		pp->total_ns += d;
		if (d > pp->worst_ns) {
			pp->worst_ns = d;
			pp->worst_at = i;
		}
	}
	c = 'q';
	if (write(wr, &c, 1) != 1)
		_exit(1);
	_exit(0);
}

static void run(const char *group, const char *what)
{
	struct pp *pp = shared_alloc(sizeof(*pp));
	int ab[2], ba[2];
	pid_t a, b;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	b = rtedf_fork();
	if (b == 0)
		side(group, 1, ab[0], ba[1], false, pp);
	a = rtedf_fork();
	if (a == 0)
		side(group, 0, ba[0], ab[1], true, pp);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	sleep_ns(50 * NSEC_PER_MSEC);
	__atomic_store_n(&pp->go, 1, __ATOMIC_SEQ_CST);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	ksft_print_msg("%s: %d round trips, %.1f us on average, the slowest %.1f us (number %d)\n",
		       what, ROUNDS, pp->total_ns / 1e3 / ROUNDS, pp->worst_ns / 1e3,
		       pp->worst_at);
	ksft_test_result(pp->worst_ns && pp->worst_ns < LIMIT_NS,
			 "round trips across CPUs, %s, each within 5 ms\n", what);
}

int main(void)
{
	rtedf_init();
	ksft_set_plan(2);
	if (nr_cpus() < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		ksft_test_result_skip("round trips across CPUs, root group, each within 5 ms\n");
		ksft_test_result_skip("round trips across CPUs, one group, each within 5 ms\n");
		ksft_finished();
	}
	if (sched_trace_start())
		ksft_print_msg("no tracing: the schedule is not checked\n");
	if (cg_has("", "cpu.rt_task_runtime_us") &&
	    root_own_reserve(950000, 1000000)) {
		root_own_default();
		die("setting the root's own runtime");
	}
	run("", "root group");
	/* Back to what cg_mount() leaves, which the next tests expect. */
	if (cg_has("", "cpu.rt_task_runtime_us"))
		root_own_default();
	if (cg_group("xw", 1000000, 600000))
		die("setting up the group");
	run("xw", "one group");
	sched_trace_save("xcpu_wakeup");
	cg_remove("xw");
	ksft_finished();
}
