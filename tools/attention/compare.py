#!/usr/bin/env python3
"""Joins `host bench attention --json` (ours) with `sdpa_bench.py --json` (torch's cuDNN and
FlashAttention-2 backends) on (head dim, seqlen, causal) and prints TFLOP/s and the ratios
ours/cuDNN and ours/FA2, as a Markdown table.

    host bench attention --json > host.json
    python3 tools/attention/sdpa_bench.py --json > sdpa.json
    python3 tools/attention/compare.py host.json sdpa.json

(`host bench attention --csv` output works too.) Ratios of figures from one GPU call only.
"""
import csv
import json
import re
import sys


def load_ours(path):
    text = open(path).read()
    # from the first line that opens the JSON array (anything printed before it is skipped)
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("[")), None)
    try:
        rows = json.loads("\n".join(lines[start:])) if start is not None else json.loads(text)
    except json.JSONDecodeError:
        rows = list(csv.DictReader(text.splitlines()))
    out = {}
    for r in rows:
        if r.get("family") != "attention":
            continue
        v = re.match(r"(\w+) d(\d+)( causal)?", r["variant"])
        s = re.search(r"\bs(\d+)", r["size"])
        if not v or not s:
            continue
        key = (int(v.group(2)), int(s.group(1)), bool(v.group(3)))
        try:
            out[key] = float(r["ours_rate"])
        except (KeyError, TypeError, ValueError):
            continue  # a row the run could not time (e.g. a variant without an entry)
    return out


def load_sdpa(path):
    data = json.load(open(path))
    out = {}
    for r in data["rows"]:
        key = (r["head_dim"], r["seqlen"], r["causal"])
        out.setdefault(key, {})[r["backend"]] = r.get("tflops")
    return data, out


def fmt(x, spec):
    return format(x, spec) if isinstance(x, (int, float)) else "-"


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    ours = load_ours(sys.argv[1])
    meta, sdpa = load_sdpa(sys.argv[2])
    print(f"{meta.get('device')}, torch {meta.get('torch')}, cuDNN {meta.get('cudnn')}; bf16, "
          "16k tokens, TFLOP/s = 4*b*h*s^2*d / t (halved for causal)\n")
    print("| head dim | seqlen | causal | ours | cuDNN | FA2 | ours/cuDNN | ours/FA2 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for key in sorted(set(ours) | set(sdpa)):
        d, s, causal = key
        o = ours.get(key)
        c = sdpa.get(key, {}).get("cudnn")
        f = sdpa.get(key, {}).get("fa2")
        rc = o / c if o and c else None
        rf = o / f if o and f else None
        print(f"| {d} | {s} | {'yes' if causal else 'no'} | {fmt(o, '.1f')} | {fmt(c, '.1f')} "
              f"| {fmt(f, '.1f')} | {fmt(rc, '.3f')} | {fmt(rf, '.3f')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
