// Transpose probe 2 (issue #12): can a persistent, pipelined 64x64 f32 transpose reach 0.98 of
// memcpy D2D at 256 MiB and 1 GiB? `transpose-probe.cu`'s best ("ldg + bulk st (padded B) RM",
// one CTA per tile) stops at 0.976-0.979. Here k * numSMs CTAs each walk the tiles
// t = blockIdx.x, blockIdx.x + gridDim.x, ... (m fastest, as RM) and overlap the next tiles'
// loads with this tile's smem transpose and bulk stores:
//   - "tma ld": a ring of SA A-tile stages, each filled by one TMA 2D tensor load (64x64, plain
//     layout) on its own mbarrier, SA tiles in flight;
//   - "reg ld": the next tile's A held in registers (4 x ld.global.v4 per thread) while this
//     tile is transposed, two dense A smem buffers;
//   - "bulk rows": the B tile padded to 68 floats, one cp.async.bulk per 256-byte B row;
//   - "tma st": the B tile dense (64 x 64, the float4 columns rotated per row so the 128-bit smem
//     stores are conflict-free) and written by one TMA 2D tensor store;
//   SB B buffers; a bulk store's smem is reused only after cp.async.bulk.wait_group.read.
//
//   nvcc -O3 -arch=sm_90a -std=c++17 -o /tmp/tp2 tools/gpu/copy/transpose-probe-persistent.cu && /tmp/tp2
//
// No -lcuda: cuTensorMapEncodeTiled comes from cudaGetDriverEntryPoint(ByVersion). Every variant
// is checked bit-exactly against a reference transpose first (random data, B cleared before);
// ratios are memcpy D2D time / kernel time for the same bytes, timed on zero data, the median of
// 7 batches of back-to-back launches, the memcpy measured right before each variant, as in
// transpose-probe.cu. Each size runs the variant list twice (the second pass marked "again").
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cuda.h>
#include <cudaTypedefs.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

enum Raster { RM = 0, RN = 1 };
enum Store { ROWS = 0, TENSOR = 1 };

