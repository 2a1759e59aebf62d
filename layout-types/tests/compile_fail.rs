//! Invalid static layouts are rejected at compile time, with CuTe's condition and the offending
//! values in the message (`tests/ui/fail/*.rs`, pinned `.stderr`); their valid counterparts build
//! and run (`tests/ui/pass/*.rs`). A `pass` case makes trybuild run `cargo build` instead of
//! `cargo check`, which the const-evaluation (post-monomorphization) errors need.
//!
//! Re-pin after an intended message change: `TRYBUILD=overwrite cargo test -p layout-types --test compile_fail`.

#[test]
fn ui() {
    // No debug info in trybuild's builds of the cases (as in the workspace's dev profile).
    // SAFETY: set before trybuild starts any thread or process.
    unsafe {
        std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    }
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    if std::env::var_os("CUTE_RS_UI_QUICK").is_some() {
        // `cargo xtask test` (its 10-minute budget): one case of each group of conditions and
        // the typed layer's core ones; `cargo test` and `cargo xtask test-full` run them all.
        for case in QUICK {
            t.compile_fail(format!("tests/ui/fail/{case}.rs"));
        }
    } else {
        t.compile_fail("tests/ui/fail/*.rs");
    }
}

/// The cases `CUTE_RS_UI_QUICK` runs: the first of each group (by the name's first word) and
/// two more of the typed layer's.
const QUICK: &[&str] = &[
    "bulk_copy_direction",
    "complement_non_injective",
    "composition_shape_divisibility",
    "copy_with_not_contiguous",
    "crd2idx_not_congruent",
    "dice_step_rank",
    "gmma_desc_not_canonical",
    "layout_not_congruent",
    "ldsm_copy_different_sizes",
    "left_inverse_dynamic",
    "pipeline_acquire_twice",
    "setmaxnreg_count",
    "slice_out_of_bounds",
    "smem_addr_generic_atom",
    "tile_to_shape_not_multiple",
    "tiled_copy_misaligned",
    "tma_atom_dynamic_box",
    "too_many_threads",
    "transpose_bank_conflict",
    "typed_coalesce_profile_too_many_modes",
    "typed_composition_tiler_stride_divisibility",
    "typed_local_tile_not_dividing",
    "wgmma_accumulator_size",
    "zipped_divide_shape_divisibility",
];
