//! Shared-memory bank conflicts of a TiledCopy over a static smem layout, decided at compile
//! time.
//!
//! Shared memory is 32 banks of 4-byte words. A warp-wide access of `B` bytes per lane is served
//! in phases of `128 / B` lanes (8 lanes for 16-byte vectors, 16 for 8 bytes, all 32 for 4 bytes
//! or less); within a phase, lanes that touch *different* words of the same bank are serialized
//! (lanes reading the same word share it: a broadcast). An access is conflict-free when every
//! phase touches each bank in at most one word, i.e. it costs one wavefront per phase.
//!
//! [`check_conflict_free`] walks every warp access a TiledCopy makes over a tile in shared memory
//! (thread slice of `tidfrg(smem)`: every thread, every value group, every tile iteration),
//! through an optional swizzle, and names the first conflict it finds. Used in a `const` item of
//! a kernel, a layout that conflicts is a compile error (`BankConflictFree` in
//! [`crate::check`] is the static form).

use crate::value::copy::TiledCopy;
use crate::value::swizzle::DynSwizzle;
use crate::{Error, value::layout::DynLayout};

/// Threads per warp.
pub const WARP: i64 = 32;
/// Banks of shared memory (4-byte words).
pub const BANKS: i64 = 32;

/// The first conflict of a warp access pattern (everything a message needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The warp.
    pub warp: i64,
    /// The access: value group (first value index) of the thread's slice.
    pub value: i64,
    /// The tile iteration (index over `tidfrg`'s rest modes).
    pub iteration: i64,
    /// The two lanes of one phase that hit different words of one bank.
    pub lanes: (i64, i64),
    /// Their byte addresses (tile-relative, after the swizzle).
    pub bytes: (i64, i64),
    /// The bank.
    pub bank: i64,
    /// Distinct words of that bank in that phase (the wavefronts it costs).
    pub ways: i64,
}

