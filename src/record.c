/* record.c - reading and writing game records (format in record.h). */
#include "config.h"

#include "record.h"

#include "mcts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RECORD_MAX_BYTES (1 << 20) /* no real record comes near this */

void record_init(struct record *r, const struct game *g)
{
	memset(r, 0, sizeof(*r));
	r->game = *g;
	r->result = RESULT_NONE;
}

/* The Result header: a result's name, or "*" for a game not finished. */
static const char *result_text(int result)
{
	return result == RESULT_NONE ? "*" : game_result_name(result);
}

/* --- reading ----------------------------------------------------------- */

struct reader {
	const char *name;
	int line;
	char *err;
	size_t errsize;
};

static int fail(struct reader *rd, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail(struct reader *rd, const char *fmt, ...)
{
	char what[200], shown_what[4 * 200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* (one line of text, whatever the file holds: its words are quoted
	 * through shown(), and what is left is escaped here) */
	text_shown(what, sizeof(what), shown_what, sizeof(shown_what));
	if (rd->line > 0)
		fmt_buf(rd->err, rd->errsize, "%s:%d: %s", rd->name, rd->line, shown_what);
	else
		fmt_buf(rd->err, rd->errsize, "%s: %s", rd->name, shown_what);
	return -1;
}

/* Strip leading and trailing blanks in place. */
static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* The keys of an engine comment, and the headers (each at most once; bit I
 * of record_parse()'s `seen` is HEADERS[I]). */
static const char *const info_keys[] = { "iterations", "visits", "value", "second",
					 "second_visits", "second_value", "proven", "plies" };
static const char *const headers[] = { "Game", "Rules", "X", "O", "Date", "Result" };
#define SEEN_GAME 1u

/* The index of WORD in the N words of LIST, or -1. */
static int word_index(const char *const *list, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, list[i]) == 0)
			return (int)i;
	return -1;
}

/* The N words of LIST as "a, b, c" in BUF of SIZE bytes, for a message. */
static const char *word_list(const char *const *list, size_t n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", list[i]);
	return buf;
}

/* Parse the engine comment "{key=value ...}" (TEXT without braces). */
static int parse_info(struct reader *rd, const struct game *g, char *text, struct record_info *info)
{
	char *save = NULL, *word;
	unsigned seen = 0; /* bit I: info_keys[I] read */

	memset(info, 0, sizeof(*info));
	info->second = -1;
	info->proven_plies = -1;
	for (word = strtok_r(text, " \t", &save); word != NULL; word = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(word, '='), reason[160], known[100];
		const char *key = word, *value;
		uint64_t u;
		int k;

		if (eq == NULL)
			return fail(rd, "expected key=value in the comment, not '%s'", shown(word));
		*eq = '\0';
		value = eq + 1;
		k = word_index(info_keys, ARRAY_SIZE(info_keys), key);
		if (k >= 0 && (seen >> k & 1))
			return fail(rd, "the engine comment gives %s twice", key);
		if (k >= 0)
			seen |= 1u << k;
		if (strcmp(key, "iterations") == 0 && parse_u64(value, 0, UINT64_MAX, &u)) {
			info->iterations = u;
		} else if (strcmp(key, "visits") == 0 && parse_u64(value, 0, UINT64_MAX, &u) && u <= UINT32_MAX) {
			info->visits = (uint32_t)u;
		} else if (strcmp(key, "value") == 0 && parse_double(value, 0, 1, &info->value)) {
		} else if (strcmp(key, "second") == 0) {
			if ((info->second = game_parse_move(g, value, reason, sizeof(reason))) < 0)
				return fail(rd, "second=%s: %s", value, reason);
		} else if (strcmp(key, "second_visits") == 0 && parse_u64(value, 0, UINT64_MAX, &u) &&
			   u <= UINT32_MAX) {
			info->second_visits = (uint32_t)u;
		} else if (strcmp(key, "second_value") == 0 && parse_double(value, 0, 1, &info->second_value)) {
		} else if (strcmp(key, "proven") == 0) {
			info->proven = PROOF_NONE;
			for (int proof = PROOF_WIN; proof <= PROOF_DRAW; proof++)
				if (strcmp(value, game_proof_name(proof)) == 0)
					info->proven = proof;
			if (info->proven == PROOF_NONE)
				return fail(rd, "proven must be win, loss or draw, not '%s'", value);
		} else if (strcmp(key, "plies") == 0 && parse_u64(value, 0, UINT64_MAX, &u) && u <= GAME_MAX_PLIES) {
			info->proven_plies = (int)u;
		} else if (k >= 0) {
			return fail(rd, "bad value in the engine comment: %s=%s", key, shown(value));
		} else {
			return fail(rd, "unknown engine comment item '%s' (known: %s)", shown(key),
				    word_list(info_keys, ARRAY_SIZE(info_keys), known, sizeof(known)));
		}
	}
	return 0;
}

static int parse_header(struct reader *rd, char *line, struct record *r, char *game_name,
			size_t game_size, unsigned *rules, char *result, unsigned *seen)
{
	char *colon = strchr(line, ':'), *key, *value, known[64];
	int i;

	if (colon == NULL)
		return fail(rd, "expected a header 'Key: value' or a blank line before the moves, "
			    "not '%s'", shown(line));
	*colon = '\0';
	key = trim(line);
	value = trim(colon + 1);
	i = word_index(headers, ARRAY_SIZE(headers), key);
	if (i < 0)
		return fail(rd, "unknown header '%s' (known: %s)", shown(key),
			    word_list(headers, ARRAY_SIZE(headers), known, sizeof(known)));
	if (*seen & 1u << i)
		return fail(rd, "a second '%s:' header", key); /* (a known header) */
	*seen |= 1u << i;
	if (strcmp(key, "Game") == 0) {
		if (strlen(value) >= game_size)
			return fail(rd, "unknown game '%s'", shown(value));
		strcpy(game_name, value);
	} else if (strcmp(key, "Rules") == 0) {
		char *save = NULL;

		for (char *w = strtok_r(value, " ,", &save); w != NULL; w = strtok_r(NULL, " ,", &save)) {
			if (strcmp(w, "tiebreak") == 0)
				*rules |= RULE_TIEBREAK;
			else if (strcmp(w, "open-won-boards") == 0)
				*rules |= RULE_OPEN_WON;
			else
				return fail(rd, "unknown rule '%s' (known: tiebreak, "
					    "open-won-boards)", shown(w));
		}
	} else if (strcmp(key, "X") == 0 || strcmp(key, "O") == 0) {
		char *dst = key[0] == 'X' ? r->x : r->o;

		if (strlen(value) >= sizeof(r->x))
			return fail(rd, "the %s player is too long", key);
		strcpy(dst, value);
	} else if (strcmp(key, "Date") == 0) {
		if (strlen(value) >= sizeof(r->date))
			return fail(rd, "the date is too long");
		strcpy(r->date, value);
	} else { /* Result */
		if (strcmp(value, "X") != 0 && strcmp(value, "O") != 0 && strcmp(value, "draw") != 0 &&
		    strcmp(value, "*") != 0)
			return fail(rd, "Result must be X, O, draw or *, not '%s'", shown(value));
		strcpy(result, value);
	}
	return 0;
}

/* A line of the moves S ("e5 {iterations=...}"): the move, legal at POS,
 * appended to R and played. Returns 0, or -1 after fail(). */
static int parse_move_line(struct reader *rd, char *s, struct record *r, struct pos *pos)
{
	char *brace = strchr(s, '{'), *word, why[120], reason[160];
	struct record_move *m;
	int move;

	if (brace != NULL) {
		char *close = strchr(brace, '}');

		if (close == NULL || trim(close + 1)[0] != '\0')
			return fail(rd, "the engine comment must be one {...} at the end of the line");
		*close = '\0';
		*brace = '\0';
	}
	word = trim(s);
	if (strchr(word, ' ') != NULL || strchr(word, '\t') != NULL)
		return fail(rd, "one move a line, not '%s'", shown(word));
	move = game_parse_move(&r->game, word, reason, sizeof(reason));
	if (move < 0)
		return fail(rd, "%s", reason);
	if (game_illegal(&r->game, pos, move, why, sizeof(why)) != NULL)
		return fail(rd, "illegal move %s: %s", word, why); /* (a move's text) */
	m = &r->moves[r->nmoves++];
	m->move = (uint8_t)move;
	if (brace != NULL) {
		if (parse_info(rd, &r->game, brace + 1, &m->info) < 0)
			return -1;
		m->has_info = true;
	}
	game_play(&r->game, pos, move);
	return 0;
}

int record_parse(const char *text, size_t len, const char *name, struct record *r, char *err,
		 size_t errsize)
{
	struct reader rd = { name, 0, err, errsize };
	char game_name[32] = "", result[8] = "", line[512];
	unsigned rules = 0;
	bool in_moves = false;
	unsigned seen = 0;
	struct pos pos;
	size_t at = 0;

	memset(r, 0, sizeof(*r));
	/* Editors on some systems start a UTF-8 file with a byte-order mark. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		at = 3;
	while (at < len) {
		size_t n = 0;
		char *s;

		rd.line++;
		while (at < len && text[at] != '\n') {
			if (text[at] == '\0')
				return fail(&rd, "a NUL byte: this is not a text file");
			if (n + 1 >= sizeof(line))
				return fail(&rd, "line longer than %zu characters", sizeof(line) - 1);
			line[n++] = text[at++];
		}
		at++; /* the newline */
		line[n] = '\0';
		s = trim(line);
		if (*s == '#')
			continue; /* a comment line, not the blank line ending the headers */
		if (strchr(s, '#') != NULL) /* a comment to the end of the line */
			*strchr(s, '#') = '\0';
		s = trim(s);
		if (!in_moves) {
			char reason[160];

			if (*s != '\0') {
				if (parse_header(&rd, s, r, game_name, sizeof(game_name), &rules, result,
						 &seen) < 0)
					return -1;
				continue;
			}
			if (!(seen & SEEN_GAME))
				return fail(&rd, "no 'Game:' header before the moves");
			if (game_init(&r->game, game_name, rules, reason, sizeof(reason)) < 0)
				return fail(&rd, "%s", reason);
			game_start(&r->game, &pos);
			in_moves = true;
			continue;
		}
		if (*s == '\0')
			continue;
		if (parse_move_line(&rd, s, r, &pos) < 0)
			return -1;
	}
	rd.line = 0;
	if (!(seen & SEEN_GAME))
		return fail(&rd, "no 'Game:' header: not a noughts record");
	if (!in_moves) {
		char reason[160];

		/* headers only: a record of no moves */
		if (game_init(&r->game, game_name, rules, reason, sizeof(reason)) < 0)
			return fail(&rd, "%s", reason);
		game_start(&r->game, &pos);
	}
	r->result = pos.result;
	if (result[0] != '\0' && strcmp(result, result_text(pos.result)) != 0) {
		if (pos.result == RESULT_NONE)
			return fail(&rd, "truncated: the moves stop before the stated result %s", result);
		if (strcmp(result, "*") == 0)
			return fail(&rd, "the stated result * (not finished), but the moves end the "
				    "game (%s)", result_text(pos.result));
		return fail(&rd, "the stated result %s is not the result of the moves (%s)", result,
			    result_text(pos.result));
	}
	return 0;
}

