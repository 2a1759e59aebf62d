//! `local_partition` split into its static and dynamic halves, for kernels.
//!
//! CuTe's `local_partition(tile, thr_layout, idx, proj)` is `outer_partition(tile,
//! shape(dice(proj, thr)), dice(proj, thr.get_flat_coord(idx)))`: a `zipped_divide` of the
//! tile by the (projected) thread shape, the thread modes sliced at the thread's coordinate.
//! With a static tile and a static thread layout, everything but the thread index is a
//! compile-time constant: [`Partition::of`] runs in `const` context and gives
//! - `thr`: the thread modes of the divided tile (thread coordinate → offset in the tile),
//! - `val`: the rest modes (this thread's values → offset, relative to its first value),
//! - `tl`: the (full) thread layout, to turn a thread index into its coordinate.
//!
//! At run time only [`Partition::thr_offset`] depends on the thread index; its loops run over
//! constant arrays and fold to a few shifts/ands.

use layout_types::value::algebra::Tiler;
use layout_types::value::divide::zipped_divide;
use layout_types::value::layout::ok;
use layout_types::{value::int_tuple::IntTuple, value::layout::DynLayout};

/// A thread partition of a static tile (see the module docs).
#[derive(Clone, Copy)]
pub struct Partition {
    /// Thread modes of `zipped_divide(tile, shape(dice(proj, thr)))`.
    pub thr: FlatLayout,
    /// Value modes: the per-thread sub-tile.
    pub val: FlatLayout,
    /// The whole thread layout (before projection).
    pub tl: FlatLayout,
    /// Which top-level thread modes the projection keeps (`true` = kept), in order.
    pub keep: [bool; 8],
    /// Number of values per thread (`size(val)`).
    pub n: usize,
}

impl Partition {
    /// `local_partition(tile, thr, _, proj)` with `proj` a `Step` (`None`: keep all modes).
    ///
    /// The thread layout must be compact (a bijection onto `0..size`), as CuTe's thread
    /// layouts are; checked here, so a bad one is a compile error.
    pub const fn of(tile: &DynLayout, thr: &DynLayout, proj: Option<&IntTuple>) -> Partition {
        let tl = match proj {
            Some(p) => ok(thr.dice(p)),
            None => *thr,
        };
        let tiler: Tiler = match Tiler::from_shape(&tl.shape.product_each()) {
            Ok(t) => t,
            Err(e) => e.panic(),
        };
        let z = ok(zipped_divide(tile, &tiler));
        let full = FlatLayout::of(thr);
        // compactness: strides of the leaves, sorted, are the prefix products of their shapes.
        let size = thr.size().v;
        let mut seen = 1i64;
        let mut k = 0;
        while k < full.n {
            let mut found = false;
            let mut i = 0;
            while i < full.n {
                if full.shape[i] > 1 && full.stride[i] == seen {
                    seen *= full.shape[i];
                    found = true;
                    break;
                }
                i += 1;
            }
            if !found {
                break;
            }
            k += 1;
        }
        if seen != size {
            panic!("local_partition: the thread layout must be compact (a bijection onto 0..size)");
        }
        let mut keep = [true; 8];
        if let Some(p) = proj
            && p.is_tuple()
        {
            let mut m = 0;
            while m < p.rank() {
                let s = p.get(m);
                keep[m] = !(s.is_x() || s.is_under());
                m += 1;
            }
        }
        let val = z.get(1);
        Partition {
            thr: FlatLayout::of(&z.get(0)),
            val: FlatLayout::of(&val),
            tl: full,
            keep,
            n: val.size().v as usize,
        }
    }

    /// Offset in the tile of thread `t`'s first value: the thread's coordinate in the full
    /// thread layout, projected, through the thread modes of the divided tile.
    #[inline(always)]
    pub const fn thr_offset(&self, t: i64) -> i64 {
        let mut crd = [0i64; 8];
        let mut kept = 0;
        let mut m = 0;
        let mut b = 0;
        while m < self.tl.rank {
            // 1-D coordinate within top-level mode m: colex over its leaves.
            let mut c = 0;
            let mut scale = 1;
            let mut i = b;
            while i < self.tl.mode_end[m] {
                if self.tl.shape[i] > 1 {
                    c += ((t / self.tl.stride[i]) % self.tl.shape[i]) * scale;
                }
                scale *= self.tl.shape[i];
                i += 1;
            }
            if self.keep[m] {
                crd[kept] = c;
                kept += 1;
            }
            b = self.tl.mode_end[m];
            m += 1;
        }
        self.thr.crd(&crd)
    }

    /// Offset of value `(c0, c1, ...)` (one 1-D coordinate per value mode).
    #[inline(always)]
    pub const fn val_offset(&self, c: &[i64]) -> i64 {
        self.val.crd(c)
    }
}

/// The flattened form of a static layout (the old kernel's constant tables): leaf shapes and
/// strides and where each top-level mode ends.
#[derive(Clone, Copy, Debug)]
pub struct FlatLayout {
    /// Number of leaves.
    pub n: usize,
    /// Leaf shapes.
    pub shape: [i64; 32],
    /// Leaf strides.
    pub stride: [i64; 32],
    /// Number of top-level modes.
    pub rank: usize,
    /// One past the last leaf of each top-level mode.
    pub mode_end: [usize; 16],
}

impl FlatLayout {
    /// Flattens a layout.
    pub const fn of(l: &DynLayout) -> FlatLayout {
        let fs = l.shape.flatten_to_tuple();
        let fd = l.stride.flatten_to_tuple();
        let n = fs.rank();
        let mut shape = [1i64; 32];
        let mut stride = [0i64; 32];
        let mut i = 0;
        while i < n {
            shape[i] = fs.get(i).val().v;
            stride[i] = fd.get(i).val().v;
            i += 1;
        }
        let rank = l.rank();
        let mut mode_end = [0usize; 16];
        let mut acc = 0;
        let mut m = 0;
        while m < rank {
            acc += l.shape.get(m).leaf_count();
            mode_end[m] = acc;
            m += 1;
        }
        FlatLayout {
            n,
            shape,
            stride,
            rank,
            mode_end,
        }
    }
    const fn eval_range(&self, mut c: i64, b: usize, e: usize) -> i64 {
        let mut r = 0;
        let mut k = b;
        while k < e {
            if k + 1 == e {
                r += c * self.stride[k];
            } else {
                r += (c % self.shape[k]) * self.stride[k];
                c /= self.shape[k];
            }
            k += 1;
        }
        r
    }
    /// `layout(i)`: the index of 1-D coordinate `i` (the last leaf takes the remainder).
    pub const fn call(&self, i: i64) -> i64 {
        self.eval_range(i, 0, self.n)
    }
    /// The index of a coordinate with one (1-D) entry per top-level mode.
    pub const fn crd(&self, c: &[i64]) -> i64 {
        let mut r = 0;
        let mut m = 0;
        let mut b = 0;
        while m < self.rank {
            r += self.eval_range(c[m], b, self.mode_end[m]);
            b = self.mode_end[m];
            m += 1;
        }
        r
    }
}
