/* ttable.c - negamax's transposition table, shared without a lock. */
#include "config.h"

#include "ttable.h"

#include <stdlib.h>

#include "util.h"

struct slot {
	uint64_t check; /* key ^ data */
	uint64_t data;  /* the entry packed: score, move, draft, flags, gen */
};

struct bucket {
	struct slot deep, recent;
};

struct ttable {
	struct bucket *b;
	size_t bytes;    /* of b, for huge_free() */
	size_t mask;     /* buckets - 1, a power of two minus one */
};

static uint64_t pack(const struct tt_entry *e)
{
	return (uint64_t)(uint32_t)e->score | (uint64_t)e->move << 32 | (uint64_t)e->draft << 40 |
	       (uint64_t)e->flags << 48 | (uint64_t)e->gen << 56;
}

/* The entry in slot S into OUT (OUT->flags 0 for an empty slot). */
static void slot_read(const struct slot *s, struct tt_entry *out)
{
	uint64_t data = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	uint64_t check = __atomic_load_n(&s->check, __ATOMIC_RELAXED);

	out->key = check ^ data;
	out->score = (int32_t)(uint32_t)data;
	out->move = (uint8_t)(data >> 32);
	out->draft = (uint8_t)(data >> 40);
	out->flags = (uint8_t)(data >> 48);
	out->gen = (uint8_t)(data >> 56);
}

static void slot_write(struct slot *s, const struct tt_entry *e)
{
	uint64_t data = pack(e);

	__atomic_store_n(&s->data, data, __ATOMIC_RELAXED);
	__atomic_store_n(&s->check, e->key ^ data, __ATOMIC_RELAXED);
}

struct ttable *ttable_new(size_t bytes)
{
	struct ttable *t = xcalloc(1, sizeof(*t));
	size_t buckets = 1;

	while (buckets * 2 * sizeof(struct bucket) <= bytes)
		buckets *= 2;
	t->mask = buckets - 1;
	t->bytes = buckets * sizeof(struct bucket);
	t->b = huge_alloc(t->bytes); /* (see util.h) */
	return t;
}

void ttable_free(struct ttable *t)
{
	if (t == NULL)
		return;
	huge_free(t->b, t->bytes);
	free(t);
}

void ttable_prefetch(const struct ttable *t, uint64_t key)
{
	__builtin_prefetch(&t->b[key & t->mask]);
}

bool ttable_probe(const struct ttable *t, uint64_t key, struct tt_entry *out)
{
	const struct bucket *b = &t->b[key & t->mask];

	slot_read(&b->deep, out);
	if (out->flags != 0 && out->key == key)
		return true;
	slot_read(&b->recent, out);
	return out->flags != 0 && out->key == key;
}

int ttable_store(struct ttable *t, const struct tt_entry *e, int (*worth)(const struct tt_entry *))
{
	struct bucket *b = &t->b[e->key & t->mask];
	struct tt_entry deep, recent;
	int filled = 0;

	slot_read(&b->deep, &deep);
	if (deep.flags == 0 || deep.gen != e->gen || worth(e) >= worth(&deep)) {
		if (deep.flags != 0 && deep.key != e->key) {
			slot_read(&b->recent, &recent);
			filled += recent.flags == 0;
			slot_write(&b->recent, &deep);
		}
		filled += deep.flags == 0;
		slot_write(&b->deep, e);
	} else {
		slot_read(&b->recent, &recent);
		filled += recent.flags == 0;
		slot_write(&b->recent, e);
	}
	return filled;
}

size_t ttable_slots(const struct ttable *t)
{
	return 2 * (t->mask + 1);
}
