// Transpose probe (issue #12): which launch shape, raster, cache hint and load path lets an
// f32 transpose through swizzled smem reach the memcpy D2D rate on this GPU? Plain CUDA C++, so
// the answer is about the hardware, not about the Rust kernels; the winner is then written with
// the typed layer in kernels/copy.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/tp tools/gpu/copy/transpose-probe.cu && /tmp/tp
//
// Every variant is checked bit-exactly against a reference transpose first; ratios are memcpy
// D2D time / kernel time for the same bytes (median of 7 batches of back-to-back launches, the
// memcpy measured right before each variant), as `host bench copy` does.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

enum Raster { RM = 0, RN = 1, RDIAG = 2, RG8 = 3 };

// Load cache operators (LD) and store cache operators (ST) of the probe.
enum Ld { LPLAIN = 0, LNC = 1, LCS = 2, L256 = 3, LLU = 4, LCPASYNC = 5 };
enum St { SPLAIN = 0, SCS = 1, SCG = 2, SWT = 3, SBULK = 4 };
#define LDV(q) asm volatile(q " {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p))
template <int LD> __device__ __forceinline__ float4 ld(const float4* p) {
    float4 v;
    if (LD == LNC) LDV("ld.global.nc.L1::no_allocate.v4.f32");
    else if (LD == LCS) LDV("ld.global.cs.v4.f32");
    else if (LD == L256) LDV("ld.global.L2::256B.v4.f32");
    else if (LD == LLU) LDV("ld.global.lu.v4.f32");
    else LDV("ld.global.v4.f32");
    return v;
}
#define STV(q) asm volatile(q " [%0], {%1,%2,%3,%4};" :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory")
template <int ST> __device__ __forceinline__ void st(float4* p, float4 v) {
    if (ST == SCS) STV("st.global.cs.v4.f32");
    else if (ST == SCG) STV("st.global.cg.v4.f32");
    else if (ST == SWT) STV("st.global.wt.v4.f32");
    else STV("st.global.v4.f32");
}

// A: M x N row-major (lda), B: N x M row-major (ldb). Tile TM x TN of A, NT threads.
template <int TM, int TN, int NT, int RASTER, int LD, int ST, int TR>
__global__ void __launch_bounds__(NT) transpose(const float* __restrict__ a, float* __restrict__ b,
                                                int m, int n, int lda, int ldb) {
    extern __shared__ float4 smem4[];
    float* s = reinterpret_cast<float*>(smem4);
    const int tm = m / TM, tn = n / TN;  // whole tiles only (the probe's shapes)
    int bid = blockIdx.x, bm, bn;
    if (RASTER == RM) { bm = bid % tm; bn = bid / tm; }
    else if (RASTER == RN) { bn = bid % tn; bm = bid / tn; }
    else if (RASTER == RDIAG) { int i = bid % tm, j = bid / tm; bm = i; bn = (i + j) % tn; }
    else if (RASTER == RG8) { // groups of 8 tile rows of A, m fastest inside a group: 8 x tn blocks
        int g = bid / (8 * tn), r = bid % (8 * tn);
        bm = g * 8 + r % 8; bn = r / 8;
    } else { // RASTER >= 8: groups of RASTER tile rows, m fastest inside
        constexpr int G = RASTER >= 8 ? RASTER : 8;
        int g = bid / (G * tn), r = bid % (G * tn);
        bm = g * G + r % G; bn = r / G;
    }
    const int tid = threadIdx.x;
    const float* ga = a + (size_t)bm * TM * lda + (size_t)bn * TN;
    float* gb = TR ? b + (size_t)bn * TN * ldb + (size_t)bm * TM : b + (size_t)bm * TM * ldb + (size_t)bn * TN;
    constexpr int VL = TM * TN / 4 / NT;  // vectors per thread
    constexpr int QM = TN / 4 >= 8 ? 7 : TN / 4 - 1;  // the swizzle's bits of the 16-byte unit
    // load: vector v = tid + NT*j -> row v / (TN/4), quad v % (TN/4)
#pragma unroll
    for (int j = 0; j < VL; ++j) {
        int v = tid + NT * j, r = v / (TN / 4), q = v % (TN / 4);
        int so = r * TN + (((q ^ (r >> 2)) & QM) | (q & ~QM)) * 4;
        const float4* gp = reinterpret_cast<const float4*>(ga + (size_t)r * lda + 4 * q);
        if (LD == LCPASYNC) {
            unsigned sa = (unsigned)__cvta_generic_to_shared(s + so);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(gp));
        } else {
            float4 x = ld<LD>(gp);
            *reinterpret_cast<float4*>(s + so) = x;
        }
    }
    if (LD == LCPASYNC) asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    if (!TR) {  // the same tile pattern with no transpose: B tile (bm, bn) = A tile (bm, bn)
#pragma unroll
        for (int j = 0; j < VL; ++j) {
            int v = tid + NT * j, r = v / (TN / 4), q = v % (TN / 4);
            int so = r * TN + (((q ^ (r >> 2)) & QM) | (q & ~QM)) * 4;
            st<ST>(reinterpret_cast<float4*>(gb + (size_t)r * ldb + 4 * q), *reinterpret_cast<float4*>(s + so));
        }
        return;
    }
    // store: warp chunk u = v / 32 covers 4 rows of B (n) x 32 of m; lane -> (n = lane/8, m quad lane%8)
