//! xboard / CECP v2. Moves in coordinate notation (`usermove e2e4`, `move e7e5`); errors as
//! `Error (...): ...` and `Illegal move: ...`; the engine keeps its state on bad input.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mysl_core::Variant;
use mysl_engine::score::mate_in;
use mysl_engine::skill;
use mysl_engine::{Limits, SearchInfo, SearchResult};

use crate::session::{Game, Output, Reporter, Session};
use crate::uci::{Flow, ENGINE_NAME};

/// Variant names announced to the GUI: xboard's own names where it has one, ours otherwise.
pub const XBOARD_VARIANTS: &str =
    "normal,fischerandom,giveaway,antichess,antichess-noep,3check,extinction,berolina,cylinder,dice,knightrelay,recycle";

fn variant_from_xboard(name: &str) -> Option<(Variant, bool)> {
    match name {
        "normal" => Some((Variant::Chess, false)),
        "fischerandom" => Some((Variant::Chess, true)),
        other => Variant::from_name(other).map(|v| (v, false)),
    }
}

pub struct Xboard {
    pub session: Session,
    out: Output,
    force: bool,
    /// The side the engine plays (true = White).
    engine_white: bool,
    post: bool,
    analyzing: bool,
    /// Our clock (`time`) and the opponent's (`otim`), in centiseconds. Time management uses ours;
    /// the opponent's is kept for the record (and the GUI's view of the game).
    time_cs: Option<u64>,
    otim_cs: Option<u64>,
    level: Option<(u32, Duration, Duration)>,
    st: Option<Duration>,
    sd: Option<i32>,
    /// The engine's own move in progress, shared with the search thread.
    turn: Arc<Mutex<Turn>>,
}

/// The engine's own search, shared between the protocol loop and the search thread.
#[derive(Debug, Default)]
struct Turn {
    /// A search for the engine's own move runs (its `move` line is still to come).
    thinking: bool,
    /// The move of the running search is no longer wanted (`new`, `result`, `setboard`, `variant`):
    /// it is neither printed nor played.
    discard: bool,
    /// Moves the engine played on its thread, applied to the game before the next command.
    played: Vec<String>,
    /// `ping`s received while thinking: CECP answers them after the `move` line.
    pongs: Vec<String>,
}

impl std::fmt::Debug for Xboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Xboard").field("session", &self.session).field("force", &self.force).finish()
    }
}

struct XboardReporter {
    out: Output,
    post: bool,
    /// `Some` when the search is the engine's move (not analysis).
    turn: Option<Arc<Mutex<Turn>>>,
    /// The game before the engine's move (for its own moves): a move that ends the game is followed at
    /// once by the result claim, as CECP asks, not only when the next command comes in.
    game: Option<Game>,
}

impl Reporter for XboardReporter {
    fn note(&self, text: &str) {
        if self.post {
            (self.out)(&format!("# {text}"));
        }
    }
    fn info(&self, info: &SearchInfo, pv: &[String]) {
        // xboard has no notation for a fail-high or fail-low: only exact scores are posted.
        if self.post && info.multipv == 1 && info.bound.is_none() {
            let score = match mate_in(info.score) {
                Some(n) if n > 0 => 100000 + n,
                Some(n) => -100000 + n,
                None => info.score,
            };
            if info.tbhits > 0 {
                // the extended form: seldepth, speed and tablebase hits, then a tab before the PV
                let nps = info.nodes as u128 * 1000 / info.time.as_millis().max(1);
                (self.out)(&format!(
                    "{} {} {} {} {} {} {}\t{}",
                    info.depth,
                    score,
                    info.time.as_millis() / 10,
                    info.nodes,
                    info.seldepth,
                    nps,
                    info.tbhits,
                    pv.join(" ")
                ));
                return;
            }
            (self.out)(&format!(
                "{} {} {} {} {}",
                info.depth,
                score,
                info.time.as_millis() / 10,
                info.nodes,
                pv.join(" ")
            ));
        }
    }

    fn done(&self, _result: &SearchResult, best: Option<String>, _ponder: Option<String>) {
        let Some(turn) = &self.turn else { return };
        // One lock for the move and the pongs: a `ping` is either answered before (not thinking yet) or
        // queued and answered here, after the move.
        let Ok(mut turn) = turn.lock() else { return };
        if let (false, Some(best)) = (turn.discard, best) {
            turn.played.push(best.clone());
            (self.out)(&format!("move {best}"));
            if let Some(mut game) = self.game.clone() {
                game.moves.push(best);
                if let Some((result, reason)) = game.result() {
                    (self.out)(&format!("{result} {{{reason}}}"));
                }
            }
        }
        turn.thinking = false;
        turn.discard = false;
        for n in std::mem::take(&mut turn.pongs) {
            (self.out)(&format!("pong {n}"));
        }
    }
}

