#!/usr/bin/env bash
# (session 18, lead) Packages .gpu/s18a for scheduler-params-shared-addr-ab.sh: main (9e42e00) and the scheduler branch (1328f3c) as
# tools/gpu/gemm/scheduler-params-pack.sh packed them into .gpu/s17b (release host and cut hgemm module each), and this tree's release
# host (built beforehand: CUTE_RS_ARCHS=sm_90a cargo build --release -p host) with its hgemm module cut to the same
# entries (sa1: measured with device::shared::to_shared_addr from the region's symbol; the committed
# dynamic_shared_addr_of in the kernel's alignment check and the epilogue gives the same hgemm module byte for byte);
# attention and its reference not stubbed.
set -eu
D=.gpu/s18a; rm -rf $D; mkdir -p $D/main $D/new $D/sa1
ENTRIES="hgemm_bf16_tn hgemm_bf16_nn hgemm_bf16_nt hgemm_bf16_tt hgemm_f16_tn hgemm_bf16_tn_pingpong128 hgemm_fused_bf16_tn_gelu gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted gemm_fp8_e4m3_tn_promoted_n192tma gemm_fp8_e4m3_tn_promoted_n128tma6"
xz() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), lzma.open(sys.argv[2],'wb',preset=6))" "$1" "$2"; }
cp .gpu/s17b/main/* $D/main/; cp .gpu/s17b/new/* $D/new/
ptx=$(ls -t target/release/build/cute-rs-*/out/sm_90a-hgemm.ptx | head -1)
python3 tools/gpu/cut_ptx.py $ptx /tmp/s18-cut.ptx $ENTRIES
xz /tmp/s18-cut.ptx $D/sa1/hgemm.ptx.xz; xz target/release/host $D/sa1/host.xz
printf '//\n.version 8.0\n.target sm_90a\n.address_size 64\n' > $D/stub.ptx
echo "copy gemm_n gemm_t hgemm_sm80 probe smoke tma wgmma wgmma_mn" > $D/stub-families.txt
ls -la $D $D/main $D/new
