#!/bin/bash
# wgtma run 2: the cluster row after the convergence fix
D=.gpu/wgtma
cd "$(dirname "$0")/../.."
nvidia-smi -L | tee $OUT/gpu2.txt
timeout 40 $D/host run --only tma --sweep-copy 0 > $OUT/tma_cluster2.log 2>&1; echo "rc=$?" >> $OUT/tma_cluster2.log
cat $OUT/tma_cluster2.log
{ timeout 40 compute-sanitizer --tool memcheck $D/host run --only tma --sweep-copy 0; echo "rc=$?";
  timeout 40 compute-sanitizer --tool racecheck $D/host run --only tma --sweep-copy 0; echo "rc=$?"; } > $OUT/sanitize_cluster2.log 2>&1
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=|cluster|passed" $OUT/sanitize_cluster2.log
ptxas -arch=sm_90a $D/tma.ptx -o /tmp/t.cubin && cuobjdump -sass -fun tma_multicast_cluster2 /tmp/t.cubin | grep -E "UTMALDG|UCGABAR|SYNCS|UBLKCP" > $OUT/sass_cluster.txt 2>&1; cat $OUT/sass_cluster.txt
