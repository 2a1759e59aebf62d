#!/bin/bash
for d in "$@"; do
  cd $d
  CUTE_RS_SKIP_PTX=1 /usr/bin/time -f "$d cold test --no-run: %e s wall, %U user, %S sys" cargo test --workspace --no-run > /tmp/cold.$(basename $d).log 2>&1
  tail -1 /tmp/cold.$(basename $d).log >> /tmp/cold.txt
  uptime >> /tmp/cold.txt
done
