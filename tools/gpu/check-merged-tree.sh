#!/usr/bin/env bash
# The check of a merged tree on one Hopper GPU (`bash tools/gpu/check-merged-tree.sh` with D set), in priority order (logs under $OUT, summary.txt
# line by line): host run (every section: copies, TMA, SGEMM, wgmma proofs, hgemm incl. stream-K
# and fused, the FP8 sweep with promotion and block scales, attention, the Ampere GEMM forced);
# the sm_80 build; GEMM / FP8 benches; the Python FP8 GPU tests; memcheck on the stream-K path.
set -u
D=${D:-.gpu/final}   # the carried folder: host.xz (release host, stripped, xz), wheel/*.whl, python/tests
mkdir -p /tmp/check-merged
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/check-merged/host','wb'))"; chmod +x /tmp/check-merged/host
H=/tmp/check-merged/host
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
t start
timeout 150 $H run --sweep-gemm 30 --sweep-copy 20 --sweep-hgemm 100 --sweep-hgemm-sm80 60 --sweep-attention 60 > $O/run.txt 2>&1
t "host run exit $?"; grep -E "passed|failed" $O/run.txt | tail -3 | tee -a $O/summary.txt; grep -E "^FAIL" $O/run.txt | head -20 | tee -a $O/summary.txt
timeout 35 $H --arch sm_80 run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 0 --sweep-hgemm-sm80 40 --sweep-attention 10 > $O/run-sm80.txt 2>&1
t "sm_80 run exit $?"; tail -2 $O/run-sm80.txt | tee -a $O/summary.txt
timeout 25 $H gemm --m 8192 --ta --dtype bf16 --check --bench > $O/gemm8192.txt 2>&1; t "gemm 8192 exit $?"; tail -4 $O/gemm8192.txt | tee -a $O/summary.txt
timeout 20 $H gemm --dtype e4m3 --m 4096 --bench > $O/fp8-promoted-4096.txt 2>&1; t "fp8 promoted 4096 exit $?"; tail -4 $O/fp8-promoted-4096.txt | tee -a $O/summary.txt
timeout 25 $H gemm --dtype e4m3 --block-scales --m 4096 --n 7168 --k 16384 --bench > $O/fp8-block.txt 2>&1; t "fp8 block exit $?"; tail -4 $O/fp8-block.txt | tee -a $O/summary.txt
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" $D/wheel/*.whl 2>&1 | tail -3
( cd $D/python/tests && PYTHONPATH="$SITE" timeout 60 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py test_api.py > $O/pytest.txt 2>&1 ); t "pytest exit $?"; tail -4 $O/pytest.txt | tee -a $O/summary.txt
timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --m 2304 --n 2048 --k 2304 --ta --dtype bf16 --check > $O/memcheck-streamk.txt 2>&1
t "memcheck stream-K exit $?"; grep -E "ERROR SUMMARY|PASS|FAIL" $O/memcheck-streamk.txt | tail -3 | tee -a $O/summary.txt
t end
