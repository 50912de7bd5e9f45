/* stall-watch.c - do the processors stop now and then? Tells a late
 * answer of a bot that overran its clock from one that the machine (on a
 * virtual machine: its host) kept from running at all.
 *
 *   stall-watch [MS]
 *
 * A thread on each processor the process may use, pinned there, wakes
 * every millisecond on CLOCK_MONOTONIC, under the real-time FIFO policy
 * where it may (root, or CAP_SYS_NICE), so that no ordinary process can
 * keep it waiting, and prints a line for each wake more than MS (default
 * 5) late: the processor, when the stall began and ended in seconds of
 * CLOCK_MONOTONIC, and how long it was. A real-time thread that wakes 40
 * ms late was not kept waiting by other programs: its processor did not
 * run (a virtual machine's host may stop one virtual processor while the
 * others go on). Every 10 ms it also reads the hypervisor callback count
 * of /proc/interrupts (HYP: on Linux 5.8 and later a KVM guest's "page
 * ready" events, each the end of an asynchronous page fault: a task that
 * touched memory the host had not backed slept while the host fetched it,
 * and the processor ran others meanwhile, so no watcher saw a stall), and
 * prints when it grew. On SIGTERM or SIGINT it prints a summary and exits 0.
 * Costs about 1,000 wakes a second a processor, nothing else.
 * tests/bot-time.sh runs it beside the bot. */
#define _GNU_SOURCE 1 /* (pthread_setaffinity_np(), CPU_SET) */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct watcher {
	pthread_t thread;
	int cpu;
	double limit_ms;
	long stalls;
	double longest;
	int fifo; /* 1: it runs under SCHED_FIFO */
};

static atomic_int done; /* (lock-free: set by the signal handler, read by every thread) */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&done, 1);
}

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static void *watch(void *arg)
{
	struct watcher *w = arg;
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec due, now;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(w->cpu, &one);
	pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	w->fifo = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
	clock_gettime(CLOCK_MONOTONIC, &due);
	while (!atomic_load(&done)) {
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
		if (late_ms > w->limit_ms) {
			pthread_mutex_lock(&out_lock);
			printf("# stall: cpu %d, %.4f to %.4f s (CLOCK_MONOTONIC), %.1f ms\n", w->cpu,
			       seconds(&due), seconds(&now), late_ms);
			pthread_mutex_unlock(&out_lock);
			w->stalls++;
		}
		if (late_ms > w->longest)
			w->longest = late_ms;
		if (late_ms > 1)
			due = now; /* (no burst of wakes to catch up) */
	}
	return NULL;
}

/* The sum of the HYP line of /proc/interrupts, or -1 where there is none. */
static long hyp_count(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	long total = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, "HYP:", 4) != 0)
			continue;
		total = 0;
		for (p += 4;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			total += v;
		}
		break;
	}
	fclose(f);
	return total;
}

int main(int argc, char **argv)
{
	static struct watcher w[CPU_SETSIZE];
	struct sigaction sa;
	struct timespec start, now;
	sigset_t all, old;
	cpu_set_t mine;
	double limit_ms = 5, longest = 0;
	long stalls = 0, hyp, faults = 0;
	int n = 0, fifo = 1;
	char *end;

	if (argc > 2 || (argc == 2 && (limit_ms = strtod(argv[1], &end), *end != '\0' ||
						  !(limit_ms >= 1 && limit_ms <= 10000)))) {
		fprintf(stderr, "usage: stall-watch [MS] (MS from 1 to 10000: the lateness to report)\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(mine), &mine) != 0) {
		perror("stall-watch: sched_getaffinity");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* the watchers block the signals; the main thread takes them */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &mine))
			continue;
		w[n].cpu = cpu;
		w[n].limit_ms = limit_ms;
		if (pthread_create(&w[n].thread, NULL, watch, &w[n]) != 0) {
			fprintf(stderr, "stall-watch: cannot start a thread for cpu %d\n", cpu);
			return 1;
		}
		n++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	hyp = hyp_count();
	while (!atomic_load(&done)) {
		struct timespec tick = { 0, 10000000 };
		long h;

		nanosleep(&tick, NULL);
		h = hyp_count();
		if (h > hyp && hyp >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			pthread_mutex_lock(&out_lock);
			printf("# hyp: %.4f s (CLOCK_MONOTONIC), %ld more hypervisor callbacks "
			       "(asynchronous page faults)\n", seconds(&now), h - hyp);
			pthread_mutex_unlock(&out_lock);
			faults += h - hyp;
		}
		if (h >= 0)
			hyp = h;
	}
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		stalls += w[i].stalls;
		fifo &= w[i].fifo;
		if (w[i].longest > longest)
			longest = w[i].longest;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("# stall-watch: %.0f s watched on %d processors under %s; %ld stalls over %.0f ms, "
	       "the longest %.1f ms; %ld hypervisor callbacks\n", seconds(&now) - seconds(&start), n,
	       fifo ? "real-time FIFO" : "the normal policy (no permission for real time)", stalls,
	       limit_ms, longest, faults);
	return 0;
}
