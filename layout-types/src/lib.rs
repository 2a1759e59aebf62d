#![no_std]
//! CuTe's layout algebra (placeholder, being written).
