#!/usr/bin/env bash
# (session 16, lead) The committed tree's check (the mainloop peels only where the wgmmas accumulate across
# k-tiles): the pipeline waits' suspend hint and the peeled first k-tile in every default entry. R the 16-bit sweep
# (host run --only hgemm), the FP8 sweep (219), the attention sweep (host run --only attention); S memcheck /
# racecheck / synccheck on a cluster TMA hgemm shape, K = 0, an FP8 and an attention shape; P bench_attention.py ours
# vs cuDNN (d64/d128/d256, 1k/2k/8k, non-causal and causal, one round) and host gemm --bench bf16 TN 2048^3, 4096^3,
# 8192^3. Package (D, default .gpu/s16d): host.xz, native.xz (the default release host and Python extension),
# stub.ptx + stub-families.txt (hgemm and attention embedded).   D=.gpu/s16d bash tools/gpu/closing/suspend-hint-peel.sh
BUDGET=${BUDGET:-360}; . tools/gpu/lib.sh s16d
mkdir -p /tmp/py16d/cute_rs && cp python/cute_rs/*.py /tmp/py16d/cute_rs/ && cp python/bench_attention.py /tmp/py16d/
x $D/native.xz /tmp/py16d/cute_rs/_native.abi3.so
timeout 150 $H run --only hgemm --sweep-hgemm 60 > $R/hg.txt 2>&1 < /dev/null
t "R host run --only hgemm rc=$? $(grep -E 'passed|failed' $R/hg.txt | tail -1)"; grep FAIL $R/hg.txt | head -3 | cut -c1-200 | tee -a $S
timeout 90 $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null
t "R FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"; grep FAIL $R/f8.txt | head -3 | cut -c1-200 | tee -a $S
timeout 120 $H run --only attention > $R/at.txt 2>&1 < /dev/null
t "R host run --only attention rc=$? $(grep -E 'passed|failed' $R/at.txt | tail -1)"; grep FAIL $R/at.txt | head -3 | cut -c1-200 | tee -a $S
san() { local tool=$1; shift
  timeout 40 compute-sanitizer --tool $tool $H "$@" --check > $R/s.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $* | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1)"; }
for tool in memcheck racecheck synccheck; do san $tool gemm --ta --dtype bf16 --m 600 --n 520 --k 700; done
san memcheck gemm --dtype bf16 --m 300 --n 260 --k 0 --beta 1
san memcheck gemm --dtype e4m3 --m 300 --n 200 --k 528
for tool in memcheck racecheck synccheck; do san $tool attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128; done
b=$(( $(left) - 60 )); [ $b -gt 90 ] && b=90
(cd /tmp/py16d && PYTHONPATH=/tmp/py16d timeout $b python3 bench_attention.py --head-dims 64,128,256 --seqlens 1024,2048,8192 \
  --masks none,causal --backends ours,cudnn --rounds 3 > $R/ba.txt 2>&1); t "P bench_attention rc=$?"
grep -E "^ +(64|128|256) " $R/ba.txt | tee -a $S
for m in 2048 4096 8192; do [ $(left) -gt 15 ] || break
  timeout 20 $H gemm --ta --dtype bf16 --m $m --bench > $R/g.txt 2>&1; t "P gemm bf16 TN $m rc=$? | $(grep -E 'TFLOP' $R/g.txt | sed -E 's/ +/ /g' | cut -d' ' -f4- | cut -c1-120 | tr '\n' '|')"; done
t end
