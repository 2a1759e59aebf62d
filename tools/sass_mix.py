#!/usr/bin/env python3
"""Main-loop SASS instruction mix of the SGEMM entries (the GEMM's performance proxy without a GPU).

usage: tools/sass_mix.py PTXAS CUOBJDUMP OUTDIR target/ptx/gemm_n.ptx target/ptx/gemm_t.ptx

Assembles each PTX module for sm_90a (`ptxas -arch=sm_90a -O3`), disassembles it
(`cuobjdump -sass`) and prints, for every `sgemm_*` entry, each loop (a backward branch) with at
least 256 FFMA — the k-tile loops: the interior fast path (the shorter one) and the predicated
edge path — and its instruction counts: all, FFMA, LDS.128, other LDS, LDG.128, other LDG, STS,
BAR; `lead`: the fewest instructions from a 128-bit global load to the shared store that consumes
it, in loop order (about 470 when ptxas leaves the loads at the top of the loop; 160 or less when
it sinks one, which one 8-warp CTA per SM cannot hide: issue #12's NN regression); `bank`: the
loop's FFMAs that read two different registers of one register bank (`R % 2`) that the operand
reuse cache does not supply (the previous instruction's `.reuse` on the same operand slot and
register) -- a model of the register-bank conflicts that ncu reports as `dispatch_stall`
(it predicted which FFMA orders helped, `gemm::FmaOrder`); `fn` is the whole function's
instruction count. ptxas: `target/cuda-tools/nvidia/cu13/bin/ptxas`
(`cargo xtask build-kernels` installs it); cuobjdump: `pip install --target DIR
nvidia-cuda-cuobjdump`.
"""
import collections
import os
import re
import subprocess
import sys


def bank_conflict(op, text, cached):
    """1 if the FFMA `text` reads two different registers of one bank (`R % 2`) that the reuse
    cache `cached` (operand slot -> register, from the previous instruction) does not supply;
    updates `cached`."""
    args = [a.strip() for a in text.split(None, 1)[1].split(',')] if ' ' in text else []
    if op != 'FFMA' or len(args) != 4:
        cached.clear()
        return 0
    regs, new = set(), {}
    for slot, a in enumerate(args[1:]):
        m = re.fullmatch(r'-?\|?R(\d+)\|?(\.reuse)?', a)
        if not m:
            continue
        r = int(m.group(1))
        if cached.get(slot) != r:
            regs.add(r)
        if m.group(2):
            new[slot] = r
    cached.clear()
    cached.update(new)
    banks = collections.Counter(r % 2 for r in regs)
    return int(any(v > 1 for v in banks.values()))


def loops(sass):
    """(entry, [Counter per k-tile loop, shortest first], instruction count) per sgemm entry."""
    for f in re.split(r'\n\s+Function : ', sass)[1:]:
        name = f.split('\n', 1)[0].strip()
        if not name.startswith('sgemm_') or name == 'sgemm_scale_c':
            continue
        ins = []
        for line in f.split('\n'):
            m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
            if m:
                ins.append((int(m.group(1), 16), m.group(2).strip()))
        total = len([i for i in ins if not i[1].startswith('NOP')])
        found = []
        for addr, text in ins:
            t = re.search(r'\bBRA\b.*?0x([0-9a-f]+)', text)
            if not t or int(t.group(1), 16) >= addr:
                continue
            c = collections.Counter()
            ops = []
            cached = {}
            c['bank'] = 0
            for a, x in ins:
                if int(t.group(1), 16) <= a <= addr:
                    op = re.sub(r'^@!?U?P\w+\s+', '', x).split()[0]
                    ops.append(op)
                    c['bank'] += bank_conflict(op, x, cached)
                    c['all'] += 1
                    c['FFMA'] += op == 'FFMA'
                    c['LDS.128' if op.startswith('LDS.128') else 'LDS'] += op.startswith('LDS')
                    c['LDG.128' if '128' in op else 'LDG'] += op.startswith('LDG')
                    c['STS'] += op.startswith('STS')
                    c['BAR'] += op.startswith('BAR')
            # lead: the fewest instructions from an unpredicated 128-bit global load to the next
            # shared store in loop order (cyclic): how much work hides the load's latency
            n = len(ops)
            leads = [next((d for d in range(1, n + 1) if ops[(i + d) % n].startswith('STS')), 0)
                     for i, o in enumerate(ops) if o.startswith('LDG') and '128' in o]
            c['lead'] = min(leads) if leads else 0
            if c['FFMA'] >= 256:
                found.append(c)
        yield name, sorted(found, key=lambda c: c['all']), total


def main():
    ptxas, cuobjdump, out = sys.argv[1:4]
    cols = ['all', 'FFMA', 'LDS.128', 'LDS', 'LDG.128', 'LDG', 'STS', 'BAR', 'lead', 'bank']
    print('| entry | loop | fn | ' + ' | '.join(cols) + ' |')
    print('| --- ' * (3 + len(cols)) + '|')
    for ptx in sys.argv[4:]:
        cub = os.path.join(out, os.path.basename(ptx) + '.cubin')
        subprocess.run([ptxas, '-arch=sm_90a', '-O3', '-o', cub, ptx], check=True)
        sass = subprocess.run([cuobjdump, '-sass', cub], check=True, capture_output=True,
                              text=True).stdout
        for name, ls, total in sorted(loops(sass)):
            for i, c in enumerate(ls):
                kind = 'interior' if i == 0 else 'edge'
                print(f'| {name} | {kind} | {total} | ' + ' | '.join(str(c[k]) for k in cols) + ' |')


if __name__ == '__main__':
    main()
