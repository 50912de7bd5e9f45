/* referee.c - a CodinGame-style referee for `noughts bot`, with its own
 * rules code (it shares nothing with the program), so a bug in noughts'
 * rules cannot hide a bug in its answers.
 *
 *   referee [-g uttt|ttt] [-n GAMES] [-s SEED] [-t] CMD_A [CMD_B|random]
 *
 * Plays GAMES games of CMD_A (a simple shell command speaking the protocol,
 * which the shell runs with exec: no pipes or lists) against
 * CMD_B or a random mover, A playing first in odd games. Checks that every
 * answer is one line, a valid action, and on time (1000 ms on a bot's first
 * turn, 100 ms after; -t only reports lateness instead of failing). Prints
 * TAP, A's score, the slowest answer, and the 99th and 99.9th percentiles of
 * A's later answers. Result by CodinGame's rule: a line
 * of small boards wins, else more small boards won wins. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int lines[8][3] = { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
				 { 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 } };

struct board {
	bool ultimate;
	int cell[9][9];  /* [small board][cell]: 0 empty, 1 first player, 2 second */
	int owner[9];    /* small board won by 1 or 2, 3 full without a line, 0 open */
	int next;        /* forced small board or -1 */
};

static int three(const int *v, int who)
{
	for (int l = 0; l < 8; l++)
		if (v[lines[l][0]] == who && v[lines[l][1]] == who && v[lines[l][2]] == who)
			return 1;
	return 0;
}

/* Row and column on the whole grid of small board B, cell C. */
static void grid(const struct board *bd, int b, int c, int *row, int *col)
{
	if (!bd->ultimate) {
		*row = c / 3;
		*col = c % 3;
		return;
	}
	*row = (b / 3) * 3 + c / 3;
	*col = (b % 3) * 3 + c % 3;
}

static int actions(const struct board *bd, int *list)
{
	int n = 0;

	for (int b = 0; b < (bd->ultimate ? 9 : 1); b++) {
		if (bd->owner[b] != 0 || (bd->next >= 0 && bd->next != b))
			continue;
		for (int c = 0; c < 9; c++)
			if (bd->cell[b][c] == 0)
				list[n++] = b * 9 + c;
	}
	return n;
}

/* 0 going on, 1 or 2 the winner, 3 a draw. */
static int result(const struct board *bd)
{
	int won[3] = { 0, 0, 0 }, owners[9];
	int list[81];

	if (!bd->ultimate)
		return bd->owner[0];
	for (int b = 0; b < 9; b++) {
		owners[b] = bd->owner[b];
		if (owners[b] == 1 || owners[b] == 2)
			won[owners[b]]++;
	}
	if (three(owners, 1))
		return 1;
	if (three(owners, 2))
		return 2;
	if (actions(bd, list) > 0)
		return 0;
	return won[1] > won[2] ? 1 : won[2] > won[1] ? 2 : 3;
}

static void play(struct board *bd, int m, int who)
{
	int b = m / 9, c = m % 9, full = 1;

	bd->cell[b][c] = who;
	if (three(bd->cell[b], who))
		bd->owner[b] = who;
	for (int i = 0; i < 9; i++)
		full &= bd->cell[b][i] != 0;
	if (bd->owner[b] == 0 && full)
		bd->owner[b] = 3;
	bd->next = bd->ultimate && bd->owner[c] == 0 ? c : -1;
}

