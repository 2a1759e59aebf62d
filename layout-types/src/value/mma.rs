//! Tensor-core MMA atoms and TiledMMA, as CuTe defines them (`atom/mma_atom.hpp`,
//! `mma_traits_sm80.hpp`, `mma_traits_sm90_gmma.hpp`): which thread holds which element of the
//! A, B and C tiles.
//!
//! An [`MmaAtom`] is one instruction: its shape `(M,N,K)`, the logical threads that issue it
//! (`ThrID`) and the thread/value layouts of its operands (`ALayout`, `BLayout`, `CLayout`:
//! `(thread, value) -> element` of the column-major `M x K`, `N x K` and `M x N` tiles). A
//! [`TiledMma`] (`make_tiled_mma(atom, atom_layout, permutation)`) repeats the atom over more
//! threads (`atom_layout`, an `(M,N,K)` layout of atoms) and optionally permutes the tile; its
//! `get_layoutA_TV`/`B`/`C` give `(thread index, value) -> element` of the whole tile, and its
//! thread slice ([`ThrMma`]) partitions a tensor for one thread (`partition_A`/`B`/`C`,
//! `partition_fragment_A`/`B`/`C`). [`make_tiled_copy_a`] (`_b`, `_c`) builds the matching
//! `ldmatrix` copy.
//!
//! Everything is a `const fn` on layout values, so a static TiledMMA can be evaluated at compile
//! time.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::mma::*};
//! let atom = MmaAtom::new(MmaOp::SM80_16x8x16_F32BF16BF16F32_TN).unwrap();
//! let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
//! assert_eq!(mma.tile_shape().to_string(), "(_32,_16,_16)");
//! assert_eq!(mma.size(), 128);
//! let c = mma.layout_c_tv().unwrap();
//! assert_eq!(c.to_string(), "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
//! assert_eq!(c.call(0), 0);   // thread 0, value 0 holds C(0,0)
//! assert_eq!(c.call(128), 32); // thread 0, value 1 holds C(0,1) (index 0 + 1*32)
//! ```

use crate::value::algebra::{Tiler, TilerMode, complement_default, composition, right_inverse};
use crate::value::divide::{logical_divide, zipped_divide};
use crate::value::int_tuple::{IntTuple, Val, compact_major};
use crate::value::layout::make_ordered_layout;
use crate::value::product::{logical_product, tiled_product};
use crate::value::recast::{recast_layout, upcast};
use crate::value::swizzle::DynSwizzle;
use crate::{Error, tri, value::layout::DynLayout};
use core::fmt;

// ------------------------------------------------------------------------------------------------
// Small const builders

const fn s(v: i64) -> IntTuple {
    IntTuple::st(v)
}
const fn t2(a: IntTuple, b: IntTuple) -> IntTuple {
    IntTuple::pair(&a, &b)
}
const fn t3(a: IntTuple, b: IntTuple, c: IntTuple) -> IntTuple {
    let mut t = IntTuple::pair(&a, &b);
    t.push(&c);
    t
}
const fn lay(shape: IntTuple, stride: IntTuple) -> DynLayout {
    DynLayout::raw(shape, stride)
}

// ------------------------------------------------------------------------------------------------
// Atoms

/// Which dimension is contiguous in a GMMA operand's shared-memory tile (CuTe's `GMMA::Major`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// K-major (`T` in BLAS terms for A, `N` for B).
    K,
    /// M- or N-major.
    MN,
}

impl Major {
    /// `K` or `MN`.
    ///
    /// ```
    /// use layout_types::value::mma::Major;
    /// assert_eq!(Major::MN.name(), "MN");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Major::K => "K",
            Major::MN => "MN",
        }
    }
}

/// Accumulator and input types of a GMMA (`SM90_64xNx16_<types>_SS`, or for the 8-bit floats
/// `SM90_64xNx32_<types>_SS_TN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum GmmaTypes {
    /// fp32 += bf16 * bf16.
    F32BF16BF16,
    /// fp32 += fp16 * fp16.
    F32F16F16,
    /// fp32 += e4m3 * e4m3 (`m64nNk32`, both operands K-major).
    F32E4M3E4M3,
    /// fp32 += e4m3 * e5m2.
    F32E4M3E5M2,
    /// fp32 += e5m2 * e4m3.
    F32E5M2E4M3,
    /// fp32 += e5m2 * e5m2.
    F32E5M2E5M2,
}

/// Every [`GmmaTypes`], for enumeration and parsing.
pub const GMMA_TYPES: [GmmaTypes; 6] = [
    GmmaTypes::F32BF16BF16,
    GmmaTypes::F32F16F16,
    GmmaTypes::F32E4M3E4M3,
    GmmaTypes::F32E4M3E5M2,
    GmmaTypes::F32E5M2E4M3,
    GmmaTypes::F32E5M2E5M2,
];

impl GmmaTypes {
    /// CuTe's spelling in the atom's name (`F32E4M3E5M2`).
    ///
    /// ```
    /// use layout_types::value::mma::GmmaTypes;
    /// assert_eq!(GmmaTypes::F32E5M2E4M3.name(), "F32E5M2E4M3");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            GmmaTypes::F32BF16BF16 => "F32BF16BF16",
            GmmaTypes::F32F16F16 => "F32F16F16",
            GmmaTypes::F32E4M3E4M3 => "F32E4M3E4M3",
            GmmaTypes::F32E4M3E5M2 => "F32E4M3E5M2",
            GmmaTypes::F32E5M2E4M3 => "F32E5M2E4M3",
            GmmaTypes::F32E5M2E5M2 => "F32E5M2E5M2",
        }
    }

    /// Bits of an input element: 16, or 8 for the 8-bit floats.
    ///
    /// ```
    /// use layout_types::value::mma::GmmaTypes;
    /// assert_eq!(GmmaTypes::F32F16F16.input_bits(), 16);
    /// assert_eq!(GmmaTypes::F32E4M3E5M2.input_bits(), 8);
    /// ```
    pub const fn input_bits(self) -> i64 {
        match self {
            GmmaTypes::F32BF16BF16 | GmmaTypes::F32F16F16 => 16,
            _ => 8,
        }
    }

    /// The instruction's K: 256 bits of each row of A and B, 16 or 32 elements
    /// (`wgmma.m64nNk16`, `m64nNk32`).
    ///
    /// ```
    /// use layout_types::value::mma::GmmaTypes;
    /// assert_eq!((GmmaTypes::F32BF16BF16.k(), GmmaTypes::F32E4M3E4M3.k()), (16, 32));
    /// ```
    pub const fn k(self) -> i64 {
        256 / self.input_bits()
    }

    /// Whether the instruction has no transpose (8-bit inputs): both operands must be K-major
    /// (CuTe's FP8 atoms are `_TN` only; `ss_op_selector`: "MajorA must be GMMA::Major::K for
    /// this config.").
    ///
    /// ```
    /// use layout_types::value::mma::GmmaTypes;
    /// assert!(GmmaTypes::F32E5M2E5M2.k_major_only());
    /// assert!(!GmmaTypes::F32BF16BF16.k_major_only()); // 16-bit GMMAs transpose either operand
    /// ```
    pub const fn k_major_only(self) -> bool {
        self.input_bits() == 8
    }
}

/// An MMA instruction (CuTe's `MMAOperation`), named as in CuTe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum MmaOp {
    /// `mma.sync.m16n8k8` fp16 += fp16 * fp16.
    SM80_16x8x8_F16F16F16F16_TN,
    /// `mma.sync.m16n8k8` fp32 += fp16 * fp16.
    SM80_16x8x8_F32F16F16F32_TN,
    /// `mma.sync.m16n8k8` fp32 += bf16 * bf16.
    SM80_16x8x8_F32BF16BF16F32_TN,
    /// `mma.sync.m16n8k8` fp32 += tf32 * tf32.
    SM80_16x8x8_F32TF32TF32F32_TN,
    /// `mma.sync.m16n8k16` fp16 += fp16 * fp16.
    SM80_16x8x16_F16F16F16F16_TN,
    /// `mma.sync.m16n8k16` fp32 += fp16 * fp16.
    SM80_16x8x16_F32F16F16F32_TN,
    /// `mma.sync.m16n8k16` fp32 += bf16 * bf16.
    SM80_16x8x16_F32BF16BF16F32_TN,
    /// Hopper `wgmma.mma_async.m64nNk16`: `SM90_64xNx16_<types>_SS<A,B>` (both operands in
    /// shared memory) or `_RS` (A in registers, which must be K-major).
    Gmma {
        /// N, from 8 to 256 in steps of 8.
        n: i64,
        /// Accumulator and input types.
        types: GmmaTypes,
        /// A from registers (`_RS`) rather than shared memory (`_SS`).
        rs: bool,
        /// Major of A.
        a: Major,
        /// Major of B.
        b: Major,
    },
}

/// The SM80 ops, for enumeration.
pub const SM80_OPS: [MmaOp; 7] = [
    MmaOp::SM80_16x8x8_F16F16F16F16_TN,
    MmaOp::SM80_16x8x8_F32F16F16F32_TN,
    MmaOp::SM80_16x8x8_F32BF16BF16F32_TN,
    MmaOp::SM80_16x8x8_F32TF32TF32F32_TN,
    MmaOp::SM80_16x8x16_F16F16F16F16_TN,
    MmaOp::SM80_16x8x16_F32F16F16F32_TN,
    MmaOp::SM80_16x8x16_F32BF16BF16F32_TN,
];

