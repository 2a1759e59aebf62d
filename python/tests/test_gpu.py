"""cute_rs.gemm against torch on the GPU: dtypes, shapes, views, streams, ownership.

Skipped (visibly) without torch or without a usable GPU."""

import gc
import time

import pytest

import cute_rs
from fake_dlpack import Producer, no_gpu_reason

torch = pytest.importorskip("torch")


_NO_GPU = no_gpu_reason(torch)
pytestmark = pytest.mark.skipif(_NO_GPU is not None, reason=f"no GPU for these tests: {_NO_GPU}")

BF16, F16, F32 = torch.bfloat16, torch.float16, torch.float32
# unit roundoff of the stored C
U = {BF16: 2.0**-8, F16: 2.0**-11, F32: 2.0**-24}


def rand(*shape, dtype=BF16):
    return torch.randn(*shape, device="cuda", dtype=torch.float32).to(dtype)


def check(c, a, b, alpha=1.0, beta=0.0, c0=None):
    """C within the GEMM's bound of the fp32 product: C's rounding (relative) plus fp32
    accumulation over K terms (absolute, scaled by |a|·|b|)."""
    af, bf = a.float(), b.float()
    ref = alpha * (af @ bf)
    mag = abs(alpha) * (af.abs() @ bf.abs())
    if c0 is not None:
        ref = ref + beta * c0.float()
        mag = mag + abs(beta) * c0.float().abs()
    k = a.shape[1]
    atol = float((2 * k * 2.0**-24) * mag.max()) + 1e-6
    torch.testing.assert_close(c.float(), ref, rtol=2 * U[c.dtype], atol=atol)


@pytest.mark.parametrize("dtype", [BF16, F16, F32])
@pytest.mark.parametrize("mnk", [(128, 256, 64), (1000, 264, 72), (64, 8, 8), (1, 8, 8), (300, 512, 1000)])
def test_matches_torch(dtype, mnk):
    m, n, k = mnk
    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
    c = cute_rs.gemm(a, b)
    assert isinstance(c, torch.Tensor)
    assert c.shape == (m, n) and c.dtype == dtype and c.device == a.device and c.is_contiguous()
    check(c, a, b)


@pytest.mark.parametrize("dtype", [BF16, F16])
def test_f32_out_alpha_beta(dtype):
    a, b = rand(256, 128, dtype=dtype), rand(128, 192, dtype=dtype)
    c0 = rand(256, 192, dtype=F32)
    out = c0.clone()
    r = cute_rs.gemm(a, b, out=out, alpha=0.5, beta=-2.0)
    assert r is out
    check(out, a, b, 0.5, -2.0, c0)
    out16 = c0.to(dtype)
    cute_rs.gemm(a, b, out=out16, alpha=2.0, beta=1.0)
    check(out16, a, b, 2.0, 1.0, c0.to(dtype))


@pytest.mark.parametrize("dtype", [BF16, F32])
def test_transposed_and_offset_views(dtype):
    m, n, k = 200, 136, 96
    at = rand(k, m, dtype=dtype).t()  # column-major a
    bt = rand(n, k, dtype=dtype).t()  # column-major b
    check(cute_rs.gemm(at, bt), at, bt)
    big_a = rand(m + 16, k + 64, dtype=dtype)
    big_b = rand(k + 8, n + 40, dtype=dtype)
    av = big_a[8 : 8 + m, 16 : 16 + k]  # offset view, row stride k + 64
    bv = big_b[8 : 8 + k, 8 : 8 + n]
    assert not av.is_contiguous() and av.storage_offset() > 0
    check(cute_rs.gemm(av, bv), av, bv)
    big_c = torch.zeros(m + 4, n + 24, device="cuda", dtype=dtype)
    cv = big_c[2 : 2 + m, 8 : 8 + n]
    cute_rs.gemm(av, bt, out=cv)
    check(cv, av, bt)
    assert big_c[:2].abs().sum() == 0 and big_c[:, :8].abs().sum() == 0  # nothing outside out


def test_refused_views_are_value_errors():
    x = rand(64, 64)
    with pytest.raises(ValueError, match=r"^a \(shape \(32, 32\), strides \(128, 2\)\) needs one unit stride"):
        cute_rs.gemm(x[::2, ::2], x[:32, :32])
    with pytest.raises(ValueError, match=r"^b: its leading stride 12"):
        cute_rs.gemm(x[:, :8], rand(8, 12))
    with pytest.raises(ValueError, match=r"^a: its data pointer .* is not 16-byte aligned"):
        cute_rs.gemm(x.view(-1)[1 : 1 + 64 * 56].view(64, 56)[:, :56], rand(56, 8))
    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        cute_rs.gemm(x.cpu(), x)
    with pytest.raises(TypeError, match=r"^b has dtype float16 but a has bfloat16"):
        cute_rs.gemm(x, x.half())


def test_runs_on_the_current_stream_without_a_device_sync():
    m = n = k = 1024
    src_a, b = rand(m, k), rand(k, n)
    a = torch.zeros_like(src_a)
    s = torch.cuda.Stream()
    cute_rs.gemm(a, b)  # the first call loads the kernels (JIT): not part of the timing
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time on s
        a.copy_(src_a)  # ordered after the sleep on s
        t0 = time.perf_counter()
        c = cute_rs.gemm(a, b)  # must read the copied a: queued on s
        queued = time.perf_counter() - t0
    assert queued < 0.05, f"gemm took {queued:.3f} s to return: it waited for the stream"
    s.synchronize()
    check(c, src_a, b)


