//! The randomized copy / transpose sweep of `host run`: shapes, leading dimensions, base
//! offsets, kernels and element types drawn from a seed, run through [`Context::tiled_copy`]
//! and [`Context::transpose`] on views into larger buffers, checked bit-exactly: every
//! element of the destination matrix equals its source element, every other element of the
//! destination buffer (ld gaps, before, after) keeps its random initial bits.
//!
//! Distributions ([`CopyProblem::generate`]): the seventeen kernels in turn, problem `i` taking
//! variant `i mod 17` (six tiled copies: row/column-major, 4/2-byte elements, 128-bit /
//! cp.async / scalar atoms; the three transposes: bulk stores, swizzled, naive; the eight TMA
//! copies: row/column-major, 4/2-byte elements, one tile per CTA or persistent); the element
//! type uniform among those of the kernel's size (`f32`, `u32`, `i32` / `u16`, `i16`); M and N in `1..=5000`, each 15 % tiny,
//! 30 % a multiple of 8, 64, 128 or 256 plus −1/0/+1 (the kernels' tiles), 15 % 17..=256, 40 %
//! uniform, and 15 % of the shapes skinny (1..=3 rows or columns, the other extent
//! 1000..=5000). Leading dimensions: 30 % tight, else larger by up to 4 vectors (128-bit
//! atoms and the transpose: a multiple of the vector) or up to 9 elements (scalar atom).
//! Base offsets: 0..=2 vectors for 128-bit atoms (16-byte aligned, as they must be), 0..=3
//! elements for the scalar atom. Inputs are random bit patterns (NaN payloads included for
//! `f32`), never all-zero elements.

use std::fmt;
use std::sync::Arc;

use host::cudarc::driver::{CudaStream, DeviceRepr};

use super::sweep::{
    BitPattern, Window, biased_extent, chance, par_blocks, par_ranges, sub_seed, uint,
};
use super::{CheckRow, Rng};
use crate::progress::Progress;
use crate::timing::timed;
use host::context::Context;
#[cfg(test)]
use host::copy::TransposeKernel;
use host::copy::{CopyConfig, Element, Order, TransposeConfig, VARIANTS};
use host::error::{Error, Result};

/// Largest M, N of the sweep.
pub const MAX_EXTENT: usize = 5000;

/// The kernels' tile sizes, whose edges [`biased_extent`] aims at.
const TILES: [usize; 4] = [8, 64, 128, 256];

/// After this many shapes that end in an error (not a mismatch), the sweep stops.
const MAX_ERRORS: usize = 5;

/// The element type a copy problem moves (the kernels move bits; the type only picks the
/// kernel's element size and the Rust type of the buffers).
///
/// ```
/// assert_eq!(host_cli::check::ElemType::I16.bytes(), 2);
/// assert_eq!(host_cli::check::ElemType::F32.to_string(), "f32");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `f32` (any bit pattern, NaN payloads included).
    F32,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u16` (e.g. half-precision bits).
    U16,
    /// `i16`.
    I16,
}

impl ElemType {
    /// Size in bytes.
    ///
    /// ```
    /// assert_eq!(host_cli::check::ElemType::U32.bytes(), 4);
    /// ```
    pub fn bytes(self) -> usize {
        match self {
            ElemType::F32 | ElemType::U32 | ElemType::I32 => 4,
            ElemType::U16 | ElemType::I16 => 2,
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ElemType::F32 => "f32",
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::U16 => "u16",
            ElemType::I16 => "i16",
        })
    }
}

/// The operation of a copy problem, with its public configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyOp {
    /// [`Context::tiled_copy`].
    Copy(CopyConfig),
    /// [`Context::transpose`].
    Transpose(TransposeConfig),
}

/// One shape of the copy sweep: kernel, configuration, element type and where the source
/// and destination start in their buffers. The same `(seed, index)` always gives the same
/// problem and data.
///
/// ```
/// use host_cli::check::{CopyOp, CopyProblem};
/// let p = CopyProblem::generate(12, 5);
/// assert_eq!(p, CopyProblem::generate(12, 5));
/// let (m, n) = p.extents();
/// assert!((1..=5000).contains(&m) && (1..=5000).contains(&n));
/// println!("{} {}: {}", p.kernel, p.label(), p.params());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyProblem {
    /// The seed it was drawn from (also seeds its data).
    pub seed: u64,
    /// Its position in the sweep.
    pub index: usize,
    /// The PTX entry that runs it.
    pub kernel: &'static str,
    /// The call.
    pub op: CopyOp,
    /// The element type of both buffers.
    pub elem: ElemType,
    /// Elements before the source and the destination in their buffers.
    pub offsets: [usize; 2],
}