impl MmaOp {
    const fn sm80_name(self) -> &'static str {
        match self {
            MmaOp::SM80_16x8x8_F16F16F16F16_TN => "SM80_16x8x8_F16F16F16F16_TN",
            MmaOp::SM80_16x8x8_F32F16F16F32_TN => "SM80_16x8x8_F32F16F16F32_TN",
            MmaOp::SM80_16x8x8_F32BF16BF16F32_TN => "SM80_16x8x8_F32BF16BF16F32_TN",
            MmaOp::SM80_16x8x8_F32TF32TF32F32_TN => "SM80_16x8x8_F32TF32TF32F32_TN",
            MmaOp::SM80_16x8x16_F16F16F16F16_TN => "SM80_16x8x16_F16F16F16F16_TN",
            MmaOp::SM80_16x8x16_F32F16F16F32_TN => "SM80_16x8x16_F32F16F16F32_TN",
            MmaOp::SM80_16x8x16_F32BF16BF16F32_TN => "SM80_16x8x16_F32BF16BF16F32_TN",
            MmaOp::Gmma { .. } => "",
        }
    }

    /// Parses CuTe's name: `SM80_16x8x16_F32BF16BF16F32_TN`, or a GMMA with its operand majors in
    /// angle brackets, `SM90_64x128x16_F32BF16BF16_SS<K,MN>` (A major, B major).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let op = MmaOp::parse("SM90_64x96x16_F32F16F16_RS<K,MN>").unwrap();
    /// assert_eq!(op, MmaOp::Gmma { n: 96, types: GmmaTypes::F32F16F16, rs: true, a: Major::K, b: Major::MN });
    /// assert_eq!(op.to_string(), "SM90_64x96x16_F32F16F16_RS<K,MN>");
    /// assert!(MmaOp::parse("SM90_64x12x16_F32F16F16_SS<K,K>").is_err()); // N not a multiple of 8
    /// assert!(MmaOp::parse("SM90_64x64x16_F32F16F16_RS<MN,K>").is_err()); // RS needs A K-major
    /// ```
    pub fn parse(name: &str) -> Result<MmaOp, Error> {
        let name = name.trim();
        for op in SM80_OPS {
            if op.sm80_name() == name {
                return Ok(op);
            }
        }
        let bad = Error::new(
            "unknown MMA atom: expected an SM80 name such as SM80_16x8x16_F32BF16BF16F32_TN, SM90_64xNx16_F32BF16BF16_SS<K,MN> (also F32F16F16, _RS) or SM90_64xNx32_F32E4M3E4M3_SS_TN (also E5M2, mixed, _RS_TN)",
        );
        let rest = name.strip_prefix("SM90_64x").ok_or(bad)?;
        let (n, rest) = rest.split_once('x').ok_or(bad)?;
        let n: i64 = n.parse().map_err(|_| bad)?;
        let (k, rest) = rest.split_once('_').ok_or(bad)?;
        let mut types = None;
        for t in GMMA_TYPES {
            if let Some(r) = rest.strip_prefix(t.name())
                && let Some(r) = r.strip_prefix('_')
            {
                types = Some((t, r));
            }
        }
        let (types, rest) = types.ok_or(bad)?;
        if k != if types.k_major_only() { "32" } else { "16" } {
            return Err(bad);
        }
        let (rs, rest) = if let Some(r) = rest.strip_prefix("RS") {
            (true, r)
        } else if let Some(r) = rest.strip_prefix("SS") {
            (false, r)
        } else {
            return Err(bad);
        };
        if types.k_major_only() {
            // CuTe's 8-bit atoms have no majors: `_TN`, both operands K-major
            if rest.trim() != "_TN" {
                return Err(Error::new(
                    "GMMA atom with 8-bit inputs: the name ends in _TN (both operands K-major), e.g. SM90_64x128x32_F32E4M3E4M3_SS_TN",
                ));
            }
            let op = MmaOp::Gmma {
                n,
                types,
                rs,
                a: Major::K,
                b: Major::K,
            };
            tri!(MmaAtom::new(op));
            return Ok(op);
        }
        let inner = rest
            .trim()
            .strip_prefix('<')
            .and_then(|r| r.strip_suffix('>'))
            .ok_or(Error::new(
                "GMMA atom: give the operand majors in angle brackets, e.g. SM90_64x128x16_F32BF16BF16_SS<K,MN>",
            ))?;
        let (a, b) = inner.split_once(',').ok_or(bad)?;
        let major = |m: &str| match m.trim() {
            "K" | "GMMA::Major::K" => Ok(Major::K),
            "MN" | "GMMA::Major::MN" => Ok(Major::MN),
            _ => Err(Error::new("GMMA atom: a major is `K` or `MN`")),
        };
        let op = MmaOp::Gmma {
            n,
            types,
            rs,
            a: major(a)?,
            b: major(b)?,
        };
        tri!(MmaAtom::new(op));
        Ok(op)
    }
}

impl fmt::Display for MmaOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MmaOp::Gmma { n, types, rs, a, b } => {
                let (t, k) = (types.name(), types.k());
                let src = if rs { "RS" } else { "SS" };
                if types.k_major_only() {
                    write!(f, "SM90_64x{n}x{k}_{t}_{src}_TN")
                } else {
                    write!(f, "SM90_64x{n}x{k}_{t}_{src}<{},{}>", a.name(), b.name())
                }
            }
            op => f.write_str(op.sm80_name()),
        }
    }
}

/// How a TiledMMA's thread makes the fragment of one operand (CuTe's `FrgTypeA`/`B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fragment {
    /// Registers holding the values (`make_fragment_like`).
    Registers,
    /// A GMMA shared-memory descriptor (`GMMA::smem_desc<major>`): one descriptor per
    /// `(MMA_M, MMA_K)` tile of the shared-memory tensor.
    SmemDesc(Major),
}

/// An MMA atom: CuTe's `MMA_Atom<MMA_Traits<Op>>` (shape, threads and TV layouts).
#[derive(Clone, Copy, Debug)]
pub struct MmaAtom {
    /// The instruction.
    pub op: MmaOp,
    /// `Shape_MNK`.
    pub shape_mnk: IntTuple,
    /// `ThrID`: logical thread id -> thread index.
    pub thr_id: DynLayout,
    /// `ALayout`: `(thr, val) -> (m, k)` of the column-major `M x K` tile.
    pub layout_a_tv: DynLayout,
    /// `BLayout`: `(thr, val) -> (n, k)` of the column-major `N x K` tile.
    pub layout_b_tv: DynLayout,
    /// `CLayout`: `(thr, val) -> (m, n)` of the column-major `M x N` tile.
    pub layout_c_tv: DynLayout,
    /// Bits of an A element (`ValTypeA`).
    pub bits_a: i64,
    /// Bits of a B element.
    pub bits_b: i64,
    /// Bits of a C element.
    pub bits_c: i64,
    /// `FrgTypeA`.
    pub frg_a: Fragment,
    /// `FrgTypeB`.
    pub frg_b: Fragment,
}

// (T32,V4) -> (M16,N8)
const fn sm80_16x8_row() -> DynLayout {
    lay(
        t2(t2(s(4), s(8)), t2(s(2), s(2))),
        t2(t2(s(32), s(1)), t2(s(16), s(8))),
    )
}

