//! `host gemm`: one GEMM of your choice (`--m --n --k`: run, `--check`, `--bench`), or the
//! GEMM checks (`host run`'s rows; `--small`: CPU-reference cases only, for
//! compute-sanitizer), or every plan on the benchmark shapes (`--sweep`).

use clap::{Args, ValueEnum};

use host::{Activation, BiasMode, Context, GemmConfig, Plan, Tile, Trans};

use super::DeviceArg;
use super::bench::{FormatArgs, emit};
use super::progress::Bar;
use super::report::check_table;

/// Element type of the operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Dtype {
    /// fp32 in, fp32 accumulate (FFMA on CUDA cores, no TF32).
    F32,
    /// bf16 in, fp32 accumulate on the tensor cores (`kernels/hgemm`).
    Bf16,
    /// fp16 in, fp32 accumulate on the tensor cores (`kernels/hgemm`).
    F16,
    /// FP8 e4m3 A and B, both K-major (A M×K, B N×K), per-tensor scales (`--block-scales`:
    /// and block scales), D bf16 (or f32: `--out f32`), fp32 promotion every 4 wgmmas unless
    /// `--fast-accum` (issue #37).
    E4m3,
    /// FP8 e5m2, as e4m3 with `--fast-accum` only.
    E5m2,
}

/// The element C is stored as (bf16/fp16 inputs only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutArg {
    /// fp32.
    F32,
    /// The input element (bf16 or fp16).
    Same,
}

/// A bench timing of `--timing` ([`crate::bench::Timing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TimingArg {
    /// Interleaved ~20 ms batches with the reference's (sustained clocks).
    Sustained,
    /// 20 launches after a 1 s rest.
    Burst,
    /// One launch, then 100 back to back (CuTe's sm80 tutorial's timer).
    B2b,
    /// Each side alone for 4 s back to back, the second half timed (each at the clock its own
    /// draw allows; the windows on stderr).
    Soak,
}

impl From<TimingArg> for crate::bench::Timing {
    fn from(t: TimingArg) -> Self {
        match t {
            TimingArg::Sustained => crate::bench::Timing::Sustained,
            TimingArg::Burst => crate::bench::Timing::Burst,
            TimingArg::B2b => crate::bench::Timing::BackToBack,
            TimingArg::Soak => crate::bench::Timing::Soak,
        }
    }
}

/// The timings of `--bench`: those of `--timing`, or sustained then burst.
fn timings(args: &[TimingArg]) -> Vec<crate::bench::Timing> {
    use crate::bench::Timing;
    match args.is_empty() {
        true => vec![Timing::Sustained, Timing::Burst],
        false => args.iter().map(|&t| t.into()).collect(),
    }
}

/// A size or leading dimension: a non-negative integer (a clear message for `-3` or `x`).
fn parse_dim(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("`{s}`: the value must be a non-negative integer"))
}

/// A split-K depth: 1 (no split) or more.
fn parse_split(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(0) => {
            Err("0 k-slices is no GEMM: the split-K depth must be at least 1 (1: no split)".into())
        }
        Ok(v) => Ok(v),
        Err(_) => Err(format!(
            "`{s}`: the split-K depth must be a positive integer"
        )),
    }
}

/// `--bias`: where the fused epilogue's bias vector lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BiasArg {
    /// One value per row of C (M values).
    M,
    /// One value per column of C (N values).
    N,
}

/// `--act`: the fused epilogue's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ActArg {
    /// max(x, 0).
    Relu,
    /// GELU, tanh form.
    Gelu,
    /// GELU, erf form.
    GeluErf,
    /// x·sigmoid(x).
    Silu,
}

/// A CTA tile, as `--tile` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TileArg {
    /// 128×128×8, 256 threads.
    #[value(name = "128")]
    T128,
    /// 64×64×8, 64 threads.
    #[value(name = "64")]
    T64,
}

