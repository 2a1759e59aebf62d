"""(session 33, lead) What a part-full last wave costs: ours and cuDNN at head counts that give the persistent grid
whole waves or a part-full last one, and the host's per-call CPU time.

    PYTHONPATH=... python3 part-full-wave.py [rounds]

For each (d, seqlen, heads) prints ms per call (median of batches ~10 ms, ours and cuDNN alternated), the tiles
(128-row m-blocks x heads) and the waves over the device's SMs. If a last wave that is only part full costs a whole
one, t(heads) is flat between the head count that fills the last wave and the one just past the previous wave."""
import statistics, sys, time
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
import cute_rs
# the like-for-like harness's batch timer (part-full-wave.sh copies python/bench_attention.py beside this file)
from bench_attention import time_batch


def shape(d, s, h, rounds):
    g = torch.Generator(device="cuda").manual_seed(7)
    q, k, v = (torch.rand(1, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1 for _ in range(3))
    o = torch.empty(1, s, h, d, device="cuda", dtype=torch.bfloat16)
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    ours = lambda: cute_rs.attention(qt, kt, vt, out=o)
    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            F.scaled_dot_product_attention(q, k, v)
    fns = {"ours": ours, "cudnn": cudnn}
    reps, ts = {}, {n: [] for n in fns}
    for n, f in fns.items():
        f(); f(); reps[n] = max(1, min(200, int(10.0 / max(time_batch(f, 1), 1e-3)) + 1))
    for r in range(rounds):
        for n in (list(fns) if r % 2 == 0 else list(fns)[::-1]):
            ts[n].append(time_batch(fns[n], reps[n]))
    return {n: statistics.median(v) for n, v in ts.items()}

def cpu_per_call(n=200):
    q = torch.rand(1, 128, 1, 64, device="cuda", dtype=torch.bfloat16)
    o = torch.empty_like(q)
    for _ in range(10):
        cute_rs.attention(q, q, q, out=o)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        cute_rs.attention(q, q, q, out=o)
    t1 = time.perf_counter(); torch.cuda.synchronize(); t2 = time.perf_counter()
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        qq = q.transpose(1, 2)
        for _ in range(10):
            F.scaled_dot_product_attention(qq, qq, qq)
        torch.cuda.synchronize(); t3 = time.perf_counter()
        for _ in range(n):
            F.scaled_dot_product_attention(qq, qq, qq)
        t4 = time.perf_counter(); torch.cuda.synchronize()
    print(f"CPU per call (tiny problem): ours {1e6 * (t1 - t0) / n:.1f} us (to idle {1e6 * (t2 - t0) / n:.1f}), "
          f"cuDNN SDPA {1e6 * (t4 - t3) / n:.1f} us", flush=True)

def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    print(f"# {torch.cuda.get_device_name(0)}, {sms} SMs; ms per call (median), tiles of 128 rows, waves = tiles / SMs")
    cpu_per_call()
    cases = [(128, 2048, h) for h in (123, 128, 132)] + [(128, 8192, h) for h in (30, 32, 33)] + \
            [(256, 4096, h) for h in (31, 32, 33)] + [(64, 4096, h) for h in (64, 66)]
    for d, s, h in cases:
        tiles = h * -(-s // 128)
        t = shape(d, s, h, rounds)
        fl = 4.0 * h * s * s * d
        print(f"W d={d} s={s} h={h} tiles={tiles} waves={tiles / sms:.2f} ours {t['ours']:.4f} ms "
              f"({fl / t['ours'] / 1e9:.0f} TF/s, {1e3 * t['ours'] / tiles:.3f} us/tile) cudnn {t['cudnn']:.4f} ms "
              f"({fl / t['cudnn'] / 1e9:.0f} TF/s, {1e3 * t['cudnn'] / tiles:.3f} us/tile) ratio {t['cudnn'] / t['ours']:.3f}",
              flush=True)

if __name__ == "__main__":
    main()
