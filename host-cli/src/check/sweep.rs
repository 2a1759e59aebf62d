//! What the randomized sweeps ([`super::gemm_sweep`], [`super::copy_sweep`]) share: the seed
//! and the counts ([`SweepConfig`]), per-problem sub-seeds, random extents biased toward the
//! interesting cases, and [`Window`]: a strided matrix inside a larger buffer, with the check
//! that nothing outside it was written.

use super::Rng;

/// The seed `host run` sweeps with unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 12;

/// GEMM problems `host run` sweeps by default.
pub const DEFAULT_GEMM_PROBLEMS: usize = 300;

/// bf16/fp16 GEMM problems `host run` sweeps by default.
pub const DEFAULT_HGEMM_PROBLEMS: usize = 300;

/// Copy / transpose shapes `host run` sweeps by default.
pub const DEFAULT_COPY_SHAPES: usize = 170;

/// Elements every sweep buffer holds past the end of its matrix's last column (poisoned,
/// checked untouched, so a write past the end is seen).
pub const TAIL: usize = 4;

/// How much the randomized sweeps of `host run` do: the seed and the number of problems of
/// each (0 leaves a sweep out).
///
/// ```
/// let s = host_cli::check::SweepConfig::default();
/// assert_eq!((s.seed, s.gemm, s.copy, s.hgemm, s.attention), (12, 300, 170, 300, 200));
/// let none = host_cli::check::SweepConfig { gemm: 0, copy: 0, hgemm: 0, attention: 0, ..s };
/// assert_eq!(none.steps(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepConfig {
    /// Every problem (sizes, arguments, data) follows from it.
    pub seed: u64,
    /// GEMM problems checked against cuBLAS.
    pub gemm: usize,
    /// Copy / transpose shapes checked bit-exactly.
    pub copy: usize,
    /// bf16/fp16 GEMM problems checked against cuBLAS GemmEx.
    pub hgemm: usize,
    /// Attention problems checked against the fp32 GPU reference.
    pub attention: usize,
}

impl Default for SweepConfig {
    fn default() -> Self {
        SweepConfig {
            seed: DEFAULT_SEED,
            gemm: DEFAULT_GEMM_PROBLEMS,
            copy: DEFAULT_COPY_SHAPES,
            hgemm: DEFAULT_HGEMM_PROBLEMS,
            attention: super::DEFAULT_ATTENTION_PROBLEMS,
        }
    }
}

impl SweepConfig {
    /// Progress steps the sweeps take (one per problem).
    ///
    /// ```
    /// assert_eq!(host_cli::check::SweepConfig::default().steps(), 970);
    /// ```
    pub fn steps(&self) -> usize {
        self.gemm
            .saturating_add(self.copy)
            .saturating_add(self.hgemm)
            .saturating_add(self.attention)
    }
}

