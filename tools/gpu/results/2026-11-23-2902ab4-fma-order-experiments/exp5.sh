#!/bin/bash
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
for r in 1 2; do
  for b in exp-serp_im exp-serp_im_q exp-serp_im_b exp-serp_im_b_r; do
    .gpu/$b/host bench gemm --csv > $O/r/bench-$b-$r.csv 2> $O/r/bench-$b-$r.err
  done
done
M='regex:smsp__average_warps_issue_stalled_(dispatch_stall|not_selected|short_scoreboard|barrier)_per_issue_active\.ratio'
for b in exp-serp_im_b exp-serp_im_b_r; do for t in "" "--ta"; do
  timeout 100 ncu --clock-control none --metrics "$M" -k regex:sgemm_128 -c 1 .gpu/$b/host gemm --m 4096 $t --bench 2>&1 | grep -E "stalled|Duration" | sed "s/^/$b $t /"
done; done
python3 - $O/r <<'PY'
import sys,glob,os,csv,collections
d=sys.argv[1]; tab=collections.defaultdict(dict)
for f in sorted(glob.glob(d+'/bench-*.csv')):
    tag=os.path.basename(f)[6:-4]
    for row in csv.DictReader(open(f)):
        k=row['variant'].split()[-1]+' '+row['size']
        tab[k][tag]=float(row['ratio'])
tags=sorted({t for r in tab.values() for t in r})
print('case'.ljust(26),*[t[:14].rjust(14) for t in tags])
for k,r in tab.items(): print(k.ljust(26),*[f"{r.get(t,0):14.4f}" for t in tags])
PY
tar czf $O/exp5.tgz -C $O r
