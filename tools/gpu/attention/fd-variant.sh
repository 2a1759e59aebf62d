#!/usr/bin/env bash
# (session 13, helper attnfix; issue #33) call 3: `fd` (the persistent schedule's divisions by
# run-time extents as multiply-shifts, CUTLASS's FastDivmod; the divisors a seventh kernel
# parameter) against the same 128-row tiles' default entries (d64: `qr`, Q in registers; d128:
# `overlap`, 128 × 128), like for like. Package as go.sh's, the module cut to
# attention_fwd_{bf16_d64_qr, bf16_d128, fd_*, ptfd_*, pt_*} (d64, d128); native.xz this branch's
# measure build of the Python extension.
#   A  first load + `--check` of fd on odd shapes (d128 GQA 777 × 4097 bottom-right, 300 × 1000,
#      1500 top-left GQA; d64 #59's 3119 × 149 bottom-right h24/3, 1500 top-left)
#   B  phase traces pt / ptfd (d128 512 none, d64 512 none, d128 1k causal)
#   C  `host attention --bench` default tile / fd alternated per shape, two rounds, d64 and d128 ×
#      512 / 1k / 2k × none, causal
#   D  python/bench_attention.py (ours vs cuDNN) per head dim: the default tile's process and
#      fd's alternated, twice, seqlens 512 / 1k / 2k
# As run: `.gpu/attnfix/go3.sh` (call 3, 2026-11-29 ~22:03, H200; this branch's measure build with
# `fd`); phase_times.py is tools/attention/phase_times.py, copied into the package.
set -u
D=${D:-.gpu/attnfix}; R=/tmp/rfix3; mkdir -p $R /tmp/ptxfix3; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fix3
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hfix3 && chmod +x /tmp/hfix3; H=/tmp/hfix3
x $D/attention.ptx.xz /tmp/ptxfix3/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptxfix3/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptxfix3
PT="python3 $D/phase_times.py"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-240}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/rfix3.tgz -C /tmp rfix3; exit 0; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
base() { [ $1 = 64 ] && echo qr || echo overlap; }
# A
chk() {
  CUTE_RS_ATTENTION=fd timeout 120 $H attention "$@" --check > $R/c.txt 2>&1
  t "A fd rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-50) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-120)"
}
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 128 --causal top-left
chk --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 64 --causal top-left
# B
for c in "128 512 none" "64 512 none" "128 1024 causal"; do
  set -- $c; d=$1; s=$2; m=$3; M=""; [ $m = causal ] && M="--causal top-left"
  for v in pt ptfd; do
    CUTE_RS_ATTENTION=$v timeout 30 $H attention --batch $((16384 / s)) --heads $((2048 / d)) --seqlen-q $s --head-dim $d $M --bench --trace $R/tr-$v-d$d-$s-$m > $R/b.txt 2>&1
    t "B $v d$d $s $m rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    $PT $R/tr-$v-d$d-$s-$m 2>&1 | tee -a $S
  done
done
# C
for i in 1 2; do
  for d in 64 128; do for s in 512 1024 2048; do for m in none causal; do
    M=""; [ $m = causal ] && M="--causal top-left"
    for v in $(base $d) fd; do
      [ "$(left)" -gt 75 ] || { t "C SKIP (time)"; break 5; }
      CUTE_RS_ATTENTION=$v timeout 30 $H attention --batch $((16384 / s)) --heads $((2048 / d)) --seqlen-q $s --head-dim $d $M --bench > $R/b.txt 2>&1
      t "C $v d$d $s $m round $i rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    done
  done; done; done
done
# D
mkdir -p /tmp/py3/cute_rs && cp python/cute_rs/*.py /tmp/py3/cute_rs/ && cp python/bench_attention.py /tmp/py3/
x $D/native.xz /tmp/py3/cute_rs/_native.abi3.so
for i in 1 2; do for d in 64 128; do for v in $(base $d) fd; do
  b=$(( $(left) - 3 )); [ $b -gt 15 ] || { t "D SKIP (time)"; break 3; }; [ $b -gt 30 ] && b=30
  (cd /tmp/py3 && CUTE_RS_ATTENTION=$v PYTHONPATH=/tmp/py3 timeout $b python3 bench_attention.py --head-dims $d --seqlens 512,1024,2048 \
    --backends ours,cudnn --rounds 5 --json $R/ba-$v-d$d-$i.json > $R/ba-$v-d$d-$i.txt 2>&1); t "D $v d$d round $i rc=$?"
  grep -E "^ +$d " $R/ba-$v-d$d-$i.txt | tee -a $S
done; done; done
fin
