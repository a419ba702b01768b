//! `mysl tb ...`: generate and probe endgame tablebases (crates/tb).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use mysl_core::Variant;
use mysl_tb::format::path_for;
use mysl_tb::probe::{pos_from_fen, MoveValue};
use mysl_tb::read::{Sources, TableFile};
use mysl_tb::write::write_table_resolved;
use mysl_tb::{Generator, Material, Progress, Tablebase, Tablebases};

use crate::CliError;

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate endings (and first every smaller ending they convert into) into a directory.
    Gen(GenArgs),
    /// Print WDL50, DTZ50 and DTM of a position and the value of every legal move.
    Probe(ProbeArgs),
    /// Print the job graph of a generation: every ending needed, dependencies first, with the endings each
    /// converts into and its estimated peak memory and CPU time (workflow/Snakefile reads `--json`).
    Plan(PlanArgs),
}

#[derive(Args, Debug)]
struct PlanArgs {
    /// Endings such as KRPvKR (up to 5 pieces).
    materials: Vec<String>,
    /// Every ending with up to N pieces (3 to 5).
    #[arg(long, conflicts_with = "materials")]
    max_pieces: Option<usize>,
    /// One JSON array: {ending, needs, index_entries, peak_mb, cpu_seconds} per ending.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct GenArgs {
    /// Endings such as KQvKR, KRvKP, KRNvKR, KRPvKR (up to 5 pieces).
    materials: Vec<String>,
    /// Generate every ending with up to N pieces (3 or 4) instead of naming them.
    #[arg(long, conflicts_with = "materials")]
    max_pieces: Option<usize>,
    /// Output directory (endings already there are kept and not generated again).
    #[arg(long)]
    dir: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print each ending's estimated memory and time (and which are present already), generate nothing.
    #[arg(long)]
    estimate: bool,
    /// Tables of a variant (cylinder, knightrelay, berolina, antichess, antichess-noep): endings of up to 4
    /// pieces (--max-pieces 2 to 4, or named), DTM, each checked against its successors, written to
    /// DIR/<variant>/ as it is done; endings already there are kept.
    #[arg(long)]
    variant: Option<String>,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    /// Directory with our table files (asked first).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Syzygy directories (`DIR1:DIR2`): used for endings our directory does not have (no DTM there).
    #[arg(long)]
    syzygy: Option<String>,
    /// The position (no castling rights, at most 5 pieces).
    #[arg(long)]
    fen: String,
    /// One JSON object: wdl (-2..2), dtz (Syzygy convention), dtm (plies, python-chess Gaviota sign), moves.
    #[arg(long)]
    json: bool,
    /// Also print the whole optimal line (DTM-optimal moves to mate, or as far as a draw is clear).
    #[arg(long)]
    line: bool,
    /// Probe a variant's tables (made by `mysl tb gen --variant`) in --dir: DTM of the position and its moves.
    #[arg(long)]
    variant: Option<String>,
}

pub fn run(args: TbArgs) -> Result<ExitCode, CliError> {
    match args.command {
        TbCommand::Gen(a) => match a.variant.as_deref().filter(|v| Variant::from_name(v) != Some(Variant::Chess)) {
            Some(v) => crate::tb_variant_cmd::gen(v, &a.materials, a.max_pieces, &a.dir),
            None => gen(a),
        },
        TbCommand::Probe(a) => match a.variant.as_deref().filter(|v| Variant::from_name(v) != Some(Variant::Chess)) {
            Some(v) => {
                let dir = a.dir.as_deref().ok_or_else(|| CliError::Input("--variant needs --dir".into()))?;
                crate::tb_variant_cmd::probe(v, dir, &a.fen, a.json)
            }
            None => probe(a),
        },
        TbCommand::Plan(a) => plan(a),
    }
}

/// The endings named, or all of up to `max_pieces` pieces.
fn targets(materials: &[String], max_pieces: Option<usize>, most: usize) -> Result<Vec<Material>, CliError> {
    if let Some(n) = max_pieces {
        if !(3..=most).contains(&n) {
            return Err(CliError::Input(format!("--max-pieces {n}: must be 3 to {most}")));
        }
        return Ok(Material::all_up_to(n).into_iter().filter(|m| m.count() >= 3).collect());
    }
    if materials.is_empty() {
        return Err(CliError::Input("name endings (e.g. KQvKR) or give --max-pieces".into()));
    }
    let mut v = Vec::new();
    for s in materials {
        let m = Material::parse(s).map_err(|e| CliError::Input(e.to_string()))?;
        if m.count() <= 2 {
            return Err(CliError::Input(format!("{s}: nothing to generate for bare kings")));
        }
        v.push(m);
    }
    Ok(v)
}

fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// The plan as text: one line per ending; `dir`: say which are present there.
fn print_plan(steps: &[mysl_tb::plan::Step], dir: Option<&Path>) {
    let (mut cpu, mut peak) = (0.0, 0u64);
    for s in steps {
        let present = dir.is_some_and(|d| path_for(d, &s.ending).exists());
        let needs: Vec<String> = s.needs.iter().map(|m| m.to_string()).collect();
        println!(
            "{:8} {:>12} entries/side  ~{:>6} MB peak  ~{:>8.0} s CPU  needs {}{}",
            s.ending.to_string(),
            s.index_entries,
            mib(s.estimate.peak_bytes),
            s.estimate.cpu_seconds,
            if needs.is_empty() { "-".to_string() } else { needs.join(" ") },
            if present { "  (present)" } else { "" }
        );
        if !present {
            cpu += s.estimate.cpu_seconds;
            peak = peak.max(s.estimate.peak_bytes);
        }
    }
    println!(
        "{} endings; to generate: ~{cpu:.0} s CPU in all, ~{} MB peak for the largest (estimates: docs/tablebases.md)",
        steps.len(),
        mib(peak)
    );
}

fn plan(a: PlanArgs) -> Result<ExitCode, CliError> {
    let steps = mysl_tb::plan::plan(&targets(&a.materials, a.max_pieces, 5)?);
    if !a.json {
        print_plan(&steps, None);
        return Ok(ExitCode::SUCCESS);
    }
    let list: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| {
            serde_json::json!({
                "ending": s.ending.to_string(),
                "needs": s.needs.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "index_entries": s.index_entries,
                "peak_mb": mib(s.estimate.peak_bytes),
                "cpu_seconds": s.estimate.cpu_seconds.ceil(),
            })
        })
        .collect();
    println!("{}", serde_json::Value::Array(list));
    Ok(ExitCode::SUCCESS)
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&self, material: Material, total: u64) {
        self.0.set_message(material.to_string());
        self.0.set_length(total);
        self.0.set_position(0);
    }
    fn advance(&self, units: u64) {
        self.0.inc(units);
    }
    fn message(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
}

/// An existing, readable table file (anything else is generated again).
fn existing(dir: &Path, m: &Material) -> Option<TableFile> {
    let p = path_for(dir, m);
    if !p.exists() {
        return None;
    }
    match TableFile::open(&p, Some(*m)) {
        Ok(f) => Some(f),
        Err(e) => {
            eprintln!("mysl: {e}; generating it again");
            None
        }
    }
}

