//! CuTe's `make_tma_copy` preconditions and the tensor map's arguments, without the driver
//! ([`plan_tma_copy`]); re-exported by [`crate::tma`].

use cudarc::driver::sys;
use layout_types::value::swizzle::{ComposedLayout, ComposedOffset};

/// Which TMA instruction the atom issues (CuTe's `SM90_TMA_LOAD`, `SM90_TMA_LOAD_MULTICAST`,
/// `SM90_TMA_STORE`).
///
/// ```
/// let op = host::tma::TmaOp::LoadMulticast { cluster_size: 2 };
/// assert_eq!(op.cluster_size(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaOp {
    /// `cp.async.bulk.tensor...shared::cluster.global.mbarrier::complete_tx::bytes`.
    Load,
    /// The multicast load: each of the `cluster_size` CTAs loads `1/cluster_size` of the box
    /// (split along its outermost mode) and writes it into every CTA of the cluster.
    LoadMulticast {
        /// CTAs sharing the box (1 to 16).
        cluster_size: u32,
    },
    /// `cp.async.bulk.tensor...global.shared::cta.bulk_group`.
    Store,
}

impl TmaOp {
    /// CTAs sharing one box (1 unless multicast).
    ///
    /// ```
    /// assert_eq!(host::tma::TmaOp::Store.cluster_size(), 1);
    /// ```
    pub fn cluster_size(self) -> u32 {
        match self {
            TmaOp::LoadMulticast { cluster_size } => cluster_size,
            _ => 1,
        }
    }
}

/// The element types a tensor map describes (`CUtensorMapDataType`).
///
/// ```
/// use host::tma::TmaElement;
/// assert_eq!(<f32 as TmaElement>::BYTES, 4);
/// ```
pub trait TmaElement {
    /// Size in bytes.
    const BYTES: u64;
    /// The driver's data type.
    const DATA_TYPE: sys::CUtensorMapDataType;
}

macro_rules! tma_element {
    ($($t:ty = $b:expr, $d:ident;)*) => {$(
        impl TmaElement for $t {
            const BYTES: u64 = $b;
            const DATA_TYPE: sys::CUtensorMapDataType = sys::CUtensorMapDataType::$d;
        }
    )*};
}
tma_element! {
    u8 = 1, CU_TENSOR_MAP_DATA_TYPE_UINT8;
    i8 = 1, CU_TENSOR_MAP_DATA_TYPE_UINT8;
    u16 = 2, CU_TENSOR_MAP_DATA_TYPE_UINT16;
    i16 = 2, CU_TENSOR_MAP_DATA_TYPE_UINT16;
    u32 = 4, CU_TENSOR_MAP_DATA_TYPE_UINT32;
    i32 = 4, CU_TENSOR_MAP_DATA_TYPE_INT32;
    f32 = 4, CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    u64 = 8, CU_TENSOR_MAP_DATA_TYPE_UINT64;
    i64 = 8, CU_TENSOR_MAP_DATA_TYPE_INT64;
    f64 = 8, CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
}

/// A global-memory tensor as TMA sees it: a device address, an element type, and per mode an
/// extent and a stride in elements (CuTe's gmem tensor `make_tensor(make_gmem_ptr(p), shape,
/// stride)`).
///
/// ```
/// let g = host::tma::GmemTensor::new::<u16>(0x1000, &[64, 32], &[1, 64]); // column-major
/// assert_eq!(g.elem_bytes, 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GmemTensor {
    /// The device address of element `(0, ..., 0)`.
    pub address: u64,
    /// Extent of each mode.
    pub shape: Vec<u64>,
    /// Stride of each mode, in elements.
    pub stride: Vec<u64>,
    /// Element size in bytes.
    pub elem_bytes: u64,
    /// The driver's element type.
    pub data_type: sys::CUtensorMapDataType,
}

impl GmemTensor {
    /// The tensor of `T` at `address` with `shape` and `stride` (elements).
    ///
    /// ```
    /// let g = host::tma::GmemTensor::new::<f32>(0x1000, &[4, 8], &[8, 1]);
    /// assert_eq!(g.shape, [4, 8]);
    /// ```
    pub fn new<T: TmaElement>(address: u64, shape: &[u64], stride: &[u64]) -> GmemTensor {
        GmemTensor {
            address,
            shape: shape.to_vec(),
            stride: stride.to_vec(),
            elem_bytes: T::BYTES,
            data_type: T::DATA_TYPE,
        }
    }
}

