//! Measuring overrides: explicit options on a [`Context`](crate::Context) that replace a kernel
//! family's planned choice (the Hopper GEMM's schedule, cluster or rasterization, an FP8 entry,
//! an attention variant, an epilogue path) for an A/B measurement (doc/performance.md's rounds).
//! A launch reads them from its context ([`Context::overrides`](crate::Context::overrides)),
//! never from the environment: [`Overrides::from_env`] is the one reader of the `CUTE_RS_*`
//! variables, called where a context is opened by the `host` CLI and the Python package.
//!
//! ```
//! use host::{Overrides, hgemm::HgemmSchedule};
//! let o = Overrides { hgemm_schedule: Some(HgemmSchedule::Pingpong), ..Overrides::default() };
//! assert!(Overrides::default().is_default() && !o.is_default());
//! // on an opened context: `Context::new(0)?.with_overrides(o)`
//! ```

use crate::error::{Error, Result};
use crate::hgemm::schedule::{
    Fp8BlockEntry, Fp8FastTile, Fp8PromotedTile, HgemmRaster, HgemmSchedule, OverrideName,
};

/// The measuring overrides of one context; the default (every field `None`/`false`) launches
/// what the families plan. Each field names the variable
/// [`Overrides::from_env`] reads it from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `CUTE_RS_HGEMM_SCHEDULE` ([`OverrideName::NAMES`] of [`HgemmSchedule`]: `cooperative`,
    /// `pingpong`, `pingpong128`, `cooperative4`, `pingpong64`, `cooperative192`): the Hopper GEMM's kernel
    /// schedule ([`HgemmSchedule`]; unset: [`HgemmSchedule::for_problem`]; the 64×256 ping-pong
    /// entries are built with `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`).
    pub hgemm_schedule: Option<HgemmSchedule>,
    /// `CUTE_RS_HGEMM_CLUSTER` (`1`, `2`): the Hopper GEMM's cluster size.
    pub hgemm_cluster: Option<u32>,
    /// `CUTE_RS_HGEMM_PERSISTENT` (`0`, `1`): a persistent grid or one CTA per tile.
    pub hgemm_persistent: Option<bool>,
    /// `CUTE_RS_HGEMM_SMS` (`128`, `132`; and `38`, `56`, `66`, `76`, `100`, `114` to measure
    /// split-K with fewer splits): the persistent grid's SMs.
    pub hgemm_max_sms: Option<u32>,
    /// `CUTE_RS_HGEMM_SWIZZLE` (`1`, `2`, `4`, `8`, `16`, `32`, `hilbert`): the order of the tiles
    /// (bands of that many N-tiles, or a Hilbert curve: [`HgemmRaster`]).
    pub hgemm_swizzle: Option<HgemmRaster>,
    /// `CUTE_RS_HGEMM_STREAMK` (`0`, `1`): the stream-K schedule for few tiles (`0` also turns
    /// off split-K for small M: one cluster per tile at most).
    pub hgemm_stream_k: Option<bool>,
    /// `CUTE_RS_HGEMM_BALANCE` (`0`, `1`): a data-parallel persistent grid of every resident
    /// cluster (`0`) or of only the clusters its waves need (`1`), for every entry (unset: the
    /// cooperative entries balance, the others not; `HgemmPlan::balance`).
    pub hgemm_balance: Option<bool>,
    /// `CUTE_RS_HGEMM_EPILOGUE=direct`: every C tile stored from registers, no TMA store.
    pub hgemm_direct_epilogue: bool,
    /// `CUTE_RS_FP8_FAST=n256|n192tma|tile128` (or `default`): the fast-accumulation GEMM on
    /// that tile ([`Fp8FastTile`]; `tile128`: e4m3 on the promoted entry's 128×128 tiles, built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`) where it does not take the small-M tile.
    pub fp8_fast_tile: Option<Fp8FastTile>,
    /// `CUTE_RS_FP8_PROMOTED=block` (or `default`): per-tensor scales on the block-scale entry.
    pub fp8_promoted_block: bool,
    /// `CUTE_RS_FP8_PROMOTED=n128|n160|n160s5|n192|n192off|n192tma|n128tma6|n128tma5|n192tmacn|pp64`: per-tensor scales on that tile
    /// ([`Fp8PromotedTile`]; by default n192tma, n128tma6 or pp64 by shape,
    /// [`Fp8PromotedTile::for_problem`]; the others are built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`), and the fused epilogue's launches on that
    /// tile where it has fused entries (n192tma, the default, n192 and n128).
    pub fp8_promoted_tile: Option<Fp8PromotedTile>,
    /// `CUTE_RS_FP8_BLOCK=global|staged|staged5|stagedtma|stagedtma5|stagedtma5sk|stagedtma5tail|stagedonetma5sk|stagedn192tma|stagedn192tmatail|pp64|stagedpp64|stagedpp64x4`:
    /// the block-scaled launches' entry ([`Fp8BlockEntry`]: the scales loaded from global memory
    /// in the k-tile loop, or through shared memory with each stage; the `tma` ones store through
    /// the TMA epilogue; by default `stagedn192tma` (128×192 tiles) or, for small M, `stagedonetma5sk`,
    /// `stagedpp64x4` or `pp64`, [`Fp8BlockEntry::for_problem`]; all but those four and `global` are built with
    /// `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`).
    pub fp8_block_entry: Option<Fp8BlockEntry>,
    /// `CUTE_RS_FP8_BLOCK_SPLIT=<n1>`: block-scaled launches on [`Fp8BlockEntry::BLOCK`] give
    /// it D's first `n1` columns (a multiple of 128 below N whose B scales start on 16 bytes,
    /// checked at the launch) and launch the rest on their own; `0`: never split (unset: where
    /// [`Fp8BlockEntry::split_n`] reckons it faster).
    pub fp8_block_split: Option<usize>,
    /// `CUTE_RS_FP8_BLOCK_LEAD=<percent>`: a split block-scaled GEMM's second launch starts its
    /// first clusters in the first launch's last-wave holes, each taking this percent of a
    /// first-launch tile's k-tiles more than the others; `0`: it waits for the first launch
    /// (unset: [`Fp8BlockEntry::lead_percent`]).
    pub fp8_block_lead: Option<u32>,
    /// `CUTE_RS_ATTENTION`: a measuring variant of the attention kernel by name (the kernels
    /// built with `CUTE_RS_KERNEL_FEATURES=attention/measure`; `AttentionKernel::variant` says
    /// which names exist).
    pub attention_variant: Option<String>,
    /// `CUTE_RS_ATTENTION_EPILOGUE=direct` (or `tma`, the default): O stored from registers.
    pub attention_direct_epilogue: bool,
    /// `CUTE_RS_ATTENTION_STREAMK=0` (or `1`, the default): every attention tile whole (no
    /// stream-K split of a part-empty last wave's key blocks, `config::split_of`).
    pub attention_whole_tiles: bool,
    /// `CUTE_RS_GEMM_BOUNDS=0` (or `1`): the SGEMM entries without launch bounds.
    pub gemm_without_launch_bounds: bool,
    /// `CUTE_RS_PDL=0` (or `1`, the default): the Hopper GEMM's and attention's launches
    /// without programmatic dependent launch (each kernel starts when the one before it in
    /// the stream has ended, as other launches).
    pub serial_launches: bool,
}