impl Xboard {
    pub fn new(out: Output) -> Xboard {
        Xboard::with_session(out, Session::new())
    }

    /// A front end over a given session (a [`crate::Sandbox`]ed one in fuzzing and tests).
    pub fn with_session(out: Output, session: Session) -> Xboard {
        Xboard {
            session,
            out,
            force: false,
            engine_white: false,
            post: false,
            analyzing: false,
            time_cs: None,
            otim_cs: None,
            level: None,
            st: None,
            sd: None,
            turn: Arc::new(Mutex::new(Turn::default())),
        }
    }

    /// Our clock and the opponent's as last given by `time` and `otim`.
    pub fn clocks(&self) -> (Option<Duration>, Option<Duration>) {
        let d = |cs: Option<u64>| cs.map(|c| Duration::from_millis(c * 10));
        (d(self.time_cs), d(self.otim_cs))
    }

    /// Stops the engine's own search, if any, without playing or printing its move. A move the search
    /// printed before this (it may finish between the last [`Xboard::sync`] and the stop) has reached the
    /// GUI, so it stays in the game: the caller replaces the game (`new`, `variant`, `setboard`) or keeps
    /// it with that move (`force`, `result`).
    fn abandon(&mut self) {
        if let Ok(mut t) = self.turn.lock() {
            t.discard = t.thinking;
        }
        self.session.stop_search();
        if let Ok(mut t) = self.turn.lock() {
            t.discard = false;
        }
        self.sync();
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, kind: &str, command: &str) {
        self.say(&format!("Error ({kind}): {command}"));
    }

    /// Applies the engine's own moves (made on the search thread) to the game.
    fn sync(&mut self) {
        if !self.session.is_searching() {
            self.session.wait();
        }
        let moves: Vec<String> = self.turn.lock().map(|mut t| std::mem::take(&mut t.played)).unwrap_or_default();
        for mv in moves {
            self.session.game.moves.push(mv);
            // The search thread claimed the result right after its move: only stop moving here.
            if self.session.game.result().is_some() {
                self.force = true;
            }
        }
    }

    fn announce_result(&mut self) {
        if let Some((result, reason)) = self.session.game.result() {
            self.say(&format!("{result} {{{reason}}}"));
            self.force = true;
        }
    }

