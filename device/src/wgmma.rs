//! Hopper's warpgroup MMA (`wgmma`, CuTe's `cute/arch/mma_sm90_gmma.hpp`): the asynchronous
//! tensor-core instruction of one warpgroup (128 threads) with f32 accumulators — `m64nNk16` with
//! 16-bit inputs (bf16 or f16), `m64nNk32` with 8-bit floats (e4m3 or e5m2, each operand either:
//! the element tag is the pair `(E4M3, E5M2)`; both operands K-major) — A and B from
//! shared-memory descriptors (SS) or A from registers (RS), and the fences and groups around it;
//! plus `setmaxnreg` (CUTLASS's `cutlass/arch/reg_reconfig.h`).
//!
//! The accumulators are the thread's `[f32; N/2]` fragment; the array's length picks the
//! instruction's N (8 to 256 in steps of 8), so a wrong N is a type error:
//!
//! ```
//! use device::wgmma::{Bf16, E4M3, E5M2, MmaAsync};
//! assert_eq!(<[f32; 128] as MmaAsync<Bf16>>::N, 256);
//! assert_eq!(<[f32; 4] as MmaAsync<Bf16>>::N, 8);
//! // 8-bit floats: m64nNk32, A e4m3 and B e5m2
//! assert_eq!(<[f32; 64] as MmaAsync<(E4M3, E5M2)>>::K, 32);
//! ```
//!
//! A `wgmma` reads and writes its accumulator registers asynchronously, from the `mma_async`
//! until the `wait_group` that retires it. The protocol is CuTe's:
//!
//! ```text
//! fence_operand(&mut acc);            // warpgroup_fence_operand
//! fence();                            // warpgroup_arrive (wgmma.fence)
//! mma_async_ss::<Bf16, MajorK, MajorK, _>(desc_a, desc_b, &mut acc, ScaleOut::Zero);
//! commit_group();                     // warpgroup_commit_batch
//! wait_group::<0>();                  // warpgroup_wait<0>
//! fence_operand(&mut acc);            // no read of acc is moved above the wait
//! ```
//!
//! `fence_operand` ties each register to an empty `asm!`, so the compiler neither moves an
//! accumulator access across the asynchronous region nor copies the registers while a `wgmma`
//! owns them (which ptxas would answer with a serialized `wgmma`, warning C7510/C7511).
//!
//! Off the GPU (host builds, the CPU emulator) the fences and groups do nothing and
//! [`mma_async_ss`] / [`mma_async_rs`] panic with a message: the emulator has no warpgroup
//! tensor core.

/// Which mode of a GMMA operand's shared-memory tile is contiguous (CuTe's `GMMA::Major`,
/// `cute/arch/mma_sm90_desc.hpp`): the `wgmma`'s `imm-trans` bit ([`tnsp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// K-major (`T` in BLAS terms for A, `N` for B): `imm-trans = 0`.
    K,
    /// M- or N-major: `imm-trans = 1` (16-bit inputs only).
    MN,
}

/// A GMMA operand major as a type: [`MajorK`] or [`MajorMN`] (CuTe's `GMMA::Major` as a
/// template argument).
///
/// ```
/// use device::wgmma::{GmmaMajor, Major, MajorK, MajorMN};
/// assert_eq!((MajorK::MAJOR, MajorMN::MAJOR), (Major::K, Major::MN));
/// ```
pub trait GmmaMajor: Copy + Default + 'static {
    /// The value.
    const MAJOR: Major;
}
/// `GMMA::Major::K`: the K mode is contiguous.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MajorK;
/// `GMMA::Major::MN`: the M (or N) mode is contiguous.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MajorMN;
impl GmmaMajor for MajorK {
    const MAJOR: Major = Major::K;
}
impl GmmaMajor for MajorMN {
    const MAJOR: Major = Major::MN;
}

/// bf16 inputs (`.bf16`), the element tag of [`MmaAsync`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bf16;
/// f16 inputs (`.f16`), the element tag of [`MmaAsync`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct F16;
/// An e4m3 operand (`.e4m3`, CuTe's `float_e4m3_t`): the 8-bit element tags of [`MmaAsync`] are
/// the pairs `(A, B)` of [`E4M3`] and [`E5M2`] (`m64nNk32`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct E4M3;
/// An e5m2 operand (`.e5m2`, CuTe's `float_e5m2_t`); see [`E4M3`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct E5M2;

