#!/usr/bin/env python3
"""The phase table of one `host attention --trace FILE` (doc/attention.md, session 13): the mean
cycles of each phase of a tile, per consumer warpgroup, the producer's waits, and the fit of a
tile's time T = F + n·B over its key blocks n.

    python3 tools/attention/phase_times.py FILE [--json]

FILE holds the trace words (little-endian u64, `(TRACE_WORDS, TRACE_ROLES, grid, rounds)`
column-major), FILE.json their layout and names (written by `host attention --trace`). A tile's
time T is from its `fetch` (the tile loop's top) to the same warpgroup's next `fetch` (its last
tile: to its `end`); the loop's B is (`loop` − `softmax0`) / (n − 1) over tiles with n ≥ 2.
Pure Python (no numpy).
"""
import json
import struct
import sys

PHASES = [  # (name, from event, to event)
    ("fetch", "fetch", "fetched"),
    ("q wait", "fetched", "q"),
    ("k0 wait", "q", "k0"),
    ("S0", "k0", "s0"),
    ("softmax0", "s0", "softmax0"),
    ("loop (n-1 blocks)", "softmax0", "loop"),
    ("last V wait", "loop", "v_last"),
    ("last PV", "v_last", "pv_last"),
    ("sums", "pv_last", "sums"),
    ("O store", "sums", "o"),
    ("LSE", "o", "end"),
    ("to next tile", "end", "next"),
]
PRODUCER = [
    ("Q empty wait", "start", "q_acquired"),
    ("K0 empty wait", "q_acquired", "k0_acquired"),
    ("V0 empty wait", "k0_acquired", "v0_acquired"),
    ("rest of loads", "v0_acquired", "end"),
    ("to next tile", "end", "next"),
]


def load(path):
    meta = json.load(open(path + ".json"))
    raw = open(path, "rb").read()
    words = struct.unpack("<%dQ" % (len(raw) // 8), raw)
    nw, roles, grid, rounds = meta["words"], meta["roles"], meta["grid"], meta["rounds"]
    assert len(words) == nw * roles * grid * rounds, (len(words), nw, roles, grid, rounds)

    def slot(round_, cta, role):
        at = nw * (role + roles * (cta + grid * round_))
        return words[at : at + nw]

    return meta, slot


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def fit(points):
    """Least squares T = F + n·B over (n, T); (F, B) or None if n does not vary."""
    if len({n for n, _ in points}) < 2:
        return None
    mn, mt = mean([n for n, _ in points]), mean([t for _, t in points])
    sxx = sum((n - mn) ** 2 for n, _ in points)
    sxy = sum((n - mn) * (t - mt) for n, t in points)
    b = sxy / sxx
    return mt - b * mn, b


def analyse(path):
    meta, slot = load(path)
    ev, pev = meta["consumer"], meta["producer"]
    grid, rounds, roles = meta["grid"], meta["rounds"], meta["roles"]
    out = {"kernel": meta["kernel"], "grid": grid, "roles": {}}
    tiles = []  # consumer tiles: dict of phase -> cycles, n, T
    for role in range(1, roles):
        for cta in range(grid):
            seq = [slot(r, cta, role) for r in range(rounds)]
            seq = [w for w in seq if w[ev["end"]] != 0]
            for j, w in enumerate(seq):
                t = {e: w[i] for e, i in ev.items()}
                t["next"] = seq[j + 1][ev["fetch"]] if j + 1 < len(seq) else t["end"]
                n = t["n_blocks"]
                if n == 0:
                    continue
                d = {}
                for name, a, b in PHASES:
                    if name.startswith("loop") and n < 2:
                        d[name] = 0
                        continue
                    d[name] = t[b] - t[a]
                tiles.append({"role": role, "n": n, "T": t["next"] - t["fetch"], "ph": d,
                              "last": j + 1 == len(seq)})
    prod = []
    for cta in range(grid):
        seq = [slot(r, cta, 0) for r in range(rounds)]
        seq = [w for w in seq if w[pev["end"]] != 0]
        for j, w in enumerate(seq):
            t = {e: w[i] for e, i in pev.items()}
            t["next"] = seq[j + 1][pev["start"]] if j + 1 < len(seq) else t["end"]
            prod.append({name: t[b] - t[a] for name, a, b in PRODUCER})
    body = [x for x in tiles if not x["last"]]  # T of the last tile lacks the next fetch
    loops = [x["ph"]["loop (n-1 blocks)"] / (x["n"] - 1) for x in tiles if x["n"] >= 2]
    b_loop = mean(loops)
    out["tiles"] = len(tiles)
    out["mean_n"] = mean([x["n"] for x in tiles])
    out["T"] = mean([x["T"] for x in body])
    out["B_loop"] = b_loop
    out["phases"] = {name: mean([x["ph"][name] for x in tiles]) for name, _, _ in PHASES}
    # F from the phases: T − n·B with B the loop's per-block cycles
    out["F_phase"] = mean([x["T"] - x["n"] * b_loop for x in body])
    f = fit([(x["n"], x["T"]) for x in body])
    out["fit"] = {"F": f[0], "B": f[1]} if f else None
    out["producer"] = {name: mean([p[name] for p in prod]) for name, _, _ in PRODUCER}
    # per n (causal): mean T
    by_n = {}
    for x in body:
        by_n.setdefault(x["n"], []).append(x["T"])
    out["T_by_n"] = {n: mean(v) for n, v in sorted(by_n.items())}
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    r = analyse(sys.argv[1])
    if "--json" in sys.argv:
        print(json.dumps(r))
        return
    print(f"{r['kernel']}: {r['tiles']} tiles, mean n {r['mean_n']:.2f}, T {r['T']:.0f} cycles, "
          f"B(loop) {r['B_loop']:.0f}, F = T - n*B {r['F_phase']:.0f} ({r['F_phase'] / r['B_loop']:.2f} B)")
    if r["fit"]:
        print(f"  fit T = F + n*B: F {r['fit']['F']:.0f}, B {r['fit']['B']:.0f}")
    print("  " + " | ".join(f"{k} {v:.0f}" for k, v in r["phases"].items()))
    print("  producer: " + " | ".join(f"{k} {v:.0f}" for k, v in r["producer"].items()))


if __name__ == "__main__":
    main()
