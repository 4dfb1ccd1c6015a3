// SPDX-License-Identifier: GPL-2.0
/*
 * Hard reservations.  A busy task alone in a 10 ms / 100 ms group on an
 * otherwise idle CPU 0 gets no more than its 100 per mille (+5, see
 * share.c): the CPU idles while the group is throttled, at least 850 per
 * mille of the time (1000 - 100 - 5, less 45 for the root group's own
 * tasks, the measurer among them).  A group whose tasks all sleep is not
 * queued in any CPU's EDF tree, as the scheduler's debug file shows.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rtedf.h"

#define G	"hard"
#define SLEEPY	"hard-sleepy"
#define SCHED_DEBUG_FILE "/sys/kernel/debug/sched/debug"

/* Idle time of cpu in ns, from /proc/stat (USER_HZ ticks). */
static uint64_t idle_ns(int cpu)
{
	unsigned long long v[5];
	char line[256], want[16];
	uint64_t idle = 0;
	FILE *f = fopen("/proc/stat", "r");

	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, want, strlen(want)))
			continue;
		if (sscanf(line + strlen(want), "%llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4]) == 5)
			idle = (v[3] + v[4]) * (NSEC_PER_SEC / sysconf(_SC_CLK_TCK));
	}
	if (f)
		fclose(f);
	return idle;
}

/*
 * Counts this group's servers (one "rt_rq[N]:/group" block per CPU) and
 * how many of them are queued or have runnable tasks.
 */
static int servers(const char *group, int *fields, int *queued, int *running)
{
	char line[256], want[64];
	FILE *f = fopen(SCHED_DEBUG_FILE, "r");
	int n = 0, in = 0, v;

	*fields = *queued = *running = 0;
	if (!f)
		return -1;
	snprintf(want, sizeof(want), ":/%s\n", group);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "rt_rq[", 6)) {
			in = strstr(line, want) != NULL;
			n += in;
		} else if (in && sscanf(line, " .rt_queued : %d", &v) == 1) {
			*queued += v;
			(*fields)++;
		} else if (in && sscanf(line, " .rt_nr_running : %d", &v) == 1) {
			*running += v;
		} else if (line[0] != ' ') {
			in = 0;
		}
	}
	fclose(f);
	return n;
}

int main(void)
{
	uint64_t t0, t1, i0, i1;
	int n, fields, queued, running;
	double pm, idle;
	pid_t pid;

	rtedf_init();
	ksft_set_plan(2);

	if (cg_group(G, 100000, 10000) || cg_group(SLEEPY, 100000, 10000))
		die("setting up the groups");
	pid = spawn_busy(G, SCHED_FIFO, 50, 0);
	if (pid < 0)
		ksft_exit_fail_msg("cannot start the busy task\n");
	sleep_ns(100 * NSEC_PER_MSEC);
	t0 = now_ns();
	i0 = idle_ns(0);
	measure_permille(&pid, 1, 5 * NSEC_PER_SEC, &pm);
	i1 = idle_ns(0);
	t1 = now_ns();
	stop_child(pid);
	idle = 1000.0 * (i1 - i0) / (t1 - t0);
	ksft_print_msg("busy task %.1f per mille, CPU 0 idle %.1f per mille\n", pm, idle);
	ksft_test_result(pm <= 105.0 && idle >= 850.0,
			 "the CPU idles while the only busy group is throttled\n");

	/* A SCHED_FIFO task of SLEEPY that ran once and now sleeps. */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (cg_attach(SLEEPY, getpid()) || set_sched(0, SCHED_FIFO, 50))
			_exit(1);
		burn_cpu(NSEC_PER_MSEC);
		pause();
		_exit(0);
	}
	sleep_ns(300 * NSEC_PER_MSEC);
	n = servers(SLEEPY, &fields, &queued, &running);
	ksft_print_msg("%s: %d servers (%d show rt_queued), %d queued, %d running\n",
		       SLEEPY, n, fields, queued, running);
	ksft_test_result(n == nr_cpus() && fields == n && queued == 0 && running == 0,
			 "a group whose tasks all sleep is in no EDF tree\n");
	stop_child(pid);
	cg_remove(G);
	cg_remove(SLEEPY);
	ksft_finished();
}