/// `host gemm [--m M --n N --k K [--ta] [--tb] ... [--check] [--bench]] | [--small] | [--sweep]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Column-major BLAS conventions: C(MxN) = alpha*op(A)*op(B) + beta*C. \
Without --m: the GEMM checks of `host run` (exit 1 if one fails)."
)]
pub struct GemmArgs {
    /// Rows of op(A) and C: run this problem.
    #[arg(long, value_name = "M", value_parser = parse_dim, allow_hyphen_values = true)]
    m: Option<usize>,
    /// Columns of op(B) and C (default: M).
    #[arg(long, value_name = "N", requires = "m", value_parser = parse_dim, allow_hyphen_values = true)]
    n: Option<usize>,
    /// Inner dimension (default: M).
    #[arg(long, value_name = "K", requires = "m", value_parser = parse_dim, allow_hyphen_values = true)]
    k: Option<usize>,
    /// A is stored transposed (K×M).
    #[arg(long, requires = "m")]
    ta: bool,
    /// B is stored transposed (N×K).
    #[arg(long, requires = "m")]
    tb: bool,
    /// Scale of op(A)·op(B).
    #[arg(
        long,
        default_value_t = 1.0,
        requires = "m",
        allow_negative_numbers = true
    )]
    alpha: f32,
    /// Scale of C.
    #[arg(
        long,
        default_value_t = 0.0,
        requires = "m",
        allow_negative_numbers = true
    )]
    beta: f32,
    /// Leading dimension of A (default: tight).
    #[arg(long, requires = "m", value_parser = parse_dim, allow_hyphen_values = true)]
    lda: Option<usize>,
    /// Leading dimension of B (default: tight).
    #[arg(long, requires = "m", value_parser = parse_dim, allow_hyphen_values = true)]
    ldb: Option<usize>,
    /// Leading dimension of C (default: M).
    #[arg(long, requires = "m", value_parser = parse_dim, allow_hyphen_values = true)]
    ldc: Option<usize>,
    /// Operand type.
    #[arg(long, value_enum, default_value_t = Dtype::F32)]
    dtype: Dtype,
    /// C's element with --dtype bf16|f16: the input element or f32 (FP8: `same` is bf16).
    #[arg(long, value_enum, default_value_t = OutArg::Same)]
    out: OutArg,
    /// FP8 (--dtype e4m3|e5m2): accumulate in the tensor core over all of K (no promotion into
    /// fp32 every 4 wgmmas; e5m2 needs it).
    #[arg(long)]
    fast_accum: bool,
    /// FP8 e4m3 with promotion: random block scales (1×128 along K for A's rows, 128×128 for
    /// B; DeepGEMM's layout) applied at each promotion.
    #[arg(long, conflicts_with = "fast_accum")]
    block_scales: bool,
    /// FP8: A's per-tensor scale.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    scale_a: f32,
    /// FP8: B's per-tensor scale.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    scale_b: f32,
    /// Fused epilogue (--ta --dtype bf16, bf16 C; or --dtype e4m3): add a random f32 bias
    /// vector along M or N.
    #[arg(long, value_enum, requires = "m")]
    bias: Option<BiasArg>,
    /// Fused epilogue (--ta --dtype bf16, bf16 C): C = act(alpha*op(A)*op(B) + beta*C + bias);
    /// --dtype e4m3: D = act(sa*sb*s_row*s_col*A*B^T + bias).
    #[arg(long, value_enum, requires = "m")]
    act: Option<ActArg>,
    /// FP8 e4m3 fused epilogue: random per-row scales of the product (M values, 1/4 to 1.75;
    /// torch._scaled_mm's row-wise scale_a).
    #[arg(long, requires = "m")]
    row_scales: bool,
    /// FP8 e4m3 fused epilogue: random per-column scales of the product (N values; scale_b).
    #[arg(long, requires = "m")]
    col_scales: bool,
    /// The bf16/fp16 kernel: `auto` (Hopper's where it is loaded, else the Ampere one),
    /// `sm90` (TMA + wgmma) or `sm80` (mma.sync + ldmatrix + cp.async; runs on Hopper too).
    #[arg(long, value_name = "KERNEL", default_value = "auto", value_parser = ["auto", "sm90", "sm80"])]
    kernel: String,
    /// Force the CTA tile (default: chosen by size).
    #[arg(long, value_enum, requires = "m")]
    tile: Option<TileArg>,
    /// Force the split-K depth (default: chosen by size).
    #[arg(long, value_name = "S", requires = "m", value_parser = parse_split)]
    split: Option<u32>,
    /// Compare with an f64 CPU reference (small problems) or cuBLAS; exit 1 on a mismatch.
    #[arg(long, requires = "m")]
    check: bool,
    /// Time ours and cuBLAS on the same buffers, in turn (ours, cuBLAS, ours, ...): median of each.
    #[arg(long, requires = "m")]
    bench: bool,
    /// With --bench: the timings, comma-separated (default sustained,burst;
    /// `b2b` times as CuTe's sm80 tutorial does: one launch, then 100 back to back;
    /// `soak` runs each side alone for 4 s, its window on stderr for a clock and power reading).
    #[arg(long, value_enum, value_delimiter = ',', requires = "bench")]
    timing: Vec<TimingArg>,
    /// With --bench, --dtype f16 --ta: time ours against CuTe's sm80 tutorial GEMM loaded from
    /// this PTX (its binary's `cuobjdump -xptx`; tools/gpu/ampere/b2b-vs-tutorial.sh) instead of
    /// cuBLAS.
    #[arg(long, value_name = "FILE.ptx", requires = "bench")]
    vs_tutorial: Option<std::path::PathBuf>,
    #[command(flatten)]
    format: FormatArgs,
    /// GEMM checks with the CPU reference only (for compute-sanitizer).
    #[arg(long, conflicts_with_all = ["m", "sweep"])]
    small: bool,
    /// Every plan (tile × split-K × launch bounds) on the benchmark shapes.
    #[arg(long, conflicts_with = "m")]
    sweep: bool,
    #[command(flatten)]
    device: DeviceArg,
}

