"""A DLPack producer made with ctypes: tensors that claim to live anywhere (a CUDA device
included) at any address, for the argument checks that need no GPU. Nothing ever reads them:
every test that uses them fails before a launch. Also what the tests share: `Producer` (a
torch tensor behind the DLPack protocol alone), `gpu_present()` and `no_gpu_reason()`."""

import ctypes

KDL_CPU, KDL_CUDA = 1, 2
DTYPES = {  # name: (code, bits)
    "bfloat16": (4, 16),
    "float16": (2, 16),
    "float32": (2, 32),
    "float64": (2, 64),
    "int32": (0, 32),
    "float8_e4m3fn": (10, 8),  # DLPack >= 1.0's kDLFloat8_e4m3fn (torch.float8_e4m3fn)
    "float8_e5m2": (12, 8),  # kDLFloat8_e5m2
    "float8_e4m3fnuz": (11, 8),
}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class FakeTensor:
    """Row-major unless `strides` is given; `data` is a made-up address (16-byte aligned)."""

    def __init__(self, shape, dtype="bfloat16", strides=None, device=(KDL_CUDA, 0), data=0x7F0000000000):
        self.shape = tuple(shape)
        self.dtype = dtype
        if strides is None:
            strides, acc = [], 1
            for s in reversed(self.shape):
                strides.insert(0, acc)
                acc *= s
        self.strides = tuple(strides)
        self.device = device
        self.data = data
        self.streams = []  # the stream argument of every __dlpack__ call
        self._keep = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.streams.append(stream)
        n = len(self.shape)
        shape = (ctypes.c_int64 * n)(*self.shape)
        strides = (ctypes.c_int64 * n)(*self.strides)
        code, bits = DTYPES[self.dtype]
        m = DLManagedTensor()
        m.dl_tensor = DLTensor(
            self.data, DLDevice(*self.device), n, DLDataType(code, bits, 1), shape, strides, 0
        )
        self._keep += [shape, strides, m]
        return _capsule_new(ctypes.addressof(m), b"dltensor", None)


class Producer:
    """Another library's tensor: only the DLPack protocol over `t` (a torch tensor), so cute_rs
    takes it through `__dlpack__` (the legacy default stream) and returns a DLPackTensor."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None, **kw):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def gpu_present():
    """Whether cute_rs finds a usable GPU (the GPU-free tests that need none skip otherwise)."""
    import cute_rs

    try:
        cute_rs.device()
        return True
    except RuntimeError:
        return False


def no_gpu_reason(torch, hopper_kernel=None):
    """Why the GPU tests cannot run here (None when they can): torch sees no GPU, cute_rs finds
    none, or, for `hopper_kernel` (a kernel's name), the GPU is not Hopper (sm_90)."""
    import cute_rs

    if not torch.cuda.is_available():
        return "torch sees no GPU"
    try:
        name = cute_rs.device()
    except RuntimeError as e:
        return str(e)
    if hopper_kernel and "sm_90" not in name:
        return f"{name}: the {hopper_kernel} is sm_90a"
    return None
