"""cute_rs.attention without a GPU: every argument error, before any launch.

Runs in `cargo xtask test` (CI has no GPU). The fake tensors never reach a kernel: each call
here fails in the checks (the ones that would pass them run only where there is no GPU)."""

import pytest

import cute_rs
from fake_dlpack import KDL_CPU, FakeTensor
from test_api import desc, gpu_present

B, S, H, D = 2, 128, 4, 64


def qkv(shape=(B, S, H, D), dtype="bfloat16", **kw):
    return FakeTensor(shape, dtype, **kw), FakeTensor(shape, dtype), FakeTensor(shape, dtype)


def attn(*args, **kw):
    return cute_rs.attention(*args, **kw)


def test_api():
    assert callable(cute_rs.attention)
    assert "FlashAttention" in cute_rs.attention.__doc__


def test_not_tensors_and_devices():
    q, k, v = qkv()
    with pytest.raises(TypeError, match=r"^k: expected a CUDA tensor with __dlpack__"):
        attn(q, [1.0], v)
    with pytest.raises(ValueError, match=r"^v must be a CUDA tensor, it is on cpu"):
        attn(q, k, FakeTensor((B, S, H, D), device=(KDL_CPU, 0)))
    with pytest.raises(ValueError, match=r"^out is on cuda:1 but q is on cuda:0"):
        attn(q, k, v, out=FakeTensor((B, S, H, D), device=(2, 1)))


def test_dtypes():
    with pytest.raises(TypeError, match=r"^q has dtype float32: cute_rs.attention takes bfloat16 or float16"):
        attn(*qkv(dtype="float32"))
    with pytest.raises(TypeError, match=r"^q has dtype int32: cute_rs.attention takes"):
        attn(*qkv(dtype="int32"))
    q, k, v = qkv()
    with pytest.raises(TypeError, match=r"^v has dtype float16 but q has bfloat16: q, k, v and out need one dtype"):
        attn(q, k, FakeTensor((B, S, H, D), "float16"))
    with pytest.raises(TypeError, match=r"^out has dtype float32 but q has bfloat16"):
        attn(q, k, v, out=FakeTensor((B, S, H, D), "float32"))


def test_shapes():
    with pytest.raises(ValueError, match=r"^q must be 4-D \(batch, seqlen, heads, head_dim\), it has shape \[128, 4, 64\]"):
        attn(*qkv((S, H, D)))
    q, k, v = qkv()
    with pytest.raises(ValueError, match=r"^k has head_dim 128 but q has 64"):
        attn(q, FakeTensor((B, S, H, 128)), v)
    with pytest.raises(ValueError, match=r"^v has shape \[2, 100, 4, 64\] but k has \[2, 128, 4, 64\]: keys and values"):
        attn(q, k, FakeTensor((B, 100, H, D)))
    with pytest.raises(ValueError, match=r"^k has batch 3 but q has 2"):
        attn(q, FakeTensor((3, S, H, D)), FakeTensor((3, S, H, D)))
    with pytest.raises(ValueError, match=r"^out has shape \[2, 128, 4, 128\], the output has q's shape \[2, 128, 4, 64\]"):
        attn(q, k, v, out=FakeTensor((B, S, H, 128)))


def test_host_checks_with_the_hosts_messages():
    with pytest.raises(ValueError, match=r"^attention: head_dim=96: the kernel has head dims 64, 128 and 256"):
        attn(*qkv((B, S, H, 96)))
    q = FakeTensor((B, S, 6, D))
    k, v = FakeTensor((B, S, 4, D)), FakeTensor((B, S, 4, D))
    with pytest.raises(ValueError, match=r"^attention: heads=6 is not a multiple of heads_kv=4"):
        attn(q, k, v)
    with pytest.raises(ValueError, match=r"^attention: seqlen_q=0: must be at least 1"):
        attn(*qkv((B, 0, H, D)))
    with pytest.raises(ValueError, match=r"^attention: scale=0: must be finite and > 0"):
        attn(*qkv(), scale=0.0)
    with pytest.raises(ValueError, match=r"^attention: scale=NaN: must be finite"):
        attn(*qkv(), scale=float("nan"))


def test_strides_and_alignment():
    q, k, v = qkv()
    # a token stride of 100 elements (200 bytes) is no 16-byte multiple
    with pytest.raises(ValueError, match=r"^attention: K token stride 100: must be a multiple of 8 elements"):
        attn(q, FakeTensor((B, S, H, D), strides=(S * H * D * 2, 100, D, 1)), v)
    with pytest.raises(ValueError, match=r"^q: its last dimension \(head_dim\) must be contiguous \(stride 1\), it has stride 2: pass q.contiguous\(\)"):
        attn(FakeTensor((B, S, H, D), strides=(S * H * D * 2, H * D * 2, D * 2, 2)), k, v)
    with pytest.raises(ValueError, match=r"^attention: V head stride -64: must be positive"):
        attn(q, k, FakeTensor((B, S, H, D), strides=(S * H * D, H * D, -64, 1)))
    with pytest.raises(ValueError, match=r"^attention: O strides \(batch 32768, token 64, head 64\) overlap"):
        attn(q, k, v, out=FakeTensor((B, S, H, D), strides=(S * H * D, 64, 64, 1)))
    with pytest.raises(ValueError, match=r"^attention: buffer V at 0x7f0000000008 is not 16-byte aligned"):
        attn(q, k, FakeTensor((B, S, H, D), data=0x7F0000000008))


