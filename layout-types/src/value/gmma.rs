//! Hopper GMMA shared-memory layout atoms and `tile_to_shape`.
//!
//! A `wgmma` reads its shared-memory operands through a descriptor that accepts only a few
//! canonical layouts: CuTe's `GMMA::Layout_<K|MN>_<INTER|SW32|SW64|SW128>_Atom<T>`, a swizzle
//! composed with a small K- or MN-major tile of `T` (one 128-byte row of 8 rows for SW128). A
//! CTA's shared-memory tile is one of these atoms repeated to the tile's shape (and a stage
//! mode) by [`tile_to_shape`].
//!
//! ```
//! use layout_types::{value::int_tuple::IntTuple, value::gmma::*, value::mma::Major};
//! let atom = gmma_smem_atom(Major::K, GmmaSwizzle::SW128, 16).unwrap();
//! assert_eq!(atom.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
//! let smem = tile_to_shape_composed(&atom, &"(_128,_64,_3)".parse().unwrap(), &Order::ColMajor).unwrap();
//! assert_eq!(smem.to_string(),
//!     "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_0),(_0,_8192))");
//! ```

use crate::value::int_tuple::IntTuple;
use crate::value::layout::make_ordered_layout;
use crate::value::mma::Major;
use crate::value::product::blocked_product;
use crate::value::recast::upcast;
use crate::value::swizzle::{ComposedLayout, ComposedOffset, DynSwizzle};
use crate::{Error, tri, value::layout::DynLayout};

/// The swizzle of a GMMA layout atom (CuTe's `GMMA::LayoutType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum GmmaSwizzle {
    /// No swizzle, `Sw<0,4,3>` (16-byte interleave).
    INTER,
    /// 32-byte swizzle, `Sw<1,4,3>`.
    SW32,
    /// 64-byte swizzle, `Sw<2,4,3>`.
    SW64,
    /// 128-byte swizzle, `Sw<3,4,3>`.
    SW128,
}

impl GmmaSwizzle {
    /// Parses `INTER`, `SW32`, `SW64` or `SW128`.
    ///
    /// ```
    /// use layout_types::value::gmma::GmmaSwizzle;
    /// assert_eq!(GmmaSwizzle::parse("SW64").unwrap(), GmmaSwizzle::SW64);
    /// assert!(GmmaSwizzle::parse("SW16").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<GmmaSwizzle, Error> {
        match s.trim() {
            "INTER" => Ok(GmmaSwizzle::INTER),
            "SW32" => Ok(GmmaSwizzle::SW32),
            "SW64" => Ok(GmmaSwizzle::SW64),
            "SW128" => Ok(GmmaSwizzle::SW128),
            _ => Err(Error::new(
                "GMMA swizzle: expected INTER, SW32, SW64 or SW128",
            )),
        }
    }
    /// `BBits` of the swizzle: 0, 1, 2, 3.
    ///
    /// ```
    /// use layout_types::value::gmma::GmmaSwizzle;
    /// assert_eq!(GmmaSwizzle::SW128.bits(), 3);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            GmmaSwizzle::INTER => 0,
            GmmaSwizzle::SW32 => 1,
            GmmaSwizzle::SW64 => 2,
            GmmaSwizzle::SW128 => 3,
        }
    }
}

/// CuTe's `GMMA::Layout_<major>_<swizzle>_Atom_Bits`: the atom over bits,
/// `Sw<B,4,3> o smem_ptr[1b] o (8, 128*2^B):(128*2^B, 1)` (K-major) or
/// `(128*2^B, 8):(1, 128*2^B)` (MN-major).
///
/// ```
/// use layout_types::{value::gmma::*, value::mma::Major};
/// let a = gmma_smem_atom_bits(Major::MN, GmmaSwizzle::SW32);
/// assert_eq!(a.to_string(), "Sw<1,4,3> o smem_ptr[1b](unset) o (_256,_8):(_1,_256)");
/// ```
pub const fn gmma_smem_atom_bits(major: Major, sw: GmmaSwizzle) -> ComposedLayout {
    let w = 128i64 << sw.bits();
    let layout = match major {
        Major::K => DynLayout::raw(
            IntTuple::pair(&IntTuple::st(8), &IntTuple::st(w)),
            IntTuple::pair(&IntTuple::st(w), &IntTuple::st(1)),
        ),
        Major::MN => DynLayout::raw(
            IntTuple::pair(&IntTuple::st(w), &IntTuple::st(8)),
            IntTuple::pair(&IntTuple::st(1), &IntTuple::st(w)),
        ),
    };
    let swizzle = match DynSwizzle::new(sw.bits(), 4, 3) {
        Ok(s) => s,
        Err(e) => e.panic(),
    };
    ComposedLayout {
        swizzle,
        offset: ComposedOffset::SmemPtr(1),
        layout,
    }
}

