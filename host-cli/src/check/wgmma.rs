//! The wgmma proof kernels (`tests/kernels/wgmma`, sm_90a) against a CPU reference: every entry
//! `wgmma_<ss|rs>_<bf16|f16>_<A major><B major>_<atom>_n<N>` of the embedded PTX computes
//! `C(64×N) = A(64×64)·B(N×64)ᵀ` from fresh random inputs, compared bit-exactly with the
//! exact product (the inputs are multiples of 1/16 in [-1, 1], exact in bf16 and f16, and every
//! partial sum is exact in f32, so any summation order gives the same bits: a wrong descriptor,
//! swizzle or fragment layout cannot hide in a tolerance). The 8-bit entries
//! `wgmma_<ss|rs>_<e4m3|e5m2><e4m3|e5m2>_kk_<atom>_n<N>` compute `A(64×128)·B(N×128)ᵀ`
//! (`m64nNk32`, both K-major) from multiples of 1/4 in [-1, 1], exact in e4m3 and e5m2, whose
//! partial sums (multiples of 1/16 below 128) fit the 14 bits the FP8 tensor core keeps. A and B reach the kernels by TMA: the
//! host encodes one tensor map per operand whose box and swizzle are the smem atom's
//! ([`WgmmaConfig::tma_box`]).

use std::sync::Arc;

use host::cudarc::driver::{CudaStream, DevicePtr, LaunchConfig, PushKernelArg};

use super::smoke::f16_bits_exact;
use super::{CheckRow, Rng, compare};
use crate::timing::timed;
use host::context::Context;
use host::error::{Error, Result};
use host::tma::launch::TmaParam;
use host::tma::{GmemTensor, TmaCopy, TmaOp};

/// One proof configuration, parsed from its entry's name.
///
/// ```
/// use host_cli::check::WgmmaConfig;
/// let c = WgmmaConfig::parse("wgmma_rs_f16_kmn_sw64_n256").unwrap();
/// assert_eq!((c.rs, c.f16, c.a_mn, c.b_mn, c.swizzle, c.n), (true, true, false, true, 2, 256));
/// assert_eq!(c.describe(), "m64n256k64 RS f16 A:K B:MN SW64");
/// assert!(WgmmaConfig::parse("wgmma_ss_bf16_kk_sw16_n64").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgmmaConfig {
    /// The kernel entry.
    pub entry: &'static str,
    /// A from registers (RS) rather than shared memory (SS).
    pub rs: bool,
    /// f16 inputs (else bf16; ignored for 8-bit inputs).
    pub f16: bool,
    /// 8-bit inputs: whether A and B are e5m2 (else e4m3); `None` for 16-bit inputs.
    pub fp8: Option<(bool, bool)>,
    /// A is M-major (else K-major).
    pub a_mn: bool,
    /// B is N-major (else K-major).
    pub b_mn: bool,
    /// The smem atom's swizzle bits: 0 INTER, 1 SW32, 2 SW64, 3 SW128.
    pub swizzle: u32,
    /// The wgmma's N.
    pub n: usize,
}

const ATOMS: [&str; 4] = ["INTER", "SW32", "SW64", "SW128"];

