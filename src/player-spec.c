/* player-spec.c - player specs ("mcts:time=100,c=0.7"): parsing, checking
 * against a game and formatting, and what the strength levels mean. */
#include "config.h"

#include "player.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"

/* MCTS iterations per move for each level: about three times the level
 * below, which is what it takes to be clearly stronger; wider at the top,
 * where more UTTT games between strong engines are drawn. */
static const uint64_t level_iterations[PLAYER_MAX_LEVEL + 1] = {
	0, 16, 50, 150, 500, 1500, 5000, 15000, 40000, 150000, 1000000,
};

/* Negamax depth and time cap for each level. Past depth 4 the depth grows
 * by two: one more ply alone (an odd depth after an even one) was no
 * stronger on UTTT. Level 10 searches to the end if time allows. */
static const struct {
	int depth, time_ms;
} level_negamax[PLAYER_MAX_LEVEL + 1] = {
	{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 }, { 6, 0 }, { 8, 0 }, { 10, 0 }, { 12, 0 },
	{ 14, 10000 }, { 0, 30000 },
};

uint64_t player_level_iterations(int level)
{
	assert(level >= 1 && level <= PLAYER_MAX_LEVEL);
	return level_iterations[level];
}

void player_level_negamax(int level, int *depth, int *time_ms)
{
	assert(level >= 1 && level <= PLAYER_MAX_LEVEL);
	*depth = level_negamax[level].depth;
	*time_ms = level_negamax[level].time_ms;
}

/* --- parsing ----------------------------------------------------------- */

static int threads_default = 1;

void player_set_threads_default(int threads)
{
	assert(threads >= 1 && threads <= MCTS_MAX_THREADS);
	threads_default = threads;
}

int player_threads_default(void)
{
	return threads_default;
}


static const char *const kind_names[] = { "human", "random", "mcts", "negamax" };
static const char *const kind_keys[] = {
	"none",
	"seed",
	("iterations, time, c, rollout, solver, memory, seed, threads, parallel, level, eval, net, "
	 "order"),
	"depth, time, threads, level",
};

/* The words of the keys whose value is one of a few, by their values (for
 * solver, false and true), read and written alike. */
static const char *const rollouts[] = { [ROLLOUT_RANDOM] = "random", [ROLLOUT_SMART] = "smart" };
static const char *const offon[] = { "off", "on" };
static const char *const parallels[] = {
	[MCTS_PARALLEL_AUTO] = "auto", [MCTS_PARALLEL_TREE] = "tree",
	[MCTS_PARALLEL_PIPELINE] = "pipeline"
};
static const char *const evals[] = {
	[MCTS_EVAL_ROLLOUT] = "rollout", [MCTS_EVAL_NET] = "net", [MCTS_EVAL_MIX] = "mix"
};

static const char *const orders[] = { [MCTS_ORDER_FIXED] = "fixed", [MCTS_ORDER_NET] = "net" };

/* The index of VALUE among the N words of WORDS, -1 if none. */
static int word_index(const char *value, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(value, words[i]) == 0)
			return i;
	return -1;
}

/* net=FILE: a network that loads, so a bad file is a spec error. */
static int spec_net(struct player_spec *spec, const char *value, char *err, size_t errsize)
{
	char why[300];
	struct nnue *n;

	if (strlen(value) >= sizeof(spec->net) || value[0] == '\0') {
		fmt_buf(err, errsize, "net must name a network file (under %zu characters)",
			sizeof(spec->net));
		return -1;
	}
	n = nnue_load(value, why, sizeof(why));
	if (n == NULL) {
		fmt_buf(err, errsize, "net=%s", why);
		return -1;
	}
	nnue_free(n);
	strcpy(spec->net, value);
	return 0;
}

