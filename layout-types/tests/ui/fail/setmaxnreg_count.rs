// setmaxnreg takes a register count in 24..=256 that is a multiple of 8 (PTX's rule).
use device::wgmma::setmaxnreg_dec;

fn main() {
    setmaxnreg_dec::<20>();
}
