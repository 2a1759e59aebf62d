"""cute_rs.scaled_mm (the FP8 GEMM, as torch._scaled_mm) without a GPU: every argument error,
named, before any launch; the DLPack float8 codes; the no-GPU RuntimeError.

Runs in `cargo xtask test`; on a GPU machine the argument tests run too (each fails before a
launch: no fake address is ever read) and the no-GPU tests are skipped."""

import pytest

import cute_rs
from fake_dlpack import KDL_CPU, FakeTensor, gpu_present

E4M3, E5M2 = "float8_e4m3fn", "float8_e5m2"


def ab(m=64, n=48, k=32, dtype=E4M3, dtype_b=None, **kw):
    """a (m, k) row-major and b (k, n) column-major (w.t() of a row-major (n, k) w)."""
    return FakeTensor((m, k), dtype, **kw), FakeTensor((k, n), dtype_b or dtype, strides=(1, k))


def test_api():
    assert "scaled_mm" in cute_rs.__all__ and "torch._scaled_mm" in cute_rs.scaled_mm.__doc__


def test_dtypes():
    a, b = ab()
    with pytest.raises(TypeError, match=r"^a has dtype bfloat16: cute_rs.scaled_mm takes float8_e4m3fn or float8_e5m2"):
        cute_rs.scaled_mm(FakeTensor((64, 32)), b, 1.0, 1.0)
    with pytest.raises(TypeError, match=r"^b has dtype float8_e5m2 but a has float8_e4m3fn: .*\(mixed"):
        cute_rs.scaled_mm(*ab(dtype_b=E5M2), 1.0, 1.0)
    with pytest.raises(TypeError, match=r"^a has dtype float8_e4m3fnuz \(8 bits\): cute_rs.scaled_mm takes"):
        cute_rs.scaled_mm(FakeTensor((64, 32), "float8_e4m3fnuz"), b, 1.0, 1.0)
    # the 16-bit GEMM points FP8 callers here
    with pytest.raises(TypeError, match=r"^a has dtype float8_e4m3fn: cute_rs.gemm takes .* cute_rs.scaled_mm"):
        cute_rs.gemm(a, b)
    with pytest.raises(TypeError, match=r"^out_dtype=float64: cute_rs.scaled_mm writes bfloat16, float16 or float32"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out_dtype="float64")

    class TorchLikeDtype:
        def __str__(self):
            return "torch.int8"

    with pytest.raises(TypeError, match=r"^out_dtype=int8"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out_dtype=TorchLikeDtype())
    with pytest.raises(TypeError, match=r"^out has dtype float8_e4m3fn: cute_rs.scaled_mm writes"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out=FakeTensor((64, 48), E4M3))
    with pytest.raises(TypeError, match=r"^out has dtype float32 but out_dtype is bfloat16"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out_dtype="bfloat16", out=FakeTensor((64, 48), "float32"))


