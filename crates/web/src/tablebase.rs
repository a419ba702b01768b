//! The tablebase panel's server side: probes the tables opened from the command line (`--tb DIR`)
//! through `mysl_tb::Tablebase::probe_fen`, the same call as `mysl tb probe`, and adds SAN and the
//! win/draw/loss category of each value for the page.
//!
//! Syzygy tables (`--syzygy DIR`) are meant to come through a facade in `mysl-tb` with the same probe
//! call; [`Tablebases`] is the one place here that would hold it.

use mysl_core::{san, uci, Chess};
use mysl_tb::{ProbeResult, TbError};
use serde_json::{json, Value};

/// The tables the server was started with, and a name for the page.
#[derive(Debug)]
pub struct Tablebases {
    /// mysl's own tables (`--tb DIR`).
    pub mysl: mysl_tb::Tablebase,
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
    let (root, moves) = tb.mysl.probe_fen(fen).map_err(|e| match e {
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
    let state = if moves.is_empty() {
        if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        }
    } else {
        category(root.wdl())
    };
    let mut out = values(&root);
    out["fen"] = json!(pos.fen());
    out["turn"] = json!(if pos.turn().is_white() { "white" } else { "black" });
    out["state"] = json!(state);
    out["moves"] = Value::Array(list);
    out["source"] = json!(tb.name);
    Ok(out)
}

/// `/api/info`'s description of the tablebase.
pub fn info(tb: &Tablebases) -> Value {
    let materials = tb.mysl.materials();
    json!({"name": tb.name, "kind": "mysl", "materials": materials, "metrics": ["wdl", "dtz", "dtm"]})
}
