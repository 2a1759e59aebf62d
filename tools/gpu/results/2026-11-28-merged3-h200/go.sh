#!/usr/bin/env bash
# Lead's check of the merged tree (merge3): host run with every section (wgmma all 174 + 14 FP8
# proofs, the FP8 sweep, the fused epilogue, attention, the Ampere GEMM forced), the sm_80 build,
# memcheck on the GEMM family and FP8, GEMM/FP8 benches, the Python package's GPU tests (the
# fused epilogue from Python). Logs under $OUT.
set -u
D=.gpu/final3
mkdir -p /tmp/f3
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/f3/host','wb'))"; chmod +x /tmp/f3/host
H=/tmp/f3/host
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
t start
timeout 260 $H run --sweep-gemm 60 --sweep-copy 30 --sweep-hgemm 150 --sweep-hgemm-sm80 100 --sweep-attention 100 > $O/run.txt 2>&1
t "host run exit $?"; grep -E "passed|failed" $O/run.txt | tail -3 | tee -a $O/summary.txt; grep -E "^FAIL" $O/run.txt | head -20 | tee -a $O/summary.txt
timeout 60 $H --arch sm_80 run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 0 --sweep-hgemm-sm80 60 --sweep-attention 10 > $O/run-sm80.txt 2>&1
t "sm_80 run exit $?"; tail -2 $O/run-sm80.txt | tee -a $O/summary.txt
timeout 25 $H gemm --m 8192 --ta --dtype bf16 --check --bench > $O/gemm8192.txt 2>&1; t "gemm 8192 exit $?"
timeout 20 $H gemm --m 4096 --ta --dtype bf16 --check --bench > $O/gemm4096.txt 2>&1; t "gemm 4096 exit $?"
timeout 25 $H gemm --m 8192 --ta --dtype bf16 --bias m --act gelu --check --bench > $O/gemm8192-fused.txt 2>&1; t "fused 8192 exit $?"
timeout 25 $H gemm --dtype e4m3 --fast-accum --m 8192 --check --bench > $O/fp8-8192.txt 2>&1; t "fp8 8192 exit $?"
timeout 20 $H gemm --dtype e4m3 --fast-accum --m 4096 --check --bench > $O/fp8-4096.txt 2>&1; t "fp8 4096 exit $?"
tail -5 $O/gemm8192.txt $O/gemm4096.txt $O/gemm8192-fused.txt $O/fp8-8192.txt $O/fp8-4096.txt | tee -a $O/summary.txt
timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $H run --only hgemm --sweep-hgemm 3 > $O/memcheck-hgemm.txt 2>&1
t "memcheck hgemm exit $?"; grep -E "ERROR SUMMARY|passed|failed" $O/memcheck-hgemm.txt | tail -3 | tee -a $O/summary.txt
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" $D/wheel/*.whl 2>&1 | tail -3
( cd $D/python/tests && PYTHONPATH="$SITE" timeout 100 python3 -m pytest -q -rs -p no:cacheprovider test_gpu.py test_readme.py test_api.py > $O/pytest.txt 2>&1 ); t "pytest exit $?"; tail -6 $O/pytest.txt | tee -a $O/summary.txt
t end