/// `extent` rounded up to `vec`, plus 0..=4 more vectors (30 % tight).
fn leading(r: &mut Rng, extent: usize, vec: usize) -> usize {
    let tight = extent.max(1).next_multiple_of(vec);
    if chance(r, 30) {
        tight
    } else if vec > 1 {
        tight + vec * uint(r, 1, 4)
    } else {
        tight + uint(r, 1, 9)
    }
}

impl CopyProblem {
    /// Shape `index` of the sweep with `seed` (see the module docs for the distributions).
    ///
    /// ```
    /// let p = host_cli::check::CopyProblem::generate(7, 0);
    /// let [src, dst] = p.windows();
    /// assert!(src.ld >= src.inner && dst.ld >= dst.inner);
    /// ```
    pub fn generate(seed: u64, index: usize) -> CopyProblem {
        let mut r = Rng::new(sub_seed(seed, index, 0));
        let r = &mut r;
        // the kernels in turn, so that every one gets a seventeenth of any sweep; the draw that
        // picked the kernel before is still taken, so a seed's M and N stay those it drew before
        let v = &VARIANTS[index % VARIANTS.len()];
        let _ = uint(r, 0, VARIANTS.len() - 1);
        let elem = if v.elem == 4 {
            [ElemType::F32, ElemType::U32, ElemType::I32][uint(r, 0, 2)]
        } else {
            [ElemType::U16, ElemType::I16][uint(r, 0, 1)]
        };
        let mut m = biased_extent(r, MAX_EXTENT, &TILES);
        let mut n = biased_extent(r, MAX_EXTENT, &TILES);
        if chance(r, 15) {
            let (thin, long) = (uint(r, 1, 3), uint(r, 1000, MAX_EXTENT));
            (m, n) = if chance(r, 50) {
                (thin, long)
            } else {
                (long, thin)
            };
        }
        // contiguous extents of the source and the destination
        let (cs, cd) = match (v.transpose, v.order) {
            (Some(_), _) => (n, m),
            (None, Order::ColMajor) => (m, m),
            (None, Order::RowMajor) => (n, n),
        };
        let vec = v.vec();
        let lds = leading(r, cs, vec);
        let ldd = leading(r, cd, vec);
        let mut offsets = [0; 2];
        for o in &mut offsets {
            *o = if vec > 1 {
                vec * uint(r, 0, 2)
            } else {
                uint(r, 0, 3)
            };
        }
        let op = match v.transpose {
            Some(kernel) => CopyOp::Transpose(TransposeConfig {
                m,
                n,
                lda: lds,
                ldb: ldd,
                kernel,
            }),
            None => CopyOp::Copy(CopyConfig {
                order: v.order,
                m,
                n,
                lds,
                ldd,
                instruction: v.instruction,
            }),
        };
        CopyProblem {
            seed,
            index,
            kernel: v.kernel,
            op,
            elem,
            offsets,
        }
    }

    /// `(M, N)` of the source matrix.
    ///
    /// ```
    /// let p = host_cli::check::CopyProblem::generate(12, 0);
    /// assert!(p.extents().0 >= 1);
    /// ```
    pub fn extents(&self) -> (usize, usize) {
        match self.op {
            CopyOp::Copy(c) => (c.m, c.n),
            CopyOp::Transpose(t) => (t.m, t.n),
        }
    }

    /// `(lds, ldd)`: the source's and the destination's leading dimensions.
    fn lds_ldd(&self) -> (usize, usize) {
        match self.op {
            CopyOp::Copy(c) => (c.lds, c.ldd),
            CopyOp::Transpose(t) => (t.lda, t.ldb),
        }
    }

