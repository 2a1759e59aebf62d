#!/usr/bin/env bash
# (session 13, helper attnfix; issue #33) call 2: `nf` (the next tile's schedule arithmetic under
# the last P·V; d64's 128-row tile with Q in registers) against the same tile's default entry
# (`CUTE_RS_ATTENTION=qr`), like for like. Package as go.sh's, the module cut to
# attention_fwd_{bf16_d64_qr, nf_bf16_d64, pt_bf16_d64, ptnf_bf16_d64}; native.xz is this
# branch's measure build of the Python extension (it knows `nf`).
#   A  first load + `--check` of nf on odd d64 shapes (GQA 777 × 4097 bottom-right, 300 × 1000,
#      1500 top-left GQA, #59's 3119 × 149 bottom-right h24/3)
#   B  phase traces pt / ptnf at d64 512 and 1k (none, causal)
#   C  `host attention --bench` qr / nf alternated per shape, two rounds, d64 512 / 1k / 2k × none, causal
#   D  python/bench_attention.py --head-dims 64 --seqlens 512,1024,2048 (ours vs cuDNN), the
#      qr process (the same 128-row tile) and the nf one alternated, twice
# As run: `.gpu/attnfix/go2.sh` (call 2, 2026-11-29 ~21:52, H200) on the measure build of `5a16065`;
# the `nf` / `ptnf` entries were removed after it (slower: doc/attention.md, session 13).
set -u
D=${D:-.gpu/attnfix}; R=/tmp/rfix2; mkdir -p $R /tmp/ptxfix2; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fix
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hfix2 && chmod +x /tmp/hfix2; H=/tmp/hfix2
x $D/attention.ptx.xz /tmp/ptxfix2/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptxfix2/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptxfix2
PT="python3 $D/phase_times.py"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-200}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/rfix2.tgz -C /tmp rfix2; exit 0; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# A
chk() {
  CUTE_RS_ATTENTION=nf timeout 120 $H attention "$@" --head-dim 64 --check > $R/c.txt 2>&1
  t "A nf rc=$? $(grep -m1 'kernel:' $R/c.txt | cut -c9-50) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-120)"
}
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --causal bottom-right
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --causal top-left
chk --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --causal bottom-right
# B
for s in 512 1024; do for m in none causal; do
  M=""; [ $m = causal ] && M="--causal top-left"
  for v in pt ptnf; do
    CUTE_RS_ATTENTION=$v timeout 30 $H attention --batch $((16384 / s)) --heads 32 --seqlen-q $s --head-dim 64 $M --bench --trace $R/tr-$v-$s-$m > $R/b.txt 2>&1
    t "B $v d64 $s $m rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    $PT $R/tr-$v-$s-$m 2>&1 | tee -a $S
  done
done; done
# C
for i in 1 2; do
  for s in 512 1024 2048; do for m in none causal; do
    M=""; [ $m = causal ] && M="--causal top-left"
    for v in qr nf; do
      [ "$(left)" -gt 80 ] || { t "C SKIP (time)"; break 4; }
      CUTE_RS_ATTENTION=$v timeout 30 $H attention --batch $((16384 / s)) --heads 32 --seqlen-q $s --head-dim 64 $M --bench > $R/b.txt 2>&1
      t "C $v d64 $s $m round $i rc=$? $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-100)"
    done
  done; done
done
# D
mkdir -p /tmp/py2/cute_rs && cp python/cute_rs/*.py /tmp/py2/cute_rs/ && cp python/bench_attention.py /tmp/py2/
x $D/native.xz /tmp/py2/cute_rs/_native.abi3.so
for i in 1 2; do for v in qr nf; do
  b=$(( $(left) - 3 )); [ $b -gt 20 ] || { t "D SKIP (time)"; break 2; }; [ $b -gt 40 ] && b=40
  E=""; [ $v != default ] && E="CUTE_RS_ATTENTION=$v"
  (cd /tmp/py2 && env $E PYTHONPATH=/tmp/py2 timeout $b python3 bench_attention.py --head-dims 64 --seqlens 512,1024,2048 \
    --backends ours,cudnn --rounds 5 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "D $v round $i rc=$?"
  grep -E '^ +64' $R/ba-$v-$i.txt | tee -a $S
done; done
fin
