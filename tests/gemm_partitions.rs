//! The GEMM kernel's typed partitions (`kernels/gemm/src/tiles.rs`, on `layout_types::cute`),
//! evaluated on the host for every thread, against the kernel's previous constant tables: the
//! value-algebra partitions of `tests/gemm_partitions/old_part.rs` (the kernel's former
//! `part.rs`) with the configuration constants and index formulas the kernel used before.

#[allow(dead_code)]
#[path = "../kernels/gemm/src/tiles.rs"]
mod tiles;

#[allow(dead_code)]
#[path = "gemm_partitions/old_part.rs"]
mod old_part;

use layout_types::cute::atom::copy::TileLayout;
use layout_types::cute::layout::Crd2Idx;
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::{Advance, PtrEngine};
use layout_types::{value::int_tuple::IntTuple, value::layout::DynLayout, value::layout::ok};
use old_part::Partition;
use tiles::{CopyTiles, GemmTiles, KMajor, Major, MnMajor, Part, Tile64, Tile128};

/// The GEMM's configurations: their partitions and the copy partitions of both majorities.
trait Cfg: GemmTiles + CopyTiles<MnMajor> + CopyTiles<KMajor> {
    /// The kernel's fragment reads at k-step `kk`: the offsets in sA (`.0`) and sB (`.1`) of
    /// value `v` of vector `j` of `tCsA` / `tCsB`, at `4·j + v` (the register fragment's order):
    /// `tCsX(v, j)` of k-step 0, moved by `sX(0, kk)`.
    fn t_cs(tid: i32, kk: i32) -> (Vec<i32>, Vec<i32>);
}
impl<T: GemmTiles + CopyTiles<MnMajor> + CopyTiles<KMajor>> Cfg for T
where
    (i32, i32): Crd2Idx<T::CsAS, T::CsAD> + Crd2Idx<T::CsBS, T::CsBD>,
    <(i32, i32) as Crd2Idx<T::CsAS, T::CsAD>>::Output: Integral,
    <(i32, i32) as Crd2Idx<T::CsBS, T::CsBD>>::Output: Integral,
{
    fn t_cs(tid: i32, kk: i32) -> (Vec<i32>, Vec<i32>) {
        let (csa, csb) = (
            T::t_cs_a(Counting(0i32), tid),
            T::t_cs_b(Counting(0i32), tid),
        );
        let (ja, jb) = T::FRAGS;
        let a = (0..4 * ja as i32)
            .map(|i| {
                csa.engine.0 + csa.layout.crd2idx((i % 4, i / 4)).value() as i32 + T::sa(0, kk)
            })
            .collect();
        let b = (0..4 * jb as i32)
            .map(|i| {
                csb.engine.0 + csb.layout.crd2idx((i % 4, i / 4)).value() as i32 + T::sb(0, kk)
            })
            .collect();
        (a, b)
    }
}

/// `(x, k)` of the first element of each 128-bit copy vector of thread `tid` in the A tile
/// (`is_a`) or the B tile of an operand of majority `M`: the kernel's copy partition,
/// `make_tiled_copy(Copy128, ThrA | ThrB, Val).get_slice(tid).partition_S(cA | cB)`.
fn copy_vectors_of<T: CopyTiles<M>, M: Major>(is_a: bool, tid: i32) -> Vec<(i32, i32)> {
    let val = <T as CopyTiles<M>>::Val::default();
    if is_a {
        let tc = make_tiled_copy(
            Copy128::<f32>::new(),
            <T as CopyTiles<M>>::ThrA::default(),
            val,
        );
        let p = tc
            .get_slice(tid as u32)
            .partition_s(&<T as CopyTiles<M>>::c_a());
        (0..p.atoms()).map(|a| p.coord(4 * a)).collect()
    } else {
        let tc = make_tiled_copy(
            Copy128::<f32>::new(),
            <T as CopyTiles<M>>::ThrB::default(),
            val,
        );
        let p = tc
            .get_slice(tid as u32)
            .partition_s(&<T as CopyTiles<M>>::c_b());
        (0..p.atoms()).map(|a| p.coord(4 * a)).collect()
    }
}
/// [`copy_vectors_of`] for the majority `k_major`.
fn copy_vectors<T: Cfg>(k_major: bool, is_a: bool, tid: i32) -> Vec<(i32, i32)> {
    if k_major {
        copy_vectors_of::<T, KMajor>(is_a, tid)
    } else {
        copy_vectors_of::<T, MnMajor>(is_a, tid)
    }
}
/// The kernel's `gA(_,_,0)` / `gB(_,_,0)` of an operand of majority `M` at `base`: the pointer
/// of element `(x, k)` and the stride of the k mode.
fn cta_tile_of<T: CopyTiles<M>, M: Major>(
    is_a: bool,
    base: *const f32,
    xk: (i32, i32),
    ld: i32,
    cta: (i32, i32),
    (x, kk): (i32, i32),
) -> (*const f32, i64) {
    let (g, dk) = if is_a {
        let (g, dk) = <T as CopyTiles<M>>::g_a(base, xk, ld, cta);
        (g.engine.advance(g.layout.eval((x, kk))), dk)
    } else {
        let (g, dk) = <T as CopyTiles<M>>::g_b(base, xk, ld, cta);
        (g.engine.advance(g.layout.eval((x, kk))), dk)
    };
    (g.ptr() as *const f32, dk)
}

