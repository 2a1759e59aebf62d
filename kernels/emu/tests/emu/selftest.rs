//! The checks can fail: wrong results, wrong launches and wrong kernels are caught.

use device::cp_async::{cp_async_cg_16, cp_async_fence, cp_async_wait};
use device::emu::{LaunchError, SHARED_POISON, try_launch};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{sync_threads, thread_idx_x};
use device::vec::{Float4, ld_shared_v4_f32};
use kernels_emu::check::{CopyCase, GemmCase, compare_bytes, gemm_data, launch_gemm, run_copy};
use kernels_emu::geometry::{COPY_VARIANTS, GEMM_ENTRIES, Tile};

fn panic_message(r: Result<(), LaunchError>) -> String {
    match r {
        Err(LaunchError::Panic { message, .. }) => message,
        other => panic!("expected a kernel panic, got {other:?}"),
    }
}

#[test]
fn corrupted_gemm_results_are_caught() {
    let e = &GEMM_ENTRIES[4]; // sgemm_64x64x8_nn
    let case = GemmCase {
        beta: 0.5,
        ..GemmCase::new(70, 9, 33)
    };
    let d = gemm_data(e, &case, 5);
    let c = launch_gemm(e, &case, &d).unwrap();
    d.check(&c).unwrap();
    let ldc = d.g.ldc;
    // off by one row: column 3 shifted up by one element
    let mut shifted = c.clone();
    for i in 0..d.g.m - 1 {
        shifted[i + 3 * ldc] = c[i + 1 + 3 * ldc];
    }
    assert!(d.check(&shifted).is_err());
    // one element off by 1e-3 (the bound of a 33-term sum of products of magnitude <= 1 is
    // below 1e-5)
    let mut nudged = c.clone();
    nudged[17 + 2 * ldc] += 1e-3;
    let err = d.check(&nudged).unwrap_err();
    assert!(
        err.starts_with("1 of 630 elements wrong: C(17, 2)"),
        "{err}"
    );
    // a NaN
    let mut nan = c.clone();
    nan[0] = f32::NAN;
    assert!(d.check(&nan).is_err());
}

#[test]
fn corrupted_copies_are_caught() {
    let e = [1u8, 2, 3, 4, 5, 6, 7, 8];
    let mut g = e;
    g[5] ^= 1;
    let err = compare_bytes(&e, &g, 4, 0, 2).unwrap_err();
    assert!(err.contains("element (0, 1)"), "{err}");
}

#[test]
fn a_gemm_launched_with_too_few_threads_is_caught() {
    // half the CTA's threads: half of every tile's outputs are never written (C starts NaN)
    let e = GEMM_ENTRIES
        .iter()
        .find(|e| e.tile == Tile::M128N128K8)
        .unwrap();
    let case = GemmCase::new(128, 128, 8);
    let d = gemm_data(e, &case, 1);
    let wrong = kernels_emu::geometry::GemmEntry {
        tile: Tile::M64N64K8,
        ..*e
    };
    // M64N64K8 launches 64 threads and the smaller smem: the 128x128 kernel must fail
    let r = std::panic::catch_unwind(|| launch_gemm(&wrong, &case, &d));
    // (`Ok(Err(_))`: it wrote outside C; `Err(_)`: a shared-memory access out of range)
    if let Ok(Ok(c)) = r {
        assert!(d.check(&c).is_err(), "a wrong launch passed the check");
    }
}

#[test]
fn too_little_shared_memory_is_caught() {
    let e = &GEMM_ENTRIES[0];
    let (a, b) = (vec![1f32; 128 * 8], vec![1f32; 8 * 128]);
    let mut c = vec![0f32; 128 * 128];
    let (pa, pb, pc) = (
        a.as_ptr() as usize,
        b.as_ptr() as usize,
        c.as_mut_ptr() as usize,
    );
    let smem = e.tile.smem_bytes() / 4; // half a stage: the B tile is out of range
    // SAFETY: the buffers hold the 128x128x8 problem.
    let r = unsafe {
        try_launch((1, 1, 1), (256, 1, 1), smem, || {
            (e.entry)(
                128,
                128,
                8,
                8,
                0,
                1.0,
                pa as *const f32,
                128,
                pb as *const f32,
                8,
                0.0,
                pc as *mut f32,
                128,
            )
        })
    };
    let m = panic_message(r);
    assert!(m.contains("outside dynamic shared memory"), "{m}");
}

#[test]
fn a_misaligned_vector_copy_is_caught() {
    let v = &COPY_VARIANTS[0]; // tiled_copy_row_f32_v4: the host would refuse this base
    let r = std::panic::catch_unwind(|| {
        run_copy(
            v,
            &CopyCase {
                m: 4,
                n: 8,
                lds: 8,
                ldd: 8,
                offset: 4,
            },
            0,
        )
    });
    let msg = r.expect_err("a misaligned 128-bit access must fail the launch");
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("not 16-byte aligned"), "{msg}");
}

#[test]
fn reading_shared_memory_before_the_cp_async_wait_is_caught() {
    let src = [Float4 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: 4.0,
    }; 32];
    let mut seen = [[0u32; 2]; 32];
    let (ps, po) = (src.as_ptr() as usize, seen.as_mut_ptr() as usize);
    // SAFETY: 32 threads, one element each.
    unsafe {
        device::emu::launch((1, 1, 1), (32, 1, 1), 512, || {
            let t = thread_idx_x() as usize;
            let s = dynamic_shared_mem::<Float4>();
            let a = to_shared_addr(s.add(t));
            cp_async_cg_16(a, (ps as *const Float4).add(t) as *const u8);
            cp_async_fence();
            let early = ld_shared_v4_f32(a).x.to_bits(); // a bug: before the wait
            cp_async_wait::<0>();
            sync_threads();
            let late = ld_shared_v4_f32(a).x.to_bits();
            *(po as *mut [u32; 2]).add(t) = [early, late];
        })
    };
    let poison = u32::from_ne_bytes([SHARED_POISON; 4]);
    assert!(
        seen.iter()
            .all(|&[early, late]| early == poison && late == 1f32.to_bits())
    );
}

#[test]
fn out_of_range_shared_addresses_and_traps_name_the_thread() {
    // SAFETY: touches no memory but the (checked) shared window.
    let r = unsafe {
        try_launch((2, 1, 1), (64, 1, 1), 256, || {
            if device::thread::block_idx_x() == 1 && thread_idx_x() == 40 {
                let _ = ld_shared_v4_f32(device::emu::SHARED_BASE + 256);
            }
        })
    };
    match r {
        Err(LaunchError::Panic {
            block,
            thread,
            message,
        }) => {
            assert_eq!((block, thread), ((1, 0, 0), (40, 0, 0)));
            assert!(
                message.contains("outside dynamic shared memory"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    // SAFETY: no memory.
    let r = unsafe { try_launch((1, 1, 1), (2048, 1, 1), 0, || {}) };
    assert!(matches!(r, Err(LaunchError::Config(_))));
}