impl MmaAtom {
    /// The atom of `op`, with CuTe's `MMA_Traits`. A GMMA needs `N` in `8..=256` with `N % 8 == 0`
    /// and, for `_RS`, a K-major A (CuTe: "Register source operand A must have K major layout").
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let a = MmaAtom::new(MmaOp::SM80_16x8x8_F32TF32TF32F32_TN).unwrap();
    /// assert_eq!(a.layout_b_tv.to_string(), "((_4,_8),_2):((_8,_1),_32)");
    /// let g = MmaAtom::new(MmaOp::Gmma { n: 64, types: GmmaTypes::F32BF16BF16, rs: false, a: Major::K, b: Major::MN }).unwrap();
    /// assert_eq!(g.layout_b_tv.to_string(), "(_128,(_64,_16)):(_0,(_1,_64))");
    /// assert_eq!(g.layout_c_tv.to_string(), "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))");
    /// ```
    pub const fn new(op: MmaOp) -> Result<MmaAtom, Error> {
        let thr32 = lay(s(32), s(1));
        // SM80_16x8x16_F16F16F16F16_TN and its fp32/bf16 variants
        let a_16x8x16 = lay(
            t2(t2(s(4), s(8)), t3(s(2), s(2), s(2))),
            t2(t2(s(32), s(1)), t3(s(16), s(8), s(128))),
        );
        let b_16x8x16 = lay(
            t2(t2(s(4), s(8)), t2(s(2), s(2))),
            t2(t2(s(16), s(1)), t2(s(8), s(64))),
        );
        // SM80_8x8_Row: (T32,V2) -> (M8,N8)
        let b_16x8x8 = lay(t2(t2(s(4), s(8)), s(2)), t2(t2(s(16), s(1)), s(8)));
        let regs = Fragment::Registers;
        Ok(match op {
            MmaOp::SM80_16x8x8_F16F16F16F16_TN => MmaAtom {
                op,
                shape_mnk: t3(s(16), s(8), s(8)),
                thr_id: thr32,
                layout_a_tv: sm80_16x8_row(),
                layout_b_tv: b_16x8x8,
                layout_c_tv: sm80_16x8_row(),
                bits_a: 16,
                bits_b: 16,
                bits_c: 16,
                frg_a: regs,
                frg_b: regs,
            },
            MmaOp::SM80_16x8x8_F32F16F16F32_TN | MmaOp::SM80_16x8x8_F32BF16BF16F32_TN => MmaAtom {
                op,
                shape_mnk: t3(s(16), s(8), s(8)),
                thr_id: thr32,
                layout_a_tv: sm80_16x8_row(),
                layout_b_tv: b_16x8x8,
                layout_c_tv: sm80_16x8_row(),
                bits_a: 16,
                bits_b: 16,
                bits_c: 32,
                frg_a: regs,
                frg_b: regs,
            },
            MmaOp::SM80_16x8x8_F32TF32TF32F32_TN => MmaAtom {
                op,
                shape_mnk: t3(s(16), s(8), s(8)),
                thr_id: thr32,
                layout_a_tv: lay(
                    t2(t2(s(4), s(8)), t2(s(2), s(2))),
                    t2(t2(s(16), s(1)), t2(s(8), s(64))),
                ),
                layout_b_tv: lay(t2(t2(s(4), s(8)), s(2)), t2(t2(s(8), s(1)), s(32))),
                layout_c_tv: sm80_16x8_row(),
                bits_a: 32,
                bits_b: 32,
                bits_c: 32,
                frg_a: regs,
                frg_b: regs,
            },
            MmaOp::SM80_16x8x16_F16F16F16F16_TN => MmaAtom {
                op,
                shape_mnk: t3(s(16), s(8), s(16)),
                thr_id: thr32,
                layout_a_tv: a_16x8x16,
                layout_b_tv: b_16x8x16,
                layout_c_tv: sm80_16x8_row(),
                bits_a: 16,
                bits_b: 16,
                bits_c: 16,
                frg_a: regs,
                frg_b: regs,
            },
            MmaOp::SM80_16x8x16_F32F16F16F32_TN | MmaOp::SM80_16x8x16_F32BF16BF16F32_TN => {
                MmaAtom {
                    op,
                    shape_mnk: t3(s(16), s(8), s(16)),
                    thr_id: thr32,
                    layout_a_tv: a_16x8x16,
                    layout_b_tv: b_16x8x16,
                    layout_c_tv: sm80_16x8_row(),
                    bits_a: 16,
                    bits_b: 16,
                    bits_c: 32,
                    frg_a: regs,
                    frg_b: regs,
                }
            }
            MmaOp::Gmma {
                n, types, rs, a, b, ..
            } => {
                if n < 8 || n > 256 || n % 8 != 0 {
                    return Err(Error::with1(
                        "GMMA: N must be a multiple of 8 from 8 to 256 (wgmma.m64nNk16)",
                        n,
                    ));
                }
                if rs && !matches!(a, Major::K) {
                    return Err(Error::new(
                        "GMMA _RS: Register source operand A must have K major layout",
                    ));
                }
                if types.k_major_only() && !matches!(a, Major::K) {
                    return Err(Error::new(
                        "GMMA with 8-bit inputs: MajorA must be GMMA::Major::K for this config (wgmma .e4m3/.e5m2 has no transpose)",
                    ));
                }
                if types.k_major_only() && !matches!(b, Major::K) {
                    return Err(Error::new(
                        "GMMA with 8-bit inputs: MajorB must be GMMA::Major::K for this config (wgmma .e4m3/.e5m2 has no transpose)",
                    ));
                }
                let k = types.k();
                // ABLayout<M,K>: (_128,(M,K)):(_0,(_1,M)) -- every thread sees the whole smem tile
                let a_ss = lay(t2(s(128), t2(s(64), s(k))), t2(s(0), t2(s(1), s(64))));
                let b_ss = lay(t2(s(128), t2(s(n), s(k))), t2(s(0), t2(s(1), s(n))));
                // ALayout_64x16 (16-bit elements) / ALayout_64x32 (8-bit): register A, each
                // thread's 32-bit registers hold 2 or 4 consecutive K elements
                let v = k / 8;
                let a_rs = lay(
                    t2(t3(s(4), s(8), s(4)), t3(s(v), s(2), s(2))),
                    t2(t3(s(64 * v), s(1), s(16)), t3(s(64), s(8), s(256 * v))),
                );
                // CLayout_64xN
                let c = lay(
                    t2(t3(s(4), s(8), s(4)), t3(s(2), s(2), s(n / 8))),
                    t2(t3(s(128), s(1), s(16)), t3(s(64), s(8), s(512))),
                );
                MmaAtom {
                    op,
                    shape_mnk: t3(s(64), s(n), s(k)),
                    thr_id: lay(s(128), s(1)),
                    layout_a_tv: if rs { a_rs } else { a_ss },
                    layout_b_tv: b_ss,
                    layout_c_tv: c,
                    bits_a: types.input_bits(),
                    bits_b: types.input_bits(),
                    bits_c: 32,
                    frg_a: if rs {
                        Fragment::Registers
                    } else {
                        Fragment::SmemDesc(a)
                    },
                    frg_b: Fragment::SmemDesc(b),
                }
            }
        })
    }

    /// [`MmaOp::parse`] then [`MmaAtom::new`].
    ///
    /// ```
    /// use layout_types::value::mma::MmaAtom;
    /// let a = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// assert_eq!(a.shape_mnk.to_string(), "(_16,_8,_16)");
    /// assert!(MmaAtom::parse("SM80_16x8x32").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<MmaAtom, Error> {
        MmaAtom::new(MmaOp::parse(name)?)
    }

    /// Size of mode `i` (0: M, 1: N, 2: K) of `Shape_MNK`.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let a = MmaAtom::new(MmaOp::SM80_16x8x8_F32TF32TF32F32_TN).unwrap();
    /// assert_eq!((a.size_mnk(0), a.size_mnk(1), a.size_mnk(2)), (16, 8, 8));
    /// ```
    pub const fn size_mnk(&self, i: usize) -> i64 {
        self.shape_mnk.get(i).val().v
    }
}

// ------------------------------------------------------------------------------------------------
// TiledMMA

/// Which operand of an MMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A (`M x K`).
    A,
    /// B (`N x K`).
    B,
    /// C (`M x N`).
    C,
}

impl Operand {
    /// The two of `(M, N, K)` (0, 1, 2) this operand spans.
    const fn modes(self) -> (usize, usize) {
        match self {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        }
    }
}

/// CuTe's `TiledMMA`: an atom repeated over an `(M,N,K)` layout of atoms, with an optional
/// permutation of each of M, N and K.
#[derive(Clone, Copy, Debug)]
pub struct TiledMma {
    /// The atom.
    pub atom: MmaAtom,
    /// `ThrLayoutVMNK = tiled_product(AtomThrID, AtomLayoutMNK)`:
    /// `(thr_in_atom, atom_m, atom_n, atom_k) -> thread index`.
    pub thr_layout_vmnk: DynLayout,
    /// `PermutationMNK`: a by-mode tiler of rank 3 (`_` for none in a mode).
    pub permutation_mnk: Tiler,
}

/// Appends a mode to a by-mode tiler, keeping its kind.
const fn push_mode_of(t: &mut Tiler, src: &Tiler, i: usize) -> Result<(), Error> {
    let m = src.modes.get(i);
    t.push_mode(src.kinds[i], &m)
}

impl TiledMma {
    /// `Tile<_,_,_>`: no permutation.
    ///
    /// ```
    /// use layout_types::value::mma::TiledMma;
    /// assert_eq!(TiledMma::no_permutation().rank(), 3);
    /// ```
    pub const fn no_permutation() -> Tiler {
        let mut t = Tiler::by_mode();
        let u = DynLayout::raw(IntTuple::under(), IntTuple::st(0));
        let mut i = 0;
        while i < 3 {
            match t.push_mode(TilerMode::Under, &u) {
                Ok(()) => {}
                Err(e) => e.panic(),
            }
            i += 1;
        }
        t
    }

