//! The attention reference (`tests/kernels/attention_ref`) on the emulator, launched as
//! `host-cli/src/reference/attention_gpu.rs` launches it (grid `(seqlen_q, heads, batch)`, shared
//! memory `4·(32 + d + seqlen_k)`; 64 threads here, 128 there), against `host`'s f64 CPU
//! reference within the reference's own error bound (`reference::o_bound` without 16-bit
//! rounding); the element-typed output at O's strides equal to the f32 one rounded, O's
//! padding untouched.

use device::emu::launch;
use kernels_emu::attention_ref::{self as ar, Bf16, Elem, F16};
use kernels_emu::check::Rng;
use kernels_emu::report;

use crate::problem::{AttentionProblem, Causal};
use crate::reference::{Rounding, RowMagnitudes, attention_cpu, lse_bound, o_bound, rows};

/// Tight strides of a (batch, seqlen, heads, d) tensor, padded by `pad` elements per token and
/// head (varlen: batch stride 0).
fn strides(seqlen: usize, heads: usize, d: usize, pad: usize, varlen: bool) -> [i64; 3] {
    let sh = (d + pad) as i64;
    let st = heads as i64 * sh + pad as i64;
    [if varlen { 0 } else { seqlen as i64 * st }, st, sh]
}

#[allow(clippy::too_many_arguments)]
fn problem(
    batch: usize,
    hq: usize,
    hkv: usize,
    d: usize,
    sq: usize,
    sk: usize,
    causal: Option<Causal>,
    cu: Option<(Vec<i32>, Vec<i32>)>,
    pad: usize,
) -> AttentionProblem {
    let varlen = cu.is_some();
    let (cq, ck) = cu.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    AttentionProblem {
        batch,
        heads_q: hq,
        heads_kv: hkv,
        head_dim: d,
        seqlen_q: sq,
        seqlen_k: sk,
        cu_seqlens_q: cq,
        cu_seqlens_k: ck,
        q_stride: strides(sq, hq, d, pad, varlen),
        k_stride: strides(sk, hkv, d, pad, varlen),
        v_stride: strides(sk, hkv, d, 2 * pad, varlen),
        o_stride: strides(sq, hq, d, pad, varlen),
        causal,
        scale: 1.0 / (d as f32).sqrt(),
    }
}

/// Elements a tensor with strides `s` spans.
fn span(s: [i64; 3], batches: usize, tokens: usize, heads: usize, d: usize) -> usize {
    ((batches as i64 - 1) * s[0] + (tokens as i64 - 1) * s[1] + (heads as i64 - 1) * s[2]) as usize
        + d
}

