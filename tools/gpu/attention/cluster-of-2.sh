#!/usr/bin/env bash
# (as run in session 10: D=.gpu/cluster held branch cluster's release host, host.xz; not merged, doc/attention.md "Cluster of 2")
# Helper cluster (issue #33): attention in clusters of two CTAs along M sharing K and V by TMA
# multicast (the `_c2` entries; branch `cluster`). One host binary, this branch's release build
# (host.xz here, or $H if set). Default = the `_c2` entries where the host picks them (d128 and
# d256, non-causal, fixed-length, even m-block count); CUTE_RS_ATTENTION=nocluster = the same
# tiles in one-CTA clusters (main's entries); CUTE_RS_ATTENTION=cluster forces `_c2` (d64 too).
#   A: a first small cluster check (hang detector: 60 s with the JIT), the checks, the sweep 200,
#      racecheck + synccheck on one small cluster case
#   B: host bench attention --json nocluster / cluster / nocluster / cluster at 512,2048,8192,16384
#      and tools/attention/ab_rounds.py's per-shape ratios (new = cluster)
# Everything goes to $OUT/cluster.tgz (and summary.txt). Expected ~180 s.
set -u
D=${D:-$(cd "$(dirname "$0")" && pwd)}; R=/tmp/rc; rm -rf $R; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc_cluster
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/host_cluster','wb'))"; chmod +x /tmp/host_cluster
  H=/tmp/host_cluster
fi
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { t "SKIP (time): $2"; return 1; }; }
fin() { cp $S $OUT/summary.txt 2>/dev/null; tar czf $OUT/cluster.tgz -C /tmp rc; exit 0; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
# A1: the hang detector (d128 128x128 c2: 8 m-blocks, rows past seqlen_q, GQA)
timeout 60 $H attention --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1001 --head-dim 128 --check > $R/first.txt 2>&1; rc=$?
t "A1 first cluster check rc=$rc"; grep -iE "attention_fwd|error|max|pass|fail" $R/first.txt | head -5 | cut -c1-200 | tee -a $S
if [ $rc = 124 ] || [ $rc = 137 ]; then t "A1 timed out: a hang? stopping"; fin; fi
# A2: checks on the cluster path (and two controls)
i=0
while read -r env args; do
  i=$((i + 1))
  [ "$env" = "-" ] && env=""
  env $env timeout 40 $H attention $args --check < /dev/null > $R/check-$i.txt 2>&1; rc=$?
  t "A2.$i ${env:-default} $args rc=$rc"
  grep -oE "attention_fwd_\w+" $R/check-$i.txt | head -1 | tee -a $S
  grep -iE "error|fail|mismatch" $R/check-$i.txt | head -3 | cut -c1-200 | tee -a $S
  if [ $rc = 124 ] || [ $rc = 137 ]; then t "A2.$i timed out: a hang? stopping"; fin; fi
done <<'CASES'
- --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1001 --head-dim 128 --dtype f16
- --batch 1 --heads 4 --heads-kv 1 --seqlen-q 500 --seqlen-k 8300 --head-dim 128
- --batch 1 --heads 4 --heads-kv 1 --seqlen-q 500 --seqlen-k 8300 --head-dim 128 --dtype f16
- --batch 2 --heads 3 --seqlen-q 700 --seqlen-k 555 --head-dim 256
- --batch 1 --heads 2 --heads-kv 1 --seqlen-q 256 --seqlen-k 4097 --head-dim 256 --dtype f16
- --batch 1 --heads 1 --seqlen-q 256 --seqlen-k 1000 --head-dim 128
- --batch 4 --heads 16 --heads-kv 4 --seqlen-q 2048 --seqlen-k 2047 --head-dim 128
CUTE_RS_ATTENTION=cluster --batch 2 --heads 4 --heads-kv 1 --seqlen-q 1000 --seqlen-k 777 --head-dim 64
CUTE_RS_ATTENTION=cluster --batch 3 --heads 2 --seqlen-q 256 --seqlen-k 300 --head-dim 64 --dtype f16
CUTE_RS_ATTENTION=nocluster --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1001 --head-dim 128
- --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 1001 --head-dim 128 --causal top-left
CASES
# A3: the sweep (default selection: its non-causal even-m-block d128/d256 problems take _c2)
left 150 "sweep" && timeout 150 $H run --only attention --sweep-attention 200 > $R/run-attention.txt 2>&1; t "A3 run --only attention --sweep-attention 200 rc=$?"
tail -4 $R/run-attention.txt | cut -c1-200 | tee -a $S
grep -E "FAIL" $R/run-attention.txt | head -8 | cut -c1-200 | tee -a $S
# A4: sanitizers on one small cluster case (2 m-blocks x 4 heads: 4 clusters)
for tool in racecheck synccheck; do
  left 220 "$tool" || break
  timeout 60 compute-sanitizer --tool $tool $H attention --batch 1 --heads 4 --heads-kv 2 --seqlen-q 256 --seqlen-k 300 --head-dim 128 --check > $R/san-$tool.txt 2>&1
  t "A4 $tool d128 c2 rc=$?"; tail -2 $R/san-$tool.txt | cut -c1-160 | tee -a $S
done
# B: the A/B, nocluster (main's entries) vs cluster (default), alternated twice
export CUTE_RS_ATTENTION_SEQLENS=512,2048,8192,16384
for r in 1 2; do
  [ $r = 1 ] && lim=330 || lim=420
  left $lim "bench round $r" || break
  CUTE_RS_ATTENTION=nocluster timeout 70 $H bench attention --json > $R/ab-main-$r.json 2> $R/ab-main-$r.err; t "B bench nocluster $r rc=$?"
  timeout 70 $H bench attention --json > $R/ab-new-$r.json 2> $R/ab-new-$r.err; t "B bench cluster $r rc=$?"
done
python3 tools/attention/ab_rounds.py $R/ab-main-1.json $R/ab-new-1.json $R/ab-main-2.json $R/ab-new-2.json 2>&1 | tee -a $S
grep -h '"variant"' $R/ab-new-1.json 2>/dev/null | sort -u | head -30 > $R/tiles-new.txt
fin
