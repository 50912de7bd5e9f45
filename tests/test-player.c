/* test-player.c - player specs and the players' contract. */
#include "config.h"

#include <string.h>
#include <time.h>

#include "player.h"
#include "tap.h"
#include "util.h"

static void test_good_specs(void)
{
	struct player_spec s;
	char err[256], buf[256];

	ok(player_spec_parse("human", &s, err, sizeof(err)) == 0 && s.kind == PLAYER_HUMAN, "human");
	ok(player_spec_parse("random:seed=9", &s, err, sizeof(err)) == 0 && s.kind == PLAYER_RANDOM &&
	   s.seed == 9 && s.seed_given, "random:seed=9");
	ok(player_spec_parse("mcts:time=100,c=0.7", &s, err, sizeof(err)) == 0 && s.time_ms == 100 &&
	   s.mcts.c > 0.69 && s.mcts.c < 0.71, "mcts:time=100,c=0.7");
	ok(player_spec_parse("mcts:iterations=5000,rollout=random,solver=off,memory=16,seed=3", &s,
			     err, sizeof(err)) == 0 &&
	   s.iterations == 5000 && s.mcts.rollout == ROLLOUT_RANDOM && !s.mcts.solver &&
	   s.mcts.memory == 16u << 20 && s.mcts.seed == 3, "mcts with every key");
	ok(player_spec_parse("mcts", &s, err, sizeof(err)) == 0 && s.mcts.rollout == ROLLOUT_SMART &&
	   s.mcts.solver && s.mcts.c == MCTS_DEFAULT_C, "mcts defaults: smart rollouts, solver on");
	ok(player_spec_parse("mcts:eval=net", &s, err, sizeof(err)) == 0 &&
	   s.mcts.c == MCTS_NET_DEFAULT_C && MCTS_NET_DEFAULT_C != MCTS_DEFAULT_C,
	   "eval=net without c= takes the network's default c");
	ok(player_spec_parse("mcts:c=0.7,eval=net", &s, err, sizeof(err)) == 0 &&
	   s.mcts.c > 0.69 && s.mcts.c < 0.71, "eval=net keeps a c= given before it");
	ok(player_spec_parse("mcts:eval=mix", &s, err, sizeof(err)) == 0 &&
	   s.mcts.c == MCTS_DEFAULT_C, "eval=mix keeps the playouts' default c");
	ok(player_spec_parse("negamax:depth=6", &s, err, sizeof(err)) == 0 && s.depth == 6, "negamax:depth=6");
	ok(player_spec_parse("negamax:level=10,time=50", &s, err, sizeof(err)) == 0 && s.level == 10 &&
	   s.time_ms == 50, "negamax:level=10,time=50");

	/* The written form reads back to the same spec. */
	player_spec_parse("mcts:iterations=5000,rollout=random,solver=off,memory=16,seed=3", &s, err,
			  sizeof(err));
	player_spec_format(&s, buf, sizeof(buf));
	{
		struct player_spec t;

		ok(player_spec_parse(buf, &t, err, sizeof(err)) == 0 && t.iterations == s.iterations &&
		   t.mcts.rollout == s.mcts.rollout && t.mcts.solver == s.mcts.solver &&
		   t.mcts.memory == s.mcts.memory && t.seed == s.seed,
		   "format reads back: %s", buf);
	}
}

