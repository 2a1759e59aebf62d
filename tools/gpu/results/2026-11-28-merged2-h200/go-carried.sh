#!/usr/bin/env bash
# Lead's check of the merged tree (merge2 8365913): host run with every section and sweep, the
# sm_80 build forced, memcheck on the GEMM family (fused entries included), GEMM benches, the
# candle example. Logs under $OUT.
set -u
mkdir -p /tmp/f2 /tmp/interop
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.gpu/final2z/host.xz'), open('/tmp/f2/host','wb'))"; chmod +x /tmp/f2/host
python3 -c "import lzma,tarfile; tarfile.open(fileobj=lzma.open('.gpu/final2z/interop.tar.xz')).extractall('/tmp/interop')"
H=/tmp/f2/host
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
t start
timeout 280 $H run --sweep-gemm 100 --sweep-copy 50 --sweep-hgemm 150 --sweep-hgemm-sm80 150 --sweep-attention 100 > $O/run.txt 2>&1
t "host run exit $?"; grep -E "^(FAIL|PASS|SKIP)|passed|failed" $O/run.txt | tail -8 | tee -a $O/summary.txt
timeout 90 $H --arch sm_80 run --sweep-gemm 20 --sweep-copy 20 --sweep-hgemm 0 --sweep-hgemm-sm80 40 --sweep-attention 10 > $O/run-sm80.txt 2>&1
t "sm_80 run exit $?"; tail -3 $O/run-sm80.txt | tee -a $O/summary.txt
timeout 80 compute-sanitizer --tool memcheck --print-limit 5 $H run --only hgemm --sweep-hgemm 3 > $O/memcheck-hgemm.txt 2>&1
t "memcheck hgemm exit $?"; grep -E "ERROR SUMMARY|passed|failed" $O/memcheck-hgemm.txt | tail -3 | tee -a $O/summary.txt
timeout 40 $H gemm --m 8192 --ta --dtype bf16 --check --bench > $O/gemm8192.txt 2>&1; t "gemm 8192 exit $?"
timeout 40 $H gemm --m 8192 --ta --dtype bf16 --bias m --act gelu --check --bench > $O/gemm8192-fused.txt 2>&1; t "fused gemm 8192 exit $?"
tail -6 $O/gemm8192.txt $O/gemm8192-fused.txt | tee -a $O/summary.txt
if [ -d /tmp/interop ]; then OUT=$O/interop bash /tmp/interop/go2.sh > $O/interop.txt 2>&1; t "candle/interop exit $?"; tail -12 $O/interop.txt | tee -a $O/summary.txt; fi
t end
