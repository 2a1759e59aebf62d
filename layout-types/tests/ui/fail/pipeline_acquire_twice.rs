// The producer fills one stage at a time: a second producer_acquire before the first stage is
// committed does not borrow-check.
use layout_types::cutlass::pipeline::*;

struct Box16;
impl TransactionBytes for Box16 {
    const TX_BYTES: u32 = 16;
}

fn main() {
    let mut storage = PipelineStorage::<2>::new();
    let pipe = unsafe { PipelineTmaAsync::<2, Box16>::init(&mut storage, true, 1, || ()) };
    let mut prod = pipe.producer();
    let first = unsafe { prod.producer_acquire() };
    let second = unsafe { prod.producer_acquire() };
    first.producer_commit();
    second.producer_commit();
}
