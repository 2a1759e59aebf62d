//! The Tensor Memory Accelerator: `cp.async.bulk.tensor` loads and stores of 1-D to 5-D boxes
//! described by a tensor map ([`TmaDescriptor`], the driver's `CUtensorMap`), as CuTe's
//! `SM90_TMA_LOAD_{1..5}D`, `SM90_TMA_LOAD_MULTICAST_{1..5}D`, `SM90_TMA_STORE_{1..5}D`
//! (`cute/arch/copy_sm90_tma.hpp`) and `prefetch.tensormap`.
//!
//! A load writes the box at coordinates `crd` (innermost first, in elements; out-of-bounds
//! elements read as zero) into shared memory and signals the bytes it wrote on an
//! [`mbarrier`](super::mbarrier) (`complete_tx`); a store writes a box of shared memory back,
//! dropping out-of-bounds elements, tracked by the bulk groups of
//! [`tma_store_arrive`] / [`tma_store_wait`].
//!
//! The descriptor operand is the *generic address* of the map: the address of a kernel
//! parameter passed by value (`__grid_constant__`), or of a map in global memory.
//!
//! Off the GPU there is no TMA unit: these functions panic with a message saying so.

use super::mbarrier::SmemBarrier;
#[cfg(target_arch = "nvptx64")]
use super::shared::cast_smem_ptr_to_uint as smem_addr;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// The 128-byte tensor map the TMA unit reads (`CUtensorMap`), opaque here: the host encodes it
/// (`cuTensorMapEncodeTiled`) and passes it to the kernel by value.
///
/// The TMA unit wants it 64-byte aligned. The type says 16 because rustc's `ptx-kernel` ABI
/// cannot pass a by-value parameter aligned to more than 16 bytes (an internal compiler error
/// in `callconv/nvptx64.rs`); a kernel takes its address with `device::grid_constant!`, and
/// the PTX build declares that parameter `.param .align 64 .b8 [128]`, as nvcc does for a
/// `const __grid_constant__ CUtensorMap`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct TmaDescriptor(pub [u64; 16]);

/// `match R { 1 => $op!("1", "{c0}", c0 = 0), 2 => ..., 5 => ... }`: the one instruction of rank
/// `R` (1..=5) that `$op` (a local macro taking the rank, the coordinate list and its operands
/// `c0 = 0, ...`, which index `crd`) issues.
#[cfg(target_arch = "nvptx64")]
macro_rules! by_rank {
    ($r:expr, $op:ident) => {
        match $r {
            1 => $op!("1", "{c0}", c0 = 0),
            2 => $op!("2", "{c0}, {c1}", c0 = 0, c1 = 1),
            3 => $op!("3", "{c0}, {c1}, {c2}", c0 = 0, c1 = 1, c2 = 2),
            4 => $op!(
                "4",
                "{c0}, {c1}, {c2}, {c3}",
                c0 = 0,
                c1 = 1,
                c2 = 2,
                c3 = 3
            ),
            5 => $op!(
                "5",
                "{c0}, {c1}, {c2}, {c3}, {c4}",
                c0 = 0,
                c1 = 1,
                c2 = 2,
                c3 = 3,
                c4 = 4
            ),
            _ => unreachable!(),
        }
    };
}

#[cfg(not(target_arch = "nvptx64"))]
#[cold]
fn no_tma(what: &str) -> ! {
    panic!("{what}: there is no TMA unit off the GPU (nvptx64 only)")
}

