//! DLPack (v0.8 `DLManagedTensor`, the `dltensor` capsule every producer speaks): the C structs,
//! reading a producer's tensor and handing out our own buffers.
//!
//! A consumer renames the capsule to `used_dltensor` and calls the tensor's deleter when done
//! with it; a capsule nobody consumed frees its tensor in the capsule's destructor.

use std::ffi::{CStr, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{PyErr, ffi};

/// `kDLCPU`, `kDLCUDA`, `kDLCUDAHost`, `kDLCUDAManaged`: the device types we name in errors.
pub const KDL_CPU: i32 = 1;
/// `kDLCUDA`: plain device memory, the only kind the GEMM takes.
pub const KDL_CUDA: i32 = 2;
const KDL_CUDA_HOST: i32 = 3;
const KDL_CUDA_MANAGED: i32 = 13;

/// `kDLFloat`, `kDLBfloat`, `kDLFloat8_e4m3fn`, `kDLFloat8_e5m2` (DLPack ≥ 1.0; torch's
/// `float8_e4m3fn` and `float8_e5m2`): the type codes of the elements we take.
const KDL_FLOAT: u8 = 2;
const KDL_BFLOAT: u8 = 4;
const KDL_FLOAT8_E4M3FN: u8 = 10;
const KDL_FLOAT8_E5M2: u8 = 12;

const DLTENSOR: &CStr = c"dltensor";
const USED_DLTENSOR: &CStr = c"used_dltensor";

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDevice {
    pub device_type: i32,
    pub device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDataType {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

#[repr(C)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub ndim: i32,
    pub dtype: DLDataType,
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

#[repr(C)]
pub struct DLManagedTensor {
    pub dl_tensor: DLTensor,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// The element types of the GEMMs (FP8: `cute_rs.scaled_mm` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    BF16,
    F16,
    F32,
    /// torch's `float8_e4m3fn` (CuTe's `float_e4m3_t`: no infinities, largest ±448).
    E4M3,
    /// torch's `float8_e5m2`.
    E5M2,
}

impl Dtype {
    pub fn from_dl(t: DLDataType) -> Option<Dtype> {
        match (t.code, t.bits, t.lanes) {
            (KDL_BFLOAT, 16, 1) => Some(Dtype::BF16),
            (KDL_FLOAT, 16, 1) => Some(Dtype::F16),
            (KDL_FLOAT, 32, 1) => Some(Dtype::F32),
            (KDL_FLOAT8_E4M3FN, 8, 1) => Some(Dtype::E4M3),
            (KDL_FLOAT8_E5M2, 8, 1) => Some(Dtype::E5M2),
            _ => None,
        }
    }

    pub fn to_dl(self) -> DLDataType {
        let (code, bits) = match self {
            Dtype::BF16 => (KDL_BFLOAT, 16),
            Dtype::F16 => (KDL_FLOAT, 16),
            Dtype::F32 => (KDL_FLOAT, 32),
            Dtype::E4M3 => (KDL_FLOAT8_E4M3FN, 8),
            Dtype::E5M2 => (KDL_FLOAT8_E5M2, 8),
        };
        DLDataType {
            code,
            bits,
            lanes: 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dtype::BF16 => "bfloat16",
            Dtype::F16 => "float16",
            Dtype::F32 => "float32",
            Dtype::E4M3 => "float8_e4m3fn",
            Dtype::E5M2 => "float8_e5m2",
        }
    }

    /// A dtype by torch's name (`str(t.dtype)` without `torch.`).
    pub fn from_name(name: &str) -> Option<Dtype> {
        [
            Dtype::BF16,
            Dtype::F16,
            Dtype::F32,
            Dtype::E4M3,
            Dtype::E5M2,
        ]
        .into_iter()
        .find(|d| d.name() == name)
    }

    /// An 8-bit float (`cute_rs.scaled_mm`'s operands).
    pub fn is_fp8(self) -> bool {
        matches!(self, Dtype::E4M3 | Dtype::E5M2)
    }
}

/// A DLDataType as numpy/torch would say it (for errors).
fn dtype_name(t: DLDataType) -> String {
    // DLPack 1.x's 8-, 6- and 4-bit float codes 7..=17, by name
    const NARROW: [&str; 11] = [
        "float8_e3m4",
        "float8_e4m3",
        "float8_e4m3b11fnuz",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "float6_e2m3fn",
        "float6_e3m2fn",
        "float4_e2m1fn",
    ];
    let name = match t.code {
        0 => format!("int{}", t.bits),
        1 => format!("uint{}", t.bits),
        2 => format!("float{}", t.bits),
        3 => format!("opaque{}", t.bits),
        4 => format!("bfloat{}", t.bits),
        5 => format!("complex{}", t.bits),
        6 => format!("bool{}", t.bits),
        c @ 7..=17 => format!("{} ({} bits)", NARROW[c as usize - 7], t.bits),
        c => format!("code{c}_{}", t.bits),
    };
    if t.lanes == 1 {
        name
    } else {
        format!("{name}x{}", t.lanes)
    }
}

fn device_name(d: i32) -> String {
    match d {
        KDL_CPU => "cpu".into(),
        KDL_CUDA => "cuda".into(),
        KDL_CUDA_HOST => "cuda pinned host memory".into(),
        KDL_CUDA_MANAGED => "cuda managed memory".into(),
        other => format!("DLPack device type {other}"),
    }
}

/// `obj.__dlpack_device__()`: a `TypeError` naming the argument if it speaks no DLPack, a
/// `ValueError` if it is not plain CUDA device memory.
pub fn cuda_device_of(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<i32> {
    let dev = obj
        .getattr("__dlpack_device__")
        .and_then(|f| f.call0())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}: expected a CUDA tensor with __dlpack__ (a torch.Tensor, ...), got {}",
                type_name(obj)
            ))
        })?;
    let (kind, id): (i32, i32) = dev.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: __dlpack_device__() returned {dev}, not (device_type, device_id)"
        ))
    })?;
    if kind != KDL_CUDA {
        return Err(PyValueError::new_err(format!(
            "{name} must be a CUDA tensor, it is on {} (DLPack device type {kind})",
            device_name(kind)
        )));
    }
    Ok(id)
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".into())
}

