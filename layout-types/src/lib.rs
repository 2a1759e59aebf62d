#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch))]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub mod algebra;
pub mod bank;
pub mod check;
pub mod consts;
pub mod copy;
pub mod cute;
pub mod divide;
pub mod gmma;
pub mod int_tuple;
pub mod layout;
pub mod mma;
pub mod parse;
pub mod partition;
pub mod product;
pub mod recast;
pub mod static_layout;
pub mod static_mma;
pub mod swizzle;
pub mod tensor;

pub use int_tuple::{IntTuple, Val};
pub use layout::DynLayout;

mod error;
pub use error::Error;

pub mod eval;

/// Everything a kernel or test usually needs: typed layouts, named static ints, the static
/// algebra and the `layout!` macro.
pub mod prelude {
    pub use crate::consts::*;
    pub use crate::layout;
    pub use crate::static_layout::*;
    pub use crate::{DynLayout, IntTuple, Val};
}