/// `cp.async.bulk.tensor.{R}d.shared::cluster.global.mbarrier::complete_tx::bytes
/// [smem], [desc, {crd}], [bar]` (CuTe's `SM90_TMA_LOAD_{R}D::copy`): loads the box at `crd`
/// into `smem` and completes its byte count on `bar`.
///
/// # Safety
/// `desc` is the generic address of a valid tensor map of rank `R` (1..=5) that stays alive
/// and unchanged while the copy runs; `smem` (128-byte aligned, shared) holds the box;
/// `bar` is an initialized shared mbarrier whose phase expects these bytes.
///
/// ```no_run
/// use device::tma::{TmaDescriptor, tma_load};
/// # let (desc, bar, smem) = (&TmaDescriptor::default(), core::ptr::null_mut::<u64>(), core::ptr::null_mut());
/// // on the GPU, in a kernel that got `desc` by value: the 64x32 box at (m, n) = (64, 0)
/// unsafe { tma_load(desc, bar, smem, [0, 64]) };
/// ```
#[inline(always)]
pub unsafe fn tma_load<const R: usize>(
    desc: *const TmaDescriptor,
    bar: impl Into<SmemBarrier>,
    smem: *mut u8,
    crd: [i32; R],
) {
    const {
        assert!(
            R >= 1 && R <= 5,
            "cp.async.bulk.tensor: the rank must be 1..=5"
        )
    };
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let (d, b, s) = (desc as u64, bar.into().smem_addr(), smem_addr(smem));
        macro_rules! load {
            ($n:literal, $crd:literal $(, $c:ident = $i:literal)*) => {
                asm!(concat!("cp.async.bulk.tensor.", $n, "d.shared::cluster.global.mbarrier::complete_tx::bytes [{s}], [{d}, {{", $crd, "}}], [{b}];"),
                    s = in(reg32) s, d = in(reg64) d, b = in(reg32) b, $($c = in(reg32) crd[$i],)*
                    options(nostack, preserves_flags))
            };
        }
        by_rank!(R, load);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = (desc, bar.into(), smem, crd);
        no_tma("cp.async.bulk.tensor load")
    }
}

/// `cp.async.bulk.tensor.{R}d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
/// [smem], [desc, {crd}], [bar], mask` (CuTe's `SM90_TMA_LOAD_MULTICAST_{R}D::copy`): loads the
/// box once and writes it, at the same shared offsets, into every CTA of the cluster whose rank
/// bit is set in `mask`, completing the bytes on each one's barrier at `bar`'s offset.
///
/// # Safety
/// As [`tma_load`], for every CTA in `mask` (each has `smem` and `bar` initialized and alive).
///
/// ```no_run
/// use device::tma::{TmaDescriptor, tma_load_multicast};
/// # let (desc, bar, smem) = (&TmaDescriptor::default(), core::ptr::null_mut::<u64>(), core::ptr::null_mut());
/// unsafe { tma_load_multicast(desc, bar, smem, 0b11, [0, 64]) }; // CTAs 0 and 1 of the cluster
/// ```
#[inline(always)]
pub unsafe fn tma_load_multicast<const R: usize>(
    desc: *const TmaDescriptor,
    bar: impl Into<SmemBarrier>,
    smem: *mut u8,
    mask: u16,
    crd: [i32; R],
) {
    const {
        assert!(
            R >= 1 && R <= 5,
            "cp.async.bulk.tensor: the rank must be 1..=5"
        )
    };
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let (d, b, s) = (desc as u64, bar.into().smem_addr(), smem_addr(smem));
        macro_rules! load {
            ($n:literal, $crd:literal $(, $c:ident = $i:literal)*) => {
                asm!(concat!("cp.async.bulk.tensor.", $n, "d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{s}], [{d}, {{", $crd, "}}], [{b}], {m};"),
                    s = in(reg32) s, d = in(reg64) d, b = in(reg32) b, m = in(reg16) mask, $($c = in(reg32) crd[$i],)*
                    options(nostack, preserves_flags))
            };
        }
        by_rank!(R, load);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = (desc, bar.into(), smem, mask, crd);
        no_tma("cp.async.bulk.tensor multicast load")
    }
}

/// `cp.async.bulk.tensor.{R}d.global.shared::cta.bulk_group [desc, {crd}], [smem]` (CuTe's
/// `SM90_TMA_STORE_{R}D::copy`): writes the box of `smem` to the tensor at `crd`, dropping
/// out-of-bounds elements. Precede it by [`tma_store_fence`] in every
/// writing thread and a barrier; close with [`tma_store_arrive`] and
/// [`tma_store_wait`] before `smem` is reused or the CTA exits.
///
/// # Safety
/// As [`tma_load`] for `desc` and `smem` (read until the wait).
///
/// ```no_run
/// use device::tma::{TmaDescriptor, tma_store};
/// # let (desc, smem) = (&TmaDescriptor::default(), core::ptr::null());
/// unsafe { tma_store(desc, smem, [0, 64]) };
/// ```
#[inline(always)]
pub unsafe fn tma_store<const R: usize>(
    desc: *const TmaDescriptor,
    smem: *const u8,
    crd: [i32; R],
) {
    const {
        assert!(
            R >= 1 && R <= 5,
            "cp.async.bulk.tensor: the rank must be 1..=5"
        )
    };
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let (d, s) = (desc as u64, smem_addr(smem));
        macro_rules! store {
            ($n:literal, $crd:literal $(, $c:ident = $i:literal)*) => {
                asm!(concat!("cp.async.bulk.tensor.", $n, "d.global.shared::cta.bulk_group [{d}, {{", $crd, "}}], [{s}];"),
                    s = in(reg32) s, d = in(reg64) d, $($c = in(reg32) crd[$i],)*
                    options(nostack, preserves_flags))
            };
        }
        by_rank!(R, store);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = (desc, smem, crd);
        no_tma("cp.async.bulk.tensor store")
    }
}

