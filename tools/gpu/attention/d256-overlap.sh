#!/usr/bin/env bash
# (session 12, helper attn256; issue #33) Head dim 256's overlapped mainloop: the `measure`
# candidates (`ov80bs`: 128 × 80, tiles::SharedBase, SPLIT — FlashAttention-3's d256 loop;
# `ov80b`: the same without SPLIT; `ov64bs`: 128 × 64, SharedBase, SPLIT) against the default
# (the serial mainloop on 128 × 80), in one call. The package (D, default .gpu/attn256): host.xz
# (a release host built with CUTE_RS_KERNEL_FEATURES=attention/measure CUTE_RS_ARCHS=sm_90a),
# attention.ptx.xz (its module cut by tools/attention/cut_ptx.py to the defaults + the candidates),
# stub.ptx for every other family but attention_ref (stub-families.txt; no JIT of them).
#   A  the module's first load (JIT, <= 120 s) by a small default d256 check
#   B  `--check` of each candidate on odd d256 shapes (GQA 777 × 1023 bottom-right, 1500
#      top-left, 300 × 4097; fp16 for ov80bs / ov80b)
#   C  `host attention --batch 16384/S --heads 8 --seqlen-q S --head-dim 256 [--causal top-left]
#      --bench`, S = 512 1k 2k 4k 16k, default / ov80bs / ov80b / ov64bs alternated, two rounds
#   D  compute-sanitizer memcheck and racecheck of ov80bs on a small d256 problem, then
#      `host run --only attention --sweep-attention 200` with CUTE_RS_ATTENTION=ov80bs (its d256
#      problems run ov80bs; d64 / d128 ones have no entry and fail as such)
# Run from the repo root with $OUT set; BUDGET (s, default 230) skips what would not fit.
set -u
D=${D:-.gpu/attn256}; R=/tmp/ra256; mkdir -p $R /tmp/ptx256; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-a256
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/h256 && chmod +x /tmp/h256; H=/tmp/h256
x $D/attention.ptx.xz /tmp/ptx256/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptx256/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptx256
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-230}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { tar czf $OUT/ra256.tgz -C /tmp ra256; exit 0; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# A
timeout 120 $H attention --batch 1 --heads 2 --seqlen-q 130 --head-dim 256 --check > $R/a.txt 2>&1
t "A first load rc=$? $(grep -E 'PASS|FAIL|rror' $R/a.txt | tail -1 | cut -c1-150)"
# B
chk() { # variant, args...
  local v=$1; shift
  CUTE_RS_ATTENTION=$v timeout 30 $H attention "$@" --check > $R/c.txt 2>&1
  t "B $v rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-50) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-120)"
}
for v in ov80bs ov80b ov64bs; do
  chk $v --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 1023 --head-dim 256 --causal bottom-right
  chk $v --batch 1 --heads 4 --seqlen-q 1500 --head-dim 256 --causal top-left
  chk $v --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 4097 --head-dim 256
done
chk ov80bs --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 1023 --head-dim 256 --causal bottom-right --dtype f16
chk ov80b --batch 2 --heads 4 --seqlen-q 1500 --seqlen-k 1501 --head-dim 256 --causal top-left --dtype f16
# C
for i in 1 2; do
  for s in 512 1024 2048 4096 16384; do
    for m in none top-left; do
      M=""; [ $m = top-left ] && M="--causal top-left"
      for v in default ov80bs ov80b ov64bs; do
        [ "$(left)" -gt 70 ] || { t "C SKIP (time)"; break 4; }
        E=""; [ $v != default ] && E="CUTE_RS_ATTENTION=$v"
        env $E timeout 30 $H attention --batch $((16384 / s)) --heads 8 --seqlen-q $s --head-dim 256 $M --bench > $R/b.txt 2>&1
        t "C $v d256 $s $m round $i rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-160)"
      done
    done
  done
done
# D
for tool in memcheck racecheck; do
  b=$(( $(left) - 30 )); [ $b -gt 10 ] || { t "D $tool SKIP (time)"; continue; }; [ $b -gt 40 ] && b=40
  CUTE_RS_ATTENTION=ov80bs timeout $b compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --heads-kv 1 --seqlen-q 200 --seqlen-k 333 --head-dim 256 --causal bottom-right --check > $R/san-$tool.txt 2>&1
  t "D $tool rc=$? $(grep -m1 'kernel:' $R/san-$tool.txt | cut -c9-50) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/san-$tool.txt | head -2 | tr '\n' ' ' | cut -c1-160)"
done
b=$(( $(left) - 3 )); if [ $b -gt 10 ]; then
  CUTE_RS_ATTENTION=ov80bs timeout $b $H run --only attention --sweep-attention 200 > $R/sweep.txt 2>&1
  t "D sweep rc=$? $(tail -1 $R/sweep.txt | cut -c1-200)"
  grep -E "d256|head_dim 256|hd256" $R/sweep.txt | grep -ciE "pass|ok" | sed 's/^/D d256 lines passing: /' | tee -a $S
else t "D sweep SKIP (time)"; fi
fin