/* Apply KEY=VALUE to SPEC; on error write the reason into ERR. */
static int spec_key(struct player_spec *spec, const char *key, const char *value, char *err,
		    size_t errsize)
{
	uint64_t u;
	int kind = spec->kind, i;

#define BAD(...) (fmt_buf(err, errsize, __VA_ARGS__), -1)
	if (strcmp(key, "seed") == 0 && (kind == PLAYER_RANDOM || kind == PLAYER_MCTS)) {
		if (!parse_u64(value, 0, UINT64_MAX, &u))
			return BAD("seed must be a whole number, not '%s'", value);
		spec->seed = spec->mcts.seed = u;
		spec->seed_given = true;
	} else if (strcmp(key, "level") == 0 && (kind == PLAYER_MCTS || kind == PLAYER_NEGAMAX)) {
		if (!parse_u64(value, 1, PLAYER_MAX_LEVEL, &u))
			return BAD("level must be from 1 to %d, not '%s'", PLAYER_MAX_LEVEL, value);
		spec->level = (int)u;
	} else if (strcmp(key, "time") == 0 && (kind == PLAYER_MCTS || kind == PLAYER_NEGAMAX)) {
		if (!parse_u64(value, 1, 3600000, &u))
			return BAD("time must be milliseconds from 1 to 3600000, not '%s'", value);
		spec->time_ms = (int)u;
	} else if (strcmp(key, "iterations") == 0 && kind == PLAYER_MCTS) {
		if (!parse_u64(value, 1, 1000000000000u, &u))
			return BAD("iterations must be from 1 to 10^12, not '%s'", value);
		spec->iterations = u;
	} else if (strcmp(key, "c") == 0 && kind == PLAYER_MCTS) {
		if (!parse_double(value, 0, 100, &spec->mcts.c))
			return BAD("c must be a number from 0 to 100, not '%s'", value);
	} else if (strcmp(key, "rollout") == 0 && kind == PLAYER_MCTS) {
		if ((i = word_index(value, rollouts, ARRAY_SIZE(rollouts))) < 0)
			return BAD("rollout must be random or smart, not '%s'", value);
		spec->mcts.rollout = i;
	} else if (strcmp(key, "solver") == 0 && kind == PLAYER_MCTS) {
		if ((i = word_index(value, offon, ARRAY_SIZE(offon))) < 0)
			return BAD("solver must be on or off, not '%s'", value);
		spec->mcts.solver = i == 1;
	} else if (strcmp(key, "memory") == 0 && kind == PLAYER_MCTS) {
		/* nodes are counted in 32 bits: 2^32 nodes of 24 bytes is 96 GiB;
		 * and an arena larger than the machine is refused here, not
		 * when a search is made (a game in progress would end) */
		uint64_t most = machine_mib(), limit = PLAYER_MAX_MEMORY_MIB;

		if (most != 0 && most < limit)
			limit = most;
		if (!parse_u64(value, 1, limit, &u))
			return BAD("memory must be MiB from 1 to %llu%s, not '%s'",
				   (unsigned long long)limit,
				   limit < PLAYER_MAX_MEMORY_MIB ? " (this machine's memory)" : "",
				   value);
		spec->mcts.memory = (size_t)u << 20;
	} else if (strcmp(key, "threads") == 0 && (kind == PLAYER_MCTS || kind == PLAYER_NEGAMAX)) {
		if (!parse_u64(value, 1, MCTS_MAX_THREADS, &u))
			return BAD("threads must be from 1 to %d, not '%s'", MCTS_MAX_THREADS, value);
		spec->mcts.threads = (int)u;
		spec->threads_given = true;
	} else if (strcmp(key, "parallel") == 0 && kind == PLAYER_MCTS) {
		if ((i = word_index(value, parallels, ARRAY_SIZE(parallels))) < 0)
			return BAD("parallel must be auto, tree or pipeline, not '%s'", value);
		spec->mcts.parallel = i;
	} else if (strcmp(key, "eval") == 0 && kind == PLAYER_MCTS) {
		if ((i = word_index(value, evals, ARRAY_SIZE(evals))) < 0)
			return BAD("eval must be net, rollout or mix, not '%s'", value);
		spec->mcts.eval = i;
	} else if (strcmp(key, "order") == 0 && kind == PLAYER_MCTS) {
		if ((i = word_index(value, orders, ARRAY_SIZE(orders))) < 0)
			return BAD("order must be net or fixed, not '%s'", value);
		spec->mcts.order = i;
	} else if (strcmp(key, "net") == 0 && kind == PLAYER_MCTS) {
		return spec_net(spec, value, err, errsize);
	} else if (strcmp(key, "depth") == 0 && kind == PLAYER_NEGAMAX) {
		if (!parse_u64(value, 1, GAME_MAX_PLIES, &u))
			return BAD("depth must be from 1 to %d, not '%s'", GAME_MAX_PLIES, value);
		spec->depth = (int)u;
	} else {
		return BAD("unknown key '%s' for %s (accepted: %s)", key, kind_names[kind],
			   kind_keys[kind]);
	}
	return 0;
#undef BAD
}

