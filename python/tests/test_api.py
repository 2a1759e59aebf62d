"""cute_rs without a GPU: import, every argument error (named), the no-GPU RuntimeError.

Runs in `cargo xtask test` (CI has no GPU); on a GPU machine the argument tests run too (they
fail before any launch) and the no-GPU test is skipped."""

import pytest

import cute_rs
from fake_dlpack import KDL_CPU, FakeTensor, gpu_present


def test_import_and_api():
    assert callable(cute_rs.gemm)
    assert "a @ b" in cute_rs.gemm.__doc__
    assert cute_rs.live_buffers() >= 0


def test_not_a_tensor_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"^a: expected a CUDA tensor with __dlpack__.*list"):
        cute_rs.gemm([[1.0]], FakeTensor((1, 8)))
    with pytest.raises(TypeError, match=r"^b: expected"):
        cute_rs.gemm(FakeTensor((8, 8)), 3.0)


def test_cpu_tensors_are_value_errors_naming_them():
    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        cute_rs.gemm(FakeTensor((8, 8), device=(KDL_CPU, 0)), FakeTensor((8, 8)))
    with pytest.raises(ValueError, match=r"^b must be a CUDA tensor"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8), device=(KDL_CPU, 0)))
    with pytest.raises(ValueError, match=r"^out must be a CUDA tensor"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8)), out=FakeTensor((8, 8), device=(KDL_CPU, 0)))


def test_dtypes():
    with pytest.raises(TypeError, match=r"^a has dtype int32: cute_rs.gemm takes bfloat16, float16 or float32"):
        cute_rs.gemm(FakeTensor((8, 8), "int32"), FakeTensor((8, 8)))
    with pytest.raises(TypeError, match=r"^b has dtype float16 but a has bfloat16"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8), "float16"))
    with pytest.raises(TypeError, match=r"^out has dtype float16: for bfloat16 operands it must be bfloat16 or float32"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8)), out=FakeTensor((8, 8), "float16"))
    with pytest.raises(TypeError, match=r"^b has dtype float64"):
        cute_rs.gemm(FakeTensor((8, 8), "float32"), FakeTensor((8, 8), "float64"))


def test_shapes():
    with pytest.raises(ValueError, match=r"^a must be a 2-D matrix, it has shape \[2, 8, 8\]"):
        cute_rs.gemm(FakeTensor((2, 8, 8)), FakeTensor((8, 8)))
    with pytest.raises(ValueError, match=r"^b has 16 rows but a has 8 columns"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((16, 8)))
    with pytest.raises(ValueError, match=r"^out has shape \(8, 16\), a @ b has \(8, 24\)"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 24)), out=FakeTensor((8, 16)))
    with pytest.raises(ValueError, match=r"^b is on cuda:1 but a is on cuda:0"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8), device=(2, 1)))


def test_layouts_and_alignment():
    # no unit stride (a[::2, ::2] of a 16x16)
    with pytest.raises(ValueError, match=r"^a \(shape \(8, 8\), strides \(32, 2\)\) needs one unit stride"):
        cute_rs.gemm(FakeTensor((8, 8), strides=(32, 2)), FakeTensor((8, 8)))
    # a row of 12 bf16 is 24 bytes: TMA needs 16-byte strides
    with pytest.raises(ValueError, match=r"^a: its leading stride 12 \(elements\) must be a multiple of 8 for bfloat16"):
        cute_rs.gemm(FakeTensor((16, 12)), FakeTensor((12, 8)))
    with pytest.raises(ValueError, match=r"^b: its data pointer 0x7f0000000002 is not 16-byte aligned"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8), data=0x7F0000000002))
    with pytest.raises(ValueError, match=r"^out \(strides \(1, 8\)\) must be row-major"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8)), out=FakeTensor((8, 8), strides=(1, 8)))
    with pytest.raises(ValueError, match=r"^a has negative strides"):
        cute_rs.gemm(FakeTensor((8, 8), strides=(-8, 1)), FakeTensor((8, 8)))


def test_scalars():
    with pytest.raises(ValueError, match=r"^beta=1 reads C: pass out="):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8)), beta=1.0)
    with pytest.raises(ValueError, match=r"must be finite"):
        cute_rs.gemm(FakeTensor((8, 8)), FakeTensor((8, 8)), alpha=float("nan"))


def test_dlpack_stream_defaults_to_the_legacy_stream():
    a, b = FakeTensor((8, 8), "int32"), FakeTensor((8, 8))
    with pytest.raises(TypeError):
        cute_rs.gemm(a, b)
    assert a.streams == [1]  # DLPack's "legacy default stream", never the ambiguous 0


@pytest.mark.skipif(gpu_present(), reason="a GPU is present")
def test_no_gpu_is_a_runtime_error():
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        cute_rs.gemm(FakeTensor((64, 64)), FakeTensor((64, 64)))
    with pytest.raises(RuntimeError, match=r"^cute_rs: no usable GPU: "):
        cute_rs.device()


