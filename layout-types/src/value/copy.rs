//! Tiled copies: thread-value (TV) layouts built from a thread layout and a value layout, as
//! CuTe's `make_tiled_copy` does, and the per-thread partitioning they imply.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::copy::TvLayout};
//! let thr: DynLayout = "(_8,_4):(_1,_8)".parse().unwrap();
//! let val: DynLayout = "(_8,_1):(_1,_0)".parse().unwrap();
//! let tv = TvLayout::new(&thr, &val).unwrap();
//! assert_eq!(tv.layout_tv.to_string(), "(_32,_8):(_8,_1)");
//! assert_eq!(tv.tiler.to_string(), "(_64,_4)");
//! ```

use crate::value::algebra::{Tiler, coalesce, composition, right_inverse};
use crate::value::divide::zipped_divide;
use crate::value::int_tuple::IntTuple;
use crate::value::product::raked_product;
use crate::value::tensor::{Engine, Tensor};
use crate::{Error, tri, value::layout::DynLayout};

/// The layouts of a TiledCopy: `(thr, val) -> (m, n)` and the `(M, N)` tile it covers.
#[derive(Clone, Copy, Debug)]
pub struct TvLayout {
    /// `TiledLayout_TV`: `(thread index, value index) -> index in the (M,N) tile` (column-major).
    pub layout_tv: DynLayout,
    /// `Tiler_MN`: the shape of the tile one copy step covers.
    pub tiler: IntTuple,
    /// Number of threads.
    pub threads: i64,
    /// Values per thread.
    pub values: i64,
}

impl TvLayout {
    /// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)`: `layout_mn = raked_product(thr, val)`,
    /// `layout_tv = right_inverse(layout_mn).with_shape(size(thr), size(val))`,
    /// `tiler = product_each(shape(layout_mn))`.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::TvLayout};
    /// let thr: DynLayout = "(_4,_1):(_1,_0)".parse().unwrap(); // 4 threads down the rows
    /// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap(); // 4 values along each row
    /// let tv = TvLayout::new(&thr, &val).unwrap();
    /// // thread t, value v holds (t, v): column-major index t + 4v of the 4x4 tile
    /// assert_eq!(tv.layout_tv.to_string(), "(_4,_4):(_1,_4)");
    /// assert_eq!((tv.tiler.to_string().as_str(), tv.threads, tv.values), ("(_4,_4)", 4, 4));
    /// ```
    pub const fn new(thr: &DynLayout, val: &DynLayout) -> Result<TvLayout, Error> {
        let mn = tri!(raked_product(thr, val));
        let inv = right_inverse(&mn);
        let tv_shape = IntTuple::pair(&IntTuple::leaf(thr.size()), &IntTuple::leaf(val.size()));
        let tv = tri!(composition(&inv, &DynLayout::make_layout(&tv_shape, false)));
        Ok(TvLayout {
            layout_tv: tv,
            tiler: mn.shape.product_each(),
            threads: thr.size().v,
            values: val.size().v,
        })
    }
}

/// How a copy atom moves its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyOp {
    /// One element per instruction (`UniversalCopy<T>`).
    Element,
    /// 128-bit vector loads/stores: `ld.global.v4` / `st.shared.v4` (`UniversalCopy<uint128_t>`).
    Vec128,
    /// `cp.async.cg.shared.global` 16 bytes (`SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`).
    CpAsync16,
    /// `cp.async.bulk.global.shared::cta` of the given number of bytes, a multiple of 16
    /// (`SM90_BULK_COPY_S2G`: the TMA unit copies a contiguous run of shared memory to global
    /// memory, asynchronously; see `device::tma::tma_store_fence`).
    BulkS2G(i64),
}

/// A copy atom: one thread moving `vals()` contiguous elements of `elem_bytes` bytes at once
/// (CuTe's `Copy_Atom<Op, T>`; all atoms here are single-thread).
///
/// ```
/// use layout_types::value::copy::{DynCopyAtom, CopyOp};
/// assert_eq!(DynCopyAtom::new(CopyOp::Vec128, 4).vals(), 4);   // float4
/// assert_eq!(DynCopyAtom::new(CopyOp::CpAsync16, 2).vals(), 8); // 8 halves
/// assert_eq!(DynCopyAtom::new(CopyOp::Element, 2).vals(), 1);
/// assert_eq!(DynCopyAtom::new(CopyOp::BulkS2G(256), 4).vals(), 64); // a 256-byte bulk copy
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynCopyAtom {
    /// The instruction.
    pub op: CopyOp,
    /// Bytes per element.
    pub elem_bytes: i64,
}

