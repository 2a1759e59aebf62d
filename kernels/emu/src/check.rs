//! Test buffers (aligned storage, chosen base offsets, guard bytes), random inputs, the CPU
//! references and the comparisons: copies bit for bit, GEMM against an `f64` reference with a
//! per-element bound.

use crate::geometry::{CopyVariant, Gemm, GemmEntry, Order, Plan, Trans, launch_sgemm};

/// Bytes of guard before and after every buffer's payload.
pub const GUARD: usize = 64;

/// What the destination buffers hold before a copy (outside the matrix it must stay so).
pub const COPY_SENTINEL: u8 = 0x5a;

/// What C's padding and guards hold before a GEMM (a NaN no kernel computes).
pub const C_SENTINEL: u32 = 0x7fc0_1234;

/// A splitmix64 generator: reproducible inputs without dependencies.
///
/// ```
/// let mut r = kernels_emu::check::Rng(7);
/// let x = r.f32_pm1();
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    ///
    /// ```
    /// let mut r = kernels_emu::check::Rng(1);
    /// assert_ne!(r.next_u64(), r.next_u64());
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[-1, 1)`, a multiple of `2^-12` (so products and short sums are exact and
    /// rounding shows only in long sums).
    ///
    /// ```
    /// let x = kernels_emu::check::Rng(3).f32_pm1();
    /// assert_eq!(x * 4096.0, (x * 4096.0).round());
    /// ```
    pub fn f32_pm1(&mut self) -> f32 {
        ((self.next_u64() >> 52) as i32 - 2048) as f32 / 2048.0
    }
    /// Uniform in `[-1, 1)` with a full 24-bit mantissa (inputs whose products round).
    ///
    /// ```
    /// let x = kernels_emu::check::Rng(3).f32_full();
    /// assert!((-1.0..1.0).contains(&x));
    /// ```
    pub fn f32_full(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f64 / (1u64 << 23) as f64 - 1.0) as f32
    }
}

/// Storage aligned to 16 bytes.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct A16([u8; 16]);

/// A buffer of `len` payload bytes starting `offset` bytes after a 16-byte boundary, with
/// [`GUARD`] bytes before and after (the payload's base is what a kernel gets).
///
/// ```
/// let mut b = kernels_emu::check::Buf::new(10, 4, 0xab);
/// assert_eq!(b.ptr() as usize % 16, 4);
/// assert_eq!(b.payload().len(), 10);
/// assert!(b.all().iter().all(|&x| x == 0xab));
/// ```
pub struct Buf {
    raw: Vec<A16>,
    start: usize,
    len: usize,
}

impl Buf {
    /// `len` bytes at `offset` (mod 16) past an aligned boundary, every byte `fill`.
    ///
    /// ```
    /// assert_eq!(kernels_emu::check::Buf::new(0, 0, 0).payload().len(), 0);
    /// ```
    pub fn new(len: usize, offset: usize, fill: u8) -> Buf {
        let start = GUARD + offset % 16;
        let total = (start + len + GUARD).div_ceil(16);
        Buf {
            raw: vec![A16([fill; 16]); total],
            start,
            len,
        }
    }
    /// The payload's base address.
    ///
    /// ```
    /// let mut b = kernels_emu::check::Buf::new(4, 0, 0);
    /// unsafe { *b.ptr() = 9 };
    /// assert_eq!(b.payload()[0], 9);
    /// ```
    pub fn ptr(&mut self) -> *mut u8 {
        // SAFETY: `start` is inside the allocation.
        unsafe { (self.raw.as_mut_ptr() as *mut u8).add(self.start) }
    }
    /// Every byte, guards included.
    ///
    /// ```
    /// assert_eq!(kernels_emu::check::Buf::new(1, 0, 0).all().len() % 16, 0);
    /// ```
    pub fn all(&self) -> &[u8] {
        // SAFETY: `raw` is plain bytes.
        unsafe { std::slice::from_raw_parts(self.raw.as_ptr() as *const u8, self.raw.len() * 16) }
    }
    /// Every byte, guards included, mutable.
    ///
    /// ```
    /// let mut b = kernels_emu::check::Buf::new(1, 0, 0);
    /// b.all_mut()[0] = 1;
    /// assert_eq!(b.all()[0], 1);
    /// ```
    pub fn all_mut(&mut self) -> &mut [u8] {
        // SAFETY: `raw` is plain bytes.
        unsafe {
            std::slice::from_raw_parts_mut(self.raw.as_mut_ptr() as *mut u8, self.raw.len() * 16)
        }
    }
    /// The payload bytes.
    ///
    /// ```
    /// assert_eq!(kernels_emu::check::Buf::new(3, 5, 1).payload(), [1, 1, 1]);
    /// ```
    pub fn payload(&self) -> &[u8] {
        &self.all()[self.start..self.start + self.len]
    }
    /// Offset of the payload in [`Buf::all`].
    ///
    /// ```
    /// assert_eq!(kernels_emu::check::Buf::new(3, 5, 1).start(), kernels_emu::check::GUARD + 5);
    /// ```
    pub fn start(&self) -> usize {
        self.start
    }
}

