//! The probe family's typed kernels (`layout_types::cute`) against their hand-written twins
//! on the emulator: same launch, same inputs, bit-identical outputs.

use device::emu::{Dim3, launch};
use kernels_emu::check::Rng;
use kernels_emu::probe_typed::*;
use kernels_emu::report;

#[repr(C, align(16))]
struct Buf([f32; 4096]);

fn random(seed: u64) -> Box<Buf> {
    let mut r = Rng(seed);
    let mut b = Box::new(Buf([0.0; 4096]));
    b.0.iter_mut().for_each(|x| *x = r.f32_pm1());
    b
}

/// Runs `f(buffer address)` on `grid` × `block` over a copy of `init` and returns the buffer.
fn run(grid: Dim3, block: Dim3, init: &Buf, f: impl Fn(usize)) -> Box<Buf> {
    let mut b = Box::new(Buf(init.0));
    let p = b.0.as_mut_ptr() as usize;
    // SAFETY: the probes write inside the 4096-element buffer for these geometries.
    unsafe { launch(grid, block, 0, || f(p)) };
    b
}

fn same(a: &Buf, b: &Buf, what: &str) {
    let diff =
        a.0.iter()
            .zip(&b.0)
            .filter(|(x, y)| x.to_bits() != y.to_bits())
            .count();
    assert_eq!(
        diff, 0,
        "{what}: {diff} elements differ between the typed probe and its twin"
    );
}

#[test]
fn prelude_probes_match_their_twins() {
    use kernels_emu::probe::*;
    let zero = Buf([0.0; 4096]);
    let t = run((2, 1, 1), (256, 1, 1), &zero, |p| unsafe {
        probe_prelude_static_typed(p as *mut u32)
    });
    let h = run((2, 1, 1), (256, 1, 1), &zero, |p| unsafe {
        probe_prelude_static_hand(p as *mut u32)
    });
    same(&t, &h, "probe_prelude_static");
    assert!(t.0[300].to_bits() != 0, "the probe wrote nothing");
    let t = run((2, 1, 1), (256, 1, 1), &zero, |p| unsafe {
        probe_prelude_zipped_typed(p as *mut u32)
    });
    let h = run((2, 1, 1), (256, 1, 1), &zero, |p| unsafe {
        probe_prelude_zipped_hand(p as *mut u32)
    });
    same(&t, &h, "probe_prelude_zipped");
    assert!(t.0[300].to_bits() != 0, "the probe wrote nothing");
    let (m, ld) = (10, 13);
    let t = run((1, 1, 1), (32, 1, 1), &zero, |p| unsafe {
        probe_prelude_mixed_typed(p as *mut i32, m, ld)
    });
    let h = run((1, 1, 1), (32, 1, 1), &zero, |p| unsafe {
        probe_prelude_mixed_hand(p as *mut i32, m, ld)
    });
    same(&t, &h, "probe_prelude_mixed");
    for probe in ["static", "zipped", "mixed"] {
        report::record(&format!("probe_prelude_{probe}_typed"), 1);
        report::record(&format!("probe_prelude_{probe}_hand"), 1);
    }
}

