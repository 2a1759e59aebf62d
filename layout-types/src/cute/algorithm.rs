//! Tensor algorithms over statically sized tensors (CuTe's `copy(src, dst)`, `gemm(A, B, C)`,
//! `clear`, `fill`, `axpby`): loops over the static extents, unrolled, every access a typed
//! layout evaluation at a constant coordinate plus the tensor's dynamic base.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let mut a = [1f32, 2., 3., 4.];                            // A (2,2) column-major
//! let mut b = [5f32, 6., 7., 8.];                            // B (N,K) = (2,2)
//! let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_2, _2):(_1, _2)));
//! let tb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((_2, _2):(_1, _2)));
//! let mut c = Fragment::<f32, _>::new(make_layout_left((_2, _2)));
//! gemm(&ta, &tb, &c.tensor());                                // C(m,n) += Σ_k A(m,k) B(n,k)
//! assert_eq!((c[0], c[1], c[2], c[3]), (26., 38., 30., 44.));
//! ```

use super::atom::copy::{CopyAtom, atom_takes_spaces, unroll, unroll_const};
use super::int::*;
use super::layout::*;
use super::tensor::*;
use super::tuple::*;

/// A tensor whose shape has a static size and whose elements are reachable by pointer.
pub trait StaticTensor {
    /// The element type.
    type Value: Copy;
    /// `size(tensor)`.
    const SIZE: usize;
    /// The element pointer at 1-D coordinate `i` (colexicographic).
    fn ptr_at(&self, i: i32) -> *mut Self::Value;
}
impl<E, S, D> StaticTensor for Tensor<E, Layout<S, D>>
where
    E: PtrEngine + Advance<<i32 as Crd2Idx<S, D>>::Output>,
    E::Value: Copy,
    <E as Advance<<i32 as Crd2Idx<S, D>>::Output>>::Output: PtrEngine<Value = E::Value>,
    S: IntTuple + Product,
    S::Output: StaticInt,
    D: IntTuple,
    i32: Crd2Idx<S, D>,
{
    type Value = E::Value;
    const SIZE: usize = <S::Output as StaticInt>::VALUE as usize;
    #[inline(always)]
    fn ptr_at(&self, i: i32) -> *mut E::Value {
        self.engine.advance(self.layout.crd2idx(i)).ptr()
    }
}

/// A rank-2 tensor of static extents `(M, N)`, element pointers by coordinate.
pub trait StaticMatrix {
    /// The element type.
    type Value: Copy;
    /// Rows.
    const M: usize;
    /// Columns.
    const N: usize;
    /// The element pointer at `(i, j)`.
    fn ptr_ij(&self, i: i32, j: i32) -> *mut Self::Value;
}
impl<E, S0, S1, D> StaticMatrix for Tensor<E, Layout<(S0, S1), D>>
where
    E: PtrEngine + Advance<<(i32, i32) as Crd2Idx<(S0, S1), D>>::Output>,
    E::Value: Copy,
    <E as Advance<<(i32, i32) as Crd2Idx<(S0, S1), D>>::Output>>::Output:
        PtrEngine<Value = E::Value>,
    S0: StaticInt + IntTuple,
    S1: StaticInt + IntTuple,
    D: IntTuple,
    (i32, i32): Crd2Idx<(S0, S1), D>,
{
    type Value = E::Value;
    const M: usize = S0::VALUE as usize;
    const N: usize = S1::VALUE as usize;
    #[inline(always)]
    fn ptr_ij(&self, i: i32, j: i32) -> *mut E::Value {
        self.engine.advance(self.layout.crd2idx((i, j))).ptr()
    }
}

