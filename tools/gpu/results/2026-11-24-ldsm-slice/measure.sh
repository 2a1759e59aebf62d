#!/bin/bash
# usage: measure.sh DIR LABEL -> per test binary CPU (user+sys) of a rebuild after touch, CARGO_INCREMENTAL=0
cd "$1"
export CUTE_RS_SKIP_PTX=1 CARGO_INCREMENTAL=0
for spec in $TARGETS; do
  pkg=${spec%%:*}; rest=${spec#*:}; name=${rest%%=*}; file=${rest#*=}
  touch "$file"
  /usr/bin/time -f "%U %S %e" -o /tmp/m.$$ cargo test -q -p "$pkg" --test "$name" --no-run >/dev/null 2>&1
  read u s e < /tmp/m.$$
  echo "$2 $pkg/$name cpu=$(echo "$u + $s" | bc) wall=$e"
done
