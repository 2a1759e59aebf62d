#!/usr/bin/env bash
# Helper fused (issue #34): the fused bias + GELU epilogue, main against the branch, in one
# device call (<= 200 s). Run from the repo root with $OUT set; D=.gpu/fused11 holds
#   host.xz            a release host of the branch (CUTE_RS_ARCHS=sm_90a cargo build --release -p host)
#   main/hgemm.ptx.xz  main's (d74c6a8) hgemm module cut to hgemm_bf16_tn, hgemm_fused_bf16_tn_gelu
#   dp/hgemm.ptx.xz    commit 1 (tanh.approx GELU in FMA form, alpha folded, bias-N offsets;
#                      data-parallel scheduler), the same two entries
#   sk/hgemm.ptx.xz    commit 2 (+ stream-K Scheduler for the fused entries): hgemm_bf16_tn and
#                      the five fused entries
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
#                      (Context::new loads every module: no JIT of attention & co.)
# (tools/gpu/cut_ptx.py cuts; CUTE_RS_PTX_DIR swaps the module.) What it runs: one small
# fused check per arm (the JIT, cached under CUDA_CACHE_PATH), the 8 fixed fused cases of
# `host run --only hgemm` and 4 large ones with --check on the branch (sk), then
# `host gemm --ta --dtype bf16 --m M [--bias m --act gelu] --bench` (sustained and burst;
# fused rows against cuBLASLt's GELU_BIAS in the same process, plain rows against cuBLAS) at
# 8192³ and 4096³, the arms alternating, two rounds. Results: $OUT/rf11.tgz (summary.txt).
set -u
D=.gpu/fused11; R=/tmp/rf11; rm -rf $R; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc11
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/h11 && chmod +x /tmp/h11; H=/tmp/h11
stubs() { for v in main dp sk; do for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/p11/$v/$f.ptx; done; done; }
for v in main dp sk; do mkdir -p /tmp/p11/$v; x $D/$v/hgemm.ptx.xz /tmp/p11/$v/hgemm.ptx; done
stubs
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
fin() { tar czf $OUT/rf11.tgz -C /tmp rf11; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# 1. each arm's module JIT (cached), through a small fused check (TMA path, bias M, GELU)
for v in sk main dp; do
  CUTE_RS_PTX_DIR=/tmp/p11/$v timeout 100 $H gemm --ta --dtype bf16 --m 520 --n 264 --k 200 --bias m --act gelu --check > $R/jit-$v.txt 2>&1 < /dev/null
  rc=$?; t "jit + check 520x264x200 bias m gelu [$v] rc=$rc"; grep -E "PASS|FAIL|rror" $R/jit-$v.txt | tail -2 | tee -a $S
  if [ $v = sk ] && ! grep -qE "PASS|FAIL" $R/jit-$v.txt; then
    t "no check row with the stubs: without them"; rm -f $(for f in $(cat $D/stub-families.txt); do echo /tmp/p11/*/$f.ptx; done)
    CUTE_RS_PTX_DIR=/tmp/p11/$v timeout 120 $H gemm --ta --dtype bf16 --m 520 --n 264 --k 200 --bias m --act gelu --check > $R/jit-$v-2.txt 2>&1 < /dev/null
    t "jit + check (no stubs) [$v] rc=$?"; grep -E "PASS|FAIL|rror" $R/jit-$v-2.txt | tail -2 | tee -a $S
  fi
done
# 2. the branch's fused entries: host run's 8 fixed fused cases (alpha 0.5, ld padded to 8),
#    then stream-K (2304x2048x2304, 8192³), edges, bias N
C="--ta --dtype bf16 --alpha 0.5"
while read -r args; do
  CUTE_RS_PTX_DIR=/tmp/p11/sk timeout 40 $H gemm $C $args --check > $R/c.txt 2>&1 < /dev/null
  rc=$?; t "check $args rc=$rc"; grep -E "PASS|FAIL|rror" $R/c.txt | tail -1 | cut -c1-220 | tee -a $S; cat $R/c.txt >> $R/checks.txt
done <<'EOF'
--m 1000 --n 1030 --k 512 --bias n --act gelu
--m 2304 --n 2048 --k 2304 --bias m --act gelu
--m 203 --n 520 --k 130 --bias m --act relu --lda 136 --ldb 136 --ldc 208
--m 136 --n 300 --k 70 --bias n --act gelu-erf --lda 72 --ldb 72 --ldc 136
--m 129 --n 257 --k 65 --bias m --act silu --beta 1 --lda 72 --ldb 72 --ldc 136
--m 300 --n 200 --k 1000 --act gelu --beta -0.5 --ldc 304
--m 512 --n 768 --k 256 --bias n
--m 70 --n 264 --k 200 --bias m --act silu --ldc 72
--m 8192 --bias m --act gelu
--m 4096 --bias n --act gelu
--m 2100 --n 2300 --k 2700 --bias n --act gelu --lda 2704 --ldb 2704
--m 4100 --n 4000 --k 3000 --bias m --act gelu-erf
EOF
# 3. benches, alternating: fused bias M + GELU (main, dp, sk) and plain (main's module)
for r in 1 2; do
  for m in 8192 4096; do
    for v in main dp sk plain; do
      case $v in plain) P=/tmp/p11/main; F="";; *) P=/tmp/p11/$v; F="--bias m --act gelu";; esac
      CUTE_RS_PTX_DIR=$P timeout 30 $H gemm --ta --dtype bf16 --m $m $F --bench > $R/bench-$m-$v-$r.txt 2>&1 < /dev/null
      t "bench $m $v round $r rc=$?"; grep -E "^hgemm|rror" $R/bench-$m-$v-$r.txt | tail -3 | cut -c1-200 | tee -a $S
    done
  done
done
t done
