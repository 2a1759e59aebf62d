//! Warp shuffles (`shfl.sync`), names after `cuda_std::warp`.
//!
//! In the emulator a shuffle is an exchange among the warp's threads; the member mask must
//! name exactly the warp's threads (`FULL_MASK` for a full warp), all still running.

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// All 32 lanes.
///
/// ```
/// assert_eq!(device::warp::FULL_MASK.count_ones(), 32);
/// ```
pub const FULL_MASK: u32 = 0xffff_ffff;

/// `shfl.sync.bfly.b32`: value from lane `lane_id ^ lane_mask` (`__shfl_xor_sync`).
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [0u32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp takes part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let l = lane_id();
///         *(p as *mut u32).add(l as usize) = shuffle_xor_u32(FULL_MASK, 100 + l, 1);
///     })
/// };
/// assert_eq!((out[0], out[1], out[30]), (101, 100, 131));
/// ```
///
/// # Safety
/// Every lane named in `mask` executes the same shuffle (convergent).
#[inline(always)]
pub unsafe fn shuffle_xor_u32(mask: u32, v: u32, lane_mask: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        unsafe {
            asm!(
                "shfl.sync.bfly.b32 {r}, {v}, {l}, 0x1f, {m};",
                r = out(reg32) r, v = in(reg32) v, l = in(reg32) lane_mask, m = in(reg32) mask,
                options(nostack, preserves_flags),
            )
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::warp_exchange(
            "shfl.sync.bfly.b32",
            mask,
            [v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            |lane, all| {
                // c = 0x1f: the source lane is lane ^ (b & 31), always in the warp.
                all[(lane ^ (lane_mask & 31)) as usize][0]
            },
        )
    }
}

/// `shfl.sync.idx.b32`: value from lane `src_lane` (`__shfl_sync`).
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [0u32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp takes part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let l = lane_id();
///         *(p as *mut u32).add(l as usize) = shuffle_idx_u32(FULL_MASK, 100 + l, 5);
///     })
/// };
/// assert_eq!(out, [105; 32]);
/// ```
///
/// # Safety
/// As [`shuffle_xor_u32`].
#[inline(always)]
pub unsafe fn shuffle_idx_u32(mask: u32, v: u32, src_lane: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        unsafe {
            asm!(
                "shfl.sync.idx.b32 {r}, {v}, {l}, 0x1f, {m};",
                r = out(reg32) r, v = in(reg32) v, l = in(reg32) src_lane, m = in(reg32) mask,
                options(nostack, preserves_flags),
            )
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::warp_exchange(
            "shfl.sync.idx.b32",
            mask,
            [v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            |_, all| all[(src_lane & 31) as usize][0],
        )
    }
}

/// `shfl.sync.down.b32`: value from lane `lane_id + delta` (`__shfl_down_sync`);
/// lanes past 31 keep their own value.
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [0u32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp takes part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let l = lane_id();
///         *(p as *mut u32).add(l as usize) = shuffle_down_u32(FULL_MASK, 100 + l, 4);
///     })
/// };
/// assert_eq!((out[0], out[27], out[28], out[31]), (104, 131, 128, 131));
/// ```
///
/// # Safety
/// As [`shuffle_xor_u32`].
#[inline(always)]
pub unsafe fn shuffle_down_u32(mask: u32, v: u32, delta: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        unsafe {
            asm!(
                "shfl.sync.down.b32 {r}, {v}, {l}, 0x1f, {m};",
                r = out(reg32) r, v = in(reg32) v, l = in(reg32) delta, m = in(reg32) mask,
                options(nostack, preserves_flags),
            )
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::warp_exchange(
            "shfl.sync.down.b32",
            mask,
            [v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            |lane, all| {
                // c = 0x1f: lanes whose source is past lane 31 keep their value.
                let j = lane + (delta & 31);
                if j <= 31 {
                    all[j as usize][0]
                } else {
                    all[lane as usize][0]
                }
            },
        )
    }
}

/// [`shuffle_xor_u32`] for `f32`.
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [0f32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp takes part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let l = lane_id();
///         *(p as *mut f32).add(l as usize) = shuffle_xor_f32(FULL_MASK, l as f32, 16);
///     })
/// };
/// assert_eq!((out[0], out[16]), (16.0, 0.0));
/// ```
///
/// # Safety
/// As [`shuffle_xor_u32`].
#[inline(always)]
pub unsafe fn shuffle_xor_f32(mask: u32, v: f32, lane_mask: u32) -> f32 {
    f32::from_bits(unsafe { shuffle_xor_u32(mask, v.to_bits(), lane_mask) })
}

/// Butterfly sum over the full warp: every lane gets the same total
/// (5 `shfl.sync.bfly` steps, a fixed order, so bit-identical on every lane).
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [0f32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp takes part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let l = lane_id();
///         *(p as *mut f32).add(l as usize) = warp_sum_f32(l as f32);
///     })
/// };
/// assert_eq!(out, [496.0; 32]);
/// ```
///
/// # Safety
/// All 32 lanes execute it (convergent).
#[inline(always)]
pub unsafe fn warp_sum_f32(mut v: f32) -> f32 {
    let mut m = 16;
    while m > 0 {
        v += unsafe { shuffle_xor_f32(FULL_MASK, v, m) };
        m >>= 1;
    }
    v
}

/// `vote.sync.any.pred`: whether `pred` holds on any lane of `mask` (`__any_sync`); the same
/// answer on every lane, so a branch on it is warp-uniform.
///
/// ```
/// use device::{emu::launch, thread::lane_id, warp::*};
/// let mut out = [false; 64];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warps take part; each lane writes its own element.
/// unsafe {
///     launch((1, 1, 1), (64, 1, 1), 0, || {
///         let t = device::thread::thread_idx_x();
///         // warp 0: lane 5 holds; warp 1: none
///         *(p as *mut bool).add(t as usize) = vote_any(FULL_MASK, t == 5);
///     })
/// };
/// assert!(out[..32].iter().all(|&x| x) && !out[32..].iter().any(|&x| x));
/// ```
///
/// # Safety
/// As [`shuffle_xor_u32`].
#[inline(always)]
pub unsafe fn vote_any(mask: u32, pred: bool) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        unsafe {
            asm!(
                "{{ .reg .pred p, q; setp.ne.u32 p, {v}, 0; vote.sync.any.pred q, p, {m}; selp.u32 {r}, 1, 0, q; }}",
                r = out(reg32) r, v = in(reg32) pred as u32, m = in(reg32) mask,
                options(nostack, preserves_flags),
            )
        };
        r != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::warp_exchange(
            "vote.sync.any.pred",
            mask,
            [pred as u32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            |_, all| (0..32).any(|l| mask >> l & 1 == 1 && all[l][0] != 0),
        )
    }
}

/// The warp's index in its CTA (along x), broadcast from lane 0 (CUTLASS's
/// `canonical_warp_idx_sync`): the shuffle tells the compiler the value is the same in every
/// lane, so branches on it are warp-uniform and what a branch computes from uniform values may
/// live in uniform registers (a TMA's operands without a loop over their distinct values).
///
/// ```
/// use device::{emu::launch, thread::thread_idx_x, warp::*};
/// let mut out = [0u32; 64];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: both warps are full; each thread writes its own element.
/// unsafe {
///     launch((1, 1, 1), (64, 1, 1), 0, || {
///         *(p as *mut u32).add(thread_idx_x() as usize) = canonical_warp_idx_sync();
///     })
/// };
/// assert_eq!((out[31], out[32]), (0, 1));
/// ```
///
/// # Safety
/// Every lane of the warp calls it (a full warp), as [`shuffle_idx_u32`]; the block is
/// one-dimensional.
#[inline(always)]
pub unsafe fn canonical_warp_idx_sync() -> u32 {
    // CUTLASS's `threadIdx.x / NumThreadsPerWarp` (one-dimensional blocks)
    let warp = crate::thread::thread_idx_x() / 32;
    unsafe { shuffle_idx_u32(FULL_MASK, warp, 0) }
}
