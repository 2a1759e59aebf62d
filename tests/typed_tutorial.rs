//! CuTe's tutorial GEMM (`examples/cute/tutorial/sgemm_1.cu`, `gemm_device`) written with the
//! typed API, run on the CPU: the threads of a CTA are simulated one after the other between the
//! barriers. The kernel body below is doc/typed-layer.md's tutorial GEMM.

use cute_rs::layout_types::cute::prelude::*;

/// One CTA of the tutorial GEMM: `C = alpha·A·B + beta·C` with `A: (M,K):(_1,ldA)`,
/// `B: (N,K):(_1,ldB)`, `C: (M,N):(_1,ldC)`, CTA tile `(_128,_128,_8)`, threads `(_32,_8)` for the
/// copies and `(_16,_16)` for the math. `smem_a` / `smem_b` hold the CTA's shared memory.
#[allow(clippy::too_many_arguments)]
fn gemm_cta(
    (m, n, k): (i32, i32, i32),
    (bm, bn): (i32, i32),
    a: *mut f32,
    lda: i32,
    b: *mut f32,
    ldb: i32,
    c: *mut f32,
    ldc: i32,
    (alpha, beta): (f32, f32),
    smem_a: &mut [f32; 128 * 8],
    smem_b: &mut [f32; 128 * 8],
) {
    // --- the kernel body, as in sgemm_1.cu ------------------------------------------------
    let m_a = make_tensor(make_gmem_ptr(a), layout!((m, k):(_1, lda)));
    let m_b = make_tensor(make_gmem_ptr(b), layout!((n, k):(_1, ldb)));
    let m_c = make_tensor(make_gmem_ptr(c), layout!((m, n):(_1, ldc)));

    let cta_tiler = (_128, _128, _8);
    let cta_coord = (bm, bn, Underscore);
    let g_a = m_a.local_tile_proj(cta_tiler, cta_coord, (_1, X, _1)); // (BLK_M,BLK_K,k)
    let g_b = m_b.local_tile_proj(cta_tiler, cta_coord, (X, _1, _1)); // (BLK_N,BLK_K,k)
    let g_c = m_c.local_tile_proj(cta_tiler, cta_coord, (_1, _1, X)); // (BLK_M,BLK_N)

    let s_a = make_tensor(
        make_smem_ptr(smem_a.as_mut_ptr()),
        make_layout_left((_128, _8)),
    );
    let s_b = make_tensor(
        make_smem_ptr(smem_b.as_mut_ptr()),
        make_layout_left((_128, _8)),
    );

    let t_a = layout!((_32, _8):(_1, _32));
    let t_b = layout!((_32, _8):(_1, _32));
    let t_c = layout!((_16, _16):(_1, _16));

    let mut acc: Vec<_> = (0..256)
        .map(|tid: i32| {
            let t_cg_c = g_c.local_partition(t_c, tid); // (THR_M,THR_N)
            let t_cr_c = make_fragment_like::<f32, _, _, _>(&t_cg_c);
            clear(&t_cr_c.clone_tensor());
            t_cr_c
        })
        .collect();

    let k_tile_max = (k + 7) / 8;
    for k_tile in 0..k_tile_max {
        for tid in 0..256 {
            let t_ag_a = g_a.local_partition(t_a, tid); // (THR_M,THR_K,k)
            let t_as_a = s_a.local_partition(t_a, tid); // (THR_M,THR_K)
            let t_bg_b = g_b.local_partition(t_b, tid);
            let t_bs_b = s_b.local_partition(t_b, tid);
            unsafe {
                copy_tensor(&t_ag_a.slice((Underscore, Underscore, k_tile)), &t_as_a);
                copy_tensor(&t_bg_b.slice((Underscore, Underscore, k_tile)), &t_bs_b);
            }
        }
        cp_async_fence();
        cp_async_wait::<0>();
        // __syncthreads()
        for (tid, t_cr_c) in acc.iter_mut().enumerate() {
            let tid = tid as i32;
            let t_cs_a = s_a.local_partition_proj(t_c, tid, (_1, X)); // (THR_M,BLK_K)
            let t_cs_b = s_b.local_partition_proj(t_c, tid, (X, _1)); // (THR_N,BLK_K)
            gemm(&t_cs_a, &t_cs_b, &t_cr_c.tensor());
        }
        // __syncthreads()
    }
    for (tid, t_cr_c) in acc.iter_mut().enumerate() {
        let t_cg_c = g_c.local_partition(t_c, tid as i32);
        unsafe { axpby(alpha, &t_cr_c.tensor(), beta, &t_cg_c) };
    }
}

/// Fragments are owned; this gives a tensor over a fragment without a `&mut` borrow
/// (the simulation clears each one once).
trait CloneTensor {
    type T;
    fn clone_tensor(&self) -> Self::T;
}
impl<T: Copy, L: cute_rs::layout_types::cute::tensor::FragmentLayout> CloneTensor
    for Fragment<T, L>
{
    type T = Tensor<Reg<T>, L>;
    fn clone_tensor(&self) -> Self::T {
        make_tensor(
            cute_rs::layout_types::cute::tensor::make_reg_ptr(self.data.as_ptr() as *mut T),
            self.layout,
        )
    }
}

#[test]
fn tutorial_sgemm_matches_a_reference() {
    let (m, n, k) = (256i32, 128i32, 24i32);
    let (lda, ldb, ldc) = (m + 4, n, m);
    let mut a: Vec<f32> = (0..lda * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let mut b: Vec<f32> = (0..ldb * k).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let mut c: Vec<f32> = (0..ldc * n).map(|i| (i % 3) as f32).collect();
    let c0 = c.clone();
    let (alpha, beta) = (2.0f32, -1.0f32);
    let (mut sa, mut sb) = ([0f32; 1024], [0f32; 1024]);
    for bm in 0..m / 128 {
        for bn in 0..n / 128 {
            gemm_cta(
                (m, n, k),
                (bm, bn),
                a.as_mut_ptr(),
                lda,
                b.as_mut_ptr(),
                ldb,
                c.as_mut_ptr(),
                ldc,
                (alpha, beta),
                &mut sa,
                &mut sb,
            );
        }
    }
    for j in 0..n {
        for i in 0..m {
            let mut s = 0f32;
            for l in 0..k {
                s += a[(i + l * lda) as usize] * b[(j + l * ldb) as usize];
            }
            let want = alpha * s + beta * c0[(i + j * ldc) as usize];
            assert_eq!(c[(i + j * ldc) as usize], want, "C({i},{j})");
        }
    }
}