/// The seed of stream `stream` (problem shape, data, ...) of problem `index`: splitmix64 of
/// the three, so any problem can be rebuilt alone.
pub(crate) fn sub_seed(seed: u64, index: usize, stream: u64) -> u64 {
    let mut z = seed
        .wrapping_add((index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An integer in `lo..=hi` (any `usize` bounds; `hi < lo` gives `lo`).
pub(crate) fn uint(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    if hi <= lo {
        return lo;
    }
    match ((hi - lo) as u64).checked_add(1) {
        Some(span) => lo + (rng.next_u64() % span) as usize,
        None => lo.wrapping_add(rng.next_u64() as usize), // lo..=usize::MAX
    }
}

/// `true` with probability `percent`/100.
pub(crate) fn chance(rng: &mut Rng, percent: u64) -> bool {
    rng.next_u64() % 100 < percent
}

/// A value in [-1, 1), never 0 (so every product of a sweep contributes).
pub(crate) fn nonzero_unit(rng: &mut Rng) -> f32 {
    loop {
        let x = rng.unit();
        if x != 0.0 {
            return x;
        }
    }
}

/// An extent in `1..=max`, biased toward the cases that break tiled kernels: 15 % tiny
/// (1..=16), 30 % a multiple of one of `tiles` plus −1, 0 or +1 (tile edges: half of them
/// among the first 4 multiples, half anywhere up to `max`), 15 % small (17..=256), 40 %
/// uniform.
pub(crate) fn biased_extent(rng: &mut Rng, max: usize, tiles: &[usize]) -> usize {
    let max = max.max(1);
    let x = match rng.next_u64() % 100 {
        0..15 => uint(rng, 1, 16),
        15..45 if !tiles.is_empty() => {
            let t = tiles[uint(rng, 0, tiles.len() - 1)].max(1);
            let most = if chance(rng, 50) { 4 } else { max / t };
            let j = uint(rng, 1, most.clamp(1, (max / t).max(1)));
            (j * t + uint(rng, 0, 2)).saturating_sub(1)
        }
        45..60 => uint(rng, 17, 256),
        _ => uint(rng, 1, max),
    };
    x.clamp(1, max)
}

/// Elements below which a parallel helper stays on the calling thread.
const PAR_MIN: usize = 1 << 16;

/// Threads for `work` elements: 1 for small work, else up to the available cores (≤ 32).
fn threads_for(work: usize) -> usize {
    if work < PAR_MIN {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(32).min(work / (PAR_MIN / 4)).max(1)
}

/// `f(range)` for contiguous ranges covering `0..n`, on scoped threads when `work` (elements
/// touched in all) is large; the results in range order, so whatever is merged from them in
/// order is what one sequential pass gives.
pub(crate) fn par_ranges<R: Send>(
    n: usize,
    work: usize,
    f: impl Fn(std::ops::Range<usize>) -> R + Sync,
) -> Vec<R> {
    let t = threads_for(work).min(n.max(1));
    if t <= 1 {
        return vec![f(0..n)];
    }
    let per = n.div_ceil(t);
    let f = &f;
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..n)
            .step_by(per)
            .map(|lo| sc.spawn(move || f(lo..(lo + per).min(n))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// `f(i, block)` for the consecutive blocks of `block` elements of `buf` (the last one
/// shorter), on scoped threads when `buf` is large.
pub(crate) fn par_blocks<T: Send>(buf: &mut [T], block: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let work = buf.len();
    let mut blocks: Vec<(usize, &mut [T])> = buf.chunks_mut(block.max(1)).enumerate().collect();
    par_items(&mut blocks, work, |(i, b)| f(*i, b));
}

/// `f(j, run)` for every run `j` of `w` in `buf` (its `inner` elements; shorter or missing
/// where the buffer ends, cut to `ld` if `ld < inner`), on scoped threads when `buf` is large.
pub(crate) fn par_runs<T: Send>(w: &Window, buf: &mut [T], f: impl Fn(usize, &mut [T]) + Sync) {
    let work = buf.len();
    let start = w.offset.min(buf.len());
    let mut runs: Vec<(usize, &mut [T])> = buf[start..]
        .chunks_mut(w.ld.max(1))
        .take(w.outer)
        .enumerate()
        .map(|(j, run)| {
            let len = w.inner.min(run.len());
            (j, &mut run[..len])
        })
        .collect();
    par_items(&mut runs, work, |(j, run)| f(*j, run));
}

/// `f(item)` for every item, in contiguous groups on scoped threads when `work` is large.
fn par_items<I: Send>(items: &mut [I], work: usize, f: impl Fn(&mut I) + Sync) {
    let t = threads_for(work).min(items.len().max(1));
    if t <= 1 {
        items.iter_mut().for_each(f);
        return;
    }
    let per = items.len().div_ceil(t);
    let f = &f;
    std::thread::scope(|sc| {
        for group in items.chunks_mut(per) {
            sc.spawn(move || group.iter_mut().for_each(f));
        }
    });
}

/// `x` mapped by `f` elementwise, on scoped threads when `x` is large.
pub(crate) fn par_map<T: Sync, U: Send + Copy + Default>(
    x: &[T],
    f: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    let mut out = vec![U::default(); x.len()];
    par_blocks(&mut out, PAR_MIN, |i, b| {
        for (o, v) in b.iter_mut().zip(&x[i * PAR_MIN..]) {
            *o = f(v);
        }
    });
    out
}

/// A strided matrix inside a buffer: `outer` runs (columns of a column-major matrix, rows of
/// a row-major one) of `inner` contiguous elements, `ld` apart, the first one `offset`
/// elements into the buffer, which holds [`TAIL`] more elements past the last run's `ld`.
///
/// ```
/// use host_cli::check::Window;
/// let w = Window { offset: 1, inner: 2, outer: 3, ld: 4 };
/// assert_eq!(w.index(1, 2), 1 + 1 + 2 * 4);
/// assert_eq!(w.buffer_len(), 1 + 3 * 4 + host_cli::check::TAIL);
/// assert_eq!(w.coords(10), Some((1, 2)));
/// assert_eq!(w.coords(3), None); // ld padding of run 0
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Elements before the matrix's first element.
    pub offset: usize,
    /// Contiguous extent of one run.
    pub inner: usize,
    /// Number of runs.
    pub outer: usize,
    /// Distance between runs (≥ `inner`).
    pub ld: usize,
}

impl Window {
    /// Buffer index of element `i` of run `j`.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 0, inner: 3, outer: 2, ld: 5 };
    /// assert_eq!(w.index(2, 1), 7);
    /// ```
    pub fn index(&self, i: usize, j: usize) -> usize {
        self.offset
            .saturating_add(i)
            .saturating_add(j.saturating_mul(self.ld))
    }

    /// Elements the buffer holds: `offset + outer·ld + TAIL`.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 2, inner: 3, outer: 2, ld: 5 };
    /// assert_eq!(w.buffer_len(), 2 + 10 + host_cli::check::TAIL);
    /// ```
    pub fn buffer_len(&self) -> usize {
        self.offset
            .saturating_add(self.outer.saturating_mul(self.ld))
            .saturating_add(TAIL)
    }

    /// Elements from the matrix's first element to the end of the buffer: what a kernel is
    /// handed as the (view of the) matrix.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 2, inner: 3, outer: 2, ld: 5 };
    /// assert_eq!(w.view_len(), 10 + host_cli::check::TAIL);
    /// ```
    pub fn view_len(&self) -> usize {
        self.buffer_len() - self.offset
    }

    /// `(i, j)` when buffer index `idx` is element `i` of run `j`; `None` for padding.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 1, inner: 2, outer: 2, ld: 3 };
    /// assert_eq!(w.coords(5), Some((1, 1)));
    /// assert_eq!(w.coords(0), None);
    /// ```
    pub fn coords(&self, idx: usize) -> Option<(usize, usize)> {
        let rel = idx.checked_sub(self.offset)?;
        let (j, i) = (rel / self.ld.max(1), rel % self.ld.max(1));
        (i < self.inner && j < self.outer).then_some((i, j))
    }

    /// Sets every element inside the window to `f()`, run by run.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 1, inner: 1, outer: 2, ld: 2 };
    /// let mut buf = vec![0; w.buffer_len()];
    /// let mut next = 0;
    /// w.fill(&mut buf, || { next += 1; next });
    /// assert_eq!(buf[..5], [0, 1, 0, 2, 0]);
    /// ```
    pub fn fill<T>(&self, buf: &mut [T], mut f: impl FnMut() -> T) {
        for j in 0..self.outer {
            let start = self.index(0, j);
            let end = start.saturating_add(self.inner).min(buf.len());
            for x in buf.get_mut(start..end).unwrap_or_default() {
                *x = f();
            }
        }
    }

    /// Elements outside the window whose bits differ between `got` and `before` (plus any
    /// difference in length): writes into the padding, before the matrix or past its end.
    ///
    /// ```
    /// let w = host_cli::check::Window { offset: 1, inner: 1, outer: 1, ld: 1 };
    /// let before = [7u32; 6];
    /// let mut got = before;
    /// got[1] = 0; // the matrix: allowed
    /// assert_eq!(w.padding_writes(&got, &before), 0);
    /// got[5] = 0; // past the end
    /// assert_eq!(w.padding_writes(&got, &before), 1);
    /// ```
    pub fn padding_writes<T: BitPattern>(&self, got: &[T], before: &[T]) -> usize {
        let len = got.len().min(before.len());
        let differ = |lo: usize, hi: usize| {
            let lo = lo.min(len);
            let hi = hi.min(len).max(lo);
            got[lo..hi]
                .iter()
                .zip(&before[lo..hi])
                .filter(|(g, b)| g.bit_pattern() != b.bit_pattern())
                .count()
        };
        let ld = self.ld.max(1);
        let run = |j: usize| self.offset.saturating_add(j.saturating_mul(ld));
        // before the matrix, each run's ld gap, after the last run
        let mut n = differ(0, self.offset);
        if self.inner < ld {
            for j in 0..self.outer {
                if run(j) >= len {
                    break;
                }
                n += differ(run(j).saturating_add(self.inner), run(j + 1));
            }
        }
        n += differ(run(self.outer), len);
        n + got.len().abs_diff(before.len())
    }
}

/// An element compared by its bits (so a NaN left alone is untouched and `-0.0` written over
/// `0.0` is a write): what [`Window::padding_writes`] and the copy sweep compare.
///
/// ```
/// use host_cli::check::BitPattern;
/// assert_eq!((-1i16).bit_pattern(), 0xFFFF);
/// assert_ne!((-0.0f32).bit_pattern(), 0.0f32.bit_pattern());
/// ```
pub trait BitPattern: Copy {
    /// The bits, zero-extended.
    fn bit_pattern(self) -> u32;
}

impl BitPattern for f32 {
    fn bit_pattern(self) -> u32 {
        self.to_bits()
    }
}
impl BitPattern for u32 {
    fn bit_pattern(self) -> u32 {
        self
    }
}
impl BitPattern for i32 {
    fn bit_pattern(self) -> u32 {
        self as u32
    }
}
impl BitPattern for u16 {
    fn bit_pattern(self) -> u32 {
        self.into()
    }
}
impl BitPattern for i16 {
    fn bit_pattern(self) -> u32 {
        (self as u16).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_seeds_differ_by_seed_index_and_stream() {
        let s = sub_seed(12, 0, 0);
        assert_eq!(s, sub_seed(12, 0, 0));
        assert_ne!(s, sub_seed(13, 0, 0));
        assert_ne!(s, sub_seed(12, 1, 0));
        assert_ne!(s, sub_seed(12, 0, 1));
    }

    #[test]
    fn uint_and_chance_stay_in_range() {
        let mut r = Rng::new(1);
        let mut seen = [false; 4];
        for _ in 0..1000 {
            let x = uint(&mut r, 3, 6);
            assert!((3..=6).contains(&x));
            seen[x - 3] = true;
            assert_eq!(uint(&mut r, 9, 2), 9);
            assert!(!chance(&mut r, 0) && chance(&mut r, 100));
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
        assert!(
            (0..10)
                .map(|_| uint(&mut r, 0, usize::MAX))
                .any(|x| x > 1 << 40)
        );
    }

    #[test]
    fn nonzero_units_are_never_zero() {
        let mut r = Rng::new(3);
        for _ in 0..100_000 {
            let x = nonzero_unit(&mut r);
            assert!(x != 0.0 && (-1.0..1.0).contains(&x));
        }
    }

    #[test]
    fn biased_extents_hit_every_class_and_stay_in_range() {
        let mut r = Rng::new(5);
        let xs: Vec<usize> = (0..2000)
            .map(|_| biased_extent(&mut r, 3000, &[64, 128]))
            .collect();
        assert!(xs.iter().all(|&x| (1..=3000).contains(&x)));
        assert!(xs.iter().filter(|&&x| x <= 16).count() > 200);
        for edge in [63, 0, 1] {
            assert!(
                xs.iter().filter(|&&x| x > 16 && x % 64 == edge).count() > 50,
                "edge {edge}"
            );
        }
        assert!(xs.iter().any(|&x| x > 2900));
        assert_eq!(biased_extent(&mut r, 0, &[]), 1);
    }

    #[test]
    fn window_geometry() {
        let w = Window {
            offset: 3,
            inner: 2,
            outer: 3,
            ld: 5,
        };
        let inside: Vec<usize> = (0..w.buffer_len())
            .filter(|&i| w.coords(i).is_some())
            .collect();
        assert_eq!(inside, [3, 4, 8, 9, 13, 14]);
        for &i in &inside {
            let (r, c) = w.coords(i).unwrap();
            assert_eq!(w.index(r, c), i);
        }
        let mut buf = vec![0u32; w.buffer_len()];
        w.fill(&mut buf, || 1);
        assert_eq!(buf.iter().sum::<u32>(), 6);
        // a short buffer is filled as far as it goes, without a panic
        let mut short = vec![0u32; 9];
        w.fill(&mut short, || 1);
        assert_eq!(short.iter().sum::<u32>(), 3);
        // absurd geometry saturates instead of overflowing
        let huge = Window {
            offset: usize::MAX - 1,
            inner: usize::MAX,
            outer: 2,
            ld: usize::MAX,
        };
        assert_eq!(huge.index(5, 1), usize::MAX);
        assert_eq!(huge.buffer_len(), usize::MAX);
        assert_eq!(huge.view_len(), 1);
        huge.fill(&mut short, || 2);
        assert_eq!(short.iter().sum::<u32>(), 3);
    }

    #[test]
    fn parallel_helpers_cover_everything_once_in_order() {
        for n in [0usize, 1, 7, 1000, 300_000] {
            // ranges: contiguous, in order, covering 0..n
            let parts = par_ranges(n, n, |r| r);
            assert_eq!(parts.first().map_or(0, |r| r.start), 0);
            assert_eq!(parts.last().map_or(0, |r| r.end), n);
            assert!(parts.windows(2).all(|w| w[0].end == w[1].start));
            if n >= 300_000 && std::thread::available_parallelism().map_or(1, |c| c.get()) > 1 {
                assert!(parts.len() > 1, "large work is split");
            }
            // blocks: each element once, with its block's index
            let mut v = vec![0usize; n];
            par_blocks(&mut v, 1000, |i, b| b.iter_mut().for_each(|x| *x += i + 1));
            assert!(v.iter().enumerate().all(|(k, &x)| x == k / 1000 + 1));
            // map
            let m = par_map(&v, |&x| x as u64 * 2);
            assert!(m.iter().zip(&v).all(|(&a, &b)| a == 2 * b as u64));
        }
        // runs: exactly the window's elements, each once, with its run index
        let w = Window {
            offset: 3,
            inner: 700,
            outer: 400,
            ld: 701,
        };
        let mut buf = vec![0usize; w.buffer_len()];
        par_runs(&w, &mut buf, |j, run| {
            assert_eq!(run.len(), 700);
            run.iter_mut().for_each(|x| *x += j + 1)
        });
        for (idx, &x) in buf.iter().enumerate() {
            assert_eq!(x, w.coords(idx).map_or(0, |(_, j)| j + 1), "index {idx}");
        }
        // a short buffer: shorter runs, no panic
        let mut short = vec![0usize; 5000];
        par_runs(&w, &mut short, |_, run| run.iter_mut().for_each(|x| *x = 1));
        assert_eq!(short.iter().sum::<usize>(), 700 * 7 + (5000 - 3 - 7 * 701));
    }

    /// The gap-by-gap count equals the element-by-element definition (`coords`).
    #[test]
    fn padding_writes_match_the_definition() {
        let mut r = Rng::new(11);
        for _ in 0..300 {
            let w = Window {
                offset: uint(&mut r, 0, 5),
                inner: uint(&mut r, 0, 6),
                outer: uint(&mut r, 0, 5),
                ld: uint(&mut r, 0, 8),
            };
            let len = w.buffer_len() + uint(&mut r, 0, 3) - 1;
            let before: Vec<u32> = (0..len).map(|_| r.next_u32()).collect();
            let got: Vec<u32> = before
                .iter()
                .map(|&x| if chance(&mut r, 30) { !x } else { x })
                .collect();
            let want = (0..len)
                .filter(|&i| got[i] != before[i] && w.coords(i).is_none())
                .count();
            assert_eq!(w.padding_writes(&got, &before), want, "{w:?}");
        }
    }

    #[test]
    fn padding_writes_see_every_region() {
        let w = Window {
            offset: 2,
            inner: 2,
            outer: 2,
            ld: 4,
        };
        let before: Vec<u32> = (0..w.buffer_len() as u32).collect();
        // inside writes are not padding writes
        let mut got = before.clone();
        for j in 0..2 {
            for i in 0..2 {
                got[w.index(i, j)] = 999;
            }
        }
        assert_eq!(w.padding_writes(&got, &before), 0);
        // head, ld gap, tail
        for idx in [0, 1, 4, 5, 8, 9, w.buffer_len() - 1] {
            let mut g = got.clone();
            g[idx] ^= 1;
            assert_eq!(w.padding_writes(&g, &before), 1, "index {idx}");
        }
        assert_eq!(w.padding_writes(&got[..5], &before), w.buffer_len() - 5);
        // floats compare by bits: a NaN left alone is untouched, -0 for 0 is a write
        let fb = [f32::NAN, 0.0];
        let g = [f32::NAN, -0.0];
        let w0 = Window {
            offset: 0,
            inner: 0,
            outer: 0,
            ld: 1,
        };
        assert_eq!(w0.padding_writes(&fb, &fb), 0);
        assert_eq!(w0.padding_writes(&g, &fb), 1);
    }
}
