//! The wgmma proof kernels with an MN-major B (issue #25): the 78 configurations of the proofs
//! whose B tile is MN-major (SS with a K- or MN-major A, RS with a K-major A), from the same body
//! as `tests/kernels/wgmma` (`tests/kernels/wgmma/src/proof.rs`) in a family of its own, so that the two
//! families compile on two cores at once. The kernels, their launch and their checks are
//! `tests/kernels/wgmma`'s (doc/hopper-wgmma.md).
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

#[path = "../../wgmma/src/tile.rs"]
pub mod tile;

include!("../../wgmma/src/proof.rs");

// The tiles this family's entries (`entries.rs`: an MN-major B) use: A, every atom at 64 rows;
// B, every MN-major atom at 64, 128 and 256 rows, and INTER at 8 (an MN-major swizzled atom is
// 16, 32 or 64 elements of MN: GMMA has no N = 8 tile of it, and `tile_to_shape` refuses one,
// "block shape does not divide the target shape").
register_a!(Layout_K_INTER_Atom Layout_K_SW32_Atom Layout_K_SW64_Atom Layout_K_SW128_Atom);
operand_tile!(Layout_K_INTER_Atom, MajorK, _8, [64]);
operand_tile!(Layout_K_SW32_Atom, MajorK, _16, [64]);
operand_tile!(Layout_K_SW64_Atom, MajorK, _32, [64]);
operand_tile!(Layout_K_SW128_Atom, MajorK, _64, [64]);
operand_tile!(Layout_MN_INTER_Atom, MajorMN, _8, [8 64 128 256]);
operand_tile!(Layout_MN_SW32_Atom, MajorMN, _16, [64 128 256]);
operand_tile!(Layout_MN_SW64_Atom, MajorMN, _32, [64 128 256]);
operand_tile!(Layout_MN_SW128_Atom, MajorMN, _64, [64 128 256]);

include!("entries.rs");
