//! Writes a random network file (for speed measurements without a trained network):
//! `cargo run --release -p mysl-nnue --example random_net -- HIDDEN SEED OUT.nnue`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [hidden, seed, out] = args.as_slice() else {
        eprintln!("usage: random_net HIDDEN SEED OUT.nnue");
        std::process::exit(2);
    };
    let (Ok(hidden), Ok(seed)) = (hidden.parse::<usize>(), seed.parse::<u64>()) else {
        eprintln!("random_net: HIDDEN and SEED are numbers");
        std::process::exit(2);
    };
    let bytes = mysl_nnue::testing::random_network(hidden, seed);
    if let Err(e) = mysl_nnue::Network::from_bytes(&bytes) {
        eprintln!("random_net: {e}");
        std::process::exit(2);
    }
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("random_net: {out}: {e}");
        std::process::exit(1);
    }
    println!("{out}: hidden size {hidden}, {} bytes", bytes.len());
}
