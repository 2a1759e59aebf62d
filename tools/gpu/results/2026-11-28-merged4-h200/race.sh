#!/usr/bin/env bash
# racecheck and synccheck on the stream-K path and the FP8 promoted / block-scaled path (merge4 kernels).
set -u
D=.gpu/final4; mkdir -p /tmp/f4
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/f4/host','wb'))"; chmod +x /tmp/f4/host
H=/tmp/f4/host; O=${OUT:-/tmp/out}; mkdir -p $O
for tool in racecheck synccheck; do
  timeout 70 compute-sanitizer --tool $tool --print-limit 5 $H gemm --m 2304 --n 2048 --k 2304 --ta --dtype bf16 --check > $O/$tool-streamk.txt 2>&1
  echo "$tool stream-K exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/$tool-streamk.txt | tail -1) $(grep -oE ' PASS | FAIL ' $O/$tool-streamk.txt | head -1)" | tee -a $O/summary.txt
  timeout 40 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 300 --n 200 --k 528 --check --block-scales > $O/$tool-fp8.txt 2>&1
  echo "$tool fp8 block exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/$tool-fp8.txt | tail -1) $(grep -oE ' PASS | FAIL ' $O/$tool-fp8.txt | head -1)" | tee -a $O/summary.txt
done
