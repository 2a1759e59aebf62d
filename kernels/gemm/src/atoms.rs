//! The GEMM's copy atoms, its shared-memory address engine and its edge predicate: the pieces
//! that let the main loop be written with the typed layer's `copy` / `copy_if` over TiledCopy
//! partitions (`layout_types::cute::atom::copy`) while issuing exactly the instructions the kernel
//! needs:
//! - [`LdgNc`], [`LdgRelaxed`]: 128-bit global loads into registers, `ld.global.nc.v4.f32` and
//!   `ld.relaxed.gpu.global.v4.f32` (the two load policies of the entries, [`Ldg`]);
//! - [`LdsV4`]: `ld.shared.v4.f32`, the compute partition's fragment reads;
//! - [`StsV4`], [`Sts32`]: register → shared stores, `st.shared.v4.f32` (an MN-major operand's
//!   vector lands whole in the k-major smem tile) and `st.shared.f32` (a K-major operand's vector
//!   is transposed, one element per store);
//! - [`SmemAddr`]: a tensor engine over 32-bit `.shared` addresses (what `ld.shared` /
//!   `st.shared` take, one register per address instead of a 64-bit generic pointer);
//! - [`EdgePred`]: `copy_if`'s predicate at the matrix edges, with the vector-alignment flag.

use core::marker::PhantomData;

use layout_types::cute::atom::copy::{CopyAtom, CopyPredicate, ThrPartition, TileLayout};
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::{Advance, Engine, Space};
use layout_types::value::copy::CopyOp;

use device::vec::{
    Float4, ld_global_nc_v4_f32, ld_relaxed_gpu_v4_f32, ld_shared_v4_f32, st_shared_f32,
    st_shared_v4_f32,
};

/// A 32-bit `.shared` state-space address of an element `T` (`__cvta_generic_to_shared`), as a
/// tensor engine: an offset of `n` elements moves it by `n·size_of<T>` bytes. Its
/// [`PtrEngine::ptr`] is that address carried in a pointer's bits, *not* a generic pointer: its
/// space is [`Space::SmemAddr`], which `copy` gives only to atoms that declare
/// `CopyAtom::SMEM_ADDR` ([`LdsV4`], [`StsV4`], [`Sts32`]; a compile-time check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemAddr<T> {
    /// The byte address in the `.shared` window.
    pub addr: u32,
    _t: PhantomData<T>,
}
/// A [`SmemAddr`] engine at the shared address `addr` (bytes).
#[inline(always)]
pub fn make_smem_addr<T>(addr: u32) -> SmemAddr<T> {
    SmemAddr {
        addr,
        _t: PhantomData,
    }
}
impl<T: Copy> Engine for SmemAddr<T> {}
impl<T: Copy, I: Integral> Advance<I> for SmemAddr<T> {
    type Output = SmemAddr<T>;
    #[inline(always)]
    fn advance(self, off: I) -> Self {
        if I::IS_STATIC && I::STATIC_VALUE == 0 {
            return self;
        }
        let bytes = (off.value() as u32).wrapping_mul(size_of::<T>() as u32);
        make_smem_addr(self.addr.wrapping_add(bytes))
    }
}
impl<T: Copy> PtrEngine for SmemAddr<T> {
    type Value = T;
    const SPACE: Space = Space::SmemAddr;
    #[inline(always)]
    fn ptr(self) -> *mut T {
        self.addr as usize as *mut T
    }
}

/// `ld.shared.v4.f32` from a [`SmemAddr`] tensor into registers: the fragment reads of the
/// compute partition (`copy_with(LdsV4, tCsA(_,_,k), tCrA)`), one 4-vector of the k-major smem
/// tile per instruction.
#[derive(Clone, Copy, Default)]
pub struct LdsV4;
impl CopyAtom for LdsV4 {
    type T = f32;
    type Vals = _4;
    const OP: CopyOp = CopyOp::Vec128;
    const SMEM_ADDR: bool = true;
    #[inline(always)]
    unsafe fn call(_: Space, src: *mut u8, _: Space, dst: *mut u8) {
        unsafe { (dst as *mut Float4).write_unaligned(ld_shared_v4_f32(src as usize as u32)) }
    }
}

/// The global-load policy of an entry: a copy atom of one 128-bit vector of `f32` from global
/// memory into registers. The choice decides where ptxas schedules the loads.
pub trait Ldg: CopyAtom<T = f32, Vals = _4> {}

