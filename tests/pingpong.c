/* pingpong.c - how long a cache line takes to move from one core to
 * another, beside how long a random read from memory takes: what decides
 * how well a search on one shared tree scales (README, "Figures").
 *
 *   pingpong [ROUNDS]
 *
 * Two threads, on cores 0 and 1 where the system lets a thread choose,
 * hand one counter back and forth ROUNDS times (default 200000); then one
 * thread follows a random cycle through 128 MiB. A measurement, not a
 * test: make check builds it and does not run it. */
#define _GNU_SOURCE
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) int turn; /* the line handed back and forth */
static long rounds = 200000;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pin(int core)
{
#ifdef __linux__
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(core, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
	(void)core;
#endif
}

/* Wait for the counter to reach 2i + 1, make it 2i + 2. */
static void *partner(void *arg)
{
	(void)arg;
	pin(1);
	for (long i = 0; i < rounds; i++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * i + 1)
			;
		__atomic_store_n(&turn, (int)(2 * i + 2), __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Nanoseconds a read takes when each read's address comes from the one
 * before, through a random cycle of 2^25 slots. */
static double memory_latency(void)
{
	size_t n = (size_t)1 << 25;
	uint32_t *next = malloc(n * sizeof(*next)), at = 0;
	uint64_t s = 88172645463325252ull;
	double t0;

	if (next == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		next[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) { /* Sattolo: one cycle through all */
		size_t j;
		uint32_t x;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		j = (size_t)(s % i);
		x = next[i], next[i] = next[j], next[j] = x;
	}
	t0 = now();
	for (int i = 0; i < 2000000; i++)
		at = next[at];
	t0 = (now() - t0) / 2e6 * 1e9;
	free(next);
	return at == n ? 0 : t0; /* (uses AT: the loop is not optimised away) */
}

int main(int argc, char **argv)
{
	pthread_t t;
	double t0, rt;

	if (argc > 2 || (argc == 2 && (rounds = strtol(argv[1], NULL, 10)) <= 0)) {
		fprintf(stderr, "usage: pingpong [ROUNDS], ROUNDS a positive number\n");
		return 2;
	}
	pin(0);
	if (pthread_create(&t, NULL, partner, NULL) != 0) {
		fprintf(stderr, "pingpong: cannot start a thread\n");
		return 1;
	}
	t0 = now();
	for (long i = 0; i < rounds; i++) {
		__atomic_store_n(&turn, (int)(2 * i + 1), __ATOMIC_RELEASE);
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * i + 2)
			;
	}
	rt = (now() - t0) / (double)rounds * 1e9;
	pthread_join(t, NULL);
	printf("a cache line from core to core: %.0f ns (a round trip %.0f ns)\n", rt / 2, rt);
	printf("a random read from memory:      %.0f ns\n", memory_latency());
	return 0;
}