/// Elements of `outer` runs of `inner` contiguous elements, `ld` apart (`host`'s `need`).
///
/// ```
/// assert_eq!(kernels_emu::check::need(2, 3, 4), 7);
/// ```
pub fn need(outer: usize, inner: usize, ld: usize) -> usize {
    if outer == 0 || inner == 0 {
        0
    } else {
        (outer - 1) * ld + inner
    }
}

/// One copy or transpose problem: `m × n` source, leading dimensions in elements, both bases
/// `offset` bytes past a 16-byte boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyCase {
    /// Rows of the source.
    pub m: usize,
    /// Columns of the source.
    pub n: usize,
    /// Leading dimension of the source.
    pub lds: usize,
    /// Leading dimension of the destination.
    pub ldd: usize,
    /// Byte offset of both bases from 16-byte alignment.
    pub offset: usize,
}

/// `(outer, inner)` of the source and destination of `v` on an `m × n` source.
fn copy_shapes(v: &CopyVariant, m: usize, n: usize) -> ((usize, usize), (usize, usize)) {
    match (v.transpose, v.order) {
        (true, _) => ((m, n), (n, m)),
        (false, Order::RowMajor) => ((m, n), (m, n)),
        (false, Order::ColMajor) => ((n, m), (n, m)),
    }
}

/// Runs `v` on `case` (random source bits from `seed`, destination pre-filled with
/// [`COPY_SENTINEL`]) and compares every byte of the destination buffer, guards and padding
/// included, with the expected one: `Err` names the first differences.
///
/// ```
/// use kernels_emu::{check, geometry};
/// let t = &geometry::COPY_VARIANTS[6]; // transpose_f32_swizzled
/// assert!(check::run_copy(t, &check::CopyCase { m: 5, n: 3, lds: 4, ldd: 8, offset: 0 }, 2).is_ok());
/// ```
pub fn run_copy(v: &CopyVariant, case: &CopyCase, seed: u64) -> Result<(), String> {
    let e = v.elem;
    let ((so, si), (d_o, di)) = copy_shapes(v, case.m, case.n);
    let mut rng = Rng(seed);
    let mut src = Buf::new(need(so, si, case.lds) * e, case.offset, 0);
    for chunk in src.all_mut().chunks_mut(e) {
        // random bits, never the all-ones pattern shared memory is poisoned with
        loop {
            let bits = rng.next_u64().to_le_bytes();
            if bits[..e].iter().any(|&b| b != device::emu::SHARED_POISON) {
                chunk.copy_from_slice(&bits[..e]);
                break;
            }
        }
    }
    let mut dst = Buf::new(need(d_o, di, case.ldd) * e, case.offset, COPY_SENTINEL);
    let mut expect = dst.all().to_vec();
    let (s0, d0) = (src.start(), dst.start());
    for o in 0..so {
        for i in 0..si {
            let s = s0 + (o * case.lds + i) * e;
            let d = if v.transpose {
                d0 + (i * case.ldd + o) * e
            } else {
                d0 + (o * case.ldd + i) * e
            };
            expect[d..d + e].copy_from_slice(&src.all()[s..s + e]);
        }
    }
    let sp = src.ptr() as *const u8;
    // SAFETY: the buffers hold the matrices (`need`); alignment as the case says, which the
    // callers keep legal for the variant.
    unsafe { v.launch(sp, dst.ptr(), case.m, case.n, case.lds, case.ldd) };
    compare_bytes(&expect, dst.all(), e, d0, case.ldd)
}