__device__ __forceinline__ float4 ldg4(const float4* p) {
    float4 v;
    asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ unsigned smaddr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// ---------------------------------------------------------------------------------------------
// 1. The baseline, as in transpose-probe.cu: tr_bulk<RM, BULKLD = 0, SHARED = 0, NT = 256>
//    ("ldg + bulk st (padded B) RM"): one CTA per 64x64 tile, grid m fastest.
__global__ void __launch_bounds__(256) tr_bulk_base(const float* __restrict__ a, float* __restrict__ b,
                                                    int m, int n, int lda, int ldb) {
    constexpr int NT = 256;
    extern __shared__ __align__(128) float s[];
    float* sa = s;             // 64 x 64 dense
    float* sb = s + 64 * 64;   // 64 x 68 (B rows, padded)
    constexpr int J = 1024 / NT;  // 4-vectors per thread
    const int tm = m / 64;
    int bid = blockIdx.x, bm, bn;
    bm = bid % tm; bn = bid / tm;
    const int tid = threadIdx.x;
    const float* ga = a + (size_t)bm * 64 * lda + (size_t)bn * 64;
    float* gb = b + (size_t)bn * 64 * ldb + (size_t)bm * 64;
#pragma unroll
    for (int j = 0; j < J; ++j) {
        int v = tid + NT * j, r = v / 16, q = v % 16;
        *reinterpret_cast<float4*>(sa + r * 64 + 4 * q) = ldg4(reinterpret_cast<const float4*>(ga + (size_t)r * lda + 4 * q));
    }
    __syncthreads();
    const int lane = tid % 32, w = tid / 32, c = lane + 32 * (w & 1);
    constexpr int WP = NT / 64;  // warp pairs
    float4 x[J];
#pragma unroll
    for (int j = 0; j < J; ++j) {
        int p = (w >> 1) + WP * j;  // row quad: rows 4p..4p+3
        x[j] = make_float4(sa[(4 * p) * 64 + c], sa[(4 * p + 1) * 64 + c], sa[(4 * p + 2) * 64 + c], sa[(4 * p + 3) * 64 + c]);
        *reinterpret_cast<float4*>(sb + c * 68 + 4 * p) = x[j];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid < 64) {
        unsigned sa2 = smaddr(sb + tid * 68);
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;"
                     :: "l"(gb + (size_t)tid * ldb), "r"(sa2) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// ---------------------------------------------------------------------------------------------
// Pieces of the persistent kernels (256 threads, 64x64 tiles, A m x n row-major, B n x m).

template <int STORE> struct BL {
    static constexpr int P = STORE == ROWS ? 68 : 64;  // B smem row pitch (floats)
    static constexpr int SZ = 64 * P;                  // floats per B buffer
};

template <int N> __device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}
__device__ __forceinline__ void fence_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ __forceinline__ unsigned mbar_try(unsigned bar, unsigned parity) {
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done;
}
// Wait for the phase with this parity to complete; a wait of more than ~4e9 clocks (a bug: the
// phase never completes) traps instead of hanging the run.
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    if (mbar_try(bar, parity)) return;
    const long long t0 = clock64();
    while (!mbar_try(bar, parity))
        if (clock64() - t0 > 4000000000ll) __trap();
}

// Dense 64x64 A tile in smem -> B tile in smem. Thread: column c of A (lane: conflict-free
// reads), row quads p = (w >> 1) + 4j. ROWS: B rows pitch 68 (conflict-free float4 stores).
// TENSOR: B dense pitch 64 with the row quad rotated by c, so the 8 lanes of a 128-bit store
// phase (consecutive c, same j) hit 8 different 16-byte bank groups.
template <int STORE>
__device__ __forceinline__ void tr_tile(const float* __restrict__ sa, float* __restrict__ sb, int tid) {
    const int lane = tid % 32, w = tid / 32, c = lane + 32 * (w & 1);
    float4 x[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        int p = (w >> 1) + 4 * j;
        if (STORE == TENSOR) p = (p + c) & 15;
        x[j] = make_float4(sa[(4 * p) * 64 + c], sa[(4 * p + 1) * 64 + c], sa[(4 * p + 2) * 64 + c], sa[(4 * p + 3) * 64 + c]);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        int p = (w >> 1) + 4 * j;
        if (STORE == TENSOR) p = (p + c) & 15;
        *reinterpret_cast<float4*>(sb + c * BL<STORE>::P + 4 * p) = x[j];
    }
}

// The B tile (bm, bn) from smem to global: ROWS by threads 0..63 (one 256-byte row each),
// TENSOR by thread 0 (one TMA 2D store, coordinates {m, n}). One bulk group per call per thread.
template <int STORE>
__device__ __forceinline__ void store_tile(const CUtensorMap* tb, float* b, const float* sb, int m, int bm, int bn, int tid) {
    if (STORE == ROWS) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;"
                     :: "l"(b + (size_t)(bn * 64 + tid) * m + bm * 64), "r"(smaddr(sb + tid * 68)) : "memory");
    } else {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                     :: "l"(reinterpret_cast<uint64_t>(tb)), "r"(smaddr(sb)), "r"(bm * 64), "r"(bn * 64) : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

__device__ __forceinline__ int tile_count(int T) {
    return (int)blockIdx.x < T ? (T - 1 - (int)blockIdx.x) / (int)gridDim.x + 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// 2. Persistent, TMA loads: SA A stages (16 KiB each, mbarrier each), SB B buffers.
//    smem: [SA x 4096 floats A][SB x BL::SZ floats B][SA x u64 mbarrier]
//
// Iteration i (tile t_i, stage st = i % SA, B buffer bi = i % SB):
//   SB == 1 and i > 0: storers wait_group.read 0 (store of i-1 has read B), __syncthreads
//   all: wait mbarrier[st] with parity (i / SA) & 1
//   all: transpose A[st] -> B[bi]; fence.proxy.async.shared::cta
//   SB >= 2: storers wait_group.read SB-2 (stores up to tile i+1-SB have read their buffer:
//            that buffer is written again at iteration i+1, after the barrier below)
//   __syncthreads  (A[st] fully read, B[bi] fully written)
//   thread 0: if i + SA < cnt: expect_tx + TMA load of tile i+SA into stage st
//   storers: bulk store B[bi] -> tile t_i, commit
template <int STORE, int SA, int SB, int MINB>
__global__ void __launch_bounds__(256, MINB) tr_tma(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb,
                                                   float* __restrict__ b, int m, int n) {
    extern __shared__ __align__(128) float s[];
    float* sA = s;
    float* sB = s + SA * 4096;
    unsigned long long* bar = reinterpret_cast<unsigned long long*>(sB + SB * BL<STORE>::SZ);
    const int tid = threadIdx.x, tm = m / 64, T = tm * (n / 64);
    const int cnt = tile_count(T);
    const bool storer = STORE == ROWS ? tid < 64 : tid == 0;
    if (tid == 0) {
        if (smaddr(s) & 127) __trap();  // TMA needs the tile stages 128-byte aligned
        asm volatile("prefetch.tensormap [%0];" :: "l"(reinterpret_cast<uint64_t>(&ta)) : "memory");
        if (STORE == TENSOR) asm volatile("prefetch.tensormap [%0];" :: "l"(reinterpret_cast<uint64_t>(&tb)) : "memory");
#pragma unroll
        for (int k = 0; k < SA; ++k)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smaddr(bar + k)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    auto issue = [&](int i) {  // thread 0: TMA load of this CTA's i-th tile into stage i % SA
        const int st = i % SA, t = blockIdx.x + i * gridDim.x, bm = t % tm, bn = t / tm;
        const unsigned bb = smaddr(bar + st);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16384;" :: "r"(bb) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smaddr(sA + st * 4096)), "l"(reinterpret_cast<uint64_t>(&ta)), "r"(bn * 64), "r"(bm * 64), "r"(bb)
                     : "memory");
    };
    if (tid == 0)
        for (int i = 0; i < SA && i < cnt; ++i) issue(i);
    for (int i = 0; i < cnt; ++i) {
        const int st = i % SA, bi = i % SB;
        const int t = blockIdx.x + i * gridDim.x, bm = t % tm, bn = t / tm;
        if (SB == 1 && i > 0) {
            if (storer) bulk_wait_read<0>();
            __syncthreads();
        }
        mbar_wait(smaddr(bar + st), (unsigned)(i / SA) & 1u);
        tr_tile<STORE>(sA + st * 4096, sB + bi * BL<STORE>::SZ, tid);
        fence_async_smem();
        if (SB >= 2 && storer) bulk_wait_read<(SB >= 2 ? SB - 2 : 0)>();
        __syncthreads();
        if (tid == 0 && i + SA < cnt) issue(i + SA);
        if (storer) store_tile<STORE>(&tb, b, sB + bi * BL<STORE>::SZ, m, bm, bn, tid);
    }
    if (storer) bulk_wait_read<0>();
}

// ---------------------------------------------------------------------------------------------
// 3. Persistent, register prefetch: the registers hold tile i when iteration i starts.
//    smem: [2 x 4096 floats A (dense)][SB x BL::SZ floats B]
//
// Iteration i (A buffer i % 2, B buffer i % SB):
//   all: st.shared registers -> A[i%2]  (A[i%2] last read at i-2, before barrier i-1)
//   all: if i + 1 < cnt: ld.global.v4 tile i+1 -> registers
//   SB >= 2: storers wait_group.read SB-2 (stores up to tile i-SB have read; B[i%SB] is written
//            after the barrier below)
//   __syncthreads  (A[i%2] written; B[(i-1)%SB] written and fenced at i-1)
//   storers: if i > 0: bulk store B[(i-1)%SB] -> tile i-1, commit
//   SB == 1 and i > 0: storers wait_group.read 0, __syncthreads
//   all: transpose A[i%2] -> B[i%SB]; fence.proxy.async.shared::cta
// After the loop: __syncthreads, store of the last tile, wait_group.read 0.
template <int STORE, int SB, int MINB>
__global__ void __launch_bounds__(256, MINB) tr_reg(const float* __restrict__ a, float* __restrict__ b,
                                                   const __grid_constant__ CUtensorMap tb, int m, int n) {
    extern __shared__ __align__(128) float s[];
    float* sA = s;
    float* sB = s + 2 * 4096;
    const int tid = threadIdx.x, tm = m / 64, T = tm * (n / 64);
    const int cnt = tile_count(T);
    const bool storer = STORE == ROWS ? tid < 64 : tid == 0;
    if (STORE == TENSOR && tid == 0) {
        if (smaddr(s) & 127) __trap();
        asm volatile("prefetch.tensormap [%0];" :: "l"(reinterpret_cast<uint64_t>(&tb)) : "memory");
    }
    float4 r[4];
    auto load = [&](int i) {
        const int t = blockIdx.x + i * gridDim.x, bm = t % tm, bn = t / tm;
        const float* ga = a + (size_t)bm * 64 * n + (size_t)bn * 64;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int v = tid + 256 * j, row = v / 16, q = v % 16;
            r[j] = ldg4(reinterpret_cast<const float4*>(ga + (size_t)row * n + 4 * q));
        }
    };
    if (cnt > 0) load(0);
    for (int i = 0; i < cnt; ++i) {
        float* as = sA + (i & 1) * 4096;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int v = tid + 256 * j, row = v / 16, q = v % 16;
            *reinterpret_cast<float4*>(as + row * 64 + 4 * q) = r[j];
        }
        if (i + 1 < cnt) load(i + 1);
        if (SB >= 2 && storer) bulk_wait_read<(SB >= 2 ? SB - 2 : 0)>();
        __syncthreads();
        if (i > 0 && storer) {
            const int tp = blockIdx.x + (i - 1) * gridDim.x;
            store_tile<STORE>(&tb, b, sB + ((i - 1) % SB) * BL<STORE>::SZ, m, tp % tm, tp / tm, tid);
        }
        if (SB == 1 && i > 0) {
            if (storer) bulk_wait_read<0>();
            __syncthreads();
        }
        tr_tile<STORE>(as, sB + (i % SB) * BL<STORE>::SZ, tid);
        fence_async_smem();
    }
    __syncthreads();
    if (cnt > 0 && storer) {
        const int tp = blockIdx.x + (cnt - 1) * gridDim.x;
        store_tile<STORE>(&tb, b, sB + ((cnt - 1) % SB) * BL<STORE>::SZ, m, tp % tm, tp / tm, tid);
    }
    if (storer) bulk_wait_read<0>();
}

