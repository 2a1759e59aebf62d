#!/usr/bin/env python3
"""Re-runs gen_mma.py reusing the executables an interrupted run left in its --workdir: every case
body found in a compiled batch takes that batch's result; with SALVAGE_ONLY=1 a body found in no
compiled batch is dropped as a compile failure (right only for ops whose batches all compiled)."""
import os, re, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen, gen_mma  # noqa: E402

W = sys.argv[sys.argv.index("--workdir") + 1]
cache = {}
for f in sorted(os.listdir(W)):
    exe = os.path.join(W, f[:-4])
    if not f.endswith(".cpp") or not os.path.exists(exe):
        continue
    lines = open(os.path.join(W, f)).read().split("\n")
    bodies = [lines[i + 1][2:] for i, l in enumerate(lines) if re.match(r"static void case_\d+\(\) \{$", l)]
    out = subprocess.run([exe], capture_output=True, text=True, timeout=900).stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r"@@(\d+) (.*)$", line)
        if m:
            res[int(m.group(1))] = m.group(2).strip()
    for k, b in enumerate(bodies):
        v = res.get(k)
        cache[b] = None if v in (None, "!CRASH") else v
    print(f"cached {f}: {len(bodies)} cases", flush=True)

orig = gen.run_batch
only = os.environ.get("SALVAGE_ONLY") == "1"


def run_batch(bodies, workdir, name, log):
    res, dropped = [None] * len(bodies), {}
    miss = [i for i, b in enumerate(bodies) if b not in cache]
    if miss and not only:
        r2, d2 = orig([bodies[i] for i in miss], workdir, name + "_s", log)
        for j, i in enumerate(miss):
            res[i] = r2[j]
            if j in d2:
                dropped[i] = d2[j]
    elif miss:
        for i in miss:
            dropped[i] = "compile"
    for i, b in enumerate(bodies):
        if b in cache:
            res[i] = cache[b]
            if res[i] is None:
                dropped[i] = "crash"
    log(f"  {name}: {len(bodies) - len(miss)} cached, {len(miss)} missing")
    return res, dropped


gen.run_batch = run_batch
sys.argv = [sys.argv[0]] + sys.argv[1:]
gen_mma.main()
