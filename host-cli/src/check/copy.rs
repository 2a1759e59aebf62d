//! Tiled copies and transposes (`host::copy`), bit-exact on awkward shapes, through the
//! public entry points.

use std::sync::Arc;

use host::cudarc::driver::CudaStream;

use super::{CheckRow, Rng};
use crate::timing::timed;
use host::context::Context;
use host::copy::{CopyConfig, Element, Order, VARIANTS, Variant};
use host::error::{Error, Result};

/// The awkward shapes every variant is checked on.
const SHAPES: [(usize, usize); 8] = [
    (1, 1),
    (4097, 1023),
    (1, 4099),
    (3001, 1),
    (64, 128),
    (128, 64),
    (257, 255),
    (2048, 2048),
];

/// One case: random bits in, sentinel-filled output; every element inside the matrix must
/// match the source, every padding element must still hold the sentinel.
fn check_typed<T>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    v: &Variant,
    (m, n): (usize, usize),
    random: impl Fn(&mut Rng) -> T,
    sentinel: T,
) -> Result<CheckRow>
where
    T: Element + Copy + PartialEq,
{
    let (lds, ldd) = v.lds_ldd(m, n);
    let (rows_s, rows_d) = match (v.transpose, v.order) {
        (Some(_), _) => (m, n),
        (None, Order::ColMajor) => (n, n),
        (None, Order::RowMajor) => (m, m),
    };
    let (ns, nd) = ((rows_s * lds).max(1), (rows_d * ldd).max(1));
    let mut rng = Rng::new((m * 131 + n) as u64 ^ (v.kernel.len() as u64) << 40);
    let host: Vec<T> = (0..ns).map(|_| random(&mut rng)).collect();
    let src = s.clone_htod(&host)?;
    let mut dst = s.clone_htod(&vec![sentinel; nd])?;
    let ms = timed(s, || {
        ctx.run_variant(s, v, (m, n, lds, ldd), &src, &mut dst)
    })?;
    let got = s.clone_dtoh(&dst)?;
    let col = v.order == Order::ColMajor;
    let mut inside = vec![false; nd];
    let mut bad = 0usize;
    for r in 0..m {
        for c in 0..n {
            let si = if col { r + c * lds } else { r * lds + c };
            // B[c][r] for the transpose and (r, c) column-major: the same offset.
            let di = if v.transpose.is_some() || col {
                r + c * ldd
            } else {
                r * ldd + c
            };
            inside[di] = true;
            if got[di] != host[si] {
                bad += 1;
            }
        }
    }
    let clobbered = inside
        .iter()
        .zip(&got)
        .filter(|&(&ins, g)| !ins && *g != sentinel)
        .count();
    let bytes = 2 * m * n * v.elem;
    let mut note = format!("lds={lds} ldd={ldd}");
    if ms > 0.0 && bytes >= 1 << 20 {
        note += &format!(" {:.0} GB/s", bytes as f64 / (ms as f64 * 1e6));
    }
    if clobbered > 0 {
        note += &format!(" {clobbered} padding elements overwritten");
    }
    Ok(CheckRow {
        kernel: v.kernel,
        shape: format!("{m}x{n}"),
        pass: bad == 0 && clobbered == 0,
        max_err: if bad == 0 { 0.0 } else { f64::NAN },
        mismatches: bad + clobbered,
        ms,
        note,
    })
}

fn check_one(
    ctx: &Context,
    s: &Arc<CudaStream>,
    v: &Variant,
    shape: (usize, usize),
) -> Result<CheckRow> {
    match v.elem {
        4 => check_typed(ctx, s, v, shape, Rng::next_u32, 0xDEAD_BEEFu32),
        _ => check_typed(ctx, s, v, shape, |r| r.next_u32() as u16, 0xBEEFu16),
    }
}

