// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app, the load generator administrators already use, on reservations:
 * one JSON taskset of four groups, judged from rt-app's own logs.
 *
 *   group    Q / P          thread   prio  each period (absolute timer)
 *   ra-slow  7 ms / 20 ms   slow     80    20 ms: run 6 ms
 *   ra-fast  1 ms / 5 ms    fast     10     5 ms: run 0.6 ms
 *   ra-lock  2 ms / 10 ms   locka    50    10 ms: sleep 0.5 ms, run 0.2 ms,
 *                                                 lock m, run 0.3 ms, unlock
 *                           lockb    40    20 ms: lock m, run 1 ms, unlock,
 *                                                 run 0.2 ms
 *   ra-sleep 2 ms / 20 ms   sleeper  30    20 ms: run 0.5 ms, sleep 2 ms,
 *                                                 run 0.5 ms
 *
 * m is a priority-inheriting mutex (rt-app's "pi_enabled").  Every 20 ms
 * ra-lock's server (deadline 10 ms away, after fast's) runs locka, which
 * sleeps at once; lockb takes m; locka wakes 0.5 ms later, preempts it,
 * and blocks on m, boosting lockb until it unlocks: the group's budget
 * pays for both, 1.7 ms of 2 in such a period.  The sleeper suspends in
 * the middle of its job, which the CBS wakeup rule must not turn into a
 * miss.  The groups reserve 85% of the CPU, so EDF between the servers
 * meets every server deadline, and every job fits its server's budget:
 * every job must end before its next release (rt-app's slack >= 0),
 * rt-app's "run" loops calibrated by rtapp_calibrate() (alone on the CPU;
 * under icount, exact).  The least margin is fast's: 0.4 ms of its 1 ms
 * budget, for a calibration 66% off.
 *
 * Fails on stock: by priority, fast (the lowest) waits for slow's 6 ms
 * jobs, longer than its 5 ms period: 95 of its 379 jobs were late.
 *
 * Outcomes in time are judged where outcomes_judged() (1 vCPU).  On more
 * vCPUs the threads are not pinned (they spread over the CPUs by
 * placement, ra-lock's two by priority) and the schedule is traced for
 * schedcheck.py, whose verdict is rtapp/schedcheck; rt-app's figures are
 * printed there, not judged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rtedf.h"

#define NT		5
#define SECONDS		2
#define JSON		"/tmp/rtapp.json"
#define LOGDIR		"/tmp/rtapp"

static const struct task {
	const char *name, *group;
	long q_us, p_us;	/* the group's reservation */
	long period_us;		/* the thread's timer */
	int prio;
	const char *kind;
	const char *events;	/* the phase's events before its timer */
} tk[NT] = {
	{ "slow", "ra-slow", 7000, 20000, 20000, 80, "periodic", "\"run0\": 6000" },
	{ "fast", "ra-fast", 1000, 5000, 5000, 10, "periodic", "\"run0\": 600" },
	{ "locka", "ra-lock", 2000, 10000, 10000, 50, "with a PI lock",
	  "\"sleep0\": 500, \"run0\": 200, \"lock0\": \"m\", \"run1\": 300, \"unlock0\": \"m\"" },
	{ "lockb", "ra-lock", 2000, 10000, 20000, 40, "with a PI lock",
	  "\"lock0\": \"m\", \"run0\": 1000, \"unlock0\": \"m\", \"run1\": 200" },
	{ "sleeper", "ra-sleep", 2000, 20000, 20000, 30, "sleeping in its job",
	  "\"run0\": 500, \"sleep0\": 2000, \"run1\": 500" },
};

static int write_json(long cal)
{
	FILE *f = fopen(JSON, "w");
	int i;

	if (!f)
		return -1;
	fprintf(f, "{ \"global\": { \"duration\": %d, \"calibration\": %ld,\n"
		   "    \"default_policy\": \"SCHED_FIFO\", \"pi_enabled\": true,\n"
		   "    \"lock_pages\": false, \"logdir\": \"" LOGDIR "\",\n"
		   "    \"log_basename\": \"ra\" },\n"
		   "  \"resources\": { \"m\": { \"type\": \"mutex\" } },\n"
		   "  \"tasks\": {\n", SECONDS, cal);
	for (i = 0; i < NT; i++)
		fprintf(f, "    \"%s\": { \"priority\": %d, \"delay\": 100000, \"loop\": -1,\n"
			   "      %s,\n"
			   "      \"timer0\": { \"ref\": \"t%d\", \"period\": %ld, \"mode\": \"absolute\" } }%s\n",
			tk[i].name, tk[i].prio, tk[i].events, i, tk[i].period_us,
			i < NT - 1 ? "," : "");
	fprintf(f, "  } }\n");
	return fclose(f);
}

int main(void)
{
	const char *threads[NT], *groups[NT];
	struct rtapp_stats st[NT];
	bool logs = true, traced;
	char path[128];
	long cal;
	int i, moved;

	rtedf_init();
	ksft_set_plan(NT);
	cal = rtapp_calibrate();
	if (cal <= 0)
		ksft_exit_fail_msg("rt-app did not calibrate\n");
	ksft_print_msg("rt-app: %ld ns per loop\n", cal);
	for (i = 0; i < NT; i++) {
		threads[i] = tk[i].name;
		groups[i] = tk[i].group;
		if (i && !strcmp(tk[i].group, tk[i - 1].group))
			continue;
		if (cg_group(tk[i].group, tk[i].p_us, tk[i].q_us))
			die("reserving %ld / %ld us for %s", tk[i].q_us, tk[i].p_us,
			    tk[i].group);
	}
	mkdir(LOGDIR, 0755);
	if (system("rm -f " LOGDIR "/*") || write_json(cal))
		die("writing " JSON);
	traced = !sched_trace_start();
	if (!traced)
		ksft_print_msg("no tracing: the schedule is not checked\n");
	moved = rtapp_run(JSON, threads, groups, NT);
	if (traced)
		sched_trace_save("rtapp");
	for (i = NT - 1; i >= 0; i--)
		if (!i || strcmp(tk[i].group, tk[i - 1].group))
			cg_remove(tk[i].group);
	if (moved < NT)
		ksft_exit_fail_msg("rt-app failed or its threads were not moved into their groups (%d of %d)\n",
				   moved, NT);

	for (i = 0; i < NT; i++) {
		snprintf(path, sizeof(path), LOGDIR "/ra-%s-%d.log", tk[i].name, i);
		if (rtapp_log(path, &st[i])) {
			ksft_print_msg("no rt-app log %s\n", path);
			logs = false;
			continue;
		}
		ksft_print_msg("%-8s every %ld us in %s (%ld / %ld us), prio %d: %lu jobs, %lu late, worst lateness %.3f ms, median run %lld us\n",
			       tk[i].name, tk[i].period_us, tk[i].group, tk[i].q_us,
			       tk[i].p_us, tk[i].prio,
			       st[i].jobs, st[i].misses, st[i].max_late_ns / 1e6,
			       st[i].median_run_us);
	}
	for (i = 0; i < NT; i++) {
		/*
		 * A job per period of the duration after the 100 ms delay,
		 * less the one the end may cut.
		 */
		unsigned long want = (SECONDS * 1000000L - 100000) / tk[i].period_us - 1;
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "rt-app task %s (%s, prio %d) ends every job before its next release",
			 tk[i].name, tk[i].kind, tk[i].prio);
		outcome_result(logs && st[i].jobs >= want && !st[i].misses, msg);
	}
	ksft_finished();
}
