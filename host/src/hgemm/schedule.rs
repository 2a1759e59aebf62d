//! The Hopper GEMM's kernel schedule ([`HgemmSchedule`], `host::hgemm::HgemmSchedule`), tile
//! order ([`HgemmRaster`]) and the FP8 entries' choices ([`Fp8PromotedTile`],
//! [`Fp8BlockEntry`]), in a module of their own so that `crate::overrides` can name them
//! without depending on the launch code (which depends on the context, which holds the
//! overrides).

use super::{ClusterPairs, HgemmKernel, HgemmVariant, ScaleMaps, Waves, config};
use crate::error::Error;
use layout_types::cutlass::fusion::Activation;

/// The Hopper GEMM's kernel schedule (CUTLASS's `KernelSchedule`, `collective::kernel`):
/// [`Context::hgemm`](crate::Context::hgemm) launches the schedule of
/// [`for_problem`](Self::for_problem) — the cooperative entries (128×256 tiles, both consumer
/// warpgroups on each; 128×192 where those fill the machine better), CUTLASS's 128×128
/// ping-pong for skinny K and where its tiles fill the machine better, the 64×128 ping-pong for
/// small M — unless the context's [`Overrides::hgemm_schedule`](crate::Overrides::hgemm_schedule)
/// (`CUTE_RS_HGEMM_SCHEDULE=…` in the CLI) asks for one, among them the measuring ping-pong
/// entries (64×256 tiles, one consumer warpgroup each, one's epilogue under the other's
/// `wgmma`s), which are in the PTX only when built with
/// `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`: bf16 and f16 "TN" and the fused bias + GELU (tanh);
/// another problem, or a build without them, is an [`Error::Override`] before any launch.
///
/// ```
/// use host::hgemm::HgemmSchedule;
/// assert_eq!(HgemmSchedule::pingpong_entry("hgemm_bf16_tn"), "hgemm_bf16_tn_pingpong");
/// assert_eq!(HgemmSchedule::Pingpong128.entry("hgemm_bf16_tn"), "hgemm_bf16_tn_pingpong128");
/// let e = HgemmSchedule::Pingpong.not_built("hgemm_bf16_nn_pingpong").to_string();
/// assert!(e.contains("CUTE_RS_KERNEL_FEATURES=hgemm/pingpong"), "{e}");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HgemmSchedule {
    /// `KernelTmaWarpSpecializedCooperative` (the default).
    #[default]
    Cooperative,
    /// `KernelTmaWarpSpecializedPingpong`, 64×256 tiles.
    Pingpong,
    /// `KernelTmaWarpSpecializedPingpong<_128>`, 128×128 tiles.
    Pingpong128,
    /// The cooperative kernel with 4 stages beside two epilogue chunk buffers a consumer
    /// warpgroup (`{entry}_s4`, "TN" only, built with `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`).
    Cooperative4,
    /// `KernelTmaWarpSpecializedPingpong<_64>` on the small-M FP8 entries' 64×128 tiles
    /// ([`Fp8PromotedTile::Pp64`]'s launch; `{entry}_pp64`, every majority): the launches of
    /// [`for_problem`](Self::for_problem) for small M.
    Pingpong64,
    /// The cooperative kernel on the per-tensor FP8 entry's 128×192 tiles, stages and scheduler
    /// ([`Fp8PromotedTile::N192Tma`]'s launch, the same bytes a stage in 16-bit units;
    /// `{entry}_n192`, every majority, the fused entries): the launches of
    /// [`for_problem`](Self::for_problem) where they fill the machine best.
    Cooperative192,
}