/// A 128-bit copy from a base 4 bytes off alignment: must be refused before launch.
fn check_refusal(ctx: &Context, s: &Arc<CudaStream>) -> CheckRow {
    let r = (|| -> Result<()> {
        let src = s.alloc_zeros::<f32>(64 * 128 + 4)?;
        let mut dst = s.alloc_zeros::<f32>(64 * 128 + 4)?;
        let cfg = CopyConfig::new(Order::RowMajor, 64, 128);
        ctx.tiled_copy(s, &cfg, &src.slice(1..), &mut dst)?;
        s.synchronize()?;
        Ok(())
    })();
    let (pass, note) = match r {
        Err(e @ Error::Misaligned { .. }) => (true, format!("refused before launch: {e}")),
        Err(e) => (false, format!("unexpected error: {e}")),
        Ok(()) => (false, "a misaligned 128-bit copy was launched".into()),
    };
    CheckRow {
        kernel: "tiled_copy_row_f32_v4",
        shape: "src+4 bytes".into(),
        pass,
        max_err: 0.0,
        mismatches: usize::from(!pass),
        ms: 0.0,
        note,
    }
}

/// A TMA copy from a base 4 bytes off alignment: refused by the tensor-map checks before any
/// driver call.
fn check_tma_refusal(ctx: &Context, s: &Arc<CudaStream>) -> CheckRow {
    let r = (|| -> Result<()> {
        let src = s.alloc_zeros::<f32>(64 * 128 + 4)?;
        let mut dst = s.alloc_zeros::<f32>(64 * 128 + 4)?;
        let cfg =
            CopyConfig::new(Order::RowMajor, 64, 128).instruction(host::copy::CopyInstruction::Tma);
        ctx.tiled_copy(s, &cfg, &src.slice(1..), &mut dst)?;
        s.synchronize()?;
        Ok(())
    })();
    let (pass, note) = match r {
        Err(e @ Error::Tma(host::tma::TmaError::Misaligned { .. })) => {
            (true, format!("refused before launch: {e}"))
        }
        Err(e) => (false, format!("unexpected error: {e}")),
        Ok(()) => (false, "a misaligned TMA copy was launched".into()),
    };
    CheckRow {
        kernel: "tma_copy_row_b4",
        shape: "src+4 bytes".into(),
        pass,
        max_err: 0.0,
        mismatches: usize::from(!pass),
        ms: 0.0,
        note,
    }
}

/// Every variant on every shape, then the misaligned refusals.
pub(super) fn checks(ctx: &Context) -> Vec<CheckRow> {
    let mut rows = checks_for(ctx, |_| true);
    let s = &ctx.default_stream();
    rows.push(check_refusal(ctx, s));
    match super::unavailable(ctx, "tma_copy_row_b4", "tma_copy_row_b4") {
        Some(skip) => rows.extend(skip),
        None => rows.push(check_tma_refusal(ctx, s)),
    }
    rows
}

/// The TMA copies on every shape, then the misaligned-TMA refusal.
pub(super) fn tma_checks(ctx: &Context) -> Vec<CheckRow> {
    let mut rows = checks_for(ctx, |v| v.instruction == host::copy::CopyInstruction::Tma);
    rows.push(check_tma_refusal(ctx, &ctx.default_stream()));
    rows
}

/// The variants `keep` selects on every shape.
fn checks_for(ctx: &Context, keep: impl Fn(&Variant) -> bool) -> Vec<CheckRow> {
    let s = &ctx.default_stream();
    let mut rows = Vec::new();
    for v in VARIANTS.iter().filter(|v| keep(v)) {
        if let Some(skip) = super::unavailable(ctx, v.kernel, v.kernel) {
            rows.extend(skip);
            continue;
        }
        for &(m, n) in &SHAPES {
            rows.push(
                check_one(ctx, s, v, (m, n)).unwrap_or_else(|e| {
                    CheckRow::failed(v.kernel, format!("{m}x{n}"), e.to_string())
                }),
            );
        }
    }
    rows
}
