//! Probes that static layouts fold at compile time: indexing through a static layout with a
//! run-time thread index must compile to shifts, masks and adds, with no division or remainder
//! instructions (checked on the PTX text by `tests/ptx_static_index.rs`).
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

use device::thread::{block_idx_x, thread_idx_x};
use layout_types::prelude::*;

mod typed;

/// A static smem tile with a nested mode: `(_8,(_4,_8)):(_32,(_1,_256))`.
type Tile = Layout<(_8, (_4, _8)), (_32, (_1, _256))>;
/// A static thread layout: 32×8 threads, column-major.
type Thr = Layout<(_32, _8), (_1, _32)>;
/// The tile each thread owns when `Thr` is tiled over a 128×64 block tile.
type Part = ZippedDivide<Layout<(_128, _64), (_1, _128)>, Thr>;

device::kernel! {
/// `out[block * 256 + t] = Tile(t) + 1000 * Part(thread coord of t)`: every index is
/// computed from static layouts with run-time `t`.
///
/// # Safety
/// `out` holds `grid * 256` u32; launch with 256 threads per block.
pub unsafe fn static_layout_probe(out: *mut u32) {
    let t = thread_idx_x() as i64;
    let tile = Tile::at(t % <Tile as StaticLayout>::SIZE);
    let (m, n) = (
        <Thr as StaticLayout>::FLAT.mode_coord(t, 0),
        <Thr as StaticLayout>::FLAT.mode_coord(t, 1),
    );
    // thread (m, n)'s first element in the zipped-divided block tile
    let part = <Part as StaticLayout>::FLAT.crd(&[m + 32 * n, 0]);
    let i = block_idx_x() as usize * 256 + t as usize;
    unsafe { *out.add(i) = (tile + 1000 * part) as u32 };
}
}