    /// Where the source and the destination lie in their buffers: runs are rows of a
    /// row-major matrix, columns of a column-major one; the transpose's destination is the
    /// `N × M` row-major `Aᵀ`.
    ///
    /// ```
    /// let p = host_cli::check::CopyProblem::generate(12, 1);
    /// let (m, n) = p.extents();
    /// let [src, dst] = p.windows();
    /// assert_eq!(src.inner * src.outer, m * n);
    /// assert_eq!(dst.inner * dst.outer, m * n);
    /// ```
    pub fn windows(&self) -> [Window; 2] {
        let (m, n) = self.extents();
        let (lds, ldd) = self.lds_ldd();
        let w = |offset, inner, outer, ld| Window {
            offset,
            inner,
            outer,
            ld,
        };
        let [os, od] = self.offsets;
        match self.op {
            CopyOp::Transpose(_) => [w(os, n, m, lds), w(od, m, n, ldd)],
            CopyOp::Copy(c) if c.order == Order::ColMajor => [w(os, m, n, lds), w(od, m, n, ldd)],
            CopyOp::Copy(_) => [w(os, n, m, lds), w(od, n, m, ldd)],
        }
    }

    /// The destination index of element `i` of source run `j` (the same place for a copy,
    /// swapped for the transpose: `B(c, r) = A(r, c)`).
    fn dst_of(&self, wd: &Window, i: usize, j: usize) -> usize {
        match self.op {
            CopyOp::Transpose(_) => wd.index(j, i),
            CopyOp::Copy(_) => wd.index(i, j),
        }
    }

    /// `#5 4097x255`: the table's shape column.
    ///
    /// ```
    /// assert!(host_cli::check::CopyProblem::generate(12, 5).label().starts_with("#5 "));
    /// ```
    pub fn label(&self) -> String {
        let (m, n) = self.extents();
        format!("#{} {m}x{n}", self.index)
    }

    /// Everything needed to rebuild it: seed, index, kernel, element type, shape, leading
    /// dimensions, offsets.
    ///
    /// ```
    /// let p = host_cli::check::CopyProblem::generate(12, 2);
    /// assert!(p.params().starts_with("seed=12 #2 "));
    /// ```
    pub fn params(&self) -> String {
        let (m, n) = self.extents();
        let (lds, ldd) = self.lds_ldd();
        let what = match self.op {
            CopyOp::Copy(c) => format!("copy {:?} {:?}", c.order, c.instruction),
            CopyOp::Transpose(t) => format!("transpose {:?}", t.kernel),
        };
        format!(
            "seed={} #{} {} {what} {} {m}x{n} ld(src,dst)={lds},{ldd} offsets(src,dst)={},{}",
            self.seed, self.index, self.kernel, self.elem, self.offsets[0], self.offsets[1]
        )
    }
}

impl fmt::Display for CopyProblem {
    /// [`CopyProblem::params`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.params())
    }
}

/// The first `count` shapes of the sweep with `seed`.
pub(super) fn problems(seed: u64, count: usize) -> Vec<CopyProblem> {
    (0..count).map(|i| CopyProblem::generate(seed, i)).collect()
}

/// `(elements of the destination matrix that differ from their source element, elements
/// outside it that changed)`, bit for bit; a buffer too short counts its missing elements.
pub(crate) fn compare<T: BitPattern + Sync>(
    p: &CopyProblem,
    src: &[T],
    before: &[T],
    got: &[T],
) -> (usize, usize) {
    let [ws, wd] = p.windows();
    let runs = |js: std::ops::Range<usize>| {
        let mut differ = 0;
        for j in js {
            for i in 0..ws.inner {
                match (src.get(ws.index(i, j)), got.get(p.dst_of(&wd, i, j))) {
                    (Some(s), Some(g)) if s.bit_pattern() == g.bit_pattern() => {}
                    _ => differ += 1,
                }
            }
        }
        differ
    };
    let differ = par_ranges(ws.outer, ws.inner * ws.outer, runs).iter().sum();
    (differ, wd.padding_writes(got, before))
}

/// A random element, never all-zero bits.
trait Random: Element + BitPattern + DeviceRepr + Default + Send + Sync {
    fn random(r: &mut Rng) -> Self;
}

