#!/usr/bin/env bash
# helper fp8 (issue #37, round 4, second package: the lead's call 2c of 2026-11-29): host.xz = branch fp8's release
# host with CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants, ptx/hgemm.ptx = its hgemm module cut to the promoted entries
# (default, paired, pt, paired-pt: `pt` = per-tensor scales only, no block-scale code in the k-tile loop).
# (1) paired vs the default again, alternating, per-tensor and block scales at 4096x7168x16384, and 4096^3 / 8192^3
# (round 4's one sample: paired +5-7 % per-tensor, -3 % with block scales), and pt / paired-pt per-tensor;
# (2) the default with clusters of 1
# (no B multicast); (3) ncu of the promoted default and cuBLASLt's kernel at 4096x7168x16384 with the instruction
# mix and the SASS source counters (why the tensor pipe is 54 % busy against cuBLASLt's 94.5 %).
# (Call 2c ran this script as of 11357d0 with 2bc9e93's host: default/paired only; since 57aa3b0 paired is the
# default and CUTE_RS_FP8_PROMOTED takes default|pt.)
# Run from /work/main's root: bash .gpu/fp8-7/go.sh (~145 s; the ncu step skipped past 120 s); logs under $OUT.
set -u
D=${D:-.gpu/fp8-7}
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/fp8-7-host','wb'))"
  chmod +x /tmp/fp8-7-host; H=/tmp/fp8-7-host
fi
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8-7 CUTE_RS_PTX_DIR=$PWD/$D/ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $O/gpu.txt 2>&1
t "start $(cat $O/gpu.txt)"
S="--m 4096 --n 7168 --k 16384"
# the first process JIT-compiles the cut module (6 entries): a long timeout
CUTE_RS_FP8_PROMOTED=paired timeout 120 $H gemm --dtype e4m3 --m 512 --n 384 --k 2048 --check > $O/check-paired.txt 2>&1
t "JIT + paired check rc=$? $(grep -Eo 'PASS|FAIL' $O/check-paired.txt | head -1)"
for e in pt paired-pt; do
  for k in 2048 528; do
    CUTE_RS_FP8_PROMOTED=$e timeout 30 $H gemm --dtype e4m3 --m 300 --n 200 --k $k --check > $O/check-$e-$k.txt 2>&1
    echo "check $e 300x200x$k rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$e-$k.txt | head -1)" | tee -a $O/summary.txt
  done
done
# bench ENV LABEL ARGS...: the TFLOP/s rows (ours vs cuBLASLt FP8 in the same process) into bench.txt
bench() {
  local e=$1 l=$2; shift 2
  echo "== $e $l" >> $O/bench.txt
  env $e timeout 30 $H gemm --dtype e4m3 "$@" --bench > $O/b.txt 2>&1
  local rc=$?
  grep -E "TFLOP|rror|not supported" $O/b.txt >> $O/bench.txt || tail -n 3 $O/b.txt >> $O/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/bench.txt
}
for e in default paired pt paired-pt default paired pt paired-pt; do bench CUTE_RS_FP8_PROMOTED=$e "4096x7168x16384" $S; done
t "bench per-tensor"
for e in default paired default paired; do bench CUTE_RS_FP8_PROMOTED=$e "block 4096x7168x16384" $S --block-scales; done
t "bench block"
for a in "--m 4096" "--m 8192"; do
  for e in default pt paired-pt; do bench CUTE_RS_FP8_PROMOTED=$e "${a#--m }^3" $a; done
done
t "bench cubes"
bench CUTE_RS_HGEMM_CLUSTER=1 "default, clusters of 1, 4096x7168x16384" $S
t "bench clusters of 1"
# ncu: cuBLASLt's probe launch and ours (the first two matching launches), instruction mix and source counters;
# then the SASS page of the report (per-instruction executed counts and stall samples) as CSV
if [ $(( $(date +%s) - T0 )) -lt 120 ]; then
  timeout 60 ncu --clock-control none -k 'regex:gemm|nvjet' --launch-count 2 \
    --section SpeedOfLight --section WarpStateStats --section InstructionStats --section SourceCounters \
    --import-source no -o $O/prom -f env CUTE_RS_FP8_PROMOTED=default $H gemm --dtype e4m3 $S --bench > $O/ncu-prom-log.txt 2>&1
  t "ncu rc=$?"
  timeout 30 ncu -i $O/prom.ncu-rep --print-summary none > $O/ncu-prom.txt 2>&1
  timeout 30 ncu -i $O/prom.ncu-rep --page source --print-source sass --csv > $O/ncu-prom-sass.csv 2>&1
  t "ncu import rc=$? $(wc -c < $O/ncu-prom-sass.csv) bytes of SASS page"
  xz -T2 -6 $O/ncu-prom-sass.csv 2>/dev/null
  [ -f $O/prom.ncu-rep ] && [ $(wc -c < $O/prom.ncu-rep) -gt 15000000 ] && rm -f $O/prom.ncu-rep
else
  t "ncu skipped (budget)"
fi
t end
cat $O/bench.txt >> $O/summary.txt