def test_devices():
    a, b = ab()
    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        cute_rs.scaled_mm(FakeTensor((64, 32), E4M3, device=(KDL_CPU, 0)), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^b is on cuda:1 but a is on cuda:0"):
        cute_rs.scaled_mm(a, FakeTensor((32, 48), E4M3, strides=(1, 32), device=(2, 1)), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^out is on cuda:1 but a is on cuda:0"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out=FakeTensor((64, 48), device=(2, 1)))


def test_shapes_and_layouts():
    a, b = ab()
    with pytest.raises(ValueError, match=r"^a must be a 2-D matrix, it has shape \[2, 64, 32\]"):
        cute_rs.scaled_mm(FakeTensor((2, 64, 32), E4M3), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^b has 48 rows but a has 32 columns"):
        cute_rs.scaled_mm(a, FakeTensor((48, 48), E4M3, strides=(1, 48)), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^a \(shape \(64, 32\), strides \(1, 64\)\) must be row-major and contiguous"):
        cute_rs.scaled_mm(FakeTensor((64, 32), E4M3, strides=(1, 64)), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^a \(shape \(64, 32\), strides \(48, 1\)\) must be row-major and contiguous"):
        cute_rs.scaled_mm(FakeTensor((64, 32), E4M3, strides=(48, 1)), b, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^b \(shape \(32, 48\), strides \(48, 1\)\) must be column-major .* w.t\(\)"):
        cute_rs.scaled_mm(a, FakeTensor((32, 48), E4M3), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^out has shape \(64, 40\), a @ b has \(64, 48\)"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out=FakeTensor((64, 40)))
    with pytest.raises(ValueError, match=r"^out \(strides \(1, 64\)\) must be row-major and contiguous"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, out=FakeTensor((64, 48), strides=(1, 64)))


def test_k_alignment_and_scales():
    with pytest.raises(ValueError, match=r"^a and b: K = 40 must be a multiple of 16"):
        cute_rs.scaled_mm(*ab(k=40), 1.0, 1.0)
    a, b = ab()
    with pytest.raises(ValueError, match=r"^b: its data pointer 0x7f0000000008 is not 16-byte aligned"):
        cute_rs.scaled_mm(a, FakeTensor((32, 48), E4M3, strides=(1, 32), data=0x7F0000000008), 1.0, 1.0)
    with pytest.raises(ValueError, match=r"^scale_a=NaN must be finite"):
        cute_rs.scaled_mm(a, b, float("nan"), 1.0)
    with pytest.raises(ValueError, match=r"^scale_b=inf must be finite"):
        cute_rs.scaled_mm(a, b, 1.0, float("inf"))

    class TwoScales:  # a row-wise scale, as torch._scaled_mm also takes
        def numel(self):
            return 2

        def item(self):
            raise AssertionError("not read")

    with pytest.raises(ValueError, match=r"^scale_b has 2 elements but is no tensor \(no __dlpack__\)"):
        cute_rs.scaled_mm(a, b, 1.0, TwoScales())
    with pytest.raises(TypeError, match=r"^scale_a must be a float, a one-element tensor or a float32 CUDA tensor"):
        cute_rs.scaled_mm(a, b, "x", 1.0)


def vecs(m=64, n=48):
    """torch._scaled_mm's row-wise scales for ab()'s a (m rows) and b (n columns), and a bias."""
    return FakeTensor((m, 1), "float32"), FakeTensor((1, n), "float32"), FakeTensor((n,), "float32")


def test_rowwise_scales_and_bias_errors():
    a, b = ab()
    va, vb, bias = vecs()
    with pytest.raises(ValueError, match=r"^scale_a has shape \[64, 2\]: it must be \(64, 1\) or \(64,\), one value per row of a \(or one value"):
        cute_rs.scaled_mm(a, b, FakeTensor((64, 2), "float32"), 1.0)
    with pytest.raises(ValueError, match=r"^scale_b has shape \[48, 1\]: it must be \(1, 48\) or \(48,\), one value per column of b"):
        cute_rs.scaled_mm(a, b, 1.0, FakeTensor((48, 1), "float32"))
    with pytest.raises(TypeError, match=r"^scale_a has dtype bfloat16: it must be float32"):
        cute_rs.scaled_mm(a, b, FakeTensor((64, 1)), vb)
    with pytest.raises(ValueError, match=r"^scale_b has stride 2: pass scale_b.contiguous\(\)"):
        cute_rs.scaled_mm(a, b, va, FakeTensor((1, 48), "float32", strides=(48, 2)))
    with pytest.raises(ValueError, match=r"^bias has shape \[47\]: it must be \(48,\), one value per column of a @ b"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, bias=FakeTensor((47,), "float32"))
    with pytest.raises(ValueError, match=r"^bias: its data pointer 0x7f0000000002 is not 4-byte aligned"):
        cute_rs.scaled_mm(a, b, 1.0, 1.0, bias=FakeTensor((48,), "float32", data=0x7F0000000002))
    with pytest.raises(ValueError, match=r"^scale_a must be a CUDA tensor, it is on cpu"):
        cute_rs.scaled_mm(a, b, FakeTensor((64, 1), "float32", device=(KDL_CPU, 0)), 1.0)
    with pytest.raises(ValueError, match=r"^scale_a, scale_b, bias \(row-wise scales or a bias\) run on the promoted e4m3 kernel's fused epilogue: use_fast_accum=True is not supported"):
        cute_rs.scaled_mm(a, b, va, vb, bias=bias, use_fast_accum=True)
    with pytest.raises(ValueError, match=r"^bias \(row-wise scales or a bias\) run on .*: e5m2 operands take per-tensor scales and no bias"):
        cute_rs.scaled_mm(*ab(dtype=E5M2), 1.0, 1.0, bias=bias, use_fast_accum=True)


@pytest.mark.skipif(gpu_present(), reason="a GPU is present (the fake tensors would be read)")
def test_rowwise_scales_and_bias_pass_the_checks():
    # every check passes: (M, 1) / (M,) and (1, N) / (N,) scales, an (N,) bias, any mix with a
    # per-tensor value; the first thing that fails is the missing GPU
    a, b = ab()
    va, vb, bias = vecs()
    for sa, sb, kw in [
        (va, vb, {}),
        (va, 2.0, {"bias": bias}),
        (0.5, vb, {"out_dtype": "float32"}),
        (FakeTensor((64,), "float32"), FakeTensor((48,), "float32"), {"bias": bias}),
    ]:
        with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
            cute_rs.scaled_mm(a, b, sa, sb, **kw)


def test_use_fast_accum_is_forwarded():
    # M = 0: the promoted kernel (use_fast_accum=False, torch's default) takes e4m3, so the call
    # goes on to a context (no GPU: RuntimeError; a GPU: an empty result, no launch); it is
    # built for e4m3 only, so an e5m2 pair is a ValueError naming the argument, before a context
    for kw in ({}, {"use_fast_accum": False}, {"use_fast_accum": True}):
        a, b = ab(m=0)
        try:
            r = cute_rs.scaled_mm(a, b, 1.0, 1.0, **kw)
        except RuntimeError as e:
            assert not gpu_present() and str(e).startswith("cute_rs: no usable GPU"), (kw, e)
        else:
            assert gpu_present() and r is not None, kw
    for kw in ({}, {"use_fast_accum": False}):
        with pytest.raises(ValueError, match=r"^use_fast_accum=False: .*e5m2 runs with fast accumulation only.*; pass use_fast_accum=True$"):
            cute_rs.scaled_mm(*ab(dtype=E5M2), 1.0, 1.0, **kw)
    try:
        cute_rs.scaled_mm(*ab(m=0, dtype=E5M2), 1.0, 1.0, use_fast_accum=True)
    except RuntimeError as e:
        assert not gpu_present() and str(e).startswith("cute_rs: no usable GPU"), e


def test_dlpack_stream_defaults_to_the_legacy_stream():
    a, b = ab(k=40)
    with pytest.raises(ValueError):
        cute_rs.scaled_mm(a, b, 1.0, 1.0)
    assert a.streams == [1] and b.streams == [1]


@pytest.mark.skipif(gpu_present(), reason="a GPU is present")
@pytest.mark.parametrize("dtype", [E4M3, E5M2])
@pytest.mark.parametrize("out_dtype", [None, "float16", "float32"])
def test_no_gpu_is_a_runtime_error(dtype, out_dtype):
    # every check passes (DLPack's float8 codes 10 and 12 read as e4m3fn / e5m2): the first
    # thing that fails is the missing GPU
    fast = dtype == E5M2  # e5m2: fast accumulation only (test_use_fast_accum_is_forwarded)
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        cute_rs.scaled_mm(*ab(dtype=dtype), 2.0, 0.5, out_dtype=out_dtype, use_fast_accum=fast)
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        out = FakeTensor((64, 48), out_dtype or "bfloat16")
        cute_rs.scaled_mm(*ab(dtype=dtype), 1, 1, out=out, use_fast_accum=fast)


def desc(shape, dtype=E4M3, strides=None, device=0, ptr=0x7F0000000000):
    """What cute_rs._torch_desc makes of a torch tensor."""
    if strides is None:
        strides = (shape[1], 1)
    return (ptr, shape, strides, dtype, device)


def test_torch_path_errors_match_the_dlpack_path():
    def g(a, b, out=None, **kw):
        return cute_rs._native.scaled_mm(a, b, 1.0, 1.0, out=out, desc=True, **kw)

    b = desc((32, 48), strides=(1, 32))
    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        g(desc((64, 32), device="cpu"), b)
    with pytest.raises(TypeError, match=r"^a has dtype float16: cute_rs.scaled_mm takes"):
        g(desc((64, 32), "float16"), b)
    with pytest.raises(TypeError, match=r"^b has dtype float8_e5m2 but a has float8_e4m3fn"):
        g(desc((64, 32)), desc((32, 48), E5M2, strides=(1, 32)))
    with pytest.raises(ValueError, match=r"^a and b: K = 24 must be a multiple of 16"):
        g(desc((64, 24)), desc((24, 48), strides=(1, 24)))
    with pytest.raises(ValueError, match=r"^b \(shape \(32, 48\), strides \(48, 1\)\) must be column-major"):
        g(desc((64, 32)), desc((32, 48)))
    with pytest.raises(ValueError, match=r"^out has shape \(64, 8\), a @ b has \(64, 48\)"):
        g(desc((64, 32)), b, desc((64, 8), "bfloat16"))
    with pytest.raises(ValueError, match=r"^scale_a has shape \[64, 2\]: it must be \(64, 1\) or \(64,\), one value per row of a"):
        g(desc((64, 32)), b, scale_a_vec=desc((64, 2), "float32"))
    with pytest.raises(TypeError, match=r"^bias has dtype bfloat16: it must be float32"):
        g(desc((64, 32)), b, bias=desc((48,), "bfloat16", strides=(1,)))
    with pytest.raises(TypeError, match=r"^out_dtype=int8"):
        g(desc((64, 32)), b, out_dtype="int8")


@pytest.mark.skipif(gpu_present(), reason="a GPU is present (the fake tensors would be read)")
def test_extent_one_modes_take_any_stride():
    # a one-row a and a one-column b pass every check: the first failure is the missing GPU
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU"):
        cute_rs._native.scaled_mm(
            desc((1, 32), strides=(7, 1)), desc((32, 1), strides=(1, 3)), 1.0, 1.0, desc=True
        )