/// CuTe's `upcast<N>(ComposedLayout<Swizzle, smem_ptr_flag_bits<B>, Layout>)`: the swizzle
/// stays (it acts on byte addresses), the pointer flag becomes `B*N` bits, the layout is upcast.
///
/// ```
/// use layout_types::{value::gmma::*, value::mma::Major};
/// let a = upcast_smem(&gmma_smem_atom_bits(Major::K, GmmaSwizzle::SW64), 8).unwrap();
/// assert_eq!(a.to_string(), "Sw<2,4,3> o smem_ptr[8b](unset) o (_8,_64):(_64,_1)");
/// ```
pub const fn upcast_smem(c: &ComposedLayout, n: i64) -> Result<ComposedLayout, Error> {
    let b = match c.offset {
        ComposedOffset::SmemPtr(b) => b,
        ComposedOffset::Int(_) => {
            return Err(Error::new(
                "upcast of a composed layout: only a shared-memory pointer flag (smem_ptr) can be upcast",
            ));
        }
    };
    Ok(ComposedLayout {
        swizzle: c.swizzle,
        offset: ComposedOffset::SmemPtr(b * n),
        layout: tri!(upcast(&c.layout, n)),
    })
}

/// CuTe's `GMMA::Layout_<major>_<swizzle>_Atom<T>` for `T` of `elem_bits` bits (a power of two
/// from 1 to 128): `upcast<sizeof_bits<T>>` of the atom over bits.
///
/// ```
/// use layout_types::{value::gmma::*, value::mma::Major};
/// let a = gmma_smem_atom(Major::MN, GmmaSwizzle::SW64, 16).unwrap();
/// assert_eq!(a.to_string(), "Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_8):(_1,_32)");
/// let k = gmma_smem_atom(Major::K, GmmaSwizzle::INTER, 32).unwrap();
/// assert_eq!(k.to_string(), "Sw<0,4,3> o smem_ptr[32b](unset) o (_8,_4):(_4,_1)");
/// assert!(gmma_smem_atom(Major::K, GmmaSwizzle::SW128, 12).is_err());
/// ```
pub const fn gmma_smem_atom(
    major: Major,
    sw: GmmaSwizzle,
    elem_bits: i64,
) -> Result<ComposedLayout, Error> {
    if elem_bits < 1 || elem_bits > 128 || elem_bits & (elem_bits - 1) != 0 {
        return Err(Error::with1(
            "GMMA layout atom: the element width must be a power of two from 1 to 128 bits (got {})",
            elem_bits,
        ));
    }
    upcast_smem(&gmma_smem_atom_bits(major, sw), elem_bits)
}

/// The mode order `tile_to_shape` repeats the block in (CuTe's `ModeOrder`).
// Plain `Copy` values (no_std, no allocation): the size difference is accepted.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `LayoutLeft` (`GenColMajor`, the default): the first mode first.
    ColMajor,
    /// `LayoutRight`: the last mode first.
    RowMajor,
    /// A `Step` tuple of static integers (`Step<_2,_1,_3>`: the second mode first).
    Step(IntTuple),
}

