// fast.cu's kernel 12 (github.com/pranjalssh/fast.cu, examples/matmul/matmul_12.cuh: the best public
// hand-written Hopper bf16 GEMM, issue #34's reference) and cuBLAS, timed the way fast.cu's own harness
// times them: a rest of REST seconds, one launch (fast.cu's verification run), then LAUNCHES launches
// between two CUDA events. The kernel's header is not in this tree: the package carries it
// (tools/gpu/bench-gemm/vs-fastcu.sh). Build on the device:
//   nvcc -O3 -DNDEBUG -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I<dir of matmul_12.cuh> \
//        vs-fastcu.cu -lcuda -lcublas -o vs-fastcu
// Run: vs-fastcu ROUNDS [REST] [LAUNCHES]; prints one line a size and round:
//   R <round> n <size> cublas <TFLOP/s> k12 <TFLOP/s> ratio <k12/cublas> maxdiff <max |k12 - cublas|>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
static void cuda_check(cudaError_t e, const char *file, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error at %s:%d: %s\n", file, line, cudaGetErrorString(e));
    exit(1);
  }
}
#define cudaCheck(e) (cuda_check((e), __FILE__, __LINE__))
using std::max;
#include "matmul_12.cuh"

static cublasHandle_t handle;

// C (column-major, N×M as fast.cu stores it) = A (row-major M×K) · B (column-major K×N): both operands
// K-major, fast.cu's cuBLAS call (kernel 0 of its harness)
static void run_cublas(int m, int n, int k, bf16 *a, bf16 *b, bf16 *c) {
  float alpha = 1, beta = 0;
  cublasStatus_t s = cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, a, CUDA_R_16BF, n, b,
                                  CUDA_R_16BF, k, &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cuBLAS error %d\n", (int)s);
    exit(1);
  }
}

// one timing as fast.cu's harness makes it: rest, one launch, `launches` launches between events
template <class F> static double tflops(int n, int rest, int launches, F launch) {
  sleep(rest);
  launch();
  cudaCheck(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  for (int i = 0; i < launches; i++) launch();
  cudaEventRecord(e1);
  cudaCheck(cudaEventSynchronize(e1));
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return 2.0 * n * n * (double)n * launches / (ms * 1e-3) / 1e12;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2;
  int rest = argc > 2 ? atoi(argv[2]) : 5;
  int launches = argc > 3 ? atoi(argv[3]) : 8;
  const long big = 8192;
  std::vector<bf16> host(big * big);
  std::default_random_engine gen(69);
  std::normal_distribution<float> normal(0, 1);
  bf16 *a, *b, *c, *c_ref;
  cudaCheck(cudaMalloc(&a, sizeof(bf16) * big * big));
  cudaCheck(cudaMalloc(&b, sizeof(bf16) * big * big));
  cudaCheck(cudaMalloc(&c, sizeof(bf16) * big * big));
  cudaCheck(cudaMalloc(&c_ref, sizeof(bf16) * big * big));
  for (auto &x : host) x = normal(gen);
  cudaCheck(cudaMemcpy(a, host.data(), sizeof(bf16) * big * big, cudaMemcpyHostToDevice));
  for (auto &x : host) x = normal(gen);
  cudaCheck(cudaMemcpy(b, host.data(), sizeof(bf16) * big * big, cudaMemcpyHostToDevice));
  cublasCreate(&handle);
  std::vector<bf16> got(big * big), want(big * big);
  for (int r = 0; r < rounds; r++) {
    for (int n : {4096, 8192}) {
      double tc = tflops(n, rest, launches, [&] { run_cublas(n, n, n, a, b, c_ref); });
      double tk = tflops(n, rest, launches, [&] { runKernel12(n, n, n, a, b, c, nullptr); });
      cudaCheck(cudaGetLastError());
      cudaCheck(cudaMemcpy(got.data(), c, sizeof(bf16) * n * n, cudaMemcpyDeviceToHost));
      cudaCheck(cudaMemcpy(want.data(), c_ref, sizeof(bf16) * n * n, cudaMemcpyDeviceToHost));
      double diff = 0;
      for (long i = 0; i < (long)n * n; i += 997)
        diff = std::max(diff, (double)std::fabs(__bfloat162float(got[i]) - __bfloat162float(want[i])));
      printf("R %d n %d cublas %.1f k12 %.1f ratio %.3f maxdiff %.3g\n", r, n, tc, tk, tk / tc, diff);
      fflush(stdout);
    }
  }
  return 0;
}