impl HgemmSchedule {
    /// The 128×128 ping-pong entries of the default build, every majority (the launches of
    /// [`for_problem`](Self::for_problem) for skinny K), in the kernel's order.
    pub const PINGPONG128_ENTRIES: [&'static str; 8] = [
        "hgemm_bf16_nn_pingpong128",
        "hgemm_bf16_nt_pingpong128",
        "hgemm_bf16_tn_pingpong128",
        "hgemm_bf16_tt_pingpong128",
        "hgemm_f16_nn_pingpong128",
        "hgemm_f16_nt_pingpong128",
        "hgemm_f16_tn_pingpong128",
        "hgemm_f16_tt_pingpong128",
    ];
    /// The 64×128 ping-pong entries of the default build, every majority (the launches of
    /// [`for_problem`](Self::for_problem) for small M), in the kernel's order.
    pub const PINGPONG64_ENTRIES: [&'static str; 8] = [
        "hgemm_bf16_nn_pp64",
        "hgemm_bf16_nt_pp64",
        "hgemm_bf16_tn_pp64",
        "hgemm_bf16_tt_pp64",
        "hgemm_f16_nn_pp64",
        "hgemm_f16_nt_pp64",
        "hgemm_f16_tn_pp64",
        "hgemm_f16_tt_pp64",
    ];
    /// The fused entries (bf16 "TN", one per activation) on the 128×128 and the 64×128 ping-pong
    /// tiles, in the kernel's order: the fused launches of [`for_problem`](Self::for_problem)'s
    /// ping-pong schedules.
    pub const FUSED_PINGPONG_ENTRIES: [&'static str; 10] = [
        "hgemm_fused_bf16_tn_identity_pingpong128",
        "hgemm_fused_bf16_tn_relu_pingpong128",
        "hgemm_fused_bf16_tn_gelu_pingpong128",
        "hgemm_fused_bf16_tn_gelu_erf_pingpong128",
        "hgemm_fused_bf16_tn_silu_pingpong128",
        "hgemm_fused_bf16_tn_identity_pp64",
        "hgemm_fused_bf16_tn_relu_pp64",
        "hgemm_fused_bf16_tn_gelu_pp64",
        "hgemm_fused_bf16_tn_gelu_erf_pp64",
        "hgemm_fused_bf16_tn_silu_pp64",
    ];
    /// The measuring ping-pong entries (built with `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`):
    /// 64×256 tiles for "TN", the fused bias + GELU on them.
    pub const MEASURING_ENTRIES: [&'static str; 3] = [
        "hgemm_bf16_tn_pingpong",
        "hgemm_f16_tn_pingpong",
        "hgemm_fused_bf16_tn_gelu_pingpong",
    ];
    /// The cooperative entries on 128×192 tiles of the default build, every majority, and the
    /// fused ones (bf16 "TN", one per activation) ([`Cooperative192`](Self::Cooperative192):
    /// the launches of [`for_problem`](Self::for_problem) where those fill the machine best),
    /// in the kernel's order.
    pub const N192_ENTRIES: [&'static str; 13] = [
        "hgemm_bf16_nn_n192",
        "hgemm_bf16_nt_n192",
        "hgemm_bf16_tn_n192",
        "hgemm_bf16_tt_n192",
        "hgemm_f16_nn_n192",
        "hgemm_f16_nt_n192",
        "hgemm_f16_tn_n192",
        "hgemm_f16_tt_n192",
        "hgemm_fused_bf16_tn_identity_n192",
        "hgemm_fused_bf16_tn_relu_n192",
        "hgemm_fused_bf16_tn_gelu_n192",
        "hgemm_fused_bf16_tn_gelu_erf_n192",
        "hgemm_fused_bf16_tn_silu_n192",
    ];
    /// The largest K of [`for_problem`](Self::for_problem)'s skinny rule (8 k-tiles of 64).
    pub const SKINNY_K_MAX: usize = 512;
    /// The schedule of problem `(m, n, k)` on `sms` SMs when no override asks for one
    /// ([`Context::hgemm_schedule`](crate::Context::hgemm_schedule)), for a plain or a fused GEMM
    /// (the fused entries exist on each schedule's tile, session 66; H100, session 67, run s67a,
    /// fused bias M + GELU / cuBLASLt against the cooperative launch: 8192×8192×512 0.98 →
    /// 1.05–1.06, 128×7168×8192 0.74–0.75 → 1.00):
    /// - with `1 ≤ K ≤` [`SKINNY_K_MAX`](Self::SKINNY_K_MAX), CUTLASS's 128×128 ping-pong — a
    ///   tile's epilogue is then a large share of its time, and one consumer warpgroup's runs
    ///   under the other's `wgmma`s (H200, session 13, ours / cuBLAS in one process:
    ///   8192×8192×512 bf16 "TN" 0.92 → 1.06 sustained, 0.96 → 1.02 burst; f16 0.94 → 1.08,
    ///   0.96 → 1.00; 4096×4096×512 0.94 → 1.02; "NN" 0.93 → 1.01; level at K = 1024,
    ///   doc/hopper-gemm.md);
    /// - for small M, where the 128×256 cluster tiles would split their k-ranges and the
    ///   64×128 ping-pong tiles fill a wave
    ///   ([`Fp8PromotedTile::pp64_replaces_split_k`]), those, each with its whole k-range
    ///   (H200, session 29, run s29a, bf16 "TN", ours / cuBLAS, two rounds: 128×7168×8192
    ///   0.73 → 0.99, 128×4096×4096 0.38–0.41 → 0.65, 128×8192×16384 0.82 → 1.00,
    ///   64×7168×8192 0.69–0.70 → 0.85, 256×4096×8192 0.88–0.89 → 1.12–1.13; at 192×7168×4096,
    ///   two waves of them, 0.67 against 0.59: not there);
    /// - else, of the cooperative 128×256 tiles, the cooperative 128×192 tiles
    ///   ([`Cooperative192`](Self::Cooperative192)) and the 128×128 ping-pong, the one whose
    ///   estimated use of the machine (the FP8 tile rules' estimate, [`Fp8FastTile::for_problem`]:
    ///   N's last tile's use × the last wave's fill) over its premium is highest — 1 for
    ///   128×256, [`N192_PREMIUM`](Self::N192_PREMIUM) for 128×192,
    ///   [`PINGPONG128_PREMIUM`](Self::PINGPONG128_PREMIUM) for the ping-pong (each premium
    ///   what the tile costs where both fill the machine); 128×256 where it fits one wave
    ///   (split-K's).
    ///
    /// ```
    /// use host::hgemm::HgemmSchedule;
    /// let s = |m, n, k| HgemmSchedule::for_problem((m, n, k), 132);
    /// assert_eq!(s(8192, 8192, 512), HgemmSchedule::Pingpong128);
    /// assert_eq!(s(8192, 8192, 1024), HgemmSchedule::Cooperative);
    /// assert_eq!(s(8192, 8192, 0), HgemmSchedule::Cooperative);
    /// assert_eq!(s(128, 7168, 8192), HgemmSchedule::Pingpong64);
    /// assert_eq!(s(192, 7168, 4096), HgemmSchedule::Cooperative);
    /// for (m, n, k) in [(3072, 3072, 3072), (4096, 2112, 7168), (6144, 2112, 4096), (2048, 7168, 4096)] {
    ///     assert_eq!(s(m, n, k), HgemmSchedule::Cooperative192, "{m}x{n}x{k}");
    /// }
    /// for (m, n, k) in [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (1152, 7168, 4096)] {
    ///     assert_eq!(s(m, n, k), HgemmSchedule::Cooperative, "{m}x{n}x{k}");
    /// }
    /// ```
    pub fn for_problem((m, n, k): (usize, usize, usize), sms: usize) -> HgemmSchedule {
        if (1..=Self::SKINNY_K_MAX).contains(&k) {
            return HgemmSchedule::Pingpong128;
        }
        if Fp8PromotedTile::pp64_replaces_split_k(m, n, k, sms) {
            return HgemmSchedule::Pingpong64;
        }
        let Some(coop) = machine_use((m, n, k), &HgemmVariant::COOPERATIVE, sms) else {
            return HgemmSchedule::Cooperative;
        };
        // each estimate over its premium; on a tie the earlier of 128×256, the ping-pong, 128×192
        let over = |v: &HgemmVariant, premium: f64| {
            machine_use((m, n, k), v, sms).map_or(0.0, |u| u / premium)
        };
        let pp128 = over(&HgemmVariant::PINGPONG_128, Self::PINGPONG128_PREMIUM);
        let n192 = over(&Fp8PromotedTile::N192Tma.variant(), Self::N192_PREMIUM);
        if n192 > coop.max(pp128) {
            HgemmSchedule::Cooperative192
        } else if pp128 > coop {
            HgemmSchedule::Pingpong128
        } else {
            HgemmSchedule::Cooperative
        }
    }
    /// The factor by which the cooperative 128×192 tiles' estimated use of the machine must
    /// exceed the others' (over their premiums) for [`for_problem`](Self::for_problem) to take
    /// them: their cost where both fill the machine (H100, session 67, run s67c, bf16 "TN", two
    /// rounds, TFLOP/s sustained · burst: 8192³, estimates 0.97 and 0.99, 736–739 · 807–811 on
    /// 128×256 against 733–740 · 788–791). Run s67c, the rule of session 67's run s67b (the
    /// cooperative 128×256 tiles or the 128×128 ping-pong) against 128×192, TFLOP/s sustained ·
    /// burst, bf16 "TN" unless named:
    ///
    /// | shape | estimates: 128×256, 128×192, 128×128 | the rule before | 128×192 |
    /// | --- | --- | --- | --- |
    /// | 4096×2112×7168 | 0.67, 0.89, 0.80 | 596–611 · 606–608 (ping-pong) | **684–706 · 720–724** |
    /// | 6144×2112×4096 | 0.75, 1.00, 0.86 | 555–641 · 632–633 | **688–720 · 757** |
    /// | 6144×2112×4096 f16 | 0.75, 1.00, 0.86 | 528–557 · 609–613 | **730–731 · 728–729** |
    /// | 8192×2112×4096 | 0.80, 0.89, 0.89 | 596–612 · 658–660 | **665–670 · 703–710** |
    /// | 3072³ | 0.73, 0.97, 0.87 | 666–670 · 641–643 (ping-pong) | **727–730 · 705–716** |
    /// | 3072³ "NN" | 0.73, 0.97, 0.87 | 663 · 635–648 (ping-pong) | **681–709 · 708–722** |
    /// | 2048×3072×4096 | 0.73, 0.97, 0.97 | 722–726 · 694–700 (ping-pong) | **749–752 · 709–733** |
    /// | 2048×7168×4096 | 0.85, 0.91, 0.97 | 636 · 701 | **679–692 · 716–721** |
    /// | 4096³ | 0.97, 0.86, 0.97 | **695–715 · 770–772** | 603–675 · 690–692 |
    /// | 8192³ | 0.97, 0.99, 0.97 | 736–739 · **807–811** | 733–740 · 788–791 |
    ///
    /// With B MN-major and fused (session 68, runs s68a–c, the same rule before against it):
    /// "TT" 6144×2112×4096 540–561 · 570–577 → **706–740 · 753–756**, "NT" 3072³ 650–665 ·
    /// 631–634 → **714–715 · 699–702**, f16 "TT" 6144×2112×4096 525 · 571 → **667 · 720**;
    /// fused bias M + GELU 3072³ 617–621 · 606–607 → **689–704 · 663–674**, 6144×2112×4096
    /// 566–584 · 602–605 → **660–699 · 729–730**.
    pub const N192_PREMIUM: f64 = 1.05;
    /// The factor by which the 128×128 ping-pong tiles' estimated use of the machine must exceed
    /// the cooperative 128×256 tiles' for [`for_problem`](Self::for_problem) to take them (and
    /// [`N192_PREMIUM`](Self::N192_PREMIUM)'s part of it the 128×192 tiles'): their cost
    /// where both fill the machine (H100, session 67, bf16 "TN", ours / cuBLAS: 4096³ 0.99 · 0.94
    /// against 1.00 · 1.01 sustained · burst, 2048³ 0.95 · 0.97 against 0.99 · 1.00). Runs s67a
    /// and s67b, the rule's launch against the cooperative one, two rounds, TFLOP/s sustained ·
    /// burst, bf16 "TN" unless named:
    ///
    /// | shape | estimates (ratio) | cooperative | 128×128 ping-pong |
    /// | --- | --- | --- | --- |
    /// | 3072³ | 0.73 → 0.87 (1.20) | 602–629 · 608–614 | **659–665 · 647–652** |
    /// | 3072³ f16 "NN" | 0.73 → 0.87 (1.20) | 593–609 · 602–606 | **642–655 · 629–634** |
    /// | 3072³ fused bias M + GELU | 0.73 → 0.87 (1.20) | 581–607 · 589–594 | **628–646 · 618–632** |
    /// | 3072×3072×4096 | 0.73 → 0.87 (1.20) | 575–613 · 602–604 | **656–668 · 658–661** |
    /// | 4096×2112×7168 | 0.67 → 0.80 (1.20) | 456–459 · 472–473 | **566–594 · 610** |
    /// | 2048×3072×4096 | 0.73 → 0.97 (1.33) | 631–636 · 599–609 | **728–729 · 708–710** |
    /// | 1024×6144×4096 | 0.73 → 0.97 (1.33) | 627 · 603–604 | **723 · 696–711** |
    /// | 2048×7168×4096 | 0.85 → 0.97 (1.14) | 660–708 · 711–713 | 685–705 · 722–724 |
    /// | 6144×2112×4096 | 0.75 → 0.86 (1.14) | 565–620 · 640–644 | 588–591 · 641–642 |
    /// | 8192×2112×4096 | 0.80 → 0.89 (1.11) | 597–618 · 665–668 | 619–626 · 660–661 |
    /// | 2048×11008×4096 | 0.87 → 0.95 (1.09) | 686–700 · 728–731 | 657–686 · 718–723 |
    /// | 5120×7168×4096 | 0.94 → 1.00 (1.06) | 693–694 · 779–780 | 690–692 · 740–744 |
    ///
    /// From a ratio of 1.20 the ping-pong tiles win by 4–30 %; at 1.14 and below they run level or
    /// lose (−5 % burst at 5120×7168×4096).
    pub const PINGPONG128_PREMIUM: f64 = 1.15;
    /// The kernel this schedule launches, as `host gemm` prints it.
    ///
    /// ```
    /// use host::hgemm::{HgemmKernel, HgemmSchedule};
    /// assert_eq!(HgemmSchedule::Cooperative.describe(), HgemmKernel.to_string());
    /// assert!(HgemmSchedule::Pingpong.describe().starts_with("hgemm 64x256x64"));
    /// assert_eq!(
    ///     HgemmSchedule::Cooperative4.describe(),
    ///     "hgemm 128x256x64 tma+wgmma 4-stage persistent (2 chunk buffers a warpgroup)"
    /// );
    /// ```
    pub fn describe(self) -> String {
        let (stages, schedule) = match self {
            HgemmSchedule::Cooperative => return HgemmKernel.to_string(),
            HgemmSchedule::Pingpong => (config::STAGES_PINGPONG, " ping-pong"),
            HgemmSchedule::Pingpong128 => (config::STAGES_PINGPONG_128, " ping-pong"),
            HgemmSchedule::Cooperative4 => (config::STAGES_S4, " (2 chunk buffers a warpgroup)"),
            HgemmSchedule::Pingpong64 => (config::STAGES_FP8_PP64, " ping-pong"),
            HgemmSchedule::Cooperative192 => (config::STAGES_FP8_N192_TMA, ""),
        };
        let (m, n, k) = self.variant().tile;
        format!("hgemm {m}x{n}x{k} tma+wgmma {stages}-stage persistent{schedule}")
    }
    /// The 64×256 ping-pong entry of the cooperative entry `entry`.
    ///
    /// ```
    /// use host::hgemm::HgemmSchedule;
    /// assert_eq!(HgemmSchedule::pingpong_entry("hgemm_bf16_tn"), "hgemm_bf16_tn_pingpong");
    /// ```
    pub fn pingpong_entry(entry: &str) -> String {
        HgemmSchedule::Pingpong.entry(entry)
    }
    /// This schedule's entry of the cooperative entry `entry`.
    ///
    /// ```
    /// use host::hgemm::HgemmSchedule;
    /// assert_eq!(HgemmSchedule::Cooperative.entry("hgemm_f16_nt"), "hgemm_f16_nt");
    /// assert_eq!(HgemmSchedule::Cooperative4.entry("hgemm_f16_tn"), "hgemm_f16_tn_s4");
    /// ```
    pub fn entry(self, entry: &str) -> String {
        match self {
            HgemmSchedule::Cooperative => entry.to_string(),
            HgemmSchedule::Pingpong => format!("{entry}_pingpong"),
            HgemmSchedule::Pingpong128 => format!("{entry}_pingpong128"),
            HgemmSchedule::Cooperative4 => format!("{entry}_s4"),
            HgemmSchedule::Pingpong64 => format!("{entry}_pp64"),
            HgemmSchedule::Cooperative192 => format!("{entry}_n192"),
        }
    }
    /// This schedule's kernel variant (tile, shared memory).
    pub(crate) fn variant(self) -> HgemmVariant {
        match self {
            HgemmSchedule::Cooperative => HgemmVariant::COOPERATIVE,
            HgemmSchedule::Pingpong => HgemmVariant::PINGPONG,
            HgemmSchedule::Pingpong128 => HgemmVariant::PINGPONG_128,
            HgemmSchedule::Cooperative4 => HgemmVariant {
                smem: config::SMEM_BYTES_S4,
                ..HgemmVariant::COOPERATIVE
            },
            HgemmSchedule::Pingpong64 => Fp8PromotedTile::Pp64.variant(),
            HgemmSchedule::Cooperative192 => Fp8PromotedTile::N192Tma.variant(),
        }
    }
    /// The refusal of this schedule, asked for by `CUTE_RS_HGEMM_SCHEDULE`, where this build has
    /// not its entry `entry`: which entries exist and how to build them (exit 2 in the CLI, before
    /// any launch).
    ///
    /// ```
    /// use host::hgemm::HgemmSchedule;
    /// let e = HgemmSchedule::Pingpong.not_built("hgemm_bf16_nn_pingpong");
    /// assert!(e.is_refusal());
    /// let e = e.to_string();
    /// assert!(e.starts_with("CUTE_RS_HGEMM_SCHEDULE=pingpong: no entry hgemm_bf16_nn_pingpong"), "{e}");
    /// assert!(e.contains("hgemm/pingpong"), "{e}");
    /// ```
    pub fn not_built(self, entry: &str) -> Error {
        Error::Override {
            name: "CUTE_RS_HGEMM_SCHEDULE",
            value: self.name().into(),
            why: format!(
                "no entry {entry} in this build (the measuring ping-pong entries, {}, and the cooperative4 ones, hgemm_{{bf16,f16}}_tn_s4, are built with CUTE_RS_KERNEL_FEATURES=hgemm/pingpong; the 128x192 ones are {})",
                Self::MEASURING_ENTRIES.join(", "),
                Self::N192_ENTRIES.join(", ")
            ),
        }
    }
}

/// The order in which a persistent grid's clusters take the cluster tiles of C (CUTLASS's
/// raster order and swizzle; the kernel's `collective::scheduler::TileOrder`).
///
/// ```
/// use host::hgemm::{HgemmPlan, HgemmRaster};
/// assert_eq!(HgemmPlan::by_size(4096, 4096, 4096).raster, HgemmRaster::Swizzle(8));
/// // the promoted per-tensor FP8 kernel's 128×128 tiles: bands of 16 (2048 columns, as 8 of 256)
/// use host::hgemm::Fp8PromotedTile;
/// let v = Fp8PromotedTile::N128Tma6.variant();
/// assert_eq!(HgemmPlan::for_variant(4096, 4096, 4096, &v, 132).raster, HgemmRaster::Swizzle(16));
/// let v = Fp8PromotedTile::N192Tma.variant();
/// assert_eq!(HgemmPlan::for_variant(8192, 8192, 8192, &v, 132).raster, HgemmRaster::Swizzle(8));
/// // the Hilbert order of 3 × 2 cluster tiles, `[M-tile, N-tile]` as the kernel reads it
/// assert_eq!(HgemmRaster::hilbert_table(3, 2), [[0, 0], [1, 0], [1, 1], [0, 1], [2, 1], [2, 0]]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HgemmRaster {
    /// CuTe's swizzled raster: bands of this many N-tiles, each walked M-row by M-row (the
    /// band's tiles of one M-tile, then the next M-tile's; bands of 1: M fastest)
    /// (`SwizzledRaster`).
    Swizzle(i32),
    /// A Hilbert curve through the tiles (fast.cu's kernel 12; `HilbertRaster`), read by the
    /// kernel from a table the context builds once per grid of tiles.
    Hilbert,
}

impl HgemmRaster {
    /// The Hilbert order of `m_tiles × n_tiles` cluster tiles as the kernel's table holds it.
    ///
    /// ```
    /// use host::hgemm::HgemmRaster;
    /// let t = HgemmRaster::hilbert_table(4, 4);
    /// // every tile once, each step to a neighbour
    /// let mut seen = t.clone();
    /// seen.sort();
    /// assert_eq!(seen, (0..4).flat_map(|m| (0..4).map(move |n| [m, n])).collect::<Vec<_>>());
    /// assert!(t.windows(2).all(|w| (w[0][0] - w[1][0]).abs() + (w[0][1] - w[1][1]).abs() == 1));
    /// ```
    pub fn hilbert_table(m_tiles: usize, n_tiles: usize) -> Vec<[i32; 2]> {
        layout_types::cutlass::tile_scheduler::HilbertRaster::new(m_tiles as i32, n_tiles as i32)
            .iter()
            .map(|(m, n)| [m, n])
            .collect()
    }
}

