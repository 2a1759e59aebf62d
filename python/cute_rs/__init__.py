"""cute_rs: cute-rs's GPU GEMMs and attention (CuTe's layout algebra in Rust) on PyTorch, or any DLPack, CUDA tensors.

    import torch, cute_rs
    a = torch.randn(512, 256, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(256, 384, device="cuda", dtype=torch.bfloat16)
    c = cute_rs.gemm(a, b)                # a @ b: a new torch tensor, on torch's current stream
    cute_rs.gemm(a, b, out=c, alpha=2.0, beta=1.0)   # c = 2 a @ b + c, in place
    q = torch.randn(2, 1024, 16, 128, device="cuda", dtype=torch.bfloat16)  # (batch, seqlen, heads, d)
    o, lse = cute_rs.attention(q, q, q, causal="top_left", lse=True)
    w8 = torch.randn(384, 256, device="cuda").to(torch.float8_e4m3fn)
    y = cute_rs.scaled_mm(a.to(torch.float8_e4m3fn), w8.t(), 1.0, 1.0)  # as torch._scaled_mm

bfloat16 and float16 run on the Hopper tensor-core kernel (fp32 accumulation), float32 on the
SIMT SGEMM; float8_e4m3fn / float8_e5m2 on the Hopper FP8 GEMM (scaled_mm); attention runs the
Hopper FA3-style forward kernel. Nothing synchronizes: the launch is queued on the caller's current stream.
"""

import sys

from . import _native

__all__ = ["gemm", "scaled_mm", "attention", "device", "live_buffers", "DLPackTensor"]


def _torch_of(x):
    """The torch module when `x` is a torch tensor (torch is never imported here)."""
    if type(x).__module__.split(".", 1)[0] == "torch":
        return sys.modules.get("torch")
    return None


class DLPackTensor:
    """A result for a non-torch caller: hand it to your library's ``from_dlpack`` once.

    The memory belongs to cute_rs until then, and to the consumer afterwards (freed,
    stream-ordered on the stream it was made on, when the consumer drops it).
    """

    __slots__ = ("_capsule", "_device")

    def __init__(self, capsule, device):
        self._capsule = capsule
        self._device = device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._capsule is None:
            raise BufferError("this cute_rs result was already exported through DLPack")
        cap, self._capsule = self._capsule, None
        return cap

    def __dlpack_device__(self):
        return (2, self._device)  # kDLCUDA

    def __repr__(self):
        return f"DLPackTensor(device=cuda:{self._device})"


def gemm(a, b, *, out=None, alpha=1.0, beta=0.0, bias=None, activation=None):
    """``alpha * (a @ b) + beta * out``: a (M, K) and b (K, N) CUDA matrices of one dtype.

    - dtypes: bfloat16 / float16 (tensor cores; ``out`` may also be float32) and float32.
    - any strides with one unit stride (row- or column-major, views, offsets); bfloat16 /
      float16 need 16-byte aligned data and a leading stride that is a multiple of 8.
    - ``out``: a row-major (M, N) matrix written in place (and returned); without it a new
      row-major tensor is returned (a torch tensor for torch inputs), and ``beta`` must be 0.
    - ``bias`` (N values, one per column) and ``activation`` (None, ``"relu"``, ``"gelu"``
      (erf, torch's default), ``"gelu_tanh"``, ``"silu"``): the fused epilogue,
      ``activation(alpha * a @ b + beta * out + bias)``, as ``torch.nn.functional.linear``
      followed by the activation: ``gemm(x, w.t(), bias=b, activation="gelu")``. bfloat16 only,
      ``a`` row-major and ``b`` column-major (``w.t()`` of a row-major weight), Hopper only. The
      bias is read as float32 (a torch bias of another dtype is converted first, on the stream).
    - runs on torch's current stream (the legacy default stream for other producers), with
      no synchronization. No autograd: tensors that require grad are refused.

    Raises TypeError / ValueError naming the argument for a wrong dtype, device, shape,
    layout or alignment, and RuntimeError when there is no usable GPU.
    """
    if activation is not None and not isinstance(activation, str):
        raise TypeError(f"activation must be None or a str, not {type(activation).__name__}")
    torch = _torch_of(a)
    if torch is not None and all(t is None or _torch_of(t) is torch for t in (b, out, bias)):
        # torch tensors: read them directly (torch's __dlpack__ costs tens of microseconds)
        for name, t in (("a", a), ("b", b), ("out", out), ("bias", bias)):
            if t is not None and t.requires_grad:
                raise ValueError(f"{name} requires grad: cute_rs.gemm has no backward (pass {name}.detach())")
        if bias is not None and bias.is_floating_point() and bias.dtype != torch.float32:
            bias = bias.float()
        stream = _torch_stream(torch, a.get_device()) if a.is_cuda else None
        r = _native.gemm(
            _torch_desc(a), _torch_desc(b), None if out is None else _torch_desc(out),
            float(alpha), float(beta), stream, True,
            None if bias is None else _torch_desc(bias), activation,
        )
        return out if out is not None else torch.from_dlpack(r)
    r = _native.gemm(a, b, out, float(alpha), float(beta), None, False, bias, activation)
    if out is not None:
        return out
    return DLPackTensor(r, a.__dlpack_device__()[1])