impl WgmmaConfig {
    /// Parses `wgmma_<ss|rs>_<bf16|f16>_<k|mn><k|mn>_<inter|sw32|sw64|sw128>_n<N>`, and the 8-bit
    /// `wgmma_<ss|rs>_<e4m3|e5m2><e4m3|e5m2>_kk_…` (A's type, then B's; K-major only: the
    /// 8-bit `wgmma` has no transpose).
    ///
    /// ```
    /// use host_cli::check::WgmmaConfig;
    /// let c = WgmmaConfig::parse("wgmma_ss_e5m2e4m3_kk_sw128_n8").unwrap();
    /// assert_eq!((c.rs, c.fp8, c.a_mn, c.swizzle, c.n), (false, Some((true, false)), false, 3, 8));
    /// // N a multiple of 8 up to 256, nothing after it
    /// assert!(WgmmaConfig::parse("wgmma_ss_bf16_kk_inter_n12").is_none());
    /// assert!(WgmmaConfig::parse("wgmma_ss_bf16_kk_inter_n264").is_none());
    /// assert!(WgmmaConfig::parse("wgmma_ss_bf16_kk_inter_n8_x").is_none());
    /// ```
    pub fn parse(entry: &'static str) -> Option<WgmmaConfig> {
        let mut p = entry.strip_prefix("wgmma_")?.split('_');
        let rs = match p.next()? {
            "ss" => false,
            "rs" => true,
            _ => return None,
        };
        let (f16, fp8) = match p.next()? {
            "bf16" => (false, None),
            "f16" => (true, None),
            "e4m3e4m3" => (false, Some((false, false))),
            "e4m3e5m2" => (false, Some((false, true))),
            "e5m2e4m3" => (false, Some((true, false))),
            "e5m2e5m2" => (false, Some((true, true))),
            _ => return None,
        };
        let (a_mn, b_mn) = match p.next()? {
            "kk" => (false, false),
            "kmn" => (false, true),
            "mnk" => (true, false),
            "mnmn" => (true, true),
            _ => return None,
        };
        let atom = p.next()?;
        let swizzle = ATOMS.iter().position(|a| a.eq_ignore_ascii_case(atom))? as u32;
        let n: usize = p.next()?.strip_prefix('n')?.parse().ok()?;
        if p.next().is_some() || n == 0 || n > 256 || !n.is_multiple_of(8) {
            return None;
        }
        if fp8.is_some() && (a_mn || b_mn) {
            return None; // the 8-bit wgmma has no transpose
        }
        Some(WgmmaConfig {
            entry,
            rs,
            f16,
            fp8,
            a_mn,
            b_mn,
            swizzle,
            n,
        })
    }

    /// `m64n<N>k64 SS|RS bf16|f16 A:K|MN B:K|MN <atom>` (8-bit: `m64n<N>k128 SS|RS e4m3×e5m2 ...`).
    ///
    /// ```
    /// use host_cli::check::WgmmaConfig;
    /// let c = WgmmaConfig::parse("wgmma_rs_e4m3e5m2_kk_sw64_n64").unwrap();
    /// assert_eq!(c.describe(), "m64n64k128 RS e4m3×e5m2 A:K B:K SW64");
    /// assert!(WgmmaConfig::parse("wgmma_ss_e4m3e4m3_mnk_sw64_n64").is_none()); // K-major only
    /// ```
    pub fn describe(&self) -> String {
        let major = |mn: bool| if mn { "MN" } else { "K" };
        let e = |e5: bool| if e5 { "e5m2" } else { "e4m3" };
        let elem = match self.fp8 {
            Some((a, b)) => format!("{}×{}", e(a), e(b)),
            None => (if self.f16 { "f16" } else { "bf16" }).to_string(),
        };
        format!(
            "m64n{}k{} {} {} A:{} B:{} {}",
            self.n,
            self.k(),
            if self.rs { "RS" } else { "SS" },
            elem,
            major(self.a_mn),
            major(self.b_mn),
            ATOMS[self.swizzle as usize]
        )
    }

    /// The K of a proof: one 128-byte row, 64 16-bit or 128 8-bit elements.
    ///
    /// ```
    /// use host_cli::check::WgmmaConfig;
    /// assert_eq!(WgmmaConfig::parse("wgmma_ss_f16_mnk_sw128_n64").unwrap().k(), 64);
    /// assert_eq!(WgmmaConfig::parse("wgmma_rs_e4m3e4m3_kk_sw128_n64").unwrap().k(), 128);
    /// ```
    pub fn k(&self) -> usize {
        if self.fp8.is_some() { 128 } else { 64 }
    }

    /// Dynamic shared memory of a launch: A's 64×64 and B's N×64 16-bit tiles (the same bytes
    /// as 64×128 and N×128 8-bit ones), then the mbarrier of their TMA loads.
    ///
    /// ```
    /// use host_cli::check::WgmmaConfig;
    /// // (64 + 256)·64 bf16 and an 8-byte mbarrier
    /// assert_eq!(WgmmaConfig::parse("wgmma_ss_bf16_kk_sw128_n256").unwrap().smem_bytes(), 40_968);
    /// // (64 + 8)·128 e4m3: the same bytes
    /// assert_eq!(WgmmaConfig::parse("wgmma_ss_e4m3e4m3_kk_sw32_n8").unwrap().smem_bytes(), 9_224);
    /// ```
    pub fn smem_bytes(&self) -> u32 {
        ((64 + self.n) * 64 * 2 + 8) as u32
    }

