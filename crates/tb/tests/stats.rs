//! Per-ending totals against ../shared/data/tb-stats.tsv: the DTM rows (Gaviota, full-board legal positions)
//! and the DTZ50 rows (Syzygy generator, symmetry-reduced counting).

mod common;

use std::collections::HashMap;
use std::time::Instant;

use common::*;
use mysl_tb::stats::{stats, Counting, SideStats};
use mysl_tb::Material;

/// Rows of the TSV: (ending, stm, metric kind "DTM"/"DTZ50") -> stats.
fn rows(data: &std::path::Path) -> HashMap<(String, String, String), SideStats> {
    let text = std::fs::read_to_string(data.join("tb-stats.tsv")).expect("tb-stats.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("column {name}"));
    let (c_end, c_stm, c_pos) = (col("ending"), col("stm"), col("positions"));
    let (c_w, c_d, c_l, c_cw, c_bl) = (col("wins"), col("draws"), col("losses"), col("cursed_wins"), col("blessed_losses"));
    let (c_lw, c_ll, c_lcw, c_lbl) =
        (col("longest_win_plies"), col("longest_loss_plies"), col("longest_cursed_win_plies"), col("longest_blessed_loss_plies"));
    let (c_metric, c_counting) = (col("metric"), col("counting"));
    let mut out = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let kind = if f[c_metric] == "DTM" && f[c_counting] == "full-board legal positions" {
            "DTM"
        } else if f[c_metric].starts_with("DTZ50") {
            "DTZ50"
        } else {
            continue;
        };
        let num = |c: usize| f.get(c).and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(0);
        let s = SideStats {
            positions: num(c_pos),
            wins: num(c_w),
            draws: num(c_d),
            losses: num(c_l),
            cursed_wins: num(c_cw),
            blessed_losses: num(c_bl),
            longest_win: num(c_lw) as u32,
            longest_loss: num(c_ll) as u32,
            longest_cursed_win: num(c_lcw) as u32,
            longest_blessed_loss: num(c_lbl) as u32,
        };
        out.insert((f[c_end].to_string(), f[c_stm].to_string(), kind.to_string()), s);
    }
    out
}

fn check(names: &[String]) {
    let Some(data) = shared_data() else { return };
    let expected = rows(&data);
    let t0 = Instant::now();
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let tables = generate(&refs);
    eprintln!("generated {} endings in {:.1} s", tables.len(), t0.elapsed().as_secs_f64());
    let mut compared = 0;
    let mut bad = Vec::new();
    for name in names {
        let m = Material::parse(name).unwrap();
        let t = &tables[&m];
        for (dtz, counting, kind) in [(false, Counting::FullBoard, "DTM"), (true, Counting::SyzygyUnique, "DTZ50")] {
            let ours = stats(t, dtz, counting);
            for (side, stm) in [(0, "wtm"), (1, "btm")] {
                let Some(exp) = expected.get(&(name.clone(), stm.to_string(), kind.to_string())) else { continue };
                compared += 1;
                let mut o = ours[side];
                if !dtz {
                    // the DTM rows have no cursed/blessed columns
                    o.cursed_wins = 0;
                    o.blessed_losses = 0;
                }
                if &o != exp {
                    bad.push(format!("{name} {stm} {kind}:\n  ours     {o:?}\n  expected {exp:?}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} of {compared} rows differ:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{compared} rows of tb-stats.tsv agree");
    assert!(compared > 0);
}

#[test]
fn all_three_and_four_piece_totals() {
    let names: Vec<String> = Material::all_up_to(4).iter().map(|m| m.to_string()).collect();
    check(&names);
}