/// The per-tensor promoted kernel's tile: the entry a launch with per-tensor scales runs
/// ([`Fp8PromotedTile::PER_TENSOR`], 128×192 since session 12, with the TMA epilogue since
/// session 14; doc/fp8-gemm.md, "Wider tiles for the promoted kernel" and "The n192 kernel's
/// structure"), or a measuring variant by the override `CUTE_RS_FP8_PROMOTED=<name>`
/// ([`Overrides::fp8_promoted_tile`](crate::Overrides::fp8_promoted_tile); the variants are
/// built with `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`). The wide tiles: one consumer
/// warpgroup on 64 × N (`m64nNk32`, one temporary); `n192tma` stores C through the TMA
/// epilogue's shared memory (4 stages), the others directly, their stages in the shared memory
/// the TMA epilogue's buffers would take; 128×128 is the fused entries' kernel of session 11
/// (paired temporaries) as a plain entry.
///
/// ```
/// use host::gemm_fp8::PROMOTED_PER_TENSOR_ENTRY;
/// use host::hgemm::{Fp8PromotedTile, OverrideName};
/// let t = Fp8PromotedTile::from_name("n160").unwrap();
/// assert_eq!((t.entry(), t.tile()), ("gemm_fp8_e4m3_tn_promoted_n160", (128, 160, 64)));
/// assert_eq!(Fp8PromotedTile::PER_TENSOR.entry(), PROMOTED_PER_TENSOR_ENTRY);
/// assert_eq!(PROMOTED_PER_TENSOR_ENTRY, "gemm_fp8_e4m3_tn_promoted_n192tma");
/// assert_eq!(Fp8PromotedTile::PER_TENSOR.tile(), (128, 192, 64));
/// assert!(Fp8PromotedTile::from_name("n7").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8PromotedTile {
    /// 128×128 tiles, paired temporaries, 5 stages beside the TMA epilogue's buffers
    /// (`gemm_fp8_e4m3_tn_promoted_pt`, the per-tensor default until session 12).
    N128,
    /// 128×160 tiles (cuBLASLt's promoting tile at 4096×7168×16384), 6 stages of 36 KiB.
    N160,
    /// 128×160 tiles, 5 stages (cuBLASLt's count).
    N160S5,
    /// 128×160 tiles with the TMA epilogue through two 64-column buffers a consumer warpgroup
    /// (the tile's three chunks in turn, the third from column 96), 5 stages of 36 KiB
    /// (`gemm_fp8_e4m3_tn_promoted_n160tma`): cuBLASLt's promoting tile at N = 7168; per-tensor
    /// launches take it where [`for_problem`](Self::for_problem) says.
    N160Tma,
    /// 128×192 tiles, the direct epilogue, 5 stages of 40 KiB (the per-tensor default of sessions
    /// 12–13).
    N192,
    /// 128×192 tiles with consumer warpgroup 1's promotion windows shifted by half a k-tile
    /// (`GmmaFp8Accumulation`'s `OFFSET`; a measuring variant).
    N192Offset,
    /// 128×192 tiles with the TMA epilogue (C through shared memory, stored while the next
    /// tile's `wgmma`s run), 4 stages of 40 KiB (`gemm_fp8_e4m3_tn_promoted_n192tma`): the
    /// per-tensor default.
    N192Tma,
    /// 128×128 tiles, paired temporaries, the TMA epilogue through two 64-column buffers a
    /// consumer warpgroup (32 KiB), 6 stages of 32 KiB (`gemm_fp8_e4m3_tn_promoted_n128tma6`):
    /// cuBLASLt's per-tensor configuration at 4096³ on the H200; per-tensor launches take it
    /// where [`for_problem`](Self::for_problem) says.
    N128Tma6,
    /// The same with 5 stages (`gemm_fp8_e4m3_tn_promoted_n128tma5`, built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`).
    N128Tma5,
    /// [`N192Tma`](Self::N192Tma) with clusters of 2 along N, A's tile shared by TMA multicast
    /// (`gemm_fp8_e4m3_tn_promoted_n192tma_cn`, built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`): for one row of M-tiles, where clusters
    /// along M share nothing; measured +1–2 % at 128×7168×16384 (doc/fp8-gemm.md).
    N192TmaClusterN,
    /// 64×128 tiles on the ping-pong schedule (each consumer warpgroup a whole tile), paired
    /// temporaries, the TMA epilogue's two 64-column buffers a warpgroup, 8 stages of 24 KiB
    /// (`gemm_fp8_e4m3_tn_promoted_pp64`): cuBLASLt's configuration for 128-row problems on the
    /// H200, two rows of tiles with whole k-ranges where 128-row tiles need split-K.
    Pp64,
}

