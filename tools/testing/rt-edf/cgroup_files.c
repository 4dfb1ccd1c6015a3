// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup v1 'cpu' controller mounts and carries the RT bandwidth files,
 * at the root and in a new group; the root's values are the global limit.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtedf.h"

#define G "files"

static long long sysctl_ll(const char *path)
{
	long long v = -2;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -2;
		fclose(f);
	}
	return v;
}

int main(void)
{
	long long period = -1, runtime = -1, v;
	bool ok;

	rtedf_init();
	v1_interface_only();
	ksft_set_plan(5);

	ksft_test_result(cg_has("", "cpu.rt_period_us") &&
			 cg_has("", "cpu.rt_runtime_us"),
			 "root group has cpu.rt_period_us and cpu.rt_runtime_us\n");

	cg_read_ll("", "cpu.rt_period_us", &period);
	cg_read_ll("", "cpu.rt_runtime_us", &runtime);
	ksft_print_msg("root: rt_period_us %lld rt_runtime_us %lld\n", period, runtime);
	ksft_test_result(period == sysctl_ll("/proc/sys/kernel/sched_rt_period_us") &&
			 runtime == sysctl_ll("/proc/sys/kernel/sched_rt_runtime_us"),
			 "root group's RT bandwidth is the global sched_rt_{period,runtime}_us\n");

	cg_remove(G);
	ok = mkdir(cg_path(G, ""), 0755) == 0;
	ksft_test_result(ok && cg_has(G, "cpu.rt_period_us") &&
			 cg_has(G, "cpu.rt_runtime_us") && cg_has(G, "tasks"),
			 "a new group has cpu.rt_period_us, cpu.rt_runtime_us and tasks\n");

	v = -1;
	cg_read_ll(G, "cpu.rt_runtime_us", &v);
	ksft_test_result(v == 0, "a new group starts with no RT runtime\n");

	ok = cg_group(G, 50000, 5000) == 0;
	ok = ok && !cg_read_ll(G, "cpu.rt_period_us", &period) && period == 50000;
	ok = ok && !cg_read_ll(G, "cpu.rt_runtime_us", &runtime) && runtime == 5000;
	ksft_test_result(ok, "a group reads back the period and runtime written\n");

	cg_remove(G);
	ksft_finished();
}