    /// The shared-memory box of the TMA loads of A (`a`) or B (rows 64 or N), in 16-bit
    /// elements, as `make_tma_copy` takes it: the swizzle of the smem atom (INTER none, SWxx the
    /// xx-byte swizzle, `Sw<B,3,3>` on 2-byte elements) over one block of the kernel's
    /// `tile_to_shape(atom, (rows, 64), LayoutLeft)` tile. K-major: an atom column, `rows`
    /// rows of the atom's `W = 8·2^B` elements of K; MN-major: one atom, `W` elements of MN by
    /// 8 of K (the next MN atom follows it in shared memory). The kernel loads one box per
    /// block, `64/W` (K-major) or `rows/W · 8` (MN-major) of them.
    ///
    /// ```
    /// use host_cli::check::WgmmaConfig;
    /// let c = WgmmaConfig::parse("wgmma_ss_bf16_kmn_sw64_n128").unwrap();
    /// assert_eq!(c.tma_box(true), "Sw<2,3,3> o _0 o (_64,_32):(_32,_1)");
    /// assert_eq!(c.tma_box(false), "Sw<2,3,3> o _0 o (_32,_8):(_1,_32)");
    /// ```
    pub fn tma_box(&self, a: bool) -> String {
        let (mn_major, rows) = if a {
            (self.a_mn, 64)
        } else {
            (self.b_mn, self.n)
        };
        if self.fp8.is_some() {
            // 1-byte elements: the atom is 16·2^B wide, the byte swizzle `Sw<B,4,3>` as is
            let (b, w) = (self.swizzle, 16usize << self.swizzle);
            return format!("Sw<{b},4,3> o _0 o (_{rows},_{w}):(_{w},_1)");
        }
        let (b, w) = (self.swizzle, 8usize << self.swizzle);
        if mn_major {
            format!("Sw<{b},3,3> o _0 o (_{w},_8):(_1,_{w})")
        } else {
            format!("Sw<{b},3,3> o _0 o (_{rows},_{w}):(_{w},_1)")
        }
    }

    /// A (`a`: 64×64) or B (N×64) as the global tensor of its tensor map, `(MN, K)` with the
    /// configuration's major, at device address `address`.
    ///
    /// ```
    /// use host::tma::{TmaOp, plan_tma_copy};
    /// use host_cli::check::WgmmaConfig;
    /// let c = WgmmaConfig::parse("wgmma_ss_bf16_kmn_sw64_n128").unwrap();
    /// let a = c.gmem(true, 0x1_0000); // K-major A: (64,64):(64,1)
    /// assert_eq!((&a.shape[..], &a.stride[..], a.elem_bytes), (&[64, 64][..], &[64, 1][..], 2));
    /// let b = c.gmem(false, 0x2_0000); // N-major B: (128,64):(1,128)
    /// assert_eq!((&b.shape[..], &b.stride[..]), (&[128, 64][..], &[1, 128][..]));
    /// // its TMA box: one SW64 atom, 32 elements of N by 8 of K
    /// let p = plan_tma_copy(TmaOp::Load, &b, &c.tma_box(false).parse().unwrap()).unwrap();
    /// assert_eq!((&p.box_dim[..], p.tx_bytes), (&[32, 8][..], 32 * 8 * 2));
    /// ```
    pub fn gmem(&self, a: bool, address: u64) -> GmemTensor {
        let (mn_major, rows) = if a {
            (self.a_mn, 64)
        } else {
            (self.b_mn, self.n as u64)
        };
        if self.fp8.is_some() {
            return GmemTensor::new::<u8>(address, &[rows, 128], &[128, 1]);
        }
        if mn_major {
            GmemTensor::new::<u16>(address, &[rows, 64], &[1, rows])
        } else {
            GmemTensor::new::<u16>(address, &[rows, 64], &[64, 1])
        }
    }
}

/// The TMA load of A or B of a configuration: the map's plan, checked (`make_tma_copy`).
fn tma_load(ctx: &Context, cfg: &WgmmaConfig, a: bool, address: u64) -> Result<TmaCopy> {
    let s = cfg.tma_box(a);
    let smem = s
        .parse()
        .map_err(|e| Error::Unsupported(format!("smem box {s}: {e:?}")))?;
    ctx.make_tma_copy(TmaOp::Load, &cfg.gmem(a, address), &smem)
}