/* How much of a record's path a message quotes: a long one is cut in the
 * middle, so that what went wrong still fits. */
#define RECORD_NAME_SHOWN 124

int record_read(const char *path, struct record *r, char *err, size_t errsize)
{
	FILE *f = fopen_nowait(path);
	char *buf, name[RECORD_NAME_SHOWN];
	size_t n;
	int rc;

	text_shown(path, sizeof(name) - 4, name, sizeof(name)); /* (room for the reason) */
	if (f == NULL) {
		fmt_buf(err, errsize, "%s: %s", name, strerror(errno));
		return -1;
	}
	buf = xmalloc(RECORD_MAX_BYTES + 1);
	n = fread(buf, 1, RECORD_MAX_BYTES + 1, f);
	if (ferror(f)) {
		fmt_buf(err, errsize, "%s: %s", name, strerror(errno));
		rc = -1;
	} else if (n > RECORD_MAX_BYTES) {
		fmt_buf(err, errsize, "%s: larger than %d bytes: not a game record", name,
			RECORD_MAX_BYTES);
		rc = -1;
	} else {
		rc = record_parse(buf, n, name, r, err, errsize);
	}
	free(buf);
	fclose(f);
	return rc;
}

/* --- writing ----------------------------------------------------------- */

void record_print(const struct record *r, FILE *out)
{
	char name[8];

	fprintf(out, "# noughts game record\nGame: %s\n", r->game.name);
	if (r->game.rules & (RULE_TIEBREAK | RULE_OPEN_WON))
		fprintf(out, "Rules:%s%s\n", r->game.rules & RULE_TIEBREAK ? " tiebreak" : "",
			r->game.rules & RULE_OPEN_WON ? " open-won-boards" : "");
	if (r->x[0] != '\0')
		fprintf(out, "X: %s\n", r->x);
	if (r->o[0] != '\0')
		fprintf(out, "O: %s\n", r->o);
	if (r->date[0] != '\0')
		fprintf(out, "Date: %s\n", r->date);
	fprintf(out, "Result: %s\n\n", result_text(r->result));
	for (int i = 0; i < r->nmoves; i++) {
		const struct record_move *m = &r->moves[i];

		fputs(game_move_name(&r->game, m->move, name), out);
		if (m->has_info) {
			const struct record_info *in = &m->info;

			fprintf(out, " {iterations=%llu visits=%u value=%.3f",
				(unsigned long long)in->iterations, in->visits, in->value);
			if (in->second >= 0)
				fprintf(out, " second=%s second_visits=%u second_value=%.3f",
					game_move_name(&r->game, in->second, name), in->second_visits,
					in->second_value);
			if (in->proven != PROOF_NONE)
				fprintf(out, " proven=%s", game_proof_name(in->proven));
			if (in->proven != PROOF_NONE && in->proven_plies >= 0)
				fprintf(out, " plies=%d", in->proven_plies);
			fputc('}', out);
		}
		fputc('\n', out);
	}
}