fn tuple2(a: i64, b: i64) -> IntTuple {
    IntTuple::pair(&IntTuple::st(a), &IntTuple::st(b))
}
fn layout2(s0: i64, s1: i64, d0: i64, d1: i64) -> DynLayout {
    ok(DynLayout::new(tuple2(s0, s1), tuple2(d0, d1)))
}
fn zd(l: &DynLayout, v0: i64, v1: i64) -> DynLayout {
    let t = layout_types::value::algebra::Tiler::from_shape(&tuple2(v0, v1)).unwrap();
    ok(layout_types::value::divide::zipped_divide(l, &t))
}
fn step2(keep0: bool) -> IntTuple {
    if keep0 {
        IntTuple::pair(&IntTuple::st(1), &IntTuple::x())
    } else {
        IntTuple::pair(&IntTuple::x(), &IntTuple::st(1))
    }
}

/// The former kernel's static configuration (`Cfg<BM,BN,BK,TX,TY>`), as values.
struct Old {
    bm: i64,
    bn: i64,
    bk: i64,
    tx: i64,
    ty: i64,
}
impl Old {
    fn thr(&self) -> DynLayout {
        ok(DynLayout::new(
            IntTuple::pair(&tuple2(8, self.tx / 8), &tuple2(4, self.ty / 4)),
            IntTuple::pair(&tuple2(1, 32), &tuple2(8, 32 * (self.tx / 8))),
        ))
    }
    fn sa(&self) -> DynLayout {
        layout2(self.bm, self.bk, 1, self.bm + 4)
    }
    fn sb(&self) -> DynLayout {
        layout2(self.bn, self.bk, 1, self.bn + 4)
    }
    fn thr_a(&self) -> Partition {
        Partition::of(
            &zd(&self.sa(), 4, 1).get(1),
            &self.thr(),
            Some(&step2(true)),
        )
    }
    fn thr_b(&self) -> Partition {
        Partition::of(
            &zd(&self.sb(), 4, 1).get(1),
            &self.thr(),
            Some(&step2(false)),
        )
    }
    fn thr_c(&self) -> Partition {
        let c = layout2(self.bm, self.bn, 1, self.bm);
        Partition::of(&zd(&c, 4, 4).get(1), &self.thr(), None)
    }
    /// `CopyPart<M, BX, BK, NT>::P`.
    fn copy(&self, k_major: bool, bx: i64) -> (Partition, i64) {
        let (bk, nt) = (self.bk, self.tx * self.ty);
        let coords = layout2(bx, bk, 1, bx);
        let (z, tl) = if k_major {
            (zd(&coords, 1, 4), layout2(nt / (bk / 4), bk / 4, bk / 4, 1))
        } else {
            (zd(&coords, 4, 1), layout2(bx / 4, nt / (bx / 4), 1, bx / 4))
        };
        (Partition::of(&z.get(1), &tl, None), bx)
    }
}

