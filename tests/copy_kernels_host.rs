//! The copy kernels' bodies (`kernels/copy/src/body.rs`, the same source the PTX entries call)
//! run on the host: every thread of every block, 256 OS threads per launch meeting at a
//! `std::sync::Barrier` where the kernel calls `__syncthreads()`, each block with its own
//! shared-memory buffer. Checks, for each entry and shapes with every kind of edge (1×1, one
//! tile, partial vectors at the end of the contiguous dimension, a tile and one, 33×65, 4097×3,
//! 3×4097, padded leading dimensions):
//!
//! - every element of the matrix arrives, bit-exact (`dst = src`, `B = Aᵀ`);
//! - nothing outside the matrix is written: the padding of `dst` (columns between the extent and
//!   the leading dimension) and guard elements after it keep their sentinel;
//! - nothing outside the matrix is copied: the source's padding and guards hold another
//!   sentinel, which would show up in `dst` (the buffers are exactly as long as the host's
//!   `need(outer, inner, ld)` plus guards). A read outside whose value is dropped would not
//!   show; the PTX test and the predicates' unit tests cover that side.
//!
//! On the host the atoms are plain memory copies (`layout_types::cute::arch`), so this checks the
//! partitions, predicates and layouts of the bodies, not the PTX (`tests/ptx_copy_kernels.rs`).

#[allow(dead_code, clippy::all)]
#[path = "../kernels/copy/src/body.rs"]
mod body;

use body::Thread;
use std::sync::Barrier;

const THREADS: u32 = 256;
const GUARD: usize = 64;

/// A raw pointer shared by the threads of a launch (each element is written by one thread; the
/// barrier orders the smem writes before the reads).
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

/// Runs `body(thread)` for a `(gx, gy)` grid of 256-thread blocks with `smem_bytes` each.
fn launch((gx, gy): (usize, usize), smem_bytes: usize, body: impl Fn(Thread<&dyn Fn()>) + Sync) {
    let blocks: Vec<(u32, u32)> = (0..gy)
        .flat_map(|y| (0..gx).map(move |x| (x as u32, y as u32)))
        .collect();
    // 16-byte aligned smem per block
    let mut smem = vec![0u128; blocks.len() * smem_bytes / 16];
    let smem = Shared(smem.as_mut_ptr() as *mut u8);
    let barrier = Barrier::new(THREADS as usize);
    std::thread::scope(|s| {
        for tid in 0..THREADS {
            let (blocks, barrier, body) = (&blocks, &barrier, &body);
            // unoptimized builds keep every unrolled copy's frame: big stacks
            let spawn = std::thread::Builder::new().stack_size(32 << 20);
            spawn
                .spawn_scoped(s, move || {
                    let smem = smem;
                    let sync = || {
                        barrier.wait();
                    };
                    for (b, &block) in blocks.iter().enumerate() {
                        body(Thread {
                            tid,
                            block,
                            smem: smem.0.wrapping_add(b * smem_bytes),
                            sync: &sync,
                        });
                    }
                })
                .expect("spawn a block thread");
        }
    });
}

/// An `outer x inner` matrix with leading dimension `ld` in a buffer of exactly
/// `need(outer, inner, ld) + GUARD` elements: element `(o, i)` at `o * ld + i`.
fn need(outer: usize, inner: usize, ld: usize) -> usize {
    (outer - 1) * ld + inner
}

trait Elem: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// In the destination outside the matrix.
    const SENTINEL: Self;
    /// In the source outside the matrix (different, so that a copy of it shows).
    const OUTSIDE: Self;
    fn of(k: usize) -> Self;
}
impl Elem for u32 {
    const SENTINEL: u32 = 0xdead_beef;
    const OUTSIDE: u32 = 0xbad0_bad0;
    fn of(k: usize) -> u32 {
        k as u32 * 2 + 1
    }
}
impl Elem for u16 {
    const SENTINEL: u16 = 0xbeef;
    const OUTSIDE: u16 = 0xbad0;
    fn of(k: usize) -> u16 {
        (k % 30000) as u16 * 2 + 1
    }
}
impl Elem for f32 {
    const SENTINEL: f32 = -7.0;
    const OUTSIDE: f32 = -9.0;
    fn of(k: usize) -> f32 {
        k as f32
    }
}

/// A source matrix (elements `of(o * inner + i)`, sentinel elsewhere) and a sentinel destination.
fn buffers<T: Elem>(
    outer: usize,
    inner: usize,
    lds: usize,
    outer_d: usize,
    inner_d: usize,
    ldd: usize,
) -> (Vec<T>, Vec<T>) {
    let mut src = vec![T::OUTSIDE; need(outer, inner, lds) + GUARD];
    for o in 0..outer {
        for i in 0..inner {
            src[o * lds + i] = T::of(o * inner + i);
        }
    }
    let dst = vec![T::SENTINEL; need(outer_d, inner_d, ldd) + GUARD];
    (src, dst)
}

/// Checks `dst(o, i) == want(o, i)` inside and the sentinel everywhere else.
fn check<T: Elem>(
    what: &str,
    dst: &[T],
    outer: usize,
    inner: usize,
    ld: usize,
    want: impl Fn(usize, usize) -> T,
) {
    for (k, &x) in dst.iter().enumerate() {
        let (o, i) = (k / ld, k % ld);
        let inside = o < outer && i < inner;
        let w = if inside { want(o, i) } else { T::SENTINEL };
        assert_eq!(x, w, "{what}: element {k} = ({o}, {i}), inside: {inside}");
    }
}