macro_rules! ldg_atom {
    ($(#[$m:meta])* $name:ident, $ld:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Default)]
        pub struct $name;
        impl CopyAtom for $name {
            type T = f32;
            type Vals = _4;
            const OP: CopyOp = CopyOp::Vec128;
            #[inline(always)]
            unsafe fn call(_: Space, src: *mut u8, _: Space, dst: *mut u8) {
                unsafe { (dst as *mut Float4).write_unaligned($ld(src as *const Float4)) }
            }
        }
        impl Ldg for $name {}
    };
}
ldg_atom!(
    /// `ld.global.nc.v4.f32` (the read-only path, `__ldg`) into registers.
    LdgNc,
    ld_global_nc_v4_f32
);
ldg_atom!(
    /// `ld.relaxed.gpu.global.v4.f32` into registers: a strong load, which ptxas keeps at the
    /// top of the k-tile loop. With [`LdgNc`] ptxas sinks the K-major operand's load of the "N"
    /// entries (A MN-major) to about 160 instructions before its `st.shared`
    /// (`tools/sass_mix.py`), too late for one CTA of 8 warps per SM to hide the DRAM latency:
    /// 0.74 of cuBLAS at 4096³ NN against 0.94 for NT, whose loads ptxas leaves at the top
    /// (H100, `host gemm --sweep`). The "T" entries keep [`LdgNc`]: strong loads make ptxas
    /// sink both of theirs.
    LdgRelaxed,
    ld_relaxed_gpu_v4_f32
);

/// `st.shared.v4.f32` from registers to a [`SmemAddr`] partition: an MN-major operand's vector
/// along X, contiguous in the k-major smem tile.
#[derive(Clone, Copy, Default)]
pub struct StsV4;
impl CopyAtom for StsV4 {
    type T = f32;
    type Vals = _4;
    const OP: CopyOp = CopyOp::Vec128;
    const SMEM_ADDR: bool = true;
    #[inline(always)]
    unsafe fn call(_: Space, src: *mut u8, _: Space, dst: *mut u8) {
        unsafe { st_shared_v4_f32(dst as usize as u32, (src as *const Float4).read_unaligned()) }
    }
}

/// `st.shared.f32` from registers to a [`SmemAddr`] partition, one element per store: a K-major
/// operand's vector along K, transposed into the k-major smem tile.
#[derive(Clone, Copy, Default)]
pub struct Sts32;
impl CopyAtom for Sts32 {
    type T = f32;
    type Vals = _1;
    const OP: CopyOp = CopyOp::Element;
    const SMEM_ADDR: bool = true;
    #[inline(always)]
    unsafe fn call(_: Space, src: *mut u8, _: Space, dst: *mut u8) {
        unsafe { st_shared_f32(dst as usize as u32, (src as *const f32).read()) }
    }
}

/// `copy_if`'s predicate of a thread's gmem partition at the edges of an operand (CuTe's
/// `tApA`): value `v` is inside when its coordinate, `origin + tAcA(v)` (the identity
/// partition `tAcA` of the CTA tile, moved to the tile's place), is `elem_less` than `bounds`;
/// a vector is loaded whole when its last element is inside and `vec_ok` (the operand's leading
/// dimension and base allow 16-byte aligned vectors), else element by element.
pub struct EdgePred<P> {
    part: P,
    origin: (i32, i32),
    bounds: (i32, i32),
    vec_ok: bool,
}
/// [`EdgePred`] of the identity partition `tAcA` moved to `origin`, against `bounds`.
#[inline(always)]
pub fn edge_pred<P: Copy>(
    t_ac: &P,
    origin: (i32, i32),
    bounds: (i32, i32),
    vec_ok: bool,
) -> EdgePred<P> {
    EdgePred {
        part: *t_ac,
        origin,
        bounds,
        vec_ok,
    }
}
impl<E, L, A, Thr, Val> EdgePred<ThrPartition<E, L, A, Thr, Val>>
where
    E: Copy,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
{
    #[inline(always)]
    fn inside(&self, v: usize) -> bool {
        let (x, k) = self.part.coord(v);
        self.origin.0 + x < self.bounds.0 && self.origin.1 + k < self.bounds.1
    }
}
impl<E, L, A, Thr, Val> CopyPredicate for EdgePred<ThrPartition<E, L, A, Thr, Val>>
where
    E: Copy,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
{
    const PARTIAL: bool = true;
    /// The atom's last element inside (its elements run along one mode from the first, which
    /// is then inside too) and vectors allowed.
    #[inline(always)]
    fn whole(&self, _: usize, v: usize, atom: usize) -> bool {
        self.inside(v + atom - 1) && self.vec_ok
    }
    #[inline(always)]
    fn elem(&self, v: usize) -> bool {
        self.inside(v)
    }
}
