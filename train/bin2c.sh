#!/bin/sh
# bin2c.sh FILE: the bytes of FILE, a network file, as the C array that
# src/nnue.c builds in (nnue_uttt_data, nnue_uttt_size), on stdout. Run by
# make to build the shipped network (train/uttt.bin) into the program.
set -e
size=$(wc -c <"$1")
printf '%s\n' \
	"/* nnue-uttt.c - the built-in network of Ultimate tic-tac-toe: the bytes of" \
	" * train/uttt.bin, made by train/bin2c.sh when noughts is built. */" \
	'#include "config.h"' '' '#include "nnue.h"' '' \
	"const size_t nnue_uttt_size = $((size));" \
	'const unsigned char nnue_uttt_data[] = {'
od -An -v -tu1 "$1" | awk '
	{
		for (i = 1; i <= NF; i++) {
			line = line $i ","
			if (++n % 24 == 0) {
				print "\t" line
				line = ""
			}
		}
	}
	END {
		if (line != "")
			print "\t" line
		print "};"
	}'
