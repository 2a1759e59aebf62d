#!/usr/bin/env bash
# Session 42: the racecheck flags `cargo xtask sanitize` now uses (`--print-limit 0 --show-backtrace no`, the report read
# for our kernels' hazards), on a problem whose cuBLAS reference reports over a thousand.
#   D=.gpu/s42a NAME=s42g BUDGET=150 bash tools/gpu/sanitize/racecheck-print-limit.sh
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s42g}
mkdir -p /tmp/pn; x $D/n/hgemm.ptx.xz /tmp/pn/hgemm.ptx; x $D/n/hgemm_fp8.ptx.xz /tmp/pn/hgemm_fp8.ptx; export CUTE_RS_PTX_DIR=/tmp/pn
timeout 120 $H gemm --dtype f16 --m 256 --n 256 --k 1024 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null; t "warm $(grep -Eo 'PASS|FAIL' $R/w0.txt)"
timeout 100 compute-sanitizer --tool racecheck --print-limit 0 --show-backtrace no $H gemm --dtype f16 --m 1032 --n 2048 --k 1024 --beta 1 --check > $R/r.txt 2>&1 < /dev/null
t "racecheck rc=$? lines=$(wc -l < $R/r.txt) hazards=$(grep -c 'hazard detected' $R/r.txt) frames=$(grep -c 'Host Frame' $R/r.txt) | $(grep -E 'SUMMARY' $R/r.txt) $(grep -Eo 'PASS|FAIL' $R/r.txt | head -1)"
python3 -c "import lzma,sys;open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" $R/r.txt $OUT/r.txt.xz
t end
