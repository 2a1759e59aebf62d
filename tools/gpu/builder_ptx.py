#!/usr/bin/env python3
"""The PTX a kernel-only build makes (`cargo +nightly build --release --target nvptx64-nvidia-cuda
-Zbuild-std=core -p <family>`: target/nvptx64-nvidia-cuda/release/deps/<crate>-*.s), rewritten as the
builder embeds it (builder/src/lib.rs: `apply_launch_bounds` turns each `__launch_bounds__<entry>`
global into `.maxntid` / `.minnctapersm`, `apply_grid_constants` raises the tensor-map parameters
that `device::grid_constant!` marks to `.align 64`), so a measuring variant can be cut
(tools/gpu/cut_ptx.py) and loaded through CUTE_RS_PTX_DIR without a host build.

    python3 tools/gpu/builder_ptx.py SRC.s DST.ptx
"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
bounds, lines = {}, []
for line in open(src).read().split('\n'):
    t = line.strip()
    if t.startswith('// .globl') and '__launch_bounds__' in t:
        continue
    m = re.match(r'\.visible \.global \.align 4 \.b8 __launch_bounds__(\w+)\[8\] = \{([^}]*)\}', t)
    if m:
        b = [int(x) for x in m.group(2).split(',') if x.strip()] + [0] * 8
        bounds[m.group(1)] = (int.from_bytes(bytes(b[:4]), 'little'), int.from_bytes(bytes(b[4:8]), 'little'))
        continue
    lines.append(line)
out, pending = [], None
for line in lines:
    out.append(line)
    if line.lstrip().startswith('.visible .entry '):
        pending = bounds.get(line.lstrip()[len('.visible .entry '):].split('(')[0].strip())
    elif line.startswith(')') and pending:
        out.append('.maxntid %d, 1, 1' % pending[0])
        if pending[1]:
            out.append('.minnctapersm %d' % pending[1])
        pending = None
s = '\n'.join(out)
marker = '// cute-rs grid_constant '
for name in sorted({l.strip()[len(marker):].strip() for l in s.split('\n') if l.strip().startswith(marker)}):
    decl = lambda a: '.param .align %d .b8 %s[128]' % (a, name)
    if decl(64) in s:
        continue
    for a in (8, 16, 32):
        if decl(a) in s:
            s = s.replace(decl(a), decl(64))
            break
    else:
        sys.exit('grid_constant: no 128-byte parameter %s' % name)
open(dst, 'w').write(s)
