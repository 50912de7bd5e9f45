#!/usr/bin/env python3
"""Run the real analyze (and, near the end, solve) on the positions
test-uttt-wins prints with their independent values, and compare.
Usage:
    tests/test-uttt-wins 250 9200001 > positions.txt
    python3 tests/uttt-wins-cli.py positions.txt ./noughts
(analyze with its defaults: every core; 250 of each kind take a few
minutes.)"""
import json, subprocess, sys

lines = open(sys.argv[1]).read().splitlines()
noughts = sys.argv[2]
count = {'near the end': [0, 0, 0], 'mid-game': [0, 0, 0]}
for i, l in enumerate(lines):
    if not l.startswith('# seed ') or ', win in ' not in l:
        continue
    head, moves = l.split(': ', 1)
    d = int(head.rsplit(' ', 1)[1])
    kind = 'near the end' if 'near the end' in head else 'mid-game'
    truth = {}
    for item in lines[i + 1][3:].split(', '):
        parts = item.split()
        truth[parts[0]] = (parts[1], int(parts[2]) if len(parts) > 2 else None)
    fastest = {m for m, v in truth.items() if v == ('win', d)}
    c = count[kind]
    c[0] += 1
    a = json.loads(subprocess.run([noughts, 'analyze', '--game', 'uttt', '--moves', moves,
                                   '--engine', 'mcts:iterations=50000', '--json'],
                                  capture_output=True, text=True, check=True).stdout)
    good = a['best'] in fastest and a['proven'] == 'win' and a.get('proven_plies') == d
    c[1] += good
    if not good:
        print('analyze', kind, moves, a['best'], a['proven'], a.get('proven_plies'), 'want', sorted(fastest), d)
    if kind != 'near the end':
        continue
    s = json.loads(subprocess.run([noughts, 'solve', '--game', 'uttt', '--moves', moves, '--json'],
                                  capture_output=True, text=True, check=True).stdout)
    got = {m['move']: (m['value'], m['plies'] if m['value'] != 'draw' else None) for m in s['moves']}
    good = (set(s['best']) == fastest and s['value'] == 'win' and s['plies'] == d
            and got == truth and not s['unsettled'])
    c[2] += good
    if not good:
        print('solve', moves, s['best'], s['value'], s['plies'], got, 'want', truth)
for kind, c in count.items():
    print(f'{kind}: {c[0]} positions: analyze plays a fastest win and proves it in {c[1]}'
          + (f', solve agrees with the independent search in {c[2]}' if kind == 'near the end' else ''))
