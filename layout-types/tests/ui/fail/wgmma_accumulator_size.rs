// A wgmma's N follows from the accumulator array: [f32; N/2] for N = 8, 16, ..., 256.
// Six accumulators (N = 12) is no wgmma.
use device::wgmma::*;
use device::wgmma::MajorK;

fn main() {
    let mut acc = [0f32; 6];
    unsafe { mma_async_ss::<Bf16, MajorK, MajorK, One, One, _>(0, 0, &mut acc, ScaleOut::Zero) };
}