    /// `make_tiled_mma(atom, atom_layout, permutation)`. `atom_layout` is padded to rank 3 with
    /// `_1:_0` (`append<3>`); `permutation` is a by-mode tiler of at most 3 static modes (each a
    /// layout, an integer or `_`), padded with `_`; the whole tiler `_` means none.
    ///
    /// ```
    /// use layout_types::{value::mma::*, text::parse::parse_tiler};
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let perm = parse_tiler("[_32,(_8,_2,_2):(_1,_16,_8),_16]").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &perm).unwrap();
    /// assert_eq!(mma.tile_shape().to_string(), "(_32,_32,_16)");
    /// assert_eq!(mma.thr_layout_vmnk.to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_0)");
    /// // a permutation must be static and have at most 3 modes
    /// assert!(TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &parse_tiler("[32,_,_]").unwrap()).is_err());
    /// assert!(TiledMma::new(&atom, &"(_2,_2,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).is_err());
    /// ```
    pub const fn new(
        atom: &MmaAtom,
        atom_layout: &DynLayout,
        permutation: &Tiler,
    ) -> Result<TiledMma, Error> {
        if atom_layout.shape.is_tuple() && atom_layout.rank() > 3 {
            return Err(Error::with1(
                "TiledMMA requires rank-3 AtomLayoutMNK (the atom layout has {} modes)",
                atom_layout.rank() as i64,
            ));
        }
        let thr_mnk = atom_layout.append_to(3);
        let vmnk = tri!(tiled_product(&atom.thr_id, &Tiler::layout(thr_mnk)));
        let mut perm = Tiler::by_mode();
        if permutation.is_whole_under() {
            perm = TiledMma::no_permutation();
        } else if !permutation.by_mode {
            return Err(Error::new(
                "TiledMMA requires independent permutations of MNK: give a by-mode tiler [M,N,K]",
            ));
        } else {
            if permutation.rank() > 3 {
                return Err(Error::with1(
                    "TiledMMA requires rank-3 PermutationMNK (the permutation has {} modes)",
                    permutation.rank() as i64,
                ));
            }
            if !permutation.modes.is_static() {
                return Err(Error::new("TiledMMA requires static permutations of MNK"));
            }
            let mut i = 0;
            while i < 3 {
                if i < permutation.rank() {
                    tri!(push_mode_of(&mut perm, permutation, i));
                } else {
                    tri!(perm.push_mode(
                        TilerMode::Under,
                        &DynLayout::raw(IntTuple::under(), IntTuple::st(0))
                    ));
                }
                i += 1;
            }
        }
        Ok(TiledMma {
            atom: *atom,
            thr_layout_vmnk: vmnk,
            permutation_mnk: perm,
        })
    }

    /// Number of threads (`size(thr_layout_vmnk)`).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM90_64x64x16_F32BF16BF16_SS<K,K>").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.size(), 256);
    /// ```
    pub const fn size(&self) -> i64 {
        self.thr_layout_vmnk.size().v
    }

    /// `permutation_mnk<i>()` as a one-mode tiler: the permutation, or for `_` the integer
    /// `size<i>(AtomShape_MNK) * size<i+1>(ThrLayoutVMNK)`.
    const fn perm_mode(&self, i: usize, t: &mut Tiler) -> Result<(), Error> {
        if self.permutation_mnk.is_under(i) {
            let n = self.atom.size_mnk(i) * self.thr_layout_vmnk.get(i + 1).size().v;
            t.push_mode(TilerMode::Int, &DynLayout::raw(s(n), s(1)))
        } else {
            push_mode_of(t, &self.permutation_mnk, i)
        }
    }

    /// `tile_size<i>(mma)`: the extent of mode `i` (M, N, K) of the TiledMMA's tile.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x8_F32TF32TF32F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_4,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!((mma.tile_size(0), mma.tile_size(1), mma.tile_size(2)), (32, 32, 8));
    /// ```
    pub const fn tile_size(&self, i: usize) -> i64 {
        if self.permutation_mnk.is_under(i) {
            self.atom.size_mnk(i) * self.thr_layout_vmnk.get(i + 1).size().v
        } else {
            self.permutation_mnk.modes.get(i).size().v
        }
    }

    /// `tile_shape(mma)`: `(tile_size<0>, tile_size<1>, tile_size<2>)`, static.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM90_64x96x16_F32F16F16_SS<MN,MN>").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.tile_shape().to_string(), "(_64,_96,_16)");
    /// ```
    pub const fn tile_shape(&self) -> IntTuple {
        t3(
            s(self.tile_size(0)),
            s(self.tile_size(1)),
            s(self.tile_size(2)),
        )
    }

    /// CuTe's `thrfrg_A`/`B`/`C`: a layout over an `(M,K,...)` (`(N,K,...)`, `(M,N,...)`) tensor
    /// becomes `((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))`.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::mma::*};
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32BF16BF16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let c: DynLayout = "(_64,_32):(_1,_64)".parse().unwrap();
    /// let f = mma.thrfrg(Operand::C, &c).unwrap();
    /// assert_eq!(f.to_string(),
    ///            "(((_4,_8),(_2,_2)),((_2,_2),(_2,_2))):(((_128,_1),(_16,_512)),((_64,_8),(_32,_1024)))");
    /// ```
    pub const fn thrfrg(&self, op: Operand, l: &DynLayout) -> Result<DynLayout, Error> {
        let (i0, i1) = op.modes();
        // Reorder the tensor for the TiledAtom
        let mut t_tile = Tiler::by_mode();
        tri!(self.perm_mode(i0, &mut t_tile));
        tri!(self.perm_mode(i1, &mut t_tile));
        let t = tri!(logical_divide(l, &t_tile));
        // Tile the tensor for the Atom
        let mut a_tile = Tiler::by_mode();
        tri!(a_tile.push_layout(&DynLayout::make_layout(&s(self.atom.size_mnk(i0)), false)));
        tri!(a_tile.push_layout(&DynLayout::make_layout(&s(self.atom.size_mnk(i1)), false)));
        let z = tri!(zipped_divide(&t, &a_tile));
        // Transform the Atom mode from (M,K) to (Thr,Val)
        let atom_tv = match op {
            Operand::A => self.atom.layout_a_tv,
            Operand::B => self.atom.layout_b_tv,
            Operand::C => self.atom.layout_c_tv,
        };
        let tv = DynLayout::from_modes(&[tri!(composition(&z.get(0), &atom_tv)), z.get(1)]);
        // Tile the tensor for the threads
        let mut thr_tile = Tiler::by_mode();
        tri!(thr_tile.push_mode(
            TilerMode::Under,
            &DynLayout::raw(IntTuple::under(), IntTuple::st(0))
        ));
        let thr_shape = IntTuple::pair(
            &IntTuple::leaf(self.thr_layout_vmnk.get(i0 + 1).size()),
            &IntTuple::leaf(self.thr_layout_vmnk.get(i1 + 1).size()),
        );
        tri!(thr_tile.push_mode(
            TilerMode::Shape,
            &DynLayout::raw(thr_shape, thr_shape.repeat_like(&IntTuple::st(1)))
        ));
        zipped_divide(&tv, &thr_tile)
    }

    /// `thr_idx -> (ThrV,ThrM,ThrN,ThrK)`:
    /// `composition((size(vmnk),_1):(_1,_0), right_inverse(make_layout(vmnk, complement(vmnk))))`.
    const fn thridx_2_thrid(&self) -> Result<DynLayout, Error> {
        let v = self.thr_layout_vmnk;
        let c = tri!(complement_default(&v));
        let inv = right_inverse(&DynLayout::from_modes(&[v, c]));
        let outer = DynLayout::raw(
            IntTuple::pair(&IntTuple::leaf(v.size()), &s(1)),
            IntTuple::pair(&s(1), &s(0)),
        );
        composition(&outer, &inv)
    }

    /// CuTe's `get_layoutA_TV`/`B`/`C`: `(thread index, value) -> index` in the column-major
    /// `(tile_M, tile_K)` (`(tile_N, tile_K)`, `(tile_M, tile_N)`) tile.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x8_F32TF32TF32F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.layout_tv(Operand::B).unwrap().to_string(),
    ///            "((_4,_8,_2,_2),(_2,(_1,_1))):((_16,_1,_0,_8),(_64,(_0,_0)))");
    /// ```
    pub const fn layout_tv(&self, op: Operand) -> Result<DynLayout, Error> {
        let (i0, i1) = op.modes();
        let ref_shape = IntTuple::pair(&s(self.tile_size(i0)), &s(self.tile_size(i1)));
        let f = tri!(self.thrfrg(op, &DynLayout::make_layout(&ref_shape, false)));
        let f = match op {
            Operand::C => f,
            Operand::A | Operand::B => {
                // (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): compose (ThrM) with
                // (size<1>,size<2>):(_1,_0) for A, (ThrN) with (size<1>,size<2>):(_0,_1) for B
                let sz = IntTuple::pair(
                    &IntTuple::leaf(self.thr_layout_vmnk.get(1).size()),
                    &IntTuple::leaf(self.thr_layout_vmnk.get(2).size()),
                );
                let st = if matches!(op, Operand::A) {
                    IntTuple::pair(&s(1), &s(0))
                } else {
                    IntTuple::pair(&s(0), &s(1))
                };
                let m0 = f.get(0);
                let m01 = m0.get(1);
                let new01 = DynLayout::from_modes(&[
                    tri!(composition(&m01.get(0), &DynLayout::raw(sz, st))),
                    m01.get(1),
                ]);
                DynLayout::from_modes(&[DynLayout::from_modes(&[m0.get(0), new01]), f.get(1)])
            }
        };
        let tid = tri!(self.thridx_2_thrid());
        Ok(DynLayout::from_modes(&[
            tri!(composition(&f.get(0), &tid)),
            f.get(1),
        ]))
    }

    /// `get_layoutA_TV()`.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32BF16BF16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.layout_a_tv().unwrap().to_string(),
    ///            "((_4,_8),((_2,_2,_2),(_1,_1))):((_32,_1),((_16,_8,_128),(_0,_0)))");
    /// ```
    pub const fn layout_a_tv(&self) -> Result<DynLayout, Error> {
        self.layout_tv(Operand::A)
    }
    /// `get_layoutB_TV()`.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM90_64x32x16_F32F16F16_RS<K,MN>").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.layout_b_tv().unwrap().to_string(), "(_128,((_32,_16),(_1,_1))):(_0,((_1,_32),(_0,_0)))");
    /// ```
    pub const fn layout_b_tv(&self) -> Result<DynLayout, Error> {
        self.layout_tv(Operand::B)
    }
    /// `get_layoutC_TV()`.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM90_64x8x16_F32F16F16_RS<K,K>").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.layout_c_tv().unwrap().to_string(),
    ///            "((_4,_8,_8),((_2,_2,_1),(_1,_1))):((_256,_1,_16),((_128,_8,_1024),(_0,_0)))");
    /// ```
    pub const fn layout_c_tv(&self) -> Result<DynLayout, Error> {
        self.layout_tv(Operand::C)
    }

    /// `get_slice(thr_idx)`: one thread's view ([`ThrMma`]).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert_eq!(mma.get_slice(77).thr_vmnk.to_string(), "(13,0,1,_0)");
    /// ```
    pub const fn get_slice(&self, thr_idx: i64) -> ThrMma {
        ThrMma {
            mma: *self,
            thr_vmnk: self.thr_layout_vmnk.get_flat_coord(thr_idx),
        }
    }

    /// CuTe's `partition_shape_A`/`B`/`C(mma, shape)`: the shape of one thread's partition of a
    /// tensor of `shape` (`(FrgV, RestM, RestK, ...)`), without a tensor.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let s = mma.partition_shape(Operand::C, &"(_128,_128)".parse().unwrap()).unwrap();
    /// assert_eq!(s.to_string(), "((_2,_2),_4,_8)");
    /// ```
    pub const fn partition_shape(&self, op: Operand, shape: &IntTuple) -> Result<IntTuple, Error> {
        let dummy = DynLayout::make_layout(shape, false);
        let f = tri!(self.thrfrg(op, &dummy));
        let r = dummy.rank();
        let coord = IntTuple::pair(
            &s(0),
            &IntTuple::pair(&IntTuple::under(), &IntTuple::repeat(r, &IntTuple::under())),
        );
        Ok(f.slice(&coord).shape)
    }

    /// The divisibility a static partition needs: the tile of the TiledMMA (`tile_size` in the
    /// two modes of the operand) must divide the tensor's extents. CuTe does not check this
    /// (a non-dividing tile reads past the tensor); the typed layer does, at compile time.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// assert!(mma.check_divides(Operand::C, &"(_128,_64)".parse().unwrap()).is_ok());
    /// let e = mma.check_divides(Operand::C, &"(_48,_64)".parse().unwrap()).unwrap_err();
    /// assert_eq!(e.vals, [32, 48]);
    /// ```
    pub const fn check_divides(&self, op: Operand, shape: &IntTuple) -> Result<(), Error> {
        let (i0, i1) = op.modes();
        let sh = shape.product_each();
        if sh.rank() < 2 {
            return Err(Error::with1(
                "TiledMMA: the tensor to partition needs at least 2 modes (it has {})",
                sh.rank() as i64,
            ));
        }
        let mut k = 0;
        while k < 2 {
            let (mode, ext) = if k == 0 {
                (i0, sh.get(0))
            } else {
                (i1, sh.get(1))
            };
            let t = self.tile_size(mode);
            let e = ext.val().v;
            if e % t != 0 {
                return Err(Error::with2(
                    match mode {
                        0 => {
                            "TiledMMA: the TiledMMA tile's M extent {} does not divide the CTA tile's M extent {}"
                        }
                        1 => {
                            "TiledMMA: the TiledMMA tile's N extent {} does not divide the CTA tile's N extent {}"
                        }
                        _ => {
                            "TiledMMA: the TiledMMA tile's K extent {} does not divide the CTA tile's K extent {}"
                        }
                    },
                    t,
                    e,
                ));
            }
            k += 1;
        }
        Ok(())
    }
}

