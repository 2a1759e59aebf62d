"""cute_rs.attention against torch's scaled_dot_product_attention (fp32, the math backend) on
the GPU: head dims, dtypes, masks, GQA/MQA, views, varlen, streams, ownership.

Every O element is compared within doc/attention.md's bound (derived there, not tuned: the
kernel's and the fp32 reference's error lines), the LSE within its own. Skipped (visibly)
without torch or without a Hopper GPU."""

import gc
import math
import time

import pytest

import cute_rs
from fake_dlpack import Producer, no_gpu_reason

torch = pytest.importorskip("torch")
F = torch.nn.functional
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402


_NO_GPU = no_gpu_reason(torch, "attention kernel")
pytestmark = pytest.mark.skipif(_NO_GPU is not None, reason=f"no GPU for these tests: {_NO_GPU}")

BF16, F16 = torch.bfloat16, torch.float16
U = 2.0**-24
U16 = {BF16: 2.0**-8, F16: 2.0**-11}
TAU = {BF16: 2.0**-126, F16: 2.0**-25}
EXP = 2.0**-21


def gamma(k):
    return 2 * k * U / (1 - 2 * k * U)


def rand(*shape, dtype=BF16, scale=1.0):
    return (torch.randn(*shape, device="cuda", dtype=torch.float32) * scale).to(dtype)


def visible(sq, sk, causal):
    i = torch.arange(sq, device="cuda")[:, None]
    j = torch.arange(sk, device="cuda")[None, :]
    if causal == "top_left":
        return j <= i
    if causal == "bottom_right":
        return j <= i + (sk - sq)
    return torch.ones(sq, sk, dtype=torch.bool, device="cuda")