def test_non_torch_producer_gets_a_dlpack_result():
    a, b = rand(128, 64), rand(64, 128)
    torch.cuda.synchronize()
    r = cute_rs.gemm(Producer(a), Producer(b))
    assert isinstance(r, cute_rs.DLPackTensor)
    c = torch.from_dlpack(r)
    torch.cuda.synchronize()
    check(c, a, b)
    with pytest.raises(BufferError):
        r.__dlpack__()


def test_ownership_10000_calls_no_leak_no_double_free():
    a, b = rand(64, 64), rand(64, 64)
    torch.cuda.synchronize()
    gc.collect()
    live0, torch0 = cute_rs.live_buffers(), torch.cuda.memory_allocated()
    free0 = torch.cuda.mem_get_info()[0]
    kept = []
    for i in range(10_000):
        c = cute_rs.gemm(a, b)
        if i % 1000 == 0:
            kept.append(c)
    assert cute_rs.live_buffers() >= live0 + len(kept)
    for c in kept:
        check(c, a, b)
    # an unconsumed capsule is freed by its destructor
    cap = cute_rs._native.gemm(a, b, None, 1.0, 0.0, torch.cuda.current_stream().cuda_stream)
    assert cute_rs.live_buffers() >= live0 + 1
    del cap, c, kept
    torch.cuda.synchronize()
    gc.collect()
    assert cute_rs.live_buffers() == live0
    assert torch.cuda.memory_allocated() == torch0
    assert free0 - torch.cuda.mem_get_info()[0] < 64 << 20  # the driver's pool, at most


def test_result_lives_in_torch():
    a, b = rand(128, 128), rand(128, 128)
    c = cute_rs.gemm(a, b)
    d = (c + 1).sum()  # torch ops on our buffer
    v = c.view(-1)[:5].clone()
    del c
    gc.collect()
    torch.cuda.synchronize()
    assert torch.isfinite(d) and torch.isfinite(v).all()


def test_requires_grad_is_refused():
    a = rand(64, 64).requires_grad_()
    with pytest.raises(ValueError, match=r"^a requires grad: cute_rs.gemm has no backward"):
        cute_rs.gemm(a, rand(64, 64))
    check(cute_rs.gemm(a.detach(), a.detach()), a.detach(), a.detach())


ACTS = {
    None: lambda y: y,
    "relu": torch.relu,
    "gelu": torch.nn.functional.gelu,
    "gelu_tanh": lambda y: torch.nn.functional.gelu(y, approximate="tanh"),
    "silu": torch.nn.functional.silu,
}


def check_fused(c, x, w, bias, act, beta=0.0, c0=None):
    """act(x @ w.T + beta·c0 + bias) within the GEMM's bound: the fp32 accumulation's absolute
    error passes through the activation with a slope of at most 1.13 (GELU's; ReLU's and SiLU's
    are at most 1.1), then C's bf16 rounding (relative); GELU's tanh form adds 2.45e-4·|y|
    (the kernel's tanh.approx.f32, relative error ≤ 2⁻¹¹: host-cli/src/check/hgemm.rs)."""
    xf, wf = x.float(), w.float()
    y = xf @ wf.T
    mag = xf.abs() @ wf.abs().T
    if bias is not None:
        y, mag = y + bias.float(), mag + bias.float().abs()
    if c0 is not None:
        y, mag = y + beta * c0.float(), mag + abs(beta) * c0.float().abs()
    ref = ACTS[act](y)
    k = x.shape[1]
    atol = 1.13 * float((2 * k * 2.0**-24) * mag.max()) + 1e-5
    if act == "gelu_tanh":
        lim = atol + 2.45e-4 * y.abs() + 2 * U[c.dtype] * ref.abs()
        bad = (c.float() - ref).abs() > lim
        assert not bad.any(), f"{int(bad.sum())} elements off, worst {float(((c.float() - ref).abs() / lim).max())} of the bound"
        return
    torch.testing.assert_close(c.float(), ref, rtol=2 * U[c.dtype], atol=atol)


@pytest.mark.parametrize("act", list(ACTS))
@pytest.mark.parametrize("bias_dtype", [None, BF16, F32])
def test_fused_epilogue_matches_torch(act, bias_dtype):
    """cute_rs.gemm(x, w.t(), bias=, activation=) = activation(F.linear(x, w, bias))."""
    if act is None and bias_dtype is None:
        pytest.skip("the plain GEMM (test_matches_torch)")
    m, n, k = 300, 264, 136
    x, w = rand(m, k), rand(n, k)
    bias = None if bias_dtype is None else rand(n, dtype=bias_dtype)
    c = cute_rs.gemm(x, w.t(), bias=bias, activation=act)
    assert c.shape == (m, n) and c.dtype == BF16
    check_fused(c, x, w, bias, act)


def test_fused_epilogue_into_out_with_beta():
    m, n, k = 256, 512, 64
    x, w, bias = rand(m, k), rand(n, k), rand(n, dtype=F32)
    c0 = rand(m, n)
    out = c0.clone()
    r = cute_rs.gemm(x, w.t(), out=out, alpha=1.0, beta=0.5, bias=bias, activation="gelu")
    assert r is out
    check_fused(out, x, w, bias, "gelu", beta=0.5, c0=c0)
