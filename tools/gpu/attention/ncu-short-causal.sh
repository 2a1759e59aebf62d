#!/usr/bin/env bash
# (session 31, lead) The short causal rows under ncu (--clock-control none, one launch each, ours and cuDNN in one
# process, tools/attention/ncu_pair.py): d128 512 causal and not, d128 2k causal, d256 512 causal. Sections: SpeedOfLight,
# MemoryWorkloadAnalysis, WarpStateStats, LaunchStats, Occupancy. Package: $D/host.xz, $D/native.xz (the default
# release host and Python extension; every module embedded).
#   D=.gpu/s31b NAME=s31b bash tools/gpu/attention/ncu-short-causal.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s31b}
unset CUTE_RS_PTX_DIR
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy"
timeout $(( $(left) - 20 )) env PYTHONPATH=/tmp/py ncu --profile-from-start off --clock-control none $SEC \
  python3 tools/attention/ncu_pair.py ${SHAPES:-128:512:c 128:512 128:2048:c 256:512:c} > $R/n1.txt 2>&1
t "N1 rc=$? $(grep -c 'Section: Warp State' $R/n1.txt) kernels"
cp $R/n1.txt $OUT/
t end
