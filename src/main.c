/* main.c - the program's entry point. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "commands.h"

/* Close standard output: false, with the reason on stderr, if what was
 * written to it could not all be (a full disk, a closed descriptor). A
 * closed one that was never written to is no failure. */
static bool stdout_closed(void)
{
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
	int why = 0;

	if (fclose(stdout) != 0 && (pending || errno != EBADF)) {
		failed = true;
		why = errno;
	}
	if (failed)
		fprintf(stderr, "noughts: cannot write the output%s%s\n", why != 0 ? ": " : "",
			why != 0 ? strerror(why) : "");
	return !failed;
}

int main(int argc, char **argv)
{
	int rc = commands_main(argc, argv);

	/* (a command that failed has said why, the output's trouble included) */
	if (rc == 0 && !stdout_closed())
		rc = 1;
	return rc;
}