/// Compares `got` with `expect` element by element (`e` bytes); errors name up to 5
/// differing elements by `(outer, inner)` position relative to the payload at `base`.
///
/// ```
/// let e = [1u8, 2, 3, 4];
/// assert!(kernels_emu::check::compare_bytes(&e, &e, 2, 0, 2).is_ok());
/// assert!(kernels_emu::check::compare_bytes(&e, &[1, 2, 3, 5], 2, 0, 2).is_err());
/// ```
pub fn compare_bytes(
    expect: &[u8],
    got: &[u8],
    e: usize,
    base: usize,
    ld: usize,
) -> Result<(), String> {
    let mut bad = Vec::new();
    let mut count = 0;
    for (k, (x, y)) in expect.chunks(e).zip(got.chunks(e)).enumerate() {
        if x != y {
            count += 1;
            if bad.len() < 5 {
                let at = (k * e) as isize - base as isize;
                let pos = if at >= 0 && (at as usize).is_multiple_of(e) {
                    let el = at as usize / e;
                    format!("element ({}, {})", el / ld.max(1), el % ld.max(1))
                } else {
                    format!("guard byte {at}")
                };
                bad.push(format!("{pos}: expected {x:02x?}, got {y:02x?}"));
            }
        }
    }
    if count == 0 {
        Ok(())
    } else {
        Err(format!("{count} elements differ; {}", bad.join("; ")))
    }
}

/// One GEMM problem with its launch plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmCase {
    /// Rows of C.
    pub m: usize,
    /// Columns of C.
    pub n: usize,
    /// The inner dimension.
    pub k: usize,
    /// Scale of op(A)·op(B).
    pub alpha: f32,
    /// Scale of C; `0`: C starts as NaN (it must not be read).
    pub beta: f32,
    /// Leading dimensions beyond the stored rows: `(lda, ldb, ldc) - rows`.
    pub pad: (usize, usize, usize),
    /// Byte offset of the three bases from 16-byte alignment (a multiple of 4).
    pub offset: usize,
    /// Split-K depth and rasterization.
    pub plan: Plan,
    /// Full-mantissa inputs (products round) rather than multiples of `2^-12`.
    pub full: bool,
}

impl GemmCase {
    /// A case with `alpha = 1`, `beta = 0`, tight leading dimensions, aligned bases, no split.
    ///
    /// ```
    /// let c = kernels_emu::check::GemmCase::new(3, 4, 5);
    /// assert_eq!((c.alpha, c.beta, c.pad), (1.0, 0.0, (0, 0, 0)));
    /// ```
    pub fn new(m: usize, n: usize, k: usize) -> GemmCase {
        GemmCase {
            m,
            n,
            k,
            alpha: 1.0,
            beta: 0.0,
            pad: (0, 0, 0),
            offset: 0,
            plan: Plan {
                split: 1,
                rast_n: false,
            },
            full: false,
        }
    }
}

/// The operands of a GEMM as the host stores them (column-major), in `f32`.
#[derive(Clone, Debug)]
pub struct GemmData {
    /// The arguments.
    pub g: Gemm,
    /// op(A).
    pub ta: Trans,
    /// op(B).
    pub tb: Trans,
    /// A as stored (`lda` leading dimension).
    pub a: Vec<f32>,
    /// B as stored.
    pub b: Vec<f32>,
    /// C before the GEMM.
    pub c: Vec<f32>,
}

impl GemmData {
    /// `op(A)(i, p)`.
    fn a(&self, i: usize, p: usize) -> f32 {
        match self.ta {
            Trans::N => self.a[i + p * self.g.lda],
            Trans::T => self.a[p + i * self.g.lda],
        }
    }
    /// `op(B)(p, j)`.
    fn b(&self, p: usize, j: usize) -> f32 {
        match self.tb {
            Trans::N => self.b[p + j * self.g.ldb],
            Trans::T => self.b[j + p * self.g.ldb],
        }
    }