/// The rule of the 8-bit `wgmma` (PTX: `imm-trans-a`/`imm-trans-b` only for `.f16`/`.bf16`;
/// CuTe's `ss_op_selector`: "MajorA must be GMMA::Major::K for this config."): both operands
/// K-major, checked at compile time where an 8-bit `wgmma` is instantiated.
pub struct KMajorOnly<MA, MB>(core::marker::PhantomData<(MA, MB)>);
impl<MA: GmmaMajor, MB: GmmaMajor> KMajorOnly<MA, MB> {
    /// Fails to compile for an MN-major operand.
    pub const OK: () = {
        if !matches!(MA::MAJOR, Major::K) {
            panic!(
                "wgmma with 8-bit inputs (e4m3/e5m2): MajorA must be GMMA::Major::K for this config (the instruction has no transpose for 8-bit types), but A is GMMA::Major::MN"
            )
        }
        if !matches!(MB::MAJOR, Major::K) {
            panic!(
                "wgmma with 8-bit inputs (e4m3/e5m2): MajorB must be GMMA::Major::K for this config (the instruction has no transpose for 8-bit types), but B is GMMA::Major::MN"
            )
        }
    };
}

/// `scale-d`: whether the `wgmma` adds to the accumulators (`D = A·B + D`) or overwrites them
/// (`D = A·B`), CuTe's `GMMA::ScaleOut`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ScaleOut {
    /// `D = A·B` (the accumulators' old values are ignored).
    Zero = 0,
    /// `D = A·B + D`.
    One = 1,
}

/// The immediate `imm-scale-a` / `imm-scale-b` (CuTe's `GMMA::ScaleIn`): `1` or `-1`.
pub trait ScaleIn {
    /// `1` or `-1`.
    const VALUE: i32;
}
/// `imm-scale = 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct One;
/// `imm-scale = -1` (the operand is negated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Neg;
impl ScaleIn for One {
    const VALUE: i32 = 1;
}
impl ScaleIn for Neg {
    const VALUE: i32 = -1;
}

/// `imm-trans-a` / `imm-trans-b` of an operand major: 0 for K-major, 1 for MN-major
/// (CuTe's `tnspA` / `tnspB`).
///
/// ```
/// use device::wgmma::tnsp;
/// use device::wgmma::{MajorK, MajorMN};
/// assert_eq!((tnsp::<MajorK>(), tnsp::<MajorMN>()), (0, 1));
/// ```
pub const fn tnsp<M: GmmaMajor>() -> u32 {
    match M::MAJOR {
        Major::K => 0,
        Major::MN => 1,
    }
}

/// The accumulator fragment of an `m64nNkK` `wgmma` with inputs `E` ([`Bf16`], [`F16`]: K = 16;
/// a pair of [`E4M3`] / [`E5M2`]: K = 32): implemented for `[f32; N/2]`, N = 8, 16, ..., 256.
/// Call it through [`mma_async_ss`] / [`mma_async_rs`].
#[diagnostic::on_unimplemented(
    message = "wgmma m64nNkK with {E} inputs: the inputs are Bf16, F16 or a pair of E4M3/E5M2, and the accumulators must be `[f32; N/2]` for N in 8..=256, a multiple of 8 (CuTe's GMMA N); `{Self}` is not",
    label = "not the accumulator array of an m64nNkK wgmma"
)]
pub trait MmaAsync<E>: FenceOperand {
    /// The instruction's N.
    const N: u32;
    /// The instruction's K: 16 (16-bit inputs) or 32 (8-bit).
    const K: u32;
    /// `wgmma.mma_async ... d, a-desc, b-desc, scale-d, SA, SB, tnspA, tnspB` on `self`.
    ///
    /// # Safety
    /// As [`mma_async_ss`].
    unsafe fn ss<MA: GmmaMajor, MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn>(
        &mut self,
        desc_a: u64,
        desc_b: u64,
        scale_d: ScaleOut,
    );
    /// `wgmma.mma_async ... d, {a0..a3}, b-desc, scale-d, SA, SB, tnspB` on `self`.
    ///
    /// # Safety
    /// As [`mma_async_rs`].
    unsafe fn rs<MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn>(
        &mut self,
        a: [u32; 4],
        desc_b: u64,
        scale_d: ScaleOut,
    );
}