def scaled_mm(a, b, scale_a, scale_b, *, bias=None, out_dtype=None, out=None, use_fast_accum=False):
    """``scale_a * scale_b * (a @ b) + bias`` of 8-bit float matrices, as ``torch._scaled_mm``.

    - ``a`` (M, K) row-major and contiguous, ``b`` (K, N) column-major and contiguous (``w.t()``
      of a contiguous (N, K) ``w``: torch._scaled_mm's layout), both ``float8_e4m3fn`` or both
      ``float8_e5m2``; K a multiple of 16, 16-byte aligned data. Hopper (sm_90) only.
    - ``scale_a``, ``scale_b``: per-tensor scales, floats or one-element tensors (a CUDA tensor
      is read back with ``.item()``, which waits for its stream: pass floats to avoid that); or
      row-wise, as torch's: ``scale_a`` a float32 CUDA tensor of shape (M, 1) (or (M,)), one per
      row of ``a``, ``scale_b`` (1, N) (or (N,)), one per column of ``b`` — either or both.
    - ``bias``: N values, one per column of the result (float32; a torch bias of another dtype
      is converted first, on the stream), added after the scales.
    - Row-wise scales and ``bias`` run on the promoted e4m3 kernel's fused epilogue: not with
      ``use_fast_accum=True`` nor e5m2 operands (a ValueError).
    - ``out_dtype``: ``torch.bfloat16`` (the default), ``torch.float16`` or ``torch.float32`` (or
      their names); ``out``: a contiguous (M, N) tensor of that dtype, written in place and
      returned; else a new tensor (a torch tensor for torch inputs).
    - ``use_fast_accum``: False (torch's default) promotes the tensor core's partial sums into
      fp32 registers every k-block of 128 (every 4 ``wgmma``s: cuBLASLt's default, CUTLASS's
      and DeepGEMM's schedule; e4m3 only — an e5m2 pair with it is a ValueError that says to
      pass True); True lets the tensor core accumulate over all of K (torch's and cuBLASLt's
      "fast accumulation": faster, about 14 bits kept).
    - runs on torch's current stream (the legacy default stream for other producers), with no
      synchronization. No autograd.

    Raises TypeError / ValueError naming the argument for a wrong dtype, device, shape, layout,
    alignment, K or scale, before any launch; RuntimeError when there is no usable GPU or it is
    not Hopper.
    """
    (sa, va), (sb, vb) = _scale("scale_a", scale_a), _scale("scale_b", scale_b)
    if out_dtype is not None and not isinstance(out_dtype, str):
        out_dtype = str(out_dtype).replace("torch.", "")
    torch = _torch_of(a)
    if torch is not None and all(t is None or _torch_of(t) is torch for t in (b, out, va, vb, bias)):
        for name, t in (("a", a), ("b", b), ("out", out), ("bias", bias)):
            if t is not None and t.requires_grad:
                raise ValueError(f"{name} requires grad: cute_rs.scaled_mm has no backward (pass {name}.detach())")
        if bias is not None and bias.is_floating_point() and bias.dtype != torch.float32:
            bias = bias.float()
        stream = _torch_stream(torch, a.get_device()) if a.is_cuda else None
        desc = [None if t is None else _torch_desc(t) for t in (out, va, vb, bias)]
        r = _native.scaled_mm(
            _torch_desc(a), _torch_desc(b), sa, sb, out_dtype, desc[0], bool(use_fast_accum), stream, True,
            desc[1], desc[2], desc[3],
        )
        return out if out is not None else torch.from_dlpack(r)
    r = _native.scaled_mm(a, b, sa, sb, out_dtype, out, bool(use_fast_accum), None, False, va, vb, bias)
    if out is not None:
        return out
    return DLPackTensor(r, a.__dlpack_device__()[1])


