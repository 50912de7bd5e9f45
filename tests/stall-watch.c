/* stall-watch.c - does the whole machine stop now and then? Tells a late
 * answer of a bot that overran its clock from one that the machine (on a
 * virtual machine: its host) kept from running at all.
 *
 *   stall-watch [MS]
 *
 * Wakes every millisecond on CLOCK_MONOTONIC, under the real-time FIFO
 * policy where it may (root, or CAP_SYS_NICE), so that no ordinary process
 * can keep it waiting, and prints a line for each wake more than MS
 * (default 5) late: when the stall began and ended, in seconds of
 * CLOCK_MONOTONIC, and how long it was. A real-time thread that wakes 40 ms
 * late was not kept waiting by other programs: the machine did not run.
 * On SIGTERM or SIGINT it prints a summary and exits 0. Costs about 1,000
 * wakes a second, nothing else. tests/bot-time.sh runs it beside the bot. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct sigaction sa;
	struct timespec due, now;
	double limit_ms = 5, longest = 0, watched;
	long stalls = 0;
	const char *how = "real-time FIFO";
	char *end;

	if (argc > 2 || (argc == 2 && (limit_ms = strtod(argv[1], &end), *end != '\0' ||
						  !(limit_ms >= 1 && limit_ms <= 10000)))) {
		fprintf(stderr, "usage: stall-watch [MS] (MS from 1 to 10000: the lateness to report)\n");
		return 2;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		how = "the normal policy (no permission for real time)";
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &due);
	watched = seconds(&due);
	while (!done) {
		double late_ms;

		due.tv_nsec += 1000000;
		if (due.tv_nsec >= 1000000000) {
			due.tv_nsec -= 1000000000;
			due.tv_sec++;
		}
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) == EINTR)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		late_ms = (seconds(&now) - seconds(&due)) * 1e3;
		if (late_ms > limit_ms) {
			printf("# stall: %.4f to %.4f s (CLOCK_MONOTONIC), %.1f ms\n",
			       seconds(&due), seconds(&now), late_ms);
			stalls++;
		}
		if (late_ms > longest)
			longest = late_ms;
		if (late_ms > 1)
			due = now; /* (no burst of wakes to catch up) */
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("# stall-watch: %.0f s watched under %s; %ld stalls over %.0f ms, the longest %.1f ms\n",
	       seconds(&now) - watched, how, stalls, limit_ms, longest);
	return 0;
}