/// Off the GPU: the emulator has no warpgroup tensor core.
#[cfg(not(target_arch = "nvptx64"))]
#[cold]
fn no_host_wgmma(n: u32, k: u32) -> ! {
    panic!(
        "wgmma.mma_async m64n{n}k{k} runs only on sm_90a: the CPU emulator has no warpgroup tensor core"
    )
}

macro_rules! gmma_n {
    ($n:literal, $k:literal, [$first:literal $($i:literal)*]) => {
        impl FenceOperand for [f32; $k] {
            #[inline(always)]
            fn fence_operand(&mut self) {
                #[cfg(target_arch = "nvptx64")]
                // SAFETY: an empty asm whose operands are registers.
                unsafe {
                    core::arch::asm!(
                        concat!("// fence_operand {", $first, "}" $(, ", {", $i, "}")*),
                        inout(reg32) self[$first], $(inout(reg32) self[$i],)*
                        options(nomem, nostack, preserves_flags),
                    )
                }
            }
        }
        gmma_n!(@ty $n, $k, 16, "bf16.bf16", Bf16, {}, [$first $($i)*]);
        gmma_n!(@ty $n, $k, 16, "f16.f16", F16, {}, [$first $($i)*]);
        gmma_n!(@ty $n, $k, 32, "e4m3.e4m3", (E4M3, E4M3), { KMajorOnly::<MA, MB>::OK }, [$first $($i)*]);
        gmma_n!(@ty $n, $k, 32, "e4m3.e5m2", (E4M3, E5M2), { KMajorOnly::<MA, MB>::OK }, [$first $($i)*]);
        gmma_n!(@ty $n, $k, 32, "e5m2.e4m3", (E5M2, E4M3), { KMajorOnly::<MA, MB>::OK }, [$first $($i)*]);
        gmma_n!(@ty $n, $k, 32, "e5m2.e5m2", (E5M2, E5M2), { KMajorOnly::<MA, MB>::OK }, [$first $($i)*]);
    };
    // the 16-bit forms end in `imm-trans-a, imm-trans-b` (RS: `imm-trans-b`); the 8-bit forms
    // have none (K-major only, checked by `$check`): their operands go to a PTX comment
    (@tr 16) => { ", {ta}, {tb};\n}}" };
    (@tr 32) => { "; // no imm-trans {ta} {tb}\n}}" };
    (@tr_rs 16) => { ", {tb};\n}}" };
    (@tr_rs 32) => { "; // no imm-trans-b {tb}\n}}" };
    (@ty $n:literal, $k:literal, $kk:tt, $ty:literal, $e:ty, $check:block, [$first:literal $($i:literal)*]) => {
        impl MmaAsync<$e> for [f32; $k] {
            const N: u32 = $n;
            const K: u32 = $kk;
            #[inline(always)]
            unsafe fn ss<MA: GmmaMajor, MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn>(
                &mut self,
                desc_a: u64,
                desc_b: u64,
                scale_d: ScaleOut,
            ) {
                let () = $check;
                #[cfg(target_arch = "nvptx64")]
                unsafe {
                    core::arch::asm!(
                        concat!(
                            "{{\n.reg .pred p;\nsetp.ne.b32 p, {sd}, 0;\n",
                            "wgmma.mma_async.sync.aligned.m64n", $n, "k", $kk, ".f32.", $ty, " {{",
                            "{", $first, "}" $(, ", {", $i, "}")*,
                            "}}, {da}, {db}, p, {sa}, {sb}", gmma_n!(@tr $kk)
                        ),
                        inout(reg32) self[$first], $(inout(reg32) self[$i],)*
                        sd = in(reg32) scale_d as u32,
                        da = in(reg64) desc_a,
                        db = in(reg64) desc_b,
                        sa = const SA::VALUE,
                        sb = const SB::VALUE,
                        ta = const tnsp::<MA>(),
                        tb = const tnsp::<MB>(),
                        options(nostack, preserves_flags),
                    )
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    let _ = (desc_a, desc_b, scale_d);
                    no_host_wgmma($n, $kk)
                }
            }
            #[inline(always)]
            unsafe fn rs<MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn>(
                &mut self,
                a: [u32; 4],
                desc_b: u64,
                scale_d: ScaleOut,
            ) {
                #[allow(dead_code)]
                type MA = MajorK;
                let () = $check;
                #[cfg(target_arch = "nvptx64")]
                unsafe {
                    core::arch::asm!(
                        concat!(
                            "{{\n.reg .pred p;\nsetp.ne.b32 p, {sd}, 0;\n",
                            "wgmma.mma_async.sync.aligned.m64n", $n, "k", $kk, ".f32.", $ty, " {{",
                            "{", $first, "}" $(, ", {", $i, "}")*,
                            "}}, {{{a0}, {a1}, {a2}, {a3}}}, {db}, p, {sa}, {sb}", gmma_n!(@tr_rs $kk)
                        ),
                        inout(reg32) self[$first], $(inout(reg32) self[$i],)*
                        sd = in(reg32) scale_d as u32,
                        a0 = in(reg32) a[0],
                        a1 = in(reg32) a[1],
                        a2 = in(reg32) a[2],
                        a3 = in(reg32) a[3],
                        db = in(reg64) desc_b,
                        sa = const SA::VALUE,
                        sb = const SB::VALUE,
                        tb = const tnsp::<MB>(),
                        options(nostack, preserves_flags),
                    )
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    let _ = (a, desc_b, scale_d);
                    no_host_wgmma($n, $kk)
                }
            }
        }
    };
}

