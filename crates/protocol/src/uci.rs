//! The UCI protocol: commands in, `info`/`bestmove` out. A bad command or FEN is answered with
//! `info string error: ...` and the engine keeps its previous state.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mysl_core::{dispatch_variant, Variant};
use mysl_engine::score::mate_in;
use mysl_engine::skill;
use mysl_engine::timeman::TimeBudget;
use mysl_engine::tt::Bound;
use mysl_engine::{Limits, SearchInfo, SearchResult};

use crate::session::{Game, Output, Reporter, Session, DEFAULT_EVAL_FILE};

pub const ENGINE_NAME: &str = concat!("mysl ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the mysl developers";

/// What a `go` command asks for.
enum Go {
    Search(Limits, bool),
    Perft(u32),
}

/// What the loop should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Uci {
    pub session: Session,
    out: Output,
    /// Bumped at every `go`; a `ponderhit` timer only stops the search it was started for.
    generation: Arc<AtomicU64>,
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uci").field("session", &self.session).finish()
    }
}

struct UciReporter {
    out: Output,
}

/// `cp X` or `mate N`.
pub fn format_score(score: i32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// One `info` line: `score cp X` gets `lowerbound`/`upperbound` after an aspiration fail-high/low.
pub fn format_info(info: &SearchInfo, pv: &[String]) -> String {
    let ms = info.time.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / ms;
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        Some(Bound::Exact) | None => "",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        info.nodes,
        nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        pv.join(" ")
    )
}

impl Reporter for UciReporter {
    fn info(&self, info: &SearchInfo, pv: &[String]) {
        (self.out)(&format_info(info, pv));
    }

    fn note(&self, text: &str) {
        (self.out)(&format!("info string {text}"));
    }
    fn done(&self, _result: &SearchResult, best: Option<String>, ponder: Option<String>) {
        match (best, ponder) {
            (Some(b), Some(p)) => (self.out)(&format!("bestmove {b} ponder {p}")),
            (Some(b), None) => (self.out)(&format!("bestmove {b}")),
            (None, _) => (self.out)("bestmove (none)"),
        }
    }
}

