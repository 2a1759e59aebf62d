# Shared preamble of the device scripts (source it: `. tools/gpu/lib.sh NAME`, NAME e.g. s15a; bash, run from the repo root with
# $OUT set by the device tool). NAME names the run's folders: /tmp/rNAME (logs, summary.txt: copied to $OUT at exit,
# with a tarball of the folder), /tmp/pNAME (the PTX directory: stubs for the families in $D/stub-families.txt, and
# $D/<family>.ptx.xz unpacked for each one present), the JIT cache /tmp/nvc-NAME. It unpacks $D/host.xz to $H and
# defines:
#   x SRC.xz DST   unpack an xz file (python's lzma: no xz binary on the device)
#   t TEXT...      print "[t=N s] TEXT" and append it to the summary
#   left           seconds left of $BUDGET (default 200) since the start
#   g TAG [VAR=value...]   one `host gemm $GARGS --bench` with those variables set, its TFLOP/s lines in the summary
#                  as "G TAG rc=N | $GARGS | ..." (the sessions' A/B rounds)
#   ncu_src NAME ncu-options... command...   one ncu launch with the sections in $SEC (default: SourceCounters,
#                  WarpStateStats, SpeedOfLight), its per-SASS source counters as $OUT/src-NAME.csv.xz and its details
#                  as $OUT/det-NAME.csv (skipped when under 30 s are left)
#   prof NAME COUNT ARGS...   ncu (`--clock-control none`) of the first COUNT launches of ARGS (`-k regex:...` first to
#                  filter), the per-kernel summary of the metrics in $M (a `--metrics a,b,...` option; default: time,
#                  clock, warp instructions, L2 and DRAM bytes, the launch's shape) in the summary (skipped under 25 s left)
#   san "ARGS"...  memcheck, racecheck and synccheck of `host attention ARGS --check` for each ARGS, a summary line each
#   attn_table N   python/bench_attention.py's whole table (seqlens 512 … 16k), N rounds, rows in the summary
#   warm           the closing calls' warm-up: a bf16, an e4m3 and an attention `--check` (each module's JIT, or its
#                  cubin's load where $D/cubin has it) beside
#                  `host run --only tma`, one summary line each
#   c ARGS...      one `host ARGS --check`, its verdict in the summary as "C rc=N ARGS | PASS"
#   sweeps         the FP8 sweep (`host gemm --dtype e4m3`) and `host run --only hgemm`, a summary line each
#   fms "VAR=value..." TIMEOUT ARGS...   memcheck of `host gemm --dtype e4m3 ARGS --block-scales --check` with those
#                  variables, timed, its log kept ($R/msN.txt), a summary line "MN VARS rc=… S s | ARGS | verdict | the
#                  log's first lines" (what it reported before a limit)
#   ab "V..." ARGS...   $ROUNDS (default 2) rounds: for each ARGS, `g` of each variant V with CUTE_RS_PTX_DIR=/tmp/pvV
#                  (tagged V<round>), alternated; stops when under 25 s are left (the sessions' A/B loops)
#   variants "V..." MODULE ARGS...   for each variant V: /tmp/pvV holds the package's PTX with $D/V/MODULE.ptx.xz in
#                  place of MODULE's; then every variant's JIT at once, through `host gemm ARGS --check` in parallel, one
#                  summary line ("JIT ..."); `ab` then times them
# and exports CUTE_RS_PTX_DIR, CUTE_RS_CUBIN_DIR (/tmp/cNAME: the cubins of $D/cubin/*.cubin.xz,
# tools/gpu/pack-cubins.sh), CUDA_CACHE_PATH, CUDA_CACHE_MAXSIZE. D defaults to .gpu/NAME.
set -u
GPU_NAME=$1
D=${D:-.gpu/$GPU_NAME}; R=/tmp/r$GPU_NAME; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-$GPU_NAME
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-200}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
gpu_fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r$GPU_NAME.tgz -C /tmp r$GPU_NAME 2>/dev/null; exit 0; }
trap gpu_fin EXIT
x $D/host.xz /tmp/h$GPU_NAME && chmod +x /tmp/h$GPU_NAME; H=/tmp/h$GPU_NAME
P=/tmp/p$GPU_NAME; mkdir -p $P
for f in $(cat $D/stub-families.txt 2>/dev/null); do cp $D/stub.ptx $P/$f.ptx; done
for z in $D/*.ptx.xz; do [ -e "$z" ] && x "$z" $P/$(basename "$z" .xz); done
export CUTE_RS_PTX_DIR=$P
# the cubins of $D/cubin/ (tools/gpu/pack-cubins.sh; named by the text they were assembled from, so one folder holds
# the cubins of several PTX variants): loaded in place of the driver's JIT where they match the text loaded
C=/tmp/c$GPU_NAME; mkdir -p $C
for z in $D/cubin/*.cubin.xz; do [ -e "$z" ] && x "$z" $C/$(basename "$z" .xz); done
export CUTE_RS_CUBIN_DIR=$C
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
ncu_src() {
  local n=$1; shift
  [ $(left) -gt 30 ] || { t "S $n SKIP (time)"; return; }
  timeout $(( $(left) - 20 )) ncu --clock-control none --launch-count 1 \
    ${SEC:---section SourceCounters --section WarpStateStats --section SpeedOfLight} -o $R/$n "$@" > $R/ncu-$n.txt 2>&1
  local rc=$?
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/src-$n.csv 2> $R/src-$n.err || \
    ncu -i $R/$n.ncu-rep --page source --csv > $R/src-$n.csv 2>> $R/src-$n.err
  ncu -i $R/$n.ncu-rep --page details --csv > $R/det-$n.csv 2>/dev/null
  t "S $n rc=$rc csv=$(wc -l < $R/src-$n.csv) lines"
  python3 -c "import lzma,sys;open(sys.argv[1]+'.xz','wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" $R/src-$n.csv
  cp $R/src-$n.csv.xz $R/det-$n.csv $OUT/ 2>/dev/null
}
M=${M:---metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,launch__grid_size,launch__cluster_dim_x,launch__block_size,launch__shared_mem_per_block_dynamic}
prof() { local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|$(echo "${M#--metrics }" | tr ',' '|')" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S; }
g() { local tag=$1; shift; env "$@" timeout 60 $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
san() {
  local s tool; for s in "$@"; do for tool in memcheck racecheck synccheck; do
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H attention $s --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done; }
attn_table() {
  mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
  x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
  local i; for i in $(seq $1); do [ $(left) -gt 80 ] || break
    (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 > $R/b-$i.txt 2>&1)
    t "bench_attention.py round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i.txt | tee -a $S; done; }
warm() {
  timeout 300 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null &
  timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
  timeout 300 $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check > $R/w2.txt 2>&1 < /dev/null &
  timeout 300 $H run --only tma > $R/w3.txt 2>&1 < /dev/null
  t "tma copies rc=$? $(grep -cE 'PASS' $R/w3.txt) PASS, $(grep -cE 'FAIL' $R/w3.txt) FAIL"
  wait; t "warm $(cat $R/w0.txt $R/w1.txt $R/w2.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"; }
c() { timeout 120 $H "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*|^host [a-z]+: .*' $R/c.txt | head -2 | cut -c1-160 | tr '\n' ' ')"; }
sweeps() {
  timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
  t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
  timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null
  t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"; }
fms_i=0
fms() { local v=$1 to=$2; shift 2; local t0=$(date +%s); fms_i=$((fms_i + 1))
  env $v timeout $to compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype e4m3 "$@" --block-scales \
    --check > $R/ms$fms_i.txt 2>&1 < /dev/null
  t "M$fms_i $v rc=$? $(( $(date +%s) - t0 )) s | $* | $(grep -E 'ERROR SUMMARY' $R/ms$fms_i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/ms$fms_i.txt | head -1) | $(grep -vE '^(device|problem|kernel|gemm_fp8|1 passed)' $R/ms$fms_i.txt | head -3 | cut -c1-150 | tr '\n' '/')"; }
variants() { local vs=$1 m=$2 v; shift 2
  for v in $vs; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done
  for v in $vs; do CUTE_RS_PTX_DIR=/tmp/pv$v timeout 150 $H gemm "$@" --check > $R/j$v.txt 2>&1 < /dev/null & done; wait
  t "JIT $(for v in $vs; do echo "$v $(grep -Eo 'PASS|FAIL' $R/j$v.txt | head -1)"; done | tr '\n' ' ')"; }
ab() { local vs=$1 i a v; shift; for i in $(seq ${ROUNDS:-2}); do for a in "$@"; do for v in $vs; do
  [ $(left) -gt 25 ] || return 0; GARGS="$a"; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v; done; done; done; }
