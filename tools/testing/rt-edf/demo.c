// SPDX-License-Identifier: GPL-2.0
/*
 * make demo: one reservation of 10 ms every 100 ms with a SCHED_FIFO busy
 * loop in it; prints the CPU share the loop received.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "rtedf.h"

#define G	"demo"
#define Q_US	10000
#define P_US	100000

int main(void)
{
	double pm;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cg_mount();
	if (cg_group(G, P_US, Q_US))
		die("creating the reservation");
	pid = spawn_busy(G, SCHED_FIFO, 50, 0);
	if (pid < 0)
		ksft_exit_fail_msg("cannot start the busy loop\n");
	sleep_ns(P_US * NSEC_PER_USEC);
	measure_permille(&pid, 1, 5 * NSEC_PER_SEC, &pm);
	stop_child(pid);
	cg_remove(G);
	printf("rt-edf demo: reservation %d us every %d us (%d per mille);\n"
	       "rt-edf demo: a SCHED_FIFO busy loop in it received %.1f per mille of CPU 0 over 5 s\n",
	       Q_US, P_US, Q_US * 1000 / P_US, pm);
	return 0;
}