// ---------------------------------------------------------------------------------------------
// Harness (as transpose-probe.cu).

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
    CK(cudaEventDestroy(e0)); CK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[3];
}

struct Bufs { float *a, *b, *r; size_t cap; unsigned long long* bad; };

// launch(): one launch of the variant reading B.a and writing B.b (m x n -> n x m, pad 0).
template <class L>
static void run_v(const char* name, Bufs& B, int m, int n, int reps, bool zeros, L launch) {
    const int pad = 0, lda = n, ldb = m;
    size_t la = (size_t)m * lda, lb = (size_t)n * ldb;
    // check
    fill<<<(la + 255) / 256, 256>>>(B.a, la);
    CK(cudaMemset(B.b, 0, lb * 4)); CK(cudaMemset(B.r, 0, lb * 4));
    ref_transpose<<<((size_t)m * n + 255) / 256, 256>>>(B.a, B.r, m, n, lda, ldb);
    launch();
    CK(cudaGetLastError());
    CK(cudaMemset(B.bad, 0, 8));
    count_diff<<<(lb + 255) / 256, 256>>>(B.b, B.r, lb, B.bad);
    unsigned long long bad; CK(cudaMemcpy(&bad, B.bad, 8, cudaMemcpyDeviceToHost));
    size_t bytes = (size_t)m * n * 4;
    if (zeros) CK(cudaMemset(B.a, 0, la * 4));  // as `host bench copy`
    float mc = batched(reps, [&] { CK(cudaMemcpyAsync(B.b, B.a, bytes, cudaMemcpyDeviceToDevice)); });
    float t = batched(reps, [&] { launch(); });
    printf("%-40s %s %5dx%-5d pad %3d  %7.0f GB/s  memcpy %7.0f GB/s  ratio %.3f  %s\n", name, zeros ? "zero" : "rand", m, n, pad,
           2.0 * bytes / (t * 1e6), 2.0 * bytes / (mc * 1e6), mc / t, bad ? "BAD" : "ok");
    fflush(stdout);
}

