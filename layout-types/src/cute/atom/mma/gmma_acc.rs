//! The accumulator of an SM90 GMMA atom seen from its thread (FlashAttention's
//! `convert_layout_acc_Aregs`, CUTLASS's `make_acc_into_op`): where each accumulator value
//! sits in the warpgroup's `64 × N` tile ([`acc_coord`], the atom's `CLayout_64xN` followed by
//! the tile's column-major index), and the same registers re-viewed as the `A` operand of the
//! next `wgmma` ([`acc_as_a`]).
//!
//! For 16-bit inputs the `m64nNk16` accumulator layout restricted to 16 columns equals the
//! register-A layout `ALayout_64x16`: A's value `(a0, a1, a2)` (column pair, row plus 8, column
//! plus 8) is the accumulator value `(v0, v1, j) = (a0, a1, 2·kb + a2)` of k-block `kb`. So the
//! accumulator's values `(2, 2, N/8)` divided by the A atom's value shape `(2, 2, 2)` are
//! `((2, 2, 2), N/16):((1, 2, 4), 8)`: A's eight values of k-block `kb` are the eight consecutive
//! accumulators from `8·kb`, and no data moves (P·V of attention: P rounded to 16 bits in place
//! and fed to the RS `wgmma`).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::atom::mma::gmma_acc::*;
//! // thread 5 (warp 0, lane 5): accumulator 0 is row 1, column 2; accumulator 3 row 9, column 3
//! assert_eq!(acc_coord(5, 0), (1, 2));
//! assert_eq!(acc_coord(5, 3), (9, 3));
//! // A's value 5 of k-block 3 (of an m64n128 accumulator) is accumulator 29
//! assert_eq!(acc_as_a().crd2idx((5i32, 3i32)), 29);
//! ```

use super::atoms::GmmaCLayout;
use crate::cute::consts::*;
use crate::cute::layout::{Layout, make_layout_left};

/// The accumulator of an `m64nNk16` GMMA (`N8 = N/8`) re-viewed as the A operand of the next
/// `wgmma` (CuTe's `convert_layout_acc_Aregs` for SM90): `((2, 2, 2), N/16):((1, 2, 4), 8)`,
/// (A's value in `ALayout_64x16`'s value order, k-block) → accumulator index. `N16 = N/16`.
pub type AccAsA<N16> = Layout<((_2, _2, _2), N16), ((_1, _2, _4), _8)>;

/// The layout [`AccAsA`] of the widest GMMA (N = 256; a narrower accumulator uses its first
/// `N/16` k-blocks), zero-sized.
///
/// ```
/// use layout_types::cute::atom::mma::gmma_acc::acc_as_a;
/// assert_eq!(acc_as_a().to_string(), "((_2,_2,_2),_16):((_1,_2,_4),_8)");
/// ```
#[inline(always)]
pub fn acc_as_a() -> AccAsA<_16> {
    AccAsA::<_16>::default()
}

