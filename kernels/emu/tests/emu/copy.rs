//! Every copy and transpose entry of `kernels/copy` on the CPU emulator, bit for bit against
//! the expected destination buffer (guards and leading-dimension padding included).

use kernels_emu::check::{CopyCase, run_copy};
use kernels_emu::geometry::{Atom, COPY_VARIANTS, CopyVariant};
use kernels_emu::report;

/// Edge sizes (1×1, smaller than a vector, exact tiles, tiles ± a few, several tiles), tight
/// and padded leading dimensions, and for the scalar atom unaligned bases and odd leading
/// dimensions (what the host allows for each variant).
fn cases(v: &CopyVariant) -> Vec<CopyCase> {
    let (tm, tn) = v.tile;
    let vec = v.vec();
    let sizes = [
        (1, 1),
        (3, 5),
        (tm, tn),
        (tm + 1, tn - 3),
        (2 * tm + 5, tn + 7),
        (7, 2 * tn + 1),
    ];
    let mut out = Vec::new();
    for (i, &(m, n)) in sizes.iter().enumerate() {
        let (cs, cd) = v.contiguous(m, n);
        let (ts, td) = (cs.next_multiple_of(vec), cd.next_multiple_of(vec));
        out.push(CopyCase {
            m,
            n,
            lds: ts,
            ldd: td,
            offset: 0,
        });
        if i % 2 == 1 {
            // leading dimensions past the extent: the padding must stay untouched
            out.push(CopyCase {
                m,
                n,
                lds: ts + 2 * vec,
                ldd: td + vec,
                offset: 0,
            });
        }
        if v.atom == Atom::Scalar {
            // any alignment and leading dimension
            out.push(CopyCase {
                m,
                n,
                lds: cs + 1,
                ldd: cd + 3,
                offset: 4,
            });
        }
    }
    out
}

fn run(kernel: &str) {
    let v = COPY_VARIANTS
        .iter()
        .find(|v| v.kernel == kernel)
        .unwrap_or_else(|| panic!("no variant {kernel}"));
    let cases = cases(v);
    report::check_cases(kernel, &cases, 1000, |c, seed| run_copy(v, c, seed));
}

entry_tests!(
    tiled_copy_row_f32_v4,
    tiled_copy_row_f32_cp_async,
    tiled_copy_col_f32_v4,
    tiled_copy_row_f16_v4,
    tiled_copy_col_f16_v4,
    tiled_copy_row_f32_scalar,
    transpose_f32_swizzled,
    transpose_f32_naive,
    transpose_f32_bulk,
);

/// The tests above cover the whole table, and the table is `host`'s.
#[test]
fn every_copy_entry_is_tested() {
    let tested = [
        "tiled_copy_row_f32_v4",
        "tiled_copy_row_f32_cp_async",
        "tiled_copy_col_f32_v4",
        "tiled_copy_row_f16_v4",
        "tiled_copy_col_f16_v4",
        "tiled_copy_row_f32_scalar",
        "transpose_f32_swizzled",
        "transpose_f32_naive",
        "transpose_f32_bulk",
    ];
    let table: Vec<&str> = COPY_VARIANTS.iter().map(|v| v.kernel).collect();
    assert_eq!(table, tested);
}
