/* pool.c - a fixed team of threads that run one function together.
 *
 * One mutex and two condition variables: helpers wait for the generation
 * count to move, run, and the last one to finish wakes the caller. A run
 * costs two wake-ups per helper, some tens of microseconds: callers run
 * slices of milliseconds. */
#include "config.h"

#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

struct helper {
	struct pool *pool;
	int index;
	pthread_t thread;
};

struct pool {
	int n;
	void (*fn)(void *arg, int index);
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t start, done;
	unsigned long generation; /* bumped by each pool_run() */
	int running;              /* helpers still inside this generation's call */
	int quit;
	struct helper *helpers;
};

static void *helper_main(void *data)
{
	struct helper *h = data;
	struct pool *p = h->pool;
	unsigned long seen = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->generation == seen && !p->quit)
			pthread_cond_wait(&p->start, &p->lock);
		if (p->quit)
			break;
		seen = p->generation;
		pthread_mutex_unlock(&p->lock);
		p->fn(p->arg, h->index);
		pthread_mutex_lock(&p->lock);
		if (--p->running == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct pool *pool_new(int n, void (*fn)(void *arg, int index), void *arg)
{
	struct pool *p = xcalloc(1, sizeof(*p));
	int err;

	p->n = n < 1 ? 1 : n;
	p->fn = fn;
	p->arg = arg;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->start, NULL);
	pthread_cond_init(&p->done, NULL);
	p->helpers = xcalloc((size_t)p->n, sizeof(*p->helpers));
	for (int i = 1; i < p->n; i++) {
		p->helpers[i].pool = p;
		p->helpers[i].index = i;
		err = pthread_create(&p->helpers[i].thread, NULL, helper_main, &p->helpers[i]);
		if (err != 0)
			fatal("cannot start search thread %d of %d: %s", i + 1, p->n, strerror(err));
	}
	return p;
}

void pool_run(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->running = p->n - 1;
	p->generation++;
	pthread_cond_broadcast(&p->start);
	pthread_mutex_unlock(&p->lock);
	p->fn(p->arg, 0);
	pthread_mutex_lock(&p->lock);
	while (p->running > 0)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void pool_free(struct pool *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_broadcast(&p->start);
	pthread_mutex_unlock(&p->lock);
	for (int i = 1; i < p->n; i++)
		pthread_join(p->helpers[i].thread, NULL);
	pthread_cond_destroy(&p->start);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->helpers);
	free(p);
}

int pool_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}
