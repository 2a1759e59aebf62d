#!/usr/bin/env bash
# (session 17, lead) Packages .gpu/s17b for scheduler-params-ab.sh: two release hosts (main's and this branch's: HgemmParams differs, so
# each host carries its own PTX), each with its hgemm module cut to the measured entries, and stubs for the other
# families. Run from the branch's checkout:   bash tools/gpu/gemm/scheduler-params-pack.sh [MAIN_REV (default main)]
set -eu
D=.gpu/s17b; MAIN=${1:-main}; rm -rf $D; mkdir -p $D/main $D/new
ENTRIES="hgemm_bf16_tn hgemm_bf16_nn hgemm_bf16_nt hgemm_bf16_tt hgemm_f16_tn hgemm_bf16_tn_pingpong128 hgemm_fused_bf16_tn_gelu gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted gemm_fp8_e4m3_tn_promoted_n192tma gemm_fp8_e4m3_tn_promoted_n128tma6"
xz() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), lzma.open(sys.argv[2],'wb',preset=6))" "$1" "$2"; }
pack() { # tree, its target dir, out dir
  (cd $1 && CARGO_TARGET_DIR=$2 CUTE_RS_ARCHS=sm_90a cargo build -q --release -p host)
  local ptx=$(ls -t $2/release/build/cute-rs-*/out/sm_90a-hgemm.ptx | head -1)
  python3 tools/gpu/cut_ptx.py $ptx /tmp/s17-cut.ptx $ENTRIES
  xz /tmp/s17-cut.ptx $3/hgemm.ptx.xz; xz $2/release/host $3/host.xz; }
W=/tmp/s17-main-tree; rm -rf $W; git worktree add -q --detach $W $MAIN
pack $W $PWD/target/s17-main $D/main
git worktree remove --force $W
pack . $PWD/target $D/new
printf '//\n.version 8.0\n.target sm_90a\n.address_size 64\n' > $D/stub.ptx
echo "copy gemm_n gemm_t hgemm_sm80 probe smoke tma wgmma wgmma_mn attention_ref" > $D/stub-families.txt
ls -la $D $D/main $D/new
