//! `max_common_vector(a, b)` and `max_common_layout(a, b)` on typed layouts (CuTe's `layout.hpp`):
//! how many elements, from offset 0 on, two layouts of one domain place alike — the vector a copy
//! between tensors of these layouts can move at once. CuTe's algorithm, decided on the types:
//! `common = coalesce(composition(a, right_inverse(b)))`; when its first mode has a static shape
//! at the static stride `_1` (CuTe's "static identity component"), the vector is that shape and
//! the layout `composition(right_inverse(b), layout<0>(common))`; otherwise `_1` and `_1:_0`.
//! The vector is always a static integer (a type), whatever dynamic parts the layouts have.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let smem = layout!((_8, _4):(_1, _8));                 // column-major 8 × 4
//! let gmem = layout!((_8, _4):(_1, _64));                // a column-major tile of a wider matrix
//! let v: _8 = max_common_vector(smem, gmem);             // 8 elements a vector, as a type
//! assert_eq!(v.value(), 8);
//! assert_eq!(max_common_layout(smem, gmem).to_string(), "_8:_1");
//! let ld = 64i32;                                         // a dynamic stride: the same answer
//! assert_eq!(max_common_vector(smem, layout!((_8, _4):(_1, ld))).value(), 8);
//! // a row-major destination shares no run with a column-major source
//! assert_eq!(max_common_vector(smem, layout!((_8, _4):(_4, _1))).to_string(), "_1");
//! ```

use super::coalesce::{BwCoalesce, Coalesce, FlatPairs, StaticBit, StaticEq, ToLayout, coalesce};
use super::consts::{_0, _1};
use super::int::C;
use super::inverse::{LayoutPairs, RightInverseOf};
use super::layout::Layout;
use super::product::ComposeWith;
use super::tuple::{HCons, IntTuple};
use core::ops::BitAnd;
use typenum::{B0, B1, Bit};

/// CuTe's test in `max_common_vector`: the first mode `(s, d)` of a coalesced layout's pairs is
/// the static identity component when `s` is static and `d` is the static `_1`.
pub trait FirstIdentity {
    /// The first mode's shape.
    type S: Copy;
    /// The first mode's stride.
    type D: Copy;
    /// `B1` for a static shape at stride `_1`.
    type Bit: Bit;
    /// The first mode as a layout (`layout<0>(common)`).
    fn first(self) -> Layout<Self::S, Self::D>;
}
impl<S: Copy + StaticBit, D: Copy + StaticEq<_1>, T> FirstIdentity for HCons<(S, D), T>
where
    S::B: BitAnd<D::Eq>,
    <S::B as BitAnd<D::Eq>>::Output: Bit,
{
    type S = S;
    type D = D;
    type Bit = <S::B as BitAnd<D::Eq>>::Output;
    #[inline(always)]
    fn first(self) -> Layout<S, D> {
        Layout {
            shape: self.0.0,
            stride: self.0.1,
        }
    }
}

/// The vector of [`max_common_vector`]: the first mode's shape where it is the identity
/// component (`B1`), else `_1`.
pub trait PickVector<S> {
    /// The vector.
    type Vector: Copy + Default;
}
impl<S: Copy + Default> PickVector<S> for B1 {
    type Vector = S;
}
impl<S> PickVector<S> for B0 {
    type Vector = _1;
}

/// The layout of [`max_common_layout`]: `composition(inv_b, first)` where the first mode is the
/// identity component (`B1`; only then is the composition formed, as CuTe's `if constexpr`),
/// else `_1:_0`.
pub trait PickLayout<Inv, First> {
    /// The layout.
    type Output: Copy;
    /// The layout.
    fn pick(inv: Inv, first: First) -> Self::Output;
}
impl<Inv: ComposeWith<First, Output: Copy>, First> PickLayout<Inv, First> for B1 {
    type Output = Inv::Output;
    #[inline(always)]
    fn pick(inv: Inv, first: First) -> Self::Output {
        inv.compose_with(first)
    }
}
impl<Inv, First> PickLayout<Inv, First> for B0 {
    type Output = Layout<_1, _0>;
    #[inline(always)]
    fn pick(_: Inv, _: First) -> Layout<_1, _0> {
        Layout {
            shape: C::new(),
            stride: C::new(),
        }
    }
}