#pragma unroll
    for (int j = 0; j < VL; ++j) {
        int v = tid + NT * j, u = v / 32, lane = v % 32;
        constexpr int CM = TM >= 32 ? TM / 32 : 1;
        int um = u % CM, un = u / CM;
        int nn = un * 4 + lane / 8, mm = um * 32 + (lane % 8) * 4;
        float4 x;
        float* xs = &x.x;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            int r = mm + i, q = nn >> 2;
            xs[i] = s[r * TN + (((q ^ (r >> 2)) & QM) | (q & ~QM)) * 4 + (nn & 3)];
        }
        if (ST == SBULK) {  // into the B tile in smem (row-major TN x TM, after the A tile)
            *reinterpret_cast<float4*>(s + TM * TN + nn * TM + mm) = x;
        } else {
            float4* gp = reinterpret_cast<float4*>(gb + (size_t)nn * ldb + mm);
            st<ST>(gp, x);
        }
    }
    if (ST == SBULK) {  // one bulk (TMA, non-tensor) store of each B row: TM*4 bytes
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (tid < TN) {
            unsigned sa = (unsigned)__cvta_generic_to_shared(s + TM * TN + tid * TM);
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         :: "l"(gb + (size_t)tid * ldb), "r"(sa), "n"(TM * 4) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
    }
}


// 64x64 tile, 256 threads, both global sides as bulk (TMA, non-tensor) row copies: the A tile's 64
// rows (256 B each) land in dense smem by `cp.async.bulk` on an mbarrier (BULKLD) or by
// ld.global.v4 / st.shared.v4 (!BULKLD); threads read columns (lane = column: conflict-free) into
// 4-vectors along m and store them into a B tile whose rows are padded to 68 floats (conflict-free
// 128-bit stores); 64 bulk stores write the B rows.
template <int RASTER, int BULKLD, int SHARED = 0, int NT = 256>
__global__ void __launch_bounds__(NT) tr_bulk(const float* __restrict__ a, float* __restrict__ b,
                                              int m, int n, int lda, int ldb) {
    // SHARED: the B tile reuses the A tile's smem (64 x 68 floats in all) after a barrier
    extern __shared__ __align__(128) float s[];
    float* sa = s;                                  // 64 x 64 dense
    float* sb = SHARED ? s : s + 64 * 64;           // 64 x 68 (B rows, padded)
    unsigned long long* bar = reinterpret_cast<unsigned long long*>(s + (SHARED ? 64 * 68 : 64 * 64 + 64 * 68));
    constexpr int J = 1024 / NT;  // 4-vectors per thread
    const int tm = m / 64, tn = n / 64;
    int bid = blockIdx.x, bm, bn;
    if (RASTER == RM) { bm = bid % tm; bn = bid / tm; } else { bn = bid % tn; bm = bid / tn; }
    const int tid = threadIdx.x;
    const float* ga = a + (size_t)bm * 64 * lda + (size_t)bn * 64;
    float* gb = b + (size_t)bn * 64 * ldb + (size_t)bm * 64;
    unsigned bar_s = (unsigned)__cvta_generic_to_shared(bar);
    if (BULKLD) {
        if (tid == 0) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar_s) : "memory");
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16384;" :: "r"(bar_s) : "memory");
        }
        __syncthreads();
        if (tid < 64) {
            unsigned d = (unsigned)__cvta_generic_to_shared(sa + tid * 64);
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                         :: "r"(d), "l"(ga + (size_t)tid * lda), "r"(bar_s) : "memory");
        }
        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}"
                     :: "r"(bar_s) : "memory");
    } else {
#pragma unroll
        for (int j = 0; j < J; ++j) {
            int v = tid + NT * j, r = v / 16, q = v % 16;
            *reinterpret_cast<float4*>(sa + r * 64 + 4 * q) = ld<LPLAIN>(reinterpret_cast<const float4*>(ga + (size_t)r * lda + 4 * q));
        }
        __syncthreads();
    }
    const int lane = tid % 32, w = tid / 32, c = lane + 32 * (w & 1);
    constexpr int WP = NT / 64;  // warp pairs
    float4 x[J];
