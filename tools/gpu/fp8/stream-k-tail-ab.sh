#!/usr/bin/env bash
# (as run in session 12, the lead's call 2) The per-tensor promoted FP8 entry (128x192, n192) launched
# with and without a stream-K tail: main's release host (D/main.xz: split-K-only launches, the
# policy config::SCHEDULER_FP8_PROMOTED = SPLIT_K) against helper fp8block's (D/host.xz, built
# between 5fe36c6 and e8bf264, when the promoted entries were launched as STREAM_K_SPLIT_K: a
# workspace whenever the last wave is part-empty), both on one cut hgemm module (D/hgemm.ptx.xz,
# fp8block's, through CUTE_RS_PTX_DIR; the other families stubbed), `host gemm --dtype e4m3
# --bench` alternated, two rounds. Run from the repo root with $OUT set: D=.gpu/tailab bash tools/gpu/fp8/stream-k-tail-ab.sh
set -u
D=${D:-.gpu/tailab}; S=$OUT/summary.txt
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/main.xz /tmp/hm && x $D/host.xz /tmp/ht && chmod +x /tmp/hm /tmp/ht
P=/tmp/tptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-tail CUTE_RS_PTX_DIR=$P
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
timeout 120 /tmp/hm gemm --dtype e4m3 --m 300 --n 200 --k 528 --check > $OUT/jit.txt 2>&1; t "jit+check main rc=$? $(grep -E 'PASS|FAIL' $OUT/jit.txt | tail -1 | cut -c1-120)"
timeout 60 /tmp/ht gemm --dtype e4m3 --m 2048 --n 2880 --k 1024 --check > $OUT/c.txt 2>&1; t "check tail 2048x2880x1024 (1.8 waves) rc=$? $(grep -E 'PASS|FAIL' $OUT/c.txt | tail -1 | cut -c1-120)"
for r in 1 2; do
  for s in "4096 7168 16384" "4096 4096 4096" "8192 8192 8192" "4096 2112 7168"; do
    set -- $s
    for h in main tail; do
      B=/tmp/hm; [ $h = tail ] && B=/tmp/ht
      timeout 40 $B gemm --dtype e4m3 --m $1 --n $2 --k $3 --bench > $OUT/b.txt 2>&1
      t "$h $1x$2x$3 r$r rc=$? $(grep -E 'TFLOP' $OUT/b.txt | grep -v '^problem' | tail -1 | cut -c1-170)"
    done
  done
done
