#!/usr/bin/env bash
# (as run in session 11, the lead's call 4) Attention's `lsum` measuring variant (the row sums on
# the tensor core: helper attnq2's, built, not measured) against the default, one release host
# built with CUTE_RS_KERNEL_FEATURES=attention/measure (D/host.xz), its attention module cut to
# the defaults + lsum (tools/attention/cut_ptx.py), stub modules for the GEMM families (no JIT of
# them). `--check` under lsum's widened bound, then `host attention --bench` (ours beside a cuBLAS
# GEMM, bf16, 16k tokens) default / lsum alternated twice on five shapes. Run from the repo root
# with $OUT set; <= 120 s.
set -u
D=${D:-.gpu/lsum11}; R=/tmp/rlsum; mkdir -p $R /tmp/ptxl; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-l
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hl && chmod +x /tmp/hl; H=/tmp/hl
x $D/attention.ptx.xz /tmp/ptxl/attention.ptx
for f in copy gemm_n gemm_t hgemm hgemm_sm80 probe smoke tma wgmma wgmma_mn; do cp $D/stub.ptx /tmp/ptxl/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptxl
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# CHECKS=0 skips the checks (the second run of call 4: they had passed in the first)
[ "${CHECKS:-1}" = 1 ] && for c in "--batch 2 --heads 4 --heads-kv 2 --seqlen-q 333 --seqlen-k 1000 --head-dim 64" "--batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right" "--batch 1 --heads 4 --seqlen-q 2049 --head-dim 64 --causal top-left"; do
  CUTE_RS_ATTENTION=lsum timeout 60 $H attention $c --check > $R/c.txt 2>&1; t "lsum check $c rc=$?"; grep -E "kernel:|PASS|FAIL|rror" $R/c.txt | tail -2 | cut -c1-200 | tee -a $S
done
for i in $(seq 1 ${ROUNDS:-2}); do
  for s in "64 1024" "64 1024 --causal top-left" "128 2048" "128 8192" "128 1024 --causal top-left"; do
    set -- $s; d=$1; q=$2; shift 2
    for v in default lsum; do
      E=""; [ $v = lsum ] && E="CUTE_RS_ATTENTION=lsum"
      env $E timeout 30 $H attention --batch $((16384 / q)) --heads $((2048 / d)) --seqlen-q $q --head-dim $d "$@" --bench > $R/b.txt 2>&1
      t "$v d$d $q $* round $i rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-160)"
    done
  done
done
tar czf $OUT/rlsum.tgz -C /tmp rlsum
