#!/bin/bash
# wgmma proof kernels: check, sanitizers, SASS. Logs under $OUT.
D=.gpu/wgmma
cd "$(dirname "$0")/../.." || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
$D/host wgmma 2>&1 | tee $OUT/wgmma.txt | tail -70
SEED=$(grep -o 'seed 0x[0-9a-f]*' $OUT/wgmma.txt | tail -1 | cut -d' ' -f2)
for t in memcheck racecheck synccheck; do
  echo "== compute-sanitizer --tool $t host wgmma --seed $SEED"
  timeout 100 compute-sanitizer --tool $t $D/host wgmma --seed $SEED > $OUT/san-$t.txt 2>&1; echo "rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|configurations passed" $OUT/san-$t.txt
done
ptxas -arch=sm_90a -v $D/wgmma.ptx -o /tmp/wgmma.cubin > $OUT/ptxas.txt 2>&1; echo "ptxas rc=$?"; grep -c "Potential Performance Loss" $OUT/ptxas.txt
cuobjdump -sass /tmp/wgmma.cubin > /tmp/sass.txt; echo "HGMMA lines: $(grep -c HGMMA /tmp/sass.txt)"; grep -o "HGMMA\.[A-Za-z0-9_.]*" /tmp/sass.txt | sort | uniq -c | sort -rn | head -20
awk '/Function :/{f=0} /Function : wgmma_ss_bf16_kk_sw128_n256$/{f=1} f' /tmp/sass.txt | grep -E "HGMMA|WARPGROUP" > $OUT/sass_excerpt.txt; cat $OUT/sass_excerpt.txt
echo "LDL/STL: $(grep -c "LDL\|STL" /tmp/sass.txt)"
awk '/Function :/{f=0} /Function : wgmma_ws_f16_m128n128$/{f=1} f' /tmp/sass.txt | grep -E "HGMMA|WARPGROUP|USETMAXREG|STSM|BAR" > $OUT/sass_ws.txt; cat $OUT/sass_ws.txt | cut -c1-90