/// `max_common_vector` and `max_common_layout` of `self` (the source, `a`) and `B` (the
/// destination, `b`): one bound for generic code (see [`max_common_vector`]).
#[diagnostic::on_unimplemented(
    message = "max_common_vector: no common vector of `{Self}` and `{B}` (CuTe forms composition(a, right_inverse(b)): see the notes for the condition that failed)"
)]
pub trait MaxCommon<B> {
    /// The vector: a static integer (`_1` where there is no common run).
    type Vector: Copy + Default;
    /// The layout of the vector's elements in `b`'s domain.
    type Layout: Copy;
    /// See [`max_common_layout`].
    fn max_common_layout(self, b: B) -> Self::Layout;
}

/// The modes of `coalesce(composition(a, right_inverse(b)))` as pairs; CuTe's test reads the first.
type First<A, B> =
    <<A as ComposeWith<<B as RightInverseOf>::Output>>::Output as CoalescePairs>::Pairs;

impl<A, B> MaxCommon<B> for A
where
    B: RightInverseOf,
    A: ComposeWith<B::Output>,
    A::Output: CoalescePairs,
    <A::Output as CoalescePairs>::Pairs: FirstIdentity,
    <First<A, B> as FirstIdentity>::Bit: PickVector<<First<A, B> as FirstIdentity>::S>
        + PickLayout<
            B::Output,
            Layout<<First<A, B> as FirstIdentity>::S, <First<A, B> as FirstIdentity>::D>,
        >,
{
    type Vector = <<First<A, B> as FirstIdentity>::Bit as PickVector<
        <First<A, B> as FirstIdentity>::S,
    >>::Vector;
    type Layout = <<First<A, B> as FirstIdentity>::Bit as PickLayout<
        B::Output,
        Layout<<First<A, B> as FirstIdentity>::S, <First<A, B> as FirstIdentity>::D>,
    >>::Output;
    #[inline(always)]
    fn max_common_layout(self, b: B) -> Self::Layout {
        let inv = b.right_inverse_of();
        let first = self.compose_with(inv).coalesce_pairs().first();
        <<First<A, B> as FirstIdentity>::Bit as PickLayout<_, _>>::pick(inv, first)
    }
}

/// [`coalesce`]'s modes as a list of pairs, with one bound.
pub trait CoalescePairs {
    /// The pairs of `coalesce(self)`.
    type Pairs;
    /// The pairs of `coalesce(self)`.
    fn coalesce_pairs(self) -> Self::Pairs;
}
impl<S, D> CoalescePairs for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    S::Output: BwCoalesce,
    <S::Output as BwCoalesce>::Output: ToLayout,
    Coalesce<S, D>: LayoutPairs,
{
    type Pairs = <Coalesce<S, D> as LayoutPairs>::Output;
    #[inline(always)]
    fn coalesce_pairs(self) -> Self::Pairs {
        coalesce(self).layout_pairs()
    }
}

/// `max_common_vector(a, b)`: the number of elements, from offset 0 on, that `a` and `b` (layouts
/// of one domain) place alike — `a(r(i)) == i == b(r(i))` for `i` below it — as a static integer
/// (a type): `_1` unless `coalesce(composition(a, right_inverse(b)))` starts with a static shape
/// at stride `_1`. A copy from a tensor of layout `a` to one of `b` moves vectors of this many
/// elements (CuTe's `copy` picks its vector width so).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((_4, _8):(_8, _1));                       // row-major 4 × 8
/// assert_eq!(max_common_vector(a, layout!((_4, _8):(_16, _1))).value(), 8);
/// assert_eq!(max_common_vector(a, a).value(), 32);
/// let n = 8i64;                                               // a dynamic extent: no vector
/// assert_eq!(max_common_vector(layout!((_4, n):(n, _1)), layout!((_4, n):(n, _1))).value(), 1);
/// ```
#[inline(always)]
pub fn max_common_vector<A: MaxCommon<B>, B>(a: A, b: B) -> A::Vector {
    // (the layout is formed for CuTe's static conditions; only its type is kept)
    let _ = a.max_common_layout(b);
    A::Vector::default()
}

/// `max_common_layout(a, b)`: the layout `r` of [`max_common_vector`]'s elements in `b`'s domain,
/// `a(r(i)) == i` and `b(r(i)) == i` for `i < size(r)`; `_1:_0` where there is no common run.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((_4, _8):(_8, _1));
/// let b = layout!((_4, _8):(_16, _1));
/// let r = max_common_layout(a, b);
/// assert_eq!(r.to_string(), "_8:_4");
/// assert!((0..8i32).all(|i| a.call(r.call(i)) == i && b.call(r.call(i)) == i));
/// ```
#[inline(always)]
pub fn max_common_layout<A: MaxCommon<B>, B>(a: A, b: B) -> A::Layout {
    a.max_common_layout(b)
}