/// `(row, column)` in the warpgroup's `64 × N` tile of accumulator `v` (0..N/2) of thread `t`
/// (0..128) of an `m64nNk16` GMMA: the atom's `CLayout_64xN` gives the tile's column-major
/// index, the `(64, N)` column-major layout its coordinate (CuTe's partition of an identity
/// tensor by the atom's C layout). For masks and edges. The layouts are those of N = 256; a
/// narrower atom's are their restriction to its first N/2 values and N columns.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::mma::gmma_acc::acc_coord;
/// // thread 127 (warp 3, lane 31), accumulator 63 of m64n128: row 48 + 7 + 8, column 8·15 + 6 + 1
/// assert_eq!(acc_coord(127, 63), (63, 127));
/// ```
#[inline(always)]
pub fn acc_coord(t: i32, v: i32) -> (i32, i32) {
    let idx: i32 = GmmaCLayout::<_32>::default().crd2idx((t, v));
    make_layout_left((_64, _256)).idx2crd(idx)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cute::atom::mma::atoms::GmmaALayout64x16;

    /// Every thread's A value of every k-block, through [`AccAsA`], is the accumulator at the
    /// same `(row, column)` of the tile as `ALayout_64x16` puts that A value (at column + 16·kb).
    #[test]
    fn acc_as_a_is_the_a_layout() {
        fn check(n16: i32) {
            let a = GmmaALayout64x16::default();
            let view = acc_as_a();
            let a_tile = make_layout_left((_64, _16));
            for t in 0..128i32 {
                for kb in 0..n16 {
                    for v in 0..8i32 {
                        let (r, c): (i32, i32) = a_tile.idx2crd(a.crd2idx((t, v)));
                        let acc: i32 = view.crd2idx((v, kb));
                        assert_eq!(acc_coord(t, acc), (r, c + 16 * kb), "t {t} kb {kb} v {v}");
                    }
                }
            }
        }
        check(4);
        check(8);
        check(16);
    }

    /// The A operand of an RS `wgmma` loaded from shared memory (attention's `qr` variant: Q
    /// as a register operand of `S = Q·Kᵀ`), as CuTe loads it: `make_tiled_copy_A(
    /// Copy_Atom<SM75_U32x4_LDSM_N>, tiled_mma)` of a TiledMMA of `W` RS GMMA warpgroups along
    /// M, `partition_S` of a `(64·W, D)` K-major SW128 tile (`tile_to_shape` of
    /// `Layout_K_SW128_Atom`, as TMA writes it), `retile_D` of `partition_fragment_A` (of the
    /// K-major shape: the typed `make_fragment_like` takes leaf rest modes, and the swizzled
    /// tile's K mode is `(64, D/64)`), one `ldmatrix.x4` per k-block (the host emulation). Every
    /// thread's fragment value `(v, 0, kb)` is the element `ALayout_64x16` puts there (the
    /// accumulator's coordinates restricted to 16 columns, [`acc_coord`]) in its warpgroup's rows,
    /// column `16·kb +`; and the register pairs `(2r, 2r + 1)` the RS `wgmma`'s four registers.
    #[test]
    fn ldsm_of_a_swizzled_tile_is_the_rs_a_operand() {
        use crate::cute::atom::gmma::{Layout_K_SW128_Atom, tile_to_shape};
        use crate::cute::atom::mma::*;
        use crate::cute::prelude::*;
        use device::wgmma::MajorK;
        macro_rules! check {
            ($w:ty, $m:ty, $d:ty) => {{
                let (w, d) = (<$w>::VALUE as i32, <$d>::VALUE as i32);
                let mma = make_tiled_mma(
                    SM90_64x64x16_F32BF16BF16_RS::<MajorK, MajorK>::new(),
                    Layout::<($w, _1, _1), (_1, _0, _0)>::default(),
                );
                let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
                let rows = 64 * w;
                let mut buf = std::vec![bfloat16_t(0); (rows * d) as usize + 1024];
                let base = buf.as_mut_ptr().wrapping_add(buf.as_ptr().align_offset(1024));
                let tile = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (<$m>::default(), <$d>::default()), LayoutLeft);
                let s_q = make_tensor(make_smem_ptr(base), tile);
                for m in 0..rows {
                    for k in 0..d {
                        unsafe { s_q.ptr((m, k)).write(bfloat16_t((m * d + k) as u16)) };
                    }
                }
                let shape = make_tensor(Counting(0i32), make_layout((<$m>::default(), <$d>::default()), (<$d>::default(), _1)));
                for thr in 0..128 * w as u32 {
                    let mut frag = mma.get_slice(thr as i32).partition_fragment_a(&shape);
                    let thr_s2r = s2r.get_slice(thr);
                    let (src, dst) = (thr_s2r.partition_s(&s_q), thr_s2r.retile_d(&mut frag));
                    for kb in 0..(d / 16) as usize {
                        unsafe { crate::cute::atom::copy::copy(&s2r, &src.k_block(kb), &dst.k_block(kb)) };
                    }
                    let (wg, t) = (thr as i32 / 128, thr as i32 % 128);
                    for kb in 0..d / 16 {
                        for v in 0..8i32 {
                            let (r, c) = acc_coord(t, v);
                            let got = frag[frag.layout.crd2idx((v, 0i32, kb)) as usize].0 as i32;
                            assert_eq!(got, (64 * wg + r) * d + 16 * kb + c, "thread {thr} k-block {kb} value {v}");
                        }
                    }
                }
            }};
        }
        check!(_2, _128, _128);
        check!(_2, _128, _64);
        check!(_3, _192, _64);
        check!(_2, _128, _256);
    }

    /// A thread's coordinates are its origin plus the value's: `acc_coord(t, v)` is
    /// `acc_coord(t, 0) + acc_coord(0, v)` (the thread and value modes of `CLayout_64xN` land in
    /// disjoint digits of `(64, N)`, so no sum carries). The attention epilogue's direct stores
    /// take each address as its row's plus a constant on this.
    #[test]
    fn acc_coord_is_thread_origin_plus_value_offset() {
        for t in 0..128i32 {
            let (rt, ct) = acc_coord(t, 0);
            for v in 0..128i32 {
                let (rv, cv) = acc_coord(0, v);
                assert_eq!(acc_coord(t, v), (rt + rv, ct + cv), "t {t} v {v}");
            }
        }
    }

    /// The accumulator coordinates are a bijection onto the 64 × N tile, thread `t`'s rows
    /// `16·warp + lane/4 (+8)` and columns `2·(lane%4) (+1) + 8·j`.
    #[test]
    fn acc_coord_covers_the_tile() {
        let mut seen = std::vec![false; 64 * 128];
        for t in 0..128i32 {
            for v in 0..64i32 {
                let (r, c) = acc_coord(t, v);
                let (warp, lane) = (t / 32, t % 32);
                assert_eq!(r, 16 * warp + lane / 4 + 8 * ((v / 2) % 2));
                assert_eq!(c, 2 * (lane % 4) + v % 2 + 8 * (v / 4));
                assert!(!seen[(r + 64 * c) as usize]);
                seen[(r + 64 * c) as usize] = true;
            }
        }
    }
}
