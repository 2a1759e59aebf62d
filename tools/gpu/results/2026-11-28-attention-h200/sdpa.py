# torch SDPA (cuDNN and FlashAttention-2 backends) on the shapes of attention_check's bench.
import sys, torch
from torch.nn.attention import sdpa_kernel, SDPBackend
import torch.nn.functional as F
dims = [int(x) for x in sys.argv[1:]] or [64, 128, 256]
backs = [("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2", SDPBackend.FLASH_ATTENTION)]
for d in dims:
    for causal in (False, True):
        for sl in (512, 1024, 2048, 4096, 8192, 16384):
            b, h = 16384 // sl, 2048 // d
            q = torch.randn(b, h, sl, d, device="cuda", dtype=torch.bfloat16)
            k = torch.randn_like(q); v = torch.randn_like(q)
            for name, be in backs:
                try:
                    with sdpa_kernel(be):
                        f = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                        f(); torch.cuda.synchronize()
                        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
                        s.record()
                        for _ in range(10): f()
                        e.record(); torch.cuda.synchronize()
                        t = s.elapsed_time(e) / 10
                    fl = 4 * b * h * sl * sl * d / (2 if causal else 1)
                    print(f"RESULT {name} d={d} causal={int(causal)} seqlen={sl} ms={t:.4f} tflops={fl / t / 1e9:.1f}", flush=True)
                except Exception as ex:
                    print(f"RESULT {name} d={d} causal={int(causal)} seqlen={sl} error {ex}".replace("\n", " ")[:300], flush=True)
