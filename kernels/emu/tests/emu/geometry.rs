//! The copied launch geometry pins the values `host/`'s own tests and doc tests pin, so a
//! change of the host's geometry without this copy (or the reverse) fails one side.

use kernels_emu::geometry::{COPY_VARIANTS, GEMM_ENTRIES, Tile, kc};

#[test]
fn gemm_geometry_matches_the_host() {
    // host::Tile::smem_bytes doc test, Tile::threads, Tile::shape
    assert_eq!(
        Tile::M128N128K8.smem_bytes(),
        2 * 2 * (127 + 7 * 132 + 1) * 4
    );
    assert_eq!(
        (Tile::M128N128K8.threads(), Tile::M64N64K8.threads()),
        (256, 64)
    );
    assert_eq!(Tile::M64N64K8.shape(), (64, 64, 8));
    // host::Plan::kc (plan_labels_and_slices)
    assert_eq!(kc(Tile::M64N64K8, 3, 100), 40);
    assert_eq!(kc(Tile::M128N128K8, 1, 0), 8);
    // the kernel's own constant: GemmTiles::SMEM_BYTES
    assert_eq!(
        Tile::M128N128K8.smem_bytes(),
        <gemm::Tile128 as gemm::GemmTiles>::SMEM_BYTES
    );
    assert_eq!(
        Tile::M64N64K8.smem_bytes(),
        <gemm::Tile64 as gemm::GemmTiles>::SMEM_BYTES
    );
    assert_eq!(<gemm::Tile128 as gemm::GemmTiles>::NT, 256);
    assert_eq!(<gemm::Tile64 as gemm::GemmTiles>::NT, 64);
    assert!(
        GEMM_ENTRIES
            .iter()
            .all(|e| e.kernel.starts_with(match e.tile {
                Tile::M128N128K8 => "sgemm_128x128x8_",
                Tile::M64N64K8 => "sgemm_64x64x8_",
            }))
    );
}

#[test]
fn copy_geometry_matches_the_host() {
    // host/src/copy.rs tests: table_order_and_leading_dimensions
    let f16 = &COPY_VARIANTS[4];
    assert_eq!((f16.kernel, f16.vec()), ("tiled_copy_col_f16_v4", 8));
    assert_eq!(COPY_VARIANTS[6].kernel, "transpose_f32_swizzled");
    assert_eq!(COPY_VARIANTS[6].contiguous(5, 7), (7, 5));
    // grid: copies one-dimensional (the kernels walk the contiguous dimension first),
    // transposes (tiles along m, tiles along n)
    assert_eq!(COPY_VARIANTS[0].grid(65, 129), (9 * 2, 1, 1));
    assert_eq!(COPY_VARIANTS[2].grid(129, 65), (2 * 9, 1, 1)); // column-major, 128x8 tiles
    assert_eq!(COPY_VARIANTS[2].grid(300, 1), (3, 1, 1));
    assert_eq!(COPY_VARIANTS[6].grid(65, 129), (2, 3, 1));
    assert_eq!(COPY_VARIANTS[3].smem_bytes(), 8 * 256 * 2);
}
