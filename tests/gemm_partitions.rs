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

use layout_types::{DynLayout, IntTuple, static_layout::ok};
use old_part::Partition;
use tiles::{GemmTiles, Part, Tile64, Tile128};

fn tuple2(a: i64, b: i64) -> IntTuple {
    IntTuple::pair(&IntTuple::st(a), &IntTuple::st(b))
}
fn layout2(s0: i64, s1: i64, d0: i64, d1: i64) -> DynLayout {
    ok(DynLayout::new(tuple2(s0, s1), tuple2(d0, d1)))
}
fn zd(l: &DynLayout, v0: i64, v1: i64) -> DynLayout {
    let t = layout_types::algebra::Tiler::from_shape(&tuple2(v0, v1)).unwrap();
    ok(layout_types::divide::zipped_divide(l, &t))
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

fn check<T: GemmTiles>(old: Old) {
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
        // compute: fragments of sA / sB (4-vectors, offsets in floats), blocks of C
        let (ta, tb) = (T::thr_a(tid), T::thr_b(tid));
        let tc = T::thr_c(tid);
        for kk in 0..old.bk as usize {
            for j in 0..ja {
                let want = pa.thr_offset(tid as i64) + pa.val_offset(&[j as i64, kk as i64]);
                assert_eq!(ta.at(j, kk) as i64, want, "thrA t{tid} j{j} k{kk}");
            }
            for j in 0..jb {
                let want = pb.thr_offset(tid as i64) + pb.val_offset(&[j as i64, kk as i64]);
                assert_eq!(tb.at(j, kk) as i64, want, "thrB t{tid} j{j} k{kk}");
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
            for (bx, cnt, is_a) in [
                (old.bm, T::COPY_A[k_major as usize], true),
                (old.bn, T::COPY_B[k_major as usize], false),
            ] {
                let (p, bx) = old.copy(k_major, bx);
                assert_eq!(p.n, cnt, "vectors per thread");
                for j in 0..cnt {
                    let idx = p.thr_offset(tid as i64) + p.val.call(j as i64);
                    let want = ((idx % bx) as i32, (idx / bx) as i32);
                    let got = if is_a {
                        T::copy_a(k_major, tid, j)
                    } else {
                        T::copy_b(k_major, tid, j)
                    };
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
