/* keys.h - the one key table of the game screen: each row binds keys, in
 * a mode and a context, to a command of the session, with the help text.
 * The dispatch (session_key), the ? screen, the bottom key line and the
 * man page check (tests/test-view.c) are all made from it, so they cannot
 * drift apart. No curses: keys are the codes below, to which ui.c maps
 * the terminal's. */
#ifndef NOUGHTS_KEYS_H
#define NOUGHTS_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* Key codes: characters are themselves; the rest are above 255. */
enum {
	KEY_CODE_ESC = 27,
	KEY_CODE_UP = 0x101,
	KEY_CODE_DOWN,
	KEY_CODE_LEFT,
	KEY_CODE_RIGHT,
	KEY_CODE_ENTER,
	KEY_CODE_PGUP,
	KEY_CODE_PGDN,
	KEY_CODE_BACKSPACE,
	KEY_CODE_RESIZE,
};

/* What the session can be asked to do. */
enum keys_command {
	CMD_NONE,
	CMD_QUIT,
	CMD_HELP,
	CMD_ESCAPE,      /* back out of whatever is open */
	CMD_FOCUS,       /* the panel takes the focus, or gives it back */
	CMD_SCROLL_UP,
	CMD_SCROLL_DOWN,
	CMD_PAUSE,       /* pause or resume */
	CMD_MOVE_NOW,    /* the engine to move plays now */
	CMD_CONTINUE,    /* back in the history: the engine to move there plays on */
	CMD_STEP,
	CMD_AUTO,
	CMD_HIST_BACK,
	CMD_HIST_FORWARD,
	CMD_SAVE,
	CMD_UNDO,
	CMD_NEW,         /* open the new-game dialog */
	CMD_ANALYSIS,
	CMD_OVERLAY,
	CMD_INSPECT,
	CMD_REVIEW,      /* review the game so far, or stop the review */
	CMD_PV,          /* the selected row's line on the board, or not */
	CMD_PV_NEXT,     /* ... one move more of it */
	CMD_PV_PREV,     /* ... one move less */
	CMD_CURSOR_UP,
	CMD_CURSOR_DOWN,
	CMD_CURSOR_LEFT,
	CMD_CURSOR_RIGHT,
	CMD_PLAY,        /* play the cell under the cursor */
	CMD_SEL_UP,      /* tree browser */
	CMD_SEL_DOWN,
	CMD_INTO,
	CMD_OUT,
	CMD_HELP_UP,     /* the help screen */
	CMD_HELP_DOWN,
	CMD_HELP_PGUP,
	CMD_HELP_PGDN,
	CMD_HELP_CLOSE,
	CMD_DLG_CLOSE,   /* the new-game dialog */
	CMD_DLG_UP,
	CMD_DLG_DOWN,
	CMD_DLG_LEFT,
	CMD_DLG_RIGHT,
	CMD_DLG_START,
	CMD_DLG_TYPE,    /* a character typed into the field */
	CMD_DLG_ERASE,   /* the field's last character off */
	CMD_DLG_CLEAR,   /* the field emptied */
	CMD_COUNT
};

/* Contexts: facts about the situation (session_context() gives them). */
enum {
	KEYS_HUMAN = 1 << 0,      /* the present position: a human to move */
	KEYS_ENGINE = 1 << 1,     /* the present position: an engine to move */
	KEYS_OVER = 1 << 2,       /* the game is over */
	KEYS_EVE = 1 << 3,        /* engine against engine */
	KEYS_PANEL = 1 << 4,      /* the panel has the focus (tree browser) */
	KEYS_PAST = 1 << 5,       /* an earlier position is shown */
	KEYS_EARLIER = 1 << 8,    /* there is a position before the one shown */
	KEYS_MOVES = 1 << 9,      /* a move has been played */
	KEYS_CAN_PAUSE = 1 << 10, /* something thinks or is paused */
	KEYS_SEARCH = 1 << 11,    /* a live MCTS search can be shown */
	KEYS_HELP = 1 << 12,      /* the help screen is open */
	KEYS_DIALOG = 1 << 13,    /* the new-game dialog is open */
	KEYS_LINES = 1 << 14,     /* the panel shows candidate moves with lines */
	KEYS_PV = 1 << 15,        /* a line is shown on the board */
};

/* Modes: which rows a key is looked up in. */
enum {
	KEYS_MODE_ANY,    /* board or panel */
	KEYS_MODE_BOARD,  /* the board has the focus */
	KEYS_MODE_PANEL,  /* the panel has the focus */
	KEYS_MODE_HELP,
	KEYS_MODE_DIALOG,
	KEYS_MODE_PV,     /* a line is shown on the board */
};

#define KEYS_MAX_CODES 6

struct keys_row {
	int mode;                    /* KEYS_MODE_* */
	int codes[KEYS_MAX_CODES];   /* the keys, 0-terminated; -1: any other key */
	int cmd;                     /* enum keys_command */
	unsigned need;               /* context bits that must all hold */
	unsigned any;                /* of which at least one must hold (0: none) */
	unsigned never;              /* context bits that must not hold */
	const char *keys;            /* help: "Arrows, h j k l"; NULL: not listed */
	const char *what;            /* help: what it does */
	const char *brief;           /* key line ("p pause"), NULL if not shown there */
	unsigned show;               /* context bits in which the key line shows it */
};

extern const struct keys_row keys_table[];
extern const int keys_count;

/* Does the situation CTX allow row R? The mode is part of it: the rows of
 * the help and the dialog only while they are open, the others only while
 * neither is; those of the panel only while it has the focus, those of
 * the board only while it has. */
static inline bool keys_allowed(const struct keys_row *r, unsigned ctx)
{
	unsigned modal = ctx & (KEYS_HELP | KEYS_DIALOG);
	bool mode_ok;

	switch (r->mode) {
	case KEYS_MODE_HELP: mode_ok = (ctx & KEYS_HELP) != 0; break;
	case KEYS_MODE_DIALOG: mode_ok = (ctx & KEYS_DIALOG) != 0; break;
	case KEYS_MODE_PV: mode_ok = !modal && (ctx & KEYS_PV); break;
	case KEYS_MODE_PANEL: mode_ok = !modal && (ctx & KEYS_PANEL) && !(ctx & KEYS_PV); break;
	case KEYS_MODE_BOARD: mode_ok = !modal && !(ctx & (KEYS_PANEL | KEYS_PV)); break;
	default: mode_ok = !modal;
	}
	return mode_ok && (ctx & r->need) == r->need && (r->any == 0 || (ctx & r->any) != 0) &&
	       (ctx & r->never) == 0;
}

/* The row of KEY in MODE (for MODE_BOARD, MODE_PANEL and MODE_PV the
 * mode's rows are tried first, then those of any mode) that the situation CTX allows,
 * with *OK true; else the first row of KEY there, with *OK false (the
 * command is refused); NULL when the key means nothing there. */
const struct keys_row *keys_find(int mode, int key, unsigned ctx, bool *ok);

/* The key line for the situation CTX: the keys that apply, as many as fit
 * WIDTH, always ending with "? help  q quit". */
char *keys_line(unsigned ctx, int width, char *buf, size_t size);

#endif
