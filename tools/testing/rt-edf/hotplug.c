// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug under load: three groups, 20 ms / 100 ms, 30 ms / 100 ms and
 * 10 ms / 50 ms (70% of every CPU together), each with nr_cpus busy
 * unpinned SCHED_FIFO tasks, while CPU 1 goes offline and online again 10
 * times, about 100 ms apart.  Afterwards:
 *
 *  - every task is still alive and runnable (state R in /proc/PID/stat:
 *    a throttled task is still runnable), none was lost with the CPU's
 *    servers;
 *  - CPU 1 is online, and every write to its 'online' file succeeded;
 *  - each group receives its M * Q/P of the M CPUs over 2 s, within 10
 *    per mille per CPU: once CPU 1 is back, the group has a server there
 *    again and nr_cpus tasks to use every server.  The window (2 s) holds
 *    whole periods of all three groups; the 10 per mille per CPU (1 ms
 *    per 100 ms) cover enforcement, the tasks moving between CPUs (tens
 *    of microseconds per move) and servers settling after the last
 *    hotplug (300 ms are left for that before measuring).  A server lost
 *    or left throttled on CPU 1 would cost its group Q/P of the total;
 *  - admission still works: a 10 ms / 100 ms group (85% of a CPU with the
 *    others and the root's own 5%) is accepted, a 30 ms / 100 ms one
 *    (105%) is refused with EBUSY (EINVAL accepted too: the stock kernel
 *    and rt-edf agree on EBUSY, see admission.c, but the point is that it
 *    is refused and changes nothing).
 *
 * One CPU cannot go offline with nothing to take its tasks: skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtedf.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define CYCLES		10
#define STEP		(100 * NSEC_PER_MSEC)
#define WINDOW		(2 * NSEC_PER_SEC)
#define NG		3

#define ALIVE_MSG	"every task is alive and runnable after 10 offline/online cycles of CPU 1"
#define ONLINE_MSG	"CPU 1 is online again and every hotplug write succeeded"
#define SHARE_MSG	"%s receives nr_cpus * Q/P within 10 per mille per CPU after hotplug"
#define FITS_MSG	"a group that fits is admitted after hotplug"
#define OVER_MSG	"a group that over-subscribes is refused after hotplug"

static const struct { const char *g; long long q, p; int prio; } grp[NG] = {
	{ "hp-20-100", 20000, 100000, 30 },
	{ "hp-30-100", 30000, 100000, 20 },
	{ "hp-10-50", 10000, 50000, 10 },
};

static int write_online(const char *val)
{
	int fd = open(CPU1_ONLINE, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

static int read_online(void)
{
	char c = 0;
	int fd = open(CPU1_ONLINE, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

int main(void)
{
	int m = nr_cpus(), i, j, bad_writes = 0, dead = 0, err;
	bool shares_ok[NG];
	long long v;

	rtedf_init();
	ksft_set_plan(4 + NG);

	if (m < 2 || access(CPU1_ONLINE, W_OK)) {
		ksft_print_msg("needs CPU 1 and its online file\n");
		ksft_test_result_skip(ALIVE_MSG "\n");
		ksft_test_result_skip(ONLINE_MSG "\n");
		for (i = 0; i < NG; i++)
			ksft_test_result_skip(SHARE_MSG "\n", grp[i].g);
		ksft_test_result_skip(FITS_MSG "\n");
		ksft_test_result_skip(OVER_MSG "\n");
		ksft_finished();
	}

	{
		pid_t pid[NG * m];
		double pm[NG * m];
		uint64_t t0;

		for (i = 0; i < NG; i++)
			if (cg_group(grp[i].g, grp[i].p, grp[i].q))
				die("setting up %s", grp[i].g);
		t0 = now_ns() + 2 * STEP;
		for (i = 0; i < NG; i++)
			for (j = 0; j < m; j++) {
				pid[i * m + j] = spawn_busy_from(grp[i].g, SCHED_FIFO,
								 grp[i].prio, j, t0);
				if (pid[i * m + j] < 0)
					ksft_exit_fail_msg("cannot start the busy tasks\n");
			}
		start_in_future(t0);

		sleep_until(t0 + 2 * STEP);
		for (i = 0; i < CYCLES; i++) {
			err = write_online("0");
			if (err) {
				ksft_print_msg("cycle %d: offlining CPU 1: %s\n", i, strerror(-err));
				bad_writes++;
			}
			sleep_ns(STEP);
			err = write_online("1");
			if (err) {
				ksft_print_msg("cycle %d: onlining CPU 1: %s\n", i, strerror(-err));
				bad_writes++;
			}
			sleep_ns(STEP);
		}

		for (i = 0; i < NG * m; i++) {
			char st = proc_state(pid[i]);

			if (kill(pid[i], 0) || st != 'R') {
				ksft_print_msg("task %d of %s: %s, state '%c'\n", pid[i],
					       grp[i / m].g, kill(pid[i], 0) ? "gone" : "alive",
					       st ? st : '-');
				dead++;
			}
		}
		ksft_test_result(!dead, ALIVE_MSG "\n");
		ksft_test_result(read_online() == 1 && !bad_writes, ONLINE_MSG "\n");

		measure_permille_at(pid, NG * m, now_ns() + 3 * STEP, WINDOW, pm);
		for (i = 0; i < NG; i++) {
			double sum = 0, want = 1000.0 * m * grp[i].q / grp[i].p;

			for (j = 0; j < m; j++)
				sum += pm[i * m + j];
			ksft_print_msg("%s: %d tasks received %.1f per mille together (%.0f reserved on %d CPUs)\n",
				       grp[i].g, m, sum, want, m);
			shares_ok[i] = fabs(sum - want) <= 10.0 * m;
		}
		for (i = 0; i < NG * m; i++)
			stop_child(pid[i]);
	}
	for (i = 0; i < NG; i++)
		ksft_test_result(shares_ok[i], SHARE_MSG "\n", grp[i].g);

	/* Admission: 70% + the root's own 5% are taken on every CPU. */
	err = cg_group("hp-fits", 100000, 10000);
	ksft_print_msg("a 10 ms / 100 ms group: %s\n", err ? strerror(-err) : "accepted");
	ksft_test_result(!err && !cg_read_ll("hp-fits", "cpu.rt_runtime_us", &v) && v == 10000,
			 FITS_MSG "\n");
	if (mkdir(cg_path("hp-over", ""), 0755) && errno != EEXIST)
		die("mkdir hp-over");
	err = cg_write_ll("hp-over", "cpu.rt_period_us", 100000);
	if (!err)
		err = cg_write_ll("hp-over", "cpu.rt_runtime_us", 30000);
	ksft_print_msg("a 30 ms / 100 ms group: %s\n", err ? strerror(-err) : "accepted");
	ksft_test_result((err == -EBUSY || err == -EINVAL) &&
			 !cg_read_ll("hp-over", "cpu.rt_runtime_us", &v) && v == 0,
			 OVER_MSG "\n");
	cg_remove("hp-over");
	cg_remove("hp-fits");
	for (i = 0; i < NG; i++)
		cg_remove(grp[i].g);
	ksft_finished();
}
