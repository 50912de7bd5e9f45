/* util.c - memory, errors, time and random numbers. */
#include "config.h"

/* (mmap()'s MAP_ANONYMOUS, madvise() and MADV_HUGEPAGE, beyond the POSIX
 * the build asks for) */
#define _DEFAULT_SOURCE 1

#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static void (*fatal_hook)(void);

void util_set_fatal_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook != NULL) {
		void (*hook)(void) = fatal_hook;
		fatal_hook = NULL; /* a failure inside the hook must not loop */
		hook();
	}
	fputs("noughts: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size != 0 ? size : 1);

	if (p == NULL)
		fatal("out of memory (wanted %zu bytes)", size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count != 0 ? count : 1, size != 0 ? size : 1);

	if (p == NULL)
		fatal("out of memory (wanted %zu x %zu bytes)", count, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size != 0 ? size : 1);

	if (p == NULL)
		fatal("out of memory (wanted %zu bytes)", size);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *fmt_buf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}

bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = splitmix64(&seed);
}

/* A huge page (Linux's transparent huge pages on x86-64). */
#define HUGE_PAGE ((size_t)2 << 20)

void *huge_alloc(size_t bytes)
{
	size_t len, head;
	char *p;

	if (bytes < HUGE_PAGE)
		return xcalloc(1, bytes);
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	len = bytes + HUGE_PAGE; /* one page more, to align; its ends go back */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		fatal("out of memory (wanted %zu bytes)", bytes);
	head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (head > 0)
		munmap(p, head);
	munmap(p + head + bytes, len - head - bytes);
	p += head;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE); /* (only advice) */
#endif
	return p;
}

void huge_free(void *p, size_t bytes)
{
	if (p == NULL)
		return;
	if (bytes < HUGE_PAGE)
		free(p);
	else
		munmap(p, (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
}