macro_rules! random {
    ($($t:ty => |$r:ident| $e:expr),*) => {$(
        impl Random for $t {
            fn random($r: &mut Rng) -> Self {
                loop {
                    let x: $t = $e;
                    if x.bit_pattern() != 0 {
                        return x;
                    }
                }
            }
        }
    )*};
}
random!(
    f32 => |r| f32::from_bits(r.next_u32()),
    u32 => |r| r.next_u32(),
    i32 => |r| r.next_u32() as i32,
    u16 => |r| (r.next_u32() >> 16) as u16,
    i16 => |r| (r.next_u32() >> 16) as i16
);

/// Elements per independently seeded block of [`random_buffer`].
const BLOCK: usize = 1 << 16;

/// `len` random elements for buffer `which` of `p`, block by block, each block seeded on its
/// own: the same data however many threads fill it.
fn random_buffer<T: Random>(p: &CopyProblem, which: u64, len: usize) -> Vec<T> {
    let mut v = vec![T::default(); len];
    par_blocks(&mut v, BLOCK, |i, block| {
        let mut r = Rng::new(sub_seed(p.seed, p.index, (which << 32) | i as u64));
        block.iter_mut().for_each(|x| *x = T::random(&mut r));
    });
    v
}

/// Runs `p` with elements of type `T`; (GPU ms, differing elements, padding writes).
fn run_typed<T: Random>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    p: &CopyProblem,
) -> Result<(f32, usize, usize)> {
    let [ws, wd] = p.windows();
    let src = random_buffer::<T>(p, 1, ws.buffer_len());
    let before = random_buffer::<T>(p, 2, wd.buffer_len());
    let dsrc = s.clone_htod(&src)?;
    let mut ddst = s.clone_htod(&before)?;
    let outside = || Error::Unsupported(format!("{}: offset past the buffer", p.label()));
    let ms = {
        let vs = dsrc.try_slice(ws.offset..).ok_or_else(outside)?;
        let mut vd = ddst.try_slice_mut(wd.offset..).ok_or_else(outside)?;
        timed(s, || match &p.op {
            CopyOp::Copy(cfg) => ctx.tiled_copy(s, cfg, &vs, &mut vd),
            CopyOp::Transpose(cfg) => ctx.transpose(s, cfg, &vs, &mut vd),
        })?
    };
    let got = s.clone_dtoh(&ddst)?;
    let (differ, padding) = compare(p, &src, &before, &got);
    Ok((ms, differ, padding))
}

fn run_one(ctx: &Context, s: &Arc<CudaStream>, p: &CopyProblem) -> Result<(f32, usize, usize)> {
    match p.elem {
        ElemType::F32 => run_typed::<f32>(ctx, s, p),
        ElemType::U32 => run_typed::<u32>(ctx, s, p),
        ElemType::I32 => run_typed::<i32>(ctx, s, p),
        ElemType::U16 => run_typed::<u16>(ctx, s, p),
        ElemType::I16 => run_typed::<i16>(ctx, s, p),
    }
}

/// The sweep: `count` shapes from `seed`, one progress step each; a summary row first, then a
/// row per failing shape.
pub(super) fn sweep(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    sweep_of(
        ctx,
        seed,
        (0..count).collect(),
        "tiled_copy sweep",
        progress,
    )
}

/// The first `count` problems of `seed`'s sweep that a TMA copy runs (the sweep's indices
/// `i` with `i mod 17` a TMA variant: the same shapes, leading dimensions and offsets as in the
/// full sweep).
pub(super) fn tma_indices(seed: u64, count: usize) -> Vec<usize> {
    (0..)
        .filter(|&i| CopyProblem::generate(seed, i).kernel.starts_with("tma_"))
        .take(count)
        .collect()
}