/// The bank conflicts of a TiledCopy's accesses to `smem` (element offsets, swizzled by
/// `swizzle`; `DynSwizzle::identity()` for a plain layout), `vec` consecutive elements of
/// `elem_bytes` per lane and instruction (`vec` = the atom's values for a vector copy, 1 for
/// per-element loads/stores). `Ok(None)`: conflict-free; `Ok(Some(c))`: the first conflict.
///
/// ```
/// use layout_types::{value::layout::DynLayout, check::bank::*, value::copy::*, value::swizzle::DynSwizzle};
/// let thr: DynLayout = "(_32,_8):(_1,_32)".parse().unwrap();
/// let val: DynLayout = "(_1,_1):(_0,_0)".parse().unwrap();
/// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Element, 4), &thr, &val).unwrap();
/// // a warp walks down a column of a row-major 32x32 f32 tile: all 32 lanes in one bank
/// let row: DynLayout = "(_32,_32):(_32,_1)".parse().unwrap();
/// let c = conflicts(&tc, &row, DynSwizzle::identity(), 4, 1).unwrap().unwrap();
/// assert_eq!(c.ways, 32);
/// // padding each row by one word spreads the column over all banks
/// let padded: DynLayout = "(_32,_32):(_33,_1)".parse().unwrap();
/// assert_eq!(conflicts(&tc, &padded, DynSwizzle::identity(), 4, 1).unwrap(), None);
/// ```
#[allow(clippy::manual_is_multiple_of)]
pub const fn conflicts(
    tc: &TiledCopy,
    smem: &DynLayout,
    swizzle: DynSwizzle,
    elem_bytes: i64,
    vec: i64,
) -> Result<Option<Conflict>, Error> {
    let access = vec * elem_bytes;
    if vec < 1 || elem_bytes < 1 || (access > 4 && (access % 4 != 0 || 128 % access != 0)) {
        return Err(Error::with2(
            "bank conflicts: an access is 1-4 bytes or 8 or 16 bytes per lane (vec, elem_bytes)",
            vec,
            elem_bytes,
        ));
    }
    let f = match tc.tidfrg(smem) {
        Ok(f) => FlatLayout::of(&f),
        Err(e) => return Err(e),
    };
    // (thr, values, rest...): sizes of the value mode and of all rest modes together
    let threads = tc.tv.threads;
    let values = mode_size(&f, 1);
    let mut rest = 1;
    let mut m = 2;
    while m < f.rank {
        rest *= mode_size(&f, m);
        m += 1;
    }
    if values % vec != 0 {
        return Err(Error::with2(
            "bank conflicts: the vector width does not divide a thread's values (values, vec)",
            values,
            vec,
        ));
    }
    // A layout is linear in its coordinates: f(t, v, it) = f(t,0,0) + f(0,v,0) + f(0,0,it).
    // Tabulate the three once (constant evaluation is slow; per-lane it is then one add).
    const MAX: usize = 1024;
    if threads as usize > MAX || values as usize > MAX || rest as usize > MAX {
        return Err(Error::with2(
            "bank conflicts: at most 1024 threads, values per thread and tile iterations \
             (threads, values)",
            threads,
            values,
        ));
    }
    let mut thr_off = [0i64; MAX];
    let mut val_off = [0i64; MAX];
    let mut rest_off = [0i64; MAX];
    let mut i = 0;
    while i < MAX as i64 {
        if i < threads {
            thr_off[i as usize] = crd3(&f, i, 0, 0);
        }
        if i < values {
            val_off[i as usize] = crd3(&f, 0, i, 0);
        }
        if i < rest {
            rest_off[i as usize] = crd3(&f, 0, 0, i);
        }
        i += 1;
    }
    let base = crd3(&f, 0, 0, 0); // 0 for a layout without offset; subtracted twice above
    let lanes_per_phase = if access <= 4 { WARP } else { 128 / access };
    let words = if access <= 4 { 1 } else { access / 4 };
    let mut it = 0;
    while it < rest {
        let mut v = 0;
        while v < values {
            let mut w = 0;
            while w * WARP < threads {
                let mut p = 0;
                while p < WARP / lanes_per_phase {
                    // bank -> word and lane of the first lane that touched it in this phase
                    let mut word = [-1i64; BANKS as usize];
                    let mut owner = [0i64; BANKS as usize];
                    let mut first: Option<(i64, i64, i64, i64, i64)> = None;
                    let t0 = w * WARP + p * lanes_per_phase;
                    let mut l = 0;
                    while l < lanes_per_phase && first.is_none() {
                        let t = t0 + l;
                        if t < threads {
                            let byte = swizzle.apply(
                                thr_off[t as usize] + val_off[v as usize] + rest_off[it as usize]
                                    - 2 * base,
                            ) * elem_bytes;
                            let mut k = 0;
                            while k < words {
                                let wd = byte / 4 + k;
                                let b = (wd % BANKS) as usize;
                                if word[b] < 0 {
                                    word[b] = wd;
                                    owner[b] = t;
                                } else if word[b] != wd && first.is_none() {
                                    first = Some((owner[b], t, word[b] * 4, byte, b as i64));
                                }
                                k += 1;
                            }
                        }
                        l += 1;
                    }
                    if let Some((t0_, t1, b0, b1, bank)) = first {
                        // the wavefronts of that bank: its distinct words over the whole phase
                        let mut seen = [0i64; WARP as usize * 4];
                        let mut ways = 0;
                        let mut l = 0;
                        while l < lanes_per_phase && t0 + l < threads {
                            let byte = swizzle.apply(
                                thr_off[(t0 + l) as usize]
                                    + val_off[v as usize]
                                    + rest_off[it as usize]
                                    - 2 * base,
                            ) * elem_bytes;
                            let mut k = 0;
                            while k < words {
                                let wd = byte / 4 + k;
                                if wd % BANKS == bank {
                                    let mut j = 0;
                                    while j < ways && seen[j as usize] != wd {
                                        j += 1;
                                    }
                                    if j == ways {
                                        seen[ways as usize] = wd;
                                        ways += 1;
                                    }
                                }
                                k += 1;
                            }
                            l += 1;
                        }
                        return Ok(Some(Conflict {
                            warp: w,
                            value: v,
                            iteration: it,
                            lanes: (t0_ - w * WARP, t1 - w * WARP),
                            bytes: (b0, b1),
                            bank,
                            ways,
                        }));
                    }
                    p += 1;
                }
                w += 1;
            }
            v += vec;
        }
        it += 1;
    }
    Ok(None)
}

/// Size of top-level mode `m` of a flat layout.
const fn mode_size(f: &FlatLayout, m: usize) -> i64 {
    let mut s = 1;
    let mut i = if m == 0 { 0 } else { f.mode_end[m - 1] };
    while i < f.mode_end[m] {
        s *= f.shape[i];
        i += 1;
    }
    s
}