#pragma unroll
    for (int j = 0; j < J; ++j) {
        int p = (w >> 1) + WP * j;  // row quad: rows 4p..4p+3
        x[j] = make_float4(sa[(4 * p) * 64 + c], sa[(4 * p + 1) * 64 + c], sa[(4 * p + 2) * 64 + c], sa[(4 * p + 3) * 64 + c]);
        if (!SHARED) *reinterpret_cast<float4*>(sb + c * 68 + 4 * p) = x[j];
    }
    if (SHARED) {
        __syncthreads();
#pragma unroll
        for (int j = 0; j < J; ++j) {
            int p = (w >> 1) + WP * j;
            *reinterpret_cast<float4*>(sb + c * 68 + 4 * p) = x[j];
        }
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid < 64) {
        unsigned sa2 = (unsigned)__cvta_generic_to_shared(sb + tid * 68);
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;"
                     :: "l"(gb + (size_t)tid * ldb), "r"(sa2) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// The reference: one element per thread.
__global__ void ref_transpose(const float* a, float* b, int m, int n, int lda, int ldb) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= (size_t)m * n) return;
    int r = i / n, c = i % n;
    b[(size_t)c * ldb + r] = a[(size_t)r * lda + c];
}
__global__ void count_diff(const float* x, const float* y, size_t len, unsigned long long* bad) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < len && __float_as_uint(x[i]) != __float_as_uint(y[i])) atomicAdd(bad, 1ull);
}
__global__ void fill(float* x, size_t len) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < len) x[i] = __uint_as_float((unsigned)(i * 2654435761u) | 0x3f800000u) ;
}
// One 16-byte vector per thread, the issue's plain copy.
__global__ void copy_v4(const float4* a, float4* b, size_t nv) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < nv) b[i] = a[i];
}

template <class F> static float batched(int reps, F f) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    f();
    std::vector<float> t;
    for (int s = 0; s < 7; ++s) {
        CK(cudaEventRecord(e0));
        for (int r = 0; r < reps; ++r) f();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms / reps);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[3];
}

struct Bufs { float *a, *b, *r; size_t cap; unsigned long long* bad; };

typedef void (*Kfn)(const float*, float*, int, int, int, int);
static void run_k(const char*, Bufs&, int, int, int, int, bool, Kfn, int, int, int, int, int);
template <int TM, int TN, int NT, int RASTER, int LD, int ST, int TR = 1>
static void run(const char* name, Bufs& B, int m, int n, int pad, int reps, bool zeros) {
    run_k(name, B, m, n, pad, reps, zeros, transpose<TM, TN, NT, RASTER, LD, ST, TR>, TM, TN, NT,
          TM * TN * 4 * (ST == SBULK ? 2 : 1), TR);
}
static void run_k(const char* name, Bufs& B, int m, int n, int pad, int reps, bool zeros, Kfn k, int TM, int TN,
                  int NT, int smem, int TR) {
    int lda = n + pad, ldb = m + pad;
    size_t la = (size_t)m * lda, lb = (size_t)n * ldb;
    if (smem > 48 * 1024) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int grid = (m / TM) * (n / TN);
    // check
    fill<<<(la + 255) / 256, 256>>>(B.a, la);
    CK(cudaMemset(B.b, 0, lb * 4)); CK(cudaMemset(B.r, 0, lb * 4));
    if (TR) ref_transpose<<<((size_t)m * n + 255) / 256, 256>>>(B.a, B.r, m, n, lda, ldb);
    else CK(cudaMemcpy(B.r, B.a, la * 4, cudaMemcpyDeviceToDevice));
    k<<<grid, NT, smem>>>(B.a, B.b, m, n, lda, ldb);
    CK(cudaMemset(B.bad, 0, 8));
    count_diff<<<(lb + 255) / 256, 256>>>(B.b, B.r, lb, B.bad);
    unsigned long long bad; CK(cudaMemcpy(&bad, B.bad, 8, cudaMemcpyDeviceToHost));
    size_t bytes = (size_t)m * n * 4;
    if (zeros) CK(cudaMemset(B.a, 0, la * 4));  // as `host bench copy`
    float mc = batched(reps, [&] { CK(cudaMemcpyAsync(B.b, B.a, bytes, cudaMemcpyDeviceToDevice)); });
    float t = batched(reps, [&] { k<<<grid, NT, smem>>>(B.a, B.b, m, n, lda, ldb); });
    printf("%-40s %s %5dx%-5d pad %3d  %7.0f GB/s  memcpy %7.0f GB/s  ratio %.3f  %s\n", name, zeros ? "zero" : "rand", m, n, pad,
           2.0 * bytes / (t * 1e6), 2.0 * bytes / (mc * 1e6), mc / t, bad ? "MISMATCH" : "ok");
    fflush(stdout);
}