/// Runs the entry on `p` and compares with the CPU reference of `cpu_p` (`p` itself, or a
/// wrong problem to show that the comparison catches it).
fn run<E: Elem>(
    p: &AttentionProblem,
    cpu_p: &AttentionProblem,
    seed: u64,
    sharp: f32,
) -> Result<(), String> {
    let d = p.head_dim;
    let varlen = p.cu_seqlens_q.is_some();
    let (bq, tq, bk, tk) = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(a), Some(b)) => (
            1,
            *a.last().unwrap() as usize,
            1,
            *b.last().unwrap() as usize,
        ),
        _ => (p.batch, p.seqlen_q, p.batch, p.seqlen_k),
    };
    let (nq, nk, nv, no) = (
        span(p.q_stride, bq, tq, p.heads_q, d),
        span(p.k_stride, bk, tk, p.heads_kv, d),
        span(p.v_stride, bk, tk, p.heads_kv, d),
        span(p.o_stride, bq, tq, p.heads_q, d),
    );
    // values k/8, k in -8..=8 (times `sharp` for Q): exact in bf16 and fp16
    let mut rng = Rng(seed);
    let mut draw = |n: usize, amp: f32| -> (Vec<u16>, Vec<f32>) {
        let bits: Vec<u16> = (0..n)
            .map(|_| E::from_f32(amp * (rng.next_u64() % 17) as f32 / 8.0 - amp))
            .collect();
        let vals = bits.iter().map(|&b| E::to_f32(b)).collect();
        (bits, vals)
    };
    let (q, qf) = draw(nq, sharp);
    let (k, kf) = draw(nk, 1.0);
    let (v, vf) = draw(nv, 1.0);
    let rs = rows(p);
    let n_rows = rs.iter().map(|r| r.ref_at / d + 1).max().unwrap_or(0);
    let mut o32 = vec![f32::NAN; n_rows * d];
    let mut absw = vec![f32::NAN; n_rows * d];
    let mut rmax = vec![f32::NAN; n_rows];
    let n_lse = rs.iter().map(|r| r.lse_at + 1).max().unwrap_or(0);
    let mut lse = vec![f32::NAN; n_lse];
    const GUARD: u16 = 0x7e55;
    let mut o16 = vec![GUARD; no + 8];
    let total_q = p.cu_seqlens_q.as_ref().map_or(0, |c| *c.last().unwrap()) as u32;
    let cu_q = p.cu_seqlens_q.clone().unwrap_or_default();
    let cu_k = p.cu_seqlens_k.clone().unwrap_or_default();
    let ptr = |v: &[i32]| if varlen { v.as_ptr() as usize } else { 0 };
    let (pcq, pck) = (ptr(&cu_q), ptr(&cu_k));
    let (pq, pk, pv) = (
        q.as_ptr() as usize,
        k.as_ptr() as usize,
        v.as_ptr() as usize,
    );
    let outs = [
        o32.as_mut_ptr() as usize,
        o16.as_mut_ptr() as usize,
        lse.as_mut_ptr() as usize,
        absw.as_mut_ptr() as usize,
        rmax.as_mut_ptr() as usize,
    ];
    let [qs, ks, vs, os] = [p.q_stride, p.k_stride, p.v_stride, p.o_stride];
    let causal = match p.causal {
        None => 0,
        Some(Causal::TopLeft) => 1,
        Some(Causal::BottomRight) => 2,
    };
    let entry = if core::any::type_name::<E>().ends_with("Bf16") {
        ar::attention_ref_bf16
    } else {
        ar::attention_ref_f16
    };
    let smem = 4 * (32 + d + p.seqlen_k) as u32;
    // SAFETY: every buffer holds what the problem addresses (spans computed above) and
    // outlives the launch; the CTA writes only its own row's elements.
    unsafe {
        launch(
            (p.seqlen_q as u32, p.heads_q as u32, p.batch as u32),
            (64, 1, 1),
            smem,
            || {
                entry(
                    pq as *const u16,
                    pk as *const u16,
                    pv as *const u16,
                    outs[0] as *mut f32,
                    outs[1] as *mut u16,
                    outs[2] as *mut f32,
                    outs[3] as *mut f32,
                    outs[4] as *mut f32,
                    pcq as *const i32,
                    pck as *const i32,
                    p.heads_q as u32,
                    p.heads_kv as u32,
                    d as u32,
                    p.seqlen_q as u32,
                    p.seqlen_k as u32,
                    total_q,
                    qs[0],
                    qs[1],
                    qs[2],
                    ks[0],
                    ks[1],
                    ks[2],
                    vs[0],
                    vs[1],
                    vs[2],
                    os[0],
                    os[1],
                    os[2],
                    causal,
                    p.scale,
                )
            },
        )
    };
    let cpu = attention_cpu(cpu_p, &qf, &kf, &vf);
    let mut written = vec![false; o16.len()];
    for r in &rs {
        let mag = RowMagnitudes {
            d,
            n: r.n,
            rmax: cpu.rmax[r.ref_at / d],
        };
        let what = || format!("row b{} h{} i{} (n {})", r.b, r.h, r.i, r.n);
        for c in 0..d {
            let i = r.ref_at + c;
            let bound = o_bound(Rounding::NONE, false, &mag, cpu.absw[i], 1.0);
            let err = (f64::from(o32[i]) - cpu.o[i]).abs();
            if err.is_nan() || err > bound {
                return Err(format!(
                    "{} c{c}: O {} vs CPU {} (bound {bound:.2e})",
                    what(),
                    o32[i],
                    cpu.o[i]
                ));
            }
            let ea = (f64::from(absw[i]) - cpu.absw[i]).abs();
            if ea.is_nan() || ea > 1e-5 * cpu.absw[i].max(1e-30) {
                return Err(format!(
                    "{} c{c}: absw {} vs {}",
                    what(),
                    absw[i],
                    cpu.absw[i]
                ));
            }
            let at = r.o as usize + c;
            written[at] = true;
            if o16[at] != E::from_f32(o32[i]) {
                return Err(format!(
                    "{} c{c}: O at its strides is not O rounded",
                    what()
                ));
            }
        }
        let (g, w) = (f64::from(lse[r.lse_at]), cpu.lse[r.lse_at]);
        let ok = if r.n == 0 {
            g == f64::INFINITY && w == f64::INFINITY
        } else {
            (g - w).abs() <= lse_bound(false, &mag)
                && (f64::from(rmax[r.ref_at / d]) - mag.rmax).abs() <= 1e-5 * mag.rmax.max(1e-30)
        };
        if !ok {
            return Err(format!("{}: LSE {g} vs CPU {w}", what()));
        }
    }
    if let Some(i) = (0..o16.len()).find(|&i| !written[i] && o16[i] != GUARD) {
        return Err(format!("O padding element {i} written"));
    }
    Ok(())
}

