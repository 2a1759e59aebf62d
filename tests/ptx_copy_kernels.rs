//! The copy kernels rebuilt on the typed layer (`kernels/copy`, issue #12) compile to the
//! instructions a hand-written kernel would use: for every entry, no local-memory frame, no
//! division or remainder (every mode of the tiles and thread layouts is static; the extents and
//! leading dimensions only meet comparisons and multiply-adds), the vector instructions of its
//! atoms, one per atom of the thread's partition (`ld.global.v4` / `st.shared.v4` /
//! `cp.async.cg` in, `ld.shared.v4` / `st.global.v4` out), and an instruction count under a
//! pinned ceiling (doc/gpu-pipeline.md, "Kernels and the device module", has the old/new table).
//!
//! `CUTE_RS_PTX_FILE=target/ptx/copy.ptx cargo test --test ptx_copy_kernels -- --nocapture`
//! prints the table for a PTX built by hand.

#[path = "common/ptx_text.rs"]
mod ptx_text;
use ptx_text::{entry, instructions};

/// The family's PTX, or why there is none.
fn copy_ptx() -> Result<&'static str, &'static str> {
    ptx_text::module_ptx("tiled_copy_row_f32_v4")
}

/// What an entry must contain: how many of each vector instruction (per thread: one per atom),
/// scalar shared loads (the transposes' column reads), and the instruction ceiling.
struct Expect {
    name: &'static str,
    ld_global_v4: usize,
    st_shared_v4: usize,
    cp_async: usize,
    ld_shared_v4: usize,
    st_global_v4: usize,
    ld_shared_scalar: usize,
    /// `cp.async.bulk` (shared → global) copies.
    bulk: usize,
    max_instructions: usize,
}

const EXPECT: &[Expect] = &[
    // 8x128 tile of u32, 256 threads x 4 values: one atom a side (a partial vector at the edge
    // of the contiguous dimension: 4 scalar reads)
    Expect {
        name: "tiled_copy_row_f32_v4",
        ld_global_v4: 1,
        st_shared_v4: 1,
        cp_async: 0,
        ld_shared_v4: 1,
        st_global_v4: 1,
        ld_shared_scalar: 4,
        bulk: 0,
        max_instructions: 145,
    },
    Expect {
        name: "tiled_copy_row_f32_cp_async",
        ld_global_v4: 0,
        st_shared_v4: 0,
        cp_async: 1,
        ld_shared_v4: 1,
        st_global_v4: 1,
        ld_shared_scalar: 4,
        bulk: 0,
        max_instructions: 145,
    },
    // one element per instruction, 4 per thread: no vectors
    Expect {
        name: "tiled_copy_row_f32_scalar",
        ld_global_v4: 0,
        st_shared_v4: 0,
        cp_async: 0,
        ld_shared_v4: 0,
        st_global_v4: 0,
        ld_shared_scalar: 4,
        bulk: 0,
        max_instructions: 170,
    },
    Expect {
        name: "tiled_copy_col_f32_v4",
        ld_global_v4: 1,
        st_shared_v4: 1,
        cp_async: 0,
        ld_shared_v4: 1,
        st_global_v4: 1,
        ld_shared_scalar: 4,
        bulk: 0,
        max_instructions: 145,
    },
    // 8x256 tile of u16, 8 halves per vector: one atom a side
    Expect {
        name: "tiled_copy_row_f16_v4",
        ld_global_v4: 1,
        st_shared_v4: 1,
        cp_async: 0,
        ld_shared_v4: 1,
        st_global_v4: 1,
        ld_shared_scalar: 8,
        bulk: 0,
        max_instructions: 205,
    },
    Expect {
        name: "tiled_copy_col_f16_v4",
        ld_global_v4: 1,
        st_shared_v4: 1,
        cp_async: 0,
        ld_shared_v4: 1,
        st_global_v4: 1,
        ld_shared_scalar: 8,
        bulk: 0,
        max_instructions: 215,
    },
    // 64x64 f32 tile: 4 vectors in, 16 column reads (scalar ld.shared), 4 vectors out
    Expect {
        name: "transpose_f32_swizzled",
        ld_global_v4: 4,
        st_shared_v4: 4,
        cp_async: 0,
        ld_shared_v4: 0,
        st_global_v4: 4,
        ld_shared_scalar: 16,
        bulk: 0,
        max_instructions: 490,
    },
    Expect {
        name: "transpose_f32_naive",
        ld_global_v4: 4,
        st_shared_v4: 4,
        cp_async: 0,
        ld_shared_v4: 0,
        st_global_v4: 4,
        ld_shared_scalar: 16,
        bulk: 0,
        max_instructions: 400,
    },
    // the bulk transpose, its interior path and its edge path (each: 4 vectors in, 4 into the
    // padded B tile, one bulk copy of a B row by 64 threads) and the 16 column reads between
    // them; in the edge path a row that leaves the matrix goes element by element (63 scalar
    // reads of the B row: when its last element is in range the whole row is, so the element
    // path never copies it)
    Expect {
        name: "transpose_f32_bulk",
        ld_global_v4: 8,
        st_shared_v4: 12,
        cp_async: 0,
        ld_shared_v4: 0,
        st_global_v4: 0,
        ld_shared_scalar: 16 + 63,
        bulk: 2,
        max_instructions: 760,
    },
];