/// One thread's view of a [`TiledMma`] (CuTe's `ThrMMA`).
#[derive(Clone, Copy, Debug)]
pub struct ThrMma {
    /// The TiledMMA.
    pub mma: TiledMma,
    /// `thr_layout_vmnk.get_flat_coord(thr_idx)`: `(v, m, n, k)`.
    pub thr_vmnk: IntTuple,
}

impl ThrMma {
    /// `partition_A`/`B`/`C(tensor)`: this thread's `(FrgV, RestM, RestK, ...)` part of a tensor
    /// laid out by `l`, and the offset of its first element.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::mma::*};
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let c: DynLayout = "(_64,_32):(_32,_1)".parse().unwrap(); // row-major C tile
    /// let (p, off) = mma.get_slice(5).partition(Operand::C, &c).unwrap();
    /// assert_eq!(p.to_string(), "((_2,_2),_2,_2):((_1,_256),_1024,_16)");
    /// assert_eq!(off.v, 32 + 2); // thread 5 of the atom: row 1, column 2
    /// ```
    pub const fn partition(&self, op: Operand, l: &DynLayout) -> Result<(DynLayout, Val), Error> {
        let f = tri!(self.mma.thrfrg(op, l));
        let (i0, i1) = op.modes();
        let thr = IntTuple::pair(
            &self.thr_vmnk.get(0),
            &IntTuple::pair(&self.thr_vmnk.get(i0 + 1), &self.thr_vmnk.get(i1 + 1)),
        );
        let rest = f.get(1).get(1);
        let r = if rest.shape.is_tuple() {
            rest.rank()
        } else {
            1
        };
        let coord = IntTuple::pair(
            &thr,
            &IntTuple::pair(&IntTuple::under(), &IntTuple::repeat(r, &IntTuple::under())),
        );
        Ok(f.slice_and_offset(&coord))
    }

    /// `partition_fragment_A`/`B`/`C(tensor)`: the layout of the fragment a thread makes for its
    /// partition. Registers (`make_fragment_like`: mode 0 column-major, the other modes in the
    /// order of the partition's strides; C: `make_layout(shape)`), or for a GMMA shared-memory
    /// operand the descriptor tensor's layout (`replace<0>(recast<uint128_t>(partition), _1:_0)`).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::mma::*};
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let a: DynLayout = "(_64,_32):(_32,_1)".parse().unwrap();
    /// let f = mma.get_slice(0).partition_fragment(Operand::A, &a).unwrap();
    /// assert_eq!(f.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)");
    /// let g = MmaAtom::parse("SM90_64x64x16_F32BF16BF16_SS<K,K>").unwrap();
    /// let wg = TiledMma::new(&g, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// // tile_to_shape(GMMA::Layout_K_SW128_Atom<bf16>, (_64,_64)): Sw<3,4,3> o smem_ptr o sa
    /// let sa: DynLayout = "((_8,_8),(_64,_1)):((_64,_512),(_1,_0))".parse().unwrap();
    /// let sw = layout_types::value::swizzle::DynSwizzle::new(3, 4, 3).unwrap();
    /// let d = wg.get_slice(3).partition_fragment_swizzled(Operand::A, &sa, sw).unwrap();
    /// assert_eq!(d.to_string(), "(_1,_1,_4):(_0,_0,_2)");
    /// ```
    pub const fn partition_fragment(&self, op: Operand, l: &DynLayout) -> Result<DynLayout, Error> {
        self.partition_fragment_swizzled(op, l, DynSwizzle::identity())
    }

    /// [`ThrMma::partition_fragment`] of a shared-memory tensor swizzled by `swizzle` (a GMMA
    /// layout atom tiled to the tensor, `Sw<B,4,3> o smem_ptr o l`). A GMMA descriptor operand must
    /// be a canonical GMMA layout (CuTe's `make_gmma_desc` checks: "Not a canonical GMMA_K
    /// Layout", ...).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::mma::*, value::swizzle::DynSwizzle};
    /// let g = MmaAtom::parse("SM90_64x64x16_F32BF16BF16_SS<K,K>").unwrap();
    /// let wg = TiledMma::new(&g, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let sa: DynLayout = "((_8,_8),(_64,_1)):((_64,_512),(_1,_0))".parse().unwrap();
    /// let sw = DynSwizzle::new(3, 4, 3).unwrap();
    /// assert!(wg.get_slice(0).partition_fragment_swizzled(Operand::A, &sa, sw).is_ok());
    /// // the same tile row-major without its swizzle is not a canonical K-major INTERLEAVE layout
    /// let plain: DynLayout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// assert!(wg.get_slice(0).partition_fragment(Operand::A, &plain).is_err());
    /// ```
    pub const fn partition_fragment_swizzled(
        &self,
        op: Operand,
        l: &DynLayout,
        swizzle: DynSwizzle,
    ) -> Result<DynLayout, Error> {
        let (p, _) = tri!(self.partition(op, l));
        let (frg, bits, atom_tv) = match op {
            Operand::A => (
                self.mma.atom.frg_a,
                self.mma.atom.bits_a,
                self.mma.atom.layout_a_tv,
            ),
            Operand::B => (
                self.mma.atom.frg_b,
                self.mma.atom.bits_b,
                self.mma.atom.layout_b_tv,
            ),
            Operand::C => (
                Fragment::Registers,
                self.mma.atom.bits_c,
                self.mma.atom.layout_c_tv,
            ),
        };
        if p.rank() < 3 {
            return Err(Error::with1(
                "make_fragment: the partitioned tensor must have rank >= 3 (VMK) (rank {})",
                p.rank() as i64,
            ));
        }
        if p.get(0).size().v != atom_tv.get(1).size().v {
            return Err(Error::with2(
                "make_fragment: size<0>(partition) {} must equal the atom's values per thread {}",
                p.get(0).size().v,
                atom_tv.get(1).size().v,
            ));
        }
        let owning = matches!(op, Operand::C) || matches!(frg, Fragment::Registers);
        if owning && !p.shape.is_static() {
            return Err(Error::new(
                "make_fragment: Dynamic owning tensors not supported: a register fragment needs a static shape (partition a static tile)",
            ));
        }
        if !owning && !p.get(0).is_static() {
            return Err(Error::new(
                "make_gmma_desc: the MMA's shared-memory tile (mode 0 of the partition) must have a static layout",
            ));
        }
        match (op, frg) {
            (Operand::C, _) => Ok(DynLayout::make_layout(&p.shape, false)),
            (_, Fragment::Registers) => make_fragment_like(&p),
            (_, Fragment::SmemDesc(major)) => {
                tri!(check_gmma_desc(&p.get(0), swizzle, major, bits));
                let u = tri!(recast_layout(&p, bits, 128));
                Ok(u.replace(0, &DynLayout::trivial()))
            }
        }
    }
}

