#!/usr/bin/env bash
# Session s10 call 4 (lead): the candidate attention module (main + snake's schedule in turns +
# udesc128's per-tile addressing) — its sweep, sanitizers, an A/B against main and udesc128 alone
# (host bench attention, alternated, twice), and its like-for-like table (python/bench_attention.py).
set -u
D=.gpu/call4; R=/tmp/r4; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
H=/tmp/hostm
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/ && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
C="env CUTE_RS_PTX_DIR=$PWD/$D/cand"; U="env CUTE_RS_PTX_DIR=$PWD/.gpu/udesc128/ptx-new"
$C timeout 150 $H run --only attention --sweep-attention 200 > $R/run-cand.txt 2>&1; t "cand: run attention sweep 200 rc=$?"
tail -3 $R/run-cand.txt | cut -c1-200 | tee -a $S
$U timeout 100 $H run --only attention --sweep-attention 30 > $R/run-u128.txt 2>&1; t "u128: run attention sweep 30 rc=$?"
tail -1 $R/run-u128.txt | cut -c1-200 | tee -a $S
for r in 1 2; do
  timeout 70 $H bench attention --json > $R/ab-main-$r.json 2> $R/ab-main-$r.err; t "bench main $r rc=$?"
  $U timeout 70 $H bench attention --json > $R/ab-u128-$r.json 2> $R/ab-u128-$r.err; t "bench u128 $r rc=$?"
  $C timeout 70 $H bench attention --json > $R/ab-cand-$r.json 2> $R/ab-cand-$r.err; t "bench cand $r rc=$?"
done
python3 tools/gpu/attention/ab-three-modules-table.py $R 2>&1 | tee -a $S
(cd /tmp/py && $C PYTHONPATH=/tmp/py timeout 150 python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "cand bench_attention.py rc=$?"
tail -40 $R/bench_attention.txt | tee -a $S
for tool in memcheck racecheck synccheck; do
  $C timeout 60 compute-sanitizer --tool $tool $H attention --batch 2 --heads 4 --heads-kv 2 --seqlen-q 300 --seqlen-k 333 --head-dim 128 --causal bottom-right --check > $R/san-$tool-d128.txt 2>&1; t "cand $tool d128 causal GQA rc=$?"
  tail -2 $R/san-$tool-d128.txt | cut -c1-160 | tee -a $S
done
$C timeout 60 compute-sanitizer --tool racecheck $H attention --batch 3 --heads 2 --seqlen-q 200 --head-dim 64 --causal top-left --check > $R/san-racecheck-d64.txt 2>&1; t "cand racecheck d64 causal rc=$?"
tail -2 $R/san-racecheck-d64.txt | cut -c1-160 | tee -a $S
tar czf $OUT/r4.tgz -C /tmp r4