impl Overrides {
    /// Whether nothing is overridden.
    ///
    /// ```
    /// assert!(host::Overrides::default().is_default());
    /// ```
    pub fn is_default(&self) -> bool {
        *self == Overrides::default()
    }

    /// The overrides the `CUTE_RS_*` variables set, every one checked: a value a variable
    /// does not take is an [`Error::Unsupported`] naming the variable and its values (before
    /// anything is launched). Unset variables leave the default.
    ///
    /// ```
    /// // SAFETY (the doc test's own process): no other thread reads the environment
    /// unsafe { std::env::set_var("CUTE_RS_HGEMM_CLUSTER", "3") };
    /// let e = host::Overrides::from_env().unwrap_err().to_string();
    /// assert!(e.contains("CUTE_RS_HGEMM_CLUSTER=3") && e.contains("1 or 2"), "{e}");
    /// unsafe { std::env::set_var("CUTE_RS_HGEMM_CLUSTER", "1") };
    /// assert_eq!(host::Overrides::from_env()?.hgemm_cluster, Some(1));
    /// unsafe { std::env::remove_var("CUTE_RS_HGEMM_CLUSTER") };
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn from_env() -> Result<Overrides> {
        let flag = |name, on: &str, values: &[&str]| -> Result<bool> {
            Ok(env_override(name, values)?.is_some_and(|v| v == on))
        };
        let promoted =
            named_override::<Fp8PromotedTile>("CUTE_RS_FP8_PROMOTED", &["default", "block"])?;
        Ok(Overrides {
            hgemm_schedule: named_override::<HgemmSchedule>("CUTE_RS_HGEMM_SCHEDULE", &[])?
                .as_deref()
                .and_then(HgemmSchedule::from_name),
            hgemm_cluster: env_override("CUTE_RS_HGEMM_CLUSTER", &["1", "2"])?
                .and_then(|v| v.parse().ok()),
            hgemm_persistent: env_override("CUTE_RS_HGEMM_PERSISTENT", &["0", "1"])?
                .map(|v| v == "1"),
            hgemm_max_sms: env_override(
                "CUTE_RS_HGEMM_SMS",
                &["38", "56", "66", "76", "100", "114", "128", "132"],
            )?
            .and_then(|v| v.parse().ok()),
            hgemm_swizzle: env_override(
                "CUTE_RS_HGEMM_SWIZZLE",
                &["1", "2", "4", "8", "16", "32", "hilbert"],
            )?
            .map(|v| match v.parse() {
                Ok(band) => HgemmRaster::Swizzle(band),
                Err(_) => HgemmRaster::Hilbert,
            }),
            hgemm_stream_k: env_override("CUTE_RS_HGEMM_STREAMK", &["0", "1"])?.map(|v| v == "1"),
            hgemm_balance: env_override("CUTE_RS_HGEMM_BALANCE", &["0", "1"])?.map(|v| v == "1"),
            hgemm_direct_epilogue: flag("CUTE_RS_HGEMM_EPILOGUE", "direct", &["direct"])?,
            fp8_fast_tile: named_override::<Fp8FastTile>("CUTE_RS_FP8_FAST", &["default"])?
                .as_deref()
                .and_then(Fp8FastTile::from_name),
            fp8_promoted_block: promoted.as_deref() == Some("block"),
            fp8_promoted_tile: promoted.as_deref().and_then(Fp8PromotedTile::from_name),
            fp8_block_entry: named_override::<Fp8BlockEntry>("CUTE_RS_FP8_BLOCK", &[])?
                .as_deref()
                .and_then(Fp8BlockEntry::from_name),
            fp8_block_split: block_split_override(std::env::var("CUTE_RS_FP8_BLOCK_SPLIT"))?,
            fp8_block_lead: block_lead_override(std::env::var("CUTE_RS_FP8_BLOCK_LEAD"))?,
            attention_variant: std::env::var("CUTE_RS_ATTENTION")
                .ok()
                .filter(|v| !v.is_empty()),
            attention_direct_epilogue: flag(
                "CUTE_RS_ATTENTION_EPILOGUE",
                "direct",
                &["", "tma", "direct"],
            )?,
            attention_whole_tiles: flag("CUTE_RS_ATTENTION_STREAMK", "0", &["0", "1"])?,
            gemm_without_launch_bounds: flag("CUTE_RS_GEMM_BOUNDS", "0", &["0", "1"])?,
            serial_launches: flag("CUTE_RS_PDL", "0", &["0", "1"])?,
        })
    }
}

