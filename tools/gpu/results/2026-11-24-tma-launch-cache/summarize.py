#!/usr/bin/env python3
"""Median / min-max ratio to memcpy D2D per variant and size from bench.csv (rows: binary,round,<host bench copy --csv row>)."""
import collections, csv, statistics as st, sys
d = collections.defaultdict(list)
bins = []
for r in csv.reader(open(sys.argv[1] if len(sys.argv) > 1 else 'bench.csv')):
    d[(r[3], r[4].split(' (')[0], r[0])].append(float(r[-1]))
    if r[0] not in bins:
        bins.append(r[0])
vs = ['tiled_copy_row_f32_v4', 'tma_copy_row_b4', 'tma_copy_col_b4', 'tma_copy_row_b2', 'tma_copy_col_b2',
      'tma_copy_row_b4_persistent', 'tma_copy_col_b4_persistent', 'tma_copy_row_b2_persistent', 'tma_copy_col_b2_persistent']
for size in ['1 MiB', '4 MiB', '16 MiB', '64 MiB', '256 MiB', '1024 MiB']:
    print(size)
    for v in vs:
        cells = []
        for b in bins:
            a = d[(v, size, b)]
            if a:
                cells.append(f"{b}: median {st.median(a):.3f} [{min(a):.3f}-{max(a):.3f}] n={len(a)}")
        print(f"  {v:28s} " + "   ".join(cells))
