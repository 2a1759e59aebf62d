//! The typed `make_tiled_copy_a/b/c` with the `ldmatrix` atoms against the value algebra
//! (`layout_types::mma::make_tiled_copy_*`): every atom that CuTe accepts for the operand, over
//! TiledMMAs of 16- and 32-bit operands, one of them permuted; the tiler and both TV layouts
//! print the same text.

use layout_types::algebra::{Tiler, TilerMode};
use layout_types::cute::mma::*;
use layout_types::cute::prelude::*;
use layout_types::mma as v;
use layout_types::{DynLayout, IntTuple};

fn value_mma(atom: &str, layout: &str, perm: Option<[&str; 3]>) -> v::TiledMma {
    let a = v::MmaAtom::parse(atom).unwrap();
    let p = match perm {
        None => v::TiledMma::no_permutation(),
        Some(modes) => {
            let mut t = Tiler::by_mode();
            for m in modes {
                let l: DynLayout = m.parse().unwrap();
                let k = if l.shape.is_tuple() {
                    TilerMode::Layout
                } else {
                    TilerMode::Int
                };
                t.push_mode(k, &l).unwrap();
            }
            t
        }
    };
    v::TiledMma::new(&a, &layout.parse().unwrap(), &p).unwrap()
}

/// Checks one typed TiledCopy against the value algebra; returns 1 (cases counted).
fn check(
    what: &str,
    typed: (DynLayout, DynLayout, IntTuple),
    value: Result<v::MmaTiledCopy, layout_types::Error>,
) -> usize {
    let value = value.unwrap_or_else(|e| panic!("{what}: the value algebra refuses it: {e}"));
    assert_eq!(
        typed.2.to_string(),
        value.tiler.to_string(),
        "{what}: tiler"
    );
    assert_eq!(
        typed.0.to_string(),
        value.layout_s_tv().unwrap().to_string(),
        "{what}: layout_s_tv"
    );
    assert_eq!(
        typed.1.to_string(),
        value.layout_d_tv().unwrap().to_string(),
        "{what}: layout_d_tv"
    );
    1
}

macro_rules! cases {
    ($mma:expr, $vmma:expr; $($f:ident, $vf:ident: $($atom:ident)*;)*) => {{
        let (mma, vmma) = ($mma, $vmma);
        let mut n = 0;
        $($(
            let tc = $f($atom::new(), &mma);
            n += check(
                concat!(stringify!($f), " ", stringify!($atom)),
                (tc.layout_s_tv(), tc.layout_d_tv(), tc.tiler()),
                v::$vf(v::LdsmOp::$atom, &vmma),
            );
        )*)*
        n
    }};
}

#[test]
fn f16_operands_all_atoms() {
    let n = cases!(
        make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4))),
        value_mma("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_4)", None);
        make_tiled_copy_a, make_tiled_copy_a: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N SM75_U16x2_LDSM_T SM75_U16x4_LDSM_T SM75_U16x8_LDSM_T;
        // B and C have 4 values per thread: the 8-value atoms (x4) do not fit
        make_tiled_copy_b, make_tiled_copy_b: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U16x2_LDSM_T SM75_U16x4_LDSM_T;
        make_tiled_copy_c, make_tiled_copy_c: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U16x2_LDSM_T SM75_U16x4_LDSM_T;
    );
    assert_eq!(n, 14);
}

#[test]
fn permuted_f32_accumulator() {
    let n = cases!(
        make_tiled_mma_permuted(
            SM80_16x8x16_F32F16F16F32_TN::new(),
            layout!((_2, _2, _1):(_1, _2, _4)),
            (_32, layout!((_8, _2, _2):(_1, _16, _8)), _16)
        ),
        value_mma(
            "SM80_16x8x16_F32F16F16F32_TN",
            "(_2,_2,_1):(_1,_2,_4)",
            Some(["_32", "(_8,_2,_2):(_1,_16,_8)", "_16"])
        );
        make_tiled_copy_a, make_tiled_copy_a: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N SM75_U16x2_LDSM_T SM75_U16x4_LDSM_T SM75_U16x8_LDSM_T;
        make_tiled_copy_b, make_tiled_copy_b: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N SM75_U16x2_LDSM_T SM75_U16x4_LDSM_T SM75_U16x8_LDSM_T;
        // the f32 accumulator: 32-bit elements, so no transposing (16-bit) atom
        make_tiled_copy_c, make_tiled_copy_c: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N;
    );
    assert_eq!(n, 15);
}

#[test]
fn tf32_operands() {
    let n = cases!(
        make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN::new(), layout!((_2, _1, _1):(_1, _2, _2))),
        value_mma("SM80_16x8x8_F32TF32TF32F32_TN", "(_2,_1,_1):(_1,_2,_2)", None);
        make_tiled_copy_a, make_tiled_copy_a: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N;
        make_tiled_copy_b, make_tiled_copy_b: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N;
        make_tiled_copy_c, make_tiled_copy_c: SM75_U32x1_LDSM_N SM75_U32x2_LDSM_N SM75_U32x4_LDSM_N;
    );
    assert_eq!(n, 8);
}

/// The transposing atoms move 16-bit halves: the value algebra refuses them for 32-bit
/// elements, as the typed layer does at compile time (`tests/ui/fail/ldsm_trans_tf32.rs`).
#[test]
fn trans_atoms_refused_for_32_bit() {
    let vmma = value_mma(
        "SM80_16x8x8_F32TF32TF32F32_TN",
        "(_2,_1,_1):(_1,_2,_2)",
        None,
    );
    for op in [
        v::LdsmOp::SM75_U16x2_LDSM_T,
        v::LdsmOp::SM75_U16x4_LDSM_T,
        v::LdsmOp::SM75_U16x8_LDSM_T,
    ] {
        assert!(v::make_tiled_copy_a(op, &vmma).is_err());
    }
}

/// Cases of `tests/data/cute-make_tiled_copy_a.jsonl` (printed by CuTe 4.2 itself), on the
/// typed layer directly.
#[test]
fn cute_oracle_cases() {
    // cute-make_tiled_copy_a-2: SM75_U16x4_LDSM_T, SM80_16x8x16_F16F16F16F16_TN, (_1,_1,_2), S
    let mma = make_tiled_mma(
        SM80_16x8x16_F16F16F16F16_TN::new(),
        layout!((_1, _1, _2):(_0, _0, _1)),
    );
    let tc = make_tiled_copy_a(SM75_U16x4_LDSM_T::new(), &mma);
    assert_eq!(
        tc.layout_s_tv().to_string(),
        "((_8,_2,_2,_2),(_8,_2)):((_16,_8,_0,_256),(_1,_128))"
    );
    // cute-make_tiled_copy_a-1: SM75_U16x2_LDSM_T, SM80_16x8x8_F32BF16BF16F32_TN, (_2,_4,_1),
    // permutation [(_4,_8,_2):(_1,_8,_4),_,_], D
    let mma = make_tiled_mma_permuted(
        SM80_16x8x8_F32BF16BF16F32_TN::new(),
        layout!((_2, _4, _1):(_1, _2, _0)),
        (layout!((_4, _8, _2):(_1, _8, _4)), Underscore, Underscore),
    );
    let tc = make_tiled_copy_a(SM75_U16x2_LDSM_T::new(), &mma);
    assert_eq!(
        tc.layout_d_tv().to_string(),
        "((_4,_4,_2,_2,_4),(_2,(_2,_2))):((_128,_1,_8,_32,_0),(_64,(_16,_4)))"
    );
}
