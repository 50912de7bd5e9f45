/* main.c - the program's entry point. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

/* At exit, whatever the path to it: output that could not be written
 * (a full disk, a closed descriptor) is an error, not a success. */
static void close_stdout(void)
{
	int failed = ferror(stdout);

	if (fclose(stdout) != 0)
		failed = 1;
	else
		errno = failed ? EIO : 0;
	if (failed) {
		fprintf(stderr, "noughts: cannot write the output: %s\n",
			errno != 0 ? strerror(errno) : "error");
		_exit(1);
	}
}

int main(int argc, char **argv)
{
	atexit(close_stdout);
	return commands_main(argc, argv);
}
