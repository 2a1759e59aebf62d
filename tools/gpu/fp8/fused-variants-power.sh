#!/usr/bin/env bash
# (session 54; issue #37) Run s53a (tools/gpu/fp8/fused-epilogue-cost.sh) timed the fused FP8 bias M + GELU entry at
# 0.90-0.91 of cuBLASLt's GELU_BIAS (main and new) but its two measuring variants at 1.00 (8192³) / 0.98
# (4096×7168×16384): `nos` (no row / column scale vectors) and `bf` (a bf16 D only) — though `bf`'s executed SASS is
# the new entry's (the mainloop and the bf16 TMA chunks 585 / 531 / 529 instructions in both, at the same offsets;
# ptxas 13.0), and cuBLASLt in the same processes ran 3 % slower beside nos / bf (1,188 against 1,224 TFLOP/s).
# Here: (1) the variants in the reverse order and in the s53a order, each `host gemm --bench` with the GPU's power,
# SM clock and throttle reasons sampled every 50 ms (nvidia-smi) beside it; (2) ncu of new and bf at 8192³ with the
# clocks locked to base (`--clock-control base`): cycles and instructions of the two at one clock; (3) the checks
# s53a ran on the wrong module (an f32 D, bias N, relu; an f16 D; over 1e10 multiply-adds).
# Package: s53a's (D=.gpu/s53a; its header says how to make it).
#   D=.gpu/s53a NAME=s54a bash tools/gpu/fp8/fused-variants-power.sh   (~300 s)
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s54a}
for v in main new nos bf; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm_fp8.ptx.xz /tmp/pv$v/hgemm_fp8.ptx; done
mkdir -p /tmp/pvwhole && cp $P/*.ptx /tmp/pvwhole/ && x $D/new/whole.ptx.xz /tmp/pvwhole/hgemm_fp8.ptx
for v in main new nos bf; do CUTE_RS_PTX_DIR=/tmp/pv$v c gemm --dtype e4m3 --m 256 --n 384 --k 256 --bias m --act gelu; done
CUTE_RS_PTX_DIR=/tmp/pvwhole c gemm --dtype e4m3 --m 1024 --n 1030 --k 512 --bias n --act relu --col-scales --out f32
CUTE_RS_PTX_DIR=/tmp/pvwhole c gemm --dtype e4m3 --m 2048 --n 4100 --k 1024 --bias m --act silu --row-scales --col-scales
pw() { local tag=$1; shift
  nvidia-smi --query-gpu=power.draw,clocks.sm,temperature.gpu,clocks_event_reasons.sw_power_cap,clocks_event_reasons.sw_thermal_slowdown \
    --format=csv,noheader,nounits -lms 50 > $R/pw-$tag.txt 2>/dev/null & local p=$!
  g "$tag" "$@"; kill $p 2>/dev/null; wait $p 2>/dev/null
  t "P $tag $(awk -F', ' '$1+0>300 {p+=$1;c+=$2;T=$3;n++; if ($4 ~ /Active/) cap++} END{printf "%.0f W %.0f MHz %d C n=%d power-capped %d", p/n, c/n, T, n, cap}' $R/pw-$tag.txt)"; }
S3="8192 8192 8192"; S4="4096 7168 16384"
for i in 1 2; do
  for s in "$S3" "$S4"; do
    [ $(left) -gt 110 ] || break 2
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3 --bias m --act gelu"
    case $i in 1) order="bf nos new main";; *) order="main new nos bf";; esac
    for v in $order; do pw "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v; done
    GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; pw "plain$i" CUTE_RS_PTX_DIR=/tmp/pvwhole
  done
done
for v in new bf; do
  [ $(left) -gt 40 ] || break
  CUTE_RS_PTX_DIR=/tmp/pv$v timeout 60 ncu --clock-control base --launch-count 1 -k regex:gemm_fp8 --section SpeedOfLight \
    --section InstructionStats --section WarpStateStats --csv $H gemm --dtype e4m3 --m 8192 --n 8192 --k 8192 --bias m --act gelu \
    > $R/ncu-$v.csv 2>&1 < /dev/null
  t "N $v rc=$? $(grep -E '"(Duration|Elapsed Cycles|SM Frequency|Executed Instructions|Warp Cycles Per Issued Instruction)"' $R/ncu-$v.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}' | tr -d '"')"
done