/// The checks of CuTe's `make_gmma_desc<major>(tensor)` on the layout of one MMA's
/// shared-memory tile (`tensor<0>` of a partition) of `bits`-bit elements, swizzled by `swizzle`:
/// in units of 128 bits it must be a canonical GMMA layout of its swizzle.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::mma::*, value::swizzle::DynSwizzle};
/// let k_sw128: DynLayout = "(_64,_16):(_64,_1)".parse().unwrap();
/// assert!(check_gmma_desc(&k_sw128, DynSwizzle::new(3, 4, 3).unwrap(), Major::K, 16).is_ok());
/// let e = check_gmma_desc(&k_sw128, DynSwizzle::identity(), Major::K, 16).unwrap_err();
/// assert!(e.msg.starts_with("Not a canonical GMMA_K Layout: Expected stride failure"));
/// ```
pub const fn check_gmma_desc(
    l: &DynLayout,
    swizzle: DynSwizzle,
    major: Major,
    bits: i64,
) -> Result<(), Error> {
    if swizzle.base != 4 || swizzle.shift != 3 || swizzle.bits > 3 {
        return Err(Error::new(
            "make_gmma_desc: Unsupported layout swizzle (a GMMA operand is swizzled by Sw<0..3,4,3>)",
        ));
    }
    if l.rank() != 2 {
        return Err(Error::with1(
            "make_gmma_desc: GMMA Descriptors can only be constructed on rank-2 tensors (rank {})",
            l.rank() as i64,
        ));
    }
    let w = 1i64 << swizzle.bits;
    let inter = swizzle.bits == 0;
    let u = tri!(recast_layout(l, bits, 128));
    let (s0, s1) = (u.get(0).size().v, u.get(1).size().v);
    let mut tile = Tiler::by_mode();
    let canonical = match major {
        Major::K => {
            if s0 % 8 != 0 {
                return Err(Error::with1(
                    "Not a canonical GMMA_K Layout: Expected MN-size multiple of 8 (MN-size {} in units of uint128_t)",
                    s0,
                ));
            }
            if s1 != 2 && s1 != 4 {
                return Err(Error::with1(
                    "Not a canonical GMMA_K Layout: Expected K-size 2 for dense or 4 for sparse (in units of uint128_t) (K-size {})",
                    s1,
                ));
            }
            tri!(tile.push_layout(&lay(s(8), s(1))));
            tri!(tile.push_layout(&lay(s(2), s(1))));
            tri!(logical_divide(&u, &tile))
        }
        Major::MN => {
            let k = l.get(1).size().v;
            if k * bits != 256 && k * bits != 128 && k * bits != 512 {
                return Err(Error::with1(
                    "Not a canonical GMMA_MN Layout: Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse (K-size {})",
                    k,
                ));
            }
            tri!(tile.push_layout(&lay(s(w), s(1))));
            tri!(tile.push_layout(&lay(s(8), s(1))));
            tri!(logical_divide(&u, &tile))
        }
    };
    let profile_ok = canonical.rank() == 2
        && canonical.get(0).shape.is_tuple()
        && canonical.get(0).rank() == 2
        && canonical.get(0).shape.get(0).is_int()
        && canonical.get(0).shape.get(1).is_int()
        && canonical.get(1).shape.is_tuple()
        && canonical.get(1).rank() == 2
        && canonical.get(1).shape.get(0).is_int()
        && canonical.get(1).shape.get(1).is_int();
    if !profile_ok {
        return Err(match major {
            Major::K => Error::new("Not a canonical GMMA_K Layout: Expected profile failure."),
            Major::MN => Error::new("Not a canonical GMMA_MN Layout: Expected profile failure."),
        });
    }
    let d00 = canonical.stride.get(0).get(0).val().v;
    let d10 = canonical.stride.get(1).get(0).val().v;
    let ok = match major {
        Major::K => d00 == w && (inter || d10 == 1),
        Major::MN => (inter || d00 == 1) && d10 == w,
    };
    if !ok {
        return Err(match major {
            Major::K => Error::with2(
                "Not a canonical GMMA_K Layout: Expected stride failure (stride<0,0> {} must be the swizzle width {} in units of uint128_t)",
                d00,
                w,
            ),
            Major::MN => Error::with2(
                "Not a canonical GMMA_MN Layout: Expected stride failure (stride<1,0> {} must be the swizzle width {} in units of uint128_t)",
                d10,
                w,
            ),
        });
    }
    Ok(())
}

/// CuTe's `make_fragment_like(layout)`: a compact layout of the same shape, mode 0 column-major
/// (static `_0` strides kept), the other modes ordered like `layout`'s strides
/// (`make_ordered_layout`); a layout of rank 1 or with a dynamic shape becomes
/// `make_layout(shape)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::mma::make_fragment_like};
/// let p: DynLayout = "((_2,_2),_2,_4):((_0,_8),_128,_16)".parse().unwrap();
/// assert_eq!(make_fragment_like(&p).unwrap().to_string(), "((_2,_2),_2,_4):((_0,_1),_8,_2)");
/// ```
pub const fn make_fragment_like(l: &DynLayout) -> Result<DynLayout, Error> {
    let r = l.rank();
    if !l.shape.is_tuple() || r <= 1 || !l.shape.is_static() {
        return Ok(DynLayout::make_layout(&l.shape, false));
    }
    let m0 = l.get(0);
    let zs = filter_zeros_tuple(&m0.stride, &m0.shape);
    let first = DynLayout::raw(m0.shape, compact_major(&zs, Val::st(1), false));
    let rest = l.take(1, r);
    let ordered = make_ordered_layout(&rest.shape, &rest.stride);
    tiled_product(&first, &Tiler::layout(ordered))
}

/// CuTe's `filter_zeros(a, b)` on IntTuples: the leaves of `b` paired with a static `_0` in `a`
/// become `_1`.
const fn filter_zeros_tuple(a: &IntTuple, b: &IntTuple) -> IntTuple {
    if a.is_tuple() {
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < a.rank() {
            r.push(&filter_zeros_tuple(&a.get(i), &b.get(i)));
            i += 1;
        }
        r
    } else if a.val().is_const(0) {
        b.repeat_like(&s(1))
    } else {
        *b
    }
}

// ------------------------------------------------------------------------------------------------
// ldmatrix copies matched to a TiledMMA

/// The `ldmatrix` copy operations (CuTe's `SM75_U32x{1,2,4}_LDSM_N`, `SM75_U16x{2,4,8}_LDSM_T`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum LdsmOp {
    /// `ldmatrix.sync.aligned.x1.m8n8.shared.b16`.
    SM75_U32x1_LDSM_N,
    /// `ldmatrix ... .x2`.
    SM75_U32x2_LDSM_N,
    /// `ldmatrix ... .x4`.
    SM75_U32x4_LDSM_N,
    /// `ldmatrix ... .x1.trans`.
    SM75_U16x2_LDSM_T,
    /// `ldmatrix ... .x2.trans`.
    SM75_U16x4_LDSM_T,
    /// `ldmatrix ... .x4.trans`.
    SM75_U16x8_LDSM_T,
}

/// Every [`LdsmOp`].
pub const LDSM_OPS: [LdsmOp; 6] = [
    LdsmOp::SM75_U32x1_LDSM_N,
    LdsmOp::SM75_U32x2_LDSM_N,
    LdsmOp::SM75_U32x4_LDSM_N,
    LdsmOp::SM75_U16x2_LDSM_T,
    LdsmOp::SM75_U16x4_LDSM_T,
    LdsmOp::SM75_U16x8_LDSM_T,
];