#[test]
fn copy_entries_use_their_atoms_and_nothing_else() {
    let ptx = match copy_ptx() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("SKIPPED copy_entries_use_their_atoms_and_nothing_else: no PTX ({why})");
            return;
        }
    };
    println!(
        "entry | instructions | ld.global.v4 | st.shared.v4 | cp.async | ld.shared.v4 | st.global.v4 | cp.async.bulk"
    );
    for e in EXPECT {
        let body = entry(ptx, e.name);
        let ins = instructions(body);
        let count = |f: &dyn Fn(&str) -> bool| {
            ins.iter()
                .filter(|i| f(i.split_whitespace().next().unwrap_or("")))
                .count()
        };
        let v4 = |space: &'static str| move |op: &str| op.starts_with(space) && op.contains(".v4");
        let got = [
            count(&v4("ld.global")),
            count(&v4("st.shared")),
            count(&|op| op.starts_with("cp.async.cg")),
            count(&|op| op.starts_with("cp.async.bulk.global.shared::cta")),
            count(&v4("ld.shared")),
            count(&v4("st.global")),
        ];
        println!(
            "{} | {} | {} | {} | {} | {} | {} | {}",
            e.name,
            ins.len(),
            got[0],
            got[1],
            got[2],
            got[4],
            got[5],
            got[3]
        );
        assert!(
            !body.contains(".local"),
            "{}: a local-memory frame:\n{body}",
            e.name
        );
        // The static modes cost no division; the one a tiled copy has is `idx2crd(blockIdx.x,
        // tiles)` by the dynamic tile count of the contiguous dimension (32-bit, once).
        let divs: Vec<&String> = ins
            .iter()
            .filter(|i| {
                let op = i.split_whitespace().next().unwrap_or("");
                op.starts_with("div.") || op.starts_with("rem.")
            })
            .collect();
        let allowed: &[&str] = if e.name.starts_with("tiled_copy") {
            &["div.s32"]
        } else {
            &[]
        };
        assert!(
            divs.len() <= allowed.len()
                && divs
                    .iter()
                    .all(|i| allowed.contains(&i.split_whitespace().next().unwrap_or(""))),
            "{}: division/remainder beyond the block coordinate's: {divs:?}",
            e.name
        );
        assert_eq!(
            got,
            [
                e.ld_global_v4,
                e.st_shared_v4,
                e.cp_async,
                e.bulk,
                e.ld_shared_v4,
                e.st_global_v4
            ],
            "{}: [ld.global.v4, st.shared.v4, cp.async, cp.async.bulk, ld.shared.v4, st.global.v4]",
            e.name
        );
        let scalar_lds = count(&|op| op.starts_with("ld.shared") && !op.contains(".v4"));
        assert_eq!(
            scalar_lds, e.ld_shared_scalar,
            "{}: scalar ld.shared (partial vectors / column reads)",
            e.name
        );
        if e.cp_async > 0 {
            assert_eq!(
                count(&|op| op.starts_with("cp.async.wait_group")),
                1,
                "{}",
                e.name
            );
        } else if e.bulk > 0 {
            // tma_store_fence before the barrier, tma_store_arrive / tma_store_wait<0> after
            for op in [
                "fence.proxy.async.shared::cta",
                "cp.async.bulk.commit_group",
                "cp.async.bulk.wait_group.read",
            ] {
                assert_eq!(count(&|o| o.starts_with(op)), 1, "{}: {op}", e.name);
            }
        } else {
            assert_eq!(
                count(&|op| op.starts_with("cp.async")),
                0,
                "{}: cp.async outside the cp.async kernel",
                e.name
            );
        }
        assert!(
            ins.len() <= e.max_instructions,
            "{}: {} instructions, over the pinned {}",
            e.name,
            ins.len(),
            e.max_instructions
        );
    }
}