static PFN_cuTensorMapEncodeTiled_v12000 g_encode = nullptr;
static void get_encode() {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
#else
    CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q));
#endif
    if (q != cudaDriverEntryPointSuccess || !fn) { fprintf(stderr, "cuTensorMapEncodeTiled not found (%d)\n", (int)q); exit(1); }
    g_encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}
// A row-major rows x cols f32 matrix at base, 64x64 boxes, no swizzle.
static CUtensorMap make_map(float* base, int rows, int cols) {
    CUtensorMap mp;
    cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t str[1] = {(cuuint64_t)cols * 4};
    cuuint32_t box[2] = {64, 64};
    cuuint32_t es[2] = {1, 1};
    CUresult r = g_encode(&mp, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dim, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", (int)r); exit(1); }
    return mp;
}

static int g_sms = 0;
// Max dynamic smem + max shared carveout; warn when fewer than k CTAs fit on one SM.
template <class K> static void prep(K kern, int smem, int k, const char* name) {
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    int nb = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kern, 256, smem));
    if (nb < k) printf("# note: %s: only %d CTAs/SM fit (smem %d B), wanted %d\n", name, nb, smem, k);
}

struct Ctx { Bufs* B; int m, n, reps; bool zeros; CUtensorMap ta, tb; const char* sfx; };

