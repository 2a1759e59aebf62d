#!/usr/bin/env python3
"""Reads ncu's per-SASS source counters (the `src-NAME.csv[.xz]` files `tools/gpu/lib.sh`'s `ncu_src` writes:
`ncu -i REP --page source --csv --print-source sass`) and prints, per file, the warp-state samples by stall reason,
the instructions executed and sampled per opcode, and the most sampled instructions with their two largest reasons.
Written for the FP8 block/per-tensor comparison of session 27 (doc/fp8-gemm.md); any kernel's file reads the same.

usage: tools/ncu_source.py [--top N] [--stall REASON] FILE...

    python3 tools/ncu_source.py --stall dispatch src-block7168x16384.csv.xz src-pt7168x16384.csv.xz

`--stall REASON` (e.g. `dispatch`, `wait`, `long_sb`) adds that reason's share to each opcode's row.
"""
import collections
import csv
import io
import lzma
import sys


def rows(path):
    """The header and the instruction rows of one source-page CSV (its first line names the kernel)."""
    raw = lzma.open(path).read() if path.endswith(".xz") else open(path, "rb").read()
    lines = list(csv.reader(io.StringIO(raw.decode())))
    kernel = lines[0][1] if len(lines[0]) > 1 else "?"
    return kernel, lines[1], [r for r in lines[2:] if len(r) == len(lines[1])]


def number(text):
    try:
        return int(text)
    except ValueError:
        return 0


def opcode(source):
    """`@!P0 BRA 0x…` → `BRA`; `FFMA R8, …` → `FFMA`; `QGMMA.64x192x32…` → `QGMMA`."""
    words = source.split()
    if not words:
        return "?"
    op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return op.split(".")[0]


def report(path, top, stall):
    kernel, header, data = rows(path)
    at = {h: i for i, h in enumerate(header)}
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    samples = lambda r: number(r[at["Warp Stall Sampling (All Samples)"]])
    executed = lambda r: number(r[at["Instructions Executed"]])
    total = sum(samples(r) for r in data) or 1
    print(f"{path}: {kernel}")
    print(f"  {total} samples, {sum(executed(r) for r in data) / 1e6:.2f} M warp instructions executed")
    by_reason = collections.Counter()
    for r in data:
        for s in reasons:
            by_reason[s] += number(r[at[s]])
    print("  stalls: " + ", ".join(f"{k[6:]} {v / total:.1%}" for k, v in by_reason.most_common(10)))
    ops, op_samples, op_stall = collections.Counter(), collections.Counter(), collections.Counter()
    for r in data:
        o = opcode(r[at["Source"]])
        ops[o] += executed(r)
        op_samples[o] += samples(r)
        if stall:
            op_stall[o] += number(r[at["stall_" + stall]])
    print(f"  {'opcode':12} {'executed':>10} {'samples':>8}" + (f" {stall:>9}" if stall else ""))
    for o, n in ops.most_common(top):
        line = f"  {o:12} {n / 1e6:9.2f}M {op_samples[o] / total:8.1%}"
        print(line + (f" {op_stall[o] / total:9.1%}" if stall else ""))
    print("  most sampled instructions:")
    for r in sorted(data, key=lambda r: -samples(r))[:top]:
        two = sorted(((number(r[at[s]]), s[6:]) for s in reasons), reverse=True)[:2]
        why = ", ".join(f"{name} {n}" for n, name in two if n)
        print(f"  {samples(r) / total:6.1%} x{executed(r):>9}  {r[at['Source']].strip()[:64]:64}  {why}")


def main():
    args, top, stall = sys.argv[1:], 16, None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--top" and args:
            top = int(args.pop(0))
        elif flag == "--stall" and args:
            stall = args.pop(0)
        else:
            sys.exit(__doc__)
    if not args:
        sys.exit(__doc__)
    for path in args:
        report(path, top, stall)


if __name__ == "__main__":
    main()