/// A tiled-copy kernel: its body, element type, tile, order (row-major: `outer = m`), vector width.
struct Kernel<T> {
    name: &'static str,
    tile: (usize, usize),
    col: bool,
    vec: usize,
    #[allow(clippy::type_complexity)]
    run: unsafe fn(Thread<&dyn Fn()>, *const u8, *mut u8, i64, i64, i64, i64),
    _t: std::marker::PhantomData<T>,
}

fn run_copy<T: Elem>(k: &Kernel<T>, m: usize, n: usize, pad: usize) {
    let (outer, inner) = if k.col { (n, m) } else { (m, n) };
    let ld = inner.max(1).next_multiple_of(k.vec) + pad * k.vec;
    let (src, mut dst) = buffers::<T>(outer, inner, ld, outer, inner, ld);
    let (tm, tn) = (m.div_ceil(k.tile.0), n.div_ceil(k.tile.1));
    let grid = if k.col { (tn, tm) } else { (tm, tn) };
    let smem = k.tile.0 * k.tile.1 * std::mem::size_of::<T>();
    let (s, d) = (Shared(src.as_ptr() as *mut T), Shared(dst.as_mut_ptr()));
    launch(grid, smem, |t| {
        let (s, d) = (s, d);
        unsafe {
            (k.run)(
                t,
                s.0 as *const u8,
                d.0 as *mut u8,
                m as i64,
                n as i64,
                ld as i64,
                ld as i64,
            )
        }
    });
    check(
        &format!("{} {m}x{n} ld {ld}", k.name),
        &dst,
        outer,
        inner,
        ld,
        |o, i| T::of(o * inner + i),
    );
}

macro_rules! kernel {
    ($cfg:ident, $t:ty, $tile:expr, col = $col:expr, vec = $vec:expr) => {
        Kernel::<$t> {
            name: stringify!($cfg),
            tile: $tile,
            col: $col,
            vec: $vec,
            run: |t, s, d, m, n, lds, ldd| unsafe { body::$cfg::run(t, s, d, m, n, lds, ldd) },
            _t: std::marker::PhantomData,
        }
    };
}

/// Shapes with every kind of edge; `(m, n, pad)`: `pad` extra vectors in the leading dimension.
const SHAPES: &[(usize, usize, usize)] = &[
    (1, 1, 0),
    (1, 1, 1),
    (33, 65, 0),
    (33, 65, 2),
    (4097, 3, 0),
    (3, 4097, 0),
    (64, 128, 0),
    (128, 64, 1),
    (65, 129, 0),
    (129, 257, 1),
    (256, 64, 0),
    (7, 6, 0),
];

fn sweep<T: Elem>(k: Kernel<T>) {
    for &(m, n, pad) in SHAPES {
        run_copy(&k, m, n, pad);
    }
}

#[test]
fn tiled_copy_row_f32_v4() {
    sweep(kernel!(RowF32V4, u32, (64, 128), col = false, vec = 4));
}

#[test]
fn tiled_copy_row_f32_cp_async() {
    sweep(kernel!(RowF32CpAsync, u32, (64, 128), col = false, vec = 4));
}

#[test]
fn tiled_copy_row_f32_scalar() {
    sweep(kernel!(RowF32Scalar, u32, (64, 128), col = false, vec = 1));
}

#[test]
fn tiled_copy_col_f32_v4() {
    sweep(kernel!(ColF32V4, u32, (128, 64), col = true, vec = 4));
}

#[test]
fn tiled_copy_row_f16_v4() {
    sweep(kernel!(RowF16V4, u16, (64, 256), col = false, vec = 8));
}

#[test]
fn tiled_copy_col_f16_v4() {
    sweep(kernel!(ColF16V4, u16, (256, 64), col = true, vec = 8));
}

fn run_transpose(swizzled: bool, m: usize, n: usize, pad: usize) {
    let lda = n.next_multiple_of(4) + 4 * pad;
    let ldb = m.next_multiple_of(4) + 4 * pad;
    let (a, mut b) = buffers::<f32>(m, n, lda, n, m, ldb);
    let (pa, pb) = (Shared(a.as_ptr() as *mut f32), Shared(b.as_mut_ptr()));
    launch((m.div_ceil(64), n.div_ceil(64)), 64 * 64 * 4, |t| {
        let (pa, pb) = (pa, pb);
        let (m, n, lda, ldb) = (m as i64, n as i64, lda as i64, ldb as i64);
        unsafe {
            if swizzled {
                body::transpose::<layout_types::swizzle::Swizzle<3, 2, 6>, _>(
                    t, pa.0, pb.0, m, n, lda, ldb,
                )
            } else {
                body::transpose::<layout_types::swizzle::Swizzle<0, 4, 3>, _>(
                    t, pa.0, pb.0, m, n, lda, ldb,
                )
            }
        }
    });
    // B (n x m) = Aᵀ: B(j, i) = A(i, j) = of(i * n + j)
    check(
        &format!("transpose (swizzled: {swizzled}) {m}x{n}"),
        &b,
        n,
        m,
        ldb,
        |j, i| f32::of(i * n + j),
    );
}

#[test]
fn transpose_f32_swizzled() {
    for &(m, n, pad) in SHAPES {
        run_transpose(true, m, n, pad);
    }
}

#[test]
fn transpose_f32_naive() {
    for &(m, n, pad) in SHAPES {
        run_transpose(false, m, n, pad);
    }
}