int record_write(const char *path, const struct record *r, char *err, size_t errsize)
{
	char tmp[4096], name[RECORD_NAME_SHOWN];
	FILE *f;
	int fd;

	text_shown(path, sizeof(name) - 4, name, sizeof(name));
	if (strlen(path) + 16 >= sizeof(tmp)) {
		fmt_buf(err, errsize, "%s: path too long", name);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		fmt_buf(err, errsize, "%s: %s", name, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	record_print(r, f);
	if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0) {
		fmt_buf(err, errsize, "%s: %s", name, strerror(errno));
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) != 0 || chmod(tmp, 0644) != 0 || rename(tmp, path) != 0) {
		fmt_buf(err, errsize, "%s: %s", name, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* mkdir -p PATH. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int record_dir_name(char *buf, size_t size, char *err, size_t errsize)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, size, "%s/noughts", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, size, "%s/.local/share/noughts", home);
	else {
		fmt_buf(err, errsize, "neither XDG_DATA_HOME nor HOME is set: nowhere to save games");
		return -1;
	}
	if (n < 0 || (size_t)n >= size) {
		fmt_buf(err, errsize, "the data directory's path is too long");
		return -1;
	}
	return 0;
}

int record_dir(char *buf, size_t size, char *err, size_t errsize)
{
	if (record_dir_name(buf, size, err, errsize) < 0)
		return -1;
	if (make_dirs(buf) != 0) {
		fmt_buf(err, errsize, "%s: %s", buf, strerror(errno));
		return -1;
	}
	return 0;
}

void record_info_from_search(struct record_info *info, const struct mcts *m, int move)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);

	memset(info, 0, sizeof(*info));
	info->iterations = t.iterations;
	info->second = -1;
	info->proven_plies = -1;
	for (int i = 0; i < n; i++) {
		if (ch[i].move == move) {
			info->visits = ch[i].visits;
			info->value = ch[i].value;
			info->proven = ch[i].proven;
			info->proven_plies = ch[i].proven_plies;
		} else if (info->second < 0) {
			info->second = ch[i].move; /* sorted by visits: the first other is second */
			info->second_visits = ch[i].visits;
			info->second_value = ch[i].value;
		}
	}
}

void record_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

int record_save_new(const char *dir, const struct record *r, char *path, size_t pathsize,
		    char *err, size_t errsize)
{
	char stamp[32], game[16];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(game, sizeof(game), "%s", r->game.name);
	for (char *c = game; *c != '\0'; c++)
		if (*c == ',')
			*c = 'x';
	for (int i = 0; i < 1000; i++) {
		struct stat st;

		if (i == 0)
			snprintf(path, pathsize, "%s/noughts-%s-%s.txt", dir, game, stamp);
		else
			snprintf(path, pathsize, "%s/noughts-%s-%s-%d.txt", dir, game, stamp, i);
		if (stat(path, &st) != 0)
			return record_write(path, r, err, errsize);
	}
	fmt_buf(err, errsize, "%s: too many records saved this second", dir);
	return -1;
}