impl Fp8PromotedTile {
    /// The tile of per-tensor launches. H200, session 14, against 128×192 with the direct
    /// epilogue (`n192`, which beat 128×128 by 2–10 % in session 12): +10–13 % at
    /// 4096×7168×16384, +21–22 % at 8192³, +39–52 % at 4096³, +32–42 % at 4096×2112×7168.
    pub const PER_TENSOR: Fp8PromotedTile = Fp8PromotedTile::N192Tma;
    /// The fused epilogue's tile where the per-tensor tile rule's has no fused entries
    /// ([`for_fused`](Self::for_fused); session 13 moved the fused launches from 128×128 with the
    /// direct epilogue to `n192`: +10 % at 4096×7168×16384, +13–16 % at 8192³, +4–6 % at 4096³).
    pub const FUSED: Fp8PromotedTile = Fp8PromotedTile::N192Tma;
    /// The kernel entry.
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// assert_eq!(Fp8PromotedTile::N128Tma6.entry(), "gemm_fp8_e4m3_tn_promoted_n128tma6");
    /// assert_eq!(Fp8PromotedTile::PER_TENSOR.entry(), host::gemm_fp8::PROMOTED_PER_TENSOR_ENTRY);
    /// ```
    pub const fn entry(self) -> &'static str {
        match self {
            Fp8PromotedTile::N128 => "gemm_fp8_e4m3_tn_promoted_pt",
            Fp8PromotedTile::N160 => "gemm_fp8_e4m3_tn_promoted_n160",
            Fp8PromotedTile::N160S5 => "gemm_fp8_e4m3_tn_promoted_n160s5",
            Fp8PromotedTile::N160Tma => "gemm_fp8_e4m3_tn_promoted_n160tma",
            Fp8PromotedTile::N192 => "gemm_fp8_e4m3_tn_promoted_n192",
            Fp8PromotedTile::N192Offset => "gemm_fp8_e4m3_tn_promoted_n192off",
            Fp8PromotedTile::N192Tma => "gemm_fp8_e4m3_tn_promoted_n192tma",
            Fp8PromotedTile::N128Tma6 => "gemm_fp8_e4m3_tn_promoted_n128tma6",
            Fp8PromotedTile::N128Tma5 => "gemm_fp8_e4m3_tn_promoted_n128tma5",
            Fp8PromotedTile::N192TmaClusterN => "gemm_fp8_e4m3_tn_promoted_n192tma_cn",
            Fp8PromotedTile::Pp64 => "gemm_fp8_e4m3_tn_promoted_pp64",
        }
    }
    /// The fused epilogue's entry with activation `act` on this tile
    /// (`gemm_fp8_fused_e4m3_tn_<act>_n192tma` on 128×192 and `…_n128tma6` on 128×128, both with
    /// the TMA epilogue; built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`, `gemm_fp8_fused_e4m3_tn_<act>_n192` with the
    /// direct one and `gemm_fp8_fused_e4m3_tn_<act>` on 128×128); none on the 160-wide tiles or
    /// with offset promotion windows.
    ///
    /// ```
    /// use host::{Activation, hgemm::Fp8PromotedTile};
    /// let t = Fp8PromotedTile::FUSED;
    /// assert_eq!(t.fused_entry(Activation::GeluErf), Some("gemm_fp8_fused_e4m3_tn_gelu_erf_n192tma"));
    /// let n128 = Fp8PromotedTile::N128.fused_entry(Activation::Gelu);
    /// assert_eq!(n128, Some("gemm_fp8_fused_e4m3_tn_gelu"));
    /// assert_eq!(Fp8PromotedTile::N160.fused_entry(Activation::Relu), None);
    /// let n128tma6 = Fp8PromotedTile::N128Tma6.fused_entry(Activation::Silu);
    /// assert_eq!(n128tma6, Some("gemm_fp8_fused_e4m3_tn_silu_n128tma6"));
    /// ```
    pub const fn fused_entry(self, act: Activation) -> Option<&'static str> {
        use Activation::*;
        Some(match (self, act) {
            (Fp8PromotedTile::N128, Identity) => "gemm_fp8_fused_e4m3_tn_identity",
            (Fp8PromotedTile::N128, Relu) => "gemm_fp8_fused_e4m3_tn_relu",
            (Fp8PromotedTile::N128, Gelu) => "gemm_fp8_fused_e4m3_tn_gelu",
            (Fp8PromotedTile::N128, GeluErf) => "gemm_fp8_fused_e4m3_tn_gelu_erf",
            (Fp8PromotedTile::N128, Silu) => "gemm_fp8_fused_e4m3_tn_silu",
            (Fp8PromotedTile::N192, Identity) => "gemm_fp8_fused_e4m3_tn_identity_n192",
            (Fp8PromotedTile::N192, Relu) => "gemm_fp8_fused_e4m3_tn_relu_n192",
            (Fp8PromotedTile::N192, Gelu) => "gemm_fp8_fused_e4m3_tn_gelu_n192",
            (Fp8PromotedTile::N192, GeluErf) => "gemm_fp8_fused_e4m3_tn_gelu_erf_n192",
            (Fp8PromotedTile::N192, Silu) => "gemm_fp8_fused_e4m3_tn_silu_n192",
            (Fp8PromotedTile::N192Tma, Identity) => "gemm_fp8_fused_e4m3_tn_identity_n192tma",
            (Fp8PromotedTile::N192Tma, Relu) => "gemm_fp8_fused_e4m3_tn_relu_n192tma",
            (Fp8PromotedTile::N192Tma, Gelu) => "gemm_fp8_fused_e4m3_tn_gelu_n192tma",
            (Fp8PromotedTile::N192Tma, GeluErf) => "gemm_fp8_fused_e4m3_tn_gelu_erf_n192tma",
            (Fp8PromotedTile::N192Tma, Silu) => "gemm_fp8_fused_e4m3_tn_silu_n192tma",
            (Fp8PromotedTile::N128Tma6, Identity) => "gemm_fp8_fused_e4m3_tn_identity_n128tma6",
            (Fp8PromotedTile::N128Tma6, Relu) => "gemm_fp8_fused_e4m3_tn_relu_n128tma6",
            (Fp8PromotedTile::N128Tma6, Gelu) => "gemm_fp8_fused_e4m3_tn_gelu_n128tma6",
            (Fp8PromotedTile::N128Tma6, GeluErf) => "gemm_fp8_fused_e4m3_tn_gelu_erf_n128tma6",
            (Fp8PromotedTile::N128Tma6, Silu) => "gemm_fp8_fused_e4m3_tn_silu_n128tma6",
            (Fp8PromotedTile::Pp64, Identity) => "gemm_fp8_fused_e4m3_tn_identity_pp64",
            (Fp8PromotedTile::Pp64, Relu) => "gemm_fp8_fused_e4m3_tn_relu_pp64",
            (Fp8PromotedTile::Pp64, Gelu) => "gemm_fp8_fused_e4m3_tn_gelu_pp64",
            (Fp8PromotedTile::Pp64, GeluErf) => "gemm_fp8_fused_e4m3_tn_gelu_erf_pp64",
            (Fp8PromotedTile::Pp64, Silu) => "gemm_fp8_fused_e4m3_tn_silu_pp64",
            (
                Fp8PromotedTile::N160
                | Fp8PromotedTile::N160S5
                | Fp8PromotedTile::N160Tma
                | Fp8PromotedTile::N192Offset
                | Fp8PromotedTile::N128Tma5
                | Fp8PromotedTile::N192TmaClusterN,
                _,
            ) => {
                return None;
            }
        })
    }
    /// The CTA tile (M, N, K in 16-bit units), the kernel's configuration.
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// // 128 × 192, and K in 16-bit units: 64 of them hold a k-tile of 128 FP8 elements
    /// assert_eq!(Fp8PromotedTile::N192Tma.tile(), (128, 192, 64));
    /// assert_eq!(Fp8PromotedTile::Pp64.tile(), (64, 128, 64));
    /// ```
    pub fn tile(self) -> (usize, usize, usize) {
        self.variant().tile
    }
    /// The tile of the fused epilogue's launches with activation `act`
    /// ([`Context::gemm_fp8_fused`](crate::Context::gemm_fp8_fused); the override
    /// `CUTE_RS_FP8_PROMOTED=<name>` picks another where it has fused entries): the per-tensor
    /// tile ([`for_problem`](Self::for_problem)) where it has the fused entry, else
    /// [`FUSED`](Self::FUSED). Session 66 (H100): the fused
    /// launches on 128×192 ran 0.92 of `torch._scaled_mm`'s row-wise kernel at 4096³, where the
    /// per-tensor rule picks 128×128.
    ///
    /// ```
    /// use host::{Activation, hgemm::Fp8PromotedTile};
    /// let t = |m, n, k| Fp8PromotedTile::for_fused(m, n, k, 132, Activation::Gelu);
    /// assert_eq!(t(4096, 4096, 2048), Fp8PromotedTile::N128Tma6);
    /// assert_eq!(t(8192, 8192, 4096), Fp8PromotedTile::N192Tma);
    /// assert_eq!(t(128, 7168, 8192), Fp8PromotedTile::Pp64);
    /// // where the per-tensor rule takes 128×160 (no fused entries), the rule between the others
    /// assert_eq!(Fp8PromotedTile::for_problem(4096, 7168, 8192, 132), Fp8PromotedTile::N160Tma);
    /// assert_eq!(t(4096, 7168, 8192), Fp8PromotedTile::N128Tma6);
    /// ```
    pub fn for_fused(m: usize, n: usize, k: usize, sms: usize, act: Activation) -> Fp8PromotedTile {
        // the 128×160 tile has no fused entries: the rule between the others
        let t = Fp8PromotedTile::choose(m, n, k, sms, false);
        if t.fused_entry(act).is_some() {
            t
        } else {
            Fp8PromotedTile::FUSED
        }
    }
    /// The per-tensor tile of problem `(m, n, k)` (the launch's 16-bit units: FP8 K halved) on a
    /// device of `sms` SMs: 128×128 ([`N128Tma6`](Self::N128Tma6)) where its estimated use of the
    /// machine is above 128×192's ([`PER_TENSOR`](Self::PER_TENSOR)), else 128×192. The
    /// estimate: the fraction of the last N-tile inside C times the fraction of the last
    /// round of cluster tiles over the resident clusters that has work (the stream-K tail not
    /// counted: it costs its fixup), for problems with more cluster tiles than clusters under
    /// both tiles (else split-K's, below). No premium either way since sessions 60–61: forced
    /// against each other, 128×192 led at 8192³ (H200 +1.5 % sustained, +4 % burst, run s60a;
    /// H100 +10 %, run s61a) and at the tie 6144³ (estimates 0.970 both; H100 +13 %, run s61a),
    /// ran level at 4096×7168×16384 (0.904 against 0.970) and behind at 4096³ (0.862 against
    /// 0.970; H100 −9 % sustained, run s61b) (doc/fp8-gemm.md, "The per-tensor tile at 8192³"
    /// and "The per-tensor tile on an H100"). Session 21's measurements, before sessions 22–58
    /// changed both kernels (H200, both forced, three rounds, 128×128 against 128×192): 8192³
    /// +2 % and +6 %, 6144³ +2–4 %, 8192×8192×16384 +4–5 %, 8192×4096×8192 +6–7 %,
    /// 4096×7168×16384 +5–8 %, 2048×7168×8192
    /// +13–21 %; 128×192 where it fills the machine better: 4096×2112×7168 (estimates 0.89
    /// against 0.80) +4–5 % in two rounds of three, 3072³ (0.97 against 0.87) +9 %,
    /// 3072×3072×8192 +1–12 % (doc/fp8-gemm.md, "The tile rule again"). Before it 128×192 led
    /// by 5 % per k-tile and took the shapes of equal use (the rule then: 128×128 only where
    /// its use was 5 % above; sessions 15–16, "The per-tensor tile by shape"). Where neither
    /// tile has more cluster tiles than clusters (split-K's small M), 128×128 from 65 rows:
    /// H200, session 20, split-K by whole tiles, 128×128 against 128×192
    /// +7 % at 128×7168×16384, +15 % at 128×7168×4096, +20 % at 128×4096×8192, level at
    /// 128×2112×7168, −12 % at 64×7168×16384; at 256×7168×16384 (data-parallel on 56 clusters)
    /// +8 % against 128×192 split over all 66 (doc/fp8-gemm.md, "Small M again").
    /// Among those, 64×128 on the ping-pong schedule ([`Pp64`](Self::Pp64): whole k-ranges, no
    /// split) where its tiles fill one wave of the device's CTAs at least a quarter full: H200,
    /// session 25, ours / cuBLASLt in the same process, two rounds, against the split 128×128 or
    /// 128×192: 128×7168×16384 0.87–0.88 → 1.02, 128×7168×4096 0.68–0.70 → 0.86, 256×4096×8192
    /// 0.92–0.93 → 1.03, 64×7168×16384 0.73 → 0.83, 128×4096×8192 0.59 → 0.64, 128×2112×7168
    /// (34 tiles) 0.53–0.54 → 0.63–0.66, 200×2112×7168 level; two waves lose (256×7168×16384,
    /// 224 tiles: 0.96 → 0.76), so those keep 128×128 (doc/fp8-gemm.md, "Small M on 64-row
    /// tiles").
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// let t = |m, n, k| Fp8PromotedTile::for_problem(m, n, k, 132);
    /// assert_eq!(t(4096, 4096, 2048), Fp8PromotedTile::N128Tma6);
    /// assert_eq!(t(8192, 8192, 4096), Fp8PromotedTile::N192Tma); // 0.985 against 0.970
    /// assert_eq!(t(6144, 6144, 3072), Fp8PromotedTile::N192Tma); // a tie: 0.970 both
    /// assert_eq!(t(4096, 7168, 8192), Fp8PromotedTile::N160Tma); // 128×160's 0.987 (below)
    /// assert_eq!(t(16384, 16384, 8192), Fp8PromotedTile::N128Tma6); // 0.985 against 0.993
    /// assert_eq!(t(4096, 2112, 3584), Fp8PromotedTile::N192Tma);
    /// assert_eq!(t(3072, 3072, 1536), Fp8PromotedTile::N192Tma);
    /// assert_eq!(t(128, 7168, 8192), Fp8PromotedTile::Pp64); // 112 tiles of 64×128
    /// assert_eq!(t(256, 4096, 4096), Fp8PromotedTile::Pp64); // 128
    /// assert_eq!(t(64, 7168, 8192), Fp8PromotedTile::Pp64); // 56
    /// assert_eq!(t(256, 7168, 8192), Fp8PromotedTile::N128Tma6); // 224: split-K on 128×128
    /// assert_eq!(t(128, 2048, 8192), Fp8PromotedTile::N128Tma6); // 32: split-K
    /// assert_eq!(t(64, 1024, 8192), Fp8PromotedTile::N192Tma); // 8: split-K, 64 rows
    /// // three and nine M-tiles: no clusters (`HgemmPlan::pairs`)
    /// assert_eq!(t(384, 7168, 8192), Fp8PromotedTile::N192Tma); // 114 tiles: one wave
    /// assert_eq!(t(1152, 7168, 4096), Fp8PromotedTile::N128Tma6); // 504 against 342
    /// ```
    ///
    /// 128×160 ([`N160Tma`](Self::N160Tma)) where its estimate is [`N160_MARGIN`](Self::N160_MARGIN)
    /// above both others': H100, session 69 (run s69e, two rounds, sustained · burst TFLOP/s),
    /// 4096×7168×16384 (estimates 0.987 against 0.970 and 0.904) 1,312–1,313 · 1,462 against
    /// 128×128's 1,256–1,265 · 1,412–1,415 (0.93–0.95 · 0.93–0.94 of cuBLASLt → 0.96 · 0.97) and
    /// 128×192's 1,240–1,259 · 1,387–1,388; 4096×7168×8192 1,298 · 1,410–1,412 against
    /// 1,241–1,246 · 1,377–1,384 and 1,281–1,297 · 1,406–1,409. Per k-tile it does less than
    /// 128×192 (the 160-wide direct entries ran −7 % at 8192³, where both fill the machine:
    /// run s69d), so equal estimates keep the others.
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// let t = |m, n, k| Fp8PromotedTile::for_problem(m, n, k, 132);
    /// assert_eq!(t(4096, 7168, 8192), Fp8PromotedTile::N160Tma); // 0.987 against 0.970
    /// assert_eq!(t(2048, 7168, 8192), Fp8PromotedTile::N128Tma6); // 6 rounds of 5.45: 0.905
    /// assert_eq!(t(8192, 8192, 4096), Fp8PromotedTile::N192Tma);
    /// assert_eq!(t(4096, 4096, 2048), Fp8PromotedTile::N128Tma6);
    /// assert_eq!(t(16384, 16384, 8192), Fp8PromotedTile::N128Tma6);
    /// ```
    pub fn for_problem(m: usize, n: usize, k: usize, sms: usize) -> Fp8PromotedTile {
        Fp8PromotedTile::choose(m, n, k, sms, true)
    }
    /// How much 128×160's estimated use of the machine must exceed the other tiles' for
    /// [`for_problem`](Self::for_problem) to take it.
    pub const N160_MARGIN: f64 = 0.01;
    /// [`for_problem`](Self::for_problem), with or without the 128×160 tile.
    fn choose(m: usize, n: usize, k: usize, sms: usize, n160: bool) -> Fp8PromotedTile {
        let use_of = |t: Fp8PromotedTile| machine_use((m, n, k), &t.variant(), sms);
        match (
            use_of(Fp8PromotedTile::PER_TENSOR),
            use_of(Fp8PromotedTile::N128Tma6),
        ) {
            (Some(wide), Some(n128))
                if n160
                    && use_of(Fp8PromotedTile::N160Tma)
                        .is_some_and(|u| u > wide.max(n128) + Self::N160_MARGIN) =>
            {
                Fp8PromotedTile::N160Tma
            }
            (Some(wide), Some(n128)) if n128 > wide => Fp8PromotedTile::N128Tma6,
            // split-K's problems whose 64×128 tiles fill one wave at least a quarter full: those
            // tiles, each with its whole k-range
            (None, None) if Fp8PromotedTile::pp64_fills_a_wave(m, n, k, sms) => {
                Fp8PromotedTile::Pp64
            }
            // split-K's problems (no more cluster tiles than clusters under either tile): 128×128's 6
            // stages of 32 KiB keep more bytes in flight per SM than 4 of 40 KiB, but not below
            // 65 rows (its tile then half empty against 128×192's 3 pieces a tile)
            (None, None) if m > 64 => Fp8PromotedTile::N128Tma6,
            _ => Fp8PromotedTile::PER_TENSOR,
        }
    }
    /// Whether problem `(m, n, k)`'s 64×128 tiles ([`Pp64`](Self::Pp64), with its clusters of
    /// [`HgemmPlan::for_variant`](super::HgemmPlan::for_variant)) fill one wave of `sms` SMs at least a quarter full: where
    /// the small-M tile replaces a split over k-ranges ([`for_problem`](Self::for_problem), and
    /// fast accumulation's 128×256 split-K, `Context::gemm_fp8`).
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// assert!(Fp8PromotedTile::pp64_fills_a_wave(128, 7168, 8192, 132)); // 2 × 56 tiles
    /// assert!(!Fp8PromotedTile::pp64_fills_a_wave(256, 7168, 8192, 132)); // 4 × 56: two waves
    /// assert!(!Fp8PromotedTile::pp64_fills_a_wave(64, 1024, 8192, 132)); // 8
    /// ```
    pub fn pp64_fills_a_wave(m: usize, n: usize, k: usize, sms: usize) -> bool {
        let w = Waves::of((m, n, k), &Fp8PromotedTile::Pp64.variant(), sms);
        4 * w.tiles * w.cluster >= sms && w.one()
    }
    /// Whether the cooperative 128×256 kernel's problem `(m, n, k)` (16-bit units of K) runs
    /// on the small-M tile instead: where its 128×256 cluster tiles fit one wave (so they would
    /// split their k-ranges) and [`pp64_fills_a_wave`](Self::pp64_fills_a_wave). Fast
    /// accumulation's `gemm_fp8_{e4m3,e5m2}_tn_fast_pp64` and the 16-bit
    /// [`HgemmSchedule::Pingpong64`].
    ///
    /// ```
    /// use host::hgemm::Fp8PromotedTile;
    /// assert!(Fp8PromotedTile::pp64_replaces_split_k(128, 7168, 8192, 132));
    /// assert!(!Fp8PromotedTile::pp64_replaces_split_k(4096, 4096, 2048, 132));
    /// assert!(!Fp8PromotedTile::pp64_replaces_split_k(192, 7168, 4096, 132)); // 3 × 56 tiles
    /// ```
    pub fn pp64_replaces_split_k(m: usize, n: usize, k: usize, sms: usize) -> bool {
        Waves::of((m, n, k), &HgemmVariant::FP8_FAST, sms).one()
            && Fp8PromotedTile::pp64_fills_a_wave(m, n, k, sms)
    }
    /// The launch: the per-tensor entries' (split-K for small M, the direct epilogue, but
    /// `n192tma`'s TMA epilogue) with the tile's shared memory.
    ///
    /// ```
    /// use host::hgemm::{Fp8PromotedTile, HgemmPlan};
    /// // the launch's tile, as the plan counts cluster tiles (clusters of 2 along M)
    /// let plan = HgemmPlan::by_size(4096, 7168, 8192);
    /// assert_eq!(plan.tiles((4096, 7168), &Fp8PromotedTile::N192Tma.variant()), 16 * 38);
    /// ```
    pub fn variant(self) -> HgemmVariant {
        let (tile, smem) = match self {
            Fp8PromotedTile::N128 => return HgemmVariant::FP8_PROMOTED_PER_TENSOR,
            Fp8PromotedTile::N160 => (config::TILE_FP8_N160, config::SMEM_BYTES_FP8_N160),
            Fp8PromotedTile::N160S5 => (config::TILE_FP8_N160, config::SMEM_BYTES_FP8_N160_S5),
            Fp8PromotedTile::N160Tma => (config::TILE_FP8_N160, config::SMEM_BYTES_FP8_N160_TMA),
            Fp8PromotedTile::N192 | Fp8PromotedTile::N192Offset => {
                (config::TILE_FP8_N192, config::SMEM_BYTES_FP8_N192)
            }
            Fp8PromotedTile::N192Tma => (config::TILE_FP8_N192, config::SMEM_BYTES_FP8_N192_TMA),
            Fp8PromotedTile::N192TmaClusterN => {
                return HgemmVariant {
                    cluster: config::CLUSTER_FP8_CN,
                    ..Fp8PromotedTile::N192Tma.variant()
                };
            }
            Fp8PromotedTile::N128Tma6 => (config::TILE_FP8, config::SMEM_BYTES_FP8_N128_TMA6),
            Fp8PromotedTile::N128Tma5 => (config::TILE_FP8, config::SMEM_BYTES_FP8_N128_TMA5),
            Fp8PromotedTile::Pp64 => {
                return HgemmVariant {
                    tile: config::TILE_FP8_PP64,
                    smem: config::SMEM_BYTES_FP8_PP64,
                    tma_epilogue: true,
                    scheduler: config::SCHEDULER_PINGPONG,
                    cluster_pairs: ClusterPairs::Always,
                    ..HgemmVariant::FP8_PROMOTED_PER_TENSOR
                };
            }
        };
        HgemmVariant {
            tile,
            smem,
            tma_epilogue: matches!(
                self,
                Fp8PromotedTile::N192Tma
                    | Fp8PromotedTile::N160Tma
                    | Fp8PromotedTile::N128Tma6
                    | Fp8PromotedTile::N128Tma5
            ),
            // the 128×128 TMA tiles in bands of 2048 columns, as the 16-bit kernel's 256-wide
            // ones (doc/fp8-gemm.md, session 62)
            band: match self {
                Fp8PromotedTile::N128Tma6 | Fp8PromotedTile::N128Tma5 => config::SWIZZLE_FP8_N128,
                _ => config::SWIZZLE,
            },
            ..HgemmVariant::FP8_PROMOTED_PER_TENSOR
        }
    }
}