struct bot {
	pid_t pid;
	FILE *in;  /* to the bot */
	int out;   /* from the bot */
	char buf[256];
	size_t have;
	int turns;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int start_bot(struct bot *b, const char *cmd)
{
	int to[2], from[2];

	memset(b, 0, sizeof(*b));
	if (pipe(to) != 0 || pipe(from) != 0)
		return -1;
	b->pid = fork();
	if (b->pid < 0)
		return -1;
	if (b->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		/* "exec CMD": the shell becomes the bot, so that the bot's process
		 * starts when this one forks, as CodinGame starts a bot itself
		 * (a bot counts its first turn from its process's start) */
		{
			char *line = malloc(strlen(cmd) + 6);

			if (line == NULL)
				_exit(127);
			strcpy(line, "exec ");
			strcat(line, cmd);
			execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		}
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	/* a bot started later must not hold this one's pipes open */
	fcntl(to[1], F_SETFD, FD_CLOEXEC);
	fcntl(from[0], F_SETFD, FD_CLOEXEC);
	b->in = fdopen(to[1], "w");
	b->out = from[0];
	return 0;
}

static int stop_bot(struct bot *b)
{
	int status = 0;

	fclose(b->in);
	close(b->out);
	waitpid(b->pid, &status, 0);
	return status;
}

/* Read one line from the bot within TIMEOUT_MS (the test's hard limit,
 * far above the protocol's, so a hung bot fails instead of hanging). */
static int read_line(struct bot *b, char *line, size_t size, int timeout_ms)
{
	double end = now_ms() + timeout_ms;

	for (;;) {
		char *nl = memchr(b->buf, '\n', b->have);

		if (nl != NULL) {
			size_t n = (size_t)(nl - b->buf);

			if (n >= size)
				return -1;
			memcpy(line, b->buf, n);
			line[n] = '\0';
			memmove(b->buf, nl + 1, b->have - n - 1);
			b->have -= n + 1;
			return 0;
		}
		if (b->have == sizeof(b->buf))
			return -1;
		struct pollfd p = { b->out, POLLIN, 0 };
		int left = (int)(end - now_ms());

		if (left <= 0 || poll(&p, 1, left) <= 0)
			return -1;
		ssize_t r = read(b->out, b->buf + b->have, sizeof(b->buf) - b->have);

		if (r <= 0)
			return -1;
		b->have += (size_t)r;
	}
}

static unsigned long long rng_state;

static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)((rng_state >> 33) % n);
}

static int tap_n, tap_bad;

/* A's later answers in milliseconds, for the percentiles. */
static double *times;
static size_t ntimes, cap_times;