/// The swizzle TMA applies when it writes or reads shared memory (`CUtensorMapSwizzle`).
///
/// ```
/// assert_eq!(host::tma::TmaSwizzle::B128.span_bytes(), 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// No swizzle (`Sw<0,4,3>`).
    None,
    /// `Sw<1,4,3>` in bytes: 32-byte span.
    B32,
    /// `Sw<2,4,3>` in bytes: 64-byte span.
    B64,
    /// `Sw<3,4,3>` in bytes: 128-byte span.
    B128,
}

impl TmaSwizzle {
    /// The bytes a swizzled row spans (16 without a swizzle: TMA's granule).
    ///
    /// ```
    /// assert_eq!(host::tma::TmaSwizzle::None.span_bytes(), 16);
    /// ```
    pub fn span_bytes(self) -> u64 {
        match self {
            TmaSwizzle::None => 16,
            TmaSwizzle::B32 => 32,
            TmaSwizzle::B64 => 64,
            TmaSwizzle::B128 => 128,
        }
    }
    pub(crate) fn driver(self) -> sys::CUtensorMapSwizzle {
        use sys::CUtensorMapSwizzle::*;
        match self {
            TmaSwizzle::None => CU_TENSOR_MAP_SWIZZLE_NONE,
            TmaSwizzle::B32 => CU_TENSOR_MAP_SWIZZLE_32B,
            TmaSwizzle::B64 => CU_TENSOR_MAP_SWIZZLE_64B,
            TmaSwizzle::B128 => CU_TENSOR_MAP_SWIZZLE_128B,
        }
    }
}

