#!/usr/bin/env python3
"""A / B of two or more `host bench attention --json` runs of one GPU call against cuDNN:
TFLOP/s of cuDNN and of each run, each run over cuDNN, then the first run over each other
run, per (head dim, seqlen, causal). A run may take only some head dims (`LABEL=FILE:64,256`: the other
head dims' rows of that file are ignored, so one column can join runs made under different
switches, e.g. "main's behaviour" = d64/d256 from one run and d128 from another).

    python3 tools/attention/ab_compare.py sdpa.json new=host-default.json \\
        main=host-direct.json:64,256 main=host-d128main.json:128

Columns of the same label are merged (the head dims must not overlap). Ratios of figures
from one GPU call only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import fmt, load_ours, load_sdpa  # noqa: E402


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        meta, sdpa = load_sdpa(sys.argv[1])
    except (OSError, ValueError) as e:
        print(f"(no cuDNN figures: {sys.argv[1]}: {e})")
        meta, sdpa = {}, {}
    runs = {}
    for arg in sys.argv[2:]:
        label, spec = arg.split("=", 1)
        path, _, dims = spec.partition(":")
        keep = {int(d) for d in dims.split(",")} if dims else None
        if not os.path.exists(path):
            print(f"(missing: {path})")
            continue
        for key, v in load_ours(path).items():
            if keep is None or key[0] in keep:
                runs.setdefault(label, {})[key] = v
    labels = list(runs)
    if not labels:
        print("no runs")
        return 1
    print(f"{meta.get('device')}, torch {meta.get('torch')}, cuDNN {meta.get('cudnn')}; bf16, "
          "16k tokens; ratios ours/cuDNN, and the first run over the others\n")
    head = ["head dim", "seqlen", "causal", "cuDNN"] + labels + \
        [f"{l}/cuDNN" for l in labels] + [f"{labels[0]}/{l}" for l in labels[1:]]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    keys = sorted(set(sdpa) | set().union(*[set(r) for r in runs.values()]))
    for key in keys:
        d, s, causal = key
        c = sdpa.get(key, {}).get("cudnn")
        vals = [runs[l].get(key) for l in labels]
        row = [str(d), str(s), "yes" if causal else "no", fmt(c, ".1f")]
        row += [fmt(v, ".1f") for v in vals]
        row += [fmt(v / c if v and c else None, ".3f") for v in vals]
        row += [fmt(vals[0] / v if vals[0] and v else None, ".3f") for v in vals[1:]]
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