/// Every proof configuration the context's PTX has, in entry order.
pub(crate) fn configs(ctx: &Context) -> Vec<WgmmaConfig> {
    ctx.kernels()
        .into_iter()
        .filter(|e| e.starts_with("wgmma_"))
        .filter_map(WgmmaConfig::parse)
        .collect()
}

/// The inputs and the exact product of one configuration: A (64×64) and B (N×64) as 16-bit
/// bits in their gmem majors, C column-major. 8-bit inputs (K = 128, K-major) are packed two to
/// a `u16`, the lower K first (the bytes in memory are the dense K-major matrix).
pub(crate) struct Problem {
    pub a: Vec<u16>,
    pub b: Vec<u16>,
    pub c: Vec<f32>,
}

/// Random multiples of 1/16 in [-1, 1] for A and B, stored per the configuration's majors
/// (8-bit inputs: [`problem_fp8`]).
pub(crate) fn problem(cfg: &WgmmaConfig, rng: &mut Rng) -> Problem {
    if let Some(e5) = cfg.fp8 {
        return problem_fp8(cfg.n, e5, rng);
    }
    const K: usize = 64;
    let n = cfg.n;
    let av: Vec<f32> = (0..64 * K)
        .map(|_| rng.int(-16, 16) as f32 / 16.0)
        .collect(); // [m][k]
    let bv: Vec<f32> = (0..n * K).map(|_| rng.int(-16, 16) as f32 / 16.0).collect(); // [n][k]
    let bits = |x: f32| {
        if cfg.f16 {
            f16_bits_exact(x)
        } else {
            (x.to_bits() >> 16) as u16 // exact: 5 significant bits
        }
    };
    let mut a = vec![0u16; 64 * K];
    for m in 0..64 {
        for k in 0..K {
            a[if cfg.a_mn { m + 64 * k } else { m * K + k }] = bits(av[m * K + k]);
        }
    }
    let mut b = vec![0u16; n * K];
    for j in 0..n {
        for k in 0..K {
            b[if cfg.b_mn { j + n * k } else { j * K + k }] = bits(bv[j * K + k]);
        }
    }
    let mut c = vec![0f32; 64 * n];
    for m in 0..64 {
        for j in 0..n {
            // multiples of 1/256 below 64 in magnitude: exact in f32 in any order
            c[m + 64 * j] = (0..K).map(|k| av[m * K + k] * bv[j * K + k]).sum();
        }
    }
    Problem { a, b, c }
}

/// An 8-bit problem: A (64×128) and B (N×128) K-major, multiples of 1/4 in [-1, 1] (exact in
/// e4m3 and e5m2), `e5` saying which are e5m2; every partial sum is a multiple of 1/16 below 128
/// in magnitude, exact in the FP8 tensor core's accumulator and in f32.
pub(crate) fn problem_fp8(n: usize, e5: (bool, bool), rng: &mut Rng) -> Problem {
    use layout_types::cute::atom::mma::{float_e4m3_t, float_e5m2_t};
    const K: usize = 128;
    let enc = |x: f32, e5: bool| {
        let b = if e5 {
            float_e5m2_t::from_f32(x).0
        } else {
            float_e4m3_t::from_f32(x).0
        };
        debug_assert_eq!(
            if e5 {
                float_e5m2_t(b).to_f32()
            } else {
                float_e4m3_t(b).to_f32()
            },
            x
        );
        b
    };
    let av: Vec<f32> = (0..64 * K).map(|_| rng.int(-4, 4) as f32 / 4.0).collect(); // [m][k]
    let bv: Vec<f32> = (0..n * K).map(|_| rng.int(-4, 4) as f32 / 4.0).collect(); // [n][k]
    let pack = |v: &[f32], e5: bool| -> Vec<u16> {
        v.chunks(2)
            .map(|p| u16::from(enc(p[0], e5)) | (u16::from(enc(p[1], e5)) << 8))
            .collect()
    };
    let mut c = vec![0f32; 64 * n];
    for m in 0..64 {
        for j in 0..n {
            c[m + 64 * j] = (0..K).map(|k| av[m * K + k] * bv[j * K + k]).sum();
        }
    }
    Problem {
        a: pack(&av, e5.0),
        b: pack(&bv, e5.1),
        c,
    }
}

