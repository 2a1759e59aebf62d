#!/usr/bin/env python3
"""Reads a CTA trace (`CUTE_RS_CTA_TRACE=FILE host gemm ...` with kernels built with
`CUTE_RS_KERNEL_FEATURES=hgemm_fp8/cta-trace`; the record format is `collective::trace`'s) and
prints each launch's timeline and, for the last PAIRS block-scaled splits (a 128 x 192 launch
with block scales followed by the rest's launch), where and when the second launch's CTAs ran.

  python3 cta_trace.py FILE [PAIRS]        (session 71; doc/fp8-gemm.md)
  python3 cta_trace.py FILE --phases [N]   (session 73) for the last N complete launches (default 4; 0: all):
      each consumer warpgroup's work units cut into phases, medians and 90th percentiles in us —
      from the CTA's start to its first unit, the mainloop (unit -> last wgmma retired), the fixup,
      the store, and the gap from one unit's store to the next unit's start — and the launch's
      time against the sum of its mainloops (what the per-tile phases cost; doc/hopper-gemm.md)
  python3 cta_trace.py FILE --timeline [N] (session 77) for the last N complete launches (default 4): where a
      launch's time goes beside its CTAs' work — the previous launch's last CTA end to this one's
      waits' return, the wait to the first unit, each CTA's work (first unit -> last store) and drain
      (last store -> its end), the CTAs' ends spread, the slowest CTA's tiles, and the SMs' idle time
"""
import struct
import sys
from collections import defaultdict

WORDS = 4
# records a module's ring holds (`collective::trace::CAP`)
CAP = 1 << 18
KINDS = ["start", "waited", "unit", "mma", "fixup", "stored", "end", "pend"]


def load(path):
    """Every module's ring in the file (`host gemm` writes each loaded module's trace, the
    counter word then `CAP` records, one module after the other): their records together, the
    counts summed."""
    data = open(path, "rb").read()
    n = len(data) // 8
    w = struct.unpack("<%dQ" % n, data[: 8 * n])
    per = 1 + CAP * WORDS
    mods = [w[o : o + per] for o in range(0, n, per)] if n % per == 0 else [w]
    count, recs = 0, []
    for m in mods:
        cap = (len(m) - 1) // WORDS
        c = m[0] & 0xFFFFFFFF
        count += c
        for i in range(min(c, cap)):
            g, w1, w2, t = m[1 + WORDS * i : 1 + WORDS * (i + 1)]
            if t == 0:
                continue
            recs.append(
                dict(
                    grid=g,
                    kind=KINDS[w1 & 15],
                    wg=(w1 >> 4) & 15,
                    sm=(w1 >> 8) & 255,
                    cta=(w1 >> 16) & 0xFFFF,
                    tag=w1 >> 32,
                    a=w2 & 0xFFFFFFFF,
                    b=w2 >> 32,
                    t=t,
                )
            )
    return count, CAP, recs


def tag_str(tag):
    bn, stage, splits, waits = tag & 0xFFF, (tag >> 12) & 0x3FFFF, (tag >> 30) & 1, tag >> 31
    return f"BN{bn} scales{stage}B {'split' if splits else 'dp'} {'waits' if waits else 'beside'}"


