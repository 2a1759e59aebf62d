#!/usr/bin/env bash
# (session 68; issue #34) One fused entry a tile for every activation (`FusedEpilogueDyn`: the activation's code read
# from the parameters, each activation's epilogue its own typed code; `hgemm_fused_bf16_tn{,_pingpong128,_pp64,_n192}`
# in place of five entries a tile): `--check`s of each activation (and the bias alone) on each tile (forced schedules, both bias vectors,
# beta), memcheck (the cut module has only "TN" bf16: no `host run`); then fused bias M + GELU against cuBLASLt's `GELU_BIAS` on each tile's
# shape (4096³ cooperative, 8192×8192×512 ping-pong, 128×7168×8192 64-row ping-pong, 3072³ 128×192) and the plain
# launch at 4096³, two rounds (each `--bench` sustained and burst): against runs s68b–c and s67a's ratios.
# Package $D: host.xz (main's release host) and hgemm.ptx.xz (its module cut to the entries these launches take).
#   BUDGET=220 D=.gpu/s68e NAME=s68e bash tools/gpu/gemm/fused-dyn.sh
BUDGET=${BUDGET:-220}; . tools/gpu/lib.sh ${NAME:-s68e}
timeout 200 $H gemm --dtype bf16 --ta --m 256 --n 256 --k 256 --bias m --act gelu --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/w.txt | head -2 | tr '\n' ' ')"
i=0
for s in cooperative pingpong128 pingpong64 cooperative192; do
  for a in none relu gelu gelu-erf silu; do
    i=$((i + 1)); b=$([ $((i % 2)) = 0 ] && echo n || echo m); beta=$([ $((i % 3)) = 0 ] && echo 0.5 || echo 0)
    act=$([ $a = none ] || echo "--act $a")
    env CUTE_RS_HGEMM_SCHEDULE=$s timeout 60 $H gemm --dtype bf16 --ta --m 1000 --n 1030 --k 1000 --bias $b $act \
      --beta $beta --check > $R/c.txt 2>&1 < /dev/null
    t "C $s $a bias $b beta $beta rc=$? | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | cut -c1-120 | tr '\n' ' ')"
  done
done
env CUTE_RS_HGEMM_SCHEDULE=pingpong64 timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype bf16 \
  --ta --m 300 --n 1030 --k 1000 --bias n --act silu --beta 1 --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
for r in 1 2; do
  for s in "4096 --n 4096 --k 4096" "8192 --n 8192 --k 512" "128 --n 7168 --k 8192" "3072 --n 3072 --k 3072"; do
    [ $(left) -gt 15 ] || break 2; GARGS="--dtype bf16 --ta --m $s --bias m --act gelu"; g fused$r
  done
  [ $(left) -gt 15 ] || break; GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096"; g plain$r
done
t end
