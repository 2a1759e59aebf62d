// The 8-bit wgmma (e4m3/e5m2) has no transpose: both operands must be K-major (PTX's rule;
// CuTe's ss_op_selector: "MajorA must be GMMA::Major::K for this config.").
use device::wgmma::*;
use device::wgmma::{MajorK, MajorMN};

fn main() {
    let mut acc = [0f32; 64];
    // SAFETY: never reached: the call does not compile.
    unsafe {
        mma_async_ss::<(E4M3, E4M3), MajorMN, MajorK, One, One, _>(0, 0, &mut acc, ScaleOut::Zero)
    };
}