include!("wgmma_impls.rs");

/// `wgmma.mma_async.sync.aligned.m64nNkK.f32.EA.EB` with A and B in shared memory (SS): `acc =
/// A·B (+ acc)` for the warpgroup's 64×N tile, A (64×K) and B (N×K) read through their GMMA
/// descriptors (`desc_a`, `desc_b`), `MA`/`MB` their majors ([`MajorK`] or [`MajorMN`], the
/// immediate `tnspA`/`tnspB`), `SA`/`SB` the immediate input scales ([`One`] or [`Neg`]). N is the
/// accumulator array's length times 2; K is 16 for `E` = [`Bf16`] / [`F16`] and 32 for the 8-bit
/// pairs (`(E4M3, E4M3)`, `(E4M3, E5M2)`, ...), whose operands must both be K-major (an MN-major
/// one is a compile error naming the rule, [`KMajorOnly`]). Asynchronous: the accumulators are
/// owned by the `wgmma` until a [`wait_group`] retires its group.
///
/// ```no_run
/// use device::wgmma::*;
/// use device::wgmma::MajorK;
/// # let (desc_a, desc_b) = (0u64, 0u64);
/// let mut acc = [0f32; 32]; // m64n64k16: 32 accumulators per thread
/// fence_operand(&mut acc);
/// fence();
/// // SAFETY: on sm_90a, all 128 threads of a warpgroup, valid descriptors.
/// unsafe { mma_async_ss::<Bf16, MajorK, MajorK, One, One, _>(desc_a, desc_b, &mut acc, ScaleOut::Zero) };
/// commit_group();
/// wait_group::<0>();
/// fence_operand(&mut acc);
/// ```
///
/// # Safety
/// Executed by all 128 threads of a warpgroup (convergent, `.aligned`) after a [`fence`], on an
/// `sm_90a` target; the descriptors describe canonical GMMA layouts inside this CTA's shared
/// memory, written and made visible to the async proxy before.
#[inline(always)]
pub unsafe fn mma_async_ss<E, MA: GmmaMajor, MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn, Acc>(
    desc_a: u64,
    desc_b: u64,
    acc: &mut Acc,
    scale_d: ScaleOut,
) where
    Acc: MmaAsync<E>,
{
    unsafe { acc.ss::<MA, MB, SA, SB>(desc_a, desc_b, scale_d) }
}

