// A tensor over 32-bit `.shared` addresses (an engine of `Space::SmemAddr`, as the SGEMM's `sA`)
// copied with the generic 128-bit atom, which takes generic pointers: refused, only an atom that
// declares `CopyAtom::SMEM_ADDR` issues `st.shared` on such an address.
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::{Advance, Engine, PtrEngine, Space};

#[derive(Clone, Copy)]
struct SmemAddr(u32);
impl Engine for SmemAddr {}
impl<I: Integral> Advance<I> for SmemAddr {
    type Output = SmemAddr;
    fn advance(self, off: I) -> Self {
        SmemAddr(self.0 + 4 * off.value() as u32)
    }
}
impl PtrEngine for SmemAddr {
    type Value = f32;
    const SPACE: Space = Space::SmemAddr;
    fn ptr(self) -> *mut f32 {
        self.0 as usize as *mut f32
    }
}

fn main() {
    let mut g = [0f32; 64];
    let tc = make_tiled_copy(
        Copy128::<f32>::new(),
        layout!((_4, _4):(_1, _4)),
        layout!((_4, _1):(_1, _0)),
    );
    let tg = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_16, _4):(_1, _16)));
    let ts = make_tensor(SmemAddr(0), layout!((_16, _4):(_1, _16)));
    let thr = tc.get_slice(0u32);
    unsafe { copy(&tc, &thr.partition_s(&tg), &thr.partition_d(&ts)) };
}