impl GemmArgs {
    /// The problem given by `--m ...`, if any.
    fn problem(&self) -> Option<GemmConfig> {
        let m = self.m?;
        let t = |b: bool| if b { Trans::T } else { Trans::N };
        let mut g = GemmConfig::new(m, self.n.unwrap_or(m), self.k.unwrap_or(m))
            .trans(t(self.ta), t(self.tb))
            .alpha(self.alpha)
            .beta(self.beta);
        g.lda = self.lda.unwrap_or(g.lda);
        g.ldb = self.ldb.unwrap_or(g.ldb);
        g.ldc = self.ldc.unwrap_or(g.ldc);
        if let Some(b) = self.bias {
            g = g.bias(match b {
                BiasArg::M => BiasMode::M,
                BiasArg::N => BiasMode::N,
            });
        }
        if let Some(a) = self.act {
            g = g.act(match a {
                ActArg::Relu => Activation::Relu,
                ActArg::Gelu => Activation::Gelu,
                ActArg::GeluErf => Activation::GeluErf,
                ActArg::Silu => Activation::Silu,
            });
        }
        Some(g)
    }
    /// The plan: chosen by size, with `--tile` / `--split` applied.
    fn plan(&self, ctx: &Context, g: &GemmConfig) -> Plan {
        let mut plan = ctx.gemm_plan(g);
        if let Some(t) = self.tile {
            plan.tile = match t {
                TileArg::T128 => Tile::M128N128K8,
                TileArg::T64 => Tile::M64N64K8,
            };
        }
        if let Some(s) = self.split {
            plan.split = s.max(1);
        }
        plan
    }
}