impl DynCopyAtom {
    /// An atom for elements of `elem_bytes` bytes.
    ///
    /// ```
    /// use layout_types::value::copy::{DynCopyAtom, CopyOp};
    /// let atom = DynCopyAtom::new(CopyOp::CpAsync16, 2); // cp.async of 16 bytes of halves
    /// assert_eq!((atom.op, atom.elem_bytes, atom.vals()), (CopyOp::CpAsync16, 2, 8));
    /// ```
    pub const fn new(op: CopyOp, elem_bytes: i64) -> DynCopyAtom {
        DynCopyAtom { op, elem_bytes }
    }
    /// Elements moved per instruction (`AtomNumVal`).
    ///
    /// ```
    /// use layout_types::value::copy::{DynCopyAtom, CopyOp};
    /// assert_eq!(DynCopyAtom::new(CopyOp::Vec128, 2).vals(), 8);         // 8 halves in 128 bits
    /// assert_eq!(DynCopyAtom::new(CopyOp::BulkS2G(512), 8).vals(), 64);  // 64 doubles in 512 bytes
    /// ```
    pub const fn vals(&self) -> i64 {
        match self.op {
            CopyOp::Element => 1,
            CopyOp::Vec128 | CopyOp::CpAsync16 => 16 / self.elem_bytes,
            CopyOp::BulkS2G(bytes) => bytes / self.elem_bytes,
        }
    }
    /// Bytes moved per instruction (also the alignment it needs).
    ///
    /// ```
    /// use layout_types::value::copy::{DynCopyAtom, CopyOp};
    /// assert_eq!(DynCopyAtom::new(CopyOp::Vec128, 4).bytes(), 16);
    /// assert_eq!(DynCopyAtom::new(CopyOp::Element, 2).bytes(), 2);
    /// ```
    pub const fn bytes(&self) -> i64 {
        self.vals() * self.elem_bytes
    }
}

/// A TiledCopy: an atom, tiled over threads and values by a [`TvLayout`].
#[derive(Clone, Copy, Debug)]
pub struct TiledCopy {
    /// The atom.
    pub atom: DynCopyAtom,
    /// `(thr, val) -> (m, n)` and the tile it covers.
    pub tv: TvLayout,
}

/// CuTe's `make_tiled_copy(copy_atom, thr_layout, val_layout)`. The values of each thread must
/// be a whole number of atoms.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::copy::*};
/// let thr: DynLayout = "(_32,_8):(_8,_1)".parse().unwrap(); // 32x8 threads, row-major ids
/// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap();  // 4 contiguous values along n
/// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
/// assert_eq!(tc.tv.tiler.to_string(), "(_32,_32)");
/// assert_eq!(tc.tv.layout_tv.to_string(), "((_8,_32),_4):((_128,_1),_32)");
/// let bad: DynLayout = "(_1,_2):(_0,_1)".parse().unwrap();
/// assert!(make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &bad).is_err());
/// // 3-byte values do not fill a 16-byte instruction
/// let e = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 3), &thr, &val).unwrap_err();
/// assert_eq!((e.vals, e.nvals), ([16, 3], 2));
/// ```
pub const fn make_tiled_copy(
    atom: DynCopyAtom,
    thr: &DynLayout,
    val: &DynLayout,
) -> Result<TiledCopy, Error> {
    let tv = tri!(TvLayout::new(thr, val));
    // CuTe's Copy_Atom: the instruction moves whole values
    let op_bytes = match atom.op {
        CopyOp::Element => atom.elem_bytes,
        CopyOp::Vec128 | CopyOp::CpAsync16 => 16,
        CopyOp::BulkS2G(bytes) => bytes,
    };
    if atom.elem_bytes <= 0 || op_bytes % atom.elem_bytes != 0 {
        return Err(Error::with2(
            "Copy_Atom: the instruction's bytes must be a multiple of the value's bytes (instruction bytes, value bytes)",
            op_bytes,
            atom.elem_bytes,
        ));
    }
    if tv.values % atom.vals() != 0 {
        return Err(Error::with2(
            "make_tiled_copy: values per thread must be a multiple of the atom's values (values, atom values)",
            tv.values,
            atom.vals(),
        ));
    }
    Ok(TiledCopy { atom, tv })
}