/// `prefetch.tensormap [desc]` (CuTe's `prefetch_tma_descriptor`): brings the tensor map into
/// the TMA unit's cache ahead of the first copy. Nothing elsewhere.
///
/// # Safety
/// `desc` is the generic address of a tensor map (kernel parameter or global memory).
///
/// ```
/// let d = device::tma::TmaDescriptor::default();
/// unsafe { device::tma::prefetch_tma_descriptor(&d) };
/// ```
#[inline(always)]
pub unsafe fn prefetch_tma_descriptor(desc: *const TmaDescriptor) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("prefetch.tensormap [{d}];", d = in(reg64) desc as u64, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = desc;
}

/// `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], bytes` (CuTe's
/// `SM90_BULK_COPY_S2G`): the TMA unit copies `bytes` contiguous bytes of shared memory to global
/// memory, asynchronously. The shared memory must have been written before a
/// [`tma_store_fence`] and a barrier, and must stay untouched (and the block alive) until
/// [`tma_store_wait`] after a [`tma_store_arrive`]. Elsewhere: a plain copy.
///
/// # Safety
/// `src` (shared, generic address) and `dst` (global) are 16-byte aligned and valid for `bytes`,
/// a multiple of 16.
///
/// ```
/// use device::shared::dynamic_shared_mem;
/// use device::thread::{sync_threads, thread_idx_x};
/// use device::tma::{bulk_s2g, tma_store_arrive, tma_store_fence, tma_store_wait};
/// #[repr(C, align(16))]
/// struct Out([u32; 32]);
/// let mut out = Out([0; 32]);
/// let p = out.0.as_mut_ptr() as usize;
/// // SAFETY: 32 threads write 128 bytes of shared memory, one copies them to `out`.
/// unsafe {
///     device::emu::launch((1, 1, 1), (32, 1, 1), 128, || {
///         let s = dynamic_shared_mem::<u32>();
///         let t = thread_idx_x() as usize;
///         *s.add(t) = 10 * t as u32;
///         tma_store_fence();
///         sync_threads();
///         if t == 0 {
///             bulk_s2g(s as *const u8, p as *mut u8, 128); // the whole tile, one copy
///             tma_store_arrive();
///             tma_store_wait::<0>();
///         }
///     })
/// };
/// assert_eq!((out.0[1], out.0[31]), (10, 310));
/// ```
#[inline(always)]
pub unsafe fn bulk_s2g(src: *const u8, dst: *mut u8, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 s, g; .reg .u32 s32; cvta.to.shared.u64 s, {p}; cvt.u32.u64 s32, s; cvta.to.global.u64 g, {d}; cp.async.bulk.global.shared::cta.bulk_group [g], [s32], {n}; }}",
            p = in(reg64) src, d = in(reg64) dst, n = in(reg32) bytes,
            options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::vec::strict_host_aligned(src, "cp.async.bulk source");
        crate::vec::strict_host_aligned(dst, "cp.async.bulk destination");
        if cfg!(feature = "strict-host") && !bytes.is_multiple_of(16) {
            panic!("cp.async.bulk: {bytes} bytes is not a multiple of 16");
        }
        core::ptr::copy_nonoverlapping(src, dst, bytes as usize)
    }
}

