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

/// Generates the named endings, or every ending of up to `max_pieces` pieces, and the smaller ones they
/// convert into, into `dir/<variant>/`: each checked against its successors and written as soon as it is
/// done, so an interrupted run loses at most the ending in progress. Endings whose file is there and reads
/// back are kept (a resumed run goes on from them).
pub fn gen(variant: &str, materials: &[String], max_pieces: Option<usize>, dir: &Path) -> Result<ExitCode, CliError> {
    let v = parse_variant(variant)?;
    if materials.is_empty() && max_pieces.is_none() {
        return Err(CliError::Input("name the endings (e.g. KQvK, or RvN in antichess) or give --max-pieces".into()));
    }
    with_rules!(v, gen_with(materials, max_pieces, dir))
}

fn gen_with<R: Rules>(materials: &[String], max_pieces: Option<usize>, dir: &Path) -> Result<ExitCode, CliError> {
    let targets = match max_pieces {
        Some(n) if !(2..=variant::MAX_PIECES).contains(&n) => {
            return Err(CliError::Input(format!(
                "--max-pieces {n}: variant tables have 2 to {} pieces",
                variant::MAX_PIECES
            )))
        }
        Some(n) => Pieces::all::<R>(2, n),
        None => materials
            .iter()
            .map(|m| Pieces::parse::<R>(m).map_err(|e| CliError::Input(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let plan = VariantGenerator::<R>::plan(&targets);
    let mut g = VariantGenerator::<R>::default();
    let mut kept = 0;
    for pieces in &plan {
        let path = variant::path_for(dir, R::VARIANT, pieces);
        if !path.exists() {
            continue;
        }
        let read = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| variant::parse_file(&b, Some(R::VARIANT)).map_err(|e| e.to_string()));
        match read {
            Ok(t) if t.pieces == *pieces => {
                g.insert(t).map_err(|e| CliError::Failure(e.to_string()))?;
                kept += 1;
            }
            Ok(t) => eprintln!("mysl: {} holds {}; generating it again", path.display(), t.name()),
            Err(e) => eprintln!("mysl: {}: {e}; generating it again", path.display()),
        }
    }
    if kept > 0 {
        eprintln!("{}: {kept} of {} endings already in {} (kept)", R::VARIANT, plan.len(), dir.display());
    }
    let shown = dir.to_path_buf();
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nmysl: interrupted; finished endings are kept in {} and a new run resumes", shown.display());
        std::process::exit(130);
    });
    let start = Instant::now();
    let mut made = 0;
    for (k, pieces) in plan.iter().enumerate() {
        if g.get(pieces).is_some() {
            continue;
        }
        eprintln!(
            "{} {}: generating ({} of {}, {:.1} s)",
            R::VARIANT,
            pieces.name(),
            k + 1,
            plan.len(),
            start.elapsed().as_secs_f64()
        );
        let t = g.table(pieces, &mut |_| {}).map_err(|e| CliError::Failure(e.to_string()))?;
        let checked = variant::verify(&t, &g)
            .map_err(|e| CliError::Failure(format!("{}: verification failed: {e}", t.name())))?;
        let path = variant::write(dir, &t).map_err(|e| CliError::Failure(e.to_string()))?;
        made += 1;
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
    eprintln!("done: {made} generated, {kept} kept, {:.1} s", start.elapsed().as_secs_f64());
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
