#!/usr/bin/env bash
# (session 15, lead; issue #33) Head dim 128's 176-key tile with the TMA-store epilogue (config::o_boxes gives it
# one box per consumer warpgroup since session 15: its mainloop no longer spills with the TMA path in the entry).
# Is it ahead of 128 x 128 below 8k keys now? The default build; CUTE_RS_ATTENTION=n176 / overlap force the
# 176-key / 128 x 128 tile, CUTE_RS_ATTENTION_EPILOGUE=direct the old store. Package (D, default .gpu/s15a):
# host.xz, native.xz, stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/s15a bash tools/gpu/attention/n176-tma-epilogue.sh
# Sections: C --check (176 keys forced and natural: odd lengths, GQA/MQA, both causal alignments, f16);
# S memcheck / racecheck / synccheck on a 176-key shape; W the forced 176-key sweep (d128 problems);
# P bench_attention.py d128 ours vs cuDNN, n176 / overlap alternated, two rounds.
BUDGET=${BUDGET:-290}; . tools/gpu/lib.sh s15a
mkdir -p /tmp/py15a/cute_rs && cp python/cute_rs/*.py /tmp/py15a/cute_rs/ && cp python/bench_attention.py /tmp/py15a/
x $D/native.xz /tmp/py15a/cute_rs/_native.abi3.so
chk() { timeout 120 $H attention "$@" --check > $R/c.txt 2>&1
  t "C rc=$? ${CUTE_RS_ATTENTION:-default} $(grep -m1 'kernel:' $R/c.txt | cut -c9-60) | $* | $(grep -E 'PASS|FAIL|rror' $R/c.txt | tail -1 | cut -c1-100)"; }
chk --batch 1 --heads 4 --seqlen-q 3000 --seqlen-k 9000 --head-dim 128
chk --batch 2 --heads 4 --heads-kv 1 --seqlen-q 8300 --head-dim 128 --dtype f16
export CUTE_RS_ATTENTION=n176
chk --batch 2 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128
chk --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk --batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 128 --causal top-left
chk --batch 1 --heads 8 --heads-kv 1 --seqlen-q 2049 --seqlen-k 2049 --head-dim 128 --dtype f16
chk --batch 3 --heads 2 --seqlen-q 1 --seqlen-k 177 --head-dim 128
chk --batch 1 --heads 3 --seqlen-q 4000 --seqlen-k 170 --head-dim 128 --causal bottom-right
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128 --check > $R/s.txt 2>&1
  t "S $tool rc=$? | $(grep -m1 'kernel:' $R/s.txt | cut -c9-60) | $(grep -E 'ERROR SUMMARY|PASS|FAIL' $R/s.txt | tr '\n' ' ' | cut -c1-120)"
done
timeout 60 $H run --only attention --sweep-attention 120 > $R/w.txt 2>&1
t "W forced n176 sweep rc=$? | $(tail -4 $R/w.txt | tr '\n' ' ' | cut -c1-300)"
unset CUTE_RS_ATTENTION
bench() { # name, env..., round
  local v=$1 i=$2; shift 2
  b=$(( $(left) - 45 )); [ $b -gt 15 ] || { t "P SKIP $v (time)"; return 1; }; [ $b -gt 40 ] && b=40
  (cd /tmp/py15a && env "$@" PYTHONPATH=/tmp/py15a timeout $b python3 bench_attention.py --head-dims 128 \
    --seqlens 1024,2048,4096,8192,16384 --masks none --backends ours,cudnn --rounds 4 --json $R/ba-$v-$i.json > $R/ba-$v-$i.txt 2>&1); t "P $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/ba-$v-$i.txt | tee -a $S
}
for i in 1 2; do
  bench n176 $i CUTE_RS_ATTENTION=n176 || break
  bench overlap $i CUTE_RS_ATTENTION=overlap || break
done
t end
