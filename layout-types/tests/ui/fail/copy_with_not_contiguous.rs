// `copy_with(atom, src, dst)` (CuTe's `copy(Copy_Atom, src, dst)`): mode 0 of each tensor is one
// atom's values. A 128-bit atom over a mode 0 of stride 2 (every other element) is refused: its
// four values must be contiguous in both tensors.
use layout_types::cute::prelude::*;

fn main() {
    let mut s = [0f32; 32];
    let ts = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_4, _2):(_2, _8)));
    let mut r = make_fragment_like::<f32, _, _, _>(&ts);
    unsafe { copy_with(&Copy128::<f32>::new(), &ts, &r.tensor()) };
}