/// `CUTE_RS_FP8_BLOCK_SPLIT`'s value, read: unset `None`, else `0` or a multiple of 128 (D's
/// columns of the first launch; whether the problem can take it is checked at the launch), or
/// an [`Error::Unsupported`] naming the variable and what it takes.
fn block_split_override(
    v: std::result::Result<String, std::env::VarError>,
) -> Result<Option<usize>> {
    let refuse = |v: &dyn std::fmt::Debug| {
        Err(Error::Unsupported(format!(
            "CUTE_RS_FP8_BLOCK_SPLIT={v:?}: the override takes 0 or a multiple of 128 (D's columns of the first launch)"
        )))
    };
    match v {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(v) => match v.parse::<usize>() {
            Ok(n1) if n1.is_multiple_of(128) => Ok(Some(n1)),
            _ => refuse(&v),
        },
        Err(std::env::VarError::NotUnicode(v)) => refuse(&v),
    }
}

/// `CUTE_RS_FP8_BLOCK_LEAD`'s value, read: unset `None`, else a percent from 0 to 400, or an
/// [`Error::Unsupported`] naming the variable and what it takes.
fn block_lead_override(v: std::result::Result<String, std::env::VarError>) -> Result<Option<u32>> {
    let v = match v {
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Ok(v) => match v.parse::<u32>() {
            Ok(p) if p <= 400 => return Ok(Some(p)),
            _ => v,
        },
        Err(e) => format!("{e:?}"),
    };
    Err(Error::Unsupported(format!(
        "CUTE_RS_FP8_BLOCK_LEAD={v:?}: the override takes a percent from 0 to 400 (0: the second launch after the first)"
    )))
}