def _scale(name, s):
    """A scale as ``(value, None)`` (per-tensor: a number, or a one-element tensor / array read
    back) or ``(1.0, vector)`` (row-wise: a tensor of more than one element, which the extension
    checks: float32, on a's device, its shape)."""
    if isinstance(s, (int, float)):
        return float(s), None
    n = s.numel() if hasattr(s, "numel") else getattr(s, "size", None)
    if hasattr(s, "item") and n == 1:
        return float(s.item()), None
    if hasattr(s, "__dlpack__"):
        return 1.0, s
    if n is not None and n != 1:
        raise ValueError(
            f"{name} has {n} elements but is no tensor (no __dlpack__): a row-wise {name} is a float32 CUDA tensor"
        )
    try:
        return float(s), None
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a float, a one-element tensor or a float32 CUDA tensor of row-wise scales, "
            f"not {type(s).__name__}"
        ) from None


def attention(
    q, k, v, *, causal=None, scale=None, out=None, lse=False,
    cu_seqlens_q=None, cu_seqlens_k=None, max_seqlen_q=None, max_seqlen_k=None,
):
    """``softmax(scale * q @ k^T + mask) @ v`` per head: FlashAttention's forward on CUDA tensors.

    - layout (FlashAttention's, not SDPA's): q ``(batch, seqlen_q, heads, head_dim)``, k and v
      ``(batch, seqlen_k, heads_kv, head_dim)``; ``heads`` a multiple of ``heads_kv`` (GQA,
      MQA). An SDPA-layout tensor ``x`` of ``(batch, heads, seqlen, d)`` is ``x.transpose(1, 2)``
      (a view: any strides with a contiguous head_dim and 16-byte multiples are taken as
      they are).
    - bfloat16 / float16, head_dim 64, 128 or 256, fp32 accumulation; Hopper (sm_90) only.
    - ``causal``: None, ``"top_left"`` (torch's ``is_causal``) or ``"bottom_right"``
      (FlashAttention's: queries aligned to the end of the keys). ``scale``: default
      ``1/sqrt(head_dim)``.
    - ``out``: written in place (q's shape and dtype; any such strides); else a new tensor.
    - ``lse=True`` returns ``(out, lse)``, lse float32 ``(batch, heads, seqlen_q)``: the natural
      log-sum-exp of each row's scaled scores (``+inf`` for a row that sees no key); without
      it the kernel stores no LSE (FlashAttention's ``return_softmax_lse=False``).
    - varlen (FlashAttention's ``flash_attn_varlen_func``): q ``(total_q, heads, d)``, k and v
      ``(total_k, heads_kv, d)`` with ``cu_seqlens_q`` / ``cu_seqlens_k`` (``batch + 1`` offsets:
      a list of ints or an int tensor; a CUDA tensor is read back, which waits for it);
      ``max_seqlen_*`` optional (checked, not needed); lse is then ``(heads, total_q)``.
    - runs on torch's current stream (the legacy default stream for other producers), with no
      synchronization. No autograd: tensors that require grad are refused.

    Raises TypeError / ValueError naming the argument (or with the host's message) for a wrong
    dtype, device, shape, stride, alignment or option, before any launch; RuntimeError when
    there is no usable GPU or the GPU is not Hopper.
    """
    causal = _causal(causal)
    scale = None if scale is None else float(scale)
    cu_q, cu_k = _cu_seqlens("cu_seqlens_q", cu_seqlens_q), _cu_seqlens("cu_seqlens_k", cu_seqlens_k)
    max_q = None if max_seqlen_q is None else int(max_seqlen_q)
    max_k = None if max_seqlen_k is None else int(max_seqlen_k)
    tensors = (("q", q), ("k", k), ("v", v), ("out", out))
    torch = _torch_of(q)
    if torch is not None and all(t is None or _torch_of(t) is torch for _, t in tensors):
        for name, t in tensors:
            if t is not None and t.requires_grad:
                raise ValueError(f"{name} requires grad: cute_rs.attention has no backward (pass {name}.detach())")
        stream = _torch_stream(torch, q.get_device()) if q.is_cuda else None
        o, l = _native.attention(
            _torch_desc(q), _torch_desc(k), _torch_desc(v), None if out is None else _torch_desc(out),
            causal, scale, bool(lse), cu_q, cu_k, max_q, max_k, stream, True,
        )
        o = out if out is not None else torch.from_dlpack(o)
        return (o, torch.from_dlpack(l)) if lse else o
    o, l = _native.attention(q, k, v, out, causal, scale, bool(lse), cu_q, cu_k, max_q, max_k, None)
    dev = q.__dlpack_device__()[1]
    o = out if out is not None else DLPackTensor(o, dev)
    return (o, DLPackTensor(l, dev)) if lse else o


