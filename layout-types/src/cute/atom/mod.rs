//! CuTe's atoms (`cute/atom/`): the typed layer's instructions with their layouts, above the
//! layouts and tensors of [`crate::cute`] and below the algorithms that take them
//! ([`crate::cute::algorithm`]'s `copy_with`, `gemm`) and CUTLASS's collectives
//! ([`crate::cutlass`]). The `asm!` behind each atom is the `device` crate's (one instruction
//! each, CuTe's `cute/arch/`).
//!
//! - [`copy`]: copy atoms and `TiledCopy` (`copy_atom.hpp`, `copy_traits.hpp`).
//! - [`mma`]: MMA atoms, `TiledMMA`, their fragments and `ldmatrix` copies (`mma_atom.hpp`,
//!   `mma_traits_sm80.hpp`, `mma_traits_sm90_gmma.hpp`, `copy_traits_sm75.hpp`).
//! - [`gmma`]: the GMMA shared-memory layout atoms and descriptors (`mma_sm90_desc.hpp`,
//!   `mma_sm90.hpp`'s `GMMA::Layout_*_Atom`).
//! - [`tma`]: the device side of the TMA atoms (`copy_traits_sm90_tma.hpp`).
//!
//! ```
//! use layout_types::cute::atom::gmma::Layout_K_SW128_Atom;
//! let atom = Layout_K_SW128_Atom::<u16>::new(); // CuTe: GMMA::Layout_K_SW128_Atom<half_t>
//! assert_eq!(atom.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
//! ```

pub mod copy;
pub mod gmma;
pub mod mma;
pub mod tma;
