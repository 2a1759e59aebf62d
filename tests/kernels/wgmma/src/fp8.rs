// The 8-bit (e4m3/e5m2) proofs of `tests/kernels/wgmma`: the `u8` GMMA atoms, the RS fragments of
// CuTe's `ALayout_64x32`, and the entries `wgmma_<ss|rs>_<e4m3|e5m2><e4m3|e5m2>_kk_<atom>_n<N>`
// (both operands K-major: the 8-bit `wgmma` has no transpose). A tile row is 128 bytes as for
// the 16-bit proofs: 128 elements of K in four k-blocks of 32.

use device::wgmma::{E4M3, E5M2};
use layout_types::cute::atom::mma::GmmaALayout64x32;

/// The 8-bit GMMA atoms as marker types (`atoms8::Layout_K_SW128_Atom` stands for
/// `Layout_K_SW128_Atom<u8>`, the e4m3/e5m2 tiles: K-major only).
#[allow(non_camel_case_types)]
mod atoms8 {
    pub struct Layout_K_INTER_Atom;
    pub struct Layout_K_SW32_Atom;
    pub struct Layout_K_SW64_Atom;
    pub struct Layout_K_SW128_Atom;
}

/// The 8-bit RS fragments of thread `tid` (CuTe's `ALayout_64x32`, `(thread, value) → m + 64·k`
/// of a 64×32 k-block): register `i` of k-block `kb` holds values `4i .. 4i+3` (four consecutive
/// K, the lowest byte first), read from the smem tensor `at`.
///
/// # Safety
/// `at` gives addresses inside the loaded tile.
#[inline(always)]
unsafe fn fragments_8bit(at: impl Fn((i32, i32)) -> *mut u8, tid: i32) -> [[u32; 4]; K_BLOCKS] {
    let a = GmmaALayout64x32::default();
    let block = make_layout_left((_64, _32));
    let mut frag = [[0u32; 4]; K_BLOCKS];
    device::unroll!(K_BLOCKS, |kb| device::unroll!(4, |i| device::unroll!(4, |j| {
        let (m, k): (i32, i32) = block.idx2crd(a.crd2idx((tid, (4 * i + j) as i32)));
        // SAFETY: inside the tile.
        let v = unsafe { *at((m, k + 32 * kb as i32)) };
        frag[kb][i] |= u32::from(v) << (8 * j);
    })));
    frag
}

register_a!(u8: Layout_K_INTER_Atom Layout_K_SW64_Atom Layout_K_SW128_Atom);
operand_tile!(u8: Layout_K_INTER_Atom, _16, [64 128]);
operand_tile!(u8: Layout_K_SW32_Atom, _32, [64]);
operand_tile!(u8: Layout_K_SW64_Atom, _64, [64 128]);
operand_tile!(u8: Layout_K_SW128_Atom, _128, [8 64 128 256]);

entry!(wgmma_ss_e4m3e4m3_kk_sw128_n8: ss, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 8);
entry!(wgmma_ss_e4m3e4m3_kk_sw128_n64: ss, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 64);
entry!(wgmma_ss_e4m3e4m3_kk_sw128_n128: ss, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 128);
entry!(wgmma_ss_e4m3e4m3_kk_sw128_n256: ss, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 256);
entry!(wgmma_ss_e4m3e4m3_kk_inter_n64: ss, (E4M3, E4M3), u8: Layout_K_INTER_Atom, Layout_K_INTER_Atom, 64);
entry!(wgmma_ss_e4m3e4m3_kk_sw32_n64: ss, (E4M3, E4M3), u8: Layout_K_SW32_Atom, Layout_K_SW32_Atom, 64);
entry!(wgmma_ss_e4m3e4m3_kk_sw64_n64: ss, (E4M3, E4M3), u8: Layout_K_SW64_Atom, Layout_K_SW64_Atom, 64);
entry!(wgmma_ss_e4m3e5m2_kk_sw128_n128: ss, (E4M3, E5M2), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 128);
entry!(wgmma_ss_e5m2e4m3_kk_sw64_n128: ss, (E5M2, E4M3), u8: Layout_K_SW64_Atom, Layout_K_SW64_Atom, 128);
entry!(wgmma_ss_e5m2e5m2_kk_sw128_n256: ss, (E5M2, E5M2), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 256);
entry!(wgmma_rs_e4m3e4m3_kk_sw128_n64: rs, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 64);
entry!(wgmma_rs_e4m3e4m3_kk_sw128_n256: rs, (E4M3, E4M3), u8: Layout_K_SW128_Atom, Layout_K_SW128_Atom, 256);
entry!(wgmma_rs_e5m2e5m2_kk_inter_n128: rs, (E5M2, E5M2), u8: Layout_K_INTER_Atom, Layout_K_INTER_Atom, 128);
entry!(wgmma_rs_e4m3e5m2_kk_sw64_n64: rs, (E4M3, E5M2), u8: Layout_K_SW64_Atom, Layout_K_SW64_Atom, 64);
