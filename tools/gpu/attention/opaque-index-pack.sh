#!/usr/bin/env bash
# (session 19, lead) Packages .gpu/s19b for opaque-index-ab.sh: a release host (HOST, built with CUTE_RS_ARCHS=sm_90a cargo build
# --release -p host) and two builds' hgemm modules cut to ENTRIES and attention modules: NEW_PTX and MAIN_PTX, each a
# copy of the builder's sm_90a-hgemm.ptx and sm_90a-attention.ptx (target/release/build/cute-rs-*/out/) of that tree.
set -eu
D=${D:-.gpu/s19b}; rm -rf $D; mkdir -p $D/main $D/new
ENTRIES="hgemm_bf16_tn gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted gemm_fp8_e4m3_tn_promoted_n192tma gemm_fp8_e4m3_tn_promoted_n128tma6 gemm_fp8_fused_e4m3_tn_gelu_n192tma"
xz() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), lzma.open(sys.argv[2],'wb',preset=6))" "$1" "$2"; }
for v in main new; do src=$NEW_PTX; [ $v = main ] && src=$MAIN_PTX
  python3 tools/gpu/cut_ptx.py $src/sm_90a-hgemm.ptx /tmp/s19-cut-$v.ptx $ENTRIES
  xz /tmp/s19-cut-$v.ptx $D/$v/hgemm.ptx.xz; xz $src/sm_90a-attention.ptx $D/$v/attention.ptx.xz; done
xz $HOST $D/host.xz
printf '//\n.version 8.0\n.target sm_90a\n.address_size 64\n' > $D/stub.ptx
echo "copy gemm_n gemm_t hgemm_sm80 probe smoke tma wgmma wgmma_mn" > $D/stub-families.txt
ls -la $D $D/main $D/new