#[test]
fn attention_ref() {
    let (tl, br) = (Some(Causal::TopLeft), Some(Causal::BottomRight));
    let cases: Vec<(bool, AttentionProblem, f32)> = vec![
        (true, problem(1, 1, 1, 64, 1, 1, None, None, 0), 1.0),
        (false, problem(2, 2, 1, 64, 3, 7, tl, None, 8), 3.0),
        (true, problem(1, 2, 1, 128, 6, 3, br, None, 0), 1.0),
        (
            false,
            problem(
                3,
                2,
                2,
                64,
                4,
                3,
                br,
                Some((vec![0, 3, 3, 7], vec![0, 2, 5, 5])),
                8,
            ),
            3.0,
        ),
        (true, problem(1, 1, 1, 256, 3, 70, None, None, 16), 4.0),
    ];
    for (i, (bf, p, sharp)) in cases.iter().enumerate() {
        let r = if *bf {
            run::<Bf16>(p, p, 100 + i as u64, *sharp)
        } else {
            run::<F16>(p, p, 100 + i as u64, *sharp)
        };
        if let Err(e) = r {
            panic!("case {i} ({} {p:?}): {e}", if *bf { "bf16" } else { "f16" });
        }
    }
    report::record("attention_ref", cases.len());
}

/// The comparison catches a wrong result: the kernel's output against the CPU reference of a
/// scale 1 % off, of the other causal alignment, without the mask.
#[test]
fn attention_ref_wrong_results_are_caught() {
    let p = problem(1, 1, 1, 64, 4, 9, Some(Causal::TopLeft), None, 0);
    assert_eq!(run::<Bf16>(&p, &p, 7, 3.0), Ok(()));
    let mut scale = p.clone();
    scale.scale *= 1.01;
    let mut align = p.clone();
    align.causal = Some(Causal::BottomRight);
    let mut nomask = p.clone();
    nomask.causal = None;
    for wrong in [scale, align, nomask] {
        assert!(
            run::<Bf16>(&p, &wrong, 7, 3.0).is_err(),
            "{wrong:?} not caught"
        );
    }
    report::record("attention_ref (wrong results)", 3);
}
