/* ttable.h - negamax's transposition table, shared by the search's threads
 * without a lock.
 *
 * A bucket of two slots, one kept for the deepest search and one always
 * replaced. Each slot is two 64-bit words written and read as relaxed
 * atomics: the entry packed into one and the key XORed with it in the
 * other, so a slot that two threads wrote at once (one word from each)
 * fails the key check and reads as a miss instead of a wrong entry. */
#ifndef NOUGHTS_TTABLE_H
#define NOUGHTS_TTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_entry {
	uint64_t key;   /* the position's key */
	int32_t score;
	uint8_t move;
	uint8_t draft;  /* depth searched below the position: the entry's worth */
	uint8_t flags;  /* the search's; never 0 in a stored entry (0: empty) */
	uint8_t gen;    /* the search that stored it: older entries give way */
};

struct ttable;

/* A table of at most BYTES (at least one bucket); fatal() without memory. */
struct ttable *ttable_new(size_t bytes);
void ttable_free(struct ttable *t);

/* Start loading KEY's bucket (the probe that follows is a cache miss). */
void ttable_prefetch(const struct ttable *t, uint64_t key);

/* The entry stored for KEY into OUT; false if there is none. */
bool ttable_probe(const struct ttable *t, uint64_t key, struct tt_entry *out);

/* Store E (E->flags not 0): it takes the deep slot when that is empty,
 * from an older search, or worth no more than E (WORTH: a number, higher
 * for more work behind an entry), whose old entry for another key moves
 * to the recent slot; else it takes the recent slot. Returns how many
 * empty slots it filled (0 or 1: the deep entry moves to the recent slot
 * only from a full deep slot): the table keeps no count of its own,
 * since a counter that every thread writes would move its cache line (and
 * the table's address beside it) between cores on most stores; each
 * thread counts its own. */
int ttable_store(struct ttable *t, const struct tt_entry *e, int (*worth)(const struct tt_entry *));

/* Slots in all. */
size_t ttable_slots(const struct ttable *t);

#endif
