//! The tablebase panel's server side: probes the tables opened from the command line (`--tb DIR`)
//! through `mysl_tb::Tablebase::probe_fen`, the same call as `mysl tb probe`, and adds SAN and the
//! win/draw/loss category of each value for the page.
//!
//! Syzygy tables (`--syzygy DIR`) answer through `mysl_tb::Tablebases`, the engine's front, for the
//! endings our directory lacks (WDL and DTZ; no DTM).

use mysl_core::{
    san, uci, Antichess, AntichessNoEp, Berolina, Chess, Color, Cylinder, KnightRelay, Position, Rules, Variant,
};
use mysl_tb::variant::{self, Dtm, VariantTablebase};
use mysl_tb::{ProbeResult, TbError};
use serde_json::{json, Value};

/// The tables the server was started with, and a name for the page.
#[derive(Debug)]
pub struct Tablebases {
    /// mysl's own tables (`--tb DIR`).
    pub mysl: Option<mysl_tb::Tablebase>,
    /// Our tables and the Syzygy files (`--syzygy DIR`) behind one front: the engine's searches (play and
    /// analysis) use it, and the panel asks it for the endings `mysl` lacks when there are Syzygy files.
    pub front: Option<std::sync::Arc<mysl_tb::Tablebases>>,
    /// Whether `front` has Syzygy files.
    pub syzygy: bool,
    /// What the page shows as the source ("mysl tables in DIRNAME").
    pub name: String,
}

/// Why a probe gave no values, with the HTTP status class it deserves.
#[derive(Debug)]
pub enum ProbeError {
    /// The request is wrong (bad FEN, castling rights, too many pieces, illegal position): 400.
    Bad(String),
    /// The table for the ending is not there: 404.
    Missing(String),
    /// A table file could not be read: 500.
    Failed(String),
}

/// "win", "cursed-win", "draw", "blessed-loss" or "loss" for a Syzygy WDL value.
pub fn category(wdl: i8) -> &'static str {
    match wdl {
        2 => "win",
        1 => "cursed-win",
        0 => "draw",
        -1 => "blessed-loss",
        _ => "loss",
    }
}

fn values(r: &ProbeResult) -> Value {
    json!({"wdl": r.wdl(), "dtz": r.dtz(), "dtm": r.dtm(), "category": category(r.wdl())})
}

/// Probes a FEN (orthodox chess): the position's WDL, DTZ and DTM and every legal move with the values
/// it gives the mover, best first, as the page shows them.
pub fn probe(tb: &Tablebases, fen: &str) -> Result<Value, ProbeError> {
    let pos: Chess = crate::game::parse_fen(fen).map_err(ProbeError::Bad)?;
    let ours = tb.mysl.as_ref().map(|t| t.probe_fen(fen));
    // Syzygy for what ours lacks or does not cover (more pieces than our tables have).
    let missing = matches!(ours, None | Some(Err(TbError::Missing { .. } | TbError::Unsupported(_))));
    if missing && tb.syzygy {
        if let Some(front) = &tb.front {
            return probe_syzygy(front, &pos);
        }
    }
    let Some(ours) = ours else {
        return Err(ProbeError::Missing("no tables".into()));
    };
    let (root, moves) = ours.map_err(|e| match e {
        TbError::Missing { material, .. } => ProbeError::Missing(format!(
            "no table for {material} in the tablebase (generate it with `mysl tb gen {material} --dir DIR`)"
        )),
        TbError::Unsupported(why) => ProbeError::Bad(format!("the tables do not cover this position: {why}")),
        other => ProbeError::Failed(format!("tablebase: {other}")),
    })?;
    let mut list = Vec::with_capacity(moves.len());
    for m in &moves {
        let mv = uci::parse_uci_move(&pos, &m.uci)
            .map_err(|e| ProbeError::Failed(format!("tablebase move {} not legal in {fen}: {e}", m.uci)))?;
        let mut v = values(&m.result);
        v["uci"] = json!(m.uci);
        v["san"] = json!(san::move_to_san(&pos, mv));
        v["zeroing"] = json!(m.zeroing);
        list.push(v);
    }
    let state = state(&pos, moves.is_empty(), root.wdl());
    let mut out = values(&root);
    out["fen"] = json!(pos.fen());
    out["turn"] = json!(if pos.turn().is_white() { "white" } else { "black" });
    out["state"] = json!(state);
    out["moves"] = Value::Array(list);
    out["source"] = json!(tb.name);
    Ok(out)
}

/// What the panel's headline says: the game's end, or the WDL category.
fn state(pos: &Chess, no_moves: bool, wdl: i8) -> &'static str {
    match (no_moves, pos.is_check()) {
        (true, true) => "checkmate",
        (true, false) => "stalemate",
        _ => category(wdl),
    }
}