/// `f(t, v, it)` of a flat `(thr, values, rest...)` layout, `v` and `it` 1-D within their modes.
const fn crd3(f: &FlatLayout, t: i64, v: i64, it: i64) -> i64 {
    let mut c = [0i64; 16];
    c[0] = t;
    c[1] = v;
    // the rest modes, colexicographically
    let mut r = it;
    let mut m = 2;
    while m < f.rank {
        let s = mode_size(f, m);
        c[m] = r % s;
        r /= s;
        m += 1;
    }
    f.crd(&c)
}

/// [`conflicts`] as a check: `Err` names the warp, the access, the two lanes, their byte
/// addresses and the bank.
///
/// ```
/// use layout_types::{value::layout::DynLayout, check::bank::*, value::copy::*, value::swizzle::DynSwizzle};
/// let thr: DynLayout = "(_8,_32):(_32,_1)".parse().unwrap();
/// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap();
/// let tc = make_tiled_copy(DynCopyAtom::new(CopyOp::Vec128, 4), &thr, &val).unwrap();
/// let smem: DynLayout = "(_64,_128):(_128,_1)".parse().unwrap();
/// assert!(check_conflict_free(&tc, &smem, DynSwizzle::identity(), 4, 4).is_ok());
/// ```
pub const fn check_conflict_free(
    tc: &TiledCopy,
    smem: &DynLayout,
    swizzle: DynSwizzle,
    elem_bytes: i64,
    vec: i64,
) -> Result<(), Error> {
    match conflicts(tc, smem, swizzle, elem_bytes, vec) {
        Ok(None) => Ok(()),
        Ok(Some(c)) => Err(Error::with2(
            "bank conflict: two lanes of one phase of a warp access hit different words of one \
             shared-memory bank (the bank, the ways it is split)",
            c.bank,
            c.ways,
        )),
        Err(e) => Err(e),
    }
}

/// The flattened form of a layout, for the bank-conflict walk in constant evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FlatLayout {
    /// Leaf shapes.
    pub(crate) shape: [i64; 32],
    /// Leaf strides.
    pub(crate) stride: [i64; 32],
    /// Number of top-level modes.
    pub(crate) rank: usize,
    /// One past the last leaf of each top-level mode.
    pub(crate) mode_end: [usize; 16],
}

