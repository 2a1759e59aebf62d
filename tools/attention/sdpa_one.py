#!/usr/bin/env python3
"""One cuDNN SDPA forward (torch, bf16, non-causal) on one bench shape, for a profiler:

    ncu --set full -k regex:sdpa -c 1 -o cudnn python3 tools/attention/sdpa_one.py [D] [SEQLEN]

Head dim D (default 128) and SEQLEN (default 512) at 16k tokens, 2048 / D heads: the shape of
`host bench attention` and of `host attention --batch 16384/S --heads 2048/D --seqlen-q S
--head-dim D`.
"""
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

d = int(sys.argv[1]) if len(sys.argv) > 1 else 128
s = int(sys.argv[2]) if len(sys.argv) > 2 else 512
b, h = 16384 // s, 2048 // d
q, k, v = (torch.rand(b, h, s, d, device="cuda", dtype=torch.bfloat16) * 2 - 1 for _ in range(3))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    for _ in range(2):
        F.scaled_dot_product_attention(q, k, v)
torch.cuda.synchronize()
print(f"sdpa cudnn b{b} h{h} s{s} d{d}: done")
