//! Probes that the crate-root prelude (`layout_types::prelude`, CuTe's typed layer) costs what
//! hand-written index math costs: each kernel indexes layouts from the prelude with run-time
//! thread indices and has a hand-written twin; `tests/ptx_static_index.rs` checks on the PTX that
//! the prelude kernels have no local-memory frame, no division or remainder, and at most 10% more
//! instructions than their twins. The typed API's other probes are in [`typed`].
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

use device::thread::{block_idx_x, thread_idx_x};
use layout_types::prelude::*;

mod typed;

device::kernel! {
/// `out[block * 256 + t] = tile(t)`: the static nested smem tile `(_8,(_4,_8)):(_32,(_1,_256))`
/// at the run-time 1-D index `t` (`call`).
///
/// # Safety
/// `out` holds `grid * 256` u32; launch with 256 threads per block.
pub unsafe fn probe_prelude_static_typed(out: *mut u32) {
    let t = thread_idx_x() as i32;
    let tile = layout!((_8, (_4, _8)):(_32, (_1, _256)));
    let i = block_idx_x() as usize * 256 + t as usize;
    unsafe { *out.add(i) = tile.call(t) as u32 };
}
}
device::kernel! {
/// Twin of [`probe_prelude_static_typed`], by hand.
///
/// # Safety
/// As the prelude probe.
pub unsafe fn probe_prelude_static_hand(out: *mut u32) {
    let t = thread_idx_x() as i32;
    let tile = (t % 8) * 32 + (t / 8 % 4) + (t / 32) * 256;
    let i = block_idx_x() as usize * 256 + t as usize;
    unsafe { *out.add(i) = tile as u32 };
}
}

device::kernel! {
/// `out[block * 256 + t] = part(t, _0)`: the offset of thread `t`'s first element when a 128x64
/// column-major block tile is zipped-divided by the 32x8 thread tile (`zipped_divide(block,
/// (_32, _8))`: thread `t` is `(t mod 32, t div 32)` of the column-major thread mode).
///
/// # Safety
/// `out` holds `grid * 256` u32; launch with 256 threads per block.
pub unsafe fn probe_prelude_zipped_typed(out: *mut u32) {
    let t = thread_idx_x() as i32;
    let part = zipped_divide(layout!((_128, _64):(_1, _128)), (_32, _8));
    let i = block_idx_x() as usize * 256 + t as usize;
    unsafe { *out.add(i) = part.crd2idx((t, _0)) as u32 };
}
}
device::kernel! {
/// Twin of [`probe_prelude_zipped_typed`], by hand.
///
/// # Safety
/// As the prelude probe.
pub unsafe fn probe_prelude_zipped_hand(out: *mut u32) {
    let t = thread_idx_x() as i32;
    let part = t % 32 + (t / 32) * 128;
    let i = block_idx_x() as usize * 256 + t as usize;
    unsafe { *out.add(i) = part as u32 };
}
}

device::kernel! {
/// `out[t] = a(c)` for the mixed layout `a = (m,_8):(_1,ld)` (run-time `m`, `ld`) at the
/// coordinate `c` of thread `t` in the 4x8 column-major thread layout (`get_flat_coord`).
///
/// # Safety
/// `out` holds `blockDim.x` i32, `blockDim.x <= 32`.
pub unsafe fn probe_prelude_mixed_typed(out: *mut i32, m: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let thr = layout!((_4, _8):(_1, _4));
    let a = layout!((m, _8):(_1, ld));
    unsafe { *out.add(t as usize) = a.crd2idx(thr.get_flat_coord(t)) };
}
}
device::kernel! {
/// Twin of [`probe_prelude_mixed_typed`], by hand.
///
/// # Safety
/// As the prelude probe.
pub unsafe fn probe_prelude_mixed_hand(out: *mut i32, m: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let _ = m;
    unsafe { *out.add(t as usize) = t % 4 + (t / 4 % 8) * ld };
}
}