def desc(shape=(8, 8), dtype="bfloat16", strides=None, device=0, ptr=0x7F0000000000):
    """What cute_rs._torch_desc makes of a torch tensor."""
    if strides is None:
        strides = (shape[1], 1) if len(shape) == 2 else tuple(1 for _ in shape)
    return (ptr, shape, strides, dtype, device)


def test_torch_path_errors_match_the_dlpack_path():
    def g(a, b, out=None):
        return cute_rs._native.gemm(a, b, out, desc=True)

    with pytest.raises(ValueError, match=r"^a must be a CUDA tensor, it is on cpu"):
        g(desc(device="cpu"), desc())
    with pytest.raises(TypeError, match=r"^b has dtype int32: cute_rs.gemm takes"):
        g(desc(), desc(dtype="int32"))
    with pytest.raises(ValueError, match=r"^a must be a 2-D matrix, it has shape \[2, 8, 8\]"):
        g(desc((2, 8, 8)), desc())
    with pytest.raises(ValueError, match=r"^b: its data pointer 0x7f0000000008 is not 16-byte aligned"):
        g(desc(), desc(ptr=0x7F0000000008))
    with pytest.raises(ValueError, match=r"^out has shape \(8, 16\), a @ b has \(8, 8\)"):
        g(desc(), desc(), desc((8, 16)))


class FakeTorchTensor:
    """The attributes cute_rs._torch_desc reads."""

    def __init__(self, dtype, cuda=True):
        self.dtype, self.is_cuda = dtype, cuda
        self.shape, self.device = (4, 8), "cpu"

    def data_ptr(self):
        return 0x1000

    def stride(self):
        return (8, 1)

    def get_device(self):
        return 3


def test_torch_desc_reads_the_tensor():
    assert cute_rs._torch_desc(FakeTorchTensor("torch.int8")) == (0x1000, (4, 8), (8, 1), "int8", 3)
    assert cute_rs._torch_desc(FakeTorchTensor("x", cuda=False))[4] == "cpu"


def test_fused_epilogue_arguments():
    # a (16x32) row-major, b = w.t() of a row-major (24x32) w: column-major (32x24)
    a, b = FakeTensor((16, 32)), FakeTensor((32, 24), strides=(1, 32))
    bias = FakeTensor((24,), "float32")
    with pytest.raises(ValueError, match=r'^activation="tanh": cute_rs.gemm takes None, "relu", "gelu"'):
        cute_rs.gemm(a, b, activation="tanh")
    with pytest.raises(TypeError, match=r"^activation must be None or a str, not int"):
        cute_rs.gemm(a, b, activation=1)
    with pytest.raises(TypeError, match=r"^bias= and activation= \(the fused epilogue\) take bfloat16 a, b and out, not float16 -> float16"):
        cute_rs.gemm(FakeTensor((16, 32), "float16"), FakeTensor((32, 24), "float16", strides=(1, 32)), activation="relu")
    with pytest.raises(TypeError, match=r"^bias= and activation= .* not bfloat16 -> float32"):
        cute_rs.gemm(a, b, out=FakeTensor((16, 24), "float32"), bias=bias)
    # b row-major: not the K-major B the fused kernel reads
    with pytest.raises(ValueError, match=r"^bias= and activation= .* take a row-major a and a column-major b"):
        cute_rs.gemm(a, FakeTensor((32, 24)), activation="gelu")
    with pytest.raises(ValueError, match=r"^bias has shape \[16\]: it must be \(24,\), one value per column"):
        cute_rs.gemm(a, b, bias=FakeTensor((16,), "float32"))
    with pytest.raises(ValueError, match=r"^bias has shape \[1, 24\]"):
        cute_rs.gemm(a, b, bias=FakeTensor((1, 24), "float32"))
    with pytest.raises(TypeError, match=r"^bias has dtype bfloat16: it must be float32"):
        cute_rs.gemm(a, b, bias=FakeTensor((24,), "bfloat16"))
    with pytest.raises(ValueError, match=r"^bias has stride 2: pass bias.contiguous\(\)"):
        cute_rs.gemm(a, b, bias=FakeTensor((24,), "float32", strides=(2,)))
    with pytest.raises(ValueError, match=r"^bias must be a CUDA tensor, it is on cpu"):
        cute_rs.gemm(a, b, bias=FakeTensor((24,), "float32", device=(KDL_CPU, 0)))
    with pytest.raises(ValueError, match=r"^bias is on cuda:1 but a is on cuda:0"):
        cute_rs.gemm(a, b, bias=FakeTensor((24,), "float32", device=(2, 1)))


def test_fused_epilogue_torch_path_errors_match():
    def g(a, b, bias=None, act=None):
        return cute_rs._native.gemm(a, b, None, desc=True, bias=bias, activation=act)

    a, b = desc((16, 32)), desc((32, 24), strides=(1, 32))
    with pytest.raises(ValueError, match=r'^activation="swish"'):
        g(a, b, act="swish")
    with pytest.raises(ValueError, match=r"^bias has shape \(16,\)|^bias has shape \[16\]"):
        g(a, b, bias=desc((16,), "float32"))
    with pytest.raises(ValueError, match=r"^bias= and activation= .* column-major b"):
        g(a, desc((32, 24)), act="relu")
