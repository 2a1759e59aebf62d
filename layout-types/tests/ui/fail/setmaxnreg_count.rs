// setmaxnreg takes a register count in 24..=256 that is a multiple of 8 (PTX's rule).
use layout_types::cute::arch::mma_sm90::setmaxnreg_dec;

fn main() {
    setmaxnreg_dec::<20>();
}