fn check<T: Cfg>(old: Old) {
    let nt = (old.tx * old.ty) as i32;
    assert_eq!(T::NT as i32, nt);
    let (ja, jb) = T::FRAGS;
    let (pa, pb, pc) = (old.thr_a(), old.thr_b(), old.thr_c());
    assert_eq!(
        (pa.val.shape[0] as usize, pb.val.shape[0] as usize),
        (ja, jb)
    );
    assert_eq!(T::LDS, ((old.bm + 4) as u32, (old.bn + 4) as u32));
    assert_eq!(T::SA_FLOATS as i64, old.sa().cosize().v);
    assert_eq!(
        T::STAGE_FLOATS as i64,
        old.sa().cosize().v + old.sb().cosize().v
    );
    for tid in 0..nt {
        // compute: the kernel's tensors tCsA / tCsB, `(V, THR)`, every value of every vector
        // at every k-step, against the old thrA / thrB tables (offsets in floats); blocks of C
        let tc = T::thr_c(tid);
        for kk in 0..old.bk {
            let (csa, csb) = T::t_cs(tid, kk as i32);
            for (i, &got) in csa.iter().enumerate() {
                let (j, v) = (i as i64 / 4, i as i64 % 4);
                let want = pa.thr_offset(tid as i64) + pa.val_offset(&[j, kk]) + v;
                assert_eq!(got as i64, want, "tCsA t{tid} v{v} j{j} k{kk}");
            }
            for (i, &got) in csb.iter().enumerate() {
                let (j, v) = (i as i64 / 4, i as i64 % 4);
                let want = pb.thr_offset(tid as i64) + pb.val_offset(&[j, kk]) + v;
                assert_eq!(got as i64, want, "tCsB t{tid} v{v} j{j} k{kk}");
            }
        }
        for jn in 0..jb {
            for jm in 0..ja {
                let idx = pc.thr_offset(tid as i64) + pc.val_offset(&[jm as i64, jn as i64]);
                // the old epilogue: gm = idx % BM, gn = idx / BM (first element of the block)
                assert_eq!(tc.at(jm, jn) as i64, idx, "thrC t{tid} ({jm},{jn})");
                let (cm, cn) = T::c_crd(idx as i32);
                assert_eq!((cm as i64, cn as i64), (idx % old.bm, idx / old.bm));
            }
        }
        // gmem -> smem copy, both majorities, A and B: (x, k) of every vector, smem offsets
        for k_major in [false, true] {
            for (bx, is_a) in [(old.bm, true), (old.bn, false)] {
                let vectors = copy_vectors::<T>(k_major, is_a, tid);
                let (p, bx) = old.copy(k_major, bx);
                assert_eq!(p.n, vectors.len(), "vectors per thread");
                for (j, &got) in vectors.iter().enumerate() {
                    let idx = p.thr_offset(tid as i64) + p.val.call(j as i64);
                    let want = ((idx % bx) as i32, (idx / bx) as i32);
                    assert_eq!(got, want, "copy k_major={k_major} a={is_a} t{tid} j{j}");
                    let (lds, s) = if is_a {
                        (old.bm + 4, T::sa(got.0, got.1))
                    } else {
                        (old.bn + 4, T::sb(got.0, got.1))
                    };
                    assert_eq!(s as i64, want.0 as i64 + want.1 as i64 * lds);
                }
            }
        }
    }
}

/// The CTA tiles of A, B, C (`local_tile` with projections over typed tensors) against the
/// former pointer formulas, both majorities, interior and edge blocks.
fn check_cta_tiles<T: Cfg>() {
    let buf = [0f32; 4];
    let base = buf.as_ptr();
    let (m, n, k, ld) = (1000i32, 700i32, 300i32, 1003i32);
    for (bx, by) in [(0, 0), (3, 2), (7, 5)] {
        for (x, kk) in [(0, 0), (5, 3), (T::BM - 1, T::BK - 1)] {
            for km in [false, true] {
                let off = |x0: i32| -> isize {
                    let g = (x0 + x) as isize;
                    if km {
                        g * ld as isize + kk as isize
                    } else {
                        g + kk as isize * ld as isize
                    }
                };
                let tile = |is_a: bool, xk: (i32, i32)| {
                    if km {
                        cta_tile_of::<T, KMajor>(is_a, base, xk, ld, (bx, by), (x, kk))
                    } else {
                        cta_tile_of::<T, MnMajor>(is_a, base, xk, ld, (bx, by), (x, kk))
                    }
                };
                // the k mode's stride: one k-tile is BK columns (MN-major) or BK elements
                let dk = if km {
                    T::BK as i64
                } else {
                    T::BK as i64 * ld as i64
                };
                let (pa, dka) = tile(true, (m, k));
                assert_eq!(pa, base.wrapping_offset(off(bx * T::BM)), "gA km={km}");
                assert_eq!(dka, dk, "gA's k stride km={km}");
                let (pb, dkb) = tile(false, (n, k));
                assert_eq!(pb, base.wrapping_offset(off(by * T::BN)), "gB km={km}");
                assert_eq!(dkb, dk, "gB's k stride km={km}");
            }
            let pc = T::g_c(base as *mut f32, (m, n), ld, (bx, by), (x, kk));
            let want = (bx * T::BM + x) as isize + (by * T::BN + kk) as isize * ld as isize;
            assert_eq!(pc as *const f32, base.wrapping_offset(want), "gC");
        }
    }
}

