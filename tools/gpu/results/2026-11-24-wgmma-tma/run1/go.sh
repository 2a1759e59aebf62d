#!/bin/bash
# wgtma: wgmma proof kernels loading A/B by TMA + the 2-CTA multicast cluster proof
D=.gpu/wgtma
cd "$(dirname "$0")/../.."
nvidia-smi -L | tee $OUT/gpu.txt
echo "== host wgmma" ; timeout 60 $D/host wgmma --seed 0x25 > $OUT/wgmma.log 2>&1; echo "rc=$?" | tee -a $OUT/wgmma.log
tail -8 $OUT/wgmma.log; grep -c PASS $OUT/wgmma.log; grep FAIL $OUT/wgmma.log | head
echo "== host run --only tma --sweep-copy 0 (TMA copies + cluster row)"
timeout 60 $D/host run --only tma --sweep-copy 0 > $OUT/tma_cluster.log 2>&1; echo "rc=$?" | tee -a $OUT/tma_cluster.log
cat $OUT/tma_cluster.log | tail -15
echo "== memcheck"
timeout 120 compute-sanitizer --tool memcheck $D/host wgmma --seed 0x25 > $OUT/memcheck.log 2>&1; echo "rc=$?" | tee -a $OUT/memcheck.log
tail -4 $OUT/memcheck.log
echo "== racecheck"
timeout 150 compute-sanitizer --tool racecheck $D/host wgmma --seed 0x25 > $OUT/racecheck.log 2>&1; echo "rc=$?" | tee -a $OUT/racecheck.log
tail -4 $OUT/racecheck.log
echo "== memcheck + racecheck on the cluster row"
{ timeout 60 compute-sanitizer --tool memcheck $D/host run --only tma --sweep-copy 0; echo "rc=$?";
  timeout 60 compute-sanitizer --tool racecheck $D/host run --only tma --sweep-copy 0; echo "rc=$?"; } > $OUT/sanitize_cluster.log 2>&1
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=|cluster" $OUT/sanitize_cluster.log
echo "== SASS"
{ ptxas -arch=sm_90a $D/wgmma.ptx -o /tmp/x.cubin && cuobjdump -sass /tmp/x.cubin > /tmp/x.sass;
  echo "UTMALDG in wgmma module: $(grep -c UTMALDG /tmp/x.sass)";
  echo "functions: $(grep -c 'Function :' /tmp/x.sass)";
  awk '/Function :/{f=$3} /UTMALDG/{c[f]++} END{for(k in c) print k, c[k]}' /tmp/x.sass | sort;
  grep -m3 UTMALDG /tmp/x.sass;
  ptxas -arch=sm_90a $D/tma.ptx -o /tmp/t.cubin && cuobjdump -sass -fun tma_multicast_cluster2 /tmp/t.cubin | grep -E "UTMALDG|UCGABAR|SYNCS" ; } > $OUT/sass.txt 2>&1
head -5 $OUT/sass.txt; tail -6 $OUT/sass.txt