impl TiledCopy {
    /// `(thr, (atom_val, rest_val)) -> (m, n)`: the TV layout with its value mode split by atom.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::*};
    /// let thr: DynLayout = "(_4,_1):(_1,_0)".parse().unwrap();
    /// let val: DynLayout = "(_1,_8):(_0,_1)".parse().unwrap(); // 8 values along n: two float4s
    /// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
    /// assert_eq!(tc.tv.layout_tv.to_string(), "(_4,_8):(_1,_4)");
    /// // value a + 4r (atom value a, atom r) is column a + 4r: index 4a + 16r in the 4x8 tile
    /// assert_eq!(tc.layout_tv_atoms().unwrap().to_string(), "(_4,(_4,_2)):(_1,(_4,_16))");
    /// ```
    pub const fn layout_tv_atoms(&self) -> Result<DynLayout, Error> {
        let a = self.atom.vals();
        let shape = IntTuple::pair(
            &IntTuple::st(self.tv.threads),
            &IntTuple::pair(&IntTuple::st(a), &IntTuple::st(self.tv.values / a)),
        );
        composition(&self.tv.layout_tv, &DynLayout::make_layout(&shape, false))
    }

    /// CuTe's `tidfrg_S`/`tidfrg_D`: a layout over an `(M, N, ...)` tensor becomes
    /// `(thr, (atom_val, rest_val), (rest_m, rest_n, ...))` (plus an offset-free layout).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::*};
    /// # let thr: DynLayout = "(_4,_1):(_1,_0)".parse().unwrap();
    /// # let val: DynLayout = "(_1,_8):(_0,_1)".parse().unwrap();
    /// // 4 threads, each 2 float4s along one row of a 4x8 tile
    /// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
    /// let f = tc.tidfrg(&"(_8,_16):(_16,_1)".parse().unwrap()).unwrap(); // a row-major 8x16
    /// // thread t: row t (16); values: columns a + 4r (1, 4); 2x2 tiles of 4x8 (64, 8)
    /// assert_eq!(f.to_string(), "(_4,(_4,_2),(_2,_2)):(_16,(_1,_4),(_64,_8))");
    /// ```
    pub const fn tidfrg(&self, l: &DynLayout) -> Result<DynLayout, Error> {
        let tiler = tri!(Tiler::from_shape(&self.tv.tiler));
        let z = tri!(zipped_divide(l, &tiler));
        let tile = z.get(0);
        let thrval = tri!(composition(&tile, &tri!(self.layout_tv_atoms())));
        Ok(DynLayout::from_modes(&[
            thrval.get(0),
            thrval.get(1),
            z.get(1),
        ]))
    }

    /// `tiled_copy.get_slice(thr_idx)`.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::*, value::tensor::{Tensor, Offset}};
    /// # let thr: DynLayout = "(_4,_1):(_1,_0)".parse().unwrap();
    /// # let val: DynLayout = "(_1,_8):(_0,_1)".parse().unwrap();
    /// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
    /// let g = Tensor::new(Offset(0), "(_8,_16):(_16,_1)".parse().unwrap());
    /// let p = tc.get_slice(3).partition_s(&g).unwrap();
    /// assert_eq!(p.engine.0, 3 * 16); // thread 3 starts at row 3
    /// assert_eq!(p.layout.to_string(), "((_4,_2),(_2,_2)):((_1,_4),(_64,_8))");
    /// ```
    pub const fn get_slice(&self, thr_idx: i64) -> ThrCopy {
        ThrCopy {
            copy: *self,
            thr_idx,
        }
    }
}

/// One thread's view of a [`TiledCopy`] (CuTe's `ThrCopy`).
#[derive(Clone, Copy, Debug)]
pub struct ThrCopy {
    /// The tiled copy.
    pub copy: TiledCopy,
    /// This thread.
    pub thr_idx: i64,
}