/// A launch choice a `CUTE_RS_*` override names ([`HgemmSchedule`]: `CUTE_RS_HGEMM_SCHEDULE`,
/// [`Fp8PromotedTile`]: `CUTE_RS_FP8_PROMOTED`, [`Fp8FastTile`]: `CUTE_RS_FP8_FAST`,
/// [`Fp8BlockEntry`]: `CUTE_RS_FP8_BLOCK`): its table of override names, read both ways.
///
/// ```
/// use host::hgemm::{Fp8BlockEntry, Fp8FastTile, Fp8PromotedTile, HgemmSchedule, OverrideName};
/// assert_eq!(HgemmSchedule::from_name("cooperative192"), Some(HgemmSchedule::Cooperative192));
/// assert_eq!(HgemmSchedule::from_name("pingpong256"), None);
/// assert_eq!(HgemmSchedule::Pingpong128.name(), "pingpong128");
/// assert_eq!(Fp8PromotedTile::from_name("n128tma6"), Some(Fp8PromotedTile::N128Tma6));
/// assert_eq!(Fp8FastTile::from_name("n192tma"), Some(Fp8FastTile::N192Tma));
/// assert_eq!(Fp8BlockEntry::from_name("stagedpp64"), Some(Fp8BlockEntry::StagedPp64));
/// assert_eq!(Fp8BlockEntry::from_name("staged_pp64"), None); // override names, not entries
/// ```
pub trait OverrideName: Copy + PartialEq + 'static {
    /// Every value, with its override name (in the order a refusal lists them).
    const NAMES: &'static [(&'static str, Self)];
    /// The value of override name `name`.
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }
    /// This value's override name.
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }
}

impl OverrideName for HgemmSchedule {
    /// Every schedule (`CUTE_RS_HGEMM_SCHEDULE=<name>`).
    const NAMES: &'static [(&'static str, HgemmSchedule)] = &[
        ("cooperative", HgemmSchedule::Cooperative),
        ("pingpong", HgemmSchedule::Pingpong),
        ("pingpong128", HgemmSchedule::Pingpong128),
        ("cooperative4", HgemmSchedule::Cooperative4),
        ("pingpong64", HgemmSchedule::Pingpong64),
        ("cooperative192", HgemmSchedule::Cooperative192),
    ];
}

impl OverrideName for Fp8PromotedTile {
    /// Every tile (`CUTE_RS_FP8_PROMOTED=<name>`).
    const NAMES: &'static [(&'static str, Fp8PromotedTile)] = &[
        ("n128", Fp8PromotedTile::N128),
        ("n160", Fp8PromotedTile::N160),
        ("n160s5", Fp8PromotedTile::N160S5),
        ("n160tma", Fp8PromotedTile::N160Tma),
        ("n192", Fp8PromotedTile::N192),
        ("n192off", Fp8PromotedTile::N192Offset),
        ("n192tma", Fp8PromotedTile::N192Tma),
        ("n128tma6", Fp8PromotedTile::N128Tma6),
        ("n128tma5", Fp8PromotedTile::N128Tma5),
        ("n192tmacn", Fp8PromotedTile::N192TmaClusterN),
        ("pp64", Fp8PromotedTile::Pp64),
    ];
}

impl OverrideName for Fp8FastTile {
    /// Every tile (`CUTE_RS_FP8_FAST=<name>`).
    const NAMES: &'static [(&'static str, Fp8FastTile)] = &[
        ("n256", Fp8FastTile::N256),
        ("n192tma", Fp8FastTile::N192Tma),
        ("tile128", Fp8FastTile::N128),
    ];
}

impl OverrideName for Fp8BlockEntry {
    /// Every entry (`CUTE_RS_FP8_BLOCK=<name>`).
    const NAMES: &'static [(&'static str, Fp8BlockEntry)] = &[
        ("global", Fp8BlockEntry::Global),
        ("staged", Fp8BlockEntry::Staged),
        ("staged5", Fp8BlockEntry::Staged5),
        ("stagedtma", Fp8BlockEntry::StagedTma),
        ("stagedtma5", Fp8BlockEntry::StagedTma5),
        ("stagedtma5sk", Fp8BlockEntry::StagedTma5StreamK),
        ("stagedtma5tail", Fp8BlockEntry::StagedTma5Tail),
        ("stagedonetma5sk", Fp8BlockEntry::StagedOneTma5StreamK),
        ("stagedn192tma", Fp8BlockEntry::StagedN192Tma),
        ("stagedn192tmatail", Fp8BlockEntry::StagedN192TmaTail),
        ("pp64", Fp8BlockEntry::Pp64),
        ("stagedpp64", Fp8BlockEntry::StagedPp64),
        ("stagedpp64x4", Fp8BlockEntry::StagedPp64x4),
    ];
}

/// The estimated use of the machine by launch `v` of problem `(m, n, k)` (16-bit units of K) on
/// `sms` SMs, where its cluster tiles take more than one wave (else `None`: split-K's problems):
/// the fraction of the last N-tile inside C times the fraction of the last round of cluster tiles
/// over the resident clusters that has work (the FP8 tile rules' estimate,
/// [`Fp8PromotedTile::for_problem`], [`Fp8FastTile::for_problem`]).
fn machine_use((m, n, k): (usize, usize, usize), v: &HgemmVariant, sms: usize) -> Option<f64> {
    let w = Waves::of((m, n, k), v, sms);
    if w.one() {
        return None;
    }
    let bn = v.tile.1;
    let n_use = n as f64 / (n.div_ceil(bn) * bn) as f64;
    Some(n_use * w.fill())
}

/// The tile of the fast-accumulation FP8 launches ([`Context::gemm_fp8`](crate::Context::gemm_fp8)
/// with [`GemmFp8Config::fast_accum`](crate::gemm_fp8::GemmFp8Config::fast_accum); small M takes the
/// 64×128 ping-pong tiles before this rule, [`Fp8PromotedTile::pp64_replaces_split_k`]); the
/// override `CUTE_RS_FP8_FAST=n256|n192tma|tile128` picks one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8FastTile {
    /// The 16-bit kernel's cooperative 128×256 tiles, `m64n256k32` (`gemm_fp8_{e4m3,e5m2}_tn`,
    /// [`HgemmVariant::FP8_FAST`]).
    N256,
    /// The per-tensor promoted kernel's 128×192 tiles with the TMA epilogue, accumulating in the
    /// tensor cores (`gemm_fp8_{e4m3,e5m2}_tn_fast192tma`, [`Fp8PromotedTile::N192Tma`]'s launch).
    N192Tma,
    /// e4m3 on the promoted entry's old 128×128 tiles (`gemm_fp8_e4m3_tn_fast128`, built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`; measuring).
    N128,
}

impl Fp8FastTile {
    /// The tile of problem `(m, n, k)` (the launch's 16-bit units: FP8 K halved) on `sms` SMs:
    /// 128×192 where its estimated use of the machine is more than 5 % above 128×256's, else
    /// 128×256 (the per-tensor rule's estimate, [`Fp8PromotedTile::for_problem`]; the premium is
    /// 128×192's cost per k-tile: session 14 measured it 0.93–0.98 of cuBLASLt where 128×256 ran
    /// 0.96–1.02, its 4 `wgmma`s' bookkeeping for 3/4 of the work). At 4096×2112×7168 the
    /// estimate of 128×256 is 0.67 (9 N-tiles, the last a quarter used; 2.2 waves), and it ran
    /// 0.88–0.89 of cuBLASLt on the H100 (runs s60a, s63a); 128×192's is 0.89 (11 N-tiles, 2.7
    /// waves).
    ///
    /// ```
    /// use host::hgemm::Fp8FastTile;
    /// let t = |m, n, k| Fp8FastTile::for_problem(m, n, k, 132);
    /// assert_eq!(t(4096, 2112, 3584), Fp8FastTile::N192Tma);
    /// assert_eq!(t(4096, 4096, 2048), Fp8FastTile::N256);
    /// assert_eq!(t(8192, 8192, 4096), Fp8FastTile::N256);
    /// assert_eq!(t(4096, 7168, 8192), Fp8FastTile::N256);
    /// assert_eq!(t(128, 7168, 8192), Fp8FastTile::N256); // one wave: split-K's
    /// ```
    pub fn for_problem(m: usize, n: usize, k: usize, sms: usize) -> Fp8FastTile {
        let v192 = Fp8FastTile::N192Tma.variant();
        match (
            machine_use((m, n, k), &HgemmVariant::FP8_FAST, sms),
            machine_use((m, n, k), &v192, sms),
        ) {
            (Some(wide), Some(n192)) if n192 > 1.05 * wide => Fp8FastTile::N192Tma,
            _ => Fp8FastTile::N256,
        }
    }
    /// The kernel entry for `e5m2` operands (else e4m3), if built for them.
    ///
    /// ```
    /// use host::hgemm::Fp8FastTile;
    /// assert_eq!(Fp8FastTile::N192Tma.entry(true), Some("gemm_fp8_e5m2_tn_fast192tma"));
    /// assert_eq!(Fp8FastTile::N256.entry(false), Some("gemm_fp8_e4m3_tn"));
    /// assert_eq!(Fp8FastTile::N128.entry(true), None);
    /// ```
    pub const fn entry(self, e5m2: bool) -> Option<&'static str> {
        Some(match (self, e5m2) {
            (Fp8FastTile::N256, false) => "gemm_fp8_e4m3_tn",
            (Fp8FastTile::N256, true) => "gemm_fp8_e5m2_tn",
            (Fp8FastTile::N192Tma, false) => "gemm_fp8_e4m3_tn_fast192tma",
            (Fp8FastTile::N192Tma, true) => "gemm_fp8_e5m2_tn_fast192tma",
            (Fp8FastTile::N128, false) => "gemm_fp8_e4m3_tn_fast128",
            (Fp8FastTile::N128, true) => return None,
        })
    }
    /// The launch: the tile, shared memory and scheduler of the entry's kernel.
    ///
    /// ```
    /// use host::hgemm::{Fp8FastTile, Fp8PromotedTile, HgemmVariant};
    /// assert_eq!(Fp8FastTile::N192Tma.variant(), Fp8PromotedTile::N192Tma.variant());
    /// assert_eq!(Fp8FastTile::N256.variant(), HgemmVariant::FP8_FAST);
    /// ```
    pub fn variant(self) -> HgemmVariant {
        match self {
            Fp8FastTile::N256 => HgemmVariant::FP8_FAST,
            Fp8FastTile::N192Tma => Fp8PromotedTile::N192Tma.variant(),
            Fp8FastTile::N128 => HgemmVariant::fp8_promoted((0, 0)),
        }
    }
}