/// `fence.proxy.async.shared::cta` (CuTe's `tma_store_fence`): makes this thread's writes to
/// shared memory visible to the TMA unit (the async proxy); a barrier then lets one thread
/// issue the bulk copy. Nothing elsewhere.
///
/// Every thread writes its part of the tile, fences, and meets the others; then one thread
/// hands the whole tile to the TMA unit:
///
/// ```
/// use device::shared::dynamic_shared_mem;
/// use device::thread::{sync_threads, thread_idx_x};
/// use device::tma::{bulk_s2g, tma_store_arrive, tma_store_fence, tma_store_wait};
/// # #[repr(C, align(16))]
/// # struct Out([f32; 64]);
/// let mut out = Out([0.0; 64]);
/// let p = out.0.as_mut_ptr() as usize;
/// // SAFETY: 64 threads write 256 bytes of shared memory, one copies them to `out`.
/// unsafe {
///     device::emu::launch((1, 1, 1), (64, 1, 1), 256, || {
///         let s = dynamic_shared_mem::<f32>();
///         let t = thread_idx_x() as usize;
///         *s.add(t) = t as f32 / 2.0;
///         tma_store_fence(); // this thread's write, visible to the async proxy
///         sync_threads();
///         if t == 0 {
///             bulk_s2g(s as *const u8, p as *mut u8, 256);
///             tma_store_arrive();
///             tma_store_wait::<0>();
///         }
///     })
/// };
/// assert_eq!((out.0[0], out.0[63]), (0.0, 31.5));
/// ```
#[inline(always)]
pub fn tma_store_fence() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "fence.proxy.async.shared::cta;",
            options(nostack, preserves_flags)
        )
    }
}

/// `cp.async.bulk.commit_group` (CuTe's `tma_store_arrive`): closes this thread's group of bulk
/// copies. Nothing elsewhere.
///
/// Two copies in one group: one [`tma_store_wait`] covers both.
///
/// ```
/// use device::shared::dynamic_shared_mem;
/// use device::tma::{bulk_s2g, tma_store_arrive, tma_store_fence, tma_store_wait};
/// # #[repr(C, align(16))]
/// # struct Out([u32; 8]);
/// let mut out = Out([0; 8]);
/// let p = out.0.as_mut_ptr() as usize;
/// // SAFETY: one thread, 32 bytes of shared memory copied to `out`.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), 32, || {
///         let s = dynamic_shared_mem::<[u32; 4]>();
///         *s = [1, 2, 3, 4];
///         *s.add(1) = [5, 6, 7, 8];
///         tma_store_fence();
///         let d = p as *mut [u32; 4];
///         bulk_s2g(s.add(1) as *const u8, d as *mut u8, 16); // the halves swapped
///         bulk_s2g(s as *const u8, d.add(1) as *mut u8, 16);
///         tma_store_arrive(); // one group of two copies
///         tma_store_wait::<0>();
///     })
/// };
/// assert_eq!(out.0, [5, 6, 7, 8, 1, 2, 3, 4]);
/// ```
#[inline(always)]
pub fn tma_store_arrive() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.commit_group;",
            options(nostack, preserves_flags)
        )
    }
}

/// `cp.async.bulk.wait_group.read N` (CuTe's `tma_store_wait<N>`): waits until at most `N` of
/// this thread's bulk-copy groups still read their shared memory. Nothing elsewhere.
///
/// Four chunks through a ring of two buffers: before a buffer is rewritten, at most one group
/// (the other buffer's) may still read; before the exit, none.
///
/// ```
/// use device::shared::dynamic_shared_mem;
/// use device::tma::{bulk_s2g, tma_store_arrive, tma_store_fence, tma_store_wait};
/// # #[repr(C, align(16))]
/// # struct Out([u32; 16]);
/// let mut out = Out([0; 16]);
/// let p = out.0.as_mut_ptr() as usize;
/// // SAFETY: one thread, two 16-byte buffers of shared memory, `out` holds the four chunks.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), 32, || {
///         let bufs = dynamic_shared_mem::<[u32; 4]>();
///         for c in 0..4 {
///             tma_store_wait::<1>(); // chunk c - 2's copy has read buffer c % 2
///             let b = bufs.add(c % 2);
///             *b = [c as u32; 4];
///             tma_store_fence();
///             bulk_s2g(b as *const u8, (p as *mut u8).add(16 * c), 16);
///             tma_store_arrive();
///         }
///         tma_store_wait::<0>();
///     })
/// };
/// assert_eq!(out.0, core::array::from_fn(|i| i as u32 / 4));
/// ```
#[inline(always)]
pub fn tma_store_wait<const N: u32>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("cp.async.bulk.wait_group.read {n};", n = const N, options(nostack, preserves_flags))
    }
}