template <int STORE, int SA, int SB, int K>
static void v_tma(Ctx& c, const char* label) {
    auto kern = tr_tma<STORE, SA, SB, K>;
    const int smem = SA * 16384 + SB * BL<STORE>::SZ * 4 + SA * 8;
    char name[96]; snprintf(name, sizeof name, "%s%s", label, c.sfx);
    prep(kern, smem, K, name);
    const int grid = K * g_sms;
    float* b = c.B->b; int m = c.m, n = c.n; CUtensorMap ta = c.ta, tb = c.tb;
    run_v(name, *c.B, m, n, c.reps, c.zeros, [&] { kern<<<grid, 256, smem>>>(ta, tb, b, m, n); });
}
template <int STORE, int SB, int K>
static void v_reg(Ctx& c, const char* label) {
    auto kern = tr_reg<STORE, SB, K>;
    const int smem = 2 * 16384 + SB * BL<STORE>::SZ * 4;
    char name[96]; snprintf(name, sizeof name, "%s%s", label, c.sfx);
    prep(kern, smem, K, name);
    const int grid = K * g_sms;
    const float* a = c.B->a; float* b = c.B->b; int m = c.m, n = c.n; CUtensorMap tb = c.tb;
    run_v(name, *c.B, m, n, c.reps, c.zeros, [&] { kern<<<grid, 256, smem>>>(a, b, tb, m, n); });
}
static void v_base(Ctx& c, const char* label) {
    const int smem = 64 * 64 * 4 + 64 * 68 * 4 + 16;  // as transpose-probe.cu's `bs`
    char name[96]; snprintf(name, sizeof name, "%s%s", label, c.sfx);
    const float* a = c.B->a; float* b = c.B->b; int m = c.m, n = c.n;
    const int grid = (m / 64) * (n / 64);
    run_v(name, *c.B, m, n, c.reps, c.zeros, [&] { tr_bulk_base<<<grid, 256, smem>>>(a, b, m, n, n, m); });
}

