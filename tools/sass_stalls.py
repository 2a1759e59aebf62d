#!/usr/bin/env python3
"""The k-loops of a cubin with their instruction mix and control-code stall cycles (issue #35's
mainloop comparison against CuTe's sm80 tutorial, without a GPU).

usage: tools/sass_stalls.py NVDISASM CUBIN [ENTRY-SUBSTRING] [--list]

For every loop (a backward branch) with at least 16 HMMA, in every function whose name holds
ENTRY-SUBSTRING: its instruction count, the count per opcode, and the sum of the stall fields of
the instructions' control codes (bits 105-108 of each 128-bit Volta+ instruction: the cycles the
scheduler waits before this warp's next instruction; a warp's fewest cycles per iteration when
nothing else stalls it), per opcode; `waits-on-sb`: instructions that wait on a scoreboard. With
--list, every instruction of the loop: stall, yield, write/read scoreboard, wait mask, text.

    ptxas -arch=sm_90 -O3 target/ptx/sm_80/hgemm_sm80.ptx -o /tmp/h.cubin   # the H200's JIT
    python3 tools/sass_stalls.py nvdisasm /tmp/h.cubin f16_tn

nvdisasm: `pip install --target DIR nvidia-cuda-nvdisasm`; the tutorial's PTX: `cuobjdump -ptx`
of its binary (nvidia-cuda-cuobjdump), its lines before `.version` removed.
"""
import collections
import re
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) < 2:
        sys.exit(__doc__)
    nvdisasm, cubin = args[0], args[1]
    want = args[2] if len(args) > 2 else None
    out = subprocess.run([nvdisasm, "-hex", "-c", cubin], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    ins, labels, func, i = [], {}, None, 0
    while i < len(out):
        line = out[i]
        m = re.match(r"\s*\.text\.(\S+):", line)
        if m:
            func = m.group(1)
        m = re.match(r"\s*(\.L_x_\d+):", line)
        if m:
            labels[(func, m.group(1))] = len(ins)
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* (0x[0-9a-f]+) \*/", line)
        if m and i + 1 < len(out):
            hi = int(re.search(r"/\* (0x[0-9a-f]+) \*/", out[i + 1]).group(1), 16)
            c = hi >> 41  # stall 4, yield 1, write sb 3, read sb 3, wait mask 6, reuse 4
            ins.append((func, m.group(2).strip(), c & 15, (c >> 4) & 1, (c >> 5) & 7,
                        (c >> 8) & 7, (c >> 11) & 63))
            i += 2
            continue
        i += 1
    for j, (f, text, *_) in enumerate(ins):
        m = re.search(r"BRA\s+(?:`\()?(\.L_x_\d+)", text)
        if not m or labels.get((f, m.group(1)), 1 << 60) > j or (want and want not in f):
            continue
        s = labels[(f, m.group(1))]
        body = ins[s:j + 1]
        count, stall = collections.Counter(), collections.Counter()
        for b in body:
            op = re.sub(r"^@!?U?P\w+\s+", "", b[1]).split()[0].split(".")[0]
            count[op] += 1
            stall[op] += b[2]
        if count["HMMA"] < 16:
            continue
        print(f"{f} loop {s}-{j}: {len(body)} instructions, {sum(stall.values())} stall cycles "
              f"(HMMA {stall['HMMA']}), waits-on-sb {sum(1 for b in body if b[6])}")
        print("   count", dict(count.most_common()))
        print("   stall", dict(stall.most_common()))
        if "--list" in sys.argv:
            for k, b in enumerate(body):
                w = b[4] if b[4] < 7 else "-"
                r = b[5] if b[5] < 7 else "-"
                print(f"  {s + k:5} S{b[2]:2} {'Y' if b[3] else ' '} w{w} r{r} m{b[6]:02x} {b[1]}")


if __name__ == "__main__":
    main()
