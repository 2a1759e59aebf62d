"""ab-three-modules-table.py DIR: host bench attention runs main-R, u128-R, cand-R (R = 1, 2): per shape TFLOP/s and ratios to main."""
import sys, math, glob, os
sys.path.insert(0, "tools/attention")
from compare import load_ours
d = sys.argv[1]
runs = {}
for p in glob.glob(os.path.join(d, "ab-*.json")):
    v, r = os.path.basename(p)[3:-5].rsplit("-", 1)
    runs[(v, int(r))] = load_ours(p)
def mean(v, k):
    xs = [runs[(v, r)][k] for r in (1, 2) if (v, r) in runs and k in runs[(v, r)]]
    return sum(xs) / len(xs) if xs else float("nan")
keys = sorted(set().union(*[set(x) for x in runs.values()]))
print("| d | seqlen | causal | main | u128 | cand | u128/main | cand/main | main r1/r2 |")
print("|---|---|---|---|---|---|---|---|---|")
g = {}
for k in keys:
    m, u, c = mean("main", k), mean("u128", k), mean("cand", k)
    r12 = runs.get(("main", 1), {}).get(k, float("nan")) / runs.get(("main", 2), {}).get(k, float("nan"))
    print(f"| {k[0]} | {k[1]} | {'yes' if k[2] else 'no'} | {m:.0f} | {u:.0f} | {c:.0f} | {u/m:.3f} | {c/m:.3f} | {r12:.3f} |")
    for name, x in (("u128", u / m), ("cand", c / m), ("main r1/r2", r12)):
        if x == x:
            g.setdefault((name, k[2]), []).append(math.log(x))
for (name, causal), xs in sorted(g.items()):
    print(f"geomean {name} {'causal' if causal else 'non-causal'}: {math.exp(sum(xs)/len(xs)):.3f} (n={len(xs)})")