fn check_one(ctx: &Context, s: &Arc<CudaStream>, cfg: &WgmmaConfig, seed: u64) -> Result<CheckRow> {
    let mut rng = Rng::new(seed ^ fnv(cfg.entry));
    let p = problem(cfg, &mut rng);
    let da = s.clone_htod(&p.a)?;
    let db = s.clone_htod(&p.b)?;
    let mut dc = s.alloc_zeros::<f32>(p.c.len())?;
    let (pa, _ra) = da.device_ptr(s);
    let (pb, _rb) = db.device_ptr(s);
    let map_a = TmaParam(tma_load(ctx, cfg, true, pa)?.desc.0);
    let map_b = TmaParam(tma_load(ctx, cfg, false, pb)?.desc.0);
    let f = ctx.kernel(cfg.entry)?;
    let launch = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: cfg.smem_bytes(),
    };
    let ms = timed(s, || {
        let mut b = s.launch_builder(&f);
        b.arg(&map_a).arg(&map_b).arg(&mut dc);
        // SAFETY: `(tma_a, tma_b: TmaDescriptor, c: *mut f32)`: the maps of A (64×64) and B
        // (N×64) with the boxes the kernel loads (`tma_box`), alive until the stream syncs (`da`,
        // `db`), C 64×N dense; its shared memory is `smem_bytes`.
        unsafe { b.launch(launch) }?;
        Ok(())
    })?;
    let got = s.clone_dtoh(&dc)?;
    let (mismatches, max_err) = compare(&got, &p.c);
    Ok(CheckRow {
        kernel: cfg.entry,
        shape: cfg.describe(),
        pass: mismatches == 0,
        max_err,
        mismatches,
        ms,
        note: format!("bit-exact vs CPU, seed {seed:#x}"),
    })
}

/// The warp-specialized entry `wgmma_ws_f16_m128n128`: producer warpgroup with `setmaxnreg.dec`,
/// two consumer warpgroups with `setmaxnreg.inc` on m64n128k16, an f16 epilogue through
/// `stmatrix` and shared memory. Inputs are multiples of 1/4 in [-1, 1], so every sum (a
/// multiple of 1/16 of magnitude at most 64) is exact in f16: C is compared bit-exactly.
pub(crate) const WS_ENTRY: &str = "wgmma_ws_f16_m128n128";

fn check_ws(ctx: &Context, s: &Arc<CudaStream>, seed: u64) -> Result<CheckRow> {
    const M: usize = 128;
    const N: usize = 128;
    const K: usize = 64;
    let mut rng = Rng::new(seed ^ fnv(WS_ENTRY));
    let av: Vec<f32> = (0..M * K).map(|_| rng.int(-4, 4) as f32 / 4.0).collect(); // [m][k]
    let bv: Vec<f32> = (0..N * K).map(|_| rng.int(-4, 4) as f32 / 4.0).collect(); // [n][k]
    let a: Vec<u16> = av.iter().map(|&x| f16_bits_exact(x)).collect();
    let b: Vec<u16> = bv.iter().map(|&x| f16_bits_exact(x)).collect();
    let mut want = vec![0u16; M * N];
    for m in 0..M {
        for n in 0..N {
            let sum: f32 = (0..K).map(|k| av[m * K + k] * bv[n * K + k]).sum();
            want[m + M * n] = f16_bits_exact(sum);
        }
    }
    let da = s.clone_htod(&a)?;
    let db = s.clone_htod(&b)?;
    let mut dc = s.alloc_zeros::<u16>(M * N)?;
    let f = ctx.kernel(WS_ENTRY)?;
    let launch = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (384, 1, 1),
        shared_mem_bytes: 32 * 1024,
    };
    let ms = timed(s, || {
        let mut l = s.launch_builder(&f);
        l.arg(&da).arg(&db).arg(&mut dc);
        // SAFETY: `(a: *const u16, b: *const u16, c: *mut u16)`: A and B 128×64, C 128×128
        // f16, as the kernel documents; 384 threads and 32 KiB of shared memory.
        unsafe { l.launch(launch) }?;
        Ok(())
    })?;
    let got = s.clone_dtoh(&dc)?;
    let to_f32 = |v: &[u16]| -> Vec<f32> { v.iter().map(|&h| f16_to_f32(h)).collect() };
    let (mismatches, max_err) = compare(&to_f32(&got), &to_f32(&want));
    Ok(CheckRow {
        kernel: WS_ENTRY,
        shape: "m128n128k64 SS f16 A:K B:K SW128 ws".into(),
        pass: mismatches == 0,
        max_err,
        mismatches,
        ms,
        note: format!("setmaxnreg+stmatrix, f16 out, bit-exact, seed {seed:#x}"),
    })
}