int player_spec_parse(const char *text, struct player_spec *spec, char *err, size_t errsize)
{
	/* (KEY_C: the index of "c", whose absence gives eval=net its own c) */
	enum { KEY_C = 2 };
	static const char *const all_keys[] = { "iterations", "time", [KEY_C] = "c", "rollout",
						 "solver", "memory", "seed", "threads", "level", "depth",
						 "eval", "net", "parallel", "order" };
	char buf[256], reason[160];
	char *rest, *item;
	unsigned seen = 0;
	size_t name_len = strcspn(text, ":");
	int kind = -1;

	memset(spec, 0, sizeof(*spec));
	mcts_params_default(&spec->mcts);
	spec->mcts.threads = threads_default;
	spec->mcts.eval = MCTS_EVAL_AUTO;
	spec->seed = spec->mcts.seed;
	for (int k = 0; k < (int)ARRAY_SIZE(kind_names); k++)
		if (strlen(kind_names[k]) == name_len && strncmp(text, kind_names[k], name_len) == 0)
			kind = k;
	if (kind < 0) {
		fmt_buf(err, errsize,
			"player '%s': expected human, random, mcts[:key=value,...] or "
			"negamax[:key=value,...]",
			text);
		return -1;
	}
	spec->kind = kind;
	if (text[name_len] == '\0')
		return 0;
	if (strlen(text) >= sizeof(buf)) {
		fmt_buf(err, errsize, "player spec is too long (%zu characters, at most %zu)",
			strlen(text), sizeof(buf) - 1);
		return -1;
	}
	strcpy(buf, text + name_len + 1);
	for (item = buf; item != NULL; item = rest) {
		char *eq;

		rest = strchr(item, ',');
		if (rest != NULL)
			*rest++ = '\0';
		eq = strchr(item, '=');

		if (eq == NULL || eq == item) {
			fmt_buf(err, errsize, "player '%s': expected key=value, not '%s' (keys: %s)",
				text, item, kind_keys[kind]);
			return -1;
		}
		*eq = '\0';
		for (unsigned k = 0; k < ARRAY_SIZE(all_keys); k++) {
			if (strcmp(item, all_keys[k]) != 0)
				continue;
			if (seen >> k & 1) {
				fmt_buf(err, errsize, "player '%s': the key '%s' is given twice", text, item);
				return -1;
			}
			seen |= 1u << k;
		}
		if (spec_key(spec, item, eq + 1, reason, sizeof(reason)) < 0) {
			fmt_buf(err, errsize, "player '%s': %s", text, reason);
			return -1;
		}
	}
	if (!(seen >> KEY_C & 1) && spec->mcts.eval == MCTS_EVAL_NET) /* no c= */
		spec->mcts.c = MCTS_NET_DEFAULT_C;
	return 0;
}

char *player_spec_format(const struct player_spec *spec, char *buf, size_t size)
{
	size_t n = 0;

#define ADD(...) (n += (size_t)snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
	buf[0] = '\0';
	ADD("%s", kind_names[spec->kind]);
	if (spec->kind == PLAYER_MCTS || spec->kind == PLAYER_NEGAMAX) {
		/* the budget: the engine's own measure (iterations, depth),
		 * time, or else the level */
		bool mcts = spec->kind == PLAYER_MCTS;
		unsigned long long amount = mcts ? spec->iterations : (unsigned long long)spec->depth;
		char sep = ':';

		if (amount != 0) {
			ADD("%c%s=%llu", sep, mcts ? "iterations" : "depth", amount);
			sep = ',';
		}
		if (spec->time_ms != 0) {
			ADD("%ctime=%d", sep, spec->time_ms);
			sep = ',';
		}
		if (amount == 0 && spec->time_ms == 0)
			ADD("%clevel=%d", sep, spec->level != 0 ? spec->level : PLAYER_DEFAULT_LEVEL);
	}
	if (spec->kind == PLAYER_MCTS) {
		ADD(",c=%g,rollout=%s,solver=%s", spec->mcts.c, rollouts[spec->mcts.rollout],
		    offon[spec->mcts.solver]);
		if (spec->mcts.memory != (size_t)MCTS_DEFAULT_MEMORY_MB << 20)
			ADD(",memory=%zu", spec->mcts.memory >> 20);
		if (spec->seed_given)
			ADD(",seed=%llu", (unsigned long long)spec->seed);
		if (spec->threads_given)
			ADD(",threads=%d", spec->mcts.threads);
		if (spec->mcts.parallel != MCTS_PARALLEL_AUTO)
			ADD(",parallel=%s", parallels[spec->mcts.parallel]);
		if (spec->mcts.eval != MCTS_EVAL_AUTO)
			ADD(",eval=%s", evals[spec->mcts.eval]);
		if (spec->net[0] != '\0')
			ADD(",net=%s", spec->net);
		if (spec->mcts.order != MCTS_ORDER_AUTO)
			ADD(",order=%s", orders[spec->mcts.order]);
	} else if (spec->kind == PLAYER_NEGAMAX) {
		if (spec->threads_given)
			ADD(",threads=%d", spec->mcts.threads);
	} else if (spec->kind == PLAYER_RANDOM && spec->seed_given) {
		ADD(":seed=%llu", (unsigned long long)spec->seed);
	}
	return buf;
#undef ADD
}

