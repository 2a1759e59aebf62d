#!/usr/bin/env bash
# (session 12, helper attn256; issue #33) The checks of head dim 256's new defaults (the
# overlapped mainloop: 128 × 80 from 2k keys, `attention_fwd_*_d256`; 128 × 64 below,
# `attention_fwd_*_d256_n64`), in one short call. The package (D, default .gpu/attn256b): host.xz
# (the branch's release host, CUTE_RS_KERNEL_FEATURES=attention/measure CUTE_RS_ARCHS=sm_90a),
# attention.ptx.xz (its module cut to the 14 default entries), stub.ptx for every other family
# but attention_ref (stub-families.txt).
#   A  the module's first load (JIT) by a small d256 check (128 × 64)
#   B  `--check` of odd d256 shapes on both tiles, bf16 and fp16
#   C  compute-sanitizer memcheck and racecheck on a small problem of each tile
#   D  `host run --only attention --sweep-attention 200` (the fixed cases and the sweep)
# Run from the repo root with $OUT set; BUDGET (s, default 65) skips what would not fit.
set -u
D=${D:-.gpu/attn256b}; R=/tmp/ra256b; mkdir -p $R /tmp/ptx256b; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-a256b
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/h256b && chmod +x /tmp/h256b; H=/tmp/h256b
x $D/attention.ptx.xz /tmp/ptx256b/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptx256b/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptx256b
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-65}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $S
# A
timeout 60 $H attention --batch 1 --heads 2 --seqlen-q 130 --head-dim 256 --check > $R/a.txt 2>&1
t "A first load rc=$? $(grep -E 'PASS|FAIL|rror' $R/a.txt | tail -1 | cut -c1-170)"
# B
chk() {
  timeout 20 $H attention "$@" --check > $R/c.txt 2>&1
  t "B rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-50) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-130)"
}
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 1023 --head-dim 256 --causal bottom-right --dtype f16
chk --batch 2 --heads 4 --seqlen-q 1500 --head-dim 256 --causal top-left --dtype f16
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 4097 --head-dim 256 --dtype f16
chk --batch 1 --heads 4 --heads-kv 1 --seqlen-q 2049 --head-dim 256 --causal top-left
# C
for tool in memcheck racecheck; do
  for sk in 333 2100; do
    b=$(( $(left) - 35 )); [ $b -gt 5 ] || { t "C $tool SKIP (time)"; continue; }; [ $b -gt 15 ] && b=15
    timeout $b compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --heads-kv 1 --seqlen-q 200 --seqlen-k $sk --head-dim 256 --causal bottom-right --check > $R/san-$tool-$sk.txt 2>&1
    t "C $tool sk $sk rc=$? $(grep -m1 'kernel:' $R/san-$tool-$sk.txt | cut -c9-50) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/san-$tool-$sk.txt | head -2 | tr '\n' ' ' | cut -c1-160)"
  done
done
# D
b=$(( $(left) - 2 )); [ $b -gt 45 ] || b=45
timeout $b $H run --only attention --sweep-attention 200 > $R/sweep.txt 2>&1
t "D sweep rc=$? $(tail -1 $R/sweep.txt | cut -c1-200)"
grep -E "^attention" $R/sweep.txt | grep -vE " PASS " | head -5 | cut -c1-200 | tee -a $S
tar czf $OUT/ra256b.tgz -C /tmp ra256b
