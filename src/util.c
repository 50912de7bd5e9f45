/* util.c - memory, errors, time and random numbers. */
#include "config.h"

/* (mmap()'s MAP_ANONYMOUS, madvise() and MADV_HUGEPAGE, mincore(), beyond
 * the POSIX the build asks for) */
#define _DEFAULT_SOURCE 1

#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

FILE *fopen_nowait(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags, saved;
	FILE *f;

	if (fd < 0)
		return NULL;
	/* Reads wait again for a writer's data; a FIFO without one ends. */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 &&
	    (f = fdopen(fd, "rb")) != NULL)
		return f;
	saved = errno;
	close(fd);
	errno = saved;
	return NULL;
}

void progress_init(struct progress *p)
{
	*p = (struct progress){ .tty = isatty(STDERR_FILENO) };
}

void progress_say(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	uint64_t now = now_ns();

	va_start(ap, fmt);
	vsnprintf(p->line, sizeof(p->line), fmt, ap);
	va_end(ap);
	if (p->tty) {
		fprintf(stderr, "\r%s", p->line);
		p->open = true;
	} else if (p->shown_ns == 0 || now - p->shown_ns >= PROGRESS_EVERY_S * 1000000000ull) {
		fprintf(stderr, "%s\n", p->line);
		p->shown_ns = now;
		p->pending = false;
	} else {
		p->pending = true;
	}
}

void progress_end(struct progress *p)
{
	if (p->open)
		fprintf(stderr, "\n");
	else if (p->pending)
		fprintf(stderr, "%s\n", p->line);
	p->open = p->pending = false;
}

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

void *xcalloc_lines(size_t count, size_t size)
{
	void *p = NULL;

	if (count == 0 || size == 0)
		count = size = 1;
	if (size > SIZE_MAX / count || posix_memalign(&p, 64, count * size) != 0)
		fatal("out of memory (wanted %zu x %zu bytes)", count, size);
	return memset(p, 0, count * size);
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

/* The length of the UTF-8 sequence at S (2 to 4 bytes) of a character
 * that is printable text, 0 if it is not one: not well-formed (overlong,
 * a surrogate, past U+10FFFF) or a C1 control character. */
static int utf8_length(const unsigned char *s)
{
	unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
	int n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, lo = s[0] == 0xc2 ? 0xa0 : 0x80; /* (C2 80-9F: C1 controls) */
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* TEXT escaped into OUT (room for 4 bytes a byte), as a run of units (a
 * character or an escape), the offset of each unit's end in ENDS (room
 * for one a byte). Returns how many units. */
static size_t escape_text(const char *text, char *out, size_t *ends)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0, units = 0;

	while (*s != '\0') {
		int n = *s >= 0x80 ? utf8_length(s) : *s < 0x20 || *s == 0x7f ? 0 : 1;

		if (n > 0) {
			memcpy(out + o, s, (size_t)n);
			o += (size_t)n;
			s += n;
		} else {
			if (*s == '\n' || *s == '\t') {
				out[o++] = '\\';
				out[o++] = *s == '\n' ? 'n' : 't';
			} else {
				o += (size_t)sprintf(out + o, "\\x%02x", *s);
			}
			s++;
		}
		ends[units++] = o;
	}
	out[o] = '\0';
	return units;
}

char *text_shown(const char *text, size_t max, char *buf, size_t size)
{
	size_t len = strlen(text), units, head = 0, tail;
	char *all = xmalloc(4 * len + 1);
	size_t *ends = xmalloc((len + 1) * sizeof(*ends));

	units = escape_text(text, all, ends);
	len = units > 0 ? ends[units - 1] : 0;
	if (len > max && max >= 8) {
		/* whole units: the first that fit in half, the last in the rest */
		while (head < units && ends[head] <= (max - 3) / 2)
			head++;
		tail = head;
		while (tail < units && len - ends[tail] > max - 3 - (head ? ends[head - 1] : 0))
			tail++;
		fmt_buf(buf, size, "%.*s...%s", (int)(head ? ends[head - 1] : 0), all,
			all + (tail < units ? ends[tail] : len));
	} else {
		fmt_buf(buf, size, "%s", all);
	}
	free(ends);
	free(all);
	return buf;
}