/// `wgmma.mma_async.sync.aligned.m64nNkK.f32.EA.EB` with A from registers (RS): as
/// [`mma_async_ss`], A's 64×K tile held by the warpgroup as four `u32` per thread (two packed
/// 16-bit values each, CuTe's `ALayout_64x16`, or four 8-bit values, `ALayout_64x32`: K-major
/// only), B through its descriptor.
///
/// ```no_run
/// use device::wgmma::*;
/// use device::wgmma::MajorMN;
/// # let (a, desc_b) = ([0u32; 4], 0u64);
/// let mut acc = [0f32; 128]; // m64n256k16
/// fence();
/// // SAFETY: on sm_90a, all 128 threads of a warpgroup, a valid descriptor.
/// unsafe { mma_async_rs::<F16, MajorMN, One, One, _>(a, desc_b, &mut acc, ScaleOut::One) };
/// commit_group();
/// wait_group::<0>();
/// fence_operand(&mut acc);
/// ```
///
/// # Safety
/// As [`mma_async_ss`]; moreover `a` must not be written until the `wgmma` is retired.
#[inline(always)]
pub unsafe fn mma_async_rs<E, MB: GmmaMajor, SA: ScaleIn, SB: ScaleIn, Acc>(
    a: [u32; 4],
    desc_b: u64,
    acc: &mut Acc,
    scale_d: ScaleOut,
) where
    Acc: MmaAsync<E>,
{
    unsafe { acc.rs::<MB, SA, SB>(a, desc_b, scale_d) }
}

/// `wgmma.fence.sync.aligned` (CuTe's `warpgroup_arrive`): orders this warpgroup's earlier
/// register and shared-memory accesses before the next `wgmma.mma_async`. Nothing off the GPU.
///
/// ```
/// device::wgmma::fence(); // a no-op on the host
/// ```
#[inline(always)]
pub fn fence() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "wgmma.fence.sync.aligned;",
            options(nostack, preserves_flags)
        )
    }
}

/// `wgmma.commit_group.sync.aligned` (CuTe's `warpgroup_commit_batch`): closes the group of this
/// warpgroup's uncommitted `wgmma`s. Nothing off the GPU.
///
/// ```
/// device::wgmma::commit_group();
/// ```
#[inline(always)]
pub fn commit_group() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "wgmma.commit_group.sync.aligned;",
            options(nostack, preserves_flags)
        )
    }
}

/// `wgmma.wait_group.sync.aligned N` (CuTe's `warpgroup_wait<N>`): waits until at most `N` of
/// this warpgroup's committed groups are pending. Nothing off the GPU.
///
/// ```
/// device::wgmma::wait_group::<0>();
/// ```
#[inline(always)]
pub fn wait_group<const N: u32>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("wgmma.wait_group.sync.aligned {n};", n = const N, options(nostack, preserves_flags))
    }
}

/// CuTe's `warpgroup_fence_operand`: one empty `asm!` reading and writing every register of
/// `acc`, so that no access to the accumulators is moved across it (place one before the
/// [`fence`] and one after the [`wait_group`]). Implemented for the accumulator arrays
/// `[f32; N/2]` of [`MmaAsync`] (one `asm!` with all registers, so the array never needs an
/// address: a loop of one-register fences over 64 or 128 elements is not unrolled by LLVM and
/// would put the array in local memory). Nothing off the GPU.
///
/// ```
/// let mut acc = [1.0f32; 4];
/// device::wgmma::fence_operand(&mut acc);
/// assert_eq!(acc, [1.0; 4]);
/// ```
#[inline(always)]
pub fn fence_operand<A: FenceOperand>(acc: &mut A) {
    acc.fence_operand()
}

/// The register arrays [`fence_operand`] takes: `[f32; 4·i]`, i = 1..=32.
pub trait FenceOperand {
    /// See [`fence_operand`].
    fn fence_operand(&mut self);
}

/// `setmaxnreg.inc.sync.aligned.u32 N` (CUTLASS's `warpgroup_reg_alloc<N>`): raises this
/// warpgroup's per-thread register budget to `N` (24 to 256, a multiple of 8; checked at compile
/// time). The kernel must be launched with a register count (`.maxnreg` or launch bounds) for
/// ptxas to honour it (else warning C7508, which `cargo xtask test` rejects). Nothing off the GPU.
///
/// ```
/// device::wgmma::setmaxnreg_inc::<240>();
/// ```
#[inline(always)]
pub fn setmaxnreg_inc<const N: u32>() {
    const { check_maxnreg(N) };
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack, preserves_flags))
    }
}

