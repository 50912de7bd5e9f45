/* util.h - memory, errors, time and random numbers shared by every layer. */
#ifndef NOUGHTS_UTIL_H
#define NOUGHTS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal: STR(MCTS_MIX_PRIOR) is "50". */
#define STR_(x) #x
#define STR(x) STR_(x)

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* fopen(PATH, "rb") that does not wait at the open: a FIFO without a
 * writer would block it until one came (it reads as empty instead). NULL
 * with errno set on failure. */
FILE *fopen_nowait(const char *path);

/* A command's progress line on stderr: on a terminal rewritten in place
 * at each progress_say(); otherwise (a log) a line of its own at most every
 * PROGRESS_EVERY_S seconds, the last one always, so that a log neither
 * piles a run's updates into one line nor takes one for each. */
#define PROGRESS_EVERY_S 10
struct progress {
	bool tty;      /* stderr is a terminal */
	bool open;     /* (terminal) a line is shown, not ended */
	bool pending;  /* (log) LINE is newer than the last line written */
	uint64_t shown_ns;
	char line[200];
};
void progress_init(struct progress *p);
void progress_say(struct progress *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* End the line (terminal) or write the last one not yet written (log):
 * before a message of another kind, and at the end. */
void progress_end(struct progress *p);

/* Allocation that never returns NULL: on failure fatal() is called. */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* COUNT x SIZE zeroed bytes from the start of a cache line (64 bytes),
 * for what threads write beside each other; free() frees it. */
void *xcalloc_lines(size_t count, size_t size);

/* BYTES of zeroed memory for a large table read at random (MCTS's arena,
 * negamax's transposition table): from one huge page (2 MiB) up, mapped
 * on its own, aligned to a huge page and advised to use them where the
 * kernel can, since with 4 KiB pages nearly every random read misses the
 * TLB and every page costs a fault on first touch; pages are zeroed as
 * they are first touched. Smaller: calloc(). fatal() when out of memory.
 * huge_free() takes the same BYTES. */
void *huge_alloc(size_t bytes);
void huge_free(void *p, size_t bytes);

/* Fault in, ahead of use, up to BYTES (in huge pages) of the huge_alloc()
 * memory at P not yet resident, from its start up to UPTO bytes into it
 * (the order in which MCTS's arena hands its slots out). A first touch can
 * cost milliseconds (a huge page to clear, or a virtual machine whose host
 * backs its memory lazily), which a search against the clock would rather
 * not pay; what is never used is better not touched, since such a host
 * takes its time to take back what a process leaves. Returns the bytes
 * faulted in: 0 once all up to UPTO is resident, where P is not a live
 * allocation, or where the system cannot (Linux's MADV_POPULATE_WRITE,
 * 5.14 on). Leaves the contents alone, so other threads may use the
 * memory meanwhile. */
size_t huge_prefault(const void *p, size_t upto, size_t bytes);

/* Fault in the LEN bytes at P, whole pages (P and LEN multiples of the
 * page size), leaving their contents alone (MADV_POPULATE_WRITE). Returns
 * false where the system cannot. */
bool populate(void *p, size_t len);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* Set a function that fatal() calls before printing, so a front end that
 * owns the terminal can give it back first. NULL removes it. */
void util_set_fatal_hook(void (*hook)(void));

/* Print "noughts: MESSAGE" on stderr (after the fatal hook) and exit 1.
 * For conditions the program cannot go on from, such as running out of
 * memory; bad input is reported by the caller instead. */
NORETURN void fatal(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Format into BUF of SIZE bytes like snprintf, always terminated; returns
 * BUF so it can be used as an argument. */
char *fmt_buf(char *buf, size_t size, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* TEXT (a word the user typed, a path) as an error message shows it, in
 * BUF of SIZE bytes: control characters and bytes that are not UTF-8
 * written as escapes (\n, \t, \xHH), so that the message stays one line
 * of text; and past MAX bytes, its middle cut to "...", so that a long
 * word leaves room for the reason. Returns BUF. shown() is the same in
 * one of a few static buffers (MAX 60), for the main thread's messages. */
char *text_shown(const char *text, size_t max, char *buf, size_t size);
const char *shown(const char *text);

/* The machine's memory in MiB (its physical pages), or 0 if unknown. */
uint64_t machine_mib(void);

/* Parse S as a whole decimal number from LO to HI, digits only (no sign,
 * no blanks), into *OUT. Returns false, *OUT untouched, if it is not. */
bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* Write TEXT and a newline to descriptor FD, all of it (a write cut short
 * or interrupted is carried on). False with errno set if it fails. */
bool write_line(int fd, const char *text);

/* Parse S as a finite decimal number from LO to HI into *OUT: digits, a
 * point, an exponent (1.5, .5, 2e-3); no sign, no blanks, as parse_u64().
 * Returns false, *OUT untouched, if it is not. */
bool parse_double(const char *s, double lo, double hi, double *out);

/* Monotonic clock in nanoseconds from an arbitrary origin, that stands
 * still while the program is stopped (between clock_stop_begin() and
 * clock_stop_end()), so that a move's time, a deadline or a rate does not
 * count the minutes the game screen spent suspended by Ctrl-Z. */
uint64_t now_ns(void);

/* CLOCK_MONOTONIC's time NS nanoseconds from now, as a timespec: the
 * deadline of a wait on a condition whose clock is CLOCK_MONOTONIC. */
struct timespec monotonic_after(uint64_t ns);

/* Around a stop of the process (SIGTSTP to SIGCONT): safe in a signal
 * handler, one stop at a time. */
void clock_stop_begin(void);
void clock_stop_end(void);

/* A small fast generator (wyrand: one add and one 64x64->128-bit multiply
 * a number, passing BigCrush and PractRand; the xoshiro256** it replaced
 * took an eighth of a playout). Every engine (and every search thread)
 * owns one, seeded explicitly, so a seed fixes a whole search. */
struct rng {
	uint64_t s;
};

/* Seed from a 64-bit value; any value, including 0, is fine. */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 random bits. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t a = r->s += 0xa0761d6478bd642full, b = a ^ 0xe7037ed1a0b428dbull;
#if defined(__SIZEOF_INT128__)
	unsigned __int128 t = (unsigned __int128)a * b;

	return (uint64_t)(t >> 64) ^ (uint64_t)t;
#else
	uint64_t z = a * b; /* (no 128-bit type: a splitmix64 finish instead) */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
#endif
}

/* A number in [0, n) for 0 < n <= 2^32 (multiply-shift, bias below 2^-32 *
 * n: irrelevant for the board sizes used here). */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* splitmix64 step: used to seed and to derive Zobrist keys. */
uint64_t splitmix64(uint64_t *state);

/* Bits set in X. Without a popcount instruction in the target, gcc calls
 * libgcc for __builtin_popcountll, which cost a sixth of the playout time;
 * the SWAR sum inlines instead. */
static inline int popcount64(uint64_t x)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555u);
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (int)((x * 0x0101010101010101u) >> 56);
#endif
}


#endif
