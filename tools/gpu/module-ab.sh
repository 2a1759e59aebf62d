#!/usr/bin/env bash
# One family's module A/B in one call, the same `host` binary: its embedded module ("new") against the module in
# `$D/old/<family>.ptx.xz` ("old", loaded through CUTE_RS_PTX_DIR, as `cargo xtask build-kernels` wrote it on the
# other side of a change), `host attention --bench` on each shape in $SHAPES, the two alternating, $ROUNDS rounds.
# A change that moved code and merged instructions (a kernel's PTX no longer byte-identical) shows here that it
# changed no speed. Package as tools/gpu/closing-check.sh, plus `.gpu/NAME/old/attention.ptx.xz`.
#   D=.gpu/NAME NAME=NAMEab BUDGET=200 bash tools/gpu/module-ab.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-moduleab}
unset CUTE_RS_PTX_DIR
OLD=/tmp/old$GPU_NAME; mkdir -p $OLD
for z in $D/old/*.ptx.xz; do x "$z" $OLD/$(basename "$z" .xz); done
ROUNDS=${ROUNDS:-2}
SHAPES=${SHAPES:-"--batch 4 --heads 16 --seqlen-q 4096 --head-dim 128|--batch 4 --heads 16 --seqlen-q 4096 --head-dim 64|--batch 4 --heads 16 --seqlen-q 2048 --head-dim 256|--batch 2 --heads 16 --seqlen-q 8192 --head-dim 128 --causal top-left"}
# the JIT of both modules first
timeout 120 $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check > $R/w-new.txt 2>&1 < /dev/null
t "warm new rc=$? $(grep -Eo 'PASS|FAIL' $R/w-new.txt | head -1)"
CUTE_RS_PTX_DIR=$OLD timeout 120 $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check > $R/w-old.txt 2>&1 < /dev/null
t "warm old rc=$? $(grep -Eo 'PASS|FAIL' $R/w-old.txt | head -1)"
IFS='|' read -ra SH <<< "$SHAPES"
for r in $(seq $ROUNDS); do for s in "${SH[@]}"; do for v in new old; do
  [ $(left) -gt 15 ] || { t "SKIP (time)"; break 3; }
  if [ $v = old ]; then e="CUTE_RS_PTX_DIR=$OLD"; else e="X=1"; fi
  env $e timeout 30 $H attention $s --bench > $R/b.txt 2>&1 < /dev/null
  t "A r$r $v rc=$? | $s | $(grep -E 'TFLOP' $R/b.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"
done; done; done
t end