def complete_launches(recs):
    """The launches whose every CTA's start and consumer ends are in the ring, oldest first."""
    grids = defaultdict(list)
    for r in recs:
        grids[r["grid"]].append(r)
    out = []
    for g, rs in grids.items():
        starts = [r for r in rs if r["kind"] == "start"]
        if not starts:
            continue
        ctas = {r["cta"] for r in starts}
        if len({r["cta"] for r in rs if r["kind"] == "end"}) < len(ctas):
            continue
        t0 = min(r["t"] for r in starts)
        t1 = max(r["t"] for r in rs if r["kind"] in ("end", "pend"))
        out.append(dict(grid=g, tag=starts[0]["tag"], ctas=len(ctas), t0=t0, t1=t1, recs=rs))
    out.sort(key=lambda x: x["t0"])
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def phases(path, n):
    """Each complete launch's work units by phase (see the module's doc)."""
    count, cap, recs = load(path)
    launches = complete_launches(recs)
    print(f"records {count} (ring {cap}), complete launches {len(launches)}; phases of the last {n}, us")
    for x in launches[-n:]:
        ph = defaultdict(list)
        mainloops = 0.0
        by = defaultdict(list)
        starts = {}
        for r in sorted(x["recs"], key=lambda r: r["t"]):
            if r["kind"] == "start":
                starts[r["cta"]] = r["t"]
            by[(r["cta"], r["wg"])].append(r)
        for (cta, wg), rs in by.items():
            units, cur = [], None
            for r in rs:
                k = r["kind"]
                if k == "unit":
                    cur = dict(t=r["t"], kc=r["b"] >> 16)
                    units.append(cur)
                elif k in ("mma", "fixup", "stored") and cur is not None:
                    cur[k] = r["t"]
            if units and cta in starts:
                ph["start -> first unit"].append((units[0]["t"] - starts[cta]) / 1e3)
            for i, u in enumerate(units):
                if "mma" in u:
                    ph["mainloop"].append((u["mma"] - u["t"]) / 1e3)
                    if u["kc"]:
                        ph["mainloop per k-tile"].append((u["mma"] - u["t"]) / 1e3 / u["kc"])
                    mainloops += (u["mma"] - u["t"]) / 1e3
                if "mma" in u and "fixup" in u:
                    ph["fixup"].append((u["fixup"] - u["mma"]) / 1e3)
                if "fixup" in u and "stored" in u:
                    ph["store"].append((u["stored"] - u["fixup"]) / 1e3)
                if i + 1 < len(units) and "stored" in u:
                    ph["stored -> next unit"].append((units[i + 1]["t"] - u["stored"]) / 1e3)
        span = (x["t1"] - x["t0"]) / 1e3
        wgs = len(by)
        print(f"\n  grid {x['grid']} {tag_str(x['tag'])} ctas {x['ctas']}: {span:.1f} us; "
              f"mainloops {mainloops / max(wgs, 1):.1f} us a warpgroup on average ({wgs} warpgroups)")
        for k in ("start -> first unit", "mainloop", "mainloop per k-tile", "fixup", "store", "stored -> next unit"):
            v = ph[k]
            if v:
                print(f"    {k:<22} n {len(v):>5}  median {pct(v, 0.5):8.3f}  p90 {pct(v, 0.9):8.3f}  "
                      f"sum/warpgroup {sum(v) / max(wgs, 1):8.2f}")


