/* bot-guard.c - the bot's answer guard (see bot-guard.h). */
#include "config.h"

/* (syscall(), beyond the POSIX the build asks for) */
#define _DEFAULT_SOURCE 1

#include "bot-guard.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

/* Everything but THREAD and FD is under LOCK. */
struct bot_guard {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	int fd;
	bool quit;
	uint64_t due;    /* when to write TEXT (now_ns()); 0: nothing to write */
	char text[32];
	bool gave;       /* it wrote this turn's answer */
	uint64_t gave_at; /* now_ns() after the write */
	int write_errno; /* and the write failed with this */
};

/* Wait on G's condition until DUE, NOW being now_ns(). (The condition's
 * clock is CLOCK_MONOTONIC, which now_ns() is while nothing stops the
 * process, as nothing does the bot.) */
static void wait_until(struct bot_guard *g, uint64_t due, uint64_t now)
{
	struct timespec at = monotonic_after(due - now);

	pthread_cond_timedwait(&g->wake, &g->lock, &at);
}

/* Ask Linux for the shortest time slice (0.1 ms) for the calling thread,
 * all else as it is: since Linux 6.12 a thread woken with a shorter slice
 * than the running one's preempts it, so the guard runs at its deadline
 * even when every processor is busy. Only under the normal policy (a bot
 * run with chrt keeps what it was given), and where the system has no
 * such call, nothing. */
static void ask_short_slice(void)
{
#if defined(__linux__) && defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
	} attr;

	memset(&attr, 0, sizeof(attr));
	if (syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0) != 0 ||
	    attr.policy != SCHED_OTHER)
		return;
	attr.size = sizeof(attr);
	attr.flags = 0;
	attr.runtime = 100000;
	(void)syscall(SYS_sched_setattr, 0, &attr, 0);
#endif
}

/* The guard's thread: wait for an answer to be offered, then for its
 * deadline, and write it if it is still the guard's to write. */
static void *guard_run(void *arg)
{
	struct bot_guard *g = arg;

	ask_short_slice();
	pthread_mutex_lock(&g->lock);
	while (!g->quit) {
		uint64_t now = now_ns();

		if (g->due == 0) {
			pthread_cond_wait(&g->wake, &g->lock);
		} else if (now < g->due) {
			wait_until(g, g->due, now);
		} else {
			g->due = 0;
			g->gave = true;
			if (!write_line(g->fd, g->text))
				g->write_errno = errno != 0 ? errno : EIO;
			g->gave_at = now_ns();
		}
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

struct bot_guard *bot_guard_new(int fd)
{
	struct bot_guard *g = xcalloc(1, sizeof(*g));
	pthread_condattr_t attr;

	g->fd = fd;
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&g->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (pthread_create(&g->thread, NULL, guard_run, g) != 0) {
		pthread_cond_destroy(&g->wake);
		pthread_mutex_destroy(&g->lock);
		free(g);
		return NULL;
	}
	return g;
}

void bot_guard_free(struct bot_guard *g)
{
	if (g == NULL)
		return;
	pthread_mutex_lock(&g->lock);
	g->quit = true;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->thread, NULL);
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

bool bot_guard_offer(void *guard, const char *text, uint64_t due, bool final)
{
	struct bot_guard *g = guard;
	bool open;

	pthread_mutex_lock(&g->lock);
	open = !g->gave;
	if (open && final) {
		g->due = 0;
	} else if (open) {
		fmt_buf(g->text, sizeof(g->text), "%s", text);
		g->due = due;
		pthread_cond_signal(&g->wake);
	}
	pthread_mutex_unlock(&g->lock);
	return open;
}

int bot_guard_gave(struct bot_guard *g, uint64_t *when)
{
	int gave, err;

	pthread_mutex_lock(&g->lock);
	gave = g->gave;
	*when = g->gave_at;
	err = g->write_errno;
	g->gave = false;
	g->write_errno = 0;
	pthread_mutex_unlock(&g->lock);
	if (err != 0)
		errno = err;
	return err != 0 ? -1 : gave;
}
