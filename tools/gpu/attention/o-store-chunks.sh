#!/usr/bin/env bash
# (session 14, lead; issue #33) The TMA-store epilogue's chunks together (collective::epilogue_rows::
# store_chunks with a box per chunk: one wait, one fence, two warpgroup meetings a tile instead of
# one fence and two meetings a chunk) on head dim 128's 128 x 128 tile (2 chunks; d64's one chunk
# is the control), against the tree before it (098ee21). Two attention modules, the `measure` build
# cut to the default entries and `pt`: C0 (098ee21), C1 (this change). One host and Python
# extension (this tree's). Package (D, default .gpu/s14b): host.xz, native.xz, attC0.ptx.xz,
# attC1.ptx.xz, stub.ptx + stub-families.txt, phase_times.py. Run from the repo root with $OUT set:
#   D=.gpu/s14b bash tools/gpu/attention/o-store-chunks.sh
# Sections: C --check of C1; T phase traces C0 / C1 (d128 512, 1k; d64 512); P bench_attention.py
# ours vs cuDNN at d128 and d64, C0 / C1 alternated, two rounds; S racecheck / synccheck of C1 at
# d128; R host run --only attention of C1.
set -u
D=${D:-.gpu/s14b}; R=/tmp/r14b; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14b
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-200}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14b.tgz -C /tmp r14b 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14b && chmod +x /tmp/h14b; H=/tmp/h14b
for v in C0 C1; do
  mkdir -p /tmp/p14$v; x $D/att$v.ptx.xz /tmp/p14$v/attention.ptx
  for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/p14$v/$f.ptx; done
done
mkdir -p /tmp/py14b/cute_rs && cp python/cute_rs/*.py /tmp/py14b/cute_rs/ && cp python/bench_attention.py /tmp/py14b/
x $D/native.xz /tmp/py14b/cute_rs/_native.abi3.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
chk() { CUTE_RS_PTX_DIR=/tmp/p14C1 timeout 120 $H attention "$@" --check > $R/c.txt 2>&1
  t "C C1 rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-60) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-100)"; }
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128
chk --batch 3 --heads 5 --seqlen-q 1000 --seqlen-k 700 --head-dim 128 --causal top-left
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 64 --causal top-left
chk --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
for c in "128 512" "128 1024" "64 512"; do
  set -- $c; d=$1; s=$2
  for v in C0 C1; do
    CUTE_RS_PTX_DIR=/tmp/p14$v CUTE_RS_ATTENTION=pt timeout 100 $H attention --batch $((16384 / s)) --heads $((2048 / d)) --seqlen-q $s --head-dim $d --bench --trace $R/tr-$v-d$d-$s > $R/b.txt 2>&1
    t "T $v d$d $s rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    python3 $D/phase_times.py $R/tr-$v-d$d-$s >> $S 2>&1
  done
done
for i in 1 2; do for v in C0 C1; do
  b=$(( $(left) - 70 )); [ $b -gt 20 ] || { t "P SKIP (time)"; break 2; }; [ $b -gt 40 ] && b=40
  (cd /tmp/py14b && CUTE_RS_PTX_DIR=/tmp/p14$v PYTHONPATH=/tmp/py14b timeout $b python3 bench_attention.py --head-dims 128,64 \
    --seqlens 512,1024,2048,4096 --backends ours,cudnn --rounds 4 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "P $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/ba-$v-$i.txt | tee -a $S
done; done
export CUTE_RS_PTX_DIR=/tmp/p14C1
for tool in racecheck synccheck; do
  [ $(left) -gt 40 ] || { t "S SKIP (time)"; break; }
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128 --check > $R/s.txt 2>&1
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|PASS|FAIL' $R/s.txt | tr '\n' ' ' | cut -c1-120)"
done
b=$(( $(left) - 3 )); if [ $b -gt 25 ]; then
  timeout $b $H run --only attention > $R/run.txt 2>&1; t "R host run --only attention rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
else t "R SKIP (time)"; fi
t end
