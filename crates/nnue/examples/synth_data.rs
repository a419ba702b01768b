//! Writes synthetic training data (random playouts labelled with the material balance) as record
//! files, for trying `mysl train`: `cargo run --release -p mysl-nnue --example synth_data -- DIR
//! [positions] [files] [seed]`.

use mysl_nnue::train::synth;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: synth_data DIR [positions] [files] [seed]");
        std::process::exit(2);
    };
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (positions, files, seed) = (num(2, 100_000), num(3, 4).max(1), num(4, 1) as u64);
    std::fs::create_dir_all(dir)?;
    let recs = synth::material_records(positions, seed);
    for (k, part) in recs.chunks(positions.div_ceil(files).max(1)).enumerate() {
        std::fs::write(format!("{dir}/chunk-{k:06}.bin"), part.concat())?;
    }
    eprintln!("{positions} positions in {files} files in {dir}");
    Ok(())
}