/// `copy(src, dst)` without a TiledCopy: element `i` of `src` to element `i` of `dst` for every
/// `i < size` (CuTe's default `UniversalCopy`). The sizes must agree (a compile error otherwise).
///
/// # Safety
/// Every element of both tensors must be valid memory.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut a = [1u32, 2, 3, 4, 5, 6];
/// let mut b = [0u32; 6];
/// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_2, _3):(_3, _1)));   // row-major
/// let tb = make_tensor(make_smem_ptr(b.as_mut_ptr()), layout!((_2, _3):(_1, _2)));   // column-major
/// unsafe { copy_tensor(&ta, &tb) };
/// assert_eq!(b, [1, 4, 2, 5, 3, 6]);
/// ```
#[inline(always)]
pub unsafe fn copy_tensor<A: StaticTensor, B: StaticTensor<Value = A::Value>>(src: &A, dst: &B) {
    const {
        if A::SIZE != B::SIZE {
            crate::Error::with2(
                "copy: the source has {} elements but the destination has {}",
                A::SIZE as i64,
                B::SIZE as i64,
            )
            .panic()
        }
    };
    unroll_n(A::SIZE, |i| unsafe {
        dst.ptr_at(i as i32).write(src.ptr_at(i as i32).read())
    });
}

/// A rank-2 tensor `(V, REST)` as [`copy_with`] sees it (CuTe's convention for
/// `copy(copy_atom, src, dst)`): mode 0 holds one atom's `V` values, static and contiguous
/// (`i ↦ i`), mode 1 counts the atoms (a static size; its strides may be dynamic).
pub trait AtomTensor {
    /// The element type.
    type Value: Copy;
    /// The engine's memory space.
    const SPACE: Space;
    /// `size<0>(tensor)`: values per atom.
    const V: usize;
    /// `size<1>(tensor)`: atoms.
    const REST: usize;
    /// Whether mode 0 maps `i` to `i` for every `i < V` (its values contiguous).
    const UNIT: bool;
    /// The pointer of element `(0, i)`: atom `i`'s first value.
    fn atom_ptr(&self, i: i32) -> *mut u8;
}
impl<E, S0, S1, D0, D1> AtomTensor for Tensor<E, Layout<(S0, S1), (D0, D1)>>
where
    E: PtrEngine + Advance<<(i32, i32) as Crd2Idx<(S0, S1), (D0, D1)>>::Output>,
    E::Value: Copy,
    <E as Advance<<(i32, i32) as Crd2Idx<(S0, S1), (D0, D1)>>::Output>>::Output:
        PtrEngine<Value = E::Value>,
    S0: StaticTuple + Product,
    S0::Output: StaticInt,
    D0: StaticTuple,
    S1: IntTuple + Product,
    S1::Output: StaticInt,
    D1: IntTuple,
    (i32, i32): Crd2Idx<(S0, S1), (D0, D1)>,
{
    type Value = E::Value;
    const SPACE: Space = E::SPACE;
    const V: usize = <S0::Output as StaticInt>::VALUE as usize;
    const REST: usize = <S1::Output as StaticInt>::VALUE as usize;
    const UNIT: bool = {
        let l = <Layout<S0, D0> as StaticLayoutValue>::LAYOUT;
        let mut i = 0;
        let mut unit = true;
        while i < Self::V {
            unit &= l.call(i as i64) == i as i64;
            i += 1;
        }
        unit
    };
    #[inline(always)]
    fn atom_ptr(&self, i: i32) -> *mut u8 {
        self.engine.advance(self.layout.crd2idx((0, i))).ptr() as *mut u8
    }
}

