#![no_std]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub mod int_tuple;
pub mod layout;
pub mod parse;
pub mod algebra;
pub mod divide;
pub mod product;
pub mod partition;
pub mod copy;

pub use int_tuple::{IntTuple, Val};
pub use layout::DynLayout;

mod error;
pub use error::Error;

pub mod eval;
