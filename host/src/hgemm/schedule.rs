//! The Hopper GEMM's kernel schedule ([`HgemmSchedule`], `host::hgemm::HgemmSchedule`) and tile
//! order ([`HgemmRaster`]), in a module of their own so that `crate::overrides` can name them
//! without depending on the launch code (which depends on the context, which holds the
//! overrides).

use super::{HgemmKernel, HgemmVariant, config};
use crate::error::Error;

/// The Hopper GEMM's kernel schedule (CUTLASS's `KernelSchedule`, `collective::kernel`):
/// [`Context::hgemm`](crate::Context::hgemm) launches the cooperative entries (128×256 tiles, both consumer
/// warpgroups on each) unless the context's [`Overrides::hgemm_schedule`](crate::Overrides::hgemm_schedule)
/// (`CUTE_RS_HGEMM_SCHEDULE=pingpong` in the CLI) asks for the ping-pong ones
/// (64×256 tiles, one consumer warpgroup each, one's epilogue under the other's `wgmma`s) or
/// `pingpong128` for CUTLASS's ping-pong tile (128×128 a warpgroup, two `m64n128k16` per
/// k-block), which are in the PTX only when built with `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`:
/// bf16 and f16 "TN" and the fused bias + GELU (tanh); another problem, or a build without them,
/// is an [`Error::Unsupported`] before any launch. For measuring.
///
/// ```
/// use host::hgemm::HgemmSchedule;
/// assert_eq!(HgemmSchedule::pingpong_entry("hgemm_bf16_tn"), "hgemm_bf16_tn_pingpong");
/// assert_eq!(HgemmSchedule::Pingpong128.entry("hgemm_bf16_tn"), "hgemm_bf16_tn_pingpong128");
/// let e = HgemmSchedule::not_built("hgemm_bf16_nn_pingpong").to_string();
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
}

impl HgemmSchedule {
    /// The entries of the ping-pong schedules (the kernel's `*_pingpong` and `*_pingpong128`
    /// entries).
    pub const PINGPONG_ENTRIES: [&'static str; 6] = [
        "hgemm_bf16_tn_pingpong",
        "hgemm_f16_tn_pingpong",
        "hgemm_fused_bf16_tn_gelu_pingpong",
        "hgemm_bf16_tn_pingpong128",
        "hgemm_f16_tn_pingpong128",
        "hgemm_fused_bf16_tn_gelu_pingpong128",
    ];
    /// The kernel this schedule launches, as `host gemm` prints it.
    ///
    /// ```
    /// use host::hgemm::{HgemmKernel, HgemmSchedule};
    /// assert_eq!(HgemmSchedule::Cooperative.describe(), HgemmKernel.to_string());
    /// assert!(HgemmSchedule::Pingpong.describe().starts_with("hgemm 64x256x64"));
    /// ```
    pub fn describe(self) -> String {
        let stages = match self {
            HgemmSchedule::Cooperative => return HgemmKernel.to_string(),
            HgemmSchedule::Pingpong => config::STAGES_PINGPONG,
            HgemmSchedule::Pingpong128 => config::STAGES_PINGPONG_128,
        };
        let (m, n, k) = self.variant().tile;
        format!("hgemm {m}x{n}x{k} tma+wgmma {stages}-stage persistent ping-pong")
    }
    /// The 64×256 ping-pong entry of the cooperative entry `entry`.
    pub fn pingpong_entry(entry: &str) -> String {
        HgemmSchedule::Pingpong.entry(entry)
    }
    /// This schedule's entry of the cooperative entry `entry`.
    pub fn entry(self, entry: &str) -> String {
        match self {
            HgemmSchedule::Cooperative => entry.to_string(),
            HgemmSchedule::Pingpong => format!("{entry}_pingpong"),
            HgemmSchedule::Pingpong128 => format!("{entry}_pingpong128"),
        }
    }
    /// This schedule's kernel variant (tile, shared memory).
    pub(crate) fn variant(self) -> HgemmVariant {
        match self {
            HgemmSchedule::Cooperative => HgemmVariant::COOPERATIVE,
            HgemmSchedule::Pingpong => HgemmVariant::PINGPONG,
            HgemmSchedule::Pingpong128 => HgemmVariant::PINGPONG_128,
        }
    }
    /// The error for a ping-pong entry this build does not have: which entries exist and how
    /// to build them.
    pub fn not_built(entry: &str) -> Error {
        Error::Unsupported(format!(
            "CUTE_RS_HGEMM_SCHEDULE: no entry {entry} in this build (the ping-pong schedules' entries, {}, are built with CUTE_RS_KERNEL_FEATURES=hgemm/pingpong)",
            Self::PINGPONG_ENTRIES.join(", ")
        ))
    }
}

/// The order in which a persistent grid's clusters take the cluster tiles of C (CUTLASS's
/// raster order and swizzle; the kernel's `collective::scheduler::TileOrder`).
///
/// ```
/// use host::hgemm::{HgemmPlan, HgemmRaster};
/// assert_eq!(HgemmPlan::by_size(4096, 4096, 4096).raster, HgemmRaster::Swizzle(8));
/// // the Hilbert order of 3 × 2 cluster tiles, `[M-tile, N-tile]` as the kernel reads it
/// assert_eq!(HgemmRaster::hilbert_table(3, 2), [[0, 0], [1, 0], [1, 1], [0, 1], [2, 1], [2, 0]]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HgemmRaster {
    /// CuTe's swizzled raster: M-tile fastest within bands of this many N-tiles
    /// (`SwizzledRaster`).
    Swizzle(i32),
    /// A Hilbert curve through the tiles (fast.cu's kernel 12; `HilbertRaster`), read by the
    /// kernel from a table the context builds once per grid of tiles.
    Hilbert,
}

impl HgemmRaster {
    /// The Hilbert order of `m_tiles × n_tiles` cluster tiles as the kernel's table holds it.
    pub fn hilbert_table(m_tiles: usize, n_tiles: usize) -> Vec<[i32; 2]> {
        layout_types::cute::tile_scheduler::HilbertRaster::new(m_tiles as i32, n_tiles as i32)
            .iter()
            .map(|(m, n)| [m, n])
            .collect()
    }
}