int main() {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    g_sms = p.multiProcessorCount;
    get_encode();
    Bufs B;
    B.cap = (size_t)16384 * (16384 + 64);
    CK(cudaMalloc(&B.a, B.cap * 4)); CK(cudaMalloc(&B.b, B.cap * 4)); CK(cudaMalloc(&B.r, B.cap * 4));
    CK(cudaMalloc(&B.bad, 8));
    struct Sz { int m, n, reps; bool zeros; } sizes[] = {{8192, 8192, 10, true}, {16384, 16384, 3, true}};
    for (auto s : sizes) {
        int m = s.m, n = s.n, reps = s.reps;
        bool zeros = s.zeros;
        if (m % 64 || n % 64) { fprintf(stderr, "m, n must be multiples of 64\n"); return 1; }
        size_t bytes = (size_t)m * n * 4;
        {
            if (zeros) CK(cudaMemset(B.a, 0, bytes)); else fill<<<(bytes / 4 + 255) / 256, 256>>>(B.a, bytes / 4);
            float mc = batched(reps, [&] { CK(cudaMemcpyAsync(B.b, B.a, bytes, cudaMemcpyDeviceToDevice)); });
            size_t nv = bytes / 16;
            float t = batched(reps, [&] { copy_v4<<<(nv + 255) / 256, 256>>>((const float4*)B.a, (float4*)B.b, nv); });
            printf("%-40s %s %5dx%-5d          %7.0f GB/s  memcpy %7.0f GB/s  ratio %.3f\n", "copy one float4/thread",
                   zeros ? "zero" : "rand", m, n, 2.0 * bytes / (t * 1e6), 2.0 * bytes / (mc * 1e6), mc / t);
        }
        Ctx c{&B, m, n, reps, zeros, make_map(B.a, m, n), make_map(B.b, n, m), ""};
        for (int pass = 0; pass < 2; ++pass) {
            c.sfx = pass ? " (again)" : "";
            v_base(c, "ldg + bulk st (padded B) RM");
            // TMA loads, bulk row stores from the padded B tile
            v_tma<ROWS, 4, 2, 1>(c, "P k1 tma ld s4 + bulk rows b2");
            v_tma<ROWS, 6, 3, 1>(c, "P k1 tma ld s6 + bulk rows b3");
            v_tma<ROWS, 3, 2, 2>(c, "P k2 tma ld s3 + bulk rows b2");
            v_tma<ROWS, 4, 2, 2>(c, "P k2 tma ld s4 + bulk rows b2");
            v_tma<ROWS, 2, 1, 4>(c, "P k4 tma ld s2 + bulk rows b1");
            // TMA loads, one TMA 2D tensor store per tile from the dense (rotated) B tile
            v_tma<TENSOR, 4, 2, 1>(c, "P k1 tma ld s4 + tma st b2");
            v_tma<TENSOR, 3, 2, 2>(c, "P k2 tma ld s3 + tma st b2");
            v_tma<TENSOR, 2, 1, 4>(c, "P k4 tma ld s2 + tma st b1");
            // register prefetch of the next tile's A
            v_reg<ROWS, 2, 1>(c, "P k1 reg ld + bulk rows b2");
            v_reg<ROWS, 2, 2>(c, "P k2 reg ld + bulk rows b2");
            v_reg<ROWS, 1, 4>(c, "P k4 reg ld + bulk rows b1");
            v_reg<TENSOR, 2, 2>(c, "P k2 reg ld + tma st b2");
            v_reg<TENSOR, 1, 4>(c, "P k4 reg ld + tma st b1");
        }
    }
    return 0;
}