impl Order {
    /// Parses `LayoutLeft`, `LayoutRight` or a step tuple `(_2,_1,_3)`.
    ///
    /// ```
    /// use layout_types::value::gmma::Order;
    /// assert_eq!(Order::parse("LayoutRight").unwrap(), Order::RowMajor);
    /// assert!(matches!(Order::parse("(_2,_1,_3)").unwrap(), Order::Step(_)));
    /// ```
    pub fn parse(s: &str) -> Result<Order, Error> {
        match s.trim() {
            "LayoutLeft" | "GenColMajor" => Ok(Order::ColMajor),
            "LayoutRight" | "GenRowMajor" => Ok(Order::RowMajor),
            t => Ok(Order::Step(crate::text::parse::parse_int_tuple(t)?)),
        }
    }
}

/// CuTe's `tile_to_shape(block, trg_shape, ord_shape)`: `block` (padded to the rank of
/// `trg_shape` with `_1:_0`) repeated by `blocked_product` over `ceil_div(trg_shape,
/// block_shape)`, visiting the repeats in `order`. For a static target the block's extent must
/// divide the target's in every mode (CuTe: "tile_to_shape: block shape does not divide the
/// target shape").
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::gmma::*};
/// let block: DynLayout = "(_8,_32):(_32,_1)".parse().unwrap();
/// let t = tile_to_shape(&block, &"(_256,_64,_4)".parse().unwrap(), &Order::ColMajor).unwrap();
/// assert_eq!(t.to_string(), "((_8,_32),(_32,_2),(_1,_4)):((_32,_256),(_1,_8192),(_0,_16384))");
/// let e = tile_to_shape(&block, &"(_20,_64)".parse().unwrap(), &Order::ColMajor).unwrap_err();
/// assert_eq!(e.vals, [20, 8]);
/// ```
pub const fn tile_to_shape(
    block: &DynLayout,
    trg_shape: &IntTuple,
    order: &Order,
) -> Result<DynLayout, Error> {
    let r = trg_shape.rank();
    if block.rank() > r {
        return Err(Error::with2(
            "tile_to_shape: Rank of layout must be <= rank of target shape (layout rank {}, target rank {})",
            block.rank() as i64,
            r as i64,
        ));
    }
    let padded = block.append_to(r);
    let block_shape = padded.shape.product_each();
    let target_shape = trg_shape.product_each();
    if target_shape.is_static() {
        let mut i = 0;
        while i < r {
            let (t, b) = (target_shape.get(i).val().v, block_shape.get(i).val().v);
            if b == 0 || t % b != 0 {
                return Err(Error::with2(
                    "tile_to_shape: block shape does not divide the target shape: a target extent of {} is not a multiple of the block's {}",
                    t,
                    b,
                ));
            }
            i += 1;
        }
    }
    let product_shape = target_shape.ceil_div(&block_shape);
    let ordered = match order {
        Order::ColMajor => DynLayout::make_layout(&product_shape, false),
        Order::RowMajor => DynLayout::make_layout(&product_shape, true),
        Order::Step(step) => {
            if step.rank() != product_shape.rank() {
                return Err(Error::with2(
                    "tile_to_shape: Need equal rank of shape and order: the order has {} modes but the target shape has {}",
                    step.rank() as i64,
                    product_shape.rank() as i64,
                ));
            }
            make_ordered_layout(&product_shape, step)
        }
    };
    blocked_product(&padded, &ordered)
}

/// `tile_to_shape` of a composed (swizzled) layout: `composition(layout_a, offset,
/// tile_to_shape(layout_b, ...))`; the swizzle and the pointer flag stay.
///
/// ```
/// use layout_types::{value::gmma::*, value::mma::Major};
/// let atom = gmma_smem_atom(Major::MN, GmmaSwizzle::SW128, 16).unwrap();
/// let t = tile_to_shape_composed(&atom, &"(_64,_64,_2)".parse().unwrap(), &Order::ColMajor).unwrap();
/// assert_eq!(t.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_1),(_8,_8),(_1,_2)):((_1,_0),(_64,_512),(_0,_4096))");
/// ```
pub const fn tile_to_shape_composed(
    block: &ComposedLayout,
    trg_shape: &IntTuple,
    order: &Order,
) -> Result<ComposedLayout, Error> {
    Ok(ComposedLayout {
        swizzle: block.swizzle,
        offset: block.offset,
        layout: tri!(tile_to_shape(&block.layout, trg_shape, order)),
    })
}

