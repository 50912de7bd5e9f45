/* test-sprt.c - match --sprt's test: what it parses, its log-likelihood
 * ratio's properties, and its verdicts on clear and on even results. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sprt.h"
#include "tap.h"

static void test_parse(void)
{
	static const char *const bad[] = {
		"", "0", "5,1", "3,3", "0,10,0.05", "0,10,0.5,0.1", "0,10,0.05,0", "0,10,0.05,0.1,1",
		"a,b", "0,10,", ",5", "0,2000", "-1001,0", "--1,0", "+1,2", "0,1e3x", "0, 10",
	};
	struct sprt t;

	ok(sprt_parse(&t, "0,10") && t.elo0 == 0 && t.elo1 == 10 && t.alpha == SPRT_ALPHA &&
	   t.beta == SPRT_BETA, "0,10: the default error rates");
	ok(sprt_parse(&t, "-5,2.5,0.01,0.2") && t.elo0 == -5 && t.elo1 == 2.5 && t.alpha == 0.01 &&
	   t.beta == 0.2, "-5,2.5,0.01,0.2: a negative ELO0 and both error rates");
	ok(sprt_parse(&t, "-1000,1000"), "-1000,1000: the widest");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(!sprt_parse(&t, bad[i]), "'%s' refused", bad[i]);
}

static struct sprt with(double elo0, double elo1, const long pairs[5])
{
	struct sprt t = { .elo0 = elo0, .elo1 = elo1, .alpha = 0.05, .beta = 0.05 };

	memcpy(t.pairs, pairs, sizeof(t.pairs));
	return t;
}

static void test_llr(void)
{
	static const long even[5] = { 10, 40, 100, 40, 10 }, ahead[5] = { 5, 20, 100, 60, 15 };
	static const long doubled[5] = { 10, 40, 200, 120, 30 }, same[5] = { 0, 0, 50, 0, 0 };
	struct sprt t = with(0, 10, ahead), u = with(0, 10, doubled), v;
	double lo, hi, m, var, s1, normal;

	v = with(-10, 10, even);
	ok(fabs(sprt_llr(&v)) < 1e-9, "an even score under -10,10: LLR 0 (%g)", sprt_llr(&v));
	v = with(0, 10, even);
	ok(sprt_llr(&v) < 0, "an even score under 0,10: LLR below 0 (%g)", sprt_llr(&v));
	ok(sprt_llr(&t) > 0, "A ahead under 0,10: LLR above 0 (%g)", sprt_llr(&t));
	ok(fabs(sprt_llr(&u) - 2 * sprt_llr(&t)) < 1e-4 * fabs(sprt_llr(&t)),
	   "twice the pairs in the same shares: twice the LLR (%g, %g)", sprt_llr(&u),
	   sprt_llr(&t));
	v = t;
	sprt_add_pair(&v, 4);
	ok(sprt_llr(&v) > sprt_llr(&t), "a pair won twice more raises the LLR");
	v = t;
	sprt_add_pair(&v, 0);
	ok(sprt_llr(&v) < sprt_llr(&t), "a pair lost twice more lowers it");
	v = t;
	sprt_add_pair(&v, 5);
	sprt_add_pair(&v, -1);
	ok(memcmp(v.pairs, t.pairs, sizeof(t.pairs)) == 0, "a pair's score out of 0..4 is not counted");
	v = with(0, 10, same);
	ok(sprt_llr(&v) < 0, "every pair drawn: A is not shown stronger, LLR below 0 (%g)",
	   sprt_llr(&v));
	memset(&v, 0, sizeof(v));
	v.elo1 = 10, v.alpha = v.beta = 0.05;
	ok(sprt_llr(&v) == 0, "no pairs: LLR 0");

	/* few pairs far from an even score: the normal approximation would
	 * say -3.2 and stop; the exact ratio is about -0.2 */
	v = with(0, 20, (const long[5]){ 1, 3, 0, 0, 0 });
	ok(sprt_llr(&v) < 0 && sprt_llr(&v) > -1 && sprt_verdict(&v) == SPRT_NONE,
	   "4 pairs of 0, 1/2, 1/2, 1/2: LLR %.3f, no verdict yet", sprt_llr(&v));
	/* many pairs near an even score: as the normal approximation */
	v = with(0, 10, even);
	m = (40 * 0.25 + 100 * 0.5 + 40 * 0.75 + 10) / 200;
	var = (10 * m * m + 40 * (0.25 - m) * (0.25 - m) + 100 * (0.5 - m) * (0.5 - m) +
	       40 * (0.75 - m) * (0.75 - m) + 10 * (1 - m) * (1 - m)) / 200;
	s1 = 1 / (1 + pow(10, -10 / 400.0));
	normal = 200 * (s1 - 0.5) * (2 * m - 0.5 - s1) / (2 * var);
	ok(fabs(sprt_llr(&v) - normal) < 0.02 * fabs(normal),
	   "200 pairs near even: within 2%% of the normal approximation (%.4f, %.4f)",
	   sprt_llr(&v), normal);
	sprt_bounds(&t, &lo, &hi);
	ok(fabs(lo - log(0.05 / 0.95)) < 1e-12 && fabs(hi - log(0.95 / 0.05)) < 1e-12,
	   "bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha): %.4f, %.4f", lo, hi);
}