fn gen(a: GenArgs) -> Result<ExitCode, CliError> {
    if a.max_pieces.is_some_and(|n| n > 4) {
        return Err(CliError::Input(
            "--max-pieces: must be 3 or 4 (5 pieces: name the 5-piece endings, e.g. KRNvKR KRPvKR, or run \
             workflow/Snakefile)"
                .into(),
        ));
    }
    let targets = targets(&a.materials, a.max_pieces, 4)?;
    if a.estimate {
        print_plan(&mysl_tb::plan::plan(&targets), Some(&a.dir));
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(&a.dir).map_err(|e| CliError::Input(format!("{}: {e}", a.dir.display())))?;
    // leftovers of an interrupted run: temporary files of processes that are gone (another run may be
    // writing its own ending into the same directory, as the jobs of workflow/Snakefile do)
    if let Ok(rd) = std::fs::read_dir(&a.dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let pid = name.rsplit_once(".mtb.tmp").and_then(|(_, pid)| pid.parse::<u32>().ok());
            if let Some(pid) = pid.filter(|_| name.starts_with('.')) {
                if Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    let dir = a.dir.clone();
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nmysl: interrupted; finished endings are kept in {} and a new run resumes", dir.display());
        std::process::exit(130);
    });
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let plan = Generator::plan(&targets);
    // sub-tables: endings of up to 4 pieces in memory, 5-piece ones (promotions of a 5-piece pawn ending)
    // read from their files
    let mut subs = Sources::default();
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{prefix} {msg:10} [{bar:30}] {pos}/{len} slices {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = Bar(bar.clone());
    let start = Instant::now();
    let mut made = 0;
    for (k, m) in plan.iter().enumerate() {
        bar.set_prefix(format!("[{}/{}]", k + 1, plan.len()));
        // tables needed later stay in memory; others are dropped
        let needed_later = |x: &Material| plan[k + 1..].iter().any(|later| later.successors().contains(x));
        if let Some(f) = existing(&a.dir, m) {
            if needed_later(m) {
                if m.count() == 5 {
                    // the generator reads 5-piece files' stored values as they are
                    if f.resolves_captures() {
                        return Err(CliError::Failure(format!(
                            "{}: a 5-piece file with values left to the prober, which the generator cannot read",
                            f.path.display()
                        )));
                    }
                    subs.files.insert(*m, Arc::new(f));
                } else {
                    let t = f.to_table(&subs.tables).map_err(|e| CliError::Failure(e.to_string()))?;
                    subs.tables.insert(*m, Arc::new(t));
                }
            }
            bar.println(format!("{m}: present, kept"));
            continue;
        }
        let t0 = Instant::now();
        if m.count() == 5 {
            // one metric at a time, straight to the file; read from the file when a later ending needs it
            let path = mysl_tb::write::generate_file(*m, &subs, threads, &progress, &a.dir)
                .map_err(|e| CliError::Failure(e.to_string()))?;
            let bytes = std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
            bar.println(format!("{m}: {:.2} s, {bytes} bytes", t0.elapsed().as_secs_f64()));
            made += 1;
            if needed_later(m) {
                let f = TableFile::open(&path, Some(*m)).map_err(|e| CliError::Failure(e.to_string()))?;
                subs.files.insert(*m, Arc::new(f));
            }
            subs.tables.retain(|x, _| needed_later(x));
            subs.files.retain(|x, _| needed_later(x));
            continue;
        }
        let t = mysl_tb::generate_table(*m, &subs, threads, &progress);
        let path = write_table_resolved(&a.dir, &t, &subs.tables).map_err(|e| CliError::Failure(e.to_string()))?;
        let bytes = std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
        bar.println(format!(
            "{m}: {:.2} s, {} bytes ({:.3} bytes per index entry and side)",
            t0.elapsed().as_secs_f64(),
            bytes,
            bytes as f64 / (2.0 * t.layout.size as f64)
        ));
        made += 1;
        subs.tables.insert(*m, Arc::new(t));
        subs.tables.retain(|x, _| needed_later(x));
    }
    bar.finish_and_clear();
    println!("{made} endings generated, {} present, in {:.1} s", plan.len() - made, start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn wdl_word(w: i8) -> &'static str {
    match w {
        2 => "win",
        1 => "cursed win",
        0 => "draw",
        -1 => "blessed loss",
        _ => "loss",
    }
}

/// Prints a line; a closed pipe (`| head`) ends the output quietly instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// The `--json` object of a probe: the position's values, its moves (already JSON) and the `--line`.
fn probe_json(a: &ProbeArgs, wdl: i8, dtz: &str, dtm: &str, moves: &[String], line: &[String]) -> String {
    let mut s = format!(
        "{{\"fen\":\"{}\",\"wdl\":{wdl},\"dtz\":{dtz},\"dtm\":{dtm},\"moves\":[{}]",
        a.fen.replace('"', ""),
        moves.join(",")
    );
    if a.line {
        let l: Vec<String> = line.iter().map(|m| format!("\"{m}\"")).collect();
        s.push_str(&format!(",\"line\":[{}]", l.join(",")));
    }
    s.push('}');
    s
}

fn probe(a: ProbeArgs) -> Result<ExitCode, CliError> {
    if let Some(dir) = &a.dir {
        if !dir.is_dir() {
            return Err(CliError::Input(format!("--dir {}: not a directory", dir.display())));
        }
    }
    let Some(dir) = a.dir.clone() else {
        return match &a.syzygy {
            Some(s) => probe_syzygy(&a, s),
            None => Err(CliError::Input("give --dir (our tables) and/or --syzygy (Syzygy files)".into())),
        };
    };
    if let Some(s) = &a.syzygy {
        // ours first; Syzygy for what our directory lacks
        let ours = pos_from_fen(&a.fen).ok().filter(|(p, _)| path_for(&dir, &p.material().normalized()).exists());
        if ours.is_none() {
            return probe_syzygy(&a, s);
        }
    }
    let tb = Tablebase::open_dir(&dir);
    let (r, moves) = tb.probe_fen(&a.fen).map_err(|e| CliError::Input(e.to_string()))?;
    let (pos, ep) = pos_from_fen(&a.fen).map_err(|e| CliError::Input(e.to_string()))?;
    let mut line = Vec::new();
    if a.line {
        let mut p = pos;
        let mut e = ep;
        for _ in 0..600 {
            let (pr, mv) = tb.probe_root(&p, e).map_err(|e| CliError::Input(e.to_string()))?;
            if mv.is_empty() || pr.dtm() == 0 {
                break;
            }
            let best = &mv[0];
            line.push(best.uci.clone());
            let double = p.role[best.mv.piece as usize] == mysl_core::Role::Pawn
                && (best.mv.to as i32 - best.mv.from as i32).abs() == 16;
            p = p.play(&best.mv);
            e = if double && !p.en_passant_children(best.mv.to).is_empty() { Some(best.mv.to) } else { None };
        }
    }
    if a.json {
        let mv: Vec<String> = moves.iter().map(move_json).collect();
        out!("{}", probe_json(&a, r.wdl(), &r.dtz().to_string(), &r.dtm().to_string(), &mv, &line));
    } else {
        out!("wdl {} ({}), dtz {}, dtm {}", r.wdl(), wdl_word(r.wdl()), r.dtz(), r.dtm());
        for m in &moves {
            out!(
                "{:<6} wdl {:>2} ({:<12}) dtz {:>4} dtm {:>4}{}",
                m.uci,
                m.result.wdl(),
                wdl_word(m.result.wdl()),
                m.result.dtz(),
                m.result.dtm(),
                if m.zeroing { "  zeroing" } else { "" }
            );
        }
        if a.line {
            out!("line: {}", line.join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A move's values are the mover's: what the position is worth when this move is played.
fn move_json(m: &MoveValue) -> String {
    format!(
        "{{\"uci\":\"{}\",\"wdl\":{},\"dtz\":{},\"dtm\":{},\"zeroing\":{}}}",
        m.uci,
        m.result.wdl(),
        m.result.dtz(),
        m.result.dtm(),
        m.zeroing
    )
}

fn opt(v: Option<i32>) -> String {
    v.map_or("null".to_string(), |x| x.to_string())
}

/// Probing through Syzygy files (`--syzygy`): WDL and DTZ, no DTM; the line follows DTZ-optimal moves.
fn probe_syzygy(a: &ProbeArgs, path: &str) -> Result<ExitCode, CliError> {
    let mut tbs = Tablebases::new();
    tbs.add_syzygy_path(path).map_err(|e| CliError::Input(format!("--syzygy: {e}")))?;
    let pos: mysl_core::Chess =
        mysl_core::Chess::from_fen(&a.fen).map_err(|e| CliError::Input(format!("bad FEN '{}': {e}", a.fen)))?;
    let missing = || CliError::Input(format!("'{}': no Syzygy table covers this position in {path}", a.fen));
    if pos.castling().has_any(mysl_core::Color::White) || pos.castling().has_any(mysl_core::Color::Black) {
        return Err(CliError::Input(format!("'{}': castling rights are not covered by the tables", a.fen)));
    }
    let root = tbs.probe_root(&pos).ok_or_else(missing)?;
    let mut line = Vec::new();
    if a.line {
        let mut p = pos.clone();
        for _ in 0..600 {
            let Some(r) = tbs.probe_root(&p) else { break };
            let Some(best) = r.moves.first() else { break };
            if r.value.wdl == 0 || best.rank == 0 {
                break;
            }
            line.push(best.uci.clone());
            p.play_unchecked(best.mv);
        }
    }
    let v = root.value;
    if a.json {
        let mv: Vec<String> = root
            .moves
            .iter()
            .map(|m| {
                format!(
                    "{{\"uci\":\"{}\",\"wdl\":{},\"dtz\":{},\"dtm\":{},\"zeroing\":{}}}",
                    m.uci,
                    m.wdl,
                    m.dtz,
                    opt(m.dtm),
                    m.zeroing
                )
            })
            .collect();
        out!("{}", probe_json(a, v.wdl, &opt(v.dtz), &opt(v.dtm), &mv, &line));
    } else {
        out!("wdl {} ({}), dtz {}, dtm {} (Syzygy)", v.wdl, wdl_word(v.wdl), opt(v.dtz), opt(v.dtm));
        for m in &root.moves {
            out!(
                "{:<6} wdl {:>2} ({:<12}) dtz {:>4} dtm {:>4}{}",
                m.uci,
                m.wdl,
                wdl_word(m.wdl),
                m.dtz,
                opt(m.dtm),
                if m.zeroing { "  zeroing" } else { "" }
            );
        }
        if a.line {
            out!("line: {}", line.join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}