    /// Checks `c_out` (C after the GEMM, `ldc` layout) against the `f64` reference: every
    /// element within `2·γ_{K+4}·(|α|·Σ|a||b| + |β|·|c|)` of `α·Σab + β·c`, γ_n = n·u/(1−n·u),
    /// u = 2⁻²⁴, and finite; `Err` names up to 5 failing elements.
    ///
    /// ```
    /// use kernels_emu::check::GemmData;
    /// use kernels_emu::geometry::{Gemm, Trans};
    /// let g = Gemm { m: 1, n: 1, k: 2, alpha: 1.0, lda: 1, ldb: 2, beta: 0.0, ldc: 1 };
    /// let d = GemmData { g, ta: Trans::N, tb: Trans::N, a: vec![1.0, 2.0], b: vec![3.0, 4.0], c: vec![f32::NAN] };
    /// assert!(d.check(&[11.0]).is_ok());
    /// assert!(d.check(&[11.0 + 1e-5]).is_err());
    /// ```
    pub fn check(&self, c_out: &[f32]) -> Result<(), String> {
        let g = &self.g;
        let u = 2f64.powi(-24);
        let nk = (g.k + 4) as f64;
        let gamma = nk * u / (1.0 - nk * u);
        let (alpha, beta) = (g.alpha as f64, g.beta as f64);
        let mut bad = Vec::new();
        let mut count = 0;
        for j in 0..g.n {
            for i in 0..g.m {
                let (mut s, mut abs) = (0f64, 0f64);
                for p in 0..g.k {
                    let x = self.a(i, p) as f64 * self.b(p, j) as f64;
                    s += x;
                    abs += x.abs();
                }
                let mut want = alpha * s;
                let mut mag = alpha.abs() * abs;
                if g.beta != 0.0 {
                    let c = self.c[i + j * g.ldc] as f64;
                    want += beta * c;
                    mag += beta.abs() * c.abs();
                }
                let bound = 2.0 * gamma * mag;
                let got = c_out[i + j * g.ldc];
                let err = (got as f64 - want).abs();
                if !got.is_finite() || err > bound {
                    count += 1;
                    if bad.len() < 5 {
                        bad.push(format!(
                            "C({i}, {j}) = {got:e}, reference {want:e}, |error| {err:.3e} > bound {bound:.3e}"
                        ));
                    }
                }
            }
        }
        if count == 0 {
            Ok(())
        } else {
            Err(format!(
                "{count} of {} elements wrong: {}",
                g.m * g.n,
                bad.join("; ")
            ))
        }
    }
}

/// Rows and columns of A and B as stored.
fn stored(ta: Trans, tb: Trans, m: usize, n: usize, k: usize) -> ((usize, usize), (usize, usize)) {
    let a = match ta {
        Trans::N => (m, k),
        Trans::T => (k, m),
    };
    let b = match tb {
        Trans::N => (k, n),
        Trans::T => (n, k),
    };
    (a, b)
}