def reference(q, k, v, causal=None, scale=None):
    """O and LSE in fp32 (SDPA's math backend for O) in q's layout (batch, seqlen, heads, d),
    and doc/attention.md's bounds on |O - O_ref| and |LSE - LSE_ref|."""
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    scale = 1 / math.sqrt(d) if scale is None else scale
    qf = q.float().transpose(1, 2)
    kf = k.float().transpose(1, 2).repeat_interleave(h // hk, dim=1)
    vf = v.float().transpose(1, 2).repeat_interleave(h // hk, dim=1)
    mask = visible(sq, sk, causal)
    with sdpa_kernel(SDPBackend.MATH):
        o = F.scaled_dot_product_attention(qf, kf, vf, attn_mask=mask, scale=scale)
    s = (qf @ kf.transpose(-1, -2) * scale).masked_fill(~mask, -math.inf)
    n = mask.sum(-1).float()  # visible keys per query row
    empty = n == 0
    o = torch.where(empty[:, None], 0.0, torch.nan_to_num(o))
    lse = torch.where(empty, math.inf, torch.logsumexp(s, -1))
    p = torch.nan_to_num(torch.softmax(s, -1))
    a = p @ vf.abs()  # A_c
    r_mag = scale * (qf.abs() @ kf.abs().transpose(-1, -2)).masked_fill(~mask, 0).amax(-1)  # R
    r = torch.ceil(n / 32)
    eps_p = 2 * gamma(d) * r_mag + 6 * U * r_mag + EXP
    eps_r = EXP + 6 * U * r_mag
    u16, tau = U16[q.dtype], TAU[q.dtype]
    kern = (2 * u16 + 2 * eps_p + r * eps_r + 2 * gamma(n + r) + 2 * U)[..., None] * a
    kern = kern + tau * (n[:, None] * vf.abs().amax() + 1)
    ref = (2 * eps_p + 2 * gamma(n) + U)[..., None] * a
    bound_o = (kern + ref) * (1 + 2.0**-6)
    ln_n = torch.log(n.clamp(min=1))
    side = gamma(d) * r_mag + U * r_mag + eps_p + EXP * (2 + ln_n) + 2 * U * (r_mag + ln_n)
    bound_lse = (2 * side + gamma(n + r) + r * eps_r + gamma(n)) * (1 + 2.0**-6)
    t = lambda x: x.transpose(1, 2)  # noqa: E731
    return t(o), lse, t(bound_o), bound_lse


def check(o, q, k, v, causal=None, scale=None, lse=None):
    """The worst |error| / bound of O (and LSE); fails above 1."""
    o_ref, lse_ref, bound_o, bound_lse = reference(q, k, v, causal, scale)
    err = (o.float() - o_ref).abs()
    worst = float((err / bound_o).max())
    assert worst <= 1.0, f"O off by {worst:.3g} of the bound (max |err| {float(err.max()):.3g})"
    if lse is not None:
        assert lse.dtype == torch.float32 and lse.shape == lse_ref.shape
        inf = torch.isinf(lse_ref)
        assert torch.equal(torch.isinf(lse) & (lse > 0), inf), "+inf exactly on the rows that see no key"
        assert (o.float().transpose(1, 2)[inf] == 0).all()
        fin = ~inf
        if fin.any():
            le = float(((lse[fin] - lse_ref[fin]).abs() / bound_lse[fin]).max())
            assert le <= 1.0, f"LSE off by {le:.3g} of its bound"
            worst = max(worst, le)
    return worst


@pytest.mark.parametrize("causal", [None, "top_left", "bottom_right"])
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("dtype", [BF16, F16])
def test_matches_sdpa(dtype, d, causal):
    b, sq, sk, h, hk = 2, 300, 333, 4, 2  # GQA 2, tile edges off by a few
    q, k, v = rand(b, sq, h, d, dtype=dtype), rand(b, sk, hk, d, dtype=dtype), rand(b, sk, hk, d, dtype=dtype)
    o, lse = cute_rs.attention(q, k, v, causal=causal, lse=True)
    assert isinstance(o, torch.Tensor) and o.shape == q.shape and o.dtype == dtype and o.is_contiguous()
    assert lse.shape == (b, h, sq)
    check(o, q, k, v, causal, lse=lse)
    o2 = cute_rs.attention(q, k, v, causal=causal)
    assert torch.equal(o, o2)  # lse=False: the same kernel, O alone (no LSE stored)


def test_fully_masked_rows_mqa_and_scale():
    q, k, v = rand(1, 200, 8, 128, scale=3.0), rand(1, 100, 1, 128), rand(1, 100, 1, 128)
    o, lse = cute_rs.attention(q, k, v, causal="bottom_right", scale=0.05, lse=True)
    assert torch.isinf(lse[:, :, :100]).all() and torch.isfinite(lse[:, :, 100:]).all()  # row i sees keys <= i - 100
    check(o, q, k, v, "bottom_right", 0.05, lse)


def test_sdpa_layout_views_and_out():
    b, h, s, d = 2, 4, 256, 128
    q, k, v = (rand(b, h, s, d) for _ in range(3))  # SDPA's layout
    out_sdpa = torch.full((b, h, s + 8, d), 7.0, device="cuda", dtype=BF16)
    out = out_sdpa[:, :, 4 : 4 + s].transpose(1, 2)  # a strided, offset view
    r = cute_rs.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal="top_left", out=out)
    assert r is out
    check(out, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), "top_left")
    assert (out_sdpa[:, :, :4] == 7).all() and (out_sdpa[:, :, 4 + s :] == 7).all()  # nothing outside
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        theirs = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(out.transpose(1, 2), theirs, rtol=2**-6, atol=2**-6)


def test_fused_qkv_and_unit_modes():
    s, h, d = 333, 4, 64
    qkv = rand(1, s, 3, h, d)
    q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]  # token stride 3·h·d
    assert q.stride() == (3 * s * h * d, 3 * h * d, d, 1)
    check(cute_rs.attention(q, k, v, causal="top_left"), q, k, v, "top_left")
    # heads 1 and batch 1 from unsqueeze: strides of extent-1 modes mean nothing
    x = rand(s, 2 * d)[:, :d]
    q1 = x.unsqueeze(0).unsqueeze(2)
    assert q1.shape == (1, s, 1, d)
    check(cute_rs.attention(q1, q1, q1), q1, q1, q1)


