/* tap.h - a few macros that print the Test Anything Protocol. */
#ifndef NOUGHTS_TAP_H
#define NOUGHTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count, tap_failed;

/* Report one assertion: COND true passes. */
#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline void tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline void tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
}

/* Print the plan and return the exit status for main(). */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed != 0;
}

#endif
