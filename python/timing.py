"""Times callables as the Python benches and the session scripts' A/Bs do: batches of about `batch` milliseconds
(CUDA events), `rounds` rounds with the arms' order reversed every other round, the median batch per arm in
milliseconds a call.

    from timing import medians   # beside the caller (python/bench_fp8.py), or copied next to a GPU script's
    ms = medians({"ours": f, "torch": g})
"""

import statistics

import torch


def batch_ms(f, n):
    """Milliseconds a call of `f` over a batch of `n` back-to-back calls."""
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(n):
        f()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / n


def medians(arms, rounds=9, batch=10.0, pace=None):
    """Each arm called once, then `rounds` alternated rounds of batches of ~`batch` ms (the batch's length from the
    arm `pace`, default the last); the median per arm."""
    for f in arms.values():
        f()
    torch.cuda.synchronize()
    per = max(1, int(batch / max(batch_ms(arms[pace or list(arms)[-1]], 3), 1e-3)))
    t = {k: [] for k in arms}
    for r in range(rounds):
        for k in list(arms) if r % 2 == 0 else list(arms)[::-1]:
            t[k].append(batch_ms(arms[k], per))
    return {k: statistics.median(v) for k, v in t.items()}
