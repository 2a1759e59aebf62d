//! Compile-time unrolling: `unroll!(N, |i| body)` runs `body` for `i = 0..N` as straight-line
//! code, `N` a constant expression (it may use the caller's const generics), the way
//! `CUTE_UNROLL for (int i = 0; i < size(t); ++i)` does over a static size in CuTe.
//!
//! Every `i` is a literal in its copy of `body`, so register arrays indexed by `i` stay in
//! registers (no `.local` frame) and static layout offsets fold to constants.
//!
//! Why a macro over a const-generic helper rather than a function taking `n: usize`: the
//! earlier `fn unroll(n, f)` held 16 guarded calls `if i < n { f(i) }`. LLVM inlines bottom-up,
//! so every closure was inlined into all 16 slots of its `unroll` *before* `unroll` was inlined
//! into a caller where `n` is known; nested four deep (the GEMM epilogue) that is 16^4 copies of
//! the innermost body, pruned only afterwards. That was the cold PTX build's 509 s of LLVM
//! passes. Here `match const { N }` selects `unroll_n::<N>` after monomorphization (rustc does
//! not even emit the other arms), and `unroll_n` guards its slots with `if const { i < N }`, so
//! LLVM only ever sees the `N` calls that run.

/// `f(0)`, ..., `f(N - 1)`, straight-line; use [`unroll!`](crate::unroll!).
///
/// ```
/// let mut squares = [0usize; 5];
/// device::unroll::unroll_n::<4, _>(|i| squares[i] = i * i); // f(0), ..., f(3)
/// assert_eq!(squares, [0, 1, 4, 9, 0]);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn unroll_n<const N: usize, F: FnMut(usize)>(mut f: F) {
    const {
        assert!(
            N <= 32,
            "unroll_n: the count must be at most 32 (its 32 slots)"
        )
    };
    macro_rules! seq {
        ($($i:literal)*) => { $( if const { $i < N } { f($i) } )* };
    }
    seq!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
}

/// Gives a closure its `FnMut(usize)` signature (so `|i| ...` needs no annotation).
///
/// ```
/// let mut hits = [0u32; 4];
/// let mut f = device::unroll::body(|i| hits[i] += 1); // `i: usize`, as `unroll!` binds it
/// f(1);
/// f(3);
/// f(3);
/// assert_eq!(hits, [0, 1, 0, 2]);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn body<F: FnMut(usize)>(f: F) -> F {
    f
}

/// `unroll!(N, |i| body)`: `body` for `i = 0..N` as straight-line code; `N <= 32` is a constant
/// expression (checked at compile time).
///
/// ```ignore
/// let mut acc = [0f32; 8];
/// unroll!(8, |i| acc[i] += x[i]);           // 8 adds, acc stays in registers
/// unroll!(Cfg::<BM>::TM, |i| ...);          // a count from const generics
/// ```
#[macro_export]
macro_rules! unroll {
    ($n:expr, $f:expr $(,)?) => {{
        let f = $crate::unroll::body($f);
        const { assert!($n <= 32, "unroll!: the count must be at most 32") };
        match const { $n } {
            0 => {}
            1 => $crate::unroll::unroll_n::<1, _>(f),
            2 => $crate::unroll::unroll_n::<2, _>(f),
            3 => $crate::unroll::unroll_n::<3, _>(f),
            4 => $crate::unroll::unroll_n::<4, _>(f),
            5 => $crate::unroll::unroll_n::<5, _>(f),
            6 => $crate::unroll::unroll_n::<6, _>(f),
            7 => $crate::unroll::unroll_n::<7, _>(f),
            8 => $crate::unroll::unroll_n::<8, _>(f),
            9 => $crate::unroll::unroll_n::<9, _>(f),
            10 => $crate::unroll::unroll_n::<10, _>(f),
            11 => $crate::unroll::unroll_n::<11, _>(f),
            12 => $crate::unroll::unroll_n::<12, _>(f),
            13 => $crate::unroll::unroll_n::<13, _>(f),
            14 => $crate::unroll::unroll_n::<14, _>(f),
            15 => $crate::unroll::unroll_n::<15, _>(f),
            16 => $crate::unroll::unroll_n::<16, _>(f),
            17 => $crate::unroll::unroll_n::<17, _>(f),
            18 => $crate::unroll::unroll_n::<18, _>(f),
            19 => $crate::unroll::unroll_n::<19, _>(f),
            20 => $crate::unroll::unroll_n::<20, _>(f),
            21 => $crate::unroll::unroll_n::<21, _>(f),
            22 => $crate::unroll::unroll_n::<22, _>(f),
            23 => $crate::unroll::unroll_n::<23, _>(f),
            24 => $crate::unroll::unroll_n::<24, _>(f),
            25 => $crate::unroll::unroll_n::<25, _>(f),
            26 => $crate::unroll::unroll_n::<26, _>(f),
            27 => $crate::unroll::unroll_n::<27, _>(f),
            28 => $crate::unroll::unroll_n::<28, _>(f),
            29 => $crate::unroll::unroll_n::<29, _>(f),
            30 => $crate::unroll::unroll_n::<30, _>(f),
            31 => $crate::unroll::unroll_n::<31, _>(f),
            32 => $crate::unroll::unroll_n::<32, _>(f),
            _ => {}
        }
    }};
}