impl FlatLayout {
    /// Flattens a layout.
    pub(crate) const fn of(l: &DynLayout) -> FlatLayout {
        let fs = l.shape.flatten_to_tuple();
        let fd = l.stride.flatten_to_tuple();
        let n = fs.rank();
        if n > 32 {
            panic!("FlatLayout: more than 32 leaves");
        }
        let mut shape = [1i64; 32];
        let mut stride = [0i64; 32];
        let mut i = 0;
        while i < n {
            shape[i] = fs.get(i).val().v;
            stride[i] = fd.get(i).val().v;
            i += 1;
        }
        let rank = l.rank();
        if rank > 16 {
            panic!("FlatLayout: more than 16 modes");
        }
        let mut mode_end = [0usize; 16];
        let mut acc = 0;
        let mut m = 0;
        while m < rank {
            acc += l.shape.get(m).leaf_count();
            mode_end[m] = acc;
            m += 1;
        }
        FlatLayout {
            shape,
            stride,
            rank,
            mode_end,
        }
    }
    #[inline(always)]
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
    /// The index of a coordinate with one (1-D) entry per top-level mode.
    #[inline(always)]
    pub(crate) const fn crd(&self, c: &[i64]) -> i64 {
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

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::value::copy::{CopyOp, DynCopyAtom, make_tiled_copy};
    use std::{vec, vec::Vec};

    fn tc(thr: &str, val: &str, op: CopyOp, elem: i64) -> TiledCopy {
        make_tiled_copy(
            DynCopyAtom::new(op, elem),
            &thr.parse().unwrap(),
            &val.parse().unwrap(),
        )
        .unwrap()
    }

    /// Brute force: wavefronts of every phase, from the byte addresses alone.
    fn max_ways(tc: &TiledCopy, smem: &str, sw: DynSwizzle, e: i64, vec: i64) -> i64 {
        let f = tc.tidfrg(&smem.parse().unwrap()).unwrap();
        let fl = FlatLayout::of(&f);
        let (values, rest) = (
            f.get(1).size().v,
            (2..f.rank()).map(|m| f.get(m).size().v).product::<i64>(),
        );
        let access = vec * e;
        let per = if access <= 4 { 32 } else { 128 / access };
        let mut worst = 1;
        for it in 0..rest {
            for v in (0..values).step_by(vec as usize) {
                for w in 0..tc.tv.threads / 32 {
                    for p in 0..32 / per {
                        let mut banks: Vec<Vec<i64>> = vec![Vec::new(); 32];
                        for l in 0..per {
                            let t = w * 32 + p * per + l;
                            let byte = sw.apply(crd3(&fl, t, v, it)) * e;
                            for k in 0..(access.max(4) / 4) {
                                let wd = byte / 4 + k;
                                let b = &mut banks[(wd % 32) as usize];
                                if !b.contains(&wd) {
                                    b.push(wd);
                                }
                            }
                        }
                        worst = worst.max(banks.iter().map(|b| b.len() as i64).max().unwrap());
                    }
                }
            }
        }
        worst
    }

    #[test]
    fn agrees_with_brute_force_wavefront_counts() {
        let sw326 = DynSwizzle::new(3, 2, 6).unwrap();
        let id = DynSwizzle::identity();
        let cases = [
            (
                "(_16,_16):(_16,_1)",
                "(_1,_4):(_0,_1)",
                "(_64,_64):(_64,_1)",
                id,
                4,
                4,
            ),
            (
                "(_16,_16):(_16,_1)",
                "(_1,_4):(_0,_1)",
                "(_64,_64):(_64,_1)",
                sw326,
                4,
                4,
            ),
            (
                "(_16,_16):(_16,_1)",
                "(_1,_4):(_0,_1)",
                "(_64,_64):(_1,_64)",
                id,
                4,
                1,
            ),
            (
                "(_16,_16):(_16,_1)",
                "(_1,_4):(_0,_1)",
                "(_64,_64):(_1,_64)",
                sw326,
                4,
                1,
            ),
            (
                "(_32,_8):(_1,_32)",
                "(_4,_1):(_1,_0)",
                "(_128,_64):(_1,_128)",
                id,
                4,
                4,
            ),
            (
                "(_32,_8):(_1,_32)",
                "(_1,_1):(_0,_0)",
                "(_32,_32):(_32,_1)",
                id,
                4,
                1,
            ),
            (
                "(_32,_8):(_1,_32)",
                "(_1,_1):(_0,_0)",
                "(_32,_32):(_33,_1)",
                id,
                4,
                1,
            ),
            (
                "(_8,_32):(_32,_1)",
                "(_1,_8):(_0,_1)",
                "(_64,_256):(_256,_1)",
                id,
                2,
                8,
            ),
            (
                "(_32,_8):(_8,_1)",
                "(_1,_2):(_0,_1)",
                "(_32,_16):(_16,_1)",
                id,
                4,
                2,
            ),
        ];
        for (thr, val, smem, sw, e, vec) in cases {
            let op = if vec * e == 16 {
                CopyOp::Vec128
            } else {
                CopyOp::Element
            };
            let t = tc(thr, val, op, e);
            let got = conflicts(&t, &smem.parse().unwrap(), sw, e, vec).unwrap();
            let ways = max_ways(&t, smem, sw, e, vec);
            assert_eq!(
                got.is_none(),
                ways == 1,
                "{thr} {val} {smem} {sw}: {got:?} vs {ways}"
            );
            if let Some(c) = got {
                assert!(c.ways >= 2 && c.ways <= ways, "{c:?} vs {ways}");
                assert_eq!(
                    c.ways, ways,
                    "{thr} {val} {smem} {sw}: the first conflict is the worst here"
                );
                assert_ne!(c.bytes.0 / 4, c.bytes.1 / 4);
                assert_eq!((c.bytes.0 / 4) % 32, (c.bytes.1 / 4) % 32);
            }
        }
    }

    #[test]
    fn the_transpose_column_reads_conflict_without_the_swizzle() {
        // the store side of kernels/copy's transpose, viewed on the (n, m) output tile
        let t = tc(
            "((_4,_4),(_8,_2)):((_8,_64),(_1,_32))",
            "(_1,_4):(_0,_1)",
            CopyOp::Vec128,
            4,
        );
        let smem_nm = "(_64,_64):(_1,_64)"; // the row-major (m, n) smem tile, (n, m) view
        let c = conflicts(&t, &smem_nm.parse().unwrap(), DynSwizzle::identity(), 4, 1)
            .unwrap()
            .unwrap();
        assert_eq!(c.ways, 8, "{c:?}");
        let sw = DynSwizzle::new(3, 2, 6).unwrap();
        assert_eq!(
            conflicts(&t, &smem_nm.parse().unwrap(), sw, 4, 1).unwrap(),
            None
        );
    }
}