/// The sweep over the problems `indices` of `seed`, summarized as `summary_kernel`.
pub(super) fn sweep_of(
    ctx: &Context,
    seed: u64,
    indices: Vec<usize>,
    summary_kernel: &'static str,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    let count = indices.len();
    if count == 0 {
        return Vec::new();
    }
    let s = &ctx.default_stream();
    let mut failures = Vec::new();
    let (mut total_ms, mut bytes, mut errors, mut done) = (0f32, 0f64, 0usize, 0usize);
    let (mut transposes, mut skipped) = (0usize, 0usize);
    for (k, &i) in indices.iter().enumerate() {
        let p = CopyProblem::generate(seed, i);
        if !ctx.has_kernel(p.kernel) {
            // a Hopper kernel (TMA, bulk copies) on a device or forced arch without it
            skipped += 1;
            done += 1;
            continue;
        }
        progress.step(&format!(
            "copy sweep {}/{count}: {} {}",
            k + 1,
            p.kernel,
            p.label()
        ));
        let fail = |note: String, ms: f32, mismatches: usize| CheckRow {
            kernel: p.kernel,
            shape: p.label(),
            pass: false,
            max_err: f64::NAN,
            mismatches,
            ms,
            note: format!("{}: {note}", p.params()),
        };
        match run_one(ctx, s, &p) {
            Ok((ms, differ, padding)) => {
                total_ms += ms;
                let (m, n) = p.extents();
                bytes += 2.0 * (m * n * p.elem.bytes()) as f64;
                transposes += usize::from(matches!(p.op, CopyOp::Transpose(_)));
                if differ + padding > 0 {
                    failures.push(fail(
                        format!("{differ} elements differ, {padding} padding writes"),
                        ms,
                        differ + padding,
                    ));
                }
            }
            Err(e) => {
                errors += 1;
                failures.push(fail(e.to_string(), 0.0, 0));
            }
        }
        done += 1;
        if errors >= MAX_ERRORS {
            break;
        }
    }
    let stopped = if done < count {
        format!("; stopped after {done} shapes ({errors} errors)")
    } else {
        String::new()
    };
    let summary = CheckRow {
        kernel: summary_kernel,
        shape: format!("{count} shapes seed={seed}"),
        pass: failures.is_empty() && done == count,
        max_err: if failures.is_empty() { 0.0 } else { f64::NAN },
        mismatches: failures.len(),
        ms: total_ms,
        note: format!(
            "bit-exact, padding untouched; {} failed; {transposes} transposes; {:.2} GB moved{}{stopped}",
            failures.len(),
            bytes / 1e9,
            if skipped > 0 {
                format!("; {skipped} skipped (kernel not on this device)")
            } else {
                String::new()
            }
        ),
    };
    let mut rows = vec![summary];
    rows.extend(failures);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use host::copy::{CopyInstruction, Variant};

    impl CopyProblem {
        /// The kernel's [`Variant`].
        fn variant(&self) -> Option<&'static Variant> {
            VARIANTS.iter().find(|v| v.kernel == self.kernel)
        }
    }

    #[test]
    fn problems_are_deterministic_and_seeded() {
        let a = problems(12, 100);
        assert_eq!(a, problems(12, 100));
        assert_eq!(CopyProblem::generate(12, 42), a[42]);
        let b = problems(99, 100);
        assert!(a.iter().zip(&b).filter(|(x, y)| x == y).count() < 3);
    }

    /// Everything the kernels require holds by construction: leading dimensions cover the
    /// contiguous extents and are multiples of the vector, bases are 16-byte aligned for the
    /// 128-bit atoms, element sizes match.
    #[test]
    fn problems_are_legal_calls_within_the_stated_ranges() {
        for seed in [0, 12, 77, u64::MAX] {
            for p in problems(seed, 100) {
                let v = p.variant().expect("a known kernel");
                let (m, n) = p.extents();
                assert!((1..=MAX_EXTENT).contains(&m) && (1..=MAX_EXTENT).contains(&n));
                assert_eq!(p.elem.bytes(), v.elem, "{p}");
                let [ws, wd] = p.windows();
                let (slack, max_offset) = match v.vec() {
                    1 => (10, 3),
                    vec => (5 * vec, 2 * vec),
                };
                for w in [ws, wd] {
                    assert!(w.ld >= w.inner && w.ld < w.inner + slack, "{p}");
                    assert_eq!(w.ld % v.vec(), 0, "{p}");
                    assert_eq!(w.offset % v.vec(), 0, "{p}"); // 16-byte aligned for vectors
                    assert!(w.offset <= max_offset, "{p}");
                }
                match p.op {
                    CopyOp::Copy(c) => {
                        assert_eq!((c.order, c.instruction), (v.order, v.instruction));
                        let (ns, nd) = c.lens();
                        assert!(ns <= ws.view_len() && nd <= wd.view_len(), "{p}");
                    }
                    CopyOp::Transpose(t) => {
                        assert_eq!(Some(t.kernel), v.transpose);
                        let (na, nb) = t.lens();
                        assert!(na <= ws.view_len() && nb <= wd.view_len(), "{p}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_tma_sweep_takes_the_tma_problems_of_the_full_sweep() {
        let idx = tma_indices(7, 12);
        assert_eq!(idx.len(), 12);
        assert!(
            idx.iter()
                .all(|&i| CopyProblem::generate(7, i).kernel.starts_with("tma_"))
        );
        assert_eq!(&idx[..4], &[9, 10, 11, 12]);
    }

    #[test]
    fn the_default_sweep_covers_every_kernel_type_and_edge() {
        let ps = problems(
            super::super::sweep::DEFAULT_SEED,
            super::super::sweep::DEFAULT_COPY_SHAPES,
        );
        let count = |f: &dyn Fn(&CopyProblem) -> bool| ps.iter().filter(|p| f(p)).count();
        for v in &VARIANTS {
            assert!(count(&|p| p.kernel == v.kernel) >= 5, "{}", v.kernel);
        }
        for e in [
            ElemType::F32,
            ElemType::U32,
            ElemType::I32,
            ElemType::U16,
            ElemType::I16,
        ] {
            assert!(count(&|p| p.elem == e) >= 3, "{e}");
        }
        for k in [
            TransposeKernel::Bulk,
            TransposeKernel::Swizzled,
            TransposeKernel::Naive,
        ] {
            let c = count(&|p| matches!(p.op, CopyOp::Transpose(t) if t.kernel == k));
            assert!(c >= 5, "{k:?}: {c}");
        }
        let ext = |p: &CopyProblem| [p.extents().0, p.extents().1];
        assert!(count(&|p| ext(p).iter().any(|&x| x <= 3)) >= 10);
        assert!(
            count(&|p| ext(p)
                .iter()
                .any(|&x| x > 16 && [63, 0, 1].contains(&(x % 64))))
                >= 20
        );
        assert!(count(&|p| ext(p).iter().all(|&x| x > 2500)) >= 3);
        assert!(count(&|p| p.offsets != [0, 0]) >= 40);
        assert!(count(&|p| p.offsets[0] % 4 != 0) >= 3); // scalar atom, unaligned
        assert!(count(&|p| p.windows().iter().any(|w| w.ld > w.inner)) >= 60);
        assert!(count(&|p| p.windows().iter().any(|w| w.ld == w.inner)) >= 10);
    }

    /// What the kernels must do, on the host: write each source element to its place.
    fn cpu<T: BitPattern>(p: &CopyProblem, src: &[T], before: &[T]) -> Vec<T> {
        let mut out = before.to_vec();
        let (m, n) = p.extents();
        let [ws, wd] = p.windows();
        for r in 0..m {
            for c in 0..n {
                // A(r, c) of a row-major / transposed source is run r, element c
                let (si, di) = match p.op {
                    CopyOp::Transpose(_) => (ws.index(c, r), wd.index(r, c)),
                    CopyOp::Copy(cfg) if cfg.order == Order::ColMajor => {
                        (ws.index(r, c), wd.index(r, c))
                    }
                    CopyOp::Copy(_) => (ws.index(c, r), wd.index(c, r)),
                };
                out[di] = src[si];
            }
        }
        out
    }

    fn small(pred: impl Fn(&CopyProblem) -> bool) -> CopyProblem {
        (0..)
            .map(|i| CopyProblem::generate(12, i))
            .find(|p| p.extents().0 * p.extents().1 < 50_000 && pred(p))
            .unwrap()
    }

    #[test]
    fn compare_passes_a_correct_copy_and_catches_errors() {
        for p in [
            small(|p| matches!(p.op, CopyOp::Transpose(_)) && p.extents().0 != p.extents().1),
            small(|p| matches!(p.op, CopyOp::Copy(c) if c.order == Order::ColMajor)),
            small(|p| {
                matches!(p.op, CopyOp::Copy(c) if c.instruction == CopyInstruction::Scalar)
                    && p.offsets[1] > 0
            }),
        ] {
            let [ws, wd] = p.windows();
            let mut r = Rng::new(1);
            let src: Vec<u32> = (0..ws.buffer_len()).map(|_| u32::random(&mut r)).collect();
            let before: Vec<u32> = (0..wd.buffer_len()).map(|_| u32::random(&mut r)).collect();
            let good = cpu(&p, &src, &before);
            assert_eq!(compare(&p, &src, &before, &good), (0, 0), "{p}");
            // nothing written at all
            let (m, n) = p.extents();
            assert_eq!(compare(&p, &src, &before, &before), (m * n, 0), "{p}");
            // one element flipped by one bit
            let mut bad = good.clone();
            bad[wd.index(wd.inner - 1, wd.outer - 1)] ^= 1 << 31;
            assert_eq!(compare(&p, &src, &before, &bad), (1, 0), "{p}");
            // one write into the padding: ld gap (if any), before the matrix, past the end
            let mut places = vec![wd.buffer_len() - 1];
            if wd.ld > wd.inner {
                places.push(wd.index(wd.inner, 0));
            }
            if wd.offset > 0 {
                places.push(wd.offset - 1);
            }
            for idx in places {
                let mut bad = good.clone();
                bad[idx] = !bad[idx];
                assert_eq!(compare(&p, &src, &before, &bad), (0, 1), "{p} index {idx}");
            }
            // a short result: a failure, not a panic
            let (differ, padding) = compare(&p, &src, &before, &good[..wd.offset]);
            assert!(differ == m * n && padding > 0);
        }
    }

    #[test]
    fn transposes_land_transposed() {
        let p = small(|p| {
            matches!(p.op, CopyOp::Transpose(_)) && p.extents().0 > 1 && p.extents().1 > 1
        });
        let [ws, wd] = p.windows();
        let src: Vec<u32> = (0..ws.buffer_len() as u32).map(|x| x + 1).collect();
        let before = vec![0u32; wd.buffer_len()];
        let good = cpu(&p, &src, &before);
        // A(0,1) is B(1,0)
        assert_eq!(good[wd.index(0, 1)], src[ws.index(1, 0)]);
        // a plain copy (A's runs copied as they are) in place of the transpose is caught
        let mut wrong = before.clone();
        for r in 0..wd.outer.min(ws.outer) {
            for c in 0..wd.inner.min(ws.inner) {
                wrong[wd.index(c, r)] = src[ws.index(c, r)];
            }
        }
        assert!(compare(&p, &src, &before, &wrong).0 > 0);
    }

    /// Large shapes go through the threaded paths: the data is the same whatever the thread
    /// count (block seeds), and the comparison counts exactly.
    #[test]
    fn large_shapes_fill_and_compare_exactly() {
        for transpose in [false, true] {
            let p = (0..)
                .map(|i| CopyProblem::generate(12, i))
                .find(|p| {
                    let (m, n) = p.extents();
                    m * n > 1 << 20
                        && m * n < 1 << 23
                        && matches!(p.op, CopyOp::Transpose(_)) == transpose
                        && p.elem.bytes() == 4
                })
                .unwrap();
            let [ws, wd] = p.windows();
            let src = random_buffer::<u32>(&p, 1, ws.buffer_len());
            assert_eq!(src, random_buffer::<u32>(&p, 1, ws.buffer_len()));
            assert_ne!(src[..100], random_buffer::<u32>(&p, 2, 100)[..]);
            // block i is the sequential draw of its own seed
            let mut r = Rng::new(sub_seed(p.seed, p.index, (1 << 32) | 3));
            assert!((0..BLOCK).all(|k| src[3 * BLOCK + k] == u32::random(&mut r)));
            let before = random_buffer::<u32>(&p, 2, wd.buffer_len());
            let mut good = cpu(&p, &src, &before);
            assert_eq!(compare(&p, &src, &before, &good), (0, 0), "{p}");
            let (m, n) = p.extents();
            good[wd.index(wd.inner / 2, wd.outer - 1)] ^= 1;
            good[wd.index(0, 0)] ^= 1;
            assert_eq!(compare(&p, &src, &before, &good), (2, 0), "{p}");
            assert_eq!(compare(&p, &src, &before, &before).0, m * n);
        }
    }

    #[test]
    fn random_elements_are_never_zero() {
        let mut r = Rng::new(9);
        assert!((0..200_000).all(|_| u16::random(&mut r) != 0));
        assert!((0..1000).all(|_| i16::random(&mut r) != 0 && f32::random(&mut r).to_bits() != 0));
    }
}
