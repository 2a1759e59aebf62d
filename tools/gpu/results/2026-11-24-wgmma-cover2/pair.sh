#!/bin/bash
# cold `cargo xtask build-kernels` from fresh clones, back to back
one() { # label repo dir [commit]
  rm -rf "$3"; git clone -q "$2" "$3" >/dev/null 2>&1; cd "$3" || return
  [ -n "${4:-}" ] && git checkout -q "$4"
  echo "[$1 $(git rev-parse --short HEAD)] load before: $(cat /proc/loadavg)"
  /usr/bin/time -f "$1 %e wall %U user %S sys" cargo xtask build-kernels > /tmp/wgcov2-$1.out 2>/tmp/wgcov2-$1.err
  tail -1 /tmp/wgcov2-$1.err
  cd /; rm -rf "$3"
}
for l in "$@"; do
  case $l in
    MAIN) one MAIN /work/main /tmp/wgcov2-m ;;
    MINE) one MINE /work/wt/wgcov2 /tmp/wgcov2-b ;;
    GOAL1) one GOAL1 /work/wt/wgcov2 /tmp/wgcov2-g 91b9d02 ;;
  esac
done
echo "load after: $(cat /proc/loadavg)"
