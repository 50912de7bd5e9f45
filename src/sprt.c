/* sprt.c - the sequential test of match --sprt (sprt.h says how). */
#include "config.h"

#include "sprt.h"

#include <math.h>
#include <string.h>

#include "util.h"

/* One number of --sprt's list, at most MAX and, where SIGNED, at least
 * -MAX. */
static bool parse_field(const char *s, bool is_signed, double max, double *out)
{
	bool minus = is_signed && s[0] == '-';

	if (!parse_double(s + minus, 0, max, out))
		return false;
	if (minus)
		*out = -*out;
	return true;
}

bool sprt_parse(struct sprt *t, const char *text)
{
	char buf[128], *field[4], *p = buf;
	int n = 0;
	double v[4] = { 0, 0, SPRT_ALPHA, SPRT_BETA };

	if (strlen(text) >= sizeof(buf))
		return false;
	strcpy(buf, text);
	for (;;) {
		if (n == 4)
			return false;
		field[n++] = p;
		p = strchr(p, ',');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	if (n != 2 && n != 4)
		return false;
	for (int i = 0; i < n; i++) {
		bool elo = i < 2;

		if (!parse_field(field[i], elo, elo ? SPRT_MAX_ELO : 0.5, &v[i]) ||
		    (!elo && (v[i] == 0 || v[i] == 0.5)))
			return false;
	}
	if (v[0] >= v[1])
		return false;
	memset(t, 0, sizeof(*t));
	t->elo0 = v[0];
	t->elo1 = v[1];
	t->alpha = v[2];
	t->beta = v[3];
	return true;
}

void sprt_add_pair(struct sprt *t, int halves)
{
	if (halves >= 0 && halves <= 4)
		t->pairs[halves]++;
}

/* The score a game that an Elo difference ELO gives, on the logistic scale. */
static double score_of_elo(double elo)
{
	return 1 / (1 + pow(10, -elo / 400));
}

/* Q_i = P_i / (1 + L (a_i - S)), a_i = i/4, the Lagrange multiplier L the
 * root of sum P_i (a_i - S) / (1 + L (a_i - S)), which falls as L rises
 * over (-1/(1-S), 1/S), where every Q_i is positive: found by halving. */
void sprt_most_likely(const double p[5], double s, double q[5])
{
	double lo = -1 / (1 - s), hi = 1 / s, l = 0;

	for (int it = 0; it < 200; it++) {
		double f = 0;

		l = lo + (hi - lo) / 2;
		if (l <= lo || l >= hi)
			break; /* as close as doubles get */
		for (int i = 0; i < 5; i++)
			f += p[i] * (i / 4.0 - s) / (1 + l * (i / 4.0 - s));
		if (f > 0)
			lo = l;
		else
			hi = l;
	}
	for (int i = 0; i < 5; i++)
		q[i] = p[i] / (1 + l * (i / 4.0 - s));
}

double sprt_llr(const struct sprt *t)
{
	double n = 0, p[5], q0[5], q1[5], llr = 0;

	for (int i = 0; i < 5; i++)
		n += (double)t->pairs[i];
	if (n == 0)
		return 0;
	for (int i = 0; i < 5; i++)
		p[i] = ((double)t->pairs[i] + SPRT_PRIOR) / (n + 5 * SPRT_PRIOR);
	sprt_most_likely(p, score_of_elo(t->elo0), q0);
	sprt_most_likely(p, score_of_elo(t->elo1), q1);
	for (int i = 0; i < 5; i++)
		if (t->pairs[i] > 0)
			llr += (double)t->pairs[i] * log(q1[i] / q0[i]);
	return llr;
}

void sprt_bounds(const struct sprt *t, double *lower, double *upper)
{
	*lower = log(t->beta / (1 - t->alpha));
	*upper = log((1 - t->beta) / t->alpha);
}

enum sprt_verdict sprt_verdict(const struct sprt *t)
{
	double llr = sprt_llr(t), lower, upper;

	sprt_bounds(t, &lower, &upper);
	return llr >= upper ? SPRT_H1 : llr <= lower ? SPRT_H0 : SPRT_NONE;
}

const char *sprt_verdict_name(enum sprt_verdict v)
{
	return v == SPRT_H1 ? "H1" : v == SPRT_H0 ? "H0" : "none";
}
