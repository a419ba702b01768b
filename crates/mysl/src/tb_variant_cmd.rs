//! `mysl tb gen --variant V` and `mysl tb probe --variant V`: the variant tables of `mysl_tb::variant`
//! (endings of up to four pieces, DTM).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use mysl_core::{Antichess, AntichessNoEp, Berolina, Cylinder, KnightRelay, Position, Rules, Variant};
use mysl_tb::variant::{self, Dtm, Pieces, VariantGenerator, VariantTablebase};

use crate::CliError;

/// Runs `f` with the rules of `variant`, or says why that variant has no tables.
macro_rules! with_rules {
    ($variant:expr, $f:ident ( $($arg:expr),* )) => {
        match $variant {
            Variant::Cylinder => $f::<Cylinder>($($arg),*),
            Variant::KnightRelay => $f::<KnightRelay>($($arg),*),
            Variant::Berolina => $f::<Berolina>($($arg),*),
            Variant::Antichess => $f::<Antichess>($($arg),*),
            Variant::AntichessNoEp => $f::<AntichessNoEp>($($arg),*),
            other => Err(CliError::Input(format!(
                "--variant {other}: no tables for this variant (docs/tablebases.md says why); \
                 tables exist for cylinder, knightrelay, berolina, antichess, antichess-noep"
            ))),
        }
    };
}

fn parse_variant(name: &str) -> Result<Variant, CliError> {
    Variant::from_name(name).ok_or_else(|| CliError::Input(format!("--variant {name}: unknown variant")))
}

/// Generates the named endings (and the smaller ones they convert into) into `dir/<variant>/`, each
/// checked against its successors before it is written; endings already there are generated again.
pub fn gen(variant: &str, materials: &[String], dir: &Path) -> Result<ExitCode, CliError> {
    let v = parse_variant(variant)?;
    if materials.is_empty() {
        return Err(CliError::Input("name the endings (e.g. KQvK, or RvN in antichess)".into()));
    }
    with_rules!(v, gen_with(materials, dir))
}

fn gen_with<R: Rules>(materials: &[String], dir: &Path) -> Result<ExitCode, CliError> {
    let targets = materials
        .iter()
        .map(|m| Pieces::parse::<R>(m).map_err(|e| CliError::Input(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let mut g = VariantGenerator::<R>::default();
    let start = Instant::now();
    for pieces in &targets {
        g.table(pieces, &mut |name| {
            eprintln!("{} {name}: generating ({:.1} s)", R::VARIANT, start.elapsed().as_secs_f64())
        })
        .map_err(|e| CliError::Failure(e.to_string()))?;
    }
    for t in g.tables() {
        let checked = variant::verify(&t, &g)
            .map_err(|e| CliError::Failure(format!("{}: verification failed: {e}", t.name())))?;
        let path = variant::write(dir, &t).map_err(|e| CliError::Failure(e.to_string()))?;
        let (w, d, l) = t.counts();
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        println!(
            "{} {}: {checked} positions verified ({w} wins, {d} draws, {l} losses for the side to move; longest win {} plies), {bytes} bytes -> {}",
            R::VARIANT,
            t.name(),
            t.longest_win().map_or(0, |(d, _)| d),
            path.display()
        );
    }
    eprintln!("done in {:.1} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// Prints the value of a position and of each legal move from the variant's tables in `dir`.
pub fn probe(variant: &str, dir: &Path, fen: &str, json: bool) -> Result<ExitCode, CliError> {
    let v = parse_variant(variant)?;
    with_rules!(v, probe_with(dir, fen, json))
}

fn describe(v: Dtm) -> (String, i32) {
    match v {
        Dtm::Draw => ("draw".into(), 0),
        Dtm::Win(d) => (format!("win in {d} plies"), d as i32),
        Dtm::Loss(d) => (format!("loss in {d} plies"), -(d as i32)),
    }
}

fn probe_with<R: Rules>(dir: &Path, fen: &str, json: bool) -> Result<ExitCode, CliError> {
    let pos = Position::<R>::from_fen(fen).map_err(|e| CliError::Input(format!("--fen '{fen}': {e}")))?;
    let sub = dir.join(R::VARIANT.name());
    let tables = VariantTablebase::open_dir(&sub, R::VARIANT)
        .map_err(|e| CliError::Input(format!("--dir {}: {e}", dir.display())))?;
    let (root, list) = tables.probe_root(&pos).map_err(|e| CliError::Input(format!("'{fen}': {e}")))?;
    let moves: Vec<(String, Dtm)> =
        list.into_iter().map(|(mv, v)| (mysl_core::uci::move_to_uci(&pos, mv), v)).collect();
    let (text, dtm) = describe(root);
    if json {
        let list: Vec<String> =
            moves.iter().map(|(m, v)| format!("{{\"uci\":\"{m}\",\"dtm\":{}}}", describe(*v).1)).collect();
        println!("{{\"variant\":\"{}\",\"dtm\":{dtm},\"moves\":[{}]}}", R::VARIANT, list.join(","));
    } else {
        println!("{} {fen}: {text} (side to move)", R::VARIANT);
        for (m, v) in &moves {
            println!("  {m}: {}", describe(*v).0);
        }
    }
    Ok(ExitCode::SUCCESS)
}