/// `copy(copy_atom, src, dst)` (CuTe's overload taking a `Copy_Atom`): tensors `(V, REST)`
/// ([`AtomTensor`]), atom `i` of `src` to atom `i` of `dst` by the atom's own instruction
/// ([`CopyAtom::call`]), for every `i < REST`. At compile time: mode 0 of both has the atom's
/// number of values, contiguous when it is more than one; both have the same number of atoms;
/// a 32-bit shared address ([`Space::SmemAddr`]) only with an atom that declares
/// [`CopyAtom::SMEM_ADDR`].
///
/// # Safety
/// Every atom of both tensors must be valid memory, aligned as the atom needs.
///
/// ```
/// use layout_types::cute::prelude::*;
/// #[repr(align(16))]
/// struct Smem([f32; 16]);
/// let mut s = Smem(core::array::from_fn(|i| i as f32));      // a (4,4) tile, column-major
/// // this thread's two 4-vectors: columns 1 and 3, (V, REST) = (_4,_2):(_1,_8)
/// let ts = make_tensor(make_smem_ptr(s.0[4..].as_mut_ptr()), layout!((_4, _2):(_1, _8)));
/// let mut r = make_fragment_like::<f32, _, _, _>(&ts);      // (_4,_2):(_1,_4) registers
/// unsafe { copy_with(&Copy128::<f32>::new(), &ts, &r.tensor()) };
/// assert_eq!((r[0], r[3], r[4], r[7]), (4., 7., 12., 15.));
/// ```
#[inline(always)]
pub unsafe fn copy_with<A, S, D>(_atom: &A, src: &S, dst: &D)
where
    A: CopyAtom,
    S: AtomTensor<Value = A::T>,
    D: AtomTensor<Value = A::T>,
{
    const {
        let v = <A::Vals as StaticInt>::VALUE;
        if S::V as i64 != v || D::V as i64 != v {
            crate::Error::with2(
                "copy_with: mode 0 of a tensor must hold one atom's values: the source has {}, the atom copies {}",
                if S::V as i64 != v { S::V as i64 } else { D::V as i64 },
                v,
            )
            .panic()
        }
        if S::REST != D::REST {
            crate::Error::with2(
                "copy_with: the source has {} atoms but the destination has {}",
                S::REST as i64,
                D::REST as i64,
            )
            .panic()
        }
        if v > 1 && !(S::UNIT && D::UNIT) {
            crate::Error::with2(
                "copy_with: an atom of {} values needs mode 0 contiguous (i -> i) in both tensors ({} atoms)",
                v,
                S::REST as i64,
            )
            .panic()
        }
        if !atom_takes_spaces::<A>(S::SPACE, D::SPACE) {
            crate::Error::with2(
                "copy_with: a tensor's engine is a 32-bit shared address (Space::SmemAddr), which this atom ({} values, {} atoms) does not take; use an atom that declares CopyAtom::SMEM_ADDR",
                v,
                S::REST as i64,
            )
            .panic()
        }
    };
    unroll_const!(
        S::REST,
        #[inline(always)]
        |i: usize| unsafe {
            A::call(
                S::SPACE,
                src.atom_ptr(i as i32),
                D::SPACE,
                dst.atom_ptr(i as i32),
            )
        }
    );
}

/// Calls `f(i)` for `i < n` unrolled (`n` a constant; up to 4096 as nested blocks of 64).
#[inline(always)]
fn unroll_n<F: FnMut(usize)>(n: usize, mut f: F) {
    let mut b = 0;
    while b < n {
        let len = if n - b < 64 { n - b } else { 64 };
        unroll(len, |i| f(b + i));
        b += 64;
    }
}

/// `fill(tensor, v)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut f = Fragment::<i32, _>::new(make_layout_left((_2, _2)));
/// fill(&f.tensor(), 7);
/// assert_eq!(f[3], 7);
/// ```
#[inline(always)]
pub fn fill<A: StaticTensor>(t: &A, v: A::Value) {
    // SAFETY: a register tensor's elements are its array; pointer tensors are the caller's.
    unroll_n(A::SIZE, |i| unsafe { t.ptr_at(i as i32).write(v) });
}

/// `clear(tensor)`: every element `T::default()`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut f = Fragment::<f32, _>::new(make_layout_left((_4,)));
/// f[2] = 3.0;
/// clear(&f.tensor());
/// assert_eq!(f[2], 0.0);
/// ```
#[inline(always)]
pub fn clear<A: StaticTensor>(t: &A)
where
    A::Value: Default,
{
    fill(t, A::Value::default())
}

