/* bot-guard.h - the bot's answer guard: a thread that sleeps until a
 * turn's deadline and, if the bot's own thread is still held then (a
 * virtual machine's host may keep it from the processor for
 * milliseconds), writes the last answer the bot offered (bot_set_guard()
 * in bot.h says how the bot offers them). */
#ifndef NOUGHTS_BOT_GUARD_H
#define NOUGHTS_BOT_GUARD_H

#include <stdbool.h>
#include <stdint.h>

struct bot_guard;

/* A guard that writes its answers, one line each, to descriptor FD; NULL
 * if no thread could be made (the bot then answers alone). */
struct bot_guard *bot_guard_new(int fd);
void bot_guard_free(struct bot_guard *g);

/* The bot_offer_fn of guard GUARD (a struct bot_guard *): takes TEXT to
 * write at DUE (now_ns()'s clock) unless FINAL; with FINAL, keeps the
 * guard from writing. False, taking nothing, once the guard has written
 * the last answer it took. */
bool bot_guard_offer(void *guard, const char *text, uint64_t due, bool final);

/* Did G write this turn's answer? 0 if not, 1 if it did (*WHEN: now_ns()
 * after its write), -1 with errno set if its write failed. Readies it for
 * the next turn: call it once a turn, after the bot's final offer. */
int bot_guard_gave(struct bot_guard *g, uint64_t *when);

#endif