const char *shown(const char *text)
{
	static char buf[4][64];
	static unsigned next;

	next = (next + 1) % 4;
	return text_shown(text, 60, buf[next], sizeof(buf[next]));
}

uint64_t machine_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size >> 20 : 0;
}

/* Write all LEN bytes of BUF to FD. */
static bool write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

bool write_line(int fd, const char *text)
{
	char line[256];
	size_t len = strlen(text);

	/* one write where it fits, so that a reader wakes once for the line */
	if (len < sizeof(line)) {
		memcpy(line, text, len);
		line[len] = '\n';
		return write_all(fd, line, len + 1);
	}
	return write_all(fd, text, len) && write_all(fd, "\n", 1);
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

	/* (plain decimal only: strtod() alone also takes blanks, a '+',
	 * hexadecimal and "inf", which no integer option takes) */
	if (strspn(s, "0123456789") == 0 && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return false;
	if (s[strspn(s, "0123456789.eE-")] != '\0')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The time the program spent stopped, as a sequence lock: SEQ is odd
 * while a stop is under way, which began at BEGAN; TOTAL is the stops'
 * time so far. Written only by the handler of a stop, read by every
 * thread. */
static struct {
	uint64_t seq, began, total;
} stopped;

void clock_stop_begin(void)
{
	__atomic_store_n(&stopped.began, mono_ns(), __ATOMIC_RELAXED);
	__atomic_fetch_add(&stopped.seq, 1, __ATOMIC_SEQ_CST);
}

void clock_stop_end(void)
{
	uint64_t took = mono_ns() - __atomic_load_n(&stopped.began, __ATOMIC_RELAXED);

	__atomic_store_n(&stopped.total, __atomic_load_n(&stopped.total, __ATOMIC_RELAXED) + took,
			 __ATOMIC_RELAXED);
	__atomic_fetch_add(&stopped.seq, 1, __ATOMIC_SEQ_CST);
}

uint64_t now_ns(void)
{
	for (;;) {
		uint64_t seq = __atomic_load_n(&stopped.seq, __ATOMIC_ACQUIRE), t, off;

		/* while stopped (and until the stop is counted) time stands
		 * where it began, so that it never runs backwards */
		t = seq & 1 ? __atomic_load_n(&stopped.began, __ATOMIC_ACQUIRE) : mono_ns();
		/* (an acquire load, so that the second look at seq comes after
		 * it: no fence, which ThreadSanitizer does not model) */
		off = __atomic_load_n(&stopped.total, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&stopped.seq, __ATOMIC_RELAXED) == seq)
			return t - off;
	}
}

struct timespec monotonic_after(uint64_t ns)
{
	struct timespec at;

	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_sec += (time_t)(ns / 1000000000u);
	at.tv_nsec += (long)(ns % 1000000000u);
	if (at.tv_nsec >= 1000000000) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000;
	}
	return at;
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

/* The live huge allocations, for huge_prefault(): NEXT is where the pages
 * not yet looked at begin. (A process has one or two; more are not
 * prefaulted.) */
static struct huge {
	char *p;
	size_t len, next;
} huge_live[8];
static pthread_mutex_t huge_lock = PTHREAD_MUTEX_INITIALIZER;

static void huge_note(char *p, size_t len)
{
	pthread_mutex_lock(&huge_lock);
	for (size_t i = 0; i < ARRAY_SIZE(huge_live); i++) {
		struct huge *h = &huge_live[i];

		if (len == 0 && h->p == p) {
			h->p = NULL;
			break;
		}
		if (len != 0 && h->p == NULL) {
			*h = (struct huge){ p, len, 0 };
			break;
		}
	}
	pthread_mutex_unlock(&huge_lock);
}

/* Mappings huge_free() kept for the next huge_alloc() of the same size: a
 * virtual machine's host may back its guest's memory only when first
 * touched, and take back what the guest frees, so that a fresh mapping
 * costs a fault to the host per page however often the process has had
 * as much before (about a tenth of a new search's first second on the
 * machine that measured it). Each match, self-play game, bench figure and
 * game on the screen makes a new search of the same size. */
static struct spare {
	char *p;
	size_t bytes;
} huge_spare[2];

/* Zero the resident pages of the BYTES at P, which a spare kept as the
 * last owner left them; the others will come zeroed when first touched. */
static void zero_resident(char *p, size_t bytes)
{
	size_t small = (size_t)sysconf(_SC_PAGESIZE), pages = bytes / small, run = 0;
	unsigned char *in = malloc(pages);

	if (in == NULL || mincore(p, bytes, in) != 0) {
		memset(p, 0, bytes); /* (faults in the rest: rare, and correct) */
		free(in);
		return;
	}
	for (size_t i = 0; i <= pages; i++) {
		if (i < pages && (in[i] & 1)) {
			run++;
		} else if (run > 0) {
			memset(p + (i - run) * small, 0, run * small);
			run = 0;
		}
	}
	free(in);
}

/* A spare mapping of BYTES, zeroed, or NULL. Without one, the spares of
 * other sizes go back to the system: a process that now wants another
 * size is unlikely to want theirs again. Under huge_lock. */
static char *spare_take(size_t bytes)
{
	for (size_t i = 0; i < ARRAY_SIZE(huge_spare); i++) {
		char *p = huge_spare[i].p;

		if (p != NULL && huge_spare[i].bytes == bytes) {
			huge_spare[i].p = NULL;
			zero_resident(p, bytes);
			return p;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(huge_spare); i++) {
		if (huge_spare[i].p != NULL)
			munmap(huge_spare[i].p, huge_spare[i].bytes);
		huge_spare[i].p = NULL;
	}
	return NULL;
}

/* Keep P, BYTES long, as a spare; false when every slot is taken. Under
 * huge_lock. */
static bool spare_keep(char *p, size_t bytes)
{
	for (size_t i = 0; i < ARRAY_SIZE(huge_spare); i++) {
		if (huge_spare[i].p == NULL) {
			huge_spare[i] = (struct spare){ p, bytes };
			return true;
		}
	}
	return false;
}

void *huge_alloc(size_t bytes)
{
	size_t len, head;
	char *p;

	if (bytes < HUGE_PAGE)
		return xcalloc(1, bytes);
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	pthread_mutex_lock(&huge_lock);
	p = spare_take(bytes);
	pthread_mutex_unlock(&huge_lock);
	if (p != NULL) {
		huge_note(p, bytes);
		return p;
	}
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
	huge_note(p, bytes);
	return p;
}

bool populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	long small = sysconf(_SC_PAGESIZE);

	if (small > 0 && (uintptr_t)p % (size_t)small == 0 && len % (size_t)small == 0)
		return madvise(p, len, MADV_POPULATE_WRITE) == 0;
#endif
	(void)p, (void)len;
	return false;
}

/* Fault in the huge page at the NEXT of H if it is not resident (its last
 * small page tells, the arena filling upwards). Returns the bytes faulted
 * in; sets *FAILED if the system cannot. */
static size_t huge_page_in(struct huge *h, bool *failed)
{
	char *page = h->p + h->next;
	long small = sysconf(_SC_PAGESIZE);
	unsigned char in = 0;

	h->next += HUGE_PAGE;
	if (small > 0 && mincore(page + HUGE_PAGE - (size_t)small, (size_t)small, &in) == 0) {
		if (in & 1)
			return 0;
		if (populate(page, HUGE_PAGE))
			return HUGE_PAGE;
	}
	*failed = true;
	return 0;
}

size_t huge_prefault(const void *p, size_t upto, size_t bytes)
{
	size_t done = 0;

	pthread_mutex_lock(&huge_lock);
	for (size_t i = 0; i < ARRAY_SIZE(huge_live); i++) {
		struct huge *h = &huge_live[i];

		if (p == NULL || h->p != p)
			continue;
		while (h->next < h->len && h->next < upto && done < bytes) {
			bool failed = false;

			done += huge_page_in(h, &failed);
			if (failed)
				h->next = h->len; /* (no use trying again) */
		}
		break;
	}
	pthread_mutex_unlock(&huge_lock);
	return done;
}

void huge_free(void *p, size_t bytes)
{
	if (p == NULL)
		return;
	if (bytes < HUGE_PAGE) {
		free(p);
	} else {
		bool kept;

		bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
		huge_note(p, 0);
		pthread_mutex_lock(&huge_lock);
		kept = spare_keep(p, bytes);
		pthread_mutex_unlock(&huge_lock);
		if (!kept)
			munmap(p, bytes);
	}
}