def test_varlen_against_each_sequence():
    h, hk, d = 4, 2, 128
    cu_q, cu_k = [0, 100, 100, 357, 360], [0, 50, 170, 170, 300]  # an empty query and key sequence
    q, k, v = rand(cu_q[-1], h, d), rand(cu_k[-1], hk, d), rand(cu_k[-1], hk, d)
    o, lse = cute_rs.attention(
        q, k, v, causal="bottom_right", lse=True,
        cu_seqlens_q=torch.tensor(cu_q, dtype=torch.int32, device="cuda"), cu_seqlens_k=cu_k,
        max_seqlen_q=257, max_seqlen_k=130,
    )
    assert o.shape == q.shape and lse.shape == (h, cu_q[-1])
    for i in range(len(cu_q) - 1):
        qs, ks = slice(cu_q[i], cu_q[i + 1]), slice(cu_k[i], cu_k[i + 1])
        if qs.start == qs.stop:
            continue
        if ks.start == ks.stop:  # no key: O = 0, LSE = +inf
            assert (o[qs] == 0).all() and torch.isinf(lse[:, qs]).all()
            continue
        seq = lambda x, sl: x[sl].unsqueeze(0)  # noqa: E731
        check(seq(o, qs), seq(q, qs), seq(k, ks), seq(v, ks), "bottom_right", lse=lse[:, qs].unsqueeze(0))


def test_runs_on_the_current_stream_without_a_device_sync():
    src = rand(4, 1024, 8, 128)
    q = torch.zeros_like(src)
    cute_rs.attention(q, q, q)  # the first call loads the kernels (JIT): not part of the timing
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time on s
        q.copy_(src)  # ordered after the sleep on s
        t0 = time.perf_counter()
        o = cute_rs.attention(q, q, q, causal="top_left")  # must read the copied q: queued on s
        queued = time.perf_counter() - t0
    assert queued < 0.05, f"attention took {queued:.3f} s to return: it waited for the stream"
    s.synchronize()
    check(o, src, src, src, "top_left")


def test_non_torch_producer_gets_dlpack_results():
    q = rand(1, 128, 2, 64)
    torch.cuda.synchronize()
    o, lse = cute_rs.attention(Producer(q), Producer(q), Producer(q), lse=True)
    assert isinstance(o, cute_rs.DLPackTensor) and isinstance(lse, cute_rs.DLPackTensor)
    o, lse = torch.from_dlpack(o), torch.from_dlpack(lse)
    torch.cuda.synchronize()
    assert lse.shape == (1, 2, 128)
    check(o, q, q, q, lse=lse)


def test_ownership_no_leak():
    q = rand(1, 64, 2, 64)
    torch.cuda.synchronize()
    gc.collect()
    live0, torch0 = cute_rs.live_buffers(), torch.cuda.memory_allocated()
    kept = []
    for i in range(3000):
        r = cute_rs.attention(q, q, q, lse=i % 2 == 0)
        if i % 500 == 0:
            kept.append(r)
    assert cute_rs.live_buffers() >= live0 + 2 * len(kept)  # O and LSE of each kept call
    o, lse = kept[0]
    check(o, q, q, q, lse=lse)
    del kept, r, o, lse
    torch.cuda.synchronize()
    gc.collect()
    assert cute_rs.live_buffers() == live0
    assert torch.cuda.memory_allocated() == torch0


def test_refusals_on_real_tensors():
    q = rand(1, 64, 2, 64)
    flat = rand(64 * 2 * 64 + 8)
    with pytest.raises(ValueError, match=r"^attention: buffer Q at 0x[0-9a-f]+ is not 16-byte aligned"):
        cute_rs.attention(flat[4 : 4 + q.numel()].view(q.shape), q, q)
    with pytest.raises(ValueError, match=r"^attention: head_dim=96"):
        x = rand(1, 64, 2, 96)
        cute_rs.attention(x, x, x)
    with pytest.raises(ValueError, match=r"^q requires grad: cute_rs.attention has no backward"):
        cute_rs.attention(q.clone().requires_grad_(), q, q)
    with pytest.raises(TypeError, match=r"^q has dtype float32"):
        cute_rs.attention(q.float(), q.float(), q.float())
    with pytest.raises(ValueError, match=r"^k must be a CUDA tensor, it is on cpu"):
        cute_rs.attention(q, q.cpu(), q)
