/* sprt.h - a sequential test of a match's result (match --sprt): is A at
 * least ELO1 stronger than B, or at most ELO0? Decided as the games come,
 * so that a clear difference takes few games and only a close one many.
 *
 * A match plays its games in pairs, one with each colour, and the test
 * counts the pairs by A's score in them (0, 1/2, 1, 3/2 or 2: the
 * pentanomial counts): a pair's two games share a position's advantage of
 * the first move, so their sum varies less than two games apart would.
 * The log-likelihood ratio is the generalized SPRT's: that of the
 * pentanomial distributions most likely to give the pairs counted among
 * those whose mean score a game is s1, and among those whose mean is s0,
 * s0 and s1 the scores that ELO0 and ELO1 give on the logistic scale
 * (s = 1 / (1 + 10^(-elo/400)), as match reports its Elo difference). Each
 * count has SPRT_PRIOR pairs added for the distributions (so that there
 * is one of mean s0 and one of mean s1 even while every pair has had the
 * same score), none for the ratio. (The normal approximation, N (s1 - s0) (2m - s0 - s1) / 2v,
 * is as good near an even score with many pairs, and far too sure with
 * few: 4 pairs of 1/2, 0, 1/2, 1/2 give it -3.2 for 0,20 against the
 * exact -0.2, a verdict after 8 games.) The test stops with H1 (A is ELO1
 * stronger) once LLR >= ln((1-beta) / alpha), with H0 (at most ELO0) once
 * LLR <= ln(beta / (1-alpha)): alpha the chance of H1 when ELO0 is true,
 * beta of H0 when ELO1 is. */
#ifndef NOUGHTS_SPRT_H
#define NOUGHTS_SPRT_H

#include <stdbool.h>

#define SPRT_ALPHA 0.05 /* --sprt's default alpha and beta */
#define SPRT_BETA 0.05
#define SPRT_MAX_ELO 1000 /* |ELO0|, |ELO1| at most this */
#define SPRT_PRIOR 1e-3   /* pairs added to each count for the distributions */

struct sprt {
	double elo0, elo1, alpha, beta;
	long pairs[5]; /* pairs in which A scored 0, 1/2, 1, 3/2, 2 */
};

enum sprt_verdict { SPRT_NONE, SPRT_H0, SPRT_H1 };

/* Parse TEXT, "ELO0,ELO1" or "ELO0,ELO1,ALPHA,BETA" (ELO0 < ELO1, both
 * within SPRT_MAX_ELO; ALPHA and BETA in (0, 0.5)), into a test with no
 * pairs yet. Returns false if TEXT is not of that form. */
bool sprt_parse(struct sprt *t, const char *text);

/* Count a pair of games in which A scored HALVES half-points (0..4). */
void sprt_add_pair(struct sprt *t, int halves);

/* The log-likelihood ratio of the pairs so far (0 with none), and the
 * bounds it is decided at. */
double sprt_llr(const struct sprt *t);
void sprt_bounds(const struct sprt *t, double *lower, double *upper);

/* The pentanomial distribution Q of greatest likelihood for frequencies P
 * (each above 0, summing to 1) among those whose mean score a game is S,
 * 0 < S < 1. */
void sprt_most_likely(const double p[5], double s, double q[5]);

/* What the pairs so far decide. */
enum sprt_verdict sprt_verdict(const struct sprt *t);

/* "H0", "H1" or "none". */
const char *sprt_verdict_name(enum sprt_verdict v);

#endif
