//! The `host` binary's CLI contract, GPU-free.

use std::io::Write;
use std::process::{Command, Stdio};

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_host"))
}

#[test]
fn unknown_subcommand_is_one_line_and_exit_2() {
    let o = host().arg("frobnicate").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("unknown subcommand `frobnicate`"));
}

/// (Small sweeps: on a GPU machine this debug binary runs them too; `host run` with the default
/// 300 + 100 problems belongs to a release build.)
#[test]
fn run_without_gpu_is_one_line_exit_2_or_passes_with_gpu() {
    let o = host()
        .args([
            "run",
            "--sweep-gemm",
            "12",
            "--sweep-copy",
            "8",
            "--seed",
            "0x5EED",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(2) => {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains("no GPU"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
            println!("SKIP gpu checks: {}", err.trim());
        }
        Some(0) => {
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(out.contains("sweeps: seed 24301 "), "{out}");
            assert!(out.contains("sgemm sweep") && out.contains("12 problems seed=24301"));
            assert!(out.contains("tiled_copy sweep") && out.contains("8 shapes seed=24301"));
        }
        other => panic!("host run exited {other:?}: {err}"),
    }
}

fn eval(input: &str) -> Vec<serde_json::Value> {
    let mut child = host()
        .arg("eval")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad output line {l:?}: {e}")))
        .collect()
}

#[test]
fn eval_answers_every_line_in_order() {
    let out = eval(concat!(
        "{\"id\": \"a\", \"op\": \"size\", \"args\": [\"(2,3):(1,2)\"]}\n",
        "this is not json\n",
        "\n",
        "{\"op\": \"size\"}\n",
        "{\"id\": \"b\", \"op\": \"size\", \"args\": [1]}\n",
        "{\"id\": \"c\", \"args\": []}\n",
    ));
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0]["id"], "a");
    assert!(out[0].get("got").is_some() || out[0].get("error").is_some());
    assert!(out[1]["id"].is_null() && out[1]["error"].as_str().unwrap().contains("malformed"));
    assert!(out[2]["id"].is_null() && out[2]["error"].is_string());
    assert_eq!(out[3]["id"], "b");
    assert!(out[3]["error"].as_str().unwrap().contains("args"));
    assert_eq!(out[4]["id"], "c");
    assert!(out[4]["error"].as_str().unwrap().contains("op"));
}

