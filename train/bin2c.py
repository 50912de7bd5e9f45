#!/usr/bin/env python3
"""bin2c.py NETWORK.bin OUT.c: write a network file as the C array that
src/nnue.c builds in (nnue_uttt_data, nnue_uttt_size)."""
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    lines = ["/* nnue-uttt.c - the built-in network of Ultimate tic-tac-toe: the bytes of",
             " * train/uttt.bin, written by train/bin2c.py (do not edit; see train/README). */",
             "#include \"config.h\"", "", "#include \"nnue.h\"", "",
             "const size_t nnue_uttt_size = %d;" % len(data),
             "const unsigned char nnue_uttt_data[] = {"]
    for i in range(0, len(data), 24):
        lines.append("\t" + ",".join(str(b) for b in data[i:i + 24]) + ",")
    lines.append("};")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