impl LdsmOp {
    /// CuTe's name.
    ///
    /// ```
    /// use layout_types::value::mma::LdsmOp;
    /// assert_eq!(LdsmOp::SM75_U16x8_LDSM_T.name(), "SM75_U16x8_LDSM_T");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            LdsmOp::SM75_U32x1_LDSM_N => "SM75_U32x1_LDSM_N",
            LdsmOp::SM75_U32x2_LDSM_N => "SM75_U32x2_LDSM_N",
            LdsmOp::SM75_U32x4_LDSM_N => "SM75_U32x4_LDSM_N",
            LdsmOp::SM75_U16x2_LDSM_T => "SM75_U16x2_LDSM_T",
            LdsmOp::SM75_U16x4_LDSM_T => "SM75_U16x4_LDSM_T",
            LdsmOp::SM75_U16x8_LDSM_T => "SM75_U16x8_LDSM_T",
        }
    }
    /// Parses CuTe's name.
    ///
    /// ```
    /// use layout_types::value::mma::LdsmOp;
    /// assert_eq!(LdsmOp::parse("SM75_U32x4_LDSM_N").unwrap(), LdsmOp::SM75_U32x4_LDSM_N);
    /// assert!(LdsmOp::parse("SM75_U32x8_LDSM_N").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<LdsmOp, Error> {
        LDSM_OPS
            .into_iter()
            .find(|o| o.name() == name.trim())
            .ok_or(Error::new(
                "unknown copy atom: expected SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N, SM75_U32x4_LDSM_N, SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T or SM75_U16x8_LDSM_T",
            ))
    }
    /// `Copy_Traits<Op>`: `(SrcLayout, DstLayout)`, `(thr, bit) -> bit` (`RefLayout` is `DstLayout`).
    ///
    /// ```
    /// use layout_types::value::mma::LdsmOp;
    /// let (src, dst) = LdsmOp::SM75_U32x1_LDSM_N.bit_layouts();
    /// assert_eq!(src.to_string(), "((_8,_4),_128):((_128,_0),_1)");
    /// assert_eq!(dst.to_string(), "(_32,_32):(_32,_1)");
    /// ```
    pub const fn bit_layouts(self) -> (DynLayout, DynLayout) {
        match self {
            LdsmOp::SM75_U32x1_LDSM_N => (
                lay(t2(t2(s(8), s(4)), s(128)), t2(t2(s(128), s(0)), s(1))),
                lay(t2(s(32), s(32)), t2(s(32), s(1))),
            ),
            LdsmOp::SM75_U32x2_LDSM_N => (
                lay(t2(t2(s(16), s(2)), s(128)), t2(t2(s(128), s(0)), s(1))),
                lay(t2(s(32), t2(s(32), s(2))), t2(s(32), t2(s(1), s(1024)))),
            ),
            LdsmOp::SM75_U32x4_LDSM_N => (
                lay(t2(s(32), s(128)), t2(s(128), s(1))),
                lay(t2(s(32), t2(s(32), s(4))), t2(s(32), t2(s(1), s(1024)))),
            ),
            LdsmOp::SM75_U16x2_LDSM_T => (
                lay(t2(t2(s(8), s(4)), s(128)), t2(t2(s(128), s(0)), s(1))),
                lay(
                    t2(t2(s(4), s(8)), t2(s(16), s(2))),
                    t2(t2(s(256), s(16)), t2(s(1), s(128))),
                ),
            ),
            LdsmOp::SM75_U16x4_LDSM_T => (
                lay(t2(t2(s(16), s(2)), s(128)), t2(t2(s(128), s(0)), s(1))),
                lay(
                    t2(t2(s(4), s(8)), t3(s(16), s(2), s(2))),
                    t2(t2(s(256), s(16)), t3(s(1), s(128), s(1024))),
                ),
            ),
            LdsmOp::SM75_U16x8_LDSM_T => (
                lay(t2(s(32), s(128)), t2(s(128), s(1))),
                lay(
                    t2(t2(s(4), s(8)), t3(s(16), s(2), s(4))),
                    t2(t2(s(256), s(16)), t3(s(1), s(128), s(1024))),
                ),
            ),
        }
    }
}

impl fmt::Display for LdsmOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A TiledCopy over a TiledMMA's operand (CuTe's `make_tiled_copy_A`/`B`/`C` with a
/// `Copy_Atom<LDSM op, T>`): the TiledMMA's TV layout and tile, and the atom's source and
/// destination `(thr, val) -> element` layouts for `T` of `elem_bits` bits.
#[derive(Clone, Copy, Debug)]
pub struct MmaTiledCopy {
    /// The copy operation.
    pub op: LdsmOp,
    /// Bits of an element (`ValType`).
    pub elem_bits: i64,
    /// `TiledLayout_TV` (the TiledMMA's `get_layoutA_TV` etc.).
    pub layout_tv: DynLayout,
    /// `Tiler_MN`.
    pub tiler: IntTuple,
    /// `ValLayoutSrc`.
    pub val_layout_src: DynLayout,
    /// `ValLayoutDst` (= `ValLayoutRef`).
    pub val_layout_dst: DynLayout,
}

/// CuTe's `make_tiled_copy_A(Copy_Atom<op, T>{}, mma)` with `T` the MMA's A type
/// (`make_tiled_copy_b`, `make_tiled_copy_c` likewise).
///
/// ```
/// use layout_types::value::mma::*;
/// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
/// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
/// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
/// assert_eq!(tc.tiler.to_string(), "(_32,_16)");
/// assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
/// ```
pub const fn make_tiled_copy_a(op: LdsmOp, mma: &TiledMma) -> Result<MmaTiledCopy, Error> {
    make_tiled_copy_for(op, mma, Operand::A)
}
/// CuTe's `make_tiled_copy_B` (see [`make_tiled_copy_a`]).
///
/// ```
/// use layout_types::value::mma::*;
/// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
/// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
/// let tc = make_tiled_copy_b(LdsmOp::SM75_U16x4_LDSM_T, &mma).unwrap();
/// assert_eq!(tc.tiler.to_string(), "(_16,_16)");
/// assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_16,_4,_2),(_8,_1)):((_16,_0,_8),(_1,_0))");
/// assert_eq!(tc.layout_d_tv().unwrap().to_string(), "((_4,_8,_2,_2),((_2,_2),_1)):((_32,_1,_0,_8),((_16,_128),_0))");
/// ```
pub const fn make_tiled_copy_b(op: LdsmOp, mma: &TiledMma) -> Result<MmaTiledCopy, Error> {
    make_tiled_copy_for(op, mma, Operand::B)
}
/// CuTe's `make_tiled_copy_C` (see [`make_tiled_copy_a`]).
///
/// ```
/// use layout_types::value::mma::*;
/// let atom = MmaAtom::parse("SM80_16x8x16_F16F16F16F16_TN").unwrap();
/// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
/// assert!(make_tiled_copy_c(LdsmOp::SM75_U32x2_LDSM_N, &mma).is_ok());
/// ```
pub const fn make_tiled_copy_c(op: LdsmOp, mma: &TiledMma) -> Result<MmaTiledCopy, Error> {
    make_tiled_copy_for(op, mma, Operand::C)
}

/// `make_tiled_copy_A`/`B`/`C` by operand.
///
/// ```
/// use layout_types::value::mma::*;
/// let atom = MmaAtom::parse("SM80_16x8x8_F32TF32TF32F32_TN").unwrap();
/// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
/// // a 32-bit element: ldmatrix.trans moves 16-bit halves, so U16 atoms do not fit
/// assert!(make_tiled_copy_for(LdsmOp::SM75_U16x2_LDSM_T, &mma, Operand::A).is_err());
/// ```
pub const fn make_tiled_copy_for(
    op: LdsmOp,
    mma: &TiledMma,
    which: Operand,
) -> Result<MmaTiledCopy, Error> {
    let bits = match which {
        Operand::A => mma.atom.bits_a,
        Operand::B => mma.atom.bits_b,
        Operand::C => mma.atom.bits_c,
    };
    let (i0, i1) = which.modes();
    let tv = tri!(mma.layout_tv(which));
    let tiler = IntTuple::pair(&s(mma.tile_size(i0)), &s(mma.tile_size(i1)));
    make_tiled_copy_tv(op, bits, &tv, &tiler)
}

/// CuTe's `make_tiled_copy_impl(Copy_Atom<op, T>{}, layout_tv, tiler)` for an `ldmatrix` atom
/// and `T` of `elem_bits` bits, with the TiledMMA's operand TV layout and `(tile, tile)` tiler
/// given directly (as the typed layer has them): what [`make_tiled_copy_for`] does after it
/// took them from the [`TiledMma`].
///
/// ```
/// use layout_types::value::mma::*;
/// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
/// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
/// let tv = mma.layout_tv(Operand::A).unwrap();
/// let tc = make_tiled_copy_tv(LdsmOp::SM75_U32x4_LDSM_N, 16, &tv, &"(_32,_16)".parse().unwrap()).unwrap();
/// assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
/// ```
pub const fn make_tiled_copy_tv(
    op: LdsmOp,
    bits: i64,
    tv: &DynLayout,
    tiler: &IntTuple,
) -> Result<MmaTiledCopy, Error> {
    let tv = *tv;
    let (src_bits, dst_bits) = op.bit_layouts();
    let src = tri!(recast_layout(&src_bits, 1, bits));
    let dst = tri!(recast_layout(&dst_bits, 1, bits));
    if src.get(0).size().v != 32 {
        return Err(Error::with2(
            "Copy_Atom: CopyOperation is not valid for Src of ValType (size<0>(ValLayoutSrc) {} != size(ThrID) {})",
            src.get(0).size().v,
            32,
        ));
    }
    if dst.get(0).size().v != 32 {
        return Err(Error::with2(
            "Copy_Atom: CopyOperation is not valid for Dst of ValType (size<0>(ValLayoutDst) {} != size(ThrID) {})",
            dst.get(0).size().v,
            32,
        ));
    }
    let tc = MmaTiledCopy {
        op,
        elem_bits: bits,
        layout_tv: tv,
        tiler: *tiler,
        val_layout_src: src,
        val_layout_dst: dst,
    };
    let (nthr, nval) = (tv.get(0).size().v, tv.get(1).size().v);
    if nthr % 32 != 0 {
        return Err(Error::with2(
            "TiledCopy uses too few thrs for selected CopyAtom ({} threads, atom of {})",
            nthr,
            32,
        ));
    }
    if nval % dst.get(1).size().v != 0 {
        return Err(Error::with2(
            "TiledCopy uses too few vals for selected CopyAtom ({} values per thread, atom of {})",
            nval,
            dst.get(1).size().v,
        ));
    }
    Ok(tc)
}