#[test]
fn cta_tiles_equal_the_former_pointers() {
    check_cta_tiles::<Tile128>();
    check_cta_tiles::<Tile64>();
}

#[test]
fn tile128_partitions_equal_the_former_tables() {
    check::<Tile128>(Old {
        bm: 128,
        bn: 128,
        bk: 8,
        tx: 16,
        ty: 16,
    });
}

#[test]
fn tile64_partitions_equal_the_former_tables() {
    check::<Tile64>(Old {
        bm: 64,
        bn: 64,
        bk: 8,
        tx: 8,
        ty: 8,
    });
}

/// The kernel's index logic run on the CPU: every thread of every CTA, one k-tile at a time,
/// through the typed partitions (copy vectors with the kernel's edge predicates, the k-major
/// smem tiles, thrA/thrB fragments, thrC blocks with the epilogue's predicates and `beta`),
/// for `C = alpha·op(A)·op(B) + beta·C`; `k_major_a` / `k_major_b` pick the majorities. Split-K
/// is simulated by running the k-range of each slice and adding (`beta` applied once).
#[allow(clippy::too_many_arguments)]
fn simulate<T: Cfg>(
    (m, n, k): (i32, i32, i32),
    (k_major_a, k_major_b): (bool, bool),
    kc: i32,
    a: &[f32],
    lda: i32,
    b: &[f32],
    ldb: i32,
    (alpha, beta): (f32, f32),
    c: &mut [f32],
    ldc: i32,
) {
    let (bm, bn, bk) = (T::BM, T::BN, T::BK);
    let nt = T::NT as i32;
    let off = |km: bool, ld: i32, x: i32, kk: i32| -> usize {
        (if km {
            x as i64 * ld as i64 + kk as i64
        } else {
            x as i64 + kk as i64 * ld as i64
        }) as usize
    };
    let (ja, jb) = T::FRAGS;
    let tm = 4 * ja;
    let splits = (k + kc - 1) / kc;
    for by in 0..(n + bn - 1) / bn {
        for bx in 0..(m + bm - 1) / bm {
            let (m0, n0) = (bx * bm, by * bn);
            let mut acc = vec![vec![0f32; 16 * ja * jb]; nt as usize];
            for z in 0..splits.max(1) {
                let k0 = z * kc;
                let kr = (k - k0).min(kc);
                let mut acc_z = vec![vec![0f32; 16 * ja * jb]; nt as usize];
                let mut rem = kr;
                let mut kt = 0;
                while rem > 0 {
                    // gmem -> smem (stage), every thread's copy vectors
                    let mut smem = vec![f32::NAN; T::STAGE_FLOATS as usize];
                    for tid in 0..nt {
                        for (is_a, km, x0, xs, ld, src) in [
                            (true, k_major_a, m0, m, lda, a),
                            (false, k_major_b, n0, n, ldb, b),
                        ] {
                            for (x, kk) in copy_vectors::<T>(km, is_a, tid) {
                                let (dx, dk) = if km { (0, 1) } else { (1, 0) };
                                for i in 0..4 {
                                    let (gx, gk) = (x0 + x + i * dx, kk + i * dk);
                                    let v = if gx < xs && gk < rem {
                                        src[off(km, ld, gx, k0 + kt * bk + gk)]
                                    } else {
                                        0.0
                                    };
                                    let s = if is_a {
                                        T::sa(x + i * dx, kk + i * dk)
                                    } else {
                                        T::SA_FLOATS as i32 + T::sb(x + i * dx, kk + i * dk)
                                    } as usize;
                                    assert!(smem[s].is_nan(), "smem element {s} written twice");
                                    smem[s] = v;
                                }
                            }
                        }
                    }
                    // compute: the fragment reads tCsA / tCsB -> tCrA / tCrB, outer products
                    for tid in 0..nt {
                        for kk in 0..bk {
                            let (csa, csb) = T::t_cs(tid, kk);
                            let af: Vec<f32> = csa.iter().map(|&o| smem[o as usize]).collect();
                            let bf: Vec<f32> = csb
                                .iter()
                                .map(|&o| smem[(T::SA_FLOATS as i32 + o) as usize])
                                .collect();
                            for jn in 0..4 * jb {
                                for im in 0..tm {
                                    let r = &mut acc_z[tid as usize][im + tm * jn];
                                    assert!(
                                        !af[im].is_nan() && !bf[jn].is_nan(),
                                        "unwritten smem read"
                                    );
                                    *r = af[im].mul_add(bf[jn], *r);
                                }
                            }
                        }
                    }
                    rem -= bk;
                    kt += 1;
                }
                for (t, a_z) in acc.iter_mut().zip(&acc_z) {
                    for (x, y) in t.iter_mut().zip(a_z) {
                        *x += y;
                    }
                }
            }
            // epilogue: thrC's 4x4 blocks, predicated on (M, N); beta == 0 never reads C
            for tid in 0..nt {
                let pc = T::thr_c(tid);
                for jn in 0..jb {
                    for jm in 0..ja {
                        let (cm, cn) = T::c_crd(pc.at(jm, jn));
                        for vn in 0..4 {
                            for i in 0..4 {
                                let (gm, gn) = (m0 + cm + i as i32, n0 + cn + vn as i32);
                                if gm < m && gn < n {
                                    let r = acc[tid as usize][4 * jm + i + tm * (4 * jn + vn)];
                                    let q = &mut c[(gm + gn * ldc) as usize];
                                    *q = if beta != 0.0 {
                                        beta.mul_add(*q, alpha * r)
                                    } else {
                                        alpha * r
                                    };
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn sim_case<T: Cfg>((m, n, k): (i32, i32, i32), ka: bool, kb: bool, kc: i32, beta: f32) {
    // op(A) is (M,K): stored (M,K):(_1,lda) (MN-major) or (K,M) column-major (K-major)
    let (lda, ldb, ldc) = (
        if ka { k + 3 } else { m + 1 },
        if kb { k + 2 } else { n + 5 },
        m + 2,
    );
    let a_len = (if ka { m * lda } else { k * lda }) as usize;
    let b_len = (if kb { n * ldb } else { k * ldb }) as usize;
    let a: Vec<f32> = (0..a_len).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..b_len).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let mut c: Vec<f32> = (0..(ldc * n) as usize).map(|i| (i % 3) as f32).collect();
    if beta == 0.0 {
        c.iter_mut().for_each(|x| *x = f32::NAN);
    }
    let c0 = c.clone();
    let alpha = 2.0f32;
    simulate::<T>(
        (m, n, k),
        (ka, kb),
        kc,
        &a,
        lda,
        &b,
        ldb,
        (alpha, beta),
        &mut c,
        ldc,
    );
    for j in 0..n {
        for i in 0..m {
            let mut s = 0f64;
            for l in 0..k {
                let x = a[(if ka { i * lda + l } else { i + l * lda }) as usize];
                let y = b[(if kb { j * ldb + l } else { j + l * ldb }) as usize];
                s += x as f64 * y as f64;
            }
            let idx = (i + j * ldc) as usize;
            let want = alpha as f64 * s
                + if beta != 0.0 {
                    beta as f64 * c0[idx] as f64
                } else {
                    0.0
                };
            assert_eq!(
                c[idx] as f64, want,
                "C({i},{j}) ka={ka} kb={kb} ({m},{n},{k}) kc={kc}"
            );
        }
    }
    // the padding rows of C (m..ldc) are never written
    for j in 0..n {
        for i in m..ldc {
            let idx = (i + j * ldc) as usize;
            assert!(
                c[idx].to_bits() == c0[idx].to_bits(),
                "C pad ({i},{j}) written"
            );
        }
    }
}

#[test]
fn tile64_gemm_on_the_cpu_all_majorities_and_edges() {
    for (ka, kb) in [(false, true), (false, false), (true, true), (true, false)] {
        sim_case::<Tile64>((64, 64, 16), ka, kb, 16, 1.0);
        sim_case::<Tile64>((70, 45, 13), ka, kb, 1 << 20, -1.0);
        sim_case::<Tile64>((33, 130, 21), ka, kb, 8, 0.0);
    }
}

#[test]
fn tile128_gemm_on_the_cpu_all_majorities_and_edges() {
    for (ka, kb) in [(false, true), (false, false), (true, true), (true, false)] {
        sim_case::<Tile128>((130, 129, 11), ka, kb, 8, 0.5);
        sim_case::<Tile128>((128, 128, 16), ka, kb, 1 << 20, 0.0);
    }
}