/// Runs `host ARGS`; returns (exit code, stdout, stderr).
fn host_out(args: &[&str]) -> (i32, String, String) {
    let o = host().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Exit code 2, nothing on stdout, exactly one line on stderr containing `want`.
fn assert_one_line_error(args: &[&str], want: &str) {
    let (code, out, err) = host_out(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("host-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Byte-for-byte `cute::print_layout`: `tests/data/print_layout_cute.txt` was printed by host-only
/// CuTe (CUTLASS 4.2, `shared/cute-oracle`) for
/// `print_layout(Layout<Shape<_2,_3>,Stride<_3,_1>>{})`,
/// `print_layout(Layout<Shape<Shape<_2,_2>,_2>,Stride<Stride<_1,_4>,_2>>{})` and
/// `print_layout(Layout<Shape<_4,Shape<_3,_4>>,Stride<_12,Stride<_1,_3>>>{})`.
#[test]
fn layout_prints_like_cute_print_layout() {
    let mut got = String::new();
    for l in [
        "(_2,_3):(_3,_1)",
        "((_2,_2),_2):((_1,_4),_2)",
        "(_4,(_3,_4)):(_12,(_1,_3))",
    ] {
        let (code, out, err) = host_out(&["layout", l]);
        assert_eq!(code, 0, "{err}");
        got += &out;
    }
    assert_eq!(got, include_str!("data/print_layout_cute.txt"));
}

#[test]
fn layout_expressions() {
    let (code, out, _) = host_out(&["layout", "coalesce(composition((_4,_2):(_1,_4), _8:_1))"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("_8:_1\n"), "{out}");
    // rank 1 is one row
    assert_eq!(
        out.lines().filter(|l| l.starts_with(" 0  |")).count(),
        1,
        "{out}"
    );
    let (code, out, _) = host_out(&["layout", "zipped_divide((_8,_8):(_1,_8), [_4:_1,_2:_1])"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("((_4,_2),(_2,_4)):((_1,_8),(_4,_16))\n"),
        "{out}"
    );
    // an unquoted expression split by the shell is glued back
    let (code, out, _) = host_out(&["layout", "composition((_4,_2):(_1,_4),", "(_2,_4):(_4,_1))"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = host_out(&["layout", "size((_4,_8):(_1,_4))"]);
    assert_eq!((code, out.as_str()), (0, "_32\n"));
    // a shape alone is make_layout(shape)
    let (_, out, _) = host_out(&["layout", "(_2,_2)"]);
    assert!(out.starts_with("(_2,_2):(_1,_2)\n"), "{out}");
}

#[test]
fn layout_errors_are_one_line_exit_2() {
    assert_one_line_error(&["layout"], "missing expression");
    assert_one_line_error(&["layout", "(_4,_2):(_1)"], "malformed layout");
    assert_one_line_error(&["layout", "(_4,_2"], "malformed layout");
    assert_one_line_error(&["layout", "zipped_divide((_4,_4):(_1,_4)"], "missing `)`");
    assert_one_line_error(
        &["layout", "frobnicate(_4:_1)"],
        "unknown operation `frobnicate`",
    );
    assert_one_line_error(
        &["layout", "composition((_4,_3):(_3,_1), _5:_2)"],
        "Divisibility",
    );
    assert_one_line_error(&["layout", "complement((_4,_4):(_1,_2))"], "complement");
    assert_one_line_error(&["layout", "--tv", "(_4,_1):(_1,_0)"], "takes 2 layouts");
    assert_one_line_error(&["layout", "--frob", "_4:_1"], "unknown option `--frob`");
    assert_one_line_error(
        &[
            "layout",
            "--coalescing",
            "(_32,_32):(_32,_1)",
            "(_32,_1):(_1,_0)",
            "--vec",
            "3",
        ],
        "--vec",
    );
    assert_one_line_error(
        &[
            "layout",
            "--coalescing",
            "(_32,_32):(_1,_32)",
            "(_32,_1):(_1,_0)",
            "--vec",
            "64",
        ],
        "--vec",
    );
}

#[test]
fn layout_svg_is_written() {
    let p = tmp("layout.svg");
    let (code, out, err) = host_out(&[
        "layout",
        "(_4,_8):(_8,_1)",
        "--svg",
        p.to_str().unwrap(),
        "--color",
        "bw",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(&format!("svg: {}\n", p.display())), "{out}");
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(">31</text>") && svg.trim_end().ends_with("</svg>")
    );
}

#[test]
fn tiled_copy_tv_table_and_picture() {
    let p = tmp("tv.svg");
    let (code, out, err) = host_out(&[
        "layout",
        "--tv",
        "(_32,_8):(_8,_1)",
        "(_1,_4):(_0,_1)",
        "--svg",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("tiler_mn:  (_32,_32)   256 threads x 4 values"),
        "{out}"
    );
    let row0: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with(" 0  |"))
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(
        row0[1..6],
        ["T0V0", "T0V1", "T0V2", "T0V3", "T1V0"],
        "{out}"
    );
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(svg.contains(">T255</text>") && svg.contains(">V3</text>"));
    // make_tiled_copy(...) as an expression is the same report
    let (code, out2, _) = host_out(&[
        "layout",
        "make_tiled_copy((_32,_8):(_8,_1), (_1,_4):(_0,_1))",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out2, out.replace(&format!("svg: {}\n", p.display()), ""));
}

#[test]
fn tiled_mma_tables_and_picture() {
    let p = tmp("mma.svg");
    let (code, out, err) = host_out(&[
        "layout",
        "--mma",
        "SM80_16x8x16_F32F16F16F32_TN",
        "(_2,_2,_1)",
        "--svg",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // C++ CuTe's get_layoutC_TV() for this TiledMMA (shared/cute-cases/mma-public.jsonl, mma303-4)
    assert!(
        out.contains("LayoutC_TV:     ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"),
        "{out}"
    );
    assert!(
        out.contains("tile_mnk:       (_32,_16,_16)   128 threads"),
        "{out}"
    );
    // row 0 of C: the atom's fragment (threads 0-3, two values each), then the atom at n = 8
    let row0: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("C (M x N)"))
        .find(|l| l.starts_with(" 0  |"))
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(
        row0[1..10],
        [
            "T0V0", "T0V1", "T1V0", "T1V1", "T2V0", "T2V1", "T3V0", "T3V1", "T64V0"
        ]
    );
    assert!(
        out.contains("A (M x K): 32 x 16") && out.contains("B (K x N): 16 x 16"),
        "{out}"
    );
    let svg = std::fs::read_to_string(&p).unwrap();
    assert!(
        svg.starts_with("<svg")
            && svg.contains(">T127</text>")
            && svg.trim_end().ends_with("</svg>")
    );
    // one rect per element of A, B and C, plus the background
    assert_eq!(
        svg.matches("<rect").count(),
        1 + 32 * 16 + 16 * 16 + 32 * 16
    );
    // a GMMA whose register A is MN-major does not exist
    assert_one_line_error(
        &[
            "layout",
            "--mma",
            "SM90_64x64x16_F32BF16BF16_RS<MN,K>",
            "(_1,_1,_1)",
        ],
        "Register source operand A must have K major layout",
    );
}

#[test]
fn eval_tensor_core_ops() {
    let out = eval(concat!(
        "{\"id\": 1, \"op\": \"tiled_mma_tile\", \"args\": [\"SM80_16x8x16_F32F16F16F32_TN\", \"(_2,_4,_1)\"]}\n",
        "{\"id\": 2, \"op\": \"gmma_smem_atom\", \"args\": [\"K\", \"SW128\", \"16\"]}\n",
        "{\"id\": 3, \"op\": \"tile_to_shape\", \"args\": [\"Sw<0,4,3> o smem_ptr[32b](unset) o (_4,_8):(_1,_4)\", \"(_64,_32,_1)\"]}\n",
    ));
    // expected values from shared/cute-cases/mma-public.jsonl (C++ CuTe 4.2)
    assert_eq!(out[0]["got"], "(_32,_32,_16)");
    assert_eq!(
        out[1]["got"],
        "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"
    );
    assert_eq!(
        out[2]["got"],
        "Sw<0,4,3> o smem_ptr[32b](unset) o ((_4,_16),(_8,_4),(_1,_1)):((_1,_32),(_4,_512),(_0,_0))"
    );
}

#[test]
fn coalescing_report() {
    let (code, out, err) = host_out(&[
        "layout",
        "--coalescing",
        "(_32,_32):(_32,_1)",
        "(_32,_1):(_1,_0)",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("32 sectors of 32 B per warp access (ideal 4)"),
        "{out}"
    );
    assert!(out.contains("32-way bank conflict"), "{out}");
    let (code, out, _) = host_out(&[
        "layout",
        "--coalescing",
        "(_128,_32):(_32,_1)",
        "(_32,_8):(_8,_1)",
        "--vec",
        "4",
        "--elem-bytes",
        "4",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("16 sectors of 32 B per warp access (ideal 16)")
            && out.contains("(coalesced)"),
        "{out}"
    );
    assert!(out.contains("no bank conflicts"), "{out}");
}

#[test]
fn bench_errors_are_one_line_exit_2() {
    assert_one_line_error(&["bench", "frob"], "invalid value 'frob'");
    assert_one_line_error(
        &["bench", "--from", "/nonexistent/rows.json"],
        "reading /nonexistent/rows.json",
    );
    // A family is either not built yet or needs a GPU: one line, exit 2. (`--device 99` keeps
    // this test from running a real benchmark on a GPU machine.)
    for fam in ["copy", "gemm", "all"] {
        let (code, out, err) = host_out(&["bench", fam, "--device", "99"]);
        assert_eq!(code, 2, "host bench {fam}: {out}{err}");
        let last = err.trim().lines().last().unwrap_or("");
        assert!(
            last.contains("not built yet") || last.contains("no GPU"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn bench_renders_saved_rows() {
    let rows = r#"[
      {"family": "copy", "variant": "tiled_copy_v4_f32", "size": "16 MiB", "work": 33554432, "unit": "GB/s", "ours_ms": 0.0125, "ref_ms": 0.0120, "reference": "memcpy D2D"},
      {"family": "copy", "variant": "tiled_copy_v4_f32", "size": "256 MiB", "work": 536870912, "unit": "GB/s", "ours_ms": 0.180, "ref_ms": 0.175, "reference": "memcpy D2D"},
      {"family": "gemm", "variant": "sgemm_128x128x8 NN", "size": "4096x4096x4096", "work": 137438953472, "unit": "TFLOP/s", "ours_ms": 10.0, "ref_ms": 8.0, "reference": "cuBLAS SGEMM"}
    ]"#;
    let f = tmp("rows.json");
    std::fs::write(&f, rows).unwrap();
    let svg = tmp("plot.svg");
    let (code, out, err) = host_out(&[
        "bench",
        "--from",
        f.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    for col in ["variant", "size", "ours", "reference", "ratio"] {
        assert!(head.contains(col), "{out}");
    }
    assert!(
        out.contains("2684 GB/s") && out.contains("0.80x") && out.contains("cuBLAS SGEMM"),
        "{out}"
    );
    // two families -> two plots, FILE-<family>.svg
    for fam in ["copy", "gemm"] {
        let p = svg.with_file_name(format!("plot-{fam}.svg"));
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(text.contains("(reference)"), "{text}");
    }
    let (code, csv, _) = host_out(&[
        "bench",
        "--from",
        f.to_str().unwrap(),
        "--csv",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.starts_with(
        "family,variant,size,work,unit,ours_ms,ref_ms,reference,ours_rate,ref_rate,ratio\n"
    ));
    let (code, json, _) = host_out(&[
        "bench",
        "--from",
        f.to_str().unwrap(),
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    assert!((v[2]["ratio"].as_f64().unwrap() - 0.8).abs() < 1e-9);
}

/// Every subcommand documents every flag in `--help` (exit 0, on stdout).
#[test]
fn help_lists_every_subcommand_and_flag() {
    let (code, out, _) = host_out(&["--help"]);
    assert_eq!(code, 0);
    for sub in ["run", "bench", "gemm", "copy", "layout", "eval", "info"] {
        assert!(out.contains(&format!("  {sub} ")), "{sub}: {out}");
    }
    let flags: [(&str, &[&str]); 7] = [
        (
            "run",
            &[
                "--device",
                "--seed <S>",
                "[default: 12]",
                "--sweep-gemm <N>",
                "[default: 300]",
                "--sweep-copy <N>",
                "[default: 170]",
                "--only <SECTION>",
                "2*gamma(K+4)",
            ],
        ),
        (
            "bench",
            &["[FAMILY]", "--json", "--csv", "--svg", "--from", "--device"],
        ),
        (
            "gemm",
            &[
                "--m", "--n", "--k", "--ta", "--tb", "--alpha", "--beta", "--lda", "--ldb",
                "--ldc", "--dtype", "--tile", "--split", "--check", "--bench", "--json", "--small",
                "--sweep", "--device",
            ],
        ),
        ("copy", &["check", "bench", "misaligned", "--device"]),
        (
            "layout",
            &[
                "--svg",
                "--color",
                "--table",
                "--tv",
                "--coalescing",
                "--elem-bytes",
                "--vec",
                "--smem",
            ],
        ),
        ("eval", &["Usage: host eval"]),
        ("info", &["Usage: host info"]),
    ];
    for (sub, want) in flags {
        let (code, out, err) = host_out(&[sub, "--help"]);
        assert_eq!(code, 0, "{sub}: {err}");
        assert!(out.contains(&format!("Usage: host {sub}")), "{sub}: {out}");
        for f in want {
            assert!(out.contains(f), "host {sub} --help lacks {f}: {out}");
        }
    }
    let (code, out, _) = host_out(&["help", "gemm"]);
    assert_eq!(code, 0);
    assert!(out.contains("--check"));
    let (code, out, _) = host_out(&["--version"]);
    assert_eq!((code, out.trim()), (0, "host 0.1.0"));
}

/// Bad flags, values and combinations: one line on stderr, nothing on stdout, exit 2.
#[test]
fn bad_flags_are_one_line_exit_2() {
    assert_one_line_error(&["run", "--frob"], "unknown option `--frob`");
    assert_one_line_error(
        &["run", "--device", "x"],
        "invalid value 'x' for '--device <N>'",
    );
    assert_one_line_error(
        &["run", "--seed", "x"],
        "invalid value 'x' for '--seed <S>': expected a decimal or 0x-hex integer",
    );
    assert_one_line_error(
        &["run", "--seed", "18446744073709551616"],
        "invalid value '18446744073709551616' for '--seed <S>'",
    );
    assert_one_line_error(&["run", "--seed", "0xZZ"], "invalid value '0xZZ'");
    assert_one_line_error(&["run", "--sweep-gemm", "-3"], "unknown option `-3`");
    assert_one_line_error(
        &["run", "--sweep-gemm", "1.5"],
        "invalid value '1.5' for '--sweep-gemm <N>'",
    );
    assert_one_line_error(
        &["run", "--sweep-copy", "many"],
        "invalid value 'many' for '--sweep-copy <N>'",
    );
    assert_one_line_error(
        &["run", "--sweep-copy"],
        "a value is required for '--sweep-copy <N>'",
    );
    assert_one_line_error(&["run", "--sweeps", "3"], "unknown option `--sweeps`");
    // issue #26's mends: a negative size names the rule, a split-K depth of 0 is refused
    assert_one_line_error(
        &["gemm", "--m", "-3"],
        "`-3`: the value must be a non-negative integer",
    );
    assert_one_line_error(
        &["gemm", "--m", "64", "--split", "0"],
        "the split-K depth must be at least 1",
    );
    assert_one_line_error(
        &["gemm", "--m", "100", "--dtype", "bf16", "--lda", "100"],
        "lda=100 must be a multiple of 8 elements",
    );
    assert_one_line_error(&["gemm", "--m", "x"], "invalid value 'x' for '--m <M>'");
    assert_one_line_error(
        &["gemm", "--n", "5"],
        "the following required arguments were not provided: --m <M>",
    );
    assert_one_line_error(&["gemm", "--m", "8", "--small"], "cannot be used with");
    assert_one_line_error(&["gemm", "--m", "8", "--tile", "32"], "invalid value '32'");
    assert_one_line_error(
        &["gemm", "--m", "8", "--dtype", "f64"],
        "invalid value 'f64'",
    );
    assert_one_line_error(&["bench", "--json", "--csv"], "cannot be used with");
    assert_one_line_error(&["copy", "frob"], "unknown subcommand `frob`");
    // argument errors of the problem itself are refused before looking for a GPU
    assert_one_line_error(&["gemm", "--m", "8", "--lda", "3"], "lda=3 must be >= 8");
    assert_one_line_error(
        &["gemm", "--m", "8", "--ta", "--lda", "7"],
        "lda=7 must be >= 8",
    );
    // issue #34's mend: a non-finite scale is a usage error, before any launch
    assert_one_line_error(
        &[
            "gemm", "--dtype", "bf16", "--m", "64", "--alpha", "inf", "--check",
        ],
        "alpha=inf must be finite",
    );
    assert_one_line_error(
        &["gemm", "--m", "64", "--beta", "NaN", "--check"],
        "beta=NaN must be finite",
    );
}

/// The fused FP8 epilogue's usage errors: refused before any device is opened, one line,
/// exit 2 (fast accumulation, block scales, a bench other than cuBLASLt's GELU_BIAS, the scale
/// flags on the 16-bit GEMM), and the FP8 GEMM's refusals of the 16-bit GEMM's flags.
#[test]
fn fused_fp8_usage_errors_are_one_line_exit_2() {
    assert_one_line_error(
        &[
            "gemm",
            "--dtype",
            "e4m3",
            "--m",
            "64",
            "--bias",
            "m",
            "--act",
            "gelu",
            "--fast-accum",
            "--check",
        ],
        "promoted e4m3 kernel only",
    );
    assert_one_line_error(
        &[
            "gemm",
            "--dtype",
            "e4m3",
            "--m",
            "64",
            "--row-scales",
            "--block-scales",
            "--check",
        ],
        "not --block-scales",
    );
    assert_one_line_error(
        &[
            "gemm", "--dtype", "e4m3", "--m", "64", "--bias", "n", "--act", "silu", "--bench",
        ],
        "GELU_BIAS",
    );
    assert_one_line_error(
        &[
            "gemm",
            "--dtype",
            "bf16",
            "--ta",
            "--m",
            "64",
            "--col-scales",
            "--check",
        ],
        "--row-scales/--col-scales are the fused epilogue of the FP8 GEMM",
    );
    assert_one_line_error(
        &[
            "gemm",
            "--dtype",
            "e5m2",
            "--fast-accum",
            "--m",
            "64",
            "--act",
            "relu",
            "--check",
        ],
        "promoted e4m3 kernel only",
    );
    // session 39: --ldc, --alpha and --beta were silently ignored by the FP8 GEMM
    for flag in [["--ldc", "72"], ["--alpha", "2"], ["--beta", "1"]] {
        let mut args = vec!["gemm", "--dtype", "e4m3", "--m", "64", "--check"];
        args.extend(flag);
        assert_one_line_error(&args, "no --ldc/--alpha/--beta");
    }
    // session 60: --vs-tutorial was silently ignored by the FP8 GEMM's --bench
    assert_one_line_error(
        &[
            "gemm",
            "--dtype",
            "e4m3",
            "--m",
            "64",
            "--bench",
            "--vs-tutorial",
            "t.ptx",
        ],
        "--vs-tutorial: the tutorial's half GEMM is --dtype f16",
    );
}

#[test]
fn no_command_prints_usage_on_stderr_exit_2() {
    let (code, out, err) = host_out(&[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("Usage: host [OPTIONS] <COMMAND>"), "{err}");
}

/// Valid sweep flags (0 disables a sweep, hex seeds) are accepted: the run gets as far as
/// opening the (missing) device 99.
#[test]
fn run_sweep_flags_are_accepted() {
    for args in [
        &[
            "run",
            "--sweep-gemm",
            "0",
            "--sweep-copy",
            "0",
            "--device",
            "99",
        ][..],
        &["run", "--seed", "0xFFFFFFFFFFFFFFFF", "--device", "99"],
        &["run", "--seed=7", "--sweep-gemm=1000", "--device", "99"],
    ] {
        let (code, out, err) = host_out(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("host run: no GPU"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// `host gemm --m ...` without a GPU: one line, exit 2 (with one, the check passes).
#[test]
fn gemm_problem_without_gpu_is_one_line_exit_2() {
    let (code, out, err) = host_out(&[
        "gemm", "--m", "96", "--n", "80", "--k", "40", "--tb", "--check", "--device", "99",
    ]);
    match code {
        2 => {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains("host gemm: no GPU"), "{err}");
            assert!(out.is_empty(), "{out}");
        }
        _ => panic!("host gemm --device 99 exited {code}: {out}{err}"),
    }
}

/// Closing stdout early ends `host` quietly: no panic, no "Broken pipe" message; killed by
/// SIGPIPE or a normal exit, like any Unix filter (`host info | head -5`).
#[cfg(unix)]
#[test]
fn closed_stdout_is_not_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["info"][..],
        &["--help"],
        &["layout", "(_64,_64):(_64,_1)", "--table"],
        &["bench", "--from", "/nonexistent.json"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // nobody will ever read: every write gets EPIPE
        let o = host()
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert!(
            o.status.signal() == Some(libc_sigpipe()) || o.status.code().is_some(),
            "{args:?}: {:?}",
            o.status
        );
    }
    // and through a real pipeline
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} layout '(_64,_64):(_64,_1)' --table | head -2",
            env!("CARGO_BIN_EXE_host")
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.is_empty(), "{err}");
}

#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

/// `--arch` names an embedded build or is refused in one line before anything opens a device;
/// `host info` lists every embedded build (with or without a GPU).
#[test]
fn arch_flag_takes_an_embedded_build_only() {
    assert_one_line_error(&["--arch", "sm_75", "info"], "--arch sm_75");
    assert_one_line_error(
        &["run", "--arch", "sm_61", "--device", "99"],
        "embeds PTX for",
    );
    let (code, out, err) = host_out(&["info"]);
    assert_eq!(code, 0, "{err}");
    let archs = out
        .lines()
        .find_map(|l| l.strip_prefix("ptx archs: "))
        .unwrap_or_else(|| panic!("no `ptx archs:` line: {out}"));
    if archs.split(", ").any(|a| a == "sm_80") {
        let (code, out, err) = host_out(&["--arch", "sm_80", "info"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("module: sm_80 copy"), "{out}");
    }
}

/// A measuring override's bad value is refused in one line, exit 2, naming the variable and the
/// values it takes, before any device is opened (so the same with or without a GPU).
#[test]
fn a_bad_override_is_refused_before_the_device_is_opened() {
    let o = host()
        .args(["gemm", "--dtype", "bf16", "--m", "64"])
        .env("CUTE_RS_HGEMM_SCHEDULE", "fastest")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("CUTE_RS_HGEMM_SCHEDULE=fastest")
            && err.contains("cooperative or pingpong or pingpong128")
            && !err.contains("no GPU"),
        "{err}"
    );
}