def timeline(path, n):
    """Each of the last N complete launches as a whole (see the module's doc)."""
    count, cap, recs = load(path)
    launches = complete_launches(recs)
    print(f"records {count} (ring {cap}), complete launches {len(launches)}; timelines of the last {n}, us")
    q = lambda v: f"min {min(v):7.2f} med {pct(v, 0.5):7.2f} p90 {pct(v, 0.9):7.2f} max {max(v):7.2f}" if v else "-"
    prev = None
    for x in launches[-(n + 1):]:
        c = per_cta(x)
        # each CTA's end: its consumers' and producer's last record
        ends = {cta: max(d["end"] + ([d["pend"]] if d["pend"] else [])) for cta, d in c.items() if d["end"]}
        first = {cta: d["units"][0]["t"] for cta, d in c.items() if d["units"]}
        t0 = min(first.values())
        if prev is None:
            prev = (ends, {c[cta]["sm"]: t for cta, t in ends.items()}, t0)
            continue
        pe, psm, prev_t0 = prev
        prev = (ends, {c[cta]["sm"]: t for cta, t in ends.items()}, t0)
        prev_last = max(pe.values())
        period = (t0 - prev_t0) / 1e3
        waited = [d["waited"] for d in c.values() if d["waited"]]
        last_st = {cta: max(u["stored"] for u in d["units"] if "stored" in u)
                   for cta, d in c.items() if any("stored" in u for u in d["units"])}
        us = lambda t: (t - t0) / 1e3
        print(f"\n  grid {x['grid']} {tag_str(x['tag'])} ctas {x['ctas']}: first unit -> last end "
              f"{us(max(ends.values())):.1f}; previous grid's last end -> this grid's first unit "
              f"{(t0 - prev_last) / 1e3:+.2f}; period (previous first unit -> this one's) {period:.1f}")
        if waited:
            print(f"    previous last end -> waited   {q([(w - prev_last) / 1e3 for w in waited])}")
            print(f"    waited -> first unit          {q([(first[cta] - d['waited']) / 1e3 for cta, d in c.items() if d['waited'] and cta in first])}")
        print(f"    first unit (from the earliest) {q([us(t) for t in first.values()])}")
        work = {cta: (last_st[cta] - first[cta]) / 1e3 for cta in last_st if cta in first}
        print(f"    work (first unit -> last store) {q(list(work.values()))}")
        print(f"    drain (last store -> CTA end)  {q([(ends[cta] - last_st[cta]) / 1e3 for cta in last_st if cta in ends])}")
        print(f"    CTA end (from the earliest unit) {q([us(t) for t in ends.values()])}")
        idle = [(first[cta] - psm[c[cta]["sm"]]) / 1e3 for cta in first if c[cta]["sm"] in psm]
        print(f"    SM idle (its previous CTA's end -> this CTA's first unit) {q(idle)}; sum {sum(idle):.0f} "
              f"over {len(idle)} SMs")
        ml = [sum((u["mma"] - u["t"]) / 1e3 for u in d["units"] if "mma" in u) for d in c.values()]
        print(f"    a CTA's mainloops (warpgroup 0) {q(ml)}: {sum(ml) / len(ml) / period:.3f} of the period")
        slow = max(ends, key=ends.get)
        d = c[slow]
        mls = [(u["mma"] - u["t"]) / 1e3 for cta_d in c.values() for u in cta_d["units"] if "mma" in u]
        print(f"    slowest CTA {slow} (SM {d['sm']}, cluster {d['cluster']}): first unit {us(first[slow]):.2f}, "
              f"end {us(ends[slow]):.2f}; its tiles' mainloops "
              f"{[round((u['mma'] - u['t']) / 1e3, 2) for u in d['units'] if 'mma' in u]} (all tiles' median "
              f"{pct(mls, 0.5):.2f})")


def main():
    path = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--timeline":
        return timeline(path, int(sys.argv[3]) if len(sys.argv) > 3 else 4)
    if len(sys.argv) > 2 and sys.argv[2] == "--phases":
        return phases(path, int(sys.argv[3]) if len(sys.argv) > 3 else 4)
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    count, cap, recs = load(path)
    info = complete_launches(recs)
    print(f"records {count} (ring {cap}), complete launches {len(info)}")
    prev = None
    for x in info[-24:]:
        gap = (x["t0"] - prev["t1"]) / 1e3 if prev else 0.0
        print(
            f"  grid {x['grid']:>6} {tag_str(x['tag']):<34} ctas {x['ctas']:>4} "
            f"{(x['t1'] - x['t0']) / 1e3:8.1f} us  start-after-prev-end {gap:+7.1f} us"
        )
        prev = x
    # the block splits: a BN192 launch with scales, then a launch that starts before it ends
    found = []
    for i in range(len(info) - 1):
        a, b = info[i], info[i + 1]
        if (a["tag"] & 0xFFF) == 192 and ((a["tag"] >> 12) & 0x3FFFF) > 0 and b["t0"] < a["t1"] + 5000:
            found.append((a, b))
    for a, b in found[-pairs:]:
        report(a, b)


