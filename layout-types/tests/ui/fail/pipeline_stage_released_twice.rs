// A consumer stage is a token: releasing it twice (two arrivals on the empty barrier for one
// read) is a use of a moved value.
use layout_types::cutlass::pipeline::*;

struct Box16;
impl TransactionBytes for Box16 {
    const TX_BYTES: u32 = 16;
}

fn main() {
    let mut storage = PipelineStorage::<2>::new();
    let pipe = unsafe { PipelineTmaAsync::<2, Box16>::init(&mut storage, true, 1, || ()) };
    let mut cons = pipe.consumer();
    let stage = unsafe { cons.consumer_wait() };
    unsafe { cons.consumer_release(stage) };
    unsafe { cons.consumer_release(stage) };
}
