//! GPU-free: every argument error of an attention problem, as its typed variant.

use super::*;

fn err(c: &AttentionConfig) -> AttentionError {
    match c.check_shape() {
        Err(Error::Attention(e)) => e,
        other => panic!("{c}: expected an attention error, got {other:?}"),
    }
}

#[test]
fn each_argument_error_is_its_variant() {
    let ok = AttentionConfig::new(2, 8, 100, 200, 128);
    assert!(ok.check_shape().is_ok());
    assert_eq!(
        err(&AttentionConfig::new(2, 8, 100, 200, 80)),
        AttentionError::HeadDim { head_dim: 80 }
    );
    for (c, name) in [
        (AttentionConfig::new(0, 8, 1, 1, 64), "batch"),
        (AttentionConfig::new(1, 0, 1, 1, 64), "heads"),
        (AttentionConfig::new(1, 8, 0, 1, 64), "seqlen_q"),
        (AttentionConfig::new(1, 8, 1, 0, 64), "seqlen_k"),
        (AttentionConfig::new(1, 8, 1, 1, 64).heads_kv(0), "heads_kv"),
    ] {
        assert_eq!(err(&c), AttentionError::Zero { name }, "{c}");
    }
    assert_eq!(
        err(&AttentionConfig::new(1, 8, 1 << 31, 1, 64)),
        AttentionError::TooLarge {
            name: "seqlen_q",
            value: 1 << 31
        }
    );
    assert_eq!(
        err(&ok.clone().heads_kv(3)),
        AttentionError::GqaRatio {
            heads: 8,
            heads_kv: 3
        }
    );
    assert!(ok.clone().heads_kv(1).check_shape().is_ok()); // MQA
    for s in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            err(&ok.clone().scale(s)),
            AttentionError::Scale { .. }
        ));
    }
    let e = err(&ok.clone().k_stride([8, 8 * 128 + 4, 128]));
    assert!(
        matches!(
            e,
            AttentionError::Stride {
                tensor: "K",
                mode: "token",
                stride: 1028,
                ..
            }
        ),
        "{e}"
    );
    let e = err(&ok.clone().v_stride([0, 1024, 128]));
    assert!(
        matches!(
            e,
            AttentionError::Stride {
                tensor: "V",
                mode: "batch",
                stride: 0,
                ..
            }
        ),
        "{e}"
    );
    let e = err(&ok.clone().q_stride([1 << 20, 1024, -128]));
    assert!(
        matches!(
            e,
            AttentionError::Stride {
                tensor: "Q",
                mode: "head",
                ..
            }
        ),
        "{e}"
    );
    // heads 64 apart with d = 128: two heads share elements
    assert_eq!(
        err(&ok.clone().o_stride([1 << 20, 1024, 64])),
        AttentionError::Overlap {
            strides: [1 << 20, 1024, 64]
        }
    );
    // tokens nested inside heads (head-major O) is fine; inputs may overlap freely
    assert!(
        ok.clone()
            .o_stride([1 << 20, 128, 128 * 100])
            .check_shape()
            .is_ok()
    );
    assert!(ok.clone().k_stride([8, 8, 8]).check_shape().is_ok());
}

#[test]
fn varlen_errors() {
    let ok = AttentionConfig::varlen(4, 64, vec![0, 3, 3, 10], vec![0, 5, 6, 6]);
    let p = ok.check_shape().unwrap();
    assert_eq!((p.batch, p.seqlen_q, p.seqlen_k), (3, 7, 5));
    assert_eq!(p.q_stride, [0, 256, 64]);
    let mut c = ok.clone();
    c.cu_seqlens_k = Some(vec![0, 5, 6]);
    assert_eq!(
        err(&c),
        AttentionError::CuSeqlensLen {
            name: "cu_seqlens_k",
            len: 3,
            batch: 3
        }
    );
    let c = AttentionConfig::varlen(4, 64, vec![1, 3, 3, 10], vec![0, 5, 6, 6]);
    assert_eq!(
        err(&c),
        AttentionError::CuSeqlensStart {
            name: "cu_seqlens_q",
            first: 1
        }
    );
    let c = AttentionConfig::varlen(4, 64, vec![0, 3, 2, 10], vec![0, 5, 6, 6]);
    assert_eq!(
        err(&c),
        AttentionError::CuSeqlensDecreasing {
            name: "cu_seqlens_q",
            index: 2,
            prev: 3,
            next: 2
        }
    );
    let c = AttentionConfig::varlen(4, 64, vec![0, 0, 0], vec![0, 5, 6]);
    assert_eq!(
        err(&c),
        AttentionError::Zero {
            name: "total query tokens"
        }
    );
    let e = err(&ok.clone().q_stride([256, 256, 64]));
    assert!(matches!(
        e,
        AttentionError::Stride {
            tensor: "Q",
            mode: "batch",
            stride: 256,
            ..
        }
    ));
    let mut c = ok.clone();
    c.cu_seqlens_k = None; // one without the other
    assert!(matches!(
        err(&c),
        AttentionError::CuSeqlensLen {
            name: "cu_seqlens_k",
            len: 0,
            ..
        }
    ));
}

#[test]
fn buffer_lengths_are_checked_and_named() {
    let c = AttentionConfig::new(2, 4, 33, 65, 64)
        .heads_kv(2)
        .o_stride([33 * 512, 512, 64]);
    let lens = c.lens().unwrap();
    assert_eq!(lens.o, 32 * 512 + 33 * 512 + 3 * 64 + 64);
    assert!(c.check(&lens).is_ok());
    for t in 0..5 {
        let mut l = lens;
        let (name, f): (&str, &mut usize) = match t {
            0 => ("Q", &mut l.q),
            1 => ("K", &mut l.k),
            2 => ("V", &mut l.v),
            3 => ("O", &mut l.o),
            _ => ("LSE", &mut l.lse),
        };
        *f -= 1;
        let needed = *f + 1;
        match c.check(&l) {
            Err(Error::BufferTooSmall {
                name: n,
                len,
                needed: nd,
            }) => {
                assert_eq!((n, len, nd), (name, needed - 1, needed))
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn flops_and_display() {
    let c =
        AttentionConfig::varlen(16, 128, vec![0, 10, 30], vec![0, 20, 20]).causal(Causal::TopLeft);
    assert_eq!(flops(&c), 4.0 * (10.0 * 20.0) * 16.0 * 128.0 / 2.0);
    assert_eq!(
        c.to_string(),
        "varlen2 h16 tq30 tk20 (max 20/20) d128 causal=top-left"
    );
    let c = AttentionConfig::new(1, 8, 3, 4, 64)
        .heads_kv(2)
        .o_stride([0, 1024, 64]);
    assert_eq!(c.to_string(), "b1 h8/2 sq3 sk4 d64 strided");
}