#[test]
fn typed_probes_match_their_twins() {
    let zero = Buf([0.0; 4096]);
    let (m, ld) = (10, 13);
    let t = run((1, 1, 1), (64, 1, 1), &zero, |p| unsafe {
        probe_crd2idx_mixed_typed(p as *mut i32, m, ld)
    });
    let h = run((1, 1, 1), (64, 1, 1), &zero, |p| unsafe {
        probe_crd2idx_mixed_hand(p as *mut i32, m, ld)
    });
    same(&t, &h, "probe_crd2idx_mixed");
    let t = run((1, 1, 1), (64, 1, 1), &zero, |p| unsafe {
        probe_crd2idx_static_typed(p as *mut i32)
    });
    let h = run((1, 1, 1), (64, 1, 1), &zero, |p| unsafe {
        probe_crd2idx_static_hand(p as *mut i32)
    });
    same(&t, &h, "probe_crd2idx_static");
    // a 64 x 16 matrix, ld 70: 2 x 2 tiles of 32 x 8
    let init = random(3);
    let (m, n, ld) = (64, 16, 70);
    let t = run((2, 2, 1), (256, 1, 1), &init, |p| unsafe {
        probe_local_tile_typed(p as *mut f32, m, n, ld)
    });
    let h = run((2, 2, 1), (256, 1, 1), &init, |p| unsafe {
        probe_local_tile_hand(p as *mut f32, m, n, ld)
    });
    same(&t, &h, "probe_local_tile");
    let t = run((2, 2, 1), (32, 1, 1), &init, |p| unsafe {
        probe_local_partition_typed(p as *mut f32, m, n, ld)
    });
    let h = run((2, 2, 1), (32, 1, 1), &init, |p| unsafe {
        probe_local_partition_hand(p as *mut f32, m, n, ld)
    });
    same(&t, &h, "probe_local_partition");
    // a 48 x 40 copy (predicated on the 64 x 64 grid of tiles) from the first half of the
    // buffer to the second
    let (m, n, lda, ldb) = (48, 40, 48, 48);
    let copy = |typed: bool| {
        run((2, 2, 1), (256, 1, 1), &init, move |p| unsafe {
            let (a, b) = (p as *mut f32, (p as *mut f32).add(2048));
            if typed {
                probe_tiled_copy_typed(a, b, m, n, lda, ldb)
            } else {
                probe_tiled_copy_hand(a, b, m, n, lda, ldb)
            }
        })
    };
    let (t, h) = (copy(true), copy(false));
    same(&t, &h, "probe_tiled_copy");
    for j in 0..n as usize {
        for i in 0..m as usize {
            assert_eq!(
                t.0[2048 + i + j * ldb as usize],
                init.0[i + j * lda as usize],
                "B({i}, {j})"
            );
        }
    }
    for probe in [
        "crd2idx_mixed",
        "crd2idx_static",
        "local_tile",
        "local_partition",
        "tiled_copy",
    ] {
        report::record(&format!("probe_{probe}_typed"), 1);
        report::record(&format!("probe_{probe}_hand"), 1);
    }
}

/// The TiledMMA `partition_c` probe: 128 threads write their `((_2,_2),_4,_8)` accumulator
/// positions of a 128x128 column-major tile with `ldc = 136`; typed and hand-written kernels
/// write the same values, and together the threads cover the tile exactly (the padding rows
/// stay untouched).
#[test]
fn tiled_mma_partition_c_probe_matches_its_twin() {
    let ldc = 136usize;
    let go = |typed: bool| {
        let mut b = vec![-1.0f32; 128 * ldc];
        let p = b.as_mut_ptr() as usize;
        // SAFETY: the probe writes rows 0..128 of columns 0..128 with leading dimension 136.
        unsafe {
            launch((1, 1, 1), (128, 1, 1), 0, || {
                if typed {
                    probe_mma_partition_c_typed(p as *mut f32, ldc as i32)
                } else {
                    probe_mma_partition_c_hand(p as *mut f32, ldc as i32)
                }
            })
        };
        b
    };
    let (t, h) = (go(true), go(false));
    assert!(
        t.iter().zip(&h).all(|(x, y)| x.to_bits() == y.to_bits()),
        "typed and hand-written probes differ"
    );
    for col in 0..128 {
        for row in 0..ldc {
            let v = t[row + col * ldc];
            if row < 128 {
                assert!((0.0..128.0).contains(&v), "C({row},{col}) not written: {v}");
            } else {
                assert_eq!(v, -1.0, "padding row {row} of column {col} written");
            }
        }
    }
    report::record("probe_mma_partition_c_typed", 1);
    report::record("probe_mma_partition_c_hand", 1);
}