/// A producer's tensor, borrowed: the deleter runs when this is dropped.
pub struct Borrowed {
    managed: *mut DLManagedTensor,
    /// The capsule, kept alive while we read the tensor.
    _capsule: Py<PyAny>,
}

/// What the GEMM needs of a 2-D tensor.
#[derive(Clone, Copy, Debug)]
pub struct Matrix {
    pub dtype: Dtype,
    pub device_id: i32,
    /// The address of element (0, 0).
    pub addr: u64,
    pub rows: usize,
    pub cols: usize,
    /// Element strides (row, column).
    pub strides: (i64, i64),
}

impl Matrix {
    /// Elements from element (0, 0) to the last one, inclusive (what a buffer of it spans).
    pub fn span(&self) -> usize {
        if self.rows == 0 || self.cols == 0 {
            return 0;
        }
        ((self.rows - 1) as i64 * self.strides.0 + (self.cols - 1) as i64 * self.strides.1 + 1)
            as usize
    }
}

impl Borrowed {
    /// `obj.__dlpack__(stream=stream)`, consumed (the capsule renamed `used_dltensor`).
    pub fn take(name: &str, obj: &Bound<'_, PyAny>, stream: i64) -> PyResult<Borrowed> {
        let py = obj.py();
        let kwargs = PyDict::new(py);
        kwargs.set_item("stream", stream)?;
        let cap = obj
            .call_method("__dlpack__", (), Some(&kwargs))
            .map_err(|e| {
                PyErr::from_type(
                    e.get_type(py),
                    format!("{name}.__dlpack__(stream={stream}) failed: {e}"),
                )
            })?;
        // SAFETY: `cap` is a live object; the capsule API checks its type and name.
        let managed = unsafe {
            let p = cap.as_ptr();
            if ffi::PyCapsule_IsValid(p, DLTENSOR.as_ptr()) != 1 {
                return Err(PyTypeError::new_err(format!(
                    "{name}.__dlpack__() returned {}, not a \"dltensor\" capsule",
                    type_name(&cap)
                )));
            }
            let m = ffi::PyCapsule_GetPointer(p, DLTENSOR.as_ptr()) as *mut DLManagedTensor;
            if m.is_null() || ffi::PyCapsule_SetName(p, USED_DLTENSOR.as_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
            m
        };
        Ok(Borrowed {
            managed,
            _capsule: cap.unbind(),
        })
    }

    /// The tensor as a matrix: 2-D, a GEMM dtype, on CUDA. Errors name the argument.
    pub fn matrix(&self, name: &str) -> PyResult<Matrix> {
        let t = self.strided(name)?;
        Matrix::new(
            name,
            t.dtype,
            t.device_id,
            t.addr,
            &t.shape,
            Some(t.strides.as_slice()),
        )
    }

    /// The tensor as it is (any rank), on CUDA: null strides are row-major's. Errors name the
    /// argument.
    pub fn strided(&self, name: &str) -> PyResult<Strided> {
        // SAFETY: the producer keeps the tensor valid until its deleter runs (our Drop).
        let t = unsafe { &(*self.managed).dl_tensor };
        if t.device.device_type != KDL_CUDA {
            return Err(not_cuda(name, &device_name(t.device.device_type)));
        }
        let ndim = t.ndim.max(0) as usize;
        // SAFETY: `shape` (and `strides` if not null) hold `ndim` entries.
        let (shape, strides): (&[i64], Option<&[i64]>) = if ndim == 0 {
            (&[], None)
        } else {
            unsafe {
                (
                    std::slice::from_raw_parts(t.shape, ndim),
                    (!t.strides.is_null()).then(|| std::slice::from_raw_parts(t.strides, ndim)),
                )
            }
        };
        Ok(Strided::new(
            Dtype::from_dl(t.dtype).ok_or_else(|| dtype_name(t.dtype)),
            t.device.device_id,
            (t.data as u64).wrapping_add(t.byte_offset),
            shape.to_vec(),
            strides.map(<[i64]>::to_vec),
        ))
    }
}

/// A tensor of any rank as DLPack (or `cute_rs._torch_desc`) describes it.
#[derive(Clone, Debug)]
pub struct Strided {
    /// Its dtype, or the dtype's name when it is none of ours.
    pub dtype: Result<Dtype, String>,
    pub device_id: i32,
    /// The address of element 0.
    pub addr: u64,
    pub shape: Vec<i64>,
    /// Element strides.
    pub strides: Vec<i64>,
}

impl Strided {
    /// Strides `None` are row-major's (DLPack's null strides).
    pub fn new(
        dtype: Result<Dtype, String>,
        device_id: i32,
        addr: u64,
        shape: Vec<i64>,
        strides: Option<Vec<i64>>,
    ) -> Strided {
        let strides = strides.unwrap_or_else(|| {
            let mut s = vec![1i64; shape.len()];
            for i in (0..shape.len().saturating_sub(1)).rev() {
                s[i] = s[i + 1].saturating_mul(shape[i + 1].max(1));
            }
            s
        });
        Strided {
            dtype,
            device_id,
            addr,
            shape,
            strides,
        }
    }

