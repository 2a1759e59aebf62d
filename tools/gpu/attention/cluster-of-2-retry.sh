#!/usr/bin/env bash
# (as run in session 10: D=.gpu/cluster held branch cluster's release host, host.xz; not merged, doc/attention.md "Cluster of 2")
# Lead's retry of helper cluster's package with the JIT separated from the hang detector (the first
# call's 60 s check timed out with no output: JIT or hang?). Budget-bound (~250 s).
set -u
D=.gpu/cluster; R=/tmp/rc; rm -rf $R; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc_cluster
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/host_cluster','wb'))"; chmod +x /tmp/host_cluster
H=/tmp/host_cluster
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { t "SKIP (time): $2"; return 1; }; }
fin() { tar czf $OUT/cluster2.tgz -C /tmp rc; exit 0; }
CUTE_RS_ATTENTION=nocluster timeout 150 $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check > $R/a0.txt 2>&1; t "A0 nocluster (JIT) rc=$?"; tail -2 $R/a0.txt | cut -c1-200 | tee -a $S
timeout 25 $H attention --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1001 --head-dim 128 --check > $R/a1.txt 2>&1; rc=$?
t "A1 cluster d128 check rc=$rc"; tail -2 $R/a1.txt | cut -c1-220 | tee -a $S
if [ $rc = 124 ] || [ $rc = 137 ]; then t "A1: a hang"; fin; fi
i=0
while read -r args; do
  i=$((i + 1))
  timeout 20 $H attention $args --check < /dev/null > $R/check-$i.txt 2>&1; rc=$?
  t "A2.$i $args rc=$rc"; tail -1 $R/check-$i.txt | cut -c1-220 | tee -a $S
  if [ $rc = 124 ] || [ $rc = 137 ]; then t "A2.$i: a hang"; fin; fi
done <<'CASES'
--batch 1 --heads 4 --heads-kv 1 --seqlen-q 500 --seqlen-k 8300 --head-dim 128 --dtype f16
--batch 2 --heads 3 --seqlen-q 700 --seqlen-k 555 --head-dim 256
--batch 4 --heads 16 --heads-kv 4 --seqlen-q 2048 --seqlen-k 2047 --head-dim 128
CASES
export CUTE_RS_ATTENTION_SEQLENS=2048,8192,16384
for r in 1 2; do
  left 200 "bench $r" || break
  CUTE_RS_ATTENTION=nocluster timeout 30 $H bench attention --json > $R/ab-main-$r.json 2> $R/ab-main-$r.err; t "B nocluster $r rc=$?"
  timeout 30 $H bench attention --json > $R/ab-new-$r.json 2> $R/ab-new-$r.err; t "B cluster $r rc=$?"
done
python3 tools/attention/ab_rounds.py $R/ab-main-1.json $R/ab-new-1.json $R/ab-main-2.json $R/ab-new-2.json 2>&1 | tee -a $S
left 230 sweep && { timeout 60 $H run --only attention --sweep-attention 200 > $R/run.txt 2>&1; t "A3 sweep 200 rc=$?"; tail -2 $R/run.txt | cut -c1-200 | tee -a $S; grep FAIL $R/run.txt | head -5 | cut -c1-200 | tee -a $S; }
left 260 racecheck && { timeout 40 compute-sanitizer --tool racecheck $H attention --batch 1 --heads 4 --heads-kv 2 --seqlen-q 256 --seqlen-k 300 --head-dim 128 --check > $R/race.txt 2>&1; t "A4 racecheck rc=$?"; tail -2 $R/race.txt | cut -c1-160 | tee -a $S; }
fin
