#!/usr/bin/env python3
"""Two rounds of an A/B of `host bench attention --json` runs made alternately in one GPU call
(main, new, main, new): per shape the TFLOP/s of each run, new/main per round, and the geometric
means of new/main with and without the causal mask.

    python3 tools/attention/ab_rounds.py MAIN1.json NEW1.json MAIN2.json NEW2.json
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import load_ours  # noqa: E402

if len(sys.argv) != 5:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
m1, n1, m2, n2 = (load_ours(p) for p in sys.argv[1:5])
print("| d | seqlen | causal | main 1 | new 1 | main 2 | new 2 | new/main 1 | new/main 2 |")
print("|---|---|---|---|---|---|---|---|---|")
g = {False: [], True: []}
for k in sorted(set(m1) & set(n1)):
    a, b, c, e = m1.get(k, float("nan")), n1.get(k, float("nan")), m2.get(k, float("nan")), n2.get(k, float("nan"))
    print(f"| {k[0]} | {k[1]} | {'yes' if k[2] else 'no'} | {a:.0f} | {b:.0f} | {c:.0f} | {e:.0f} | {b/a:.3f} | {e/c:.3f} |")
    for x in (b / a, e / c):
        if x == x:
            g[k[2]].append(math.log(x))
for c in (False, True):
    if g[c]:
        print(f"geomean new/main {'causal' if c else 'non-causal'}: {math.exp(sum(g[c]) / len(g[c])):.3f} (n={len(g[c])})")
