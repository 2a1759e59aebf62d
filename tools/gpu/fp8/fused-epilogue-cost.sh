#!/usr/bin/env bash
# (session 53; issue #37) Where the fused FP8 epilogue's ~10 % goes: bias M + GELU ran 0.90 / 0.89 of cuBLASLt's
# `GELU_BIAS` at 4096×7168×16384 / 8192³ (run s51a) where the plain per-tensor kernel on the same 128 × 192 tile ran
# 0.97 / 0.99 of cuBLASLt's plain (cuBLASLt's own fused / plain: 0.98–0.99). The fused entries' SASS is 15,520
# instructions (gelu) and 12,040 (identity) against the plain entry's 6,592 (ptxas 13.0), per element a predicated
# load of the column scale and of the column bias, their addresses and defaults, three multiplies and two adds.
# Variants (feature `hgemm_fp8/fused-ab`, each cut under the gelu entry's name, beside main's plain entry):
#   main: `gemm_fp8_fused_e4m3_tn_gelu_n192tma` before session 53 (RowColScale, D of f32 / bf16 / f16): 611-670 SASS
#         instructions a 64-column bf16 chunk on the TMA path (the op's coordinates from the opaque `t_tma`: each
#         element's column offset, compare and address computed at run time)
#   new:  the same entry after session 53's `EpilogueOp::AT_COORD` / `ProductScale::scaled` (main since then): the
#         coordinates from `t`, offsets folded, `alpha·s_row` shared by a row: 529-585 a chunk (14,808 SASS in all)
#   nos:  `FusedEpilogue<act::Gelu, NoScale, ELEMS_ALL>` — no row / column scale vectors (the bench passes none;
#         12,448 SASS instructions)
#   bf:   `FusedEpilogue<act::Gelu, RowColScale, ELEMS_BF16>` — a bf16 D only (5,952 SASS instructions)
# --check of each (bias M, GELU, bf16 D), then ROUNDS rounds of plain / identity / main / new / nos / bf at 8192³ and 4096×7168×16384,
# then ncu of plain and fused (main) at 8192³ (per-SASS source counters, instructions executed, warp states): whether the
# fused ~10 % is its instructions (the TMA path: ~615 SASS instructions a 64-column chunk of bf16 against ~260 needed)
# or waits (the bias and scale loads at the tile's start and in each chunk).
# Package $D: host.xz (main's), stub.ptx + stub-families.txt, {main,new,nos,bf}/hgemm_fp8.ptx.xz, new/whole.ptx.xz
# (the whole new module, for the sweep), made on main by
#   cargo xtask build-kernels --arch sm_90a && cargo build --release -p host-cli && cp target/ptx/hgemm_fp8.ptx /tmp/m.ptx
#   CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fused-ab cargo xtask build-kernels --arch sm_90a   # then `cut_ptx.py` of
#   /tmp/m.ptx to the plain and fused gelu / identity `_n192tma` entries (main), of target/ptx/hgemm_fp8.ptx to the plain
#   entry and `gemm_fp8_ab_e4m3_tn_gelu_n192tma_noscale=gemm_fp8_fused_e4m3_tn_gelu_n192tma` (nos) or `..._bf16=...` (bf), each xz'ed;
#   stub.ptx a module header alone, stub-families.txt "attention copy gemm_n gemm_t hgemm tma".
#   (main: the module of 3f70dbe-2b5c126; new: of e179386; nos, bf: `fused-ab` on e179386, so each differs from new
#   in its one respect)
#   D=.gpu/s53a NAME=s53a bash tools/gpu/fp8/fused-epilogue-cost.sh   (~450 s: the sanitizers, and the sweep JITs the whole module)
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s53a}
for v in main new nos bf; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm_fp8.ptx.xz /tmp/pv$v/hgemm_fp8.ptx; done
for v in main new nos bf; do CUTE_RS_PTX_DIR=/tmp/pv$v c gemm --dtype e4m3 --m 1000 --n 1030 --k 512 --bias m --act gelu; done
CUTE_RS_PTX_DIR=/tmp/pvmain c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --bias m --act gelu
# the new epilogue where its change reads: row and column scales, bias N, the N edge, f32 D, on the TMA path
for a in "--m 2048 --n 1100 --k 1008 --bias n --act gelu --row-scales --col-scales" \
         "--m 1024 --n 1030 --k 512 --bias n --act relu --col-scales --out f32" \
         "--m 4096 --n 4100 --k 1024 --bias m --act silu --row-scales --col-scales"; do
  CUTE_RS_PTX_DIR=/tmp/pvnew c gemm --dtype e4m3 $a; done
# the three sanitizers on the new entry (row and column scales, bias N, the TMA path)
for tool in memcheck racecheck synccheck; do
  CUTE_RS_PTX_DIR=/tmp/pvnew timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 \
    --m 1024 --n 1030 --k 512 --bias n --act gelu --row-scales --col-scales --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
# the FP8 sweep on the whole new module (every FP8 entry, the fused ones with scales and biases)
mkdir -p /tmp/pvwhole && cp $P/*.ptx /tmp/pvwhole/ && x $D/new/whole.ptx.xz /tmp/pvwhole/hgemm_fp8.ptx
CUTE_RS_PTX_DIR=/tmp/pvwhole timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C sweep (new, whole module) rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -2 | tr '\n' ' ')"
ROUNDS=${ROUNDS:-3}
for i in $(seq $ROUNDS); do
  for s in "8192 8192 8192" "4096 7168 16384"; do
    [ $(left) -gt 70 ] || break 2
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g "plain$i" CUTE_RS_PTX_DIR=/tmp/pvmain
    GARGS="--dtype e4m3 --m $1 --n $2 --k $3 --bias m"; g "ident$i" CUTE_RS_PTX_DIR=/tmp/pvmain
    for v in main new nos bf; do GARGS="--dtype e4m3 --m $1 --n $2 --k $3 --bias m --act gelu"; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v; done
  done
done
export CUTE_RS_PTX_DIR=/tmp/pvmain
SEC="--section SourceCounters --section SpeedOfLight --section InstructionStats --section WarpStateStats" ncu_src plain -k regex:gemm_fp8 $H gemm --dtype e4m3 --m 8192 --n 8192 --k 8192
SEC="--section SourceCounters --section SpeedOfLight --section InstructionStats --section WarpStateStats" ncu_src fused -k regex:gemm_fp8 $H gemm --dtype e4m3 --m 8192 --n 8192 --k 8192 --bias m --act gelu
for n in plain fused; do t "N $n $(grep -E '"(Duration|Executed Instructions|SM Frequency|Issue Slots Busy|No Eligible)"' $R/det-$n.csv 2>/dev/null | awk -F'","' '{print $(NF-2)"="$NF}' | tr -d '"' | tr '\n' ' ')"; done
t end
