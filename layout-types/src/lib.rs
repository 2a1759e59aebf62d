#![no_std]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub mod check;
pub mod cute;
pub mod cutlass;
pub mod text;
pub mod value;

mod error;
pub use error::Error;

/// Everything a kernel or test usually needs: CuTe's typed layer ([`cute::prelude`]): typed
/// layouts and tensors mixing static (`_8`, `Int<8>`) and dynamic leaves, the typed algebra,
/// TiledCopy and the `layout!` macro.
///
/// ```
/// use layout_types::prelude::*;
/// let ld = 128i32;
/// let a = layout!((_32, _8):(_1, ld));
/// assert_eq!(a.to_string(), "(_32,_8):(_1,128)");
/// assert_eq!(a.crd2idx((5i32, 3i32)), 5 + 3 * 128);
/// ```
pub use cute::prelude;
