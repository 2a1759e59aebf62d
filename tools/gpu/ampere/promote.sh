#!/bin/bash
# helper "ampere" round 7, issue #35, second call: the clamp mainloop (hgemm-sm80-clamp, round 7's
# winner of tools/gpu/ampere/mainloop.sh) as the default, checked and measured across the
# majorities in about 115 s of one H200. Run from the repository root:
#   OUT=... bash tools/gpu/ampere/promote.sh
# $D (.gpu/ampere7; $AMPERE7 overrides) holds host.xz (a release host; its embedded hgemm_sm80 is
# replaced through CUTE_RS_PTX_DIR), sgemm_sm80.xz (CuTe's tutorial) and clamp-all/ (the promoted
# module, 8 entries: byte-identical to the default build of the promoting commit).
# Prints (summary.txt): the forced sweep of 300, memcheck, each bench's sustained and burst
# TFLOP/s (ours and cuBLAS GemmEx) and ours / tutorial for TN.
set -u
D=${AMPERE7:-.gpu/ampere7}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp7}
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { echo "== skipped (time): $2" | tee -a $S; return 1; }; }
unxz() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$1" "$2" && chmod +x "$2"; }
H=${H:-/tmp/amp7-host}; [ -x "$H" ] || unxz $D/host.xz $H
TUT=${TUT:-/tmp/amp7-tut}; [ -x "$TUT" ] || unxz $D/sgemm_sm80.xz $TUT
export CUTE_RS_PTX_DIR=$D/clamp-all
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
t unpacked
# 1. forced: fixed cases (every majority and element, K = 0 and 1, tile edges, beta), argument
#    errors, 300 random problems of seed 92 vs cuBLAS GemmEx (the module's JIT first: ~10 s)
timeout 100 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300 > $OUT/sweep.txt 2>&1
t "forced sweep 300 rc=$?"
grep -E "passed|FAIL" $OUT/sweep.txt | tail -4 | cut -c1-200 | tee -a $S
# 2. memcheck, a short forced run (the fixed cases and 2 random problems)
timeout 25 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 2 > $OUT/memcheck.txt 2>&1; t "memcheck rc=$?"
grep -E "ERROR SUMMARY|passed" $OUT/memcheck.txt | tail -2 | tee -a $S
tut() { echo "== tutorial TN $1"; timeout 20 $TUT $1 $1 $1 T N 2>&1 | grep -E "CUTE_GEMM|rror"; }
g() { echo "== clamp $*"; timeout 40 $H --arch sm_80 gemm --kernel sm80 "$@" 2>&1 | grep -E "TFLOP|PASS|FAIL|rror"; }
B=$OUT/bench.txt
# 3. the majorities at 4096³ (TN first and last, the tutorial beside), then bf16, f32 C and an
#    edge shape if the time allows
{ tut 4096
  g --m 4096 --dtype f16 --ta --bench
  g --m 4096 --dtype f16 --bench
  g --m 4096 --dtype f16 --tb --bench
  g --m 4096 --dtype f16 --ta --tb --bench
  left 100 "TN again" && g --m 4096 --dtype f16 --ta --bench
  tut 4096
  left 100 "bf16" && g --m 4096 --dtype bf16 --ta --bench
  left 100 "3000x5000x2000" && g --m 3000 --n 5000 --k 2000 --dtype bf16 --ta --bench --check
} > $B 2>&1; t bench
cat $B >> $S
python3 - $B <<'PY' | tee -a $S
import re, sys
tut, rows = [], []
for l in open(sys.argv[1]):
    m = re.search(r"CUTE_GEMM:\s+\[\s*([\d.]+)\]", l)
    if m: tut.append(float(m.group(1)) / 1000); continue
    m = re.match(r"hgemm (\S+) (\w\w)( burst)?\s+(\d+x\d+x\d+)\s+(\d+) TFLOP/s", l)
    if m: rows.append((m.group(1), m.group(2), m.group(4), "burst" if m.group(3) else "sustained", float(m.group(5))))
ref = sum(tut) / len(tut) if tut else float("nan")
print(f"ours / tutorial 4096 TN (mean {ref:.0f}); TN = the mean of ours' TN rows per timing:")
tn = {}
for d, maj, s, kind, tf in rows:
    if d == "f16->f16" and maj == "TN" and s == "4096x4096x4096": tn.setdefault(kind, []).append(tf)
for d, maj, s, kind, tf in rows:
    x = sum(tn[kind]) / len(tn[kind]) if kind in tn else float("nan")
    print(f"  {d:9} {maj} {s:15} {kind:9} {tf:5.0f}  / tutorial {tf / ref:.2f}  / TN {tf / x:.2f}")
PY
t end