static void add_time(double ms)
{
	if (ntimes == cap_times) {
		cap_times = cap_times ? 2 * cap_times : 1024;
		times = realloc(times, cap_times * sizeof(*times));
		if (times == NULL) {
			perror("referee");
			exit(1);
		}
	}
	times[ntimes++] = ms;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The P-th percentile (nearest rank) of the times kept, 0 if none. */
static double percentile(double p)
{
	size_t rank;

	if (ntimes == 0)
		return 0;
	qsort(times, ntimes, sizeof(*times), cmp_double);
	rank = (size_t)(p / 100 * (double)ntimes + 0.999999);
	return times[rank == 0 ? 0 : rank - 1];
}

static void check(int pass, const char *what)
{
	printf("%sok %d - %s\n", pass ? "" : "not ", ++tap_n, what);
	tap_bad += !pass;
	fflush(stdout);
}

/* What a run keeps across games: the bots' commands (B NULL: random
 * moves) and A's slowest answers. */
struct run {
	const char *cmd[2];
	double slowest, slowest_first;
};

/* Send bot B (PLAYER 0 is A) the last move LAST (-1: none) and the N legal
 * actions LIST, read its answer and time it (A's times are kept). Returns
 * the move, -1 for an answer that is not "row col" (or none in 10 s), -2
 * for an action not in the list; counts a late answer in *LATE. */
static int ask_bot(struct run *run, struct bot *b, int player, const struct board *bd, int last,
		   const int *list, int n, int game, int *late)
{
	char line[64];
	int row, col, r, c;
	double t0, ms;

	if (last < 0) {
		fprintf(b->in, "-1 -1\n");
	} else {
		grid(bd, last / 9, last % 9, &r, &c);
		fprintf(b->in, "%d %d\n", r, c);
	}
	fprintf(b->in, "%d\n", n);
	for (int i = 0; i < n; i++) {
		grid(bd, list[i] / 9, list[i] % 9, &r, &c);
		fprintf(b->in, "%d %d\n", r, c);
	}
	t0 = now_ms();
	fflush(b->in);
	if (read_line(b, line, sizeof(line), 10000) != 0 || sscanf(line, "%d %d", &row, &col) != 2)
		return -1;
	ms = now_ms() - t0;
	if (player == 0 && b->turns == 0 && ms > run->slowest_first)
		run->slowest_first = ms;
	if (player == 0 && b->turns > 0 && ms > run->slowest)
		run->slowest = ms;
	if (player == 0 && b->turns > 0)
		add_time(ms);
	if (ms > (b->turns == 0 ? 1000 : 100)) {
		(*late)++;
		fprintf(stderr, "# game %d: answer %d of bot %c took %.1f ms (asked at %.4f s, CLOCK_MONOTONIC)\n",
			game, b->turns + 1, 'A' + player, ms, t0 / 1e3);
	}
	b->turns++;
	for (int i = 0; i < n; i++) {
		grid(bd, list[i] / 9, list[i] % 9, &r, &c);
		if (r == row && c == col)
			return list[i];
	}
	return -2;
}

/* Play game GAME (odd: A first); checks A's answers and returns the
 * result (0: stopped by a bad answer, 3: a draw, else the winner's mark),
 * A's mark in *A_MARK. */
static int play_game(struct run *run, int game, bool ultimate, bool strict_time, int *a_mark)
{
	struct board bd;
	struct bot bots[2];
	int first = game % 2 == 1 ? 0 : 1; /* who plays first: 0 is A */
	int last = -1, res = 0, who = 1, late = 0, illegal = 0, protocol = 0, nmoves = 0, row, col;
	char what[200], moves[81 * 4 + 1] = "";
	size_t len = 0;

	memset(&bd, 0, sizeof(bd));
	bd.ultimate = ultimate;
	bd.next = -1;
	for (int i = 0; i < 2; i++)
		if ((i == 0 || run->cmd[1] != NULL) && start_bot(&bots[i], run->cmd[i]) != 0) {
			perror("referee");
			exit(1);
		}
	while ((res = result(&bd)) == 0) {
		int player = who == 1 ? first : 1 - first, list[81], n = actions(&bd, list), m;

		if (player == 1 && run->cmd[1] == NULL)
			m = list[rnd((unsigned)n)];
		else
			m = ask_bot(run, &bots[player], player, &bd, last, list, n, game, &late);
		protocol += m == -1;
		illegal += m == -2;
		if (m < 0)
			break;
		play(&bd, m, who);
		grid(&bd, m / 9, m % 9, &row, &col); /* as noughts writes it: a1 top left */
		len += snprintf(moves + len, sizeof(moves) - len, "%s%c%d", nmoves++ ? " " : "",
				'a' + col, row + 1);
		last = m;
		who = 3 - who;
	}
	for (int i = 0; i < 2; i++)
		if (i == 0 || run->cmd[1] != NULL)
			stop_bot(&bots[i]);
	snprintf(what, sizeof(what), "game %d: every answer of A is one line naming a valid action",
		 game);
	check(protocol == 0 && illegal == 0, what);
	snprintf(what, sizeof(what), "game %d: every answer on time (%d late)", game, late);
	check(late == 0 || !strict_time, what);
	*a_mark = first == 0 ? 1 : 2;
	printf("# game %d: A moved %s: %s in %d moves: %s\n", game, first == 0 ? "first" : "second",
	       res == 0 ? "stopped" : res == 3 ? "drawn" : res == *a_mark ? "won" : "lost", nmoves,
	       moves);
	return res;
}

int main(int argc, char **argv)
{
	int games = 2, opt;
	bool ultimate = true, strict_time = true;
	double total_score = 0;
	struct run run = { { NULL, NULL }, 0, 0 };

	signal(SIGPIPE, SIG_IGN);
	rng_state = 1;
	while ((opt = getopt(argc, argv, "g:n:s:t")) != -1) {
		switch (opt) {
		case 'g': ultimate = strcmp(optarg, "ttt") != 0; break;
		case 'n': games = atoi(optarg); break;
		case 's': rng_state = strtoull(optarg, NULL, 10); break;
		case 't': strict_time = false; break;
		default:
			fprintf(stderr, "usage: referee [-g uttt|ttt] [-n GAMES] [-s SEED] [-t] CMD_A [CMD_B|random]\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "referee: no bot command\n");
		return 2;
	}
	run.cmd[0] = argv[optind];
	run.cmd[1] = optind + 1 < argc && strcmp(argv[optind + 1], "random") != 0 ? argv[optind + 1]
										  : NULL;
	for (int game = 1; game <= games; game++) {
		int a_mark, res = play_game(&run, game, ultimate, strict_time, &a_mark);

		if (res != 0)
			total_score += res == 3 ? 0.5 : res == a_mark ? 1 : 0;
	}
	printf("# A scored %.1f of %d; A's slowest answer %.1f ms on a first turn (limit 1000), "
	       "%.1f ms on a later one (limit 100)\n", total_score, games, run.slowest_first,
	       run.slowest);
	printf("# A's %zu later answers: 99th percentile %.1f ms, 99.9th %.1f ms\n", ntimes,
	       percentile(99), percentile(99.9));
	printf("1..%d\n", tap_n);
	return tap_bad != 0;
}