/// An IEEE binary16 value as f32 (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    match e {
        0 => sign * m * 2f32.powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1024.0 + m) * 2f32.powi(e - 25),
    }
}

/// FNV-1a of a name: a per-entry stream of the seed.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Every proof configuration with inputs drawn from `seed`; a row per configuration (a launch
/// error is that configuration's FAIL row), or one FAIL row when the PTX has none.
pub(crate) fn checks(ctx: &Context, seed: u64) -> Vec<CheckRow> {
    let s = ctx.default_stream();
    let cfgs = configs(ctx);
    if cfgs.is_empty() {
        return vec![CheckRow::failed(
            "wgmma",
            "-".into(),
            "no wgmma_* entry in the embedded PTX".into(),
        )];
    }
    let mut rows: Vec<CheckRow> = cfgs
        .iter()
        .map(|c| {
            check_one(ctx, &s, c, seed)
                .unwrap_or_else(|e| CheckRow::failed(c.entry, c.describe(), e.to_string()))
        })
        .collect();
    rows.push(
        check_ws(ctx, &s, seed)
            .unwrap_or_else(|e| CheckRow::failed(WS_ENTRY, "m128n128k64 ws".into(), e.to_string())),
    );
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for e in [
            "wgmma_ss_bf16_kk_inter_n8",
            "wgmma_ss_f16_mnmn_sw128_n256",
            "wgmma_rs_bf16_kmn_sw32_n64",
        ] {
            assert!(WgmmaConfig::parse(e).is_some(), "{e}");
        }
        for e in [
            "wgmma_xs_bf16_kk_inter_n8",
            "wgmma_ss_f32_kk_inter_n8",
            "wgmma_ss_bf16_kx_inter_n8",
            "wgmma_ss_bf16_kk_inter_n12",
            "wgmma_ss_bf16_kk_inter_n264",
            "wgmma_ss_bf16_kk_inter_n8_x",
        ] {
            assert!(WgmmaConfig::parse(e).is_none(), "{e}");
        }
    }

    /// The reference: C = A·Bᵀ read back through the majors the kernels read.
    #[test]
    fn problem_stores_the_majors_the_kernels_read() {
        for (a_mn, b_mn) in [(false, false), (true, true), (false, true)] {
            let cfg = WgmmaConfig {
                entry: "t",
                rs: false,
                f16: false,
                fp8: None,
                a_mn,
                b_mn,
                swizzle: 0,
                n: 8,
            };
            let p = problem(&cfg, &mut Rng::new(1));
            let val = |h: u16| f32::from_bits(u32::from(h) << 16);
            let a = |m: usize, k: usize| val(p.a[if a_mn { m + 64 * k } else { m * 64 + k }]);
            let b = |j: usize, k: usize| val(p.b[if b_mn { j + 8 * k } else { j * 64 + k }]);
            for (m, j) in [(0, 0), (63, 7), (17, 3)] {
                let want: f32 = (0..64).map(|k| a(m, k) * b(j, k)).sum();
                assert_eq!(p.c[m + 64 * j], want);
            }
        }
    }

    /// Every configuration's boxes plan as TMA copies (CuTe's and the driver's checks) with the
    /// atom's swizzle, and the boxes the kernel issues fill exactly A's and B's tiles.
    #[test]
    fn tma_boxes_plan_and_cover_the_tiles() {
        use host::tma::{TmaSwizzle, plan_tma_copy};
        let sw = [
            TmaSwizzle::None,
            TmaSwizzle::B32,
            TmaSwizzle::B64,
            TmaSwizzle::B128,
        ];
        for a_mn in [false, true] {
            for b_mn in [false, true] {
                for swizzle in 0..4 {
                    for n in [8, 64, 128, 256] {
                        let cfg = WgmmaConfig {
                            entry: "t",
                            rs: false,
                            f16: false,
                            fp8: None,
                            a_mn,
                            b_mn,
                            swizzle,
                            n,
                        };
                        for (a, rows, mn_major) in [(true, 64, a_mn), (false, n, b_mn)] {
                            let w = 8 << swizzle;
                            if mn_major && rows < w {
                                continue; // no tile: the MN atom is wider than the operand
                            }
                            let smem = cfg.tma_box(a).parse().unwrap();
                            let p = plan_tma_copy(TmaOp::Load, &cfg.gmem(a, 0x1_0000), &smem)
                                .unwrap_or_else(|e| panic!("{cfg:?} a={a}: {e}"));
                            assert_eq!(p.swizzle, sw[swizzle as usize]);
                            let boxes = if mn_major { rows / w * 8 } else { 64 / w };
                            assert_eq!(boxes * p.tx_bytes as usize, rows * 64 * 2, "{cfg:?}");
                            let tma_order = if mn_major {
                                vec![w as u32, 8]
                            } else {
                                vec![w as u32, rows as u32]
                            };
                            assert_eq!(p.box_dim, tma_order);
                        }
                    }
                }
            }
        }
    }

    /// The 8-bit boxes plan with the byte swizzle of the `u8` atoms, cover the 128-byte rows of
    /// A and B, and the problem's bytes are the exact product's inputs.
    #[test]
    fn fp8_boxes_and_problem() {
        use host::tma::{TmaSwizzle, plan_tma_copy};
        use layout_types::cute::atom::mma::{float_e4m3_t, float_e5m2_t};
        let sw = [
            TmaSwizzle::None,
            TmaSwizzle::B32,
            TmaSwizzle::B64,
            TmaSwizzle::B128,
        ];
        for swizzle in 0..4 {
            for n in [8, 64, 256] {
                let name = format!(
                    "wgmma_ss_e4m3e5m2_kk_{}_n{n}",
                    ATOMS[swizzle].to_lowercase()
                );
                let cfg = WgmmaConfig::parse(Box::leak(name.into_boxed_str())).unwrap();
                for (a, rows) in [(true, 64), (false, n)] {
                    let smem = cfg.tma_box(a).parse().unwrap();
                    let p = plan_tma_copy(TmaOp::Load, &cfg.gmem(a, 0x1_0000), &smem)
                        .unwrap_or_else(|e| panic!("{cfg:?} a={a}: {e}"));
                    assert_eq!(p.swizzle, sw[swizzle]);
                    let w = 16 << swizzle;
                    assert_eq!(p.box_dim, vec![w as u32, rows as u32]);
                    assert_eq!((128 / w) * p.tx_bytes as usize, rows * 128, "{cfg:?}");
                }
            }
        }
        let p = problem_fp8(8, (false, true), &mut Rng::new(3));
        let a = |m: usize, k: usize| {
            float_e4m3_t((p.a[(m * 128 + k) / 2] >> (8 * (k % 2))) as u8).to_f32()
        };
        let b = |j: usize, k: usize| {
            float_e5m2_t((p.b[(j * 128 + k) / 2] >> (8 * (k % 2))) as u8).to_f32()
        };
        for (m, j) in [(0, 0), (63, 7), (17, 3)] {
            let want: f32 = (0..128).map(|k| a(m, k) * b(j, k)).sum();
            assert_eq!(p.c[m + 64 * j], want);
            assert!((want * 16.0).fract() == 0.0 && want.abs() <= 128.0);
        }
    }

    #[test]
    fn f16_round_trip() {
        for x in [0.0f32, 1.0, -2.5, 0.0625, 64.0, -63.9375] {
            assert_eq!(f16_to_f32(f16_bits_exact(x)), x);
        }
    }

    #[test]
    fn f16_and_bf16_inputs_are_exact() {
        for f16 in [false, true] {
            let cfg = WgmmaConfig {
                entry: "t",
                rs: true,
                f16,
                fp8: None,
                a_mn: false,
                b_mn: false,
                swizzle: 3,
                n: 8,
            };
            let p = problem(&cfg, &mut Rng::new(2));
            assert!(
                p.c.iter()
                    .all(|x| (x * 256.0).fract() == 0.0 && x.abs() <= 64.0)
            );
        }
    }
}