impl MmaTiledCopy {
    /// CuTe's `tile2thrfrg(tensor, ref2trg)`: `((TileM,TileN,...),(RestM,...))` to
    /// `((thr,val),(RestM,...))` sliced to `(thr, val, RestM, ...)`.
    const fn tile2thrfrg(&self, tensor: &DynLayout, src: bool) -> Result<DynLayout, Error> {
        let atom_val = self.val_layout_dst.get(1).size();
        let shape = IntTuple::pair(&s(32), &IntTuple::leaf(atom_val));
        let atom_tv = tri!(zipped_divide(
            &self.layout_tv,
            &tri!(Tiler::from_shape(&shape))
        ));
        let trg = if src {
            self.val_layout_src
        } else {
            self.val_layout_dst
        };
        let ref2trg = tri!(composition(&right_inverse(&self.val_layout_dst), &trg));
        let trg_tv =
            DynLayout::from_modes(&[tri!(composition(&atom_tv.get(0), &ref2trg)), atom_tv.get(1)]);
        // zip: ((trg_tid,trg_val),(rest_tid,rest_val)) -> ((trg_tid,rest_tid),(trg_val,rest_val))
        let (a, b) = (trg_tv.get(0), trg_tv.get(1));
        let zipped = DynLayout::from_modes(&[
            DynLayout::from_modes(&[a.get(0), b.get(0)]),
            DynLayout::from_modes(&[a.get(1), b.get(1)]),
        ]);
        let profile = IntTuple::pair(&s(1), &IntTuple::pair(&s(1), &s(1)));
        let thrval2mn = tri!(crate::value::algebra::coalesce_by(&zipped, &profile));
        // tensor.compose(thrval2mn, _), then (make_coord(_,_), _, ...)
        let mut modes = DynLayout::from_modes(&[tri!(composition(&tensor.get(0), &thrval2mn))]);
        let mut coord = IntTuple::wrap1(&IntTuple::pair(&IntTuple::under(), &IntTuple::under()));
        let mut i = 1;
        while i < tensor.rank() {
            modes = modes.append(&tensor.get(i));
            coord.push(&IntTuple::under());
            i += 1;
        }
        Ok(modes.slice(&coord))
    }

    const fn layout_tv_of(&self, src: bool) -> Result<DynLayout, Error> {
        // ref = make_layout(make_shape(shape(Tiler_MN), _1))
        let shape = IntTuple::pair(&self.tiler, &s(1));
        let r = DynLayout::make_layout(&shape, false);
        let f = tri!(self.tile2thrfrg(&r, src));
        // (_,_,Int<0>)
        Ok(f.slice(&t3(IntTuple::under(), IntTuple::under(), s(0))))
    }

    /// `tidfrg_S(tensor)`: a tensor layout over `(M, N, ...)` (a multiple of the tiler) as
    /// `(thr, val, (RestM, RestN, ...))`, by the source side of the atom: `thr` the thread
    /// index, `val` the `(atom values, atom repeats)` of each thread.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// let f = tc.tidfrg_s(&"(_64,_32):(_32,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(f.to_string(), "((_16,_2,_2,_2),(_8,_1),(_2,_2)):((_32,_8,_512,_0),(_1,_0),(_1024,_16))");
    /// ```
    pub const fn tidfrg_s(&self, tensor: &DynLayout) -> Result<DynLayout, Error> {
        let z = tri!(zipped_divide(tensor, &tri!(Tiler::from_shape(&self.tiler))));
        self.tile2thrfrg(&z, true)
    }
    /// `tidfrg_D(tensor)`: as [`MmaTiledCopy::tidfrg_s`], by the destination side (the
    /// registers each thread receives).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// let f = tc.tidfrg_d(&"(_32,_16):(_1,_32)".parse().unwrap()).unwrap();
    /// // (thr, val, (RestM, RestK)): the tile is one tiler, so the rest is (_1,_1)
    /// assert_eq!(f.to_string(), "((_4,_8,_2,_2),((_2,_2,_2),_1),(_1,_1)):((_64,_1,_16,_0),((_32,_8,_256),_0),(_0,_0))");
    /// ```
    pub const fn tidfrg_d(&self, tensor: &DynLayout) -> Result<DynLayout, Error> {
        let z = tri!(zipped_divide(tensor, &tri!(Tiler::from_shape(&self.tiler))));
        self.tile2thrfrg(&z, false)
    }
    /// `ThrCopy::partition_S(tensor)` of thread `thr`: `tidfrg_S(tensor)(thr, _, repeat<R>(_))`,
    /// the layout `(CPY, CPY_M, CPY_N, ...)` and the thread's offset.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// // a K-major 32x64 A tile: lane 17 gives the address of row 1, columns 8..16 of each 16x16
    /// let (l, off) = tc.partition_s(&"(_32,_64):(_64,_1)".parse().unwrap(), 17).unwrap();
    /// assert_eq!((l.to_string().as_str(), off.v), ("((_8,_1),_2,_4):((_1,_0),_1024,_16)", 64 + 8));
    /// ```
    pub const fn partition_s(
        &self,
        tensor: &DynLayout,
        thr: i64,
    ) -> Result<(DynLayout, Val), Error> {
        let f = tri!(self.tidfrg_s(tensor));
        Ok(Self::slice_thread(&f, tensor.rank(), thr))
    }
    /// `ThrCopy::partition_D(tensor)` of thread `thr` (see [`MmaTiledCopy::partition_s`]).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// # let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// # let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// // lane 5 receives A(1, 2..4), A(9, 2..4), A(1, 10..12), A(9, 10..12) (the MMA's A fragment)
    /// let (l, off) = tc.partition_d(&"(_16,_16):(_16,_1)".parse().unwrap(), 5).unwrap();
    /// assert_eq!(l.to_string(), "(((_2,_2,_2),_1),_1,_1):(((_1,_128,_8),_0),_0,_0)");
    /// assert_eq!(off.v, 16 + 2);
    /// ```
    pub const fn partition_d(
        &self,
        tensor: &DynLayout,
        thr: i64,
    ) -> Result<(DynLayout, Val), Error> {
        let f = tri!(self.tidfrg_d(tensor));
        Ok(Self::slice_thread(&f, tensor.rank(), thr))
    }
    const fn slice_thread(f: &DynLayout, rank: usize, thr: i64) -> (DynLayout, Val) {
        let mut rest = IntTuple::empty();
        let mut i = 0;
        while i < rank {
            rest.push(&IntTuple::under());
            i += 1;
        }
        let coord = t3(IntTuple::dy(thr), IntTuple::under(), rest);
        f.slice_and_offset(&coord)
    }
    /// `TiledCopy::retile(tensor)` (`retile_S` / `retile_D`): a thread's fragment
    /// `(V, REST_M, REST_N, ...)` (a TiledMMA's `partition_fragment_A` ...) as the copy's
    /// `(CPY, CPY_M, CPY_N, ...)` over the same registers.
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_2,_2,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_b(LdsmOp::SM75_U32x2_LDSM_N, &mma).unwrap();
    /// let r = tc.retile(&"((_2,_2),_4,_2):((_1,_2),_4,_16)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "((_4,_1),_4,_2):((_1,_0),_4,_16)");
    /// ```
    pub const fn retile(&self, tensor: &DynLayout) -> Result<DynLayout, Error> {
        let v = tensor.get(0).size();
        let nthr = self.layout_tv.get(0).size().v;
        let ws = tri!(composition(
            &right_inverse(&self.layout_tv),
            &DynLayout::make_layout(&self.tiler, false)
        ));
        let frg_mn = tri!(upcast(&ws, nthr * v.v));
        let prod = tri!(logical_product(
            &DynLayout::make_layout(&IntTuple::leaf(v), false),
            &Tiler::layout(right_inverse(&frg_mn))
        ));
        let atom_val = self.val_layout_dst.get(1).size();
        let frg_v = tri!(zipped_divide(
            &prod,
            &Tiler::layout(DynLayout::make_layout(&IntTuple::leaf(atom_val), false))
        ));
        let tile = frg_mn.shape.product_each().prepend(&IntTuple::leaf(v));
        let t = tri!(zipped_divide(tensor, &tri!(Tiler::from_shape(&tile))));
        let vt = DynLayout::from_modes(&[tri!(composition(&t.get(0), &frg_v)), t.get(1)]);
        let r = tensor.rank();
        let mut rest = IntTuple::wrap1(&IntTuple::st(0));
        while rest.rank() < r {
            rest.push(&IntTuple::under());
        }
        Ok(vt.slice(&IntTuple::pair(&IntTuple::under(), &rest)))
    }
    /// `get_layoutS_TV()`: `(thread, value) -> index` in the tile, by the source side of the
    /// atom (how `ldmatrix` reads shared memory).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// // ldmatrix.x4: lane t reads row t % 16, columns 8·(t / 16) + v of the column-major 16x16 tile
    /// assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_16,_2),(_8,_1)):((_1,_128),(_16,_0))");
    /// ```
    pub const fn layout_s_tv(&self) -> Result<DynLayout, Error> {
        self.layout_tv_of(true)
    }
    /// `get_layoutD_TV()`: by the destination side (the registers, i.e. the MMA's layout).
    ///
    /// ```
    /// use layout_types::value::mma::*;
    /// let atom = MmaAtom::parse("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(&atom, &"(_1,_1,_1)".parse().unwrap(), &TiledMma::no_permutation()).unwrap();
    /// let tc = make_tiled_copy_a(LdsmOp::SM75_U32x4_LDSM_N, &mma).unwrap();
    /// // the registers land as mma.sync's A layout wants them
    /// assert_eq!(tc.layout_d_tv().unwrap().to_string(), "((_4,_8),((_2,_2,_2),_1)):((_32,_1),((_16,_8,_128),_0))");
    /// let a = mma.layout_tv(Operand::A).unwrap();
    /// assert!((0..a.size().v).all(|i| tc.layout_d_tv().unwrap().call(i) == a.call(i)));
    /// ```
    pub const fn layout_d_tv(&self) -> Result<DynLayout, Error> {
        self.layout_tv_of(false)
    }
}