def per_cta(x):
    c = defaultdict(lambda: dict(units=[], start=None, end=[], waited=None, pend=None, sm=None, cluster=None))
    open_unit = {}
    for r in sorted(x["recs"], key=lambda r: r["t"]):
        d = c[r["cta"]]
        d["sm"] = r["sm"]
        k = r["kind"]
        if k == "start":
            d["start"], d["cluster"] = r["t"], r["a"]
        elif k == "waited":
            d["waited"] = r["t"]
        elif k == "pend":
            d["pend"] = r["t"]
        elif k == "end":
            d["end"].append(r["t"])
        elif k == "unit" and r["wg"] == 0:
            u = dict(tile=r["a"], kb=r["b"] & 0xFFFF, kc=r["b"] >> 16, t=r["t"])
            d["units"].append(u)
            open_unit[r["cta"]] = u
        elif k in ("mma", "fixup", "stored") and r["wg"] == 0 and r["cta"] in open_unit:
            u = open_unit[r["cta"]]
            u[k] = r["t"]
            if k == "fixup":
                u["stores"] = r["b"]
    return c


def report(a, b):
    t0 = a["t0"]
    us = lambda t: (t - t0) / 1e3 if t is not None else float("nan")
    ca, cb = per_cta(a), per_cta(b)
    ends_a = sorted(max(d["end"]) for d in ca.values() if d["end"])
    print(f"\n== pair: grid {a['grid']} ({tag_str(a['tag'])}, {a['ctas']} CTAs) then grid {b['grid']} "
          f"({tag_str(b['tag'])}, {b['ctas']} CTAs); times in us from the first launch's first start")
    print(f"first launch: starts {us(min(d['start'] for d in ca.values())):.1f}..{us(max(d['start'] for d in ca.values())):.1f}, "
          f"ends: first 24 {[round(us(t), 1) for t in ends_a[:24]]}, last {us(ends_a[-1]):.1f}")
    units_a = sorted(len(d["units"]) for d in ca.values())
    print(f"first launch units a CTA: {dict((n, units_a.count(n)) for n in sorted(set(units_a)))}")
    early = sorted((d["start"], cta) for cta, d in cb.items() if d["start"] is not None and d["start"] < ends_a[-1])
    print(f"second launch: CTAs started before the first's last end: {len(early)}: "
          f"{[(cta, round(us(t), 1)) for t, cta in early[:40]]}")
    sms_a_early = {ca[cta]['sm'] for cta in ca if ca[cta]['end'] and max(ca[cta]['end']) < ends_a[-1] - 5000}
    print(f"  SMs the first launch left >5 us before its end: {len(sms_a_early)}; second-launch CTAs on them: "
          f"{sorted(cta for cta, d in cb.items() if d['sm'] in sms_a_early)[:40]}")
    last_b = max(max(d["end"]) for d in cb.values() if d["end"])
    print(f"second launch: first start {us(min(d['start'] for d in cb.values())):.1f}, last end {us(last_b):.1f}, "
          f"after the first's last end by {(last_b - ends_a[-1]) / 1e3:.1f} us")
    print("  cta cl  sm  start  waited  [tile kb+kc unit mma fixup(stores) stored]...  end pend")
    for cta in sorted(cb):
        d = cb[cta]
        us_ = " ".join(
            f"[{u['tile']} {u['kb']}+{u['kc']} {us(u['t']):.1f} {us(u.get('mma')):.1f} {us(u.get('fixup')):.1f}({u.get('stores', '-')}) {us(u.get('stored')):.1f}]"
            for u in d["units"]
        )
        print(f"  {cta:>3} {d['cluster']:>3} {d['sm']:>3} {us(d['start']):6.1f} {us(d['waited']):6.1f} {us_} "
              f"{us(max(d['end'])) if d['end'] else float('nan'):6.1f} {us(d['pend']):6.1f}")


if __name__ == "__main__":
    main()