/// `setmaxnreg.dec.sync.aligned.u32 N` (CUTLASS's `warpgroup_reg_dealloc<N>`): lowers this
/// warpgroup's per-thread register budget to `N` (24 to 256, a multiple of 8). Nothing off the GPU.
///
/// ```
/// device::wgmma::setmaxnreg_dec::<40>();
/// ```
#[inline(always)]
pub fn setmaxnreg_dec<const N: u32>() {
    const { check_maxnreg(N) };
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack, preserves_flags))
    }
}

/// PTX's rule for `setmaxnreg`'s count.
const fn check_maxnreg(n: u32) {
    if n < 24 || n > 256 || !n.is_multiple_of(8) {
        const_panic::concat_panic!(
            "setmaxnreg: the register count must be in 24..=256 and a multiple of 8, got ",
            n
        );
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::{format, string::String, string::ToString, vec::Vec};

    /// The generated invocations are exactly one per N = 8, 16, ..., 256 with indices 0..N/2.
    /// `CUTE_RS_REGEN=1 cargo test --manifest-path kernels/Cargo.toml -p device --lib wgmma` rewrites the file.
    #[test]
    fn generated_impls_are_current() {
        let mut text = String::from(
            "// @generated by `CUTE_RS_REGEN=1 cargo test --manifest-path kernels/Cargo.toml -p device --lib wgmma`: do not edit.\n\
             // One `gmma_n!(N, K, [0 .. K-1])` per wgmma N (K = N/2 f32 accumulators per thread).\n\n",
        );
        for n in (8..=256).step_by(8) {
            let idx: Vec<String> = (0..n / 2).map(|i: u32| i.to_string()).collect();
            text.push_str(&format!("gmma_n!({n}, {}, [{}]);\n", n / 2, idx.join(" ")));
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/wgmma_impls.rs");
        if std::env::var_os("CUTE_RS_REGEN").is_some() {
            std::fs::write(path, &text).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            text,
            "regenerate: see the doc"
        );
    }

    #[test]
    fn every_n_from_8_to_256() {
        fn n<A: MmaAsync<Bf16> + MmaAsync<F16>>() -> (u32, u32) {
            (<A as MmaAsync<Bf16>>::N, <A as MmaAsync<F16>>::N)
        }
        assert_eq!(n::<[f32; 4]>(), (8, 8));
        assert_eq!(n::<[f32; 32]>(), (64, 64));
        assert_eq!(n::<[f32; 64]>(), (128, 128));
        assert_eq!(n::<[f32; 124]>(), (248, 248));
        assert_eq!(n::<[f32; 128]>(), (256, 256));
        fn nk<E, A: MmaAsync<E>>() -> (u32, u32) {
            (A::N, A::K)
        }
        assert_eq!(nk::<(E4M3, E4M3), [f32; 4]>(), (8, 32));
        assert_eq!(nk::<(E4M3, E5M2), [f32; 64]>(), (128, 32));
        assert_eq!(nk::<(E5M2, E4M3), [f32; 96]>(), (192, 32));
        assert_eq!(nk::<(E5M2, E5M2), [f32; 128]>(), (256, 32));
        assert_eq!(nk::<Bf16, [f32; 128]>(), (256, 16));
    }

    #[test]
    #[should_panic(expected = "m64n128k32 runs only on sm_90a")]
    fn host_fp8_mma_async_is_a_clear_error() {
        let mut acc = [0f32; 64];
        unsafe {
            mma_async_rs::<(E4M3, E5M2), MajorK, One, One, _>([0; 4], 0, &mut acc, ScaleOut::One)
        };
    }

    #[test]
    #[should_panic(expected = "runs only on sm_90a")]
    fn host_mma_async_is_a_clear_error() {
        let mut acc = [0f32; 4];
        unsafe { mma_async_ss::<Bf16, MajorK, MajorK, One, One, _>(0, 0, &mut acc, ScaleOut::One) };
    }
}