/// Why a tensor and a shared-memory layout make no TMA copy: CuTe's `make_tma_copy`
/// preconditions and `cuTensorMapEncodeTiled`'s, each with the value that fails.
///
/// ```
/// use host::tma::{GmemTensor, TmaError, TmaOp, plan_tma_copy};
/// let g = GmemTensor::new::<f32>(0x1004, &[64, 64], &[64, 1]);
/// let s = "Sw<0,4,3> o _0 o (_8,_64):(_64,_1)".parse().unwrap();
/// let e = plan_tma_copy(TmaOp::Load, &g, &s).unwrap_err();
/// assert_eq!(e, TmaError::Misaligned { what: "global address", value: 0x1004, align: 16 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TmaError {
    /// The global tensor has no mode or more than 5.
    #[error("TMA: the global tensor has rank {rank}; TMA copies tensors of rank 1 to 5")]
    Rank {
        /// The rank given.
        rank: usize,
    },
    /// Shape and stride of the global tensor differ in rank.
    #[error("TMA: the global tensor's shape has {shape} modes and its stride {stride}")]
    StrideRank {
        /// Modes of the shape.
        shape: usize,
        /// Modes of the stride.
        stride: usize,
    },
    /// The shared-memory layout has another rank than the global tensor.
    #[error(
        "TMA: the smem layout {layout} has {smem} modes, the global tensor {gmem}: one box extent per global mode"
    )]
    SmemRank {
        /// The smem layout.
        layout: String,
        /// Its rank.
        smem: usize,
        /// The global tensor's rank.
        gmem: usize,
    },
    /// A shared-memory mode that is not a single static extent and stride.
    #[error(
        "TMA: mode {mode} of the smem layout {layout} is not one integer extent with one stride"
    )]
    SmemModeNotFlat {
        /// The mode.
        mode: usize,
        /// The smem layout.
        layout: String,
    },
    /// The shared-memory layout is not the compact box TMA writes.
    #[error(
        "TMA: the smem layout {layout} is not a compact box (mode {mode} has stride {stride}, the box order needs {expected}); TMA writes boxes dense, dimension 0 contiguous"
    )]
    SmemNotCompact {
        /// The smem layout.
        layout: String,
        /// The mode whose stride is wrong.
        mode: usize,
        /// Its stride.
        stride: i64,
        /// The stride a compact box has there.
        expected: i64,
    },
    /// The smem layout's contiguous mode is strided in global memory.
    #[error(
        "TMA: the smem layout's contiguous mode {mode} has global stride {stride}; TMA's dimension 0 must be contiguous (stride 1) in global memory"
    )]
    NotContiguous {
        /// The mode.
        mode: usize,
        /// Its global stride (elements).
        stride: u64,
    },
    /// A zero or too-large extent.
    #[error("TMA: {what} of mode {mode} is {value}; it must be in 1..={max}")]
    Extent {
        /// "global extent" or "box extent".
        what: &'static str,
        /// The mode.
        mode: usize,
        /// The extent.
        value: u64,
        /// The largest legal extent.
        max: u64,
    },
    /// An address or byte stride that is not aligned as TMA needs.
    #[error("TMA: {what} {value:#x} is not a multiple of {align} bytes")]
    Misaligned {
        /// "global address", "global stride (bytes) of mode 1", "inner box bytes".
        what: &'static str,
        /// The value.
        value: u64,
        /// The alignment needed.
        align: u64,
    },
    /// A global byte stride beyond TMA's 40 bits.
    #[error("TMA: the global stride of mode {mode} is {bytes} bytes; TMA strides are < 2^40")]
    StrideTooLarge {
        /// The mode.
        mode: usize,
        /// The stride in bytes.
        bytes: u64,
    },
    /// A swizzle TMA cannot apply.
    #[error(
        "TMA: the smem swizzle {swizzle} is {bytes_form} in bytes for {elem_bytes}-byte elements; TMA swizzles are Sw<B,4,3> in bytes with B in 0..=3"
    )]
    Swizzle {
        /// The swizzle as written.
        swizzle: String,
        /// The swizzle in byte units.
        bytes_form: String,
        /// Element size.
        elem_bytes: u64,
    },
    /// The box's contiguous row does not fill the swizzle's span.
    #[error(
        "TMA: the box's contiguous extent is {inner_bytes} bytes; the {swizzle:?} swizzle needs exactly {span} bytes"
    )]
    SwizzleSpan {
        /// Bytes of the box's dimension 0.
        inner_bytes: u64,
        /// The swizzle.
        swizzle: TmaSwizzle,
        /// Its span.
        span: u64,
    },
    /// A multicast cluster TMA cannot split the box over.
    #[error(
        "TMA multicast: cluster size {cluster_size} must be 1..=16 and divide the box's outermost extent {outer}"
    )]
    Multicast {
        /// The cluster size.
        cluster_size: u32,
        /// The box's outermost (last TMA dimension) extent.
        outer: u64,
    },
    /// A box larger than one mbarrier phase can count.
    #[error("TMA: a box of {bytes} bytes exceeds the mbarrier's transaction count (< 2^20 bytes)")]
    BoxTooLarge {
        /// The box's bytes.
        bytes: u64,
    },
}

/// What [`plan_tma_copy`] derived: the arguments of `cuTensorMapEncodeTiled`, in TMA dimension
/// order (dimension 0 contiguous), and what the device side needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaPlan {
    /// The instruction.
    pub op: TmaOp,
    /// TMA dimension `d` is global mode `order[d]`.
    pub order: Vec<usize>,
    /// `globalDim`.
    pub global_dim: Vec<u64>,
    /// `globalStrides`: bytes, for TMA dimensions 1.. .
    pub global_stride_bytes: Vec<u64>,
    /// `boxDim` (for multicast, the slice one CTA loads).
    pub box_dim: Vec<u32>,
    /// The swizzle read off the smem layout.
    pub swizzle: TmaSwizzle,
    /// Bytes that land in each CTA's shared memory per copy: the whole smem box (CuTe's
    /// `tma_transaction_bytes`), the `arrive_expect_tx` of the load's mbarrier.
    pub tx_bytes: u32,
}