/* The most likely distribution of a given mean: a distribution, that
 * mean, and P itself where P has it. */
static void test_most_likely(void)
{
	static const double ps[][5] = {
		{ 0.1, 0.2, 0.4, 0.2, 0.1 }, { 0.01, 0.04, 0.3, 0.4, 0.25 }, { 0.7, 0.1, 0.1, 0.05, 0.05 },
	};
	static const double means[] = { 0.5, 0.53, 0.2, 0.9, 0.01 };

	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++)
		for (size_t j = 0; j < sizeof(means) / sizeof(means[0]); j++) {
			double q[5], sum = 0, mean = 0, s = means[j];
			bool positive = true;

			sprt_most_likely(ps[k], s, q);
			for (int i = 0; i < 5; i++) {
				sum += q[i];
				mean += q[i] * i / 4;
				positive &= q[i] > 0;
			}
			ok(positive && fabs(sum - 1) < 1e-9 && fabs(mean - s) < 1e-9,
			   "distribution %zu, mean %g: sums to 1 (%.12f), mean %.12f", k, s, sum, mean);
		}
	{
		double q[5];
		bool same = true;

		sprt_most_likely(ps[0], 0.5, q);
		for (int i = 0; i < 5; i++)
			same &= fabs(q[i] - ps[0][i]) < 1e-12;
		ok(same, "a distribution of mean 1/2 is its own most likely of mean 1/2");
	}
}

static void test_verdicts(void)
{
	/* a 60% score (about +70 Elo) against [0, 20]: H1 well within 500 pairs */
	static const long strong[5] = { 10, 40, 100, 100, 50 };
	/* an even one: H0 */
	static const long even[5] = { 25, 100, 250, 100, 25 };
	/* few pairs: nothing yet */
	static const long few[5] = { 1, 2, 3, 2, 1 };
	struct sprt a = with(0, 20, strong), b = with(0, 20, even), c = with(0, 20, few);

	ok(sprt_verdict(&a) == SPRT_H1, "a 60%% score against 0,20: H1 (LLR %.2f)", sprt_llr(&a));
	ok(sprt_verdict(&b) == SPRT_H0, "an even score against 0,20: H0 (LLR %.2f)", sprt_llr(&b));
	ok(sprt_verdict(&c) == SPRT_NONE, "nine even pairs: no verdict (LLR %.2f)", sprt_llr(&c));
	ok(strcmp(sprt_verdict_name(SPRT_H1), "H1") == 0 &&
	   strcmp(sprt_verdict_name(SPRT_H0), "H0") == 0 &&
	   strcmp(sprt_verdict_name(SPRT_NONE), "none") == 0, "the verdicts' names");
}

int main(void)
{
	test_parse();
	test_llr();
	test_most_likely();
	test_verdicts();
	return tap_done();
}
