/* fuzz-record.c - libFuzzer target: the game record reader. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct record r, again;
	char err[512], *text;
	size_t len;
	FILE *f;

	if (record_parse((const char *)data, size, "fuzz", &r, err, sizeof(err)) != 0)
		return 0;
	/* A record that reads must write out as one that reads the same. */
	f = open_memstream(&text, &len);
	record_print(&r, f);
	fclose(f);
	if (record_parse(text, len, "again", &again, err, sizeof(err)) != 0 ||
	    again.nmoves != r.nmoves || again.result != r.result)
		__builtin_trap();
	free(text);
	return 0;
}
