//! What the randomized sweeps ([`super::gemm_sweep`], [`super::copy_sweep`]) share: the seed
//! and the counts ([`SweepConfig`]), per-problem sub-seeds, random extents biased toward the
//! interesting cases, and [`Window`]: a strided matrix inside a larger buffer, with the check
//! that nothing outside it was written.

use super::Rng;

/// The seed `host run` sweeps with unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 12;

/// GEMM problems `host run` sweeps by default.
pub const DEFAULT_GEMM_PROBLEMS: usize = 300;

/// Copy / transpose shapes `host run` sweeps by default.
pub const DEFAULT_COPY_SHAPES: usize = 100;

/// Elements every sweep buffer holds past the end of its matrix's last column (poisoned,
/// checked untouched, so a write past the end is seen).
pub const TAIL: usize = 4;

/// How much the randomized sweeps of `host run` do: the seed and the number of problems of
/// each (0 leaves a sweep out).
///
/// ```
/// let s = host::check::SweepConfig::default();
/// assert_eq!((s.seed, s.gemm, s.copy), (12, 300, 100));
/// let none = host::check::SweepConfig { gemm: 0, copy: 0, ..s };
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
}

impl Default for SweepConfig {
    fn default() -> Self {
        SweepConfig {
            seed: DEFAULT_SEED,
            gemm: DEFAULT_GEMM_PROBLEMS,
            copy: DEFAULT_COPY_SHAPES,
        }
    }
}

impl SweepConfig {
    /// Progress steps the sweeps take (one per problem).
    ///
    /// ```
    /// assert_eq!(host::check::SweepConfig::default().steps(), 400);
    /// ```
    pub fn steps(&self) -> usize {
        self.gemm.saturating_add(self.copy)
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

/// A strided matrix inside a buffer: `outer` runs (columns of a column-major matrix, rows of
/// a row-major one) of `inner` contiguous elements, `ld` apart, the first one `offset`
/// elements into the buffer, which holds [`TAIL`] more elements past the last run's `ld`.
///
/// ```
/// use host::check::Window;
/// let w = Window { offset: 1, inner: 2, outer: 3, ld: 4 };
/// assert_eq!(w.index(1, 2), 1 + 1 + 2 * 4);
/// assert_eq!(w.buffer_len(), 1 + 3 * 4 + host::check::TAIL);
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
    /// let w = host::check::Window { offset: 0, inner: 3, outer: 2, ld: 5 };
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
    /// let w = host::check::Window { offset: 2, inner: 3, outer: 2, ld: 5 };
    /// assert_eq!(w.buffer_len(), 2 + 10 + host::check::TAIL);
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
    /// let w = host::check::Window { offset: 2, inner: 3, outer: 2, ld: 5 };
    /// assert_eq!(w.view_len(), 10 + host::check::TAIL);
    /// ```
    pub fn view_len(&self) -> usize {
        self.buffer_len() - self.offset
    }

    /// `(i, j)` when buffer index `idx` is element `i` of run `j`; `None` for padding.
    ///
    /// ```
    /// let w = host::check::Window { offset: 1, inner: 2, outer: 2, ld: 3 };
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
    /// let w = host::check::Window { offset: 1, inner: 1, outer: 2, ld: 2 };
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
    /// let w = host::check::Window { offset: 1, inner: 1, outer: 1, ld: 1 };
    /// let before = [7u32; 6];
    /// let mut got = before;
    /// got[1] = 0; // the matrix: allowed
    /// assert_eq!(w.padding_writes(&got, &before), 0);
    /// got[5] = 0; // past the end
    /// assert_eq!(w.padding_writes(&got, &before), 1);
    /// ```
    pub fn padding_writes<T: BitPattern>(&self, got: &[T], before: &[T]) -> usize {
        let differing = got
            .iter()
            .zip(before)
            .enumerate()
            .filter(|&(idx, (g, b))| {
                g.bit_pattern() != b.bit_pattern() && self.coords(idx).is_none()
            })
            .count();
        differing + got.len().abs_diff(before.len())
    }
}

/// An element compared by its bits (so a NaN left alone is untouched and `-0.0` written over
/// `0.0` is a write): what [`Window::padding_writes`] and the copy sweep compare.
///
/// ```
/// use host::check::BitPattern;
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
