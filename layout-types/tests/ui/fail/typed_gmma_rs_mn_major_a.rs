// A register-sourced GMMA (`_RS`) reads A from registers, which must hold it K-major.
use device::wgmma::{MajorK, MajorMN};
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let atom = SM90_64x64x16_F32BF16BF16_RS::<MajorMN, MajorK>::new();
    let mma = make_tiled_mma(atom, layout!((_1, _1, _1):(_0, _0, _0)));
    let _ = mma.tile_shape();
}