/// Runs it; the exit code.
pub fn main(a: &GemmArgs) -> u8 {
    if matches!(a.dtype, Dtype::E4m3 | Dtype::E5m2) {
        return main_fp8(a);
    }
    if a.row_scales || a.col_scales {
        eprintln!(
            "host gemm: --row-scales/--col-scales are the fused epilogue of the FP8 GEMM (--dtype e4m3)"
        );
        return 2;
    }
    if a.dtype != Dtype::F32 {
        return main_half(a);
    }
    let problem = a.problem();
    if let Some(g) = &problem {
        // Argument errors are usage errors, with or without a GPU.
        let (na, nb, nc) = g.lens();
        if let Err(e) = g.check_finite().and_then(|()| g.validate(na, nb, nc)) {
            eprintln!("host gemm: {e}");
            return 2;
        }
        if g.is_fused() {
            eprintln!("host gemm: --bias and --act are the fused epilogue of --dtype bf16|f16");
            return 2;
        }
    }
    let ctx = match super::open("gemm", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    let Some(g) = problem else {
        if a.sweep {
            let mut bar = Bar::new("sweep");
            let r = crate::bench::gemm_sweep(&ctx, &mut bar, &mut |l| println!("{l}"));
            bar.finish();
            return r.map_or_else(|e| super::fail("gemm --sweep", &e), |()| 0);
        }
        let rows = crate::check::gemm(&ctx, a.small);
        print!("{}", check_table(&rows));
        return u8::from(rows.iter().any(|r| !r.pass));
    };
    let plan = a.plan(&ctx, &g);
    println!(
        "problem: {g} alpha={} beta={} lda={} ldb={} ldc={}",
        g.alpha, g.beta, g.lda, g.ldb, g.ldc
    );
    println!("plan: {plan}");
    let mut code = 0;
    if a.check {
        match crate::check::gemm_problem(&ctx, &g, Some(plan)) {
            Ok(row) => {
                print!("{}", check_table(std::slice::from_ref(&row)));
                code = u8::from(!row.pass);
            }
            Err(e) => return super::fail("gemm --check", &e),
        }
    }
    if a.bench {
        let r = host::Cublas::new(&ctx, ctx.default_stream())
            .and_then(|blas| crate::bench::gemm_problem(&ctx, &blas, &g, Some(plan)));
        match r {
            Ok(row) => {
                let c = emit(std::slice::from_ref(&row), &a.format, None, false);
                code = code.max(c);
            }
            Err(e) => return super::fail("gemm --bench", &e),
        }
    }
    if !a.check && !a.bench {
        match run_once(&ctx, &g, plan) {
            Ok(ms) => println!(
                "time: {ms:.3} ms, {:.2} TFLOP/s",
                g.flops() / (ms as f64 * 1e9)
            ),
            Err(e) => return super::fail("gemm", &e),
        }
    }
    code
}

/// One launch on zeroed operands (after a warm-up); its GPU time in ms.
fn run_once(ctx: &Context, g: &GemmConfig, plan: Plan) -> host::Result<f32> {
    let s = ctx.default_stream();
    // (allocation failures are driver errors, not panics)
    let (na, nb, nc) = g.lens();
    let a = s.alloc_zeros::<f32>(na)?;
    let b = s.alloc_zeros::<f32>(nb)?;
    let mut c = s.alloc_zeros::<f32>(nc)?;
    ctx.sgemm_with_plan(&s, plan, g, &a, &b, &mut c)?;
    let flags = Some(host::cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = s.record_event(flags)?;
    ctx.sgemm_with_plan(&s, plan, g, &a, &b, &mut c)?;
    let end = s.record_event(flags)?;
    Ok(start.elapsed_ms(&end)?)
}

/// `--dtype bf16|f16`: the tensor-core GEMM (`kernels/hgemm`), checked and timed against
/// cuBLAS GemmEx.
/// `host gemm --dtype e4m3|e5m2`: one FP8 problem (`--m --n --k`, D bf16 or `--out f32`:
/// run, `--check` against the f64 product of the dequantized inputs, `--bench` against
/// cuBLASLt's FP8 matmul), or without `--m` the FP8 sweep of `host run`.
fn main_fp8(a: &GemmArgs) -> u8 {
    use crate::bench::gemm_fp8::Fp8Mode;
    use host::gemm_fp8::{Fp8, GemmFp8Config};
    let t = if a.dtype == Dtype::E4m3 {
        Fp8::E4M3
    } else {
        Fp8::E5M2
    };
    let problem = a.m.map(|m| {
        let (n, k) = (a.n.unwrap_or(m), a.k.unwrap_or(m));
        // the fused epilogue: --bias, --act as the 16-bit GEMM's, and the row/column scales
        let lin = a.problem().unwrap_or_else(|| GemmConfig::new(m, n, k));
        GemmFp8Config::new(m, n, k, t)
            .scales(a.scale_a, a.scale_b)
            .fast_accum(a.fast_accum)
            .bias(lin.bias)
            .act(lin.act)
            .row_col_scales(a.row_scales, a.col_scales)
    });
    if let Some(g) = &problem {
        if let Err(e) = g.check(g.m * g.k, g.n * g.k, g.m * g.n) {
            eprintln!("host gemm: {e}");
            return 2;
        }
        if a.block_scales && t != Fp8::E4M3 {
            eprintln!("host gemm: --block-scales needs promotion, built for --dtype e4m3");
            return 2;
        }
        if a.ta || a.tb || a.lda.is_some() || a.ldb.is_some() {
            eprintln!(
                "host gemm: the FP8 GEMM takes A (M×K) and B (N×K) K-major and tight, no --ta/--tb/--lda/--ldb"
            );
            return 2;
        }
        // (these were ignored: the FP8 configuration has no alpha, beta or ldc)
        if a.ldc.is_some() || a.alpha != 1.0 || a.beta != 0.0 {
            eprintln!(
                "host gemm: the FP8 GEMM writes D = scale_a·scale_b·A·Bᵀ (M×N, column-major, tight): no --ldc/--alpha/--beta (the scales are --scale-a/--scale-b)"
            );
            return 2;
        }
        if a.bench
            && g.is_fused()
            && (g.bias, g.act, g.row_scales || g.col_scales)
                != (BiasMode::M, Activation::Gelu, false)
        {
            eprintln!(
                "host gemm: --bench of the fused FP8 GEMM times --bias m --act gelu (cuBLASLt's GELU_BIAS epilogue), without row/column scales"
            );
            return 2;
        }
        if a.vs_tutorial.is_some() {
            eprintln!(
                "host gemm: --vs-tutorial: the tutorial's half GEMM is --dtype f16, f16 C (the FP8 GEMM's --bench is against cuBLASLt)"
            );
            return 2;
        }
        if g.is_fused() && a.block_scales {
            eprintln!(
                "host gemm: the fused FP8 epilogue (--bias/--act/--row-scales/--col-scales) runs with per-tensor scales, not --block-scales"
            );
            return 2;
        }
    }
    let ctx = match super::open("gemm", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    let Some(g) = problem else {
        let rows = crate::check::gemm_fp8::sweep(
            &ctx,
            crate::check::DEFAULT_SEED,
            crate::check::FP8_SWEEP,
        );
        print!("{}", check_table(&rows));
        return u8::from(rows.iter().any(|r| !r.pass));
    };
    println!(
        "problem: {g} -> {}",
        if a.out == OutArg::F32 { "f32" } else { "bf16" }
    );
    let mut code = 0;
    if a.check || !a.bench {
        if a.check && g.flops() > 2e10 {
            eprintln!(
                "host gemm: --check of the FP8 GEMM compares with an f64 CPU product: at most 1e10 multiply-adds (M·N·K)"
            );
            return 2;
        }
        let s = ctx.default_stream();
        let mut rng = crate::check::Rng::new(crate::check::DEFAULT_SEED);
        let bs = a.block_scales;
        let row = if g.is_fused() {
            if a.out == OutArg::F32 {
                crate::check::gemm_fp8::check_problem_fused::<f32>(&ctx, &s, &g, &mut rng)
            } else {
                crate::check::gemm_fp8::check_problem_fused::<host::half::bf16>(
                    &ctx, &s, &g, &mut rng,
                )
            }
        } else if a.out == OutArg::F32 {
            crate::check::gemm_fp8::check_problem_scaled::<f32>(&ctx, &s, &g, bs, &mut rng)
        } else {
            crate::check::gemm_fp8::check_problem_scaled::<host::half::bf16>(
                &ctx, &s, &g, bs, &mut rng,
            )
        };
        match row {
            Ok(row) => {
                print!("{}", check_table(std::slice::from_ref(&row)));
                code = u8::from(!row.pass);
            }
            Err(e) => return super::fail("gemm", &e),
        }
    }
    if a.bench {
        let mode = match (a.fast_accum, a.block_scales) {
            (true, _) => Fp8Mode::Fast,
            // the bench's fused row: cuBLASLt's GELU_BIAS (checked above)
            _ if g.is_fused() => Fp8Mode::BiasGelu,
            (false, false) => Fp8Mode::Promoted,
            (false, true) => Fp8Mode::Block,
        };
        // both timings by default, as the 16-bit GEMM's
        let case = (t, mode, (g.m, g.n, g.k));
        let r = timings(&a.timing)
            .into_iter()
            .map(|timing| crate::bench::gemm_fp8::bench(&ctx, &[case], timing, &mut ()))
            .collect::<host::Result<Vec<_>>>();
        match r {
            Ok(rows) => code = code.max(emit(&rows.concat(), &a.format, None, false)),
            Err(e) => return super::fail("gemm --bench", &e),
        }
    }
    code.max(write_cta_trace(&ctx))
}

/// `CUTE_RS_CTA_TRACE=FILE`: the CTA trace of a measuring build (`Context::cta_trace`) written
/// to FILE (its modules' words, little-endian, one module after the other: the counter word
/// then the ring), one line saying how many records; nothing without the variable. A build
/// without the trace or a file that cannot be written: a line on stderr, exit code 2.
fn write_cta_trace(ctx: &Context) -> u8 {
    let Some(path) = std::env::var_os("CUTE_RS_CTA_TRACE") else {
        return 0;
    };
    let trace = match ctx.cta_trace() {
        Ok(t) => t,
        Err(e) => return super::fail("gemm (CUTE_RS_CTA_TRACE)", &e),
    };
    if trace.is_empty() {
        eprintln!(
            "host gemm: CUTE_RS_CTA_TRACE: no loaded module holds a CTA trace (kernels built with CUTE_RS_KERNEL_FEATURES=hgemm/cta-trace or hgemm_fp8/cta-trace)"
        );
        return 2;
    }
    let bytes: Vec<u8> = trace
        .iter()
        .flat_map(|(_, w)| w.iter().flat_map(|x| x.to_le_bytes()))
        .collect();
    if let Err(e) = std::fs::write(&path, bytes) {
        eprintln!(
            "host gemm: CUTE_RS_CTA_TRACE: {}: {e}",
            path.to_string_lossy()
        );
        return 2;
    }
    for (family, w) in &trace {
        println!(
            "cta trace: {family}: {} records -> {}",
            w.first().map_or(0, |&c| c as u32),
            path.to_string_lossy()
        );
    }
    0
}

fn main_half(a: &GemmArgs) -> u8 {
    let dtype = if a.dtype == Dtype::Bf16 {
        "bf16"
    } else {
        "f16"
    };
    let out = if a.out == OutArg::F32 { "f32" } else { dtype };
    let Some(mut g) = a.problem() else {
        let ctx = match super::open("gemm", a.device.device) {
            Ok(c) => c,
            Err(code) => return code,
        };
        println!("device: {}", ctx.device());
        let rows = crate::check::hgemm_with(
            &ctx,
            crate::check::DEFAULT_SEED,
            if a.small { 0 } else { 20 },
            a.kernel(),
        );
        print!("{}", check_table(&rows));
        return u8::from(rows.iter().any(|r| !r.pass));
    };
    if a.tile.is_some() || a.split.is_some() {
        eprintln!(
            "host gemm: --tile and --split are the fp32 GEMM's; the {dtype} GEMM has one plan"
        );
        return 2;
    }
    g.kernel = a.kernel();
    // TMA and cp.async need 16-byte strides: tight leading dimensions round up to 8 elements
    if a.lda.is_none() {
        g.lda = g.lda.next_multiple_of(8);
    }
    if a.ldb.is_none() {
        g.ldb = g.ldb.next_multiple_of(8);
    }
    let (na, nb, nc) = g.lens();
    if let Err(e) = g.check_finite().and_then(|()| {
        if g.kernel == host::GemmKernel::Sm80 {
            host::hgemm_sm80::hgemm_sm80_check(&g, (na, nb, nc), (0, 0))
        } else {
            host::hgemm::hgemm_check(&g, (na, nb, nc), (0, 0))
        }
    }) {
        eprintln!("host gemm: {e}");
        return 2;
    }
    if g.is_fused() && (dtype != "bf16" || out != "bf16") {
        eprintln!(
            "host gemm: the fused epilogue (--bias/--act) is --dtype bf16 with a bf16 C only"
        );
        return 2;
    }
    if a.vs_tutorial.is_some() {
        let e = match (dtype, out) {
            ("f16", "f16") => crate::bench::tutorial_sm80::TutorialSm80::check(&g)
                .err()
                .map(|e| e.to_string()),
            _ => Some("--vs-tutorial: the tutorial's half GEMM is --dtype f16, f16 C".into()),
        };
        if let Some(e) = e {
            eprintln!("host gemm: {e}");
            return 2;
        }
    }
    let ctx = match super::open("gemm", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    println!(
        "problem: {g} {dtype}->{out} alpha={} beta={} lda={} ldb={} ldc={}",
        g.alpha, g.beta, g.lda, g.ldb, g.ldc
    );
    if ctx.hgemm_uses_sm80(&g) {
        println!("kernel: {}", host::hgemm_sm80::HgemmSm80Kernel);
    } else {
        println!("kernel: {}", ctx.hgemm_schedule(&g).describe());
    }
    let mut code = 0;
    if a.check {
        match crate::check::hgemm_problem(&ctx, &g, dtype, out, 1) {
            Ok(row) => {
                print!("{}", check_table(std::slice::from_ref(&row)));
                code = u8::from(!row.pass);
            }
            Err(e) => return super::fail("gemm --check", &e),
        }
    }
    if a.bench || !a.check {
        // both timings (issue #34): sustained interleaved batches, and bursts after a rest
        use crate::bench::{hgemm_problem_timed, tutorial_sm80};
        let timings = timings(&a.timing);
        let r = match &a.vs_tutorial {
            Some(ptx) => tutorial_sm80::TutorialSm80::load(&ctx, ptx).and_then(|tut| {
                timings
                    .iter()
                    .map(|&t| tutorial_sm80::bench(&ctx, &tut, &g, t))
                    .collect::<host::Result<Vec<_>>>()
            }),
            None => host::Cublas::new(&ctx, ctx.default_stream()).and_then(|blas| {
                timings
                    .iter()
                    .map(|&t| hgemm_problem_timed(&ctx, &blas, &g, dtype, out, t))
                    .collect::<host::Result<Vec<_>>>()
            }),
        };
        match r {
            Ok(rows) => {
                let c = emit(&rows, &a.format, None, false);
                code = code.max(c);
            }
            Err(e) => return super::fail("gemm --bench", &e),
        }
    }
    code.max(write_cta_trace(&ctx))
}

impl GemmArgs {
    /// `--kernel` (its values are checked by clap).
    fn kernel(&self) -> host::GemmKernel {
        self.kernel.parse().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_split_say_what_is_wrong() {
        assert!(
            parse_dim("-3")
                .unwrap_err()
                .contains("must be a non-negative integer")
        );
        assert_eq!(parse_dim("12"), Ok(12));
        assert!(parse_split("0").unwrap_err().contains("at least 1"));
        assert_eq!(parse_split("4"), Ok(4));
    }
}
