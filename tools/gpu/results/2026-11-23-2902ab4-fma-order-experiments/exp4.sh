#!/bin/bash
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
for t in "" "--tb" "--ta --tb" "--ta"; do
  tag=nn; [ "$t" = "--tb" ] && tag=nt; [ "$t" = "--ta --tb" ] && tag=tt; [ "$t" = "--ta" ] && tag=tn
  timeout 100 ncu --clock-control none --metrics "$M" -k regex:sgemm_128 -c 1 .gpu/exp-a/host gemm --m 4096 $t --bench > $O/r/st-$tag.txt 2>&1
done
timeout 100 ncu --clock-control none --metrics "$M" -k regex:'^sm80' -c 1 .gpu/exp-a/host gemm --m 4096 --bench > $O/r/st-cublas-nn.txt 2>&1
python3 - $O/r <<'PY'
import sys,re,glob,os
d=sys.argv[1]; rows={}
for f in sorted(glob.glob(d+'/st-*.txt')):
    tag=os.path.basename(f)[3:-4]
    for l in open(f):
        m=re.search(r'smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+\S*\s+([\d.]+)',l)
        if m: rows.setdefault(m.group(1),{})[tag]=float(m.group(2))
tags=sorted({t for r in rows.values() for t in r})
print('stall'.ljust(24),*[t.rjust(10) for t in tags])
for k,r in sorted(rows.items(), key=lambda kv:-max(kv[1].values())):
    print(k.ljust(24),*[f"{r.get(t,0):10.3f}" for t in tags])
PY