def _causal(causal):
    if causal is None or causal is False:
        return None
    if causal is True:
        raise ValueError(
            'causal=True is ambiguous: pass "top_left" (torch\'s is_causal) or "bottom_right" '
            "(FlashAttention's causal=True)"
        )
    if not isinstance(causal, str):
        raise TypeError(f'causal must be None, "top_left" or "bottom_right", got {type(causal).__name__}')
    return causal


def _cu_seqlens(name, cu):
    if cu is None:
        return None
    if hasattr(cu, "tolist"):
        cu = cu.tolist()
    try:
        return [int(x) for x in cu]
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D sequence of ints or an integer tensor") from None


_TORCH_DTYPES = {}


def _torch_desc(t):
    """What the native GEMM reads of a torch tensor: data pointer, shape, strides, dtype name,
    and the CUDA device index (or, off CUDA, the device's name)."""
    torch = sys.modules.get("torch")
    if not _TORCH_DTYPES and torch is not None:
        _TORCH_DTYPES.update({torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"})
    dtype = _TORCH_DTYPES.get(t.dtype) or str(t.dtype).replace("torch.", "")
    return (t.data_ptr(), t.shape, t.stride(), dtype, t.get_device() if t.is_cuda else str(t.device))


def _torch_stream(torch, index):
    """torch's current CUDA stream on device `index`, as the raw CUstream."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # what Triton's launcher uses
    if raw is not None:
        return raw(index)
    return torch.cuda.current_stream(index).cuda_stream


def device(index=0):
    """The GPU cute_rs runs on, e.g. ``NVIDIA H200 (sm_90, 132 SMs)``; RuntimeError without one."""
    return _native.device(index)


def live_buffers():
    """How many result buffers cute_rs allocated that are not freed yet (for leak checks)."""
    return _native.live_buffers()
