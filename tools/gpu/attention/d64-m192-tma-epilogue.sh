#!/usr/bin/env bash
# (session 14, lead; issue #33) Head dim 64's 192-row tile with the TMA-store epilogue (config::o_boxes
# gives it one box per consumer warpgroup since session 14; before, it stored O directly from
# registers). One module (the `measure` build cut to the default entries); the direct path is the same
# entries with CUTE_RS_ATTENTION_EPILOGUE=direct. Package (D, default .gpu/s14c): host.xz, native.xz,
# att.ptx.xz, stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/s14c bash tools/gpu/attention/d64-m192-tma-epilogue.sh
# Sections: C --check on the 192-row tile (fixed and varlen-free shapes, GQA, both causal alignments) and
# the other tiles; S memcheck / racecheck / synccheck on a 192-row shape; P bench_attention.py d64 ours vs
# cuDNN, TMA vs direct alternated, two rounds (seqlens 2k-16k, where d64 runs 192 rows); R host run
# --only attention.
set -u
D=${D:-.gpu/s14c}; R=/tmp/r14c; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14c
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-170}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14c.tgz -C /tmp r14c 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14c && chmod +x /tmp/h14c; H=/tmp/h14c
mkdir -p /tmp/p14c; x $D/att.ptx.xz /tmp/p14c/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/p14c/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/p14c
mkdir -p /tmp/py14c/cute_rs && cp python/cute_rs/*.py /tmp/py14c/cute_rs/ && cp python/bench_attention.py /tmp/py14c/
x $D/native.xz /tmp/py14c/cute_rs/_native.abi3.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
chk() { timeout 120 $H attention "$@" --check > $R/c.txt 2>&1
  t "C rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-60) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-100)"; }
chk --batch 1 --heads 4 --seqlen-q 5000 --head-dim 64
chk --batch 2 --heads 3 --seqlen-q 2100 --seqlen-k 3000 --head-dim 64
chk --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 2500 --head-dim 64 --causal top-left
chk --batch 1 --heads 8 --heads-kv 1 --seqlen-q 4001 --seqlen-k 4001 --head-dim 64 --causal bottom-right --dtype f16
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128
chk --batch 1 --heads 4 --seqlen-q 3000 --seqlen-k 9000 --head-dim 128
chk --batch 1 --heads 2 --seqlen-q 2100 --head-dim 256
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H attention --batch 1 --heads 2 --seqlen-q 2100 --seqlen-k 700 --head-dim 64 --check > $R/s.txt 2>&1
  t "S $tool rc=$? | $(grep -m1 'kernel:' $R/s.txt | cut -c9-60) | $(grep -E 'ERROR SUMMARY|PASS|FAIL' $R/s.txt | tr '\n' ' ' | cut -c1-120)"
done
for i in 1 2; do for v in tma direct; do
  b=$(( $(left) - 35 )); [ $b -gt 15 ] || { t "P SKIP (time)"; break 2; }; [ $b -gt 30 ] && b=30
  E=tma; [ $v = direct ] && E=direct
  (cd /tmp/py14c && CUTE_RS_ATTENTION_EPILOGUE=$E PYTHONPATH=/tmp/py14c timeout $b python3 bench_attention.py --head-dims 64 \
    --seqlens 2048,4096,8192,16384 --backends ours,cudnn --rounds 4 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "P $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/ba-$v-$i.txt | tee -a $S
done; done
b=$(( $(left) - 3 )); if [ $b -gt 20 ]; then
  timeout $b $H run --only attention > $R/run.txt 2>&1; t "R host run --only attention rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
else t "R SKIP (time)"; fi
t end