    /// Elements from element 0 to the last one, inclusive (what a buffer of it spans; 0 when
    /// empty; negative strides count as 0, the checks refuse them).
    pub fn span(&self) -> usize {
        if self.shape.iter().any(|&n| n <= 0) {
            return 0;
        }
        let last: i128 = self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&n, &s)| i128::from(n - 1) * i128::from(s.max(0)))
            .sum();
        (last + 1).min(usize::MAX as i128) as usize
    }
}

/// The error for a tensor that is not in CUDA device memory.
pub fn not_cuda(name: &str, where_: &str) -> PyErr {
    PyValueError::new_err(format!("{name} must be a CUDA tensor, it is on {where_}"))
}

impl Matrix {
    /// A 2-D tensor of a GEMM dtype (else the dtype's name) at `addr`: strides `None` are
    /// row-major's. Errors name the argument.
    pub fn new(
        name: &str,
        dtype: Result<Dtype, String>,
        device_id: i32,
        addr: u64,
        shape: &[i64],
        strides: Option<&[i64]>,
    ) -> PyResult<Matrix> {
        let dtype = match dtype {
            Ok(d) if !d.is_fp8() => Ok(d),
            other => Err(other.map_or_else(|d| d, |d| d.name().into())),
        }
        .map_err(|d| {
            let fp8 = if d.starts_with("float8") {
                " (8-bit floats: cute_rs.scaled_mm)"
            } else {
                ""
            };
            PyTypeError::new_err(format!(
                "{name} has dtype {d}: cute_rs.gemm takes bfloat16, float16 or float32{fp8}"
            ))
        })?;
        if shape.len() != 2 || strides.is_some_and(|s| s.len() != 2) {
            return Err(PyValueError::new_err(format!(
                "{name} must be a 2-D matrix, it has shape {shape:?}"
            )));
        }
        let strides = strides.map_or((shape[1], 1), |s| (s[0], s[1]));
        Ok(Matrix {
            dtype,
            device_id,
            addr,
            rows: shape[0].max(0) as usize,
            cols: shape[1].max(0) as usize,
            strides,
        })
    }
}

