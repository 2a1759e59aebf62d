"""cute_rs.scaled_mm (the FP8 GEMM) on the GPU, against the exact product of its FP8 inputs and
against torch._scaled_mm: dtypes, shapes, scales (per-tensor and row-wise), bias, out=, streams,
DLPack, ownership, refusals.

The bounds are doc/fp8-gemm.md's (host_cli::check::bounds), per element: fast accumulation
|D - ref| <= sa*sb*S*(K/4 * 2^-13 + 2^-22) + u_D*|ref|; promoted (use_fast_accum=False, the
default) sa*sb*S*(min(K, 128)/4 * 2^-13 + (ceil(K/128) + 1) * 2^-24 + 2^-22) + u_D*|ref|; ref the
float64 product of the dequantized inputs, S = |a| @ |b|, u_D the unit roundoff of D. Skipped
without torch or a GPU."""

import gc

import pytest

import cute_rs
from fake_dlpack import Producer, no_gpu_reason

torch = pytest.importorskip("torch")


_NO_GPU = no_gpu_reason(torch, "FP8 GEMM")
pytestmark = pytest.mark.skipif(_NO_GPU is not None, reason=f"no GPU for these tests: {_NO_GPU}")

E4M3, E5M2 = torch.float8_e4m3fn, torch.float8_e5m2
BF16, F16, F32 = torch.bfloat16, torch.float16, torch.float32
U = {BF16: 2.0**-8, F16: 2.0**-11, F32: 2.0**-24}


def fp8(rows, cols, dtype, spread=1.0):
    return (torch.randn(rows, cols, device="cuda") * spread).to(dtype)


def operands(m, n, k, dtype=E4M3):
    """a (m, k) row-major, b (k, n) column-major: w.t() of a row-major (n, k) w."""
    return fp8(m, k, dtype, 2.0), fp8(n, k, dtype, 2.0).t()