/// A block-scaled GEMM as two launches over D's column blocks
/// ([`Fp8BlockEntry::split_at`]): the first [`n1`](Self::n1) columns on
/// [`Fp8BlockEntry::BLOCK`], the rest on [`rest`](Self::rest) with its B scales at
/// [`rest_scales`](Self::rest_scales) (D is column-major, so the rest's B rows, B scale blocks
/// and D columns start `n1` further on; A and A's scales are shared).
///
/// ```
/// use host::hgemm::Fp8BlockEntry;
/// let s = Fp8BlockEntry::split_n(4096, 7168, 8192, 132, (0x1000, 0x2000)).unwrap();
/// assert_eq!((s.n1, s.rest), (6912, Fp8BlockEntry::StagedOneTma5StreamK));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockSplit {
    /// The columns of the first launch (a multiple of 128).
    pub n1: usize,
    /// The entry of the other columns.
    pub rest: Fp8BlockEntry,
    /// The block scales' device addresses for the other columns: A's, and B's from the N-block
    /// of column `n1` on.
    pub rest_scales: (u64, u64),
}

/// The entry of block-scaled launches ([`Fp8Scales::Block`](crate::gemm_fp8::Fp8Scales::Block)):
/// `gemm_fp8_e4m3_tn_promoted_staged_n192tma` ([`Fp8BlockEntry::BLOCK`]), which brings each
/// stage's scales into shared memory by TMA with the stage's A and B tiles (DeepGEMM's schedule;
/// doc/fp8-gemm.md, "Block scales through shared memory") on the per-tensor default's 128×192
/// tiles, each 64-column chunk scaled by its own 128-column N-block ("Block scales on the 128 ×
/// 192 tile"), and stores C through the TMA epilogue, where it [`takes`](Fp8BlockEntry::takes)
/// them (M a multiple of 4) — for middle M, where those tiles leave their waves part-empty, the
/// same on 128×128 tiles with the per-tensor entries' split-K / stream-K scheduler
/// ([`StagedOneTma5StreamK`](Fp8BlockEntry::StagedOneTma5StreamK)), for small M the 64×128
/// ping-pong ones ([`Fp8BlockEntry::for_problem`]) —, else the
/// block entry `gemm_fp8_e4m3_tn_promoted`, whose consumers load their rows' scales from global
/// memory in the k-tile loop (a 2-deep queue); the override `CUTE_RS_FP8_BLOCK=<name>`
/// ([`Overrides::fp8_block_entry`](crate::Overrides::fp8_block_entry)) picks one for measuring
/// (all but `global`, `stagedn192tma`, `stagedonetma5sk`, `pp64` and `stagedpp64` built with
/// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`).
///
/// ```
/// use host::hgemm::{Fp8BlockEntry, OverrideName};
/// let s = Fp8BlockEntry::from_name("staged").unwrap();
/// assert_eq!(s.entry(), "gemm_fp8_e4m3_tn_promoted_staged");
/// assert_eq!(Fp8BlockEntry::BLOCK.entry(), "gemm_fp8_e4m3_tn_promoted_staged_n192tma");
/// let t = Fp8BlockEntry::from_name("stagedtma5").unwrap();
/// assert_eq!(t.entry(), "gemm_fp8_e4m3_tn_promoted_staged_tma5");
/// assert_eq!(Fp8BlockEntry::from_name("global").unwrap().entry(), "gemm_fp8_e4m3_tn_promoted");
/// assert!(Fp8BlockEntry::from_name("n7").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8BlockEntry {
    /// The block entry: scales from global memory in the k-tile loop, 5 stages.
    Global,
    /// Scales through shared memory with each stage, 6 stages, the direct epilogue without
    /// shared memory (the default of sessions 12–13).
    Staged,
    /// The same with 5 stages.
    Staged5,
    /// Scales through shared memory, the TMA epilogue (two 64-column chunks a consumer
    /// warpgroup through its 64 KiB of buffers), 4 stages.
    StagedTma,
    /// The same with the two chunks' buffers only (32 KiB), 5 stages (the default of session
    /// 14: H200, against `Staged` +6–11 % at 4096×7168×16384, +15–16 % at 8192³, +42–49 % at
    /// 4096³).
    StagedTma5,
    /// `StagedTma5` with the per-tensor entries' scheduler (a stream-K tail for a last wave at
    /// most a quarter full, split-K for small M: [`config::SCHEDULER_FP8_PROMOTED`]).
    StagedTma5StreamK,
    /// `StagedTma5` with the stream-K tail only ([`config::SCHEDULER_FP8_BLOCK_TAIL`]).
    StagedTma5Tail,
    /// `StagedTma5StreamK` with one temporary (DeepGEMM's; 0 spills where the paired one spills):
    /// the block-scaled launches' entry where [`BLOCK`](Self::BLOCK)'s waves are part-empty
    /// ([`for_problem`](Self::for_problem), since session 28).
    StagedOneTma5StreamK,
    /// Scales through shared memory on the per-tensor default's 128×192 tiles (one temporary,
    /// each 64-column chunk scaled by its own N-block's scale), the TMA epilogue (three
    /// 64-column chunks a consumer warpgroup, 48 KiB), 4 stages, data-parallel (the default
    /// since session 15: H200, against `StagedTma5` +10–11 % at 4096×7168×16384, +20 % at
    /// 8192³, +8–14 % at 4096³, +30–31 % at 4096×2112×7168).
    StagedN192Tma,
    /// The same with a stream-K tail for a last wave at most a quarter full
    /// ([`config::SCHEDULER_FP8_BLOCK_TAIL`]; with split-K too its state spilled).
    StagedN192TmaTail,
    /// The small-M tile ([`Fp8PromotedTile::Pp64`]: 64×128 on the ping-pong schedule, 8
    /// stages, the TMA epilogue), the scales from global memory in the k-tile loop on the quad
    /// schedule (`gemm_fp8_e4m3_tn_promoted_block_pp64`: each k-tile's loaded four k-tiles
    /// ahead into a queue slot of its own; H200, session 38, against the paired 3-deep queue
    /// it replaced: +42–46 % at 128×7168×16384 and ×8192, 64×7168×16384, 128×4096×16384):
    /// block-scaled launches take it where the default's 128×192 tiles leave most of one wave
    /// idle and the 64×128 ones fill it ([`for_problem`](Self::for_problem)) and K is short or
    /// M no multiple of 4.
    Pp64,
    /// The small-M tile with A's scales through shared memory with each stage, as the staged
    /// entries' (`gemm_fp8_e4m3_tn_promoted_staged_pp64`: 8 stages, A's box of the tile's 64 row
    /// scales; B's scales from global memory four k-tiles ahead): block-scaled launches' entry
    /// for small M in sessions 26–57, a measuring variant (`fp8-variants`) since
    /// [`StagedPp64x4`](Self::StagedPp64x4) took its place.
    StagedPp64,
    /// The same with A's scales in boxes of four k-tiles, one with the first of each four
    /// stages (`gemm_fp8_e4m3_tn_promoted_staged4_pp64`: `StagedScales64x4`): block-scaled
    /// launches' entry for small M from [`STAGED_PP64_MIN_K`](Self::STAGED_PP64_MIN_K) where
    /// it [`takes`](Self::takes) them (M a multiple of 4, K of whole fours of k-tiles). H200,
    /// session 58 (run s57a, three rounds, TFLOP/s against `StagedPp64`'s in the same process):
    /// 128×7168×16384 761–773 against 739–747 (0.91–0.94 of per-tensor against 0.88–0.91),
    /// ×8192 674–676 against 647–658, 64×7168×16384 381–389 against 375–381, 128×4096×16384
    /// 465–471 against 441–445.
    StagedPp64x4,
}