/// The value of the variable `name` when it is set: one of `allowed`, or an
/// [`Error::Unsupported`] that names the variable and the values it takes.
fn env_override(name: &str, allowed: &[&str]) -> Result<Option<String>> {
    let takes = || {
        allowed
            .iter()
            .filter(|a| !a.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" or ")
    };
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(v) if allowed.contains(&v.as_str()) => Ok(Some(v)),
        Ok(v) => Err(Error::Unsupported(format!(
            "{name}={v}: the override takes {}",
            takes()
        ))),
        Err(std::env::VarError::NotUnicode(v)) => Err(Error::Unsupported(format!(
            "{name}={v:?}: the override takes {}",
            takes()
        ))),
    }
}

/// [`env_override`] of `name` over the names of `T`'s table ([`OverrideName::NAMES`]) and
/// `extra` (values the caller reads itself, `default` and the like).
fn named_override<T: OverrideName>(name: &str, extra: &[&str]) -> Result<Option<String>> {
    let allowed: Vec<&str> = (extra.iter().copied())
        .chain(T::NAMES.iter().map(|&(n, _)| n))
        .collect();
    env_override(name, &allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_overrides_take_their_values_or_name_the_variable() {
        // a variable of this test alone (the environment is shared by the test threads)
        let name = "CUTE_RS_TEST_OVERRIDE";
        // SAFETY: no other thread reads or writes this variable.
        unsafe { std::env::remove_var(name) };
        assert!(env_override(name, &["1", "2"]).unwrap().is_none());
        unsafe { std::env::set_var(name, "2") };
        assert_eq!(
            env_override(name, &["1", "2"]).unwrap().as_deref(),
            Some("2")
        );
        unsafe { std::env::set_var(name, "3") };
        let e = env_override(name, &["1", "2"]).unwrap_err().to_string();
        assert_eq!(
            e,
            "not supported: CUTE_RS_TEST_OVERRIDE=3: the override takes 1 or 2"
        );
        unsafe { std::env::remove_var(name) };
    }

    /// Each table's names, and the caller's extra values, pass [`named_override`] and read
    /// back as their values ([`OverrideName::from_name`], [`OverrideName::name`]); an unknown
    /// name is refused with the table's names listed.
    #[test]
    fn named_overrides_take_their_tables_names() {
        fn table<T: OverrideName + std::fmt::Debug>(extra: &[&str]) {
            // a variable of this test alone (the environment is shared by the test threads)
            let var = "CUTE_RS_TEST_NAMED_OVERRIDE";
            for &(name, value) in T::NAMES {
                // SAFETY: no other thread reads or writes this variable.
                unsafe { std::env::set_var(var, name) };
                let got = named_override::<T>(var, extra).unwrap();
                assert_eq!(got.as_deref().and_then(T::from_name), Some(value));
                assert_eq!(value.name(), name);
            }
            for &x in extra {
                unsafe { std::env::set_var(var, x) };
                assert_eq!(named_override::<T>(var, extra).unwrap().as_deref(), Some(x));
            }
            unsafe { std::env::set_var(var, "n999") };
            let e = named_override::<T>(var, extra).unwrap_err().to_string();
            assert!(e.contains(T::NAMES[0].0) && e.contains("n999"), "{e}");
            unsafe { std::env::remove_var(var) };
        }
        table::<HgemmSchedule>(&[]);
        table::<Fp8PromotedTile>(&["default", "block"]);
        table::<Fp8FastTile>(&["default"]);
        table::<Fp8BlockEntry>(&[]);
    }

    #[test]
    fn block_lead_override_takes_a_percent() {
        use std::env::VarError::NotPresent;
        assert_eq!(block_lead_override(Err(NotPresent)).unwrap(), None);
        assert_eq!(block_lead_override(Ok("0".into())).unwrap(), Some(0));
        assert_eq!(block_lead_override(Ok("125".into())).unwrap(), Some(125));
        for bad in ["401", "-1", "x", ""] {
            let e = block_lead_override(Ok(bad.into())).unwrap_err().to_string();
            assert!(
                e.contains("CUTE_RS_FP8_BLOCK_LEAD") && e.contains("percent"),
                "{e}"
            );
        }
    }

    #[test]
    fn block_split_override_takes_zero_or_multiples_of_128() {
        use std::env::VarError::NotPresent;
        assert_eq!(block_split_override(Err(NotPresent)).unwrap(), None);
        assert_eq!(block_split_override(Ok("0".into())).unwrap(), Some(0));
        assert_eq!(block_split_override(Ok("3840".into())).unwrap(), Some(3840));
        for bad in ["100", "-128", "x", ""] {
            let e = block_split_override(Ok(bad.into()))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("CUTE_RS_FP8_BLOCK_SPLIT") && e.contains("multiple of 128"),
                "{e}"
            );
        }
    }
}