/* The leaf evaluation of games with a network when the spec names none:
 * playouts and the network's values, measured stronger than playouts alone
 * at equal time (72.8% of 400 games at 90 ms a move with order=net, see
 * README). */
#define PLAYER_AUTO_EVAL MCTS_EVAL_MIX

enum mcts_eval player_spec_eval(const struct player_spec *spec, const struct game *g)
{
	if (spec->mcts.eval != MCTS_EVAL_AUTO)
		return spec->mcts.eval;
	return spec->net[0] != '\0' || nnue_builtin(g) != NULL ? PLAYER_AUTO_EVAL
							       : MCTS_EVAL_ROLLOUT;
}

enum mcts_order player_spec_order(const struct player_spec *spec, const struct game *g)
{
	struct nnue *own = NULL;
	const struct nnue *n;
	char err[320];
	bool kids;

	if (spec->mcts.order != MCTS_ORDER_AUTO)
		return spec->mcts.order;
	if (player_spec_eval(spec, g) == MCTS_EVAL_ROLLOUT)
		return MCTS_ORDER_FIXED;
	n = spec->net[0] == '\0' ? nnue_builtin(g) : (own = nnue_load(spec->net, err, sizeof(err)));
	/* (mcts_new()'s rule: the evaluator can value a node's children) */
	kids = n != NULL && nnue_leaf_eval(n)->kids != NULL;
	nnue_free(own);
	return kids ? MCTS_ORDER_NET : MCTS_ORDER_FIXED;
}

void player_spec_name_eval(struct player_spec *p, const struct game *g)
{
	enum mcts_eval e;

	if (p->kind != PLAYER_MCTS)
		return;
	e = player_spec_eval(p, g);
	if (e != MCTS_EVAL_ROLLOUT) {
		p->mcts.eval = e;
		p->mcts.order = player_spec_order(p, g);
	}
}

int player_spec_check(const struct player_spec *spec, const struct game *g, char *err,
		      size_t errsize)
{
	struct nnue *own = NULL;
	const struct nnue *n;
	int rc = 0;

	if (spec->kind != PLAYER_MCTS)
		return 0;
	if (spec->mcts.order == MCTS_ORDER_NET && spec->mcts.eval == MCTS_EVAL_ROLLOUT) {
		fmt_buf(err, errsize, "order=net needs the network: eval=mix or net, not rollout");
		return -1;
	}
	if (spec->net[0] != '\0') {
		own = nnue_load(spec->net, err, errsize);
		if (own == NULL)
			return -1;
		if (strcmp(nnue_game(own), g->name) != 0) {
			fmt_buf(err, errsize, "net=%s is a network for %s, not %s", spec->net,
				nnue_game(own), g->name);
			rc = -1;
		}
		nnue_free(own);
		return rc;
	}
	n = nnue_builtin(g);
	if (n == NULL && (spec->mcts.eval == MCTS_EVAL_NET || spec->mcts.eval == MCTS_EVAL_MIX)) {
		fmt_buf(err, errsize, "eval=%s: %s has no network (only uttt has one); use "
			"eval=rollout or net=FILE", spec->mcts.eval == MCTS_EVAL_NET ? "net" : "mix",
			g->name);
		return -1;
	}
	if (n == NULL && spec->mcts.order == MCTS_ORDER_NET) {
		fmt_buf(err, errsize, "order=net: %s has no network (only uttt has one); use "
			"order=fixed or net=FILE", g->name);
		return -1;
	}
	return 0;
}
