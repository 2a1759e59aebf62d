#!/usr/bin/env bash
# (session 35, lead) The half-width last key block (CUTE_RS_ATTENTION=hl, and hs: the warpgroups taking the row halves
# in turns): `host attention ARGS --check` under each variant of $VARS for each ARGS of $VCHECKS (';'-separated),
# memcheck / racecheck / synccheck under $SANV of each of $VSAN, then tools/gpu/attention/lfl-ab-rotated.sh's rotated rounds ($SETS,
# ARGS_X, SPECS_X, ROUNDS_X as there).
#   D=.gpu/s35a NAME=s35a VARS="hl hs" VCHECKS="--batch 2 --heads 8 --seqlen-q 512 --head-dim 64 --causal top-left" \
#     SANV=hs VSAN="--batch 1 --heads 16 --seqlen-q 512 --head-dim 64 --causal top-left" SETS=A ... bash tools/gpu/attention/half-width-last-block.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s35a}
IFS=';' read -ra cs <<< "${VCHECKS:-}"
for v in ${VARS:-hl hs}; do for s in "${cs[@]}"; do
  CUTE_RS_ATTENTION=$v timeout 60 $H attention $s --check > $R/c.txt 2>&1 < /dev/null
  t "C $v rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-160)"
done; done
IFS=';' read -ra ss <<< "${VSAN:-}"
if [ ${#ss[@]} -gt 0 ]; then export CUTE_RS_ATTENTION=${SANV:-hs}; san "${ss[@]}"; unset CUTE_RS_ATTENTION; fi
. tools/gpu/attention/lfl-ab-rotated.sh
