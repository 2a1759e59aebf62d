#!/usr/bin/env bash
# (session 14, lead; issue #33) Head dim 256's short-key tile (128 x 64, the default under 2k keys) with the
# schedule's FastDivmods (AttnTiles::SCHED_FAST_DIVMOD; ptxas 0 spills there, 4 bytes in the 128 x 80 one,
# which keeps `div`). Two default-build attention modules: old (main before) and new; one host and Python
# extension. Package (D, default .gpu/s14f): host.xz, native.xz, att{Old,New}.ptx.xz, stub.ptx +
# stub-families.txt. Run from the repo root with $OUT set: D=.gpu/s14f bash tools/gpu/attention/d256-fastdivmod.sh
# Sections: C --check of new at d256 (short keys, GQA, both causal alignments); S synccheck; P
# bench_attention.py --head-dims 256 --seqlens 512,1024 (and 2048 as the 128 x 80 control), old / new
# alternated, two rounds; R host run --only attention of new.
set -u
D=${D:-.gpu/s14f}; R=/tmp/r14f; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14f
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-110}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14f.tgz -C /tmp r14f 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14f && chmod +x /tmp/h14f; H=/tmp/h14f
for v in Old New; do
  mkdir -p /tmp/p14f$v; x $D/att$v.ptx.xz /tmp/p14f$v/attention.ptx
  for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/p14f$v/$f.ptx; done
done
mkdir -p /tmp/py14f/cute_rs && cp python/cute_rs/*.py /tmp/py14f/cute_rs/ && cp python/bench_attention.py /tmp/py14f/
x $D/native.xz /tmp/py14f/cute_rs/_native.abi3.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
export CUTE_RS_PTX_DIR=/tmp/p14fNew
chk() { timeout 120 $H attention "$@" --check > $R/c.txt 2>&1
  t "C rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-60) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-100)"; }
chk --batch 2 --heads 3 --seqlen-q 333 --seqlen-k 1500 --head-dim 256 --causal bottom-right
chk --batch 3 --heads 4 --heads-kv 2 --seqlen-q 1000 --head-dim 256 --causal top-left
chk --batch 1 --heads 5 --seqlen-q 700 --seqlen-k 900 --head-dim 256 --dtype f16
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 256 --check > $R/s.txt 2>&1
t "S synccheck rc=$? | $(grep -E 'ERROR SUMMARY|PASS|FAIL' $R/s.txt | tr '\n' ' ' | cut -c1-120)"
for i in 1 2; do for v in Old New; do
  b=$(( $(left) - 25 )); [ $b -gt 12 ] || { t "P SKIP (time)"; break 2; }; [ $b -gt 25 ] && b=25
  (cd /tmp/py14f && CUTE_RS_PTX_DIR=/tmp/p14f$v PYTHONPATH=/tmp/py14f timeout $b python3 bench_attention.py --head-dims 256 \
    --seqlens 512,1024,2048 --backends ours,cudnn --rounds 4 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "P $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/ba-$v-$i.txt | tee -a $S
done; done
b=$(( $(left) - 2 )); if [ $b -gt 20 ]; then
  timeout $b $H run --only attention > $R/run.txt 2>&1; t "R host run --only attention rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
else t "R SKIP (time)"; fi
t end