#define V(TM, TN, NT, R, L, S) run<TM, TN, NT, R, L, S>(#TM "x" #TN " nt" #NT " " #R " " #L " " #S, B, m, n, pad, reps, zeros)

int main() {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    Bufs B;
    B.cap = (size_t)16384 * (16384 + 64);
    CK(cudaMalloc(&B.a, B.cap * 4)); CK(cudaMalloc(&B.b, B.cap * 4)); CK(cudaMalloc(&B.r, B.cap * 4));
    CK(cudaMalloc(&B.bad, 8));
    struct Sz { int m, n, pad, reps; bool zeros; } sizes[] = {
        {8192, 8192, 0, 10, true}, {16384, 16384, 0, 3, true}};
    for (auto s : sizes) {
        int m = s.m, n = s.n, pad = s.pad, reps = s.reps;
        bool zeros = s.zeros;
        size_t bytes = (size_t)m * n * 4;
        {
            if (zeros) CK(cudaMemset(B.a, 0, bytes)); else fill<<<(bytes / 4 + 255) / 256, 256>>>(B.a, bytes / 4);
            float mc = batched(reps, [&] { CK(cudaMemcpyAsync(B.b, B.a, bytes, cudaMemcpyDeviceToDevice)); });
            size_t nv = bytes / 16;
            float t = batched(reps, [&] { copy_v4<<<(nv + 255) / 256, 256>>>((const float4*)B.a, (float4*)B.b, nv); });
            printf("%-40s %s %5dx%-5d          %7.0f GB/s  memcpy %7.0f GB/s  ratio %.3f\n", "copy one float4/thread",
                   zeros ? "zero" : "rand", m, n, 2.0 * bytes / (t * 1e6), 2.0 * bytes / (mc * 1e6), mc / t);
        }
        V(64, 64, 256, RM, LPLAIN, SPLAIN);   // the shipped shape (2-D grid m-fastest == RM)
        int bs = 64 * 64 * 4 + 64 * 68 * 4 + 16, bs1 = 64 * 68 * 4 + 16;
        run_k("bulk ld + bulk st RM", B, m, n, pad, reps, zeros, tr_bulk<RM, 1>, 64, 64, 256, bs, 1);
        run_k("ldg + bulk st (padded B) RM", B, m, n, pad, reps, zeros, tr_bulk<RM, 0>, 64, 64, 256, bs, 1);
        run_k("bulk ld + bulk st RM, one buffer", B, m, n, pad, reps, zeros, tr_bulk<RM, 1, 1>, 64, 64, 256, bs1, 1);
        run_k("ldg + bulk st RM, one buffer", B, m, n, pad, reps, zeros, tr_bulk<RM, 0, 1>, 64, 64, 256, bs1, 1);
        run_k("bulk ld + bulk st RM, one buf, 128 thr", B, m, n, pad, reps, zeros, tr_bulk<RM, 1, 1, 128>, 64, 64, 128, bs1, 1);
        run_k("ldg + bulk st RM, one buf, 128 thr", B, m, n, pad, reps, zeros, tr_bulk<RM, 0, 1, 128>, 64, 64, 128, bs1, 1);
        run_k("ldg + bulk st RM, 128 thr", B, m, n, pad, reps, zeros, tr_bulk<RM, 0, 0, 128>, 64, 64, 128, bs, 1);
        run_k("bulk ld + bulk st RM, one buf, 512 thr", B, m, n, pad, reps, zeros, tr_bulk<RM, 1, 1, 512>, 64, 64, 512, bs1, 1);
        run_k("ldg + bulk st RM, one buffer (again)", B, m, n, pad, reps, zeros, tr_bulk<RM, 0, 1>, 64, 64, 256, bs1, 1);
        run_k("ldg + bulk st (padded B) RM (again)", B, m, n, pad, reps, zeros, tr_bulk<RM, 0>, 64, 64, 256, bs, 1);
    }
    return 0;
}