def rel(k, fast):
    """The product's bound relative to S for K = k: fast accumulation's or the promoted one's."""
    if fast:
        return max(k / 4, 1) * 2.0**-13 + 2.0**-22
    return max(min(k, 128) / 4, 1) * 2.0**-13 + (-(-k // 128) + 1) * 2.0**-24 + 2.0**-22


def bound(a, b, sa, sb, out_dtype, fast):
    ad, bd = a.double(), b.double()
    ref = sa * sb * (ad @ bd)
    s = ad.abs() @ bd.abs()
    tol = abs(sa * sb) * s * rel(a.shape[1], fast) + U[out_dtype] * ref.abs()
    return ref, tol


def check(d, a, b, sa=1.0, sb=1.0, fast=False):
    ref, tol = bound(a, b, sa, sb, d.dtype, fast)
    err = (d.double() - ref).abs()
    worst = float((err / (tol + 1e-30)).max()) if err.numel() else 0.0
    assert worst <= 1.0, f"worst |err|/bound {worst:.3f}"
    return ref, tol


@pytest.mark.parametrize("mode", [(E4M3, False), (E4M3, True), (E5M2, True)])  # e5m2: fast only
@pytest.mark.parametrize("out_dtype", [BF16, F16, F32])
@pytest.mark.parametrize("mnk", [(128, 256, 64), (1000, 264, 128), (64, 8, 16), (1, 16, 32), (5, 3, 48), (300, 520, 1024)])
def test_matches_the_exact_product(mode, out_dtype, mnk):
    (dtype, fast), (m, n, k) = mode, mnk
    a, b = operands(m, n, k, dtype)
    d = cute_rs.scaled_mm(a, b, 0.5, 4.0, out_dtype=out_dtype, use_fast_accum=fast)
    assert isinstance(d, torch.Tensor) and d.shape == (m, n) and d.dtype == out_dtype
    assert d.is_contiguous() and d.device == a.device
    check(d, a, b, 0.5, 4.0, fast)


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("mnk", [(256, 512, 128), (1000, 272, 4096), (2048, 1024, 4096)])  # torch: N % 16 == 0
def test_matches_torch_scaled_mm(mnk, fast):
    m, n, k = mnk
    a, b = operands(m, n, k)
    sa, sb = torch.tensor(0.25, device="cuda"), torch.tensor(3.0, device="cuda")
    theirs = torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=BF16, use_fast_accum=fast)
    if fast:
        ours = cute_rs.scaled_mm(a, b, sa, sb, out_dtype=BF16, use_fast_accum=True)
    else:  # torch's default is ours: one-element tensors as scales
        ours = cute_rs.scaled_mm(a, b, sa, sb, out_dtype=BF16)
    ref, tol = check(ours, a, b, 0.25, 3.0, fast)
    diff = float(((ours.double() - theirs.double()).abs() / (2 * tol + 1e-30)).max())
    assert diff <= 1.0, f"|ours - torch._scaled_mm| / (2 bound) = {diff:.3f}"


def rowwise_bound(a, b, sa, sb, bias, out_dtype, fast=False):
    """The exact `sa * (a @ b) * sb + bias` (sa one per row, sb one per column) in float64 and
    the fused epilogue's bound (host_cli::check::bounds::fp8_fused_error_bound without an
    activation): the product's bound over S = |sa| (|a| @ |b|) |sb|, four float32 roundings of
    the scales and the product, the bias's, and D's."""
    ad, bd = a.double(), b.double()
    sa, sb = sa.double().reshape(-1, 1), sb.double().reshape(1, -1)
    ref = sa * (ad @ bd) * sb
    if bias is not None:
        ref = ref + bias.double().reshape(1, -1)
    s = sa.abs() * (ad.abs() @ bd.abs()) * sb.abs()
    tol = s * (rel(a.shape[1], fast) + 4 * 2.0**-24) + 2.0**-24 * ref.abs() + U[out_dtype] * ref.abs()
    return ref, tol


@pytest.mark.parametrize("out_dtype", [BF16, F32])
@pytest.mark.parametrize("mnk", [(256, 512, 256), (1000, 264, 128), (5, 3, 48), (300, 520, 1024)])
@pytest.mark.parametrize("form", ["both", "a", "b_bias", "flat_bias"])
def test_rowwise_scales_and_bias(form, mnk, out_dtype):
    # torch._scaled_mm's row-wise scales ((M, 1) and (1, N); (M,) and (N,) too), alone or with a
    # per-tensor value, and a bias, on the promoted kernel's fused epilogue
    m, n, k = mnk
    a, b = operands(m, n, k)
    va = torch.rand(m, 1, device="cuda") + 0.5
    vb = torch.rand(1, n, device="cuda") + 0.5
    bias = torch.randn(n, device="cuda") * 100
    ones_m, ones_n = torch.ones(m, 1, device="cuda"), torch.ones(1, n, device="cuda")
    if form == "both":
        args, kw, want = (va, vb), {}, (va, vb, None)
    elif form == "a":
        args, kw, want = (va, 2.0), {}, (va, 2 * ones_n, None)
    elif form == "b_bias":
        args, kw, want = (0.5, vb), {"bias": bias}, (0.5 * ones_m, vb, bias)
    else:  # flat vectors and a bfloat16 bias (read as float32)
        args, kw, want = (va.reshape(m), vb.reshape(n)), {"bias": bias.bfloat16()}, (va, vb, bias.bfloat16())
    d = cute_rs.scaled_mm(a, b, *args, out_dtype=out_dtype, **kw)
    assert d.shape == (m, n) and d.dtype == out_dtype
    ref, tol = rowwise_bound(a, b, *want, out_dtype)
    err = (d.double() - ref).abs()
    worst = float((err / (tol + 1e-30)).max()) if err.numel() else 0.0
    assert worst <= 1.0, f"worst |err|/bound {worst:.3f}"


def test_rowwise_matches_torch_scaled_mm():
    m, n, k = 1024, 2048, 1024
    a, b = operands(m, n, k)
    va = torch.rand(m, 1, device="cuda") + 0.5
    vb = torch.rand(1, n, device="cuda") + 0.5
    bias = (torch.randn(n, device="cuda") * 100).bfloat16()
    try:
        theirs = torch._scaled_mm(a, b, scale_a=va, scale_b=vb, bias=bias, out_dtype=BF16)
    except RuntimeError as e:  # what this torch build takes is the finding
        pytest.skip(f"torch {torch.__version__} refuses row-wise scales here: {e}")
    ours = cute_rs.scaled_mm(a, b, va, vb, bias=bias, out_dtype=BF16)
    ref, tol = rowwise_bound(a, b, va, vb, bias, BF16)
    assert float(((ours.double() - ref).abs() / tol).max()) <= 1.0
    # whichever accumulation torch's kernel runs: its error within the fast-accumulation bound
    _, tol_fast = rowwise_bound(a, b, va, vb, bias, BF16, fast=True)
    diff = float(((ours.double() - theirs.double()).abs() / (tol + tol_fast)).max())
    assert diff <= 1.0, f"|ours - torch._scaled_mm| / (both bounds) = {diff:.3f}"


def test_out_in_place_and_views():
    m, n, k = 256, 192, 128
    a, b = operands(m, n, k)
    out = torch.full((m, n), 7.0, device="cuda", dtype=F32)
    r = cute_rs.scaled_mm(a, b, 1.0, 1.0, out=out)
    assert r is out
    check(out, a, b)
    # a view at an offset (rows 16.. of a larger a; 16-byte aligned) and a row slice of w
    big = fp8(m + 16, k, E4M3)
    av = big[16:]
    w = fp8(n + 8, k, E4M3)
    bv = w[8:].t()
    assert av.storage_offset() > 0 and bv.storage_offset() > 0
    check(cute_rs.scaled_mm(av, bv, 1.0, 1.0), av, bv)
    d = cute_rs.scaled_mm(a, b, 1.0, 1.0, out_dtype="float16")  # dtype names work too
    assert d.dtype == F16


def test_runs_on_the_current_stream_without_a_device_sync():
    import time

    m = n = k = 1024
    src, b = fp8(m, k, E4M3), fp8(n, k, E4M3).t()
    a = torch.zeros_like(src)
    cute_rs.scaled_mm(a, b, 1.0, 1.0)  # loads the kernel
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)
        a.copy_(src)
        t0 = time.perf_counter()
        d = cute_rs.scaled_mm(a, b, 1.0, 1.0)
        queued = time.perf_counter() - t0
    assert queued < 0.05, f"scaled_mm took {queued:.3f} s to return: it waited for the stream"
    s.synchronize()
    check(d, src, b)


