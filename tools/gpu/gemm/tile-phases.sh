#!/usr/bin/env bash
# (session 73; issue #34) Where a 16-bit tile's time goes beside its mainloop: the CTA trace (`collective::trace`;
# kernels built with CUTE_RS_KERNEL_FEATURES=hgemm/cta-trace, which traces hgemm_fp8 too: one cargo build unifies
# `collective`'s features) of `host gemm --bench --timing burst` — bf16 NN 4096³ (64 k-tiles a tile, level with cuBLAS)
# and 8192³ (128, 1.02–1.03 of it), bf16 NN 4096³ `--beta 1` (0.96–0.97), e4m3 per-tensor 4096³ — each read by
# `tools/gpu/fp8/cta_trace.py FILE --phases 2` (each `[TIMING=sustained] ph TAG "VAR=value..." ARGS`; burst unless
# said): per warpgroup and unit, the start → first unit, the mainloop (and per k-tile), the fixup, the store and the
# gap to the next unit, medians, 90th percentiles and sums. Session 73's reading of runs s73b (4096³ 0.997, 8192³
# 1.031, 16384³ 1.049 sustained) is a per-tile cost of about five k-tiles' time in ours against under one in cuBLAS;
# this says which phase holds it. The trace's records cost some time themselves
# (session 71: ~10 % on the FP8 block split, whose units are short): compare phases, not the rates.
# Package $D: host.xz (a release host), hgemm.ptx.xz and hgemm_fp8.ptx.xz (the traced build's modules from target/ptx)
# and cubin/ (their cubins), then rebuild the default: bash tools/gpu/gemm/package-per-tile.sh [.gpu/T] [.gpu/A].
#   BUDGET=240 D=.gpu/NAME NAME=... bash tools/gpu/gemm/tile-phases.sh
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s74a}
$H info 2>&1 | grep -E '^module: sm_90a (hgemm|hgemm_fp8)' | tee -a $S
# TAGS="a b ..." traces only those (a short call: session 75's device time)
ph() { local tag=$1 vars=$2; shift 2
  case " ${TAGS:-$tag} " in *" $tag "*) ;; *) return ;; esac
  [ $(left) -gt 40 ] || { t "P $tag SKIP (time)"; return; }
  env $vars CUTE_RS_CTA_TRACE=$R/tr-$tag.bin timeout 90 $H gemm "$@" --bench --timing ${TIMING:-burst} > $R/g.txt 2>&1 < /dev/null
  t "P $tag rc=$? | $vars $* ${TIMING:-burst} | $(grep -E 'TFLOP|rror|cta trace' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"
  python3 tools/gpu/fp8/cta_trace.py $R/tr-$tag.bin --phases 2 > $R/ph-$tag.txt 2>&1
  # (session 77) the launches as wholes: the gaps between them, the CTAs' spread, the SMs' idle time
  python3 tools/gpu/fp8/cta_trace.py $R/tr-$tag.bin --timeline ${TIMELINES:-3} >> $R/ph-$tag.txt 2>&1
  cat $R/ph-$tag.txt >> $S; cp $R/ph-$tag.txt $OUT/
  # the rings themselves only with TRACE_BINS=1 (a call returns a few files)
  [ "${TRACE_BINS:-0}" = 1 ] && python3 -c "import lzma,sys;open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" $R/tr-$tag.bin $OUT/tr-$tag.bin.xz
  rm -f $R/tr-$tag.bin
}
ph bf16-4096 X=0 --dtype bf16 --m 4096 --n 4096 --k 4096
ph bf16-8192 X=0 --dtype bf16 --m 8192 --n 8192 --k 8192
ph bf16-4096-beta1 X=0 --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1
ph e4m3-4096 X=0 --dtype e4m3 --m 4096 --n 4096 --k 4096
# (session 74) the stream-K tail on all 132 SMs at 4096³ (measured level with the balanced grid's 128): its fixups
ph bf16-4096-sk132 "CUTE_RS_HGEMM_SMS=132 CUTE_RS_HGEMM_BALANCE=0" --dtype bf16 --m 4096 --n 4096 --k 4096
# (session 74) the reading came from the sustained rows (in bursts 4096³ reads 1.00–1.01 of cuBLAS, 8192³ 1.02–1.03):
# the same two traced at the power limit's clocks (the ring keeps the last launches: those after the 500 ms warm-up)
TIMING=sustained ph bf16-4096-sus X=0 --dtype bf16 --m 4096 --n 4096 --k 4096
TIMING=sustained ph bf16-8192-sus X=0 --dtype bf16 --m 8192 --n 8192 --k 8192
t end
