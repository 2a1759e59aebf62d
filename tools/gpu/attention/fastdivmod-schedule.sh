#!/usr/bin/env bash
# (session 14, lead; issue #33) The attention schedule's divisions as FastDivmod multiply-shifts by
# default on the 128 x 128 tiles (`Params::sched`, layout-types' `FastDivmod` in `idx2crd`), and the
# epilogue's row sums / 1/l / LSE under the last P.V. Three attention modules, one process each:
#   old  main d94232a (its own host and Python extension: Params differ)
#   A    the FastDivmod schedule only (the row totals after the last P.V's wait, as before)
#   B    A + the row totals under the last P.V
# each the `measure` build cut to the default entries and `pt` (tools/attention/cut_ptx.py).
# Package (D, default .gpu/s14a): host.xz / native_new.xz (this tree), host_old.xz / native_old.xz
# (d94232a), att{Old,A,B}.ptx.xz, hgemm.ptx.xz (the 2048^3 schedule check), stub.ptx +
# stub-families.txt, phase_times.py. Run from the repo root with $OUT set:
#   D=.gpu/s14a bash tools/gpu/attention/fastdivmod-schedule.sh
# Sections: C --check of B on odd shapes; T phase traces (pt) A vs B vs old at 512; P
# bench_attention.py ours vs cuDNN, the three alternated, two rounds; G GEMM 2048^3 cooperative vs
# pingpong128; S synccheck / racecheck / memcheck of B; R host run --only attention of B.
set -u
D=${D:-.gpu/s14a}; R=/tmp/r14a; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14a
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-420}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14a.tgz -C /tmp r14a 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14new && x $D/host_old.xz /tmp/h14old && chmod +x /tmp/h14new /tmp/h14old
for v in Old A B; do
  mkdir -p /tmp/p14$v; x $D/att$v.ptx.xz /tmp/p14$v/attention.ptx
  for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/p14$v/$f.ptx; done
done
mkdir -p /tmp/p14g; x $D/hgemm.ptx.xz /tmp/p14g/hgemm.ptx
for f in $(cat $D/stub-families.txt); do [ $f = hgemm ] || cp $D/stub.ptx /tmp/p14g/$f.ptx; done
cp $D/stub.ptx /tmp/p14g/attention.ptx
for v in old new; do
  mkdir -p /tmp/py14$v/cute_rs && cp python/cute_rs/*.py /tmp/py14$v/cute_rs/ && cp python/bench_attention.py /tmp/py14$v/
  x $D/native_$v.xz /tmp/py14$v/cute_rs/_native.abi3.so
done
hv() { case $1 in Old) echo /tmp/h14old;; *) echo /tmp/h14new;; esac; }
pv() { case $1 in Old) echo old;; *) echo new;; esac; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# C: B's checks (the first load JITs each module; A and old load theirs in T)
chk() { CUTE_RS_PTX_DIR=/tmp/p14B timeout 120 /tmp/h14new attention "$@" --check > $R/c.txt 2>&1
  t "C B rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-60) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-100)"; }
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128
chk --batch 1 --heads 4 --seqlen-q 3000 --seqlen-k 9000 --head-dim 128
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 64 --causal top-left
chk --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk --batch 1 --heads 4 --seqlen-q 5000 --head-dim 64
chk --batch 2 --heads 3 --seqlen-q 333 --seqlen-k 2500 --head-dim 256 --causal bottom-right
chk --batch 1 --heads 2 --seqlen-q 2100 --head-dim 256
# T: phase traces at 512 keys (16k tokens)
for c in "128 512 none" "64 512 none"; do
  set -- $c; d=$1; s=$2
  for v in Old A B; do
    CUTE_RS_PTX_DIR=/tmp/p14$v CUTE_RS_ATTENTION=pt timeout 100 $(hv $v) attention --batch $((16384 / s)) --heads $((2048 / d)) --seqlen-q $s --head-dim $d --bench --trace $R/tr-$v-d$d-$s > $R/b.txt 2>&1
    t "T $v d$d $s rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    python3 $D/phase_times.py $R/tr-$v-d$d-$s >> $S 2>&1
  done
done
# P: like for like
for i in 1 2; do for v in Old A B; do
  b=$(( $(left) - 150 )); [ $b -gt 20 ] || { t "P SKIP (time)"; break 2; }; [ $b -gt 45 ] && b=45
  (cd /tmp/py14$(pv $v) && CUTE_RS_PTX_DIR=/tmp/p14$v PYTHONPATH=/tmp/py14$(pv $v) timeout $b python3 bench_attention.py --head-dims 64,128,256 \
    --seqlens 512,1024,2048,8192 --backends ours,cudnn --rounds 4 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "P $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/ba-$v-$i.txt | tee -a $S
done; done
# G: 2048^3, cooperative (the default for K > 512) vs the 128x128 ping-pong
for r in 1 2; do for a in "--ta --dtype bf16" "--dtype bf16" "--ta --dtype f16"; do for s in cooperative pingpong128; do
  [ $(left) -gt 110 ] || { t "G SKIP (time)"; break 3; }
  CUTE_RS_PTX_DIR=/tmp/p14g CUTE_RS_HGEMM_SCHEDULE=$s timeout 60 /tmp/h14new gemm $a --m 2048 --n 2048 --k 2048 --bench > $R/g.txt 2>&1
  t "G $s $a 2048^3 r$r rc=$? $(grep -E 'TFLOP' $R/g.txt | tail -2 | tr '\n' ' ' | cut -c1-200)"
done; done; done
# S: sanitizers on B
export CUTE_RS_PTX_DIR=/tmp/p14B
for tool in synccheck racecheck memcheck; do for a in "--batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128" "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 200 --head-dim 64 --causal top-left"; do
  [ $(left) -gt 60 ] || { t "S SKIP (time)"; break 2; }
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/h14new attention $a --check > $R/s.txt 2>&1
  t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|PASS|FAIL' $R/s.txt | tr '\n' ' ' | cut -c1-120)"
done; done
# R: the sweep
b=$(( $(left) - 5 )); if [ $b -gt 30 ]; then
  timeout $b /tmp/h14new run --only attention > $R/run.txt 2>&1; t "R host run --only attention rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
else t "R SKIP (time)"; fi
t end
