#!/usr/bin/env bash
# (session 21, lead) Packages $D for producer-warp-ab.sh: the branch's release host (HOST, CUTE_RS_ARCHS=sm_90a cargo build --release
# -p host) and two builds' hgemm modules cut to ENTRIES, and their bf16 attention entries: NEW_PTX and MAIN_PTX, each a
# builder output folder (target/release/build/cute-rs-*/out/) holding sm_90a-hgemm.ptx and sm_90a-attention.ptx.
#      NEW_PTX=... MAIN_PTX=... HOST=... D=.gpu/s21a bash tools/gpu/gemm/producer-warp-pack.sh
set -eu
D=${D:-.gpu/s21a}; rm -rf $D; mkdir -p $D/main $D/new
ENTRIES="hgemm_bf16_tn hgemm_bf16_nn hgemm_bf16_tn_pingpong128 hgemm_fused_bf16_tn_gelu gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted gemm_fp8_e4m3_tn_promoted_n192tma gemm_fp8_e4m3_tn_promoted_n128tma6 gemm_fp8_e4m3_tn_promoted_staged_n192tma"
AENTRIES="attention_fwd_bf16_d64 attention_fwd_bf16_d64_qr attention_fwd_bf16_d64_m192 attention_fwd_bf16_d128 attention_fwd_bf16_d128_n176 attention_fwd_bf16_d256 attention_fwd_bf16_d256_n64"
xz() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), lzma.open(sys.argv[2],'wb',preset=6))" "$1" "$2"; }
for v in main new; do src=$NEW_PTX; [ $v = main ] && src=$MAIN_PTX
  python3 tools/gpu/cut_ptx.py $src/sm_90a-hgemm.ptx /tmp/s21-cut-$v.ptx $ENTRIES
  python3 tools/gpu/cut_ptx.py $src/sm_90a-attention.ptx /tmp/s21-acut-$v.ptx $AENTRIES
  xz /tmp/s21-cut-$v.ptx $D/$v/hgemm.ptx.xz; xz /tmp/s21-acut-$v.ptx $D/$v/attention.ptx.xz; done
xz $HOST $D/host.xz
printf '//\n.version 8.0\n.target sm_90a\n.address_size 64\n' > $D/stub.ptx
echo "copy gemm_n gemm_t hgemm_sm80 probe smoke tma wgmma wgmma_mn attention_ref" > $D/stub-families.txt
ls -la $D $D/main $D/new