impl Fp8BlockEntry {
    /// The entry of block-scaled launches (where it [`takes`](Self::takes) them; H200: see
    /// doc/fp8-gemm.md, "Block scales on the 128 × 192 tile").
    pub const BLOCK: Fp8BlockEntry = Fp8BlockEntry::StagedN192Tma;
    /// The kernel entry.
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// assert_eq!(Fp8BlockEntry::StagedPp64.entry(), "gemm_fp8_e4m3_tn_promoted_staged_pp64");
    /// assert_eq!(Fp8BlockEntry::Global.entry(), "gemm_fp8_e4m3_tn_promoted");
    /// ```
    pub const fn entry(self) -> &'static str {
        match self {
            Fp8BlockEntry::Global => "gemm_fp8_e4m3_tn_promoted",
            Fp8BlockEntry::Staged => "gemm_fp8_e4m3_tn_promoted_staged",
            Fp8BlockEntry::Staged5 => "gemm_fp8_e4m3_tn_promoted_staged_s5",
            Fp8BlockEntry::StagedTma => "gemm_fp8_e4m3_tn_promoted_staged_tma",
            Fp8BlockEntry::StagedTma5 => "gemm_fp8_e4m3_tn_promoted_staged_tma5",
            Fp8BlockEntry::StagedTma5StreamK => "gemm_fp8_e4m3_tn_promoted_staged_tma5sk",
            Fp8BlockEntry::StagedTma5Tail => "gemm_fp8_e4m3_tn_promoted_staged_tma5tail",
            Fp8BlockEntry::StagedOneTma5StreamK => "gemm_fp8_e4m3_tn_promoted_staged1_tma5sk",
            Fp8BlockEntry::StagedN192Tma => "gemm_fp8_e4m3_tn_promoted_staged_n192tma",
            Fp8BlockEntry::StagedN192TmaTail => "gemm_fp8_e4m3_tn_promoted_staged_n192tmatail",
            Fp8BlockEntry::Pp64 => "gemm_fp8_e4m3_tn_promoted_block_pp64",
            Fp8BlockEntry::StagedPp64 => "gemm_fp8_e4m3_tn_promoted_staged_pp64",
            Fp8BlockEntry::StagedPp64x4 => "gemm_fp8_e4m3_tn_promoted_staged4_pp64",
        }
    }
    /// Whether the entry takes block scales at `scales` (device addresses) for `m` rows: the
    /// staged entries load a tile's row scales of one k-block as a TMA box, which must start
    /// 16-byte aligned in global memory, so `M` a multiple of 4 (DeepGEMM's condition) and
    /// 16-byte aligned buffers (B's boxes are the aligned 4 holding a scale: any N; K any
    /// multiple of 16, as every FP8 launch); [`StagedPp64x4`](Self::StagedPp64x4)'s boxes of
    /// [`K_GROUP`](Self::K_GROUP) k-tiles, each with the first of as many stages, need every
    /// tile's k-tiles in whole groups: K (16-bit units, `k`) a multiple of 256 (512 FP8
    /// elements). The block entry takes any.
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// let s = (0x1000, 0x2000);
    /// assert!(Fp8BlockEntry::Staged.takes((300, 1000), s));
    /// assert!(!Fp8BlockEntry::Staged.takes((129, 1000), s));
    /// assert!(!Fp8BlockEntry::Staged.takes((300, 1000), (0x1004, 0x2000)));
    /// assert!(Fp8BlockEntry::Global.takes((129, 1000), (0x1004, 0x2000)));
    /// assert!(Fp8BlockEntry::StagedN192Tma.takes((300, 1000), s));
    /// assert!(!Fp8BlockEntry::StagedN192Tma.takes((302, 1000), s));
    /// // 8192 16-bit units: 128 k-tiles of 128 FP8 elements, 32 fours; 4160: 65 k-tiles
    /// assert!(Fp8BlockEntry::StagedPp64x4.takes((128, 8192), s));
    /// assert!(!Fp8BlockEntry::StagedPp64x4.takes((128, 4160), s));
    /// assert!(Fp8BlockEntry::StagedPp64.takes((128, 4160), s));
    /// ```
    pub fn takes(self, (m, k): (usize, usize), (sa, sb): (u64, u64)) -> bool {
        let whole_groups = k
            .div_ceil(config::TILE_FP8.2)
            .is_multiple_of(self.k_group());
        matches!(self, Fp8BlockEntry::Global | Fp8BlockEntry::Pp64)
            || (m.is_multiple_of(4)
                && sa.is_multiple_of(16)
                && sb.is_multiple_of(16)
                && whole_groups)
    }
    /// The k-tiles of one box of A's scales of [`StagedPp64x4`](Self::StagedPp64x4): its
    /// `ScaleBoxA4`'s k-blocks (`SCALE_BOX_A4_K_BLOCKS`, the kernel's
    /// `MmaAccumulation::K_GROUP`).
    ///
    /// ```
    /// assert_eq!(host::hgemm::Fp8BlockEntry::K_GROUP, 4);
    /// ```
    pub const K_GROUP: usize = layout_types::cutlass::gmma_operand::SCALE_BOX_A4_K_BLOCKS;
    /// The k-tiles whose scales come together (K must hold them whole): [`K_GROUP`](Self::K_GROUP)
    /// for [`StagedPp64x4`](Self::StagedPp64x4), 1 for the others.
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// assert_eq!(Fp8BlockEntry::StagedPp64x4.k_group(), Fp8BlockEntry::K_GROUP);
    /// assert_eq!(Fp8BlockEntry::StagedPp64.k_group(), 1);
    /// ```
    pub fn k_group(self) -> usize {
        match self {
            Fp8BlockEntry::StagedPp64x4 => Self::K_GROUP,
            _ => 1,
        }
    }
    /// This entry where it [`takes`](Self::takes) the problem `(m, k)` (16-bit units of K),
    /// else [`Global`](Self::Global) (which takes any): what a block-scaled launch runs.
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// let e = Fp8BlockEntry::StagedPp64x4;
    /// assert_eq!(e.or_global((128, 8192), (0x1000, 0x2000)), e);
    /// assert_eq!(e.or_global((126, 8192), (0x1000, 0x2000)), Fp8BlockEntry::Global);
    /// ```
    pub fn or_global(self, mk: (usize, usize), scales: (u64, u64)) -> Fp8BlockEntry {
        if self.takes(mk, scales) {
            self
        } else {
            Fp8BlockEntry::Global
        }
    }
    /// The least K (16-bit units: 8192 FP8 elements) from which block-scaled small-M launches
    /// take [`StagedPp64x4`](Self::StagedPp64x4) (before session 58
    /// [`StagedPp64`](Self::StagedPp64)) over [`Pp64`](Self::Pp64). H200, staged against
    /// global scales on the 64-row tile at 128×7168×K, session 26 (runs s26a–s26c): +37–39 % at
    /// K = 16384, +35–41 % at 8192, +27–33 % at 7168, +6–31 % at 6144, mostly a loss at 4096
    /// (noisy; session 25, with the scales read after the `wgmma`s: −15–31 %). Since the global
    /// entry's quad schedule (session 38, run s38e) staged leads by 2–4 % at K = 8192 and 16384
    /// and loses at 4096 (345–361 against 427–560 TFLOP/s, noisy); at 6144 it was level (run
    /// s39a: 551–622 against 612–613) and the box of four behind (run s58d, two rounds: 518,
    /// 606 against 630, 630; at 8192 676, 637 against 657, 658), so from session 59 the rule
    /// starts at 8192 (6144 until then).
    pub const STAGED_PP64_MIN_K: usize = 4096;
    /// The least M from which block-scaled launches whose [`BLOCK`](Self::BLOCK) tiles leave
    /// their waves part-empty (below [`STAGED_SK_MAX_FILL`](Self::STAGED_SK_MAX_FILL)) take
    /// [`StagedOneTma5StreamK`](Self::StagedOneTma5StreamK): 128×128 tiles whose last wave
    /// (or, in one, whose k-ranges) the per-tensor entries' scheduler shares out. Below it the
    /// small-M tiles decide (run s28a, two rounds against the default there: 128×7168×8192
    /// −7 %, 128×7168×16384 +6 %).
    pub const STAGED_SK_MIN_M: usize = 256;
    /// The fullest waves, as a fraction of the clusters the device holds, of
    /// [`BLOCK`](Self::BLOCK)'s cluster tiles (data-parallel: every wave a whole one) for which
    /// [`StagedOneTma5StreamK`](Self::StagedOneTma5StreamK) runs instead. H200, session 28 (runs
    /// s28a–s28c: two rounds each, ours / cuBLASLt in the same process, `BLOCK` → it, both with
    /// [`HgemmPlan::for_variant`](super::HgemmPlan::for_variant)'s clusters), below: 256×7168×8192 (76 tiles on 132 SMs, fill
    /// 0.58) 0.70 → 0.86, 512×7168×8192 (0.58) 0.64 → 0.83, 896×4096×8192 (0.58) 0.60 → 0.77,
    /// 384×4096×8192 (0.50) 0.56 → 0.67–0.69, 256×4096×8192 (0.33) 0.83–0.85 → 0.75–0.85; above:
    /// 384×7168×8192 (0.86) 0.96 → 0.65–0.66, 1152×7168×4096 (0.86) 0.87–0.88 → 0.84–0.85,
    /// 640×7168×8192 (0.72) and 1024×7168×4096 (0.77) level.
    pub const STAGED_SK_MAX_FILL: f64 = 0.6;
    /// The entry of block-scaled problem `(m, n, k)` (16-bit units of K) on `sms` SMs with the
    /// scales at `scales` (device addresses): from [`STAGED_SK_MIN_M`](Self::STAGED_SK_MIN_M)
    /// rows, where [`BLOCK`](Self::BLOCK)'s waves are no fuller than
    /// [`STAGED_SK_MAX_FILL`](Self::STAGED_SK_MAX_FILL),
    /// [`StagedOneTma5StreamK`](Self::StagedOneTma5StreamK) where it [`takes`](Self::takes) the
    /// scales; where `BLOCK`'s cluster tiles fill no more than one wave and the 64×128 ones fill
    /// one at least a quarter full ([`Fp8PromotedTile::pp64_fills_a_wave`]) the small-M tile:
    /// from [`STAGED_PP64_MIN_K`](Self::STAGED_PP64_MIN_K) [`StagedPp64x4`](Self::StagedPp64x4)
    /// where it [`takes`](Self::takes) the problem, else [`Pp64`](Self::Pp64); else
    /// [`BLOCK`](Self::BLOCK) (the caller falls back to [`Global`](Self::Global) where that does
    /// not take them). (doc/fp8-gemm.md, "Small M on 64-row tiles", session 26's and 28's
    /// sections.)
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// let s = (0x1000, 0x2000);
    /// let x4 = Fp8BlockEntry::StagedPp64x4;
    /// assert_eq!(Fp8BlockEntry::for_problem(128, 7168, 8192, 132, s), x4);
    /// assert_eq!(Fp8BlockEntry::for_problem(128, 7168, 4096, 132, s), x4);
    /// assert_eq!(Fp8BlockEntry::for_problem(128, 7168, 3072, 132, s), Fp8BlockEntry::Pp64);
    /// // 8256 16-bit units: 129 k-tiles, no whole fours
    /// assert_eq!(Fp8BlockEntry::for_problem(128, 7168, 8256, 132, s), Fp8BlockEntry::Pp64);
    /// assert_eq!(Fp8BlockEntry::for_problem(126, 7168, 8192, 132, s), Fp8BlockEntry::Pp64);
    /// assert_eq!(Fp8BlockEntry::for_problem(128, 7168, 2048, 132, s), Fp8BlockEntry::Pp64);
    /// assert_eq!(Fp8BlockEntry::for_problem(4096, 7168, 8192, 132, s), Fp8BlockEntry::BLOCK);
    /// assert_eq!(Fp8BlockEntry::for_problem(64, 1024, 8192, 132, s), Fp8BlockEntry::BLOCK);
    /// let sk = Fp8BlockEntry::StagedOneTma5StreamK;
    /// assert_eq!(Fp8BlockEntry::for_problem(256, 7168, 8192, 132, s), sk); // 76 of 132
    /// assert_eq!(Fp8BlockEntry::for_problem(512, 7168, 8192, 132, s), sk); // 76 of 66, 2 waves
    /// assert_eq!(Fp8BlockEntry::for_problem(896, 4096, 8192, 132, s), sk); // 154 of 132
    /// assert_eq!(Fp8BlockEntry::for_problem(258, 7168, 8192, 132, s), Fp8BlockEntry::BLOCK); // M % 4
    /// assert_eq!(Fp8BlockEntry::for_problem(384, 7168, 8192, 132, s), Fp8BlockEntry::BLOCK); // 114 of 132
    /// assert_eq!(Fp8BlockEntry::for_problem(640, 7168, 8192, 132, s), Fp8BlockEntry::BLOCK); // 190 of 264
    /// ```
    pub fn for_problem(
        m: usize,
        n: usize,
        k: usize,
        sms: usize,
        scales: (u64, u64),
    ) -> Fp8BlockEntry {
        let v = Fp8BlockEntry::BLOCK.variant((0, 0));
        let (sk, w) = (
            Fp8BlockEntry::StagedOneTma5StreamK,
            Waves::of((m, n, k), &v, sms),
        );
        if m >= Self::STAGED_SK_MIN_M
            && w.fill() <= Self::STAGED_SK_MAX_FILL
            && sk.takes((m, k), scales)
        {
            sk
        } else if !(w.one() && Fp8PromotedTile::pp64_fills_a_wave(m, n, k, sms)) {
            Fp8BlockEntry::BLOCK
        } else if k >= Self::STAGED_PP64_MIN_K && Fp8BlockEntry::StagedPp64x4.takes((m, k), scales)
        {
            Fp8BlockEntry::StagedPp64x4
        } else {
            Fp8BlockEntry::Pp64
        }
    }
    /// The columns of B's block scales' blocks (DeepGEMM's 128 × 128,
    /// [`Fp8Scales::Block`](crate::gemm_fp8::Fp8Scales::Block)).
    const SCALE_BLOCK_N: usize = 128;
    /// The columns of B (and of D) that [`split_n`](Self::split_n) gives [`BLOCK`](Self::BLOCK)
    /// come in multiples of this: whole tile-columns of `BLOCK` (192) that end on B's
    /// 128-column scale blocks, 384.
    ///
    /// ```
    /// assert_eq!(host::hgemm::Fp8BlockEntry::SPLIT_N_STEP, 384);
    /// ```
    pub const SPLIT_N_STEP: usize = {
        let (a, b) = (config::TILE_FP8_N192.1, Self::SCALE_BLOCK_N);
        let (mut x, mut y) = (a, b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        a / x * b
    };
    /// Where B's block scales of D's columns from `n1` on start, in floats, for K of `k`
    /// (16-bit units): `(n1 / 128)·⌈K / 128⌉` (B's scales are row-major over its 128 × 128
    /// blocks, [`Fp8Scales::Block`](crate::gemm_fp8::Fp8Scales::Block)) — `None` where `n1` is
    /// no multiple of 128 or that start is not on 16 bytes (the staged entries' TMA boxes).
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// assert_eq!(Fp8BlockEntry::split_scales_offset(3840, 2048), Some(30 * 32));
    /// assert_eq!(Fp8BlockEntry::split_scales_offset(128, 192), None); // 3 k-blocks
    /// assert_eq!(Fp8BlockEntry::split_scales_offset(100, 2048), None);
    /// ```
    pub fn split_scales_offset(n1: usize, k: usize) -> Option<usize> {
        let floats = n1 / Self::SCALE_BLOCK_N * k.div_ceil(config::TILE_FP8.2);
        (n1.is_multiple_of(Self::SCALE_BLOCK_N) && floats.is_multiple_of(4)).then_some(floats)
    }
    /// The block-scaled problem `(m, n, k)` (16-bit units of K, the scales at `scales`) as two
    /// launches at column `n1`: the first `n1` columns on [`BLOCK`](Self::BLOCK), the other
    /// `n − n1` on the entry [`for_problem`](Self::for_problem) picks for them (or
    /// [`Global`](Self::Global) where that one does not [`take`](Self::takes) them), their B
    /// scales [`split_scales_offset`](Self::split_scales_offset) floats on. `None` where `n1` is
    /// not inside `1..n` or the rest's B scales do not start on 16 bytes.
    ///
    /// ```
    /// use host::hgemm::{BlockSplit, Fp8BlockEntry};
    /// let s = Fp8BlockEntry::split_at(4096, 4096, 2048, 132, (0x1000, 0x2000), 3840).unwrap();
    /// // 256 columns of 128 rows a wave at most: split k-ranges on 128 × 128 tiles
    /// assert_eq!(s.rest, Fp8BlockEntry::StagedOneTma5StreamK);
    /// // B's scales of columns 3840..: 30 N-blocks of 32 k-blocks further on
    /// assert_eq!(s.rest_scales, (0x1000, 0x2000 + 30 * 32 * 4));
    /// assert_eq!(Fp8BlockEntry::split_at(4096, 4096, 2048, 132, (0x1000, 0x2000), 4096), None);
    /// ```
    pub fn split_at(
        m: usize,
        n: usize,
        k: usize,
        sms: usize,
        (sa, sb): (u64, u64),
        n1: usize,
    ) -> Option<BlockSplit> {
        if !(1..n).contains(&n1) {
            return None;
        }
        let floats = Self::split_scales_offset(n1, k)?;
        let rest_scales = (sa, sb + (floats * size_of::<f32>()) as u64);
        let rest = Self::for_problem(m, n - n1, k, sms, rest_scales).or_global((m, k), rest_scales);
        Some(BlockSplit {
            n1,
            rest,
            rest_scales,
        })
    }
    /// What [`split_n`](Self::split_n) reckons the columns it leaves cost where they run on
    /// 128 × 128 tiles with split k-ranges ([`StagedOneTma5StreamK`](Self::StagedOneTma5StreamK)),
    /// in waves of [`BLOCK`](Self::BLOCK)'s tiles of the same area. H200, session 55 (run s55b,
    /// three rounds each, TFLOP/s of the whole against the launch without a split): 4096³
    /// 3840 + 256 columns 1,118–1,227 against 1,036–1,107 (5.54 waves for 6, reckoned 5.58),
    /// 4096×7168×16384 6912 + 256 1,132–1,140 against 1,083–1,097 (9.59 for 10, reckoned
    /// 9.59), 6144 + 1024 1,076–1,083 (10.05, reckoned 10.04); 1024×7168×16384 (run s55c)
    /// 6144 + 1024 1,106–1,241 against 955–981.
    pub const SPLIT_TAIL_COST: f64 = 1.5;
    /// A split's second launch starts its first clusters in the first launch's last-wave holes
    /// (its SMs without a tile there), each taking this percent of a first-launch tile's
    /// k-tiles more than the others ([`lead_percent`](Self::lead_percent)): a 128 × 192 k-tile
    /// takes about 1.25 times a 128 × 128 one's time.
    pub const LEAD_PERCENT: u32 = 125;
    /// The first launch's tiles have at least this many k-tiles for the second launch to lead.
    pub const LEAD_MIN_K_TILES: usize = 64;
    /// The lead of a split's second launch (percent of a first-launch tile's `k_tiles`;
    /// 0: it runs after the first): [`LEAD_PERCENT`](Self::LEAD_PERCENT) where the holes last
    /// [`LEAD_MIN_K_TILES`](Self::LEAD_MIN_K_TILES) k-tiles or more. H100, session 70 (run s70a,
    /// two rounds, burst TFLOP/s with the lead at 0 and 125): 4096×7168×16384 (128 k-tiles)
    /// 1,333–1,336 against 1,350–1,351, 4096³ (32) 1,157–1,158 against 1,127–1,140 (100 and 160
    /// lost there too).
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// assert_eq!(Fp8BlockEntry::lead_percent(128), 125); // K = 16384
    /// assert_eq!(Fp8BlockEntry::lead_percent(32), 0); // K = 4096
    /// ```
    pub fn lead_percent(k_tiles: usize) -> u32 {
        if k_tiles >= Self::LEAD_MIN_K_TILES {
            Self::LEAD_PERCENT
        } else {
            0
        }
    }
    /// The second launch's own cost in waves of [`BLOCK`](Self::BLOCK) (its start and the
    /// wait for the first).
    pub const SPLIT_LAUNCH_COST: f64 = 0.1;
    /// The least waves times k-blocks (of 128) of the whole problem on [`BLOCK`](Self::BLOCK)
    /// from which [`split_n`](Self::split_n) splits: below, the second launch's host-side
    /// cost is not hidden under the first's GPU time. H200, session 55 (run s55c, three
    /// rounds): 2048³ (2 waves of 16 k-blocks) split 1536 + 512 ran 352–602 TFLOP/s against
    /// 664–770 whole; 4096³ (6 of 32) gained (run s55b).
    pub const SPLIT_MIN_WAVE_K_BLOCKS: usize = 64;
    /// Where [`BLOCK`](Self::BLOCK)'s last wave of 128 × 192 cluster tiles is part-empty, the
    /// split ([`split_at`](Self::split_at)) of a block-scaled problem `(m, n, k)` (16-bit units
    /// of K, the scales at `scales`) whose first `n1` columns it runs in fewer waves, the other
    /// `n − n1` launched on their own (D's column blocks are independent: B's rows, B's scale
    /// blocks and D's columns start `n1` further on). `None`
    /// where no split is reckoned faster (or the problem is smaller than
    /// [`SPLIT_MIN_WAVE_K_BLOCKS`](Self::SPLIT_MIN_WAVE_K_BLOCKS)), in waves of `BLOCK`: the waves `n1` takes plus the
    /// rest's — its own waves where it runs on `BLOCK` too, its area times
    /// [`SPLIT_TAIL_COST`](Self::SPLIT_TAIL_COST) where it runs on split k-ranges — plus
    /// [`SPLIT_LAUNCH_COST`](Self::SPLIT_LAUNCH_COST), against the waves of the whole. `n1` is
    /// a multiple of [`SPLIT_N_STEP`](Self::SPLIT_N_STEP) whose B scales start on 16 bytes
    /// (the staged entries' TMA boxes).
    ///
    /// ```
    /// use host::hgemm::Fp8BlockEntry;
    /// let s = (0x1000, 0x2000);
    /// // 4096³: 352 cluster tiles on 66 clusters, 6 waves (the last a third full); 3840
    /// // columns in 5, the last 256 on their own
    /// assert_eq!(Fp8BlockEntry::split_n(4096, 4096, 2048, 132, s).map(|s| s.n1), Some(3840));
    /// // 4096 × 7168 × 16384: 10 waves (the last 14 of 66); 6912 columns in 9
    /// assert_eq!(Fp8BlockEntry::split_n(4096, 7168, 8192, 132, s).map(|s| s.n1), Some(6912));
    /// // 8192³: 21 waves, the last 56 of 66 — the rest would take two more
    /// assert_eq!(Fp8BlockEntry::split_n(8192, 8192, 4096, 132, s), None);
    /// assert_eq!(Fp8BlockEntry::split_n(4096, 2112, 3584, 132, s), None);
    /// assert_eq!(Fp8BlockEntry::split_n(128, 7168, 8192, 132, s), None); // one wave
    /// assert_eq!(Fp8BlockEntry::split_n(1024, 7168, 8192, 132, s).map(|s| s.n1), Some(6144)); // 2 waves, not 3
    /// assert_eq!(Fp8BlockEntry::split_n(2048, 2048, 1024, 132, s), None); // 2 waves of 16 k-blocks
    /// ```
    pub fn split_n(
        m: usize,
        n: usize,
        k: usize,
        sms: usize,
        scales: (u64, u64),
    ) -> Option<BlockSplit> {
        let v = Fp8BlockEntry::BLOCK.variant((0, 0));
        let whole = Waves::of((m, n, k), &v, sms);
        let k_blocks = k.div_ceil(config::TILE_FP8.2);
        if whole.one() || whole.rounds() * k_blocks < Self::SPLIT_MIN_WAVE_K_BLOCKS {
            return None;
        }
        let (bm, bn, _) = v.tile;
        let wave_area = (whole.resident * whole.cluster * bm * bn) as f64;
        (1..n.div_ceil(Self::SPLIT_N_STEP))
            .filter_map(|j| Self::split_at(m, n, k, sms, scales, j * Self::SPLIT_N_STEP))
            .map(|split| {
                let (n1, n2) = (split.n1, n - split.n1);
                let rest = match split.rest {
                    Fp8BlockEntry::BLOCK => Waves::of((m, n2, k), &v, sms).rounds() as f64,
                    _ => (m * n2) as f64 / wave_area * Self::SPLIT_TAIL_COST,
                };
                let waves = Waves::of((m, n1, k), &v, sms).rounds() as f64;
                (split, waves + rest + Self::SPLIT_LAUNCH_COST)
            })
            .filter(|&(_, cost)| cost < whole.rounds() as f64)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(split, _)| split)
    }
    /// The launch with the block scales at `scales` (device addresses): the block entry's
    /// (128×128 tiles, data-parallel), the staged ones with their shared memory and the scales'
    /// tensor maps (the `_tma` ones' epilogue on its TMA path where C allows).
    ///
    /// ```
    /// use host::hgemm::{config, Fp8BlockEntry};
    /// // 4 stages of 128×64 A and B tiles (16-bit units), the epilogue's 64 KiB, the barriers,
    /// // 4 stages' scales (640 bytes each), padded to the 1024-byte alignment
    /// assert_eq!(config::SMEM_BYTES_FP8_STAGED_TMA, 4 * 32 * 1024 + 64 * 1024 + 1024 + 3 * 1024);
    /// // 5 stages beside the two chunk buffers a warpgroup (32 KiB)
    /// assert_eq!(config::SMEM_BYTES_FP8_STAGED_TMA5, 5 * 32 * 1024 + 32 * 1024 + 1024 + 4 * 1024);
    /// assert!(config::SMEM_BYTES_FP8_STAGED_TMA5 <= 227 * 1024);
    /// // 128×192: 4 stages of 128×64 A and 192×64 B tiles, three chunk buffers a warpgroup
    /// // (48 KiB), the barriers, 4 stages' scales (768 bytes each: B's two boxes)
    /// assert_eq!(config::SMEM_BYTES_FP8_STAGED_N192_TMA, 4 * 40 * 1024 + 48 * 1024 + 1024 + 3 * 1024);
    /// ```
    pub(crate) fn variant(self, scales: (u64, u64)) -> HgemmVariant {
        let v = HgemmVariant::fp8_promoted(scales);
        let (tile, smem, tma_epilogue) = match self {
            Fp8BlockEntry::Global => return v,
            Fp8BlockEntry::Pp64 => {
                return HgemmVariant {
                    scales,
                    ..Fp8PromotedTile::Pp64.variant()
                };
            }
            Fp8BlockEntry::StagedPp64 | Fp8BlockEntry::StagedPp64x4 => {
                return HgemmVariant {
                    scales,
                    smem: config::SMEM_BYTES_FP8_STAGED_PP64,
                    scale_maps: if self == Fp8BlockEntry::StagedPp64x4 {
                        ScaleMaps::FourKBlocks
                    } else {
                        ScaleMaps::KBlock
                    },
                    ..Fp8PromotedTile::Pp64.variant()
                };
            }
            Fp8BlockEntry::Staged => (v.tile, config::SMEM_BYTES_FP8_STAGED, false),
            Fp8BlockEntry::Staged5 => (v.tile, config::SMEM_BYTES_FP8_STAGED_S5, false),
            Fp8BlockEntry::StagedTma => (v.tile, config::SMEM_BYTES_FP8_STAGED_TMA, true),
            Fp8BlockEntry::StagedTma5
            | Fp8BlockEntry::StagedTma5StreamK
            | Fp8BlockEntry::StagedTma5Tail
            | Fp8BlockEntry::StagedOneTma5StreamK => {
                (v.tile, config::SMEM_BYTES_FP8_STAGED_TMA5, true)
            }
            Fp8BlockEntry::StagedN192Tma | Fp8BlockEntry::StagedN192TmaTail => (
                config::TILE_FP8_N192,
                config::SMEM_BYTES_FP8_STAGED_N192_TMA,
                true,
            ),
        };
        HgemmVariant {
            tile,
            smem,
            tma_epilogue,
            scale_maps: ScaleMaps::KBlock,
            scheduler: match self {
                Fp8BlockEntry::StagedTma5StreamK | Fp8BlockEntry::StagedOneTma5StreamK => {
                    config::SCHEDULER_FP8_PROMOTED
                }
                Fp8BlockEntry::StagedTma5Tail | Fp8BlockEntry::StagedN192TmaTail => {
                    config::SCHEDULER_FP8_BLOCK_TAIL
                }
                _ => v.scheduler,
            },
            ..v
        }
    }
}