/// Runs an SM80 mainloop probe pair (128 threads, `make_tiled_mma_permuted(SM80_16x8x16_F32F16F16F32_TN,
/// (_2,_2,_1), (_, _32, _))`) on random small-integer f16 tiles A (64 x `kk`) and B (64 x `kk`)
/// in shared memory, element `(r, k)` of operand `op` (0: A, 1: B) at half `place(op, r, k)`;
/// both kernels must give every thread's 32 accumulators exactly as the CPU computes
/// `C = A·Bᵀ` at the positions the TiledMMA's `partition_c` assigns them.
fn check_mainloop(
    kk: usize,
    place: &dyn Fn(usize, usize, usize) -> usize,
    typed: unsafe fn(*mut f32),
    hand: unsafe fn(*mut f32),
) {
    use layout_types::cute::atom::mma::*;
    use layout_types::cute::prelude::*;
    const F16: [(u16, f32); 5] = [
        (0xC000, -2.0),
        (0xBC00, -1.0),
        (0, 0.0),
        (0x3C00, 1.0),
        (0x4000, 2.0),
    ];
    let n = 2 * 64 * kk; // A then B, row-major (r, k)
    let mut r = Rng(7);
    let picks: Vec<usize> = (0..n)
        .map(|_| (r.f32_pm1().abs() * 4.99) as usize)
        .collect();
    let val: Vec<f32> = picks.iter().map(|&i| F16[i].1).collect();
    // the shared-memory image: element (r, k) of each operand where the kernels read it
    let mut bits = vec![0u16; n];
    let mut seen = vec![false; n];
    for op in 0..2 {
        for row in 0..64 {
            for k in 0..kk {
                let at = place(op, row, k);
                assert!(!seen[at], "two elements placed at half {at}");
                seen[at] = true;
                bits[at] = F16[picks[op * 64 * kk + row * kk + k]].0;
            }
        }
    }
    let go = |f: unsafe fn(*mut f32)| {
        let mut c = vec![f32::NAN; 128 * 32];
        let (p, src) = (c.as_mut_ptr() as usize, bits.as_ptr() as usize);
        // SAFETY: 128 threads, `2 n` bytes of shared memory (filled by thread 0 before a
        // barrier), 128 * 32 floats out.
        unsafe {
            launch((1, 1, 1), (128, 1, 1), 2 * n as u32, || {
                if device::thread::thread_idx_x() == 0 {
                    let s = device::shared::dynamic_shared_mem::<u16>();
                    for i in 0..n {
                        *s.add(i) = *(src as *const u16).add(i);
                    }
                }
                device::thread::sync_threads();
                f(p as *mut f32)
            })
        };
        c
    };
    let (t, h) = (go(typed), go(hand));
    let mma = make_tiled_mma_permuted(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        layout!((_2, _2, _1):(_1, _2, _4)),
        (Underscore, _32, Underscore),
    );
    let id = make_tensor(Counting(0i32), layout!((_64, _64):(_1, _64))); // C (M, N)
    for thr in 0..128usize {
        let pc = mma.get_slice(thr as i32).partition_c(&id);
        for i in 0..32 {
            let mn = pc.engine.0 + pc.layout.call(i as i32);
            let (m, n) = (mn as usize % 64, mn as usize / 64);
            let want: f32 = (0..kk)
                .map(|k| val[m * kk + k] * val[64 * kk + n * kk + k])
                .sum();
            assert_eq!(
                t[32 * thr + i],
                want,
                "typed: thread {thr} accumulator {i} = C({m},{n})"
            );
            assert_eq!(
                h[32 * thr + i],
                want,
                "hand: thread {thr} accumulator {i} = C({m},{n})"
            );
        }
    }
}

/// The SM80 mainloop step through the `ldmatrix` TiledCopies (typed: the host emulation of
/// `copy`) and its hand-written twin (the warp emulator's `ldmatrix`), on random small-integer
/// f16 tiles (64 x 32, K-major) in shared memory.
#[test]
fn ldsm_mainloop_probe_matches_its_twin_and_the_cpu() {
    let place = |op: usize, r: usize, k: usize| op * 64 * 32 + r * 32 + k;
    check_mainloop(
        32,
        &place,
        probe_ldsm_mainloop_typed,
        probe_ldsm_mainloop_hand,
    );
    report::record("probe_ldsm_mainloop_typed", 1);
    report::record("probe_ldsm_mainloop_hand", 1);
}

/// The same step over swizzled tiles (64 x 64, K-major, the 128-byte swizzle), each element
/// placed where the value algebra's `ComposedLayout::element_offset` of the typed tiles' printed
/// layouts puts it (A: `Sw<3,4,3> o smem_ptr[16b]`, the swizzle of byte addresses; B: `Sw<3,3,3>
/// o _0`, of element offsets).
#[test]
fn ldsm_swizzle_probe_matches_its_twin_and_the_cpu() {
    use layout_types::cute::atom::gmma::*;
    use layout_types::cute::prelude::*;
    use layout_types::value::swizzle::{ComposedLayout, Swizzle};
    let a = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft);
    let b = tile_to_shape(
        make_composed_layout(Swizzle::<3, 3, 3>, layout!((_8, _64):(_64, _1))),
        (_64, _64),
        LayoutLeft,
    );
    let tiles: [ComposedLayout; 2] = [
        a.to_string().parse().unwrap(),
        b.to_string().parse().unwrap(),
    ];
    assert_eq!(
        tiles[0].to_string(),
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))"
    );
    assert_eq!(
        tiles[1].to_string(),
        "Sw<3,3,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))"
    );
    let place = |op: usize, r: usize, k: usize| {
        let i = tiles[op].element_offset((r + 64 * k) as i64).unwrap();
        op * 64 * 64 + i as usize
    };
    check_mainloop(
        64,
        &place,
        probe_ldsm_swizzle_typed,
        probe_ldsm_swizzle_hand,
    );
    report::record("probe_ldsm_swizzle_typed", 1);
    report::record("probe_ldsm_swizzle_hand", 1);
}
