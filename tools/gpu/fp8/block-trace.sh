#!/usr/bin/env bash
# (session 71; issue #37) Where the block-scaled split's second launch runs, and the clusters' tickets: the CTA trace
# (`collective::trace`, kernels built with CUTE_RS_KERNEL_FEATURES=hgemm_fp8/cta-trace) of `host gemm --dtype e4m3
# --block-scales --bench --timing burst` at 4096³ (lead `CUTE_RS_FP8_BLOCK_LEAD` 125 and 0) and 4096×7168×16384 (125),
# each read by tools/gpu/fp8/cta_trace.py (every launch's span; for the last block pairs when each CTA of the second
# launch started, on which SM, when its units' mainloops, fixups and stores ended); then the same with the module
# whose lead launches take their cluster indices in start order (`TileScheduler::cluster_index`, $D/tk), its
# `--check`s where the split and the lead happen, and the three sanitizers on one.
# Package $D: host.xz (a release host with `Context::cta_trace` and the tickets' workspace), hgemm_fp8.ptx.xz (the
# traced module without tickets), tk/hgemm_fp8.ptx.xz (traced, with tickets: run s71a's; the tickets were measured and
# not kept, doc/fp8-gemm.md session 71 — without tk/ the script traces main's module alone).
#   BUDGET=450 D=.gpu/s71a NAME=s71a bash tools/gpu/fp8/block-trace.sh
BUDGET=${BUDGET:-450}; . tools/gpu/lib.sh ${NAME:-s71a}
TK=/tmp/pv-tk; mkdir -p $TK; cp $P/*.ptx $TK/; [ -e $D/tk/hgemm_fp8.ptx.xz ] && x $D/tk/hgemm_fp8.ptx.xz $TK/hgemm_fp8.ptx
timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=$TK timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w2.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w1.txt $R/w2.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
tr_run() { local tag=$1 dir=$2 lead=$3; shift 3
  [ $(left) -gt 60 ] || { t "T $tag SKIP (time)"; return; }
  env CUTE_RS_PTX_DIR=$dir CUTE_RS_FP8_BLOCK_LEAD=$lead CUTE_RS_CTA_TRACE=$R/tr-$tag.bin timeout 120 $H gemm --dtype e4m3 \
    --block-scales "$@" --bench --timing burst > $R/g.txt 2>&1 < /dev/null
  t "T $tag rc=$? lead $lead | $* | $(grep -E 'TFLOP|rror|cta trace' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"
  python3 tools/gpu/fp8/cta_trace.py $R/tr-$tag.bin 2 > $R/an-$tag.txt 2>&1
  head -40 $R/an-$tag.txt >> $S; cp $R/an-$tag.txt $OUT/
  python3 -c "import lzma,sys;open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" $R/tr-$tag.bin $OUT/tr-$tag.bin.xz
}
tr_run lead125-4096 $P 125 --m 4096 --n 4096 --k 4096
tr_run tk-lead125-4096 $TK 125 --m 4096 --n 4096 --k 4096
tr_run lead0-4096 $P 0 --m 4096 --n 4096 --k 4096
tr_run tk-lead125-7168 $TK 125 --m 4096 --n 7168 --k 16384
tr_run lead125-7168 $P 125 --m 4096 --n 7168 --k 16384
# the tickets' checks: forced splits with the lead (f32 D, N and M edges), as session 70's
B="--dtype e4m3 --block-scales"
for s in "4096 4096 512 3840" "2048 4096 1024 3840" "4096 4000 512 3456" "1000 4096 2048 3840"; do
  set -- $s
  env CUTE_RS_PTX_DIR=$TK CUTE_RS_FP8_BLOCK_LEAD=125 CUTE_RS_FP8_BLOCK_SPLIT=$4 timeout 90 $H gemm $B --m $1 --n $2 --k $3 \
    --check --out f32 > $R/c.txt 2>&1 < /dev/null
  t "C tk split $4 $1x$2x$3 f32 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
done
for tool in synccheck memcheck racecheck; do
  [ $(left) -gt 70 ] || { t "S $tool SKIP (time)"; continue; }
  env CUTE_RS_PTX_DIR=$TK CUTE_RS_FP8_BLOCK_LEAD=125 CUTE_RS_FP8_BLOCK_SPLIT=3840 timeout 150 compute-sanitizer --tool $tool \
    --print-limit 5 $H gemm $B --m 4096 --n 4096 --k 512 --check > $R/san.txt 2>&1 < /dev/null
  t "S tk $tool rc=$? | split 3840 4096x4096x512 | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
t end