static void test_bad_specs(void)
{
	static const struct {
		const char *spec, *says;
	} bad[] = {
		{ "mcts:c=abc", "c must be a number" },
		{ "mcts:c=-1", "c must be a number" },
		{ "mcts:c=nan", "c must be a number" },
		{ "negamax:depth=-1", "depth must be from 1" },
		{ "negamax:depth=0", "depth must be from 1" },
		{ "mcts:level=11", "level must be from 1 to 10" },
		{ "mcts:level=0", "level must be from 1 to 10" },
		{ "mcts:foo=1", "unknown key 'foo'" },
		{ "negamax:c=1", "unknown key 'c'" },
		{ "random:level=3", "unknown key 'level'" },
		{ "human:seed=1", "unknown key 'seed'" },
		{ "mcts:time=0", "time must be" },
		{ "mcts:time=", "time must be" },
		{ "mcts:iterations=1e5", "iterations must be" },
		{ "mcts:rollout=fast", "rollout must be random or smart" },
		{ "mcts:solver=yes", "solver must be on or off" },
		{ "mcts:memory=0", "memory must be" },
		{ "mcts:seed=x", "seed must be" },
		{ "mcts:", "expected key=value" },
		{ "mcts:c", "expected key=value" },
		{ "mcts:=3", "expected key=value" },
		{ "alphazero", "expected human, random, mcts" },
		{ "", "expected human, random, mcts" },
		{ "MCTS", "expected human, random, mcts" },
	};
	struct player_spec s;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc = player_spec_parse(bad[i].spec, &s, err, sizeof(err));

		ok(rc < 0 && strstr(err, bad[i].says) != NULL, "'%s' refused: %s", bad[i].spec, err);
	}
	{
		/* memory= up to 2^32 nodes or the machine's memory, whichever
		 * is less: what a search could not allocate is refused here */
		unsigned long long have = machine_mib(), most = PLAYER_MAX_MEMORY_MIB;
		char text[64], want[80];
		int rc;

		if (have != 0 && have < most)
			most = have;

		snprintf(text, sizeof(text), "mcts:memory=%llu", most);
		rc = player_spec_parse(text, &s, err, sizeof(err));
		ok(rc == 0 && s.mcts.memory == (size_t)most << 20, "'%s' accepted", text);
		snprintf(text, sizeof(text), "mcts:memory=%llu", most + 1);
		snprintf(want, sizeof(want), "memory must be MiB from 1 to %llu%s,", most,
			 most < PLAYER_MAX_MEMORY_MIB ? " (this machine's memory)" : "");
		rc = player_spec_parse(text, &s, err, sizeof(err));
		ok(rc < 0 && strstr(err, want) != NULL, "'%s' refused: %s", text, err);
	}
}

/* Each kind of engine plays legal moves to the end of a game against
 * itself, and the same seed gives the same game. */
static int self_play(const char *game_name, const char *spec_text, uint8_t *moves)
{
	struct game g;
	struct pos pos;
	struct player_spec spec;
	struct player *p[2];
	char err[256];
	int n = 0;

	game_init(&g, game_name, 0, err, sizeof(err));
	game_start(&g, &pos);
	player_spec_parse(spec_text, &spec, err, sizeof(err));
	p[0] = player_new(&g, &spec, &pos);
	p[1] = player_new(&g, &spec, &pos);
	while (!game_over(&pos)) {
		char why[120];
		int m = player_move_now(p[pos.turn]);

		if (m == MOVE_NONE || game_illegal(&g, &pos, m, why, sizeof(why)) != NULL) {
			n = -1;
			break;
		}
		game_play(&g, &pos, m);
		moves[n++] = (uint8_t)m;
		player_played(p[0], m);
		player_played(p[1], m);
	}
	player_free(p[0]);
	player_free(p[1]);
	return n;
}

