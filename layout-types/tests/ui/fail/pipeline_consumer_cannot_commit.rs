// A consumer of a TMA pipeline cannot commit a stage: committing is the producer's
// (`ProducerStage::producer_commit`); a consumer's stage only goes back by consumer_release.
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
    stage.producer_commit();
}