impl ThrCopy {
    /// `partition_S(tensor)`: this thread's `(CPY, CPY_M, CPY_N, ...)` view of a source tensor,
    /// `CPY = (atom_val, rest_val)`. Fails (with the values) when the atom's vector is not
    /// contiguous or not aligned in this tensor (see [`check_vector`]).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::*, value::tensor::{Tensor, Offset}};
    /// let thr: DynLayout = "(_32,_8):(_8,_1)".parse().unwrap();
    /// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap();
    /// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
    /// let g = Tensor::new(Offset(0), "(_64,_64):(_64,_1)".parse().unwrap()); // row-major tile
    /// let p = tc.get_slice(9).partition_s(&g).unwrap();
    /// assert_eq!(p.layout.to_string(), "((_4,_1),(_2,_2)):((_1,_0),(_2048,_32))");
    /// assert_eq!(p.engine.0, 64 + 4); // thread 9: row 1, column 4
    /// // column-major storage cannot take 4 contiguous values along n:
    /// let c = Tensor::new(Offset(0), "(_64,_64):(_1,_64)".parse().unwrap());
    /// assert!(tc.get_slice(0).partition_s(&c).is_err());
    /// ```
    pub fn partition_s<E: Engine>(&self, t: &Tensor<E>) -> Result<Tensor<E>, Error> {
        let f = self.copy.tidfrg(&t.layout)?;
        let (l, off) = f.slice_and_offset(&thr_coord(self.thr_idx));
        check_vector(&l, off.v, self.copy.atom.vals())?;
        Ok(Tensor {
            engine: t.engine.advance(off.v),
            layout: l,
        })
    }
    /// `partition_D(tensor)`: as [`Self::partition_s`], for the destination.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::copy::*, value::tensor::{Tensor, Offset}};
    /// # let thr: DynLayout = "(_4,_1):(_1,_0)".parse().unwrap();
    /// # let val: DynLayout = "(_1,_8):(_0,_1)".parse().unwrap();
    /// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
    /// // an 8x16 destination padded to rows of 20 elements: float4s stay aligned
    /// let s = Tensor::new(Offset(0), "(_8,_16):(_20,_1)".parse().unwrap());
    /// let p = tc.get_slice(2).partition_d(&s).unwrap();
    /// assert_eq!((p.layout.to_string().as_str(), p.engine.0), ("((_4,_2),(_2,_2)):((_1,_4),(_80,_8))", 40));
    /// // rows of 18: thread 1's float4 would start at element 18, not a multiple of 4
    /// let bad = Tensor::new(Offset(0), "(_8,_16):(_18,_1)".parse().unwrap());
    /// assert_eq!(tc.get_slice(1).partition_d(&bad).unwrap_err().vals, [18, 4]);
    /// ```
    pub fn partition_d<E: Engine>(&self, t: &Tensor<E>) -> Result<Tensor<E>, Error> {
        self.partition_s(t)
    }
}

/// Vector-width legality of a partitioned `((atom_val, rest_val), rest...)` layout at `offset`:
/// the atom's `vals` elements are contiguous (stride 1) and every vector starts at a multiple of
/// `vals` (all other strides and the offset are multiples of it). Static layouts call it in a
/// `const` (a compile error with the values), dynamic ones at run time.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::copy::check_vector};
/// let ok: DynLayout = "((_4,_2),_8):((_1,_64),1024)".parse().unwrap();
/// assert!(check_vector(&ok, 8, 4).is_ok());
/// let ld: DynLayout = "((_4,_2),_8):((_1,_64),1023)".parse().unwrap(); // odd leading dimension
/// assert_eq!(check_vector(&ld, 0, 4).unwrap_err().vals, [1023, 4]);
/// ```
pub const fn check_vector(l: &DynLayout, offset: i64, vals: i64) -> Result<(), Error> {
    if vals <= 1 {
        return Ok(());
    }
    let cpy = l.get(0);
    let atom = coalesce(&if cpy.shape.is_tuple() {
        cpy.get(0)
    } else {
        cpy
    });
    let shape = atom.shape.product().v;
    if shape != vals || (vals > 1 && atom.stride.flatten_to_tuple().get(0).val().v != 1) {
        return Err(Error::with2(
            "vector copy: the atom's values are not contiguous (values, atom width)",
            shape,
            vals,
        ));
    }
    if offset % vals != 0 {
        return Err(Error::with2(
            "vector copy: misaligned start offset (offset, atom width)",
            offset,
            vals,
        ));
    }
    let fs = l.shape.flatten_to_tuple();
    let fd = l.stride.flatten_to_tuple();
    let mut k = 1; // leaf 0 is the atom's contiguous mode
    while k < fs.rank() {
        let s = fd.get(k).val().v;
        if fs.get(k).val().v != 1 && s % vals != 0 {
            return Err(Error::with2(
                "vector copy: a stride is not a multiple of the atom width (stride, atom width)",
                s,
                vals,
            ));
        }
        k += 1;
    }
    Ok(())
}

