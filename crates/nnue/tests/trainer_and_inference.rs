//! The trainer's network file, read by the engine's inference, evaluates every position exactly as the
//! trainer's plain reference evaluator does: the two sides of the file
//! format (written by `train::model`, read by `network`) are separate code and must agree.

use mysl_nnue::record::Record;
use mysl_nnue::train::{eval_quantised, synth, Net};
use mysl_nnue::{Accumulator, Network};

#[test]
fn inference_reads_the_trainers_file_as_the_reference_does() {
    for (hidden, seed) in [(32, 1), (256, 2)] {
        let mut net = Net::random(hidden, seed);
        // Push weights away from zero so that many hidden units are active and asymmetric between the
        // side to move's half and the other's (a swapped half would show).
        for (i, p) in net.params.iter_mut().enumerate() {
            *p *= 1.0 + (i % 7) as f32 * 0.3;
        }
        let bytes = net.to_nnue();
        let network = Network::from_bytes(&bytes).expect("the trainer's file parses");
        let mut acc = Accumulator::new(&network);
        for raw in synth::material_records(500, seed) {
            let rec = Record::from_bytes(&raw).expect("valid record");
            acc.refresh(&network, &rec.board());
            let engine = network.evaluate(&acc, rec.turn);
            let reference = eval_quantised(&bytes, &rec).expect("valid file");
            assert_eq!(engine, reference, "hidden {hidden}, {:?}", rec);
        }
    }
}