def test_options():
    q, k, v = qkv()
    with pytest.raises(ValueError, match=r'^causal="diagonal": None, "top_left" \(torch\'s is_causal\) or "bottom_right"'):
        attn(q, k, v, causal="diagonal")
    with pytest.raises(ValueError, match=r"^causal=True is ambiguous"):
        attn(q, k, v, causal=True)
    with pytest.raises(TypeError, match=r"^causal must be None"):
        attn(q, k, v, causal=1)
    with pytest.raises(ValueError, match=r"^max_seqlen_q / max_seqlen_k describe a varlen batch"):
        attn(q, k, v, max_seqlen_q=128)


def test_varlen():
    q, k, v = qkv((10, H, D))
    cu = [0, 4, 10]
    with pytest.raises(ValueError, match=r"^cu_seqlens_q and cu_seqlens_k go together"):
        attn(q, k, v, cu_seqlens_q=cu)
    with pytest.raises(ValueError, match=r"^q must be 3-D \(total_tokens, heads, head_dim\) in a varlen batch"):
        attn(*qkv(), cu_seqlens_q=cu, cu_seqlens_k=cu)
    with pytest.raises(ValueError, match=r"^attention: cu_seqlens_k\[0\]=1, must be 0"):
        attn(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=[1, 4, 10])
    with pytest.raises(ValueError, match=r"^attention: cu_seqlens_q decreases at 2: 4 then 3"):
        attn(q, k, v, cu_seqlens_q=[0, 4, 3], cu_seqlens_k=cu)
    with pytest.raises(ValueError, match=r"^attention: cu_seqlens_k has 2 entries, a batch of 2 needs 3"):
        attn(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=[0, 10])
    with pytest.raises(ValueError, match=r"^cu_seqlens_q ends at 8 but q has 10 tokens"):
        attn(q, k, v, cu_seqlens_q=[0, 4, 8], cu_seqlens_k=cu)
    with pytest.raises(ValueError, match=r"^max_seqlen_k=5 is less than the longest sequence of cu_seqlens_k \(6\)"):
        attn(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=cu, max_seqlen_q=6, max_seqlen_k=5)
    with pytest.raises(ValueError, match=r"^cu_seqlens_q\[1\]=4294967296 does not fit in int32"):
        attn(q, k, v, cu_seqlens_q=[0, 1 << 32, 10], cu_seqlens_k=cu)
    with pytest.raises(TypeError, match=r"^cu_seqlens_q must be a 1-D sequence of ints"):
        attn(q, k, v, cu_seqlens_q=3, cu_seqlens_k=cu)


def test_dlpack_stream_defaults_to_the_legacy_stream():
    q, k, v = qkv(dtype="int32")
    with pytest.raises(TypeError):
        attn(q, k, v)
    assert q.streams == [1]


def test_torch_path_errors_match_the_dlpack_path():
    def a(q, k, v, out=None, **kw):
        return cute_rs._native.attention(q, k, v, out, desc=True, **kw)

    t = desc((B, S, H, D), strides=(S * H * D, H * D, D, 1))
    with pytest.raises(ValueError, match=r"^q must be a CUDA tensor, it is on cpu"):
        a(desc((B, S, H, D), strides=(S * H * D, H * D, D, 1), device="cpu"), t, t)
    with pytest.raises(TypeError, match=r"^k has dtype float16 but q has bfloat16"):
        a(t, desc((B, S, H, D), "float16", strides=(S * H * D, H * D, D, 1)), t)
    with pytest.raises(ValueError, match=r"^attention: buffer Q at 0x7f0000000008 is not 16-byte aligned"):
        a(desc((B, S, H, D), strides=(S * H * D, H * D, D, 1), ptr=0x7F0000000008), t, t)
    with pytest.raises(ValueError, match=r"^causal=\"x\""):
        a(t, t, t, causal="x")


@pytest.mark.skipif(gpu_present(), reason="a GPU is present (the fake tensors would reach a launch)")
def test_views_with_unit_modes_pass_the_checks_and_no_gpu_is_a_runtime_error():
    # batch 1 and heads 1 with strides that mean nothing (unsqueeze, slicing): accepted, so the
    # call gets as far as the device
    q = FakeTensor((1, S, 1, D), strides=(3, D, 5, 1))
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        attn(q, q, q, causal="bottom_right", lse=True)
    q, k, v = qkv((10, H, D))
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        attn(q, k, v, cu_seqlens_q=[0, 0, 10], cu_seqlens_k=[0, 4, 10], max_seqlen_q=10)