/// CuTe's `make_tma_copy` checks and the tensor map's arguments, without the driver (so every
/// failure is testable on any machine).
///
/// ```
/// use host::tma::{GmemTensor, TmaError, TmaOp, plan_tma_copy};
/// let g = GmemTensor::new::<u16>(0x1000, &[64, 512], &[512, 1]);
/// // 128-byte swizzle: rows of 64 halves (128 bytes)
/// let s = "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)".parse().unwrap();
/// let p = plan_tma_copy(TmaOp::Load, &g, &s).unwrap();
/// assert_eq!(p.swizzle, host::tma::TmaSwizzle::B128);
/// let wide = "Sw<0,4,3> o _0 o (_8,_512):(_512,_1)".parse().unwrap();
/// let e = plan_tma_copy(TmaOp::Load, &g, &wide).unwrap_err();
/// assert!(matches!(e, TmaError::Extent { what: "box extent", mode: 1, value: 512, max: 256 }));
/// ```
pub fn plan_tma_copy(
    op: TmaOp,
    gmem: &GmemTensor,
    smem: &ComposedLayout,
) -> Result<TmaPlan, TmaError> {
    let rank = gmem.shape.len();
    if !(1..=5).contains(&rank) {
        return Err(TmaError::Rank { rank });
    }
    if gmem.stride.len() != rank {
        return Err(TmaError::StrideRank {
            shape: rank,
            stride: gmem.stride.len(),
        });
    }
    let text = smem.to_string();
    let l = &smem.layout;
    // a rank-1 gmem tensor may come with a rank-1 layout printed as a leaf `_64:_1`
    let srank = if l.shape.is_int() { 1 } else { l.rank() };
    if srank != rank {
        return Err(TmaError::SmemRank {
            layout: text,
            smem: srank,
            gmem: rank,
        });
    }
    let mut boxes = Vec::with_capacity(rank);
    for mode in 0..rank {
        let m = if l.shape.is_int() { *l } else { l.get(mode) };
        if !m.shape.is_int() || !m.stride.is_int() {
            return Err(TmaError::SmemModeNotFlat { mode, layout: text });
        }
        boxes.push((m.shape.val().v, m.stride.val().v));
    }
    // TMA dimension order: smem stride order (extent-1 modes last, in mode order)
    let mut order: Vec<usize> = (0..rank).collect();
    order.sort_by_key(|&i| (boxes[i].0 == 1, boxes[i].1, i));
    let mut expected = 1i64;
    for &i in &order {
        let (extent, stride) = boxes[i];
        if !(1..=256).contains(&extent) {
            return Err(TmaError::Extent {
                what: "box extent",
                mode: i,
                value: extent.max(0) as u64,
                max: 256,
            });
        }
        if extent > 1 && stride != expected {
            return Err(TmaError::SmemNotCompact {
                layout: text,
                mode: i,
                stride,
                expected,
            });
        }
        expected *= extent;
    }
    let inner = order[0];
    if gmem.stride[inner] != 1 {
        return Err(TmaError::NotContiguous {
            mode: inner,
            stride: gmem.stride[inner],
        });
    }
    for (mode, &e) in gmem.shape.iter().enumerate() {
        if e == 0 || e > 1 << 32 {
            return Err(TmaError::Extent {
                what: "global extent",
                mode,
                value: e,
                max: 1 << 32,
            });
        }
    }
    if !gmem.address.is_multiple_of(16) {
        return Err(TmaError::Misaligned {
            what: "global address",
            value: gmem.address,
            align: 16,
        });
    }
    let eb = gmem.elem_bytes;
    let mut global_stride_bytes = Vec::with_capacity(rank - 1);
    for &i in &order[1..] {
        let bytes = gmem.stride[i] * eb;
        if !bytes.is_multiple_of(16) {
            return Err(TmaError::Misaligned {
                what: "global stride (bytes)",
                value: bytes,
                align: 16,
            });
        }
        if bytes >= 1 << 40 {
            return Err(TmaError::StrideTooLarge { mode: i, bytes });
        }
        global_stride_bytes.push(bytes);
    }
    // the swizzle in bytes: a smem_ptr flag means it acts on byte addresses already
    let sw = smem.swizzle;
    let base_bytes = match smem.offset {
        ComposedOffset::SmemPtr(_) => sw.base as u64,
        ComposedOffset::Int(_) => sw.base as u64 + eb.trailing_zeros() as u64,
    };
    let swizzle = match (sw.bits, base_bytes, sw.shift) {
        (0, _, _) => TmaSwizzle::None,
        (1, 4, 3) => TmaSwizzle::B32,
        (2, 4, 3) => TmaSwizzle::B64,
        (3, 4, 3) => TmaSwizzle::B128,
        _ => {
            return Err(TmaError::Swizzle {
                swizzle: sw.to_string(),
                bytes_form: format!("Sw<{},{},{}>", sw.bits, base_bytes, sw.shift),
                elem_bytes: eb,
            });
        }
    };
    let inner_bytes = boxes[inner].0 as u64 * eb;
    if !inner_bytes.is_multiple_of(16) {
        return Err(TmaError::Misaligned {
            what: "inner box bytes",
            value: inner_bytes,
            align: 16,
        });
    }
    if swizzle != TmaSwizzle::None && inner_bytes != swizzle.span_bytes() {
        return Err(TmaError::SwizzleSpan {
            inner_bytes,
            swizzle,
            span: swizzle.span_bytes(),
        });
    }
    let total = expected as u64 * eb;
    if total >= 1 << 20 {
        return Err(TmaError::BoxTooLarge { bytes: total });
    }
    let mut box_dim: Vec<u32> = order.iter().map(|&i| boxes[i].0 as u32).collect();
    let cs = op.cluster_size();
    let last = box_dim.len() - 1;
    if !(1..=16).contains(&cs) || !(box_dim[last] as u64).is_multiple_of(cs as u64) {
        return Err(TmaError::Multicast {
            cluster_size: cs,
            outer: box_dim[last] as u64,
        });
    }
    box_dim[last] /= cs;
    Ok(TmaPlan {
        op,
        global_dim: order.iter().map(|&i| gmem.shape[i]).collect(),
        order,
        global_stride_bytes,
        box_dim,
        swizzle,
        tx_bytes: total as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sl(s: &str) -> ComposedLayout {
        s.parse().unwrap()
    }
    fn row(m: u64, n: u64) -> GmemTensor {
        GmemTensor::new::<f32>(0x10000, &[m, n], &[n, 1])
    }

    #[test]
    fn row_and_column_major_boxes_put_the_contiguous_mode_first() {
        let p = plan_tma_copy(
            TmaOp::Load,
            &row(100, 1000),
            &sl("Sw<0,4,3> o _0 o (_16,_64):(_64,_1)"),
        )
        .unwrap();
        assert_eq!(
            (p.order, p.box_dim, p.global_dim),
            (vec![1, 0], vec![64, 16], vec![1000, 100])
        );
        assert_eq!(p.global_stride_bytes, [4000]);
        let g = GmemTensor::new::<f32>(0x10000, &[100, 1000], &[1, 100]);
        let p =
            plan_tma_copy(TmaOp::Store, &g, &sl("Sw<0,4,3> o _0 o (_64,_16):(_1,_64)")).unwrap();
        assert_eq!(
            (p.order, p.box_dim, p.global_stride_bytes),
            (vec![0, 1], vec![64, 16], vec![400])
        );
    }

    #[test]
    fn each_precondition_is_its_own_error() {
        let s = sl("Sw<0,4,3> o _0 o (_16,_64):(_64,_1)");
        let g6 = GmemTensor::new::<f32>(0x10000, &[2; 6], &[1; 6]);
        assert_eq!(
            plan_tma_copy(TmaOp::Load, &g6, &s),
            Err(TmaError::Rank { rank: 6 })
        );
        let mut g = row(100, 1000);
        g.address += 8;
        assert!(matches!(
            plan_tma_copy(TmaOp::Load, &g, &s),
            Err(TmaError::Misaligned {
                what: "global address",
                ..
            })
        ));
        // ld = 1001 floats: 4004-byte rows
        let g = GmemTensor::new::<f32>(0x10000, &[100, 1000], &[1001, 1]);
        assert_eq!(
            plan_tma_copy(TmaOp::Load, &g, &s),
            Err(TmaError::Misaligned {
                what: "global stride (bytes)",
                value: 4004,
                align: 16
            })
        );
        // box of 300 along n
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o (_2,_300):(_300,_1)")
            ),
            Err(TmaError::Extent {
                what: "box extent",
                mode: 1,
                value: 300,
                max: 256
            })
        ));
        // a padded smem row is not a TMA box
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o (_16,_64):(_68,_1)")
            ),
            Err(TmaError::SmemNotCompact {
                mode: 0,
                stride: 68,
                expected: 64,
                ..
            })
        ));
        // smem contiguous along m, gmem along n
        assert_eq!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o (_16,_64):(_1,_16)")
            ),
            Err(TmaError::NotContiguous {
                mode: 0,
                stride: 1000
            })
        );
        // 3 floats = 12 bytes per box row
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o (_16,_3):(_3,_1)")
            ),
            Err(TmaError::Misaligned {
                what: "inner box bytes",
                value: 12,
                align: 16
            })
        ));
        // 128-byte swizzle over 64-byte rows
        assert_eq!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<3,2,3> o _0 o (_8,_16):(_16,_1)")
            ),
            Err(TmaError::SwizzleSpan {
                inner_bytes: 64,
                swizzle: TmaSwizzle::B128,
                span: 128
            })
        );
        // Sw<3,2,6> is the transpose kernel's swizzle: not one TMA writes
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<3,2,6> o _0 o (_8,_32):(_32,_1)")
            ),
            Err(TmaError::Swizzle { .. })
        ));
        assert!(matches!(
            plan_tma_copy(
                TmaOp::LoadMulticast { cluster_size: 3 },
                &row(100, 1000),
                &s
            ),
            Err(TmaError::Multicast {
                cluster_size: 3,
                outer: 16
            })
        ));
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o ((_2,_8),_64):((_64,_128),_1)")
            ),
            Err(TmaError::SmemModeNotFlat { mode: 0, .. })
        ));
        assert!(matches!(
            plan_tma_copy(
                TmaOp::Load,
                &row(100, 1000),
                &sl("Sw<0,4,3> o _0 o (_2,_8,_64):(_512,_64,_1)")
            ),
            Err(TmaError::SmemRank {
                smem: 3,
                gmem: 2,
                ..
            })
        ));
        assert!(matches!(
            plan_tma_copy(TmaOp::Load, &row(0, 1000), &s),
            Err(TmaError::Extent {
                what: "global extent",
                mode: 0,
                value: 0,
                ..
            })
        ));
    }

    #[test]
    fn swizzles_read_in_bytes_and_multicast_splits_the_outer_mode() {
        // half elements: Sw<3,3,3> in elements is Sw<3,4,3> in bytes
        let g = GmemTensor::new::<u16>(0x10000, &[256, 256], &[256, 1]);
        let p = plan_tma_copy(
            TmaOp::LoadMulticast { cluster_size: 2 },
            &g,
            &sl("Sw<3,3,3> o _0 o (_64,_64):(_64,_1)"),
        )
        .unwrap();
        assert_eq!(
            (p.swizzle, p.box_dim.clone(), p.tx_bytes),
            (TmaSwizzle::B128, vec![64, 32], 64 * 64 * 2)
        );
        let p = plan_tma_copy(
            TmaOp::Load,
            &g,
            &sl("Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_32):(_32,_1)"),
        )
        .unwrap();
        assert_eq!(p.swizzle, TmaSwizzle::B64);
        let p = plan_tma_copy(TmaOp::Load, &g, &sl("Sw<1,3,3> o _0 o (_8,_16):(_16,_1)")).unwrap();
        assert_eq!(p.swizzle, TmaSwizzle::B32);
    }

    #[test]
    fn five_modes_and_a_one_mode_box() {
        let g = GmemTensor::new::<u8>(0x10000, &[32, 2, 3, 4, 5], &[1, 32, 64, 192, 768]);
        let p = plan_tma_copy(
            TmaOp::Load,
            &g,
            &sl("Sw<0,4,3> o _0 o (_32,_2,_1,_2,_1):(_1,_32,_0,_64,_0)"),
        )
        .unwrap();
        assert_eq!(p.order, [0, 1, 3, 2, 4]);
        assert_eq!(p.box_dim, [32, 2, 2, 1, 1]);
        assert_eq!(p.tx_bytes, 128);
        let g = GmemTensor::new::<f32>(0x10000, &[1 << 20], &[1]);
        let p = plan_tma_copy(TmaOp::Load, &g, &sl("Sw<0,4,3> o _0 o _256:_1")).unwrap();
        assert_eq!((p.box_dim, p.global_stride_bytes), (vec![256], vec![]));
    }
}