fn f32_buf(v: &[f32], offset: usize, fill: u32) -> Buf {
    let mut b = Buf::new(v.len() * 4, offset, 0);
    for w in b.all_mut().chunks_mut(4) {
        w.copy_from_slice(&fill.to_le_bytes());
    }
    let s = b.start();
    for (i, x) in v.iter().enumerate() {
        b.all_mut()[s + 4 * i..s + 4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    b
}

/// Runs entry `e` on `case` as the host launches it (`launch_sgemm`) and checks the result
/// ([`GemmData::check`]) and that nothing outside C's `(M, N)` elements changed (padding
/// between `M` and `ldc`, guards).
///
/// ```
/// use kernels_emu::{check, geometry};
/// let e = &geometry::GEMM_ENTRIES[4]; // sgemm_64x64x8_nn
/// assert!(check::run_gemm(e, &check::GemmCase::new(3, 2, 9), 1).is_ok());
/// ```
pub fn run_gemm(e: &GemmEntry, case: &GemmCase, seed: u64) -> Result<(), String> {
    let d = gemm_data(e, case, seed);
    let c_out = launch_gemm(e, case, &d)?;
    d.check(&c_out)
}

/// The inputs of `case` for entry `e` (random, from `seed`; C all NaN when `beta == 0`).
///
/// ```
/// use kernels_emu::{check, geometry};
/// let d = check::gemm_data(&geometry::GEMM_ENTRIES[0], &check::GemmCase::new(2, 3, 4), 0);
/// assert_eq!((d.a.len(), d.b.len(), d.c.len()), (8, 12, 6));
/// ```
pub fn gemm_data(e: &GemmEntry, case: &GemmCase, seed: u64) -> GemmData {
    let ((ar, ac), (br, bc)) = stored(e.ta, e.tb, case.m, case.n, case.k);
    let g = Gemm {
        m: case.m,
        n: case.n,
        k: case.k,
        alpha: case.alpha,
        lda: ar.max(1) + case.pad.0,
        ldb: br.max(1) + case.pad.1,
        beta: case.beta,
        ldc: case.m.max(1) + case.pad.2,
    };
    let mut rng = Rng(seed);
    let mut fill = |len: usize| -> Vec<f32> {
        (0..len)
            .map(|_| {
                if case.full {
                    rng.f32_full()
                } else {
                    rng.f32_pm1()
                }
            })
            .collect()
    };
    let a = fill(need(ac, ar, g.lda));
    let b = fill(need(bc, br, g.ldb));
    let c = if case.beta == 0.0 {
        vec![f32::NAN; need(case.n, case.m, g.ldc)]
    } else {
        fill(need(case.n, case.m, g.ldc))
    };
    GemmData {
        g,
        ta: e.ta,
        tb: e.tb,
        a,
        b,
        c,
    }
}

/// Launches `e` on `d` and returns C (`ldc` layout); `Err` if anything outside C's elements
/// changed.
///
/// ```
/// use kernels_emu::{check, geometry};
/// let e = &geometry::GEMM_ENTRIES[5];
/// let case = check::GemmCase::new(2, 2, 1);
/// let d = check::gemm_data(e, &case, 0);
/// let c = check::launch_gemm(e, &case, &d).unwrap();
/// assert!(d.check(&c).is_ok());
/// ```
pub fn launch_gemm(e: &GemmEntry, case: &GemmCase, d: &GemmData) -> Result<Vec<f32>, String> {
    let g = &d.g;
    // A and B: padding and guards hold NaN, so a kernel reading them shows.
    let nan = f32::NAN.to_bits();
    let mut a = f32_buf(&d.a, case.offset, nan);
    let mut b = f32_buf(&d.b, case.offset, nan);
    // C: padding (rows M..ldc) and guards hold the sentinel.
    let mut c_init = d.c.clone();
    for j in 0..g.n {
        for i in g.m..g.ldc {
            if let Some(x) = c_init.get_mut(i + j * g.ldc) {
                *x = f32::from_bits(C_SENTINEL);
            }
        }
    }
    let mut c = f32_buf(&c_init, case.offset, C_SENTINEL);
    let before = c.all().to_vec();
    let (pa, pb) = (a.ptr() as *const f32, b.ptr() as *const f32);
    // SAFETY: the buffers hold the matrices `g` describes.
    unsafe { launch_sgemm(e, case.plan, g, pa, pb, c.ptr() as *mut f32) };
    let s = c.start();
    let mut out = vec![0f32; d.c.len()];
    let mut outside = 0;
    for (k, (x, y)) in before.chunks(4).zip(c.all().chunks(4)).enumerate() {
        let at = (4 * k) as isize - s as isize;
        let el = at / 4;
        let inside = at >= 0
            && (el as usize) < d.c.len()
            && (el as usize % g.ldc) < g.m
            && (el as usize / g.ldc) < g.n;
        if inside {
            out[el as usize] = f32::from_le_bytes(y.try_into().unwrap());
        } else if x != y {
            outside += 1;
        }
    }
    if outside > 0 {
        return Err(format!(
            "{outside} words outside C's {}x{} elements (padding to ldc {} or guards) changed",
            g.m, g.n, g.ldc
        ));
    }
    Ok(out)
}
