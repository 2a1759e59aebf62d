//! CUTLASS 3's sm90 GEMM collectives (`include/cutlass/gemm/collective`,
//! `.../gemm/kernel/sm90_gemm_tma_warpspecialized_cooperative.hpp`), generic by type: a kernel
//! family instantiates them in one line per entry, with no kernel body of its own.
//!
//! - [`mainloop::CollectiveMma`]: the TMA + GMMA mainloop (`MainloopSm90TmaGmmaWarpSpecialized`,
//!   SS): element `E`, A's and B's majorities `MA`, `MB` (each a
//!   [`SmemOperand`](layout_types::cutlass::gmma_operand::SmemOperand): its shared-memory tile,
//!   TMA loads and `wgmma` descriptors), the CTA tile's N ([`tile::TileN`]: 256, or 128),
//!   the accumulation ([`mainloop::MmaAccumulation`]: [`mainloop::PlainAccumulation`], or
//!   CUTLASS's `GmmaFP8Accumulation` — [`mainloop::GmmaFp8Accumulation`], fp32 promotion every
//!   k-tile and optional block scales, the FP8 kernel of
//!   `KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum`), `STAGES`; a producer thread's
//!   [`load`](mainloop::CollectiveMma::load) and a consumer warpgroup's
//!   [`mma`](mainloop::CollectiveMma::mma) over the typed
//!   [`PipelineTmaAsync`](layout_types::cutlass::pipeline::PipelineTmaAsync).
//! - [`cluster::ClusterShape`]: the cluster's CTAs along M ([`cluster::ClusterM`], B shared
//!   through TMA multicast) or along N ([`cluster::ClusterN`], A shared).
//! - [`epilogue::CollectiveEpilogue`]: what stores a warpgroup's accumulators (the family's
//!   choice: TMA through shared memory, direct stores, fused operations), and what it loads
//!   ahead under the mainloop (`load`: the source C).
//! - [`epilogue_rows`]: the TMA-store epilogue's pieces for a row-major 16-bit output of any
//!   width (`stmatrix` into `Layout_K_SW128_Atom` boxes, the chunk loop, the drain): the
//!   attention family's O.
//! - [`scheduler::TileScheduler`]: the persistent order of the cluster tiles
//!   ([`scheduler::PersistentTileScheduler`]), and the data-parallel + stream-K hybrid that
//!   shares a part-empty last wave out by k-tiles ([`scheduler::StreamKScheduler`], a split
//!   tile reduced through a global workspace; with `SPLIT_K`, fewer tiles than clusters split
//!   over all of them).
//! - [`kernel::gemm_tma_warpspecialized`]: the warp-specialized kernel composing them, its
//!   schedule a type ([`kernel::KernelSchedule`]: [`kernel::KernelTmaWarpSpecializedCooperative`],
//!   both consumer warpgroups on each 128-row tile, or [`kernel::KernelTmaWarpSpecializedPingpong`],
//!   each consumer on whole 64-row tiles in turn, one's epilogue under the other's `wgmma`s),
//!   with the shared memory as one `#[repr(C)]` [`kernel::ScheduleSharedStorage`]
//!   (the body, [`kernel::gemm_tma_warpspecialized`], takes the schedule as its first type
//!   parameter, CUTLASS's `GemmUniversal`).
#![no_std]
// `#[inline(always)]` on closures (`epilogue_rows`: unrolled bodies that index the
// accumulators must inline, or the accumulators go to local memory)
#![feature(stmt_expr_attributes)]

pub mod cluster;
pub mod epilogue;
pub mod epilogue_rows;
pub mod kernel;
pub mod mainloop;
pub mod scheduler;
pub mod tile;
pub mod trace;