static void test_players_play(void)
{
	static const struct {
		const char *game, *spec;
	} cases[] = {
		{ "ttt", "random:seed=4" },
		{ "uttt", "random:seed=4" },
		{ "ttt", "mcts:iterations=300,seed=4" },
		{ "uttt", "mcts:iterations=200,seed=4" },
		{ "5,4,4", "mcts:iterations=200,rollout=random,seed=4" },
		{ "ttt", "negamax:depth=9" },
		{ "4,4,3", "negamax:depth=3" },
		{ "uttt", "negamax:depth=2" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t a[GAME_MAX_PLIES], b[GAME_MAX_PLIES];
		int na = self_play(cases[i].game, cases[i].spec, a);
		int nb = self_play(cases[i].game, cases[i].spec, b);

		ok(na > 0, "%s %s: legal moves to the end (%d plies)", cases[i].game, cases[i].spec, na);
		ok(na == nb && memcmp(a, b, (size_t)na) == 0, "%s %s: the same game twice",
		   cases[i].game, cases[i].spec);
	}
}

static void test_levels(void)
{
	int increasing = 1;

	for (int l = 2; l <= PLAYER_MAX_LEVEL; l++)
		increasing &= player_level_iterations(l) >= 2 * player_level_iterations(l - 1);
	ok(increasing, "each mcts level has at least twice the iterations of the one below");
	increasing = 1;
	for (int l = 2; l < PLAYER_MAX_LEVEL; l++) {
		int d0, t0, d1, t1;

		player_level_negamax(l - 1, &d0, &t0);
		player_level_negamax(l, &d1, &t1);
		increasing &= d1 > d0 && (t0 == 0 || t1 >= t0);
	}
	{
		int d9, t9, d10, t10;

		player_level_negamax(9, &d9, &t9);
		player_level_negamax(10, &d10, &t10);
		ok(increasing && d10 == 0 && t10 > t9,
		   "negamax depth grows with the level; level 10 searches to the end, longest");
	}
}

/* The evaluation an mcts player of GAME runs with for SPEC. */
static enum mcts_eval player_eval(const char *game_name, const char *spec_text)
{
	struct game g;
	struct pos pos;
	struct player_spec spec;
	struct player *p;
	char err[256];
	enum mcts_eval e;

	game_init(&g, game_name, 0, err, sizeof(err));
	game_start(&g, &pos);
	player_spec_parse(spec_text, &spec, err, sizeof(err));
	p = player_new(&g, &spec, &pos);
	player_think(p, 1000000); /* the search exists once it has thought */
	e = mcts_params_of(player_search(p))->eval;
	player_free(p);
	return e;
}

static void test_default_eval(void)
{
	ok(player_eval("uttt", "mcts:iterations=100") == MCTS_EVAL_MIX,
	   "uttt, no eval=: playouts with the built-in network's prior (mix)");
	ok(player_eval("uttt", "mcts:iterations=100,eval=rollout") == MCTS_EVAL_ROLLOUT,
	   "uttt, eval=rollout: playouts alone");
	ok(player_eval("uttt", "mcts:iterations=100,eval=net") == MCTS_EVAL_NET, "uttt, eval=net");
	ok(player_eval("7,7,5", "mcts:iterations=100") == MCTS_EVAL_ROLLOUT,
	   "7,7,5 (no network), no eval=: playouts");
	ok(player_eval("ttt", "mcts:iterations=100") == MCTS_EVAL_ROLLOUT, "ttt, no eval=: playouts");
}

/* Nodes negamax has searched, as the screen reads them, once they stay
 * the same over 200 ms (up to about 10 s); -1 if they never do. */
static double settled_nodes(struct player *p)
{
	const struct timespec wait = { 0, 200000000 };
	struct player_stats a, b;

	player_stats(p, &a);
	for (int i = 0; i < 50; i++) {
		nanosleep(&wait, NULL);
		player_stats(p, &b);
		if (b.nodes == a.nodes)
			return (double)b.nodes;
		a = b;
	}
	return -1;
}

/* Pause means pause: negamax searches only within the slices it is given
 * and carries on where it stopped. */
static void test_negamax_holds(void)
{
	struct game g;
	struct pos pos;
	struct player_spec spec;
	struct player *p;
	struct player_stats st;
	char err[256];
	double held, again;

	game_init(&g, "7,7,5", 0, err, sizeof(err));
	game_start(&g, &pos);
	player_spec_parse("negamax:time=600000,threads=2", &spec, err, sizeof(err));
	p = player_new(&g, &spec, &pos);
	ok(!player_think(p, 50000000u), "negamax: a slice of 50 ms does not finish 7,7,5");
	held = settled_nodes(p);
	ok(held > 0, "between slices its node count stops growing (%.0f nodes)", held);
	/* (on a loaded machine one slice may pass before the worker runs or
	 * publishes its count: up to 50 slices) */
	again = held;
	for (int i = 0; i < 50 && again <= held; i++) {
		player_think(p, 100000000u);
		player_stats(p, &st);
		again = (double)st.nodes;
	}
	ok(again > held, "the next slices carry on from there (%.0f, then %.0f nodes)", held, again);
	player_free(p);
}

int main(void)
{
	test_good_specs();
	test_bad_specs();
	test_players_play();
	test_levels();
	test_default_eval();
	test_negamax_holds();
	return tap_done();
}
