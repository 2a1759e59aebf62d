// A pipeline has 1 to 32 stages.
use layout_types::cutlass::pipeline::*;

struct Box16;
impl TransactionBytes for Box16 {
    const TX_BYTES: u32 = 16;
}

fn main() {
    let mut storage = PipelineStorage::<0>::new();
    let _pipe = unsafe { PipelineTmaAsync::<0, Box16>::init(&mut storage, true, 1, || ()) };
}
