//! The typed layout API costs nothing on the GPU: each probe kernel of `kernels/src/typed_probe.rs`
//! written with `layout_types::cute` (crd2idx of a mixed layout, `local_tile` of a dynamic tensor
//! by a static tile, `local_partition` of that tile, a predicated TiledCopy of it) compiles to PTX
//! with no local-memory frame, no division or remainder, and no more than 10% more instructions
//! than its hand-written twin.

#[path = "common/ptx_text.rs"]
mod ptx_text;
use ptx_text::{entry, instructions};

/// The family's PTX, or why there is none.
fn kernels_ptx() -> Result<&'static str, &'static str> {
    ptx_text::module_ptx("probe_crd2idx_mixed_typed")
}

fn check_probe(family: &str) {
    let ptx = match kernels_ptx() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("SKIPPED {family}: no PTX in this build ({why})");
            return;
        }
    };
    let typed_body = entry(ptx, &format!("probe_{family}_typed"));
    let hand_body = entry(ptx, &format!("probe_{family}_hand"));
    let typed = instructions(typed_body);
    let hand = instructions(hand_body);
    assert!(
        !typed_body.contains(".local"),
        "{family}: the typed kernel has a local-memory frame:\n{typed_body}"
    );
    for i in &typed {
        let op = i.split_whitespace().next().unwrap_or("");
        assert!(
            !op.starts_with("div.") && !op.starts_with("rem."),
            "{family}: division/remainder in the typed kernel: {i}\n{typed_body}"
        );
    }
    println!(
        "{family}: typed {} instructions, hand-written {}",
        typed.len(),
        hand.len()
    );
    assert!(
        typed.len() * 10 <= hand.len() * 11,
        "{family}: the typed kernel has {} instructions, more than 110% of the hand-written twin's {}\n--- typed\n{}\n--- hand\n{}",
        typed.len(),
        hand.len(),
        typed.join("\n"),
        hand.join("\n")
    );
}

#[test]
fn crd2idx_of_a_mixed_layout() {
    check_probe("crd2idx_mixed");
}

#[test]
fn crd2idx_of_a_static_nested_layout() {
    check_probe("crd2idx_static");
}

#[test]
fn local_tile_of_a_dynamic_tensor() {
    check_probe("local_tile");
}

#[test]
fn local_partition_of_the_tile() {
    check_probe("local_partition");
}

#[test]
fn predicated_tiled_copy_of_the_tile() {
    check_probe("tiled_copy");
}

/// An SM80 mainloop step through the `ldmatrix` TiledCopies (`make_tiled_copy_a/b` with
/// `SM75_U32x4_LDSM_N`, `partition_s`, `retile_d`, `copy` per k-block, then `mma.sync`) against
/// the same step with hand-computed row addresses: the same 8 `ldmatrix` and 16 `mma.sync`.
#[test]
fn ldsm_tiled_copy_mainloop_step() {
    check_probe("ldsm_mainloop");
    let Ok(ptx) = kernels_ptx() else { return };
    for name in ["probe_ldsm_mainloop_typed", "probe_ldsm_mainloop_hand"] {
        let body = instructions(entry(ptx, name));
        let count = |op: &str| body.iter().filter(|i| i.starts_with(op)).count();
        assert_eq!(
            count("ldmatrix.sync.aligned.m8n8.x4"),
            8,
            "{name}: ldmatrix.x4"
        );
        assert_eq!(count("mma.sync.aligned.m16n8k16"), 16, "{name}: mma.sync");
    }
}

/// The same step over SWIZZLED shared-memory tiles (the 128-byte swizzle: A a GMMA
/// `Layout_K_SW128_Atom` tile, swizzling byte addresses; B CuTe's SM80
/// `composition(Swizzle<3,3,3>, ...)`, swizzling element offsets) through `partition_s`, against
/// the twin that swizzles each row address by hand: the same 16 `ldmatrix` and 32 `mma.sync`.
#[test]
fn ldsm_tiled_copy_of_swizzled_tiles() {
    check_probe("ldsm_swizzle");
    let Ok(ptx) = kernels_ptx() else { return };
    for name in ["probe_ldsm_swizzle_typed", "probe_ldsm_swizzle_hand"] {
        let body = instructions(entry(ptx, name));
        let count = |op: &str| body.iter().filter(|i| i.starts_with(op)).count();
        assert_eq!(
            count("ldmatrix.sync.aligned.m8n8.x4"),
            16,
            "{name}: ldmatrix.x4"
        );
        assert_eq!(count("mma.sync.aligned.m16n8k16"), 32, "{name}: mma.sync");
    }
}

/// The instruction counter itself: inline-asm blocks count their statements.
#[test]
fn instruction_counting() {
    let body = "{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n$L1:\n\t{ .reg .u64 g; cvta.to.global.u64 g, %rd1; ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [g]; }\n\tret;\n}\n";
    assert_eq!(
        instructions(body),
        [
            "mov.u32 %r1, %tid.x;",
            "cvta.to.global.u64 g, %rd1",
            "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [g]",
            "ret;"
        ]
    );
}

/// The GMMA probe: `tile_to_shape(Layout_K_SW128_Atom<half_t>, (_128,_64,_4))` indexed
/// at a run-time `(m, k, stage)`.
#[test]
fn gmma_smem_tile_at_a_runtime_coordinate() {
    check_probe("gmma_smem");
}

/// A tensor over that tile stores element `(m, k, stage)` where `wgmma` reads it (CuTe's byte
/// swizzle), as cheaply as the hand-written `i ^ ((i >> 3) & 0x38)`.
#[test]
fn gmma_smem_tensor_stores_by_the_byte_swizzle() {
    check_probe("gmma_smem_tensor");
}

/// `make_gmma_desc_tensor` of that tile at a run-time (k block, stage): the descriptor's fields
/// fold to constants, only the start address and the offset are computed.
#[test]
fn gmma_descriptor_at_a_runtime_stage() {
    check_probe("gmma_desc");
}

/// The TiledMMA probe: `partition_c` of an SM80 TiledMMA with atom layout `(_2,_2,_1)`
/// over a 128x128 column-major tile with a run-time `ldc`, written at a run-time thread index.
#[test]
fn tiled_mma_partition_c() {
    check_probe("mma_partition_c");
}

/// Issue #39: CuTe's `composition(sA, make_tile(Layout<_16,_2>{}, _32{}))` of the SM80 swizzled
/// shared-memory layout `Swizzle<3,3,3> o (_64,_64):(_64,_1)` (a by-mode tiler carving a tile out
/// of a swizzled layout), indexed at a run-time coordinate, against the swizzle by hand.
#[test]
fn by_mode_composition_of_a_swizzled_tile() {
    check_probe("swizzled_composition");
}

/// Issue #39: `local_tile` of an `(M, N, L)` tensor (a run-time batch `L`) by a `(_32, _8)` tile
/// at `(blockIdx.x, blockIdx.y, blockIdx.z)`, against the offsets by hand.
#[test]
fn local_tile_of_a_batched_tensor() {
    check_probe("local_tile_mnl");
}