/// CuTe's `GMMA::LayoutType` field value of a swizzle (`layout_type_`, bits 62..64 of a
/// descriptor): `INTERLEAVE = 0`, `B128 = 1`, `B64 = 2`, `B32 = 3`.
///
/// ```
/// use layout_types::value::gmma::*;
/// assert_eq!(gmma_layout_type(GmmaSwizzle::SW128), 1);
/// assert_eq!(gmma_layout_type(GmmaSwizzle::SW32), 3);
/// ```
pub const fn gmma_layout_type(sw: GmmaSwizzle) -> u64 {
    match sw {
        GmmaSwizzle::INTER => 0,
        GmmaSwizzle::SW128 => 1,
        GmmaSwizzle::SW64 => 2,
        GmmaSwizzle::SW32 => 3,
    }
}

/// CuTe's `make_gmma_desc<major>(tensor)` without the start address: the 64-bit `GmmaDescriptor`
/// of a rank-2 shared-memory tile `l` of `bits`-bit elements swizzled by `swizzle`
/// (`Sw<B,4,3> o smem_ptr o l`), with `start_address_ = 0` (OR in `(smem address >> 4) & 0x3FFF`)
/// and `base_offset_ = 0`. In units of 128 bits the tile must be one of the canonical GMMA
/// layouts ([`crate::value::mma::check_gmma_desc`] names the failed condition). The fields are
/// CuTe's bitfields: `leading_byte_offset_` bits 16..30, `stride_byte_offset_` bits 32..46,
/// `layout_type_` bits 62..64, each offset in 16-byte units and truncated to 14 bits.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::gmma::*, value::mma::Major, value::swizzle::DynSwizzle};
/// // tile_to_shape(Layout_K_SW128_Atom<half_t>, (_64,_16)): SBO = 1024 B, LBO = 1, B128
/// let l: DynLayout = "((_8,_8),(_16,_1)):((_64,_512),(_1,_0))".parse().unwrap();
/// let d = gmma_desc(&l, DynSwizzle::new(3, 4, 3).unwrap(), Major::K, 16).unwrap();
/// assert_eq!(d, (1u64 << 62) | (64u64 << 32) | (1u64 << 16));
/// ```
pub const fn gmma_desc(
    l: &DynLayout,
    swizzle: DynSwizzle,
    major: Major,
    bits: i64,
) -> Result<u64, Error> {
    tri!(crate::value::mma::check_gmma_desc(l, swizzle, major, bits));
    let sw = match swizzle.bits {
        0 => GmmaSwizzle::INTER,
        1 => GmmaSwizzle::SW32,
        2 => GmmaSwizzle::SW64,
        _ => GmmaSwizzle::SW128,
    };
    let w = 1i64 << swizzle.bits;
    let inter = swizzle.bits == 0;
    let u = tri!(crate::value::recast::recast_layout(l, bits, 128));
    let mut tile = crate::value::algebra::Tiler::by_mode();
    let (a, b) = match major {
        Major::K => (8, 2),
        Major::MN => (w, 8),
    };
    tri!(tile.push_layout(&DynLayout::raw(IntTuple::st(a), IntTuple::st(1))));
    tri!(tile.push_layout(&DynLayout::raw(IntTuple::st(b), IntTuple::st(1))));
    let c = tri!(crate::value::divide::logical_divide(&u, &tile));
    let d01 = c.stride.get(0).get(1).val().v;
    let d10 = c.stride.get(1).get(0).val().v;
    let d11 = c.stride.get(1).get(1).val().v;
    let (sbo, lbo) = match major {
        Major::K => (d01, d10),
        Major::MN => {
            if inter {
                (d01, d11)
            } else {
                (d11, d01)
            }
        }
    };
    Ok((gmma_layout_type(sw) << 62)
        | (((sbo as u64) & 0x3FFF) << 32)
        | (((lbo as u64) & 0x3FFF) << 16))
}