def test_through_dlpack():
    a, b = operands(128, 64, 64)
    try:
        a.__dlpack__()
    except Exception as e:  # noqa: BLE001 - what torch says is the finding
        pytest.skip(f"torch {torch.__version__} exports no float8 through DLPack: {e}")
    torch.cuda.synchronize()
    r = cute_rs.scaled_mm(Producer(a), Producer(b), 1.0, 2.0)
    assert isinstance(r, cute_rs.DLPackTensor)
    d = torch.from_dlpack(r)
    torch.cuda.synchronize()
    assert d.dtype == BF16
    check(d, a, b, 1.0, 2.0)


def test_ownership_no_leak():
    a, b = operands(64, 64, 64)
    torch.cuda.synchronize()
    gc.collect()
    live0 = cute_rs.live_buffers()
    kept = [cute_rs.scaled_mm(a, b, 1.0, 1.0) for _ in range(2000)][::500]
    for d in kept:
        check(d, a, b)
    del kept, d
    torch.cuda.synchronize()
    gc.collect()
    assert cute_rs.live_buffers() == live0


def test_refusals_on_real_tensors():
    a, b = operands(64, 48, 32)
    with pytest.raises(ValueError, match=r"^b \(shape \(32, 48\), strides \(48, 1\)\) must be column-major"):
        cute_rs.scaled_mm(a, b.contiguous(), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^a \(shape \(64, 32\), strides \(1, 64\)\) must be row-major"):
        cute_rs.scaled_mm(a.t().contiguous().t(), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^a and b: K = 24 must be a multiple of 16"):
        cute_rs.scaled_mm(*operands(64, 48, 24), 1.0, 1.0)
    with pytest.raises(TypeError, match=r"^b has dtype float8_e5m2 but a has float8_e4m3fn"):
        cute_rs.scaled_mm(a, b.to(E5M2), 1.0, 1.0)
    with pytest.raises(TypeError, match=r"^a has dtype bfloat16: cute_rs.scaled_mm takes"):
        cute_rs.scaled_mm(a.to(BF16), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^scale_a has shape \[64, 2\]: it must be \(64, 1\) or \(64,\), one value per row of a"):
        cute_rs.scaled_mm(a, b, torch.ones(64, 2, device="cuda"), 1.0)
    with pytest.raises(ValueError, match=r"^scale_b must be a CUDA tensor, it is on cpu"):
        cute_rs.scaled_mm(a, b, 1.0, torch.ones(1, 48))
    with pytest.raises(TypeError, match=r"^scale_b has dtype float16: it must be float32"):
        cute_rs.scaled_mm(a, b, 1.0, torch.ones(1, 48, device="cuda", dtype=F16))
    with pytest.raises(ValueError, match=r"use_fast_accum=True is not supported with them"):
        cute_rs.scaled_mm(a, b, torch.ones(64, 1, device="cuda"), 1.0, use_fast_accum=True)
    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        cute_rs.scaled_mm(a.cpu(), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^use_fast_accum=False: .*e5m2.*; pass use_fast_accum=True$"):
        cute_rs.scaled_mm(a.to(E5M2), b.to(E5M2), 1.0, 1.0)  # promotion is built for e4m3