fn variant_names() -> String {
    Variant::ALL.iter().map(|v| format!(" var {}", v.name())).collect()
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        Uci::with_session(out, Session::new())
    }

    /// A front end over a given session (a [`crate::Sandbox`]ed one in fuzzing and tests).
    pub fn with_session(out: Output, session: Session) -> Uci {
        Uci { session, out, generation: Arc::new(AtomicU64::new(0)) }
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error: {message}"));
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else { return Flow::Continue };
        match command {
            "uci" => {
                self.say(&format!("id name {ENGINE_NAME}"));
                self.say(&format!("id author {ENGINE_AUTHOR}"));
                self.say("option name Hash type spin default 16 min 1 max 65536");
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name MultiPV type spin default 1 min 1 max 256");
                self.say("option name Ponder type check default false");
                self.say("option name Move Overhead type spin default 30 min 0 max 5000");
                self.say("option name UCI_Chess960 type check default false");
                self.say(&format!("option name UCI_Variant type combo default chess{}", variant_names()));
                self.say("option name Clear Hash type button");
                self.say("option name OwnBook type check default false");
                self.say("option name BookFile type string default <default>");
                self.say("option name BookDepth type spin default 20 min 0 max 1000");
                self.say("option name BookVariety type spin default 50 min 0 max 100");
                self.say("option name SyzygyPath type string default <empty>");
                self.say("option name TablebasePath type string default <empty>");
                self.say("option name SyzygyProbeLimit type spin default 7 min 0 max 7");
                self.say(&format!("option name EvalFile type string default {DEFAULT_EVAL_FILE}"));
                self.say("option name Use NNUE type check default true");
                self.say("option name UCI_LimitStrength type check default false");
                self.say(&format!(
                    "option name UCI_Elo type spin default {} min {} max {}",
                    skill::DEFAULT_ELO,
                    skill::MIN_ELO,
                    skill::MAX_ELO
                ));
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.session.clear_hash();
                let chess960 = self.session.game.chess960;
                self.session.game = Game { chess960, ..Game::new(self.session.game.variant) };
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.session.stop_search(),
            "ponderhit" => self.ponderhit(),
            "setoption" => self.setoption(args),
            "quit" => {
                self.session.stop_search();
                return Flow::Quit;
            }
            "bench" => self.bench(args),
            "debug" | "register" => {}
            "d" => {
                let g = &self.session.game;
                let text = dispatch_variant!(g.variant, R => g.position::<R>().map(|p| p.to_string()));
                match text {
                    Ok(t) => t.lines().for_each(|l| self.say(l)),
                    Err(e) => self.error(&e),
                }
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    fn position(&mut self, args: &[&str]) {
        let (fen, rest) = match args.first() {
            Some(&"startpos") => (mysl_core::STARTING_FEN.to_string(), &args[1..]),
            Some(&"fen") => {
                let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
                (args[1..end].join(" "), &args[end..])
            }
            _ => return self.error("position: expected 'startpos' or 'fen <FEN>'"),
        };
        let moves: Vec<String> = match rest.first() {
            Some(&"moves") => rest[1..].iter().map(|s| s.to_string()).collect(),
            Some(other) => return self.error(&format!("position: expected 'moves', found '{other}'")),
            None => Vec::new(),
        };
        let game = Game { variant: self.session.game.variant, fen, moves, chess960: self.session.game.chess960 };
        match game.validate() {
            Ok(()) => self.session.game = game,
            Err(e) => self.error(&format!("position: {e}; keeping the previous position")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        match self.parse_go(args) {
            Ok(Go::Search(limits, ponder)) => self.start_search(limits, ponder),
            Ok(Go::Perft(depth)) => self.perft(self.session.bounded_depth(depth)),
            // Nothing started, nothing changed.
            Err(e) => self.error(&format!("go: {e}; no search started")),
        }
    }

    /// Reads `go`'s arguments. A value that is missing or does not parse is an error naming the token.
    fn parse_go(&self, args: &[&str]) -> Result<Go, String> {
        let mut limits = Limits::default();
        let white = self.session.game.white_to_move();
        let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, None, None, None);
        let mut ponder = false;
        let mut i = 0;
        // The value after `args[i]`: an integer of at least `min`.
        let num = |i: usize, min: i64| -> Result<i64, String> {
            let key = args[i];
            let Some(&text) = args.get(i + 1) else { return Err(format!("'{key}' needs a value")) };
            match text.parse::<i64>() {
                Ok(v) if v >= min => Ok(v),
                Ok(_) => Err(format!("'{key} {text}': the value must be at least {min}")),
                Err(_) => Err(format!("'{key} {text}': '{text}' is not a number")),
            }
        };
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        while i < args.len() {
            match args[i] {
                // A clock may be negative when a GUI lets it run out: it counts as empty.
                "wtime" => wtime = Some(ms(num(i, i64::MIN)?)),
                "btime" => btime = Some(ms(num(i, i64::MIN)?)),
                "winc" => winc = Some(ms(num(i, 0)?)),
                "binc" => binc = Some(ms(num(i, 0)?)),
                "movestogo" => movestogo = Some(num(i, 1)?.min(i64::from(u32::MAX)) as u32),
                "depth" => limits.depth = Some(num(i, 1)?.min(1000) as i32),
                "nodes" => limits.nodes = Some(num(i, 1)? as u64),
                "movetime" => limits.movetime = Some(ms(num(i, 0)?)),
                "mate" => limits.mate = Some(num(i, 1)?.min(1000) as i32),
                "perft" => return Ok(Go::Perft(num(i, 1)?.min(64) as u32)),
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    let legal = self.session.game.legal_moves();
                    let mut j = i + 1;
                    let mut chosen = Vec::new();
                    while j < args.len() && legal.iter().any(|m| m == args[j]) {
                        chosen.push(args[j].to_string());
                        j += 1;
                    }
                    if chosen.is_empty() {
                        return Err(match args.get(j) {
                            Some(t) => format!("searchmoves: '{t}' is not a legal move"),
                            None => "'searchmoves' needs moves".to_string(),
                        });
                    }
                    limits.searchmoves = dispatch_variant!(self.session.game.variant, R => {
                        match self.session.game.position::<R>() {
                            Ok(p) => chosen.iter().filter_map(|t| mysl_core::uci::parse_uci_move(&p, t).ok()).collect(),
                            Err(_) => Vec::new(),
                        }
                    });
                    i = j;
                    continue;
                }
                other => {
                    // An unknown word (a later UCI extension?) is skipped, not fatal.
                    self.error(&format!("go: unknown token '{other}' ignored"));
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
        if let Some(t) = time {
            limits.clock = Some((t, inc.unwrap_or_default(), movestogo));
        }
        Ok(Go::Search(limits, ponder))
    }

    fn start_search(&mut self, mut limits: Limits, ponder: bool) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        // A `ponderhit` belongs to the last `go ponder` only.
        if let Ok(mut p) = self.session.pondering.lock() {
            *p = ponder.then(|| limits.clone());
        }
        if ponder {
            // Think on the opponent's time until `ponderhit` (then the limits apply) or `stop`: no limit
            // of the `go` may end the search before that (UCI: no `bestmove` while pondering).
            limits.infinite = true;
            limits.clock = None;
            limits.nodes = None;
            limits.depth = None;
            limits.movetime = None;
            limits.mate = None;
        }
        let reporter = Arc::new(UciReporter { out: self.out.clone() });
        self.session.go(limits, reporter);
    }

    fn ponderhit(&mut self) {
        let limits = self.session.pondering.lock().ok().and_then(|mut p| p.take());
        let Some(mut limits) = limits else { return };
        // From the ponderhit on, the move gets what the time manager gives a normal search; a fixed
        // `movetime` counts from the ponderhit; a node, depth or mate limit has had the opponent's whole
        // thinking time already, so the search ends now.
        limits.move_overhead = self.session.options.move_overhead;
        let stop = self.session.stop_flag();
        let Some(budget) = TimeBudget::from_limits(&limits, 0).target() else {
            if limits.nodes.is_some() || limits.depth.is_some() || limits.mate.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
            return; // `go ponder` with no limit at all: runs until `stop`
        };
        let generation = self.generation.clone();
        let mine = generation.load(Ordering::Relaxed);
        std::thread::spawn(move || {
            std::thread::sleep(budget);
            if generation.load(Ordering::Relaxed) == mine {
                stop.store(true, Ordering::Relaxed);
            }
        });
    }

    fn setoption(&mut self, args: &[&str]) {
        let joined = args.join(" ");
        let Some(rest) = joined.strip_prefix("name ") else {
            return self.error("setoption: expected 'name <name> [value <value>]'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => match rest.strip_suffix(" value") {
                Some(n) => (n.trim(), Some("")),
                None => (rest.trim(), None),
            },
        };
        let number = |v: Option<&str>| v.and_then(|v| v.parse::<i64>().ok());
        // `true` or `false` (any case); anything else is an error and the option keeps its value.
        let boolean = |v: Option<&str>| match v.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        };
        let shown = value.unwrap_or("");
        match name.to_ascii_lowercase().as_str() {
            "hash" => match number(value) {
                Some(mb) => self.session.set_hash(mb.max(1) as usize),
                None => self.error(&format!("setoption Hash: expected a number of megabytes, found '{shown}'")),
            },
            "threads" => match number(value) {
                Some(n) => self.session.options.threads = n.clamp(1, 256) as usize,
                None => self.error(&format!("setoption Threads: expected a number, found '{shown}'")),
            },
            "multipv" => match number(value) {
                Some(n) => self.session.options.multipv = n.clamp(1, 256) as usize,
                None => self.error(&format!("setoption MultiPV: expected a number, found '{shown}'")),
            },
            "move overhead" => match number(value) {
                Some(n) => self.session.options.move_overhead = Duration::from_millis(n.clamp(0, 5000) as u64),
                None => self.error(&format!("setoption Move Overhead: expected milliseconds, found '{shown}'")),
            },
            "ponder" => match boolean(value) {
                Some(b) => self.session.options.ponder = b,
                None => self.error(&format!("setoption Ponder: expected true or false, found '{shown}'")),
            },
            "uci_chess960" => match boolean(value) {
                Some(b) => self.session.game.chess960 = b,
                None => self.error(&format!("setoption UCI_Chess960: expected true or false, found '{shown}'")),
            },
            "uci_variant" => match value.and_then(Variant::from_name) {
                Some(v) => {
                    self.session.stop_search();
                    let chess960 = self.session.game.chess960;
                    self.session.game = Game { chess960, ..Game::new(v) };
                }
                None => self.error(&format!("setoption UCI_Variant: unknown variant '{}'", value.unwrap_or(""))),
            },
            "clear hash" => self.session.clear_hash(),
            "ownbook" => match boolean(value) {
                Some(b) => self.session.options.own_book = b,
                None => self.error(&format!("setoption OwnBook: expected true or false, found '{shown}'")),
            },
            "bookfile" => {
                if let Err(e) = self.session.set_book_file(value.unwrap_or("")) {
                    self.error(&format!("setoption BookFile: {e}; keeping {}", self.session.options.book_file));
                }
            }
            "bookdepth" => match number(value) {
                Some(n) => self.session.options.book_depth = n.clamp(0, 1000) as usize,
                None => self.error(&format!("setoption BookDepth: expected a number of plies, found '{shown}'")),
            },
            "bookvariety" => match number(value) {
                Some(n) => self.session.options.book_variety = n.clamp(0, 100) as u32,
                None => self.error(&format!("setoption BookVariety: expected 0 to 100, found '{shown}'")),
            },
            "syzygypath" => match self.session.set_syzygy_path(value.unwrap_or("")) {
                Ok(note) => self.say(&format!("info string {note}")),
                Err(e) => {
                    self.error(&format!("setoption SyzygyPath: {e}; keeping '{}'", self.session.options.syzygy_path))
                }
            },
            "tablebasepath" => match self.session.set_tablebase_path(value.unwrap_or("")) {
                Ok(note) => self.say(&format!("info string {note}")),
                Err(e) => self
                    .error(&format!("setoption TablebasePath: {e}; keeping '{}'", self.session.options.tablebase_path)),
            },
            "syzygyprobelimit" => match number(value) {
                Some(n) => self.session.options.syzygy_probe_limit = n.clamp(0, 7) as usize,
                None => {
                    self.error(&format!("setoption SyzygyProbeLimit: expected a number of pieces, found '{shown}'"))
                }
            },
            "evalfile" => match self.session.set_eval_file(value.unwrap_or("")) {
                Ok(note) => self.say(&format!("info string {note}")),
                Err(e) => self.error(&format!("setoption EvalFile: {e}; keeping {}", self.session.options.eval_file)),
            },
            "use nnue" => match boolean(value) {
                Some(b) => self.session.options.use_nnue = b,
                None => self.error(&format!("setoption Use NNUE: expected true or false, found '{shown}'")),
            },
            "uci_limitstrength" => match boolean(value) {
                Some(b) => self.session.options.limit_strength = b,
                None => self.error(&format!("setoption UCI_LimitStrength: expected true or false, found '{shown}'")),
            },
            "uci_elo" => match number(value) {
                Some(n) => {
                    self.session.options.elo = n.clamp(i64::from(skill::MIN_ELO), i64::from(skill::MAX_ELO)) as u32
                }
                None => self.error(&format!(
                    "setoption UCI_Elo: expected a number from {} to {}, found '{shown}'",
                    skill::MIN_ELO,
                    skill::MAX_ELO
                )),
            },
            _ => self.error(&format!("setoption: unknown option '{name}'")),
        }
    }

    fn perft(&mut self, depth: u32) {
        let g = self.session.game.clone();
        let lines = dispatch_variant!(g.variant, R => g.position::<R>().map(|mut p| {
            let mut lines = Vec::new();
            let mut total = 0;
            for (mv, n) in mysl_core::perft::perft_divide(&mut p, depth.max(1)) {
                lines.push(format!("{}: {n}", mysl_core::uci::move_to_uci(&p, mv)));
                total += n;
            }
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            lines
        }));
        match lines {
            Ok(lines) => lines.iter().for_each(|l| self.say(l)),
            Err(e) => self.error(&e),
        }
    }

    /// `bench [DEPTH]`: the fixed bench of `mysl bench` (same positions, depth and node count), run here
    /// and now with the evaluation set by `EvalFile` and `Use NNUE`; a running search is stopped first.
    fn bench(&mut self, args: &[&str]) {
        let depth = match args {
            [] => mysl_engine::bench::DEFAULT_DEPTH,
            [d] => match d.parse::<i32>() {
                Ok(d) if d >= 1 => d,
                _ => return self.error(&format!("bench: bad depth '{d}' (a number of plies, at least 1)")),
            },
            [_, extra, ..] => return self.error(&format!("bench: unexpected '{extra}' (usage: bench [DEPTH])")),
        };
        let depth = self.session.bounded_depth(depth as u32) as i32;
        self.session.stop_search();
        let result = mysl_engine::bench::run_bench_with(depth, self.session.active_network(), |_, _, _, _| {});
        for line in result.summary() {
            self.say(&line);
        }
    }

    /// Waits for a running search (tests and `quit` at end of input).
    pub fn wait(&mut self) {
        self.session.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_show_the_aspiration_bound() {
        let mut info = SearchInfo {
            depth: 12,
            seldepth: 18,
            multipv: 1,
            score: 35,
            bound: None,
            nodes: 5000,
            time: Duration::from_millis(1500),
            hashfull: 41,
            pv: Vec::new(),
            tbhits: 0,
        };
        let pv = ["e2e4".to_string(), "e7e5".to_string()];
        let line = format_info(&info, &pv);
        assert_eq!(
            line,
            "info depth 12 seldepth 18 multipv 1 score cp 35 nodes 5000 nps 3333 hashfull 41 tbhits 0 time 1500 pv e2e4 e7e5"
        );
        info.bound = Some(Bound::Lower);
        assert!(format_info(&info, &pv).contains(" score cp 35 lowerbound nodes 5000 "));
        info.bound = Some(Bound::Upper);
        info.score = -40;
        assert!(format_info(&info, &pv).contains(" score cp -40 upperbound nodes "));
        info.bound = Some(Bound::Exact);
        assert!(format_info(&info, &pv).contains(" score cp -40 nodes "));
    }
}