/// The Syzygy answer: WDL and DTZ of the position and of every move (DTM is not in Syzygy files).
fn probe_syzygy(front: &mysl_tb::Tablebases, pos: &Chess) -> Result<Value, ProbeError> {
    if pos.castling().has_any(Color::White) || pos.castling().has_any(Color::Black) {
        return Err(ProbeError::Bad("the tables do not cover positions with castling rights".into()));
    }
    let pieces = pos.board().occupied().count() as usize;
    if pieces > front.max_pieces() {
        return Err(ProbeError::Missing(format!(
            "{pieces} pieces: the Syzygy files here have at most {}",
            front.max_pieces()
        )));
    }
    let Some(root) = front.probe_root(pos) else {
        return Err(ProbeError::Missing("no Syzygy table for this ending".into()));
    };
    let moves: Vec<Value> = root
        .moves
        .iter()
        .map(|m| {
            json!({"uci": m.uci, "san": san::move_to_san(pos, m.mv), "zeroing": m.zeroing, "wdl": m.wdl,
                   "dtz": m.dtz, "dtm": m.dtm, "category": category(m.wdl)})
        })
        .collect();
    let state = state(pos, moves.is_empty(), root.value.wdl);
    Ok(json!({"wdl": root.value.wdl, "dtz": root.value.dtz, "dtm": root.value.dtm,
              "category": category(root.value.wdl), "fen": pos.fen(),
              "turn": if pos.turn().is_white() { "white" } else { "black" }, "state": state,
              "moves": moves, "source": "Syzygy"}))
}

/// `/api/info`'s description of the tablebase.
pub fn info(tb: &Tablebases) -> Value {
    let materials = tb.mysl.as_ref().map(|t| t.materials()).unwrap_or_default();
    let syzygy = tb.front.as_ref().filter(|_| tb.syzygy).map(|f| f.max_pieces());
    let variants: Vec<&str> = Variant::ALL
        .into_iter()
        .filter(|&v| v != Variant::Chess && tb.front.as_ref().is_some_and(|f| f.variant(v).is_some()))
        .map(|v| v.name())
        .collect();
    json!({"name": tb.name, "kind": if tb.mysl.is_some() { "mysl" } else { "syzygy" }, "materials": materials,
           "syzygy_max_pieces": syzygy, "metrics": ["wdl", "dtz", "dtm"], "variants": variants})
}

/// Probes a FEN of a variant in the variant's own tables (`mysl tb gen --variant`, read from `--tb DIR`'s
/// `<variant>/` directory): DTM of the position and of every legal move (no WDL50 or DTZ: the variant tables
/// keep the distance to mate only), best first.
pub fn probe_variant(tb: &Tablebases, variant: Variant, fen: &str) -> Result<Value, ProbeError> {
    let Some(vt) = tb.front.as_ref().and_then(|f| f.variant(variant)) else {
        return Err(ProbeError::Missing(format!(
            "no {variant} tables here (generate them with `mysl tb gen --variant {variant} ENDING --dir DIR`)"
        )));
    };
    match variant {
        Variant::Cylinder => probe_variant_with::<Cylinder>(&vt, fen),
        Variant::KnightRelay => probe_variant_with::<KnightRelay>(&vt, fen),
        Variant::Berolina => probe_variant_with::<Berolina>(&vt, fen),
        Variant::Antichess => probe_variant_with::<Antichess>(&vt, fen),
        Variant::AntichessNoEp => probe_variant_with::<AntichessNoEp>(&vt, fen),
        other => Err(ProbeError::Bad(format!("{other} has no tables"))),
    }
}

/// The panel's words and signed plies for a variant table value.
fn dtm_values(v: Dtm) -> Value {
    let (wdl, dtm) = match v {
        Dtm::Win(d) => (2, d as i64),
        Dtm::Draw => (0, 0),
        Dtm::Loss(d) => (-2, -(d as i64)),
    };
    json!({"wdl": wdl, "dtz": null, "dtm": dtm, "category": dtm_category(v)})
}

fn dtm_category(v: Dtm) -> &'static str {
    match v {
        Dtm::Win(_) => "win",
        Dtm::Draw => "draw",
        Dtm::Loss(_) => "loss",
    }
}

fn probe_variant_with<R: Rules>(vt: &VariantTablebase, fen: &str) -> Result<Value, ProbeError> {
    let pos = Position::<R>::from_fen(fen).map_err(|e| ProbeError::Bad(format!("bad FEN: {e}")))?;
    let pieces = pos.board().occupied().count() as usize;
    if pieces > vt.max_pieces() {
        return Err(ProbeError::Missing(format!("{pieces} pieces: the tables here have at most {}", vt.max_pieces())));
    }
    if pos.castling().has_any(Color::White) || pos.castling().has_any(Color::Black) {
        return Err(ProbeError::Bad("the tables do not cover positions with castling rights".into()));
    }
    let (root, moves) = vt.probe_root(&pos).map_err(ProbeError::Missing)?;
    let list: Vec<Value> = moves
        .iter()
        .map(|&(mv, v)| {
            let mut m = dtm_values(v);
            m["uci"] = json!(uci::move_to_uci(&pos, mv));
            m["san"] = json!(san::move_to_san(&pos, mv));
            m["zeroing"] = json!(false);
            m
        })
        .collect();
    let terminal = variant::terminal(&pos);
    let state = match terminal {
        Some(Dtm::Loss(0)) if R::ROYAL_KING && pos.is_check() => "checkmate",
        Some(Dtm::Draw) => "stalemate",
        _ => dtm_category(root),
    };
    let mut out = dtm_values(root);
    out["fen"] = json!(pos.fen());
    out["turn"] = json!(if pos.turn().is_white() { "white" } else { "black" });
    out["state"] = json!(state);
    out["moves"] = Value::Array(list);
    out["source"] = json!(format!("mysl {} tables", R::VARIANT));
    Ok(out)
}
