/* pool.h - a fixed team of threads that run one function together.
 *
 * The search engines' workers: pool_run() calls FN(ARG, 0) on the calling
 * thread and FN(ARG, i) on helper thread i (1 to N - 1), and returns when
 * every call has returned, so the caller still owns the loop and nothing
 * runs between two pool_run() calls. The helpers are made once and sleep
 * in between. */
#ifndef NOUGHTS_POOL_H
#define NOUGHTS_POOL_H

struct pool;

/* A team of N threads (1 to 256) counting the caller: N - 1 helpers are
 * started now. fatal() when a thread cannot be made. */
struct pool *pool_new(int n, void (*fn)(void *arg, int index), void *arg);

/* Run the function on every thread of P and wait for all of them. */
void pool_run(struct pool *p);

/* Stop and join the helpers. NULL is fine. */
void pool_free(struct pool *p);

/* Cores online (at least 1, at most 256). */
int pool_cores(void);

#endif