impl Drop for Borrowed {
    fn drop(&mut self) {
        // SAFETY: we consumed the capsule, so its deleter is ours to call, once.
        unsafe {
            if let Some(d) = (*self.managed).deleter {
                d(self.managed);
            }
        }
    }
}

/// What an exported tensor owns: its buffer (type-erased; its `Drop` frees the memory) and the
/// shape and strides the DLTensor points into.
struct Owner {
    _buffer: Box<dyn Send>,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

unsafe extern "C" fn deleter(m: *mut DLManagedTensor) {
    // A panic must not cross the C boundary; there is nobody to report it to.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `m` and its `manager_ctx` were made by `export` from Boxes, and a deleter
        // runs once (the consumer's, or the capsule destructor's when nobody consumed it).
        unsafe {
            let m = Box::from_raw(m);
            drop(Box::from_raw(m.manager_ctx as *mut Owner));
        }
    }));
}

unsafe extern "C" fn capsule_destructor(cap: *mut ffi::PyObject) {
    // SAFETY: called by Python with the capsule; a consumed capsule is named `used_dltensor`
    // and is left alone (its consumer calls the deleter).
    unsafe {
        if ffi::PyCapsule_IsValid(cap, DLTENSOR.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(cap, DLTENSOR.as_ptr()) as *mut DLManagedTensor;
            if !m.is_null() {
                deleter(m);
            }
        } else {
            ffi::PyErr_Clear();
        }
    }
}

/// A row-major tensor of `shape` at `addr` on CUDA device `device_id` as a `dltensor`
/// capsule that owns `buffer` (dropped, so freed, when the consumer is done with it).
pub fn export(
    py: Python<'_>,
    buffer: Box<dyn Send>,
    addr: u64,
    device_id: i32,
    dtype: Dtype,
    shape: &[usize],
) -> PyResult<Py<PyAny>> {
    let shape: Vec<i64> = shape.iter().map(|&n| n as i64).collect();
    let strides = Strided::new(Ok(dtype), device_id, addr, shape.clone(), None).strides;
    let ndim = shape.len() as i32;
    let owner = Box::into_raw(Box::new(Owner {
        _buffer: buffer,
        shape,
        strides,
    }));
    // SAFETY: `owner` lives until the deleter; the DLTensor points into it.
    let managed = Box::into_raw(Box::new(DLManagedTensor {
        dl_tensor: DLTensor {
            data: addr as *mut c_void,
            device: DLDevice {
                device_type: KDL_CUDA,
                device_id,
            },
            ndim,
            dtype: dtype.to_dl(),
            shape: unsafe { (*owner).shape.as_mut_ptr() },
            strides: unsafe { (*owner).strides.as_mut_ptr() },
            byte_offset: 0,
        },
        manager_ctx: owner as *mut c_void,
        deleter: Some(deleter),
    }));
    // SAFETY: a capsule over `managed` named `dltensor`, freed by `capsule_destructor` unless
    // consumed; on failure nobody else holds `managed`, so we free it here.
    unsafe {
        let cap = ffi::PyCapsule_New(
            managed as *mut c_void,
            DLTENSOR.as_ptr(),
            Some(capsule_destructor),
        );
        if cap.is_null() {
            deleter(managed);
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, cap).unbind())
    }
}