/// `a · b + c` in one rounding where the hardware has it (CuTe's `UniversalFMA`): `fma.rn` on the
/// GPU for `f32`/`f64` (Rust never contracts `a * b + c` by itself), `a * b + c` elsewhere.
pub trait Fma: Copy {
    /// `self · b + c`.
    fn fma(self, b: Self, c: Self) -> Self;
}
macro_rules! fma_float {
    ($($t:ty, $fma:path);*) => {$(
        impl Fma for $t {
            #[inline(always)]
            fn fma(self, b: $t, c: $t) -> $t {
                #[cfg(target_arch = "nvptx64")]
                {
                    $fma(self, b, c)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    self * b + c
                }
            }
        }
    )*};
}
fma_float!(f32, device::math::fma; f64, device::math::fma_f64);
macro_rules! fma_int {
    ($($t:ty),*) => {$( impl Fma for $t { #[inline(always)] fn fma(self, b: $t, c: $t) -> $t { self.wrapping_mul(b).wrapping_add(c) } } )*};
}
fma_int!(i32, i64, u32, u64);

/// `gemm(A, B, C)`: `C(m,n) += Σ_k A(m,k) · B(n,k)` over static extents `A: (M,K)`,
/// `B: (N,K)`, `C: (M,N)` (CuTe's universal FMA gemm, one [`Fma`] per term). Mismatched extents
/// fail to compile.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut a = [1i32, 2, 3, 4, 5, 6];                     // A (2,3), column-major
/// let mut b = [1i32, 1, 1];                              // B (1,3)
/// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_2, _3):(_1, _2)));
/// let tb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((_1, _3):(_0, _1)));
/// let mut c = Fragment::<i32, _>::new(make_layout_left((_2, _1)));
/// gemm(&ta, &tb, &c.tensor());
/// assert_eq!((c[0], c[1]), (1 + 3 + 5, 2 + 4 + 6));     // row sums
/// ```
#[inline(always)]
pub fn gemm<A, B, Cm>(a: &A, b: &B, c: &Cm)
where
    A: StaticMatrix,
    B: StaticMatrix<Value = A::Value>,
    Cm: StaticMatrix<Value = A::Value>,
    A::Value: Fma,
{
    const {
        if A::M != Cm::M || B::M != Cm::N || A::N != B::N {
            crate::Error::with2(
                "gemm: A is (M,K), B (N,K) and C (M,N): the extents disagree (A has {} rows, C {})",
                A::M as i64,
                Cm::M as i64,
            )
            .panic()
        }
    };
    unroll_n(A::N, |k| {
        unroll_n(A::M, |m| {
            unroll_n(B::M, |n| unsafe {
                let p = c.ptr_ij(m as i32, n as i32);
                let (x, y) = (
                    a.ptr_ij(m as i32, k as i32).read(),
                    b.ptr_ij(n as i32, k as i32).read(),
                );
                p.write(x.fma(y, p.read()));
            })
        })
    });
}

/// `axpby(alpha, x, beta, y)`: `y = alpha · x + beta · y` element-wise.
///
/// # Safety
/// Every element of `y` must be valid memory.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut x = Fragment::<f32, _>::new(make_layout_left((_2,)));
/// x[0] = 1.0; x[1] = 2.0;
/// let mut y = [10f32, 20.];
/// let ty = make_tensor(make_gmem_ptr(y.as_mut_ptr()), layout!((_2,):(_1,)));
/// unsafe { axpby(2.0, &x.tensor(), 0.5, &ty) };
/// assert_eq!(y, [7.0, 14.0]);
/// ```
#[inline(always)]
pub unsafe fn axpby<X: StaticTensor, Y: StaticTensor<Value = X::Value>>(
    alpha: X::Value,
    x: &X,
    beta: X::Value,
    y: &Y,
) where
    X::Value: core::ops::Mul<Output = X::Value> + core::ops::Add<Output = X::Value>,
{
    const {
        if X::SIZE != Y::SIZE {
            crate::Error::with2(
                "axpby: x has {} elements but y has {}",
                X::SIZE as i64,
                Y::SIZE as i64,
            )
            .panic()
        }
    };
    unroll_n(X::SIZE, |i| unsafe {
        let p = y.ptr_at(i as i32);
        p.write(alpha * x.ptr_at(i as i32).read() + beta * p.read());
    });
}