/// Vector legality of a static tile layout for a TiledCopy: every thread's atoms land on
/// contiguous, aligned elements of `tile` (e.g. a shared-memory layout). Used by kernels in a
/// `const` block, so an illegal combination is a compile error naming the values.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::copy::*};
/// let thr: DynLayout = "(_8,_32):(_32,_1)".parse().unwrap();
/// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap();
/// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
/// assert!(check_tiled_vector(&tc, &"(_64,_128):(_128,_1)".parse().unwrap()).is_ok());
/// assert!(check_tiled_vector(&tc, &"(_64,_128):(_1,_64)".parse().unwrap()).is_err());
/// ```
pub const fn check_tiled_vector(tc: &TiledCopy, tile: &DynLayout) -> Result<(), Error> {
    let f = tri!(tc.tidfrg(tile));
    // Fast path (a constant-evaluation cost of one slice instead of one per thread): slicing
    // the thread mode leaves the same value layout for every thread, and the threads' start
    // offsets `f(t, 0, 0)` are all aligned iff every stride of a non-trivial leaf of the
    // thread mode is. Anything else falls through to the per-thread scan, which names the
    // first failing thread's values.
    let thr = f.get(0);
    if thr.size().v == tc.tv.threads {
        let (l, off) = f.slice_and_offset(&thr_coord(0));
        let vals = tc.atom.vals();
        let fs = thr.shape.flatten_to_tuple();
        let fd = thr.stride.flatten_to_tuple();
        let mut aligned = off.v % vals == 0;
        let mut k = 0;
        while k < fs.rank() {
            if fs.get(k).val().v != 1 && fd.get(k).val().v % vals != 0 {
                aligned = false;
            }
            k += 1;
        }
        if aligned && check_vector(&l, off.v, vals).is_ok() {
            return Ok(());
        }
    }
    let mut t = 0;
    while t < tc.tv.threads {
        let (l, off) = f.slice_and_offset(&thr_coord(t));
        tri!(check_vector(&l, off.v, tc.atom.vals()));
        t += 1;
    }
    Ok(())
}

/// The coordinate `(thr, _, _)` selecting one thread of a `tidfrg` layout.
const fn thr_coord(t: i64) -> IntTuple {
    let mut c = IntTuple::empty();
    c.push(&IntTuple::dy(t));
    c.push(&IntTuple::under());
    c.push(&IntTuple::under());
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-thread definition of [`check_tiled_vector`], for comparison with its fast path.
    fn scan(tc: &TiledCopy, tile: &DynLayout) -> bool {
        let f = tc.tidfrg(tile).unwrap();
        (0..tc.tv.threads).all(|t| {
            let (l, off) = f.slice_and_offset(&thr_coord(t));
            check_vector(&l, off.v, tc.atom.vals()).is_ok()
        })
    }

    #[test]
    fn fast_path_agrees_with_the_per_thread_scan() {
        let thrs = [
            "(_8,_32):(_32,_1)",
            "(_32,_8):(_1,_32)",
            "(_16,_16):(_16,_1)",
            "(_4,_2):(_2,_1)",
        ];
        let vals = [
            "(_1,_4):(_0,_1)",
            "(_4,_1):(_1,_0)",
            "(_1,_8):(_0,_1)",
            "(_2,_2):(_2,_1)",
        ];
        let tiles = [
            "(_64,_128):(_128,_1)",
            "(_64,_128):(_1,_64)",
            "(_128,_64):(_1,_128)",
            "(_64,_128):(_130,_1)",
            "(_64,_128):(_129,_1)",
            "(_32,_32):(_32,_1)",
            "(_64,_64):(_1,_66)",
        ];
        let mut checked = 0;
        for (op, elem) in [
            (CopyOp::Vec128, 4),
            (CopyOp::Vec128, 2),
            (CopyOp::Element, 4),
        ] {
            for thr in thrs {
                for val in vals {
                    let Ok(tc) = make_tiled_copy(
                        DynCopyAtom::new(op, elem),
                        &thr.parse().unwrap(),
                        &val.parse().unwrap(),
                    ) else {
                        continue;
                    };
                    for tile in tiles {
                        let tile: DynLayout = tile.parse().unwrap();
                        if tc.tidfrg(&tile).is_err() {
                            continue;
                        }
                        assert_eq!(
                            check_tiled_vector(&tc, &tile).is_ok(),
                            scan(&tc, &tile),
                            "{thr} {val} {tile}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} combinations checked");
    }
}