    pub fn finish(&mut self) {
        self.session.finish();
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        self.sync();
        let line = line.trim();
        let (command, rest) = line.split_once(' ').map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hard"
            | "easy" | "draw" | "." | "hint" | "bk" | "nopause" | "pause" | "resume" => {}
            "protover" => {
                self.say(&format!(
                    "feature done=0 myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 san=0 \
                     sigint=0 sigterm=0 colors=0 draw=0 analyze=1 playother=1 reuse=1 variants=\"{XBOARD_VARIANTS}\" \
                     egt=\"syzygy,mysl\""
                ));
                self.say("feature option=\"Clear Hash -button\"");
                self.say("feature option=\"OwnBook -check 0\"");
                self.say("feature option=\"BookFile -file <default>\"");
                self.say("feature option=\"BookDepth -spin 20 0 1000\"");
                self.say("feature option=\"BookVariety -spin 50 0 100\"");
                self.say(&format!("feature option=\"EvalFile -file {}\"", crate::session::DEFAULT_EVAL_FILE));
                self.say("feature option=\"Use NNUE -check 1\"");
                self.say("feature option=\"UCI_LimitStrength -check 0\"");
                self.say(&format!(
                    "feature option=\"UCI_Elo -spin {} {} {}\"",
                    skill::DEFAULT_ELO,
                    skill::MIN_ELO,
                    skill::MAX_ELO
                ));
                self.say("feature done=1");
            }
            "new" => {
                self.abandon();
                self.session.forget_histories();
                self.session.game = Game::new(Variant::Chess);
                self.force = false;
                self.engine_white = false;
                self.st = None;
                self.sd = None;
                self.analyzing = false;
            }
            "variant" => match variant_from_xboard(rest) {
                Some((v, chess960)) => {
                    self.abandon();
                    self.session.game = Game { chess960, ..Game::new(v) };
                }
                None => self.error("unknown variant", rest),
            },
            "force" => {
                // CECP: in force mode the engine makes no move of its own, so a search running for its
                // move is dropped, not played (moves it already played stay in the game).
                self.sync();
                self.abandon();
                self.force = true;
            }
            "go" => {
                self.force = false;
                self.engine_white = self.session.game.white_to_move();
                self.think();
            }
            "playother" => {
                self.force = false;
                self.engine_white = !self.session.game.white_to_move();
            }
            "white" | "black" => {
                self.engine_white = command == "black";
            }
            "setboard" => {
                self.abandon();
                let game = Game { fen: rest.to_string(), moves: Vec::new(), ..self.session.game.clone() };
                match game.validate() {
                    Ok(()) => {
                        self.session.game = game;
                        self.restart_analysis();
                    }
                    Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "usermove" => self.user_move(rest),
            "undo" | "remove" => {
                self.session.stop_search();
                self.sync();
                let n = if command == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    self.session.game.moves.pop();
                }
                self.restart_analysis();
            }
            "time" | "otim" => match rest.parse::<i64>() {
                // A clock that ran out may be sent negative: it counts as empty.
                Ok(cs) => {
                    let cs = Some(cs.max(0) as u64);
                    if command == "time" {
                        self.time_cs = cs;
                    } else {
                        self.otim_cs = cs;
                    }
                }
                Err(_) => self.error(&format!("bad {command}"), line),
            },
            "level" => match parse_level(rest) {
                Some(l) => {
                    self.level = Some(l);
                    self.st = None;
                }
                None => self.error("bad level", line),
            },
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.st = Some(Duration::from_secs_f64(s)),
                _ => self.error("bad st", line),
            },
            "sd" => match rest.parse::<i32>() {
                Ok(d) if d > 0 => self.sd = Some(d),
                _ => self.error("bad sd", line),
            },
            "ping" => {
                // While the engine thinks on its own move, the pong comes after the move (CECP v2).
                let queued = self.turn.lock().is_ok_and(|mut t| {
                    if t.thinking {
                        t.pongs.push(rest.to_string());
                    }
                    t.thinking
                });
                if !queued {
                    self.say(&format!("pong {rest}"));
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "?" => self.session.stop_search(),
            "result" => {
                self.abandon();
                self.force = true;
            }
            "analyze" => {
                self.analyzing = true;
                self.force = true;
                self.restart_analysis();
            }
            "exit" => {
                self.analyzing = false;
                self.session.stop_search();
            }
            "memory" => match rest.parse::<usize>() {
                Ok(mb) => self.session.set_hash(mb),
                Err(_) => self.error("bad memory", line),
            },
            "cores" => match rest.parse::<usize>() {
                // UCI's Threads maximum; a larger number would start that many threads at the next search.
                Ok(n) => self.session.options.threads = n.clamp(1, 256),
                Err(_) => self.error("bad cores", line),
            },
            "option" => self.option(rest),
            "egtpath" => {
                // `egtpath syzygy DIR` or `egtpath mysl DIR` (our own tables)
                let (kind, path) = rest.split_once(' ').map_or((rest, ""), |(k, p)| (k, p.trim()));
                let result = match kind {
                    "syzygy" => self.session.set_syzygy_path(path),
                    "mysl" => self.session.set_tablebase_path(path),
                    _ => Err(format!("unknown tablebase kind '{kind}' (syzygy, mysl)")),
                };
                match result {
                    Ok(note) => self.say(&format!("# {note}")),
                    Err(e) => self.error(&e, line),
                }
            }
            "quit" => {
                self.session.stop_search();
                return Flow::Quit;
            }
            _ => {
                // Without usermove=1 some GUIs send bare moves.
                if self.session.game.legal_moves().iter().any(|m| m == command)
                    || self.session.game.castling_to_uci(command).is_some()
                {
                    self.user_move(command);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        Flow::Continue
    }

    /// `option NAME[=VALUE]` for the options announced with `feature option`.
    fn option(&mut self, rest: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let number = value.parse::<i64>().ok();
        match (name, number) {
            ("Clear Hash", _) => self.session.clear_hash(),
            ("OwnBook", Some(n)) => self.session.options.own_book = n != 0,
            ("BookDepth", Some(n)) => self.session.options.book_depth = n.clamp(0, 1000) as usize,
            ("BookVariety", Some(n)) => self.session.options.book_variety = n.clamp(0, 100) as u32,
            ("BookFile", _) => {
                if let Err(e) = self.session.set_book_file(value) {
                    self.error(&e, rest);
                }
            }
            ("EvalFile", _) => match self.session.set_eval_file(value) {
                Ok(note) => self.say(&format!("# {note}")),
                Err(e) => self.error(&format!("{e}; keeping {}", self.session.options.eval_file), rest),
            },
            ("Use NNUE", Some(n)) => self.session.options.use_nnue = n != 0,
            ("UCI_LimitStrength", Some(n)) => self.session.options.limit_strength = n != 0,
            ("UCI_LimitStrength", None) => self.error("UCI_LimitStrength: expected 0 or 1", rest),
            ("UCI_Elo", Some(n)) => {
                self.session.options.elo = n.clamp(i64::from(skill::MIN_ELO), i64::from(skill::MAX_ELO)) as u32
            }
            ("UCI_Elo", None) => {
                self.error(&format!("UCI_Elo: expected a number from {} to {}", skill::MIN_ELO, skill::MAX_ELO), rest)
            }
            _ => self.error("unknown option", rest),
        }
    }

    fn user_move(&mut self, text: &str) {
        self.session.stop_search();
        self.sync();
        // xboard sends castling in Chess960 as `O-O` / `O-O-O` (and takes ours as king-takes-rook).
        let castling = self.session.game.castling_to_uci(text);
        let text = castling.as_deref().unwrap_or(text);
        if !self.session.game.legal_moves().iter().any(|m| m == text) {
            self.say(&format!("Illegal move: {text}"));
            return;
        }
        self.session.game.moves.push(text.to_string());
        self.announce_result();
        if self.analyzing {
            self.restart_analysis();
        } else if !self.force && self.session.game.white_to_move() == self.engine_white {
            self.think();
        }
    }

    fn restart_analysis(&mut self) {
        if self.analyzing {
            self.session.stop_search();
            let limits = Limits { infinite: true, ..Limits::default() };
            let reporter = Arc::new(XboardReporter { out: self.out.clone(), post: true, turn: None, game: None });
            self.session.go(limits, reporter);
        }
    }

    fn think(&mut self) {
        // A search still running would end (and clear `thinking`) inside `go`: end it first.
        self.session.stop_search();
        self.sync();
        if self.session.game.result().is_some() {
            self.announce_result();
            return;
        }
        let mut limits = Limits { depth: self.sd, ..Limits::default() };
        if let Some(st) = self.st {
            limits.movetime = Some(st);
        } else if let Some(cs) = self.time_cs {
            let time = Duration::from_millis(cs * 10);
            let (mps, inc) = match self.level {
                Some((mps, _, inc)) => (mps, inc),
                None => (0, Duration::ZERO),
            };
            let movestogo = if mps > 0 {
                let played = (self.session.game.moves.len() / 2) as u32;
                Some(mps - played % mps)
            } else {
                None
            };
            limits.clock = Some((time, inc, movestogo));
        } else if self.sd.is_none() {
            limits.movetime = Some(Duration::from_secs(5));
        }
        if let Ok(mut t) = self.turn.lock() {
            t.thinking = true;
            t.discard = false;
        }
        let reporter = Arc::new(XboardReporter {
            out: self.out.clone(),
            post: self.post,
            turn: Some(self.turn.clone()),
            game: Some(self.session.game.clone()),
        });
        self.session.go(limits, reporter);
    }

    /// Waits for the engine's move (tests).
    pub fn wait(&mut self) {
        self.session.wait();
        self.sync();
    }
}

/// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds.
fn parse_level(text: &str) -> Option<(u32, Duration, Duration)> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() != 3 {
        return None;
    }
    let mps = parts[0].parse().ok()?;
    let base = match parts[1].split_once(':') {
        Some((m, s)) => Duration::from_secs(m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?),
        None => Duration::from_secs_f64(parts[1].parse::<f64>().ok()? * 60.0),
    };
    let inc = Duration::from_secs_f64(parts[2].parse::<f64>().ok()?);
    Some((mps, base, inc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xboard() -> Xboard {
        Xboard::new(Arc::new(|_: &str| {}))
    }

    /// Found while writing `scripts/protocol-stress.py` (issue 24 item 5): the search may end and print its
    /// move between the `sync` at the top of `handle` and `abandon` (`force` sent just as the engine
    /// moves). `abandon` then cleared the printed move: the GUI had it, the engine's game did not, and the
    /// GUI's next move was refused as illegal. This is the state that race leaves.
    #[test]
    fn a_move_printed_just_before_force_stays_in_the_game() {
        let mut x = xboard();
        for line in ["new", "force", "usermove e2e4"] {
            x.handle(line);
        }
        if let Ok(mut t) = x.turn.lock() {
            t.played.push("e7e5".to_string());
            t.thinking = false;
        }
        x.abandon();
        x.force = true;
        assert_eq!(x.session.game.moves, ["e2e4", "e7e5"]);
        // The GUI's next move (White's) is legal for the engine.
        x.handle("usermove g1f3");
        assert_eq!(x.session.game.moves, ["e2e4", "e7e5", "g1f3"]);
    }

    /// `new`, `variant` and `setboard` replace the game whatever the search printed.
    #[test]
    fn new_replaces_the_game_after_a_printed_move() {
        let mut x = xboard();
        for line in ["new", "force", "usermove e2e4"] {
            x.handle(line);
        }
        if let Ok(mut t) = x.turn.lock() {
            t.played.push("e7e5".to_string());
        }
        x.handle("new");
        assert!(x.session.game.moves.is_empty());
        x.handle("usermove d2d4");
        assert_eq!(x.session.game.moves, ["d2d4"]);
    }
}
