//! `mysl match`: engine-vs-engine games refereed by mysl's rules, in any variant. Engines speak UCI or
//! xboard (CECP v2); mysl keeps the clocks, checks every move, detects time losses, crashes and illegal
//! moves, adjudicates by agreed scores and a move limit, writes PGN and reports W/D/L with Elo ± 95%.
//! Games can run in parallel; an engine that crashed or hung is restarted for the next game.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use mysl_core::{dispatch_variant, san, uci, Move, Position, Rules, Variant};

use crate::CliError;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine (give exactly two): a command line for a UCI engine, e.g. `--engine stockfish`, or
    /// key=value tokens: `cmd=PROGRAM [arg=A]... [proto=uci|xboard] [name=N] [option.NAME=VALUE]...`
    /// (quote a value that has spaces: `option."Move Overhead"=50`).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Variant (UCI engines get it through UCI_Variant, xboard engines through `variant`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Time control: seconds+increment, e.g. 10+0.1.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Number of games (colours alternate; each opening is played twice).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Openings: a file of FEN/EPD lines, played in order (default: the variant's start position).
    #[arg(long)]
    openings: Option<String>,
    /// Random legal moves played from each opening before the engines take over (the same for both
    /// games of a pair), so that deterministic engines do not repeat one game.
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Seed for the random opening moves and the dice rolls.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (each engine should use one thread).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<String>,
    /// Declare a draw after this many full moves.
    #[arg(long, default_value_t = 250)]
    max_moves: u32,
    /// Adjudicate a win when both engines' scores agree that one side leads by this many centipawns...
    #[arg(long, default_value_t = 1000)]
    resign_score: i32,
    /// ...over this many consecutive moves of each engine (0: never adjudicate).
    #[arg(long, default_value_t = 3)]
    resign_moves: usize,
    /// Extra time an engine may overrun its clock by before it loses on time, in milliseconds.
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Proto {
    Uci,
    Xboard,
}

/// How to start and configure one engine.
#[derive(Debug, Clone)]
struct EngineSpec {
    program: String,
    args: Vec<String>,
    proto: Proto,
    name: Option<String>,
    options: Vec<(String, String)>,
}

/// Splits on whitespace, keeping double-quoted parts together (quotes removed).
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(format!("unterminated quote in '{text}'"));
    }
    if any {
        words.push(current);
    }
    Ok(words)
}

impl EngineSpec {
    fn parse(text: &str) -> Result<EngineSpec, String> {
        let words = split_words(text)?;
        if !words.iter().any(|w| w.starts_with("cmd=")) {
            let (program, args) = words.split_first().ok_or("empty engine command")?;
            return Ok(EngineSpec {
                program: program.clone(),
                args: args.to_vec(),
                proto: Proto::Uci,
                name: None,
                options: Vec::new(),
            });
        }
        let mut spec =
            EngineSpec { program: String::new(), args: Vec::new(), proto: Proto::Uci, name: None, options: Vec::new() };
        for word in words {
            let (key, value) =
                word.split_once('=').ok_or_else(|| format!("engine spec '{text}': '{word}' is not KEY=VALUE"))?;
            match key {
                "cmd" => spec.program = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "name" => spec.name = Some(value.to_string()),
                "proto" => {
                    spec.proto = match value {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" | "winboard" => Proto::Xboard,
                        _ => return Err(format!("engine spec '{text}': unknown protocol '{value}' (uci or xboard)")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => spec.options.push((option.to_string(), value.to_string())),
                    _ => return Err(format!("engine spec '{text}': unknown key '{key}'")),
                },
            }
        }
        if spec.program.is_empty() {
            return Err(format!("engine spec '{text}': cmd= is empty"));
        }
        Ok(spec)
    }
}

/// The xboard name of a variant.
fn xboard_variant(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "normal",
        other => other.name(),
    }
}

struct Engine {
    spec: EngineSpec,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// xboard: the engine wants `usermove e2e4` rather than `e2e4`.
    usermove: bool,
    /// xboard: the engine understands `setboard`.
    setboard: bool,
    /// The last score the engine reported in its current search, from its own side, in centipawns.
    score: Option<i32>,
}

/// Score from a UCI `info` line (mate scores as ±30000 less the distance).
fn uci_info_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let n: i32 = words.next()?.parse().ok()?;
            return Some(match kind {
                "cp" => n,
                "mate" if n > 0 => 30000 - n,
                "mate" => -30000 - n,
                _ => return None,
            });
        }
    }
    None
}

/// Score from an xboard thinking line `ply score time nodes pv...` (mate scores per the 100000+N rule).
fn xboard_post_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    let _ply: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = words.next()?.parse().ok()?;
    let _time: u64 = words.next()?.parse().ok()?;
    let _nodes: u64 = words.next()?.parse().ok()?;
    Some(score.clamp(-30000, 30000))
}

impl Engine {
    fn start(spec: &EngineSpec, variant: Variant) -> Result<Engine, String> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.program))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let program_name = spec.program.rsplit('/').next().unwrap_or(&spec.program).to_string();
        let mut engine = Engine {
            spec: spec.clone(),
            name: spec.name.clone().unwrap_or(program_name),
            child,
            stdin,
            lines: rx,
            usermove: false,
            setboard: false,
            score: None,
        };
        match spec.proto {
            Proto::Uci => engine.start_uci(variant)?,
            Proto::Xboard => engine.start_xboard(variant)?,
        }
        Ok(engine)
    }

    fn start_uci(&mut self, variant: Variant) -> Result<(), String> {
        self.send("uci")?;
        let id = self.wait_for(
            |l| {
                if let Some(n) = l.strip_prefix("id name ") {
                    Some(Some(n.to_string()))
                } else if l == "uciok" {
                    Some(None)
                } else {
                    None
                }
            },
            Duration::from_secs(10),
        )?;
        if id.is_some() {
            // Read on to uciok.
            self.wait_for(|l| (l == "uciok").then_some(()), Duration::from_secs(10))?;
        }
        for (option, value) in self.spec.options.clone() {
            self.send(&format!("setoption name {option} value {value}"))?;
        }
        if variant != Variant::Chess {
            self.send(&format!("setoption name UCI_Variant value {}", variant.name()))?;
        }
        self.ready()
    }

    fn start_xboard(&mut self, variant: Variant) -> Result<(), String> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut variants: Option<String> = None;
        // Features until done=1; an engine that sends none (protocol 1) gets two seconds.
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut patient = false;
        loop {
            let left =
                if patient { Duration::from_secs(30) } else { deadline.saturating_duration_since(Instant::now()) };
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{}: the engine exited", self.name)),
            };
            let Some(features) = line.trim().strip_prefix("feature ") else { continue };
            let mut done = false;
            for (key, value) in parse_features(features) {
                match key.as_str() {
                    "usermove" => self.usermove = value == "1",
                    "setboard" => self.setboard = value == "1",
                    "variants" => variants = Some(value),
                    "myname" if self.spec.name.is_none() => self.name = value,
                    "done" => {
                        patient = value == "0";
                        done = value == "1";
                    }
                    _ => {}
                }
            }
            if done {
                break;
            }
        }
        if variant != Variant::Chess {
            let wanted = xboard_variant(variant);
            if let Some(list) = &variants {
                if !list.split(',').any(|v| v.trim() == wanted) {
                    return Err(format!("{} does not play the variant '{wanted}' (it offers {list})", self.name));
                }
            }
        }
        for (option, value) in self.spec.options.clone() {
            match option.as_str() {
                "memory" | "cores" => self.send(&format!("{option} {value}"))?,
                _ => self.send(&format!("option {option}={value}"))?,
            }
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("{}: {e}", self.name))
    }

    fn ready(&mut self) -> Result<(), String> {
        match self.spec.proto {
            Proto::Uci => {
                self.send("isready")?;
                self.wait_for(|l| (l == "readyok").then_some(()), Duration::from_secs(10))
            }
            Proto::Xboard => Ok(()),
        }
    }

    /// Reads lines until `pick` returns something, or the timeout passes.
    fn wait_for<T>(&mut self, mut pick: impl FnMut(&str) -> Option<T>, timeout: Duration) -> Result<T, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(t) = pick(line.trim()) {
                        return Ok(t);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(format!("{}: no answer in time", self.name)),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{}: the engine exited", self.name)),
            }
        }
    }

    /// Prepares a new game from `fen` (xboard: played from the variant's start unless `fen` differs).
    fn new_game(&mut self, variant: Variant, fen: &str, initial: bool, tc: (Duration, Duration)) -> Result<(), String> {
        self.score = None;
        match self.spec.proto {
            Proto::Uci => {
                self.send("ucinewgame")?;
                self.ready()
            }
            Proto::Xboard => {
                self.send("new")?;
                if variant != Variant::Chess {
                    self.send(&format!("variant {}", xboard_variant(variant)))?;
                }
                self.send("force")?;
                self.send("post")?;
                self.send("easy")?;
                let base = tc.0.as_secs();
                let inc = tc.1.as_secs_f64();
                self.send(&format!("level 0 {}:{:02} {inc}", base / 60, base % 60))?;
                if !initial {
                    if !self.setboard {
                        return Err(format!("{} cannot start from a FEN (no setboard feature)", self.name));
                    }
                    self.send(&format!("setboard {fen}"))?;
                }
                Ok(())
            }
        }
    }

    /// Tells an xboard engine a move played on the board (UCI engines get whole positions instead).
    fn tell_move(&mut self, mv_text: &str) -> Result<(), String> {
        match self.spec.proto {
            Proto::Uci => Ok(()),
            Proto::Xboard => {
                self.send("force")?;
                if self.usermove {
                    self.send(&format!("usermove {mv_text}"))
                } else {
                    self.send(mv_text)
                }
            }
        }
    }

    /// Asks for a move and returns its text; `position` is the UCI position command.
    fn think(
        &mut self,
        position: &str,
        clocks: [Duration; 2],
        inc: Duration,
        side: usize,
        limit: Duration,
    ) -> Result<String, String> {
        let ms = |d: Duration| d.as_millis();
        self.score = None;
        match self.spec.proto {
            Proto::Uci => {
                self.send(position)?;
                let inc = ms(inc);
                self.send(&format!("go wtime {} btime {} winc {inc} binc {inc}", ms(clocks[0]), ms(clocks[1])))?;
                let mut score = None;
                let mv = self.wait_for(
                    |l| {
                        if l.starts_with("info") {
                            if let Some(s) = uci_info_score(l) {
                                score = Some(s);
                            }
                            None
                        } else {
                            l.strip_prefix("bestmove").map(|m| m.split_whitespace().next().unwrap_or("").to_string())
                        }
                    },
                    limit,
                )?;
                self.score = score;
                Ok(mv)
            }
            Proto::Xboard => {
                let cs = |d: Duration| d.as_millis() / 10;
                self.send(&format!("time {}", cs(clocks[side])))?;
                self.send(&format!("otim {}", cs(clocks[1 - side])))?;
                self.send("go")?;
                let mut score = None;
                let mv = self.wait_for(
                    |l| {
                        if let Some(m) = l.strip_prefix("move ") {
                            Some(Ok(m.trim().to_string()))
                        } else if l.starts_with("Illegal move") || l.starts_with("Error") {
                            Some(Err(l.to_string()))
                        } else {
                            if let Some(s) = xboard_post_score(l) {
                                score = Some(s);
                            }
                            None
                        }
                    },
                    limit,
                )?;
                self.score = score;
                mv.map_err(|e| format!("{} rejected a move: {e}", self.name))
            }
        }
    }
}

/// `key=value` pairs of an xboard feature line; values may be quoted.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (quoted[..end].to_string(), &quoted[end + 1..]),
                None => (quoted.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, value));
        rest = next.trim_start();
    }
    out
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_tc(text: &str) -> Result<(Duration, Duration), CliError> {
    let bad = || CliError::Input(format!("--tc: expected SECONDS+INCREMENT such as 10+0.1, found '{text}'"));
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base: f64 = base.parse().map_err(|_| bad())?;
    let inc: f64 = inc.parse().map_err(|_| bad())?;
    if !(base > 0.0 && base.is_finite() && inc >= 0.0 && inc.is_finite()) {
        return Err(bad());
    }
    Ok((Duration::from_secs_f64(base), Duration::from_secs_f64(inc)))
}

/// Why a game ended against an engine's will, for the reliability counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Crash,
    Illegal,
    Time,
}

/// One finished game: result from White's side, the reason, and a fault of one engine (0: white).
struct GameRecord {
    result: &'static str,
    reason: String,
    pgn: String,
    fault: Option<(usize, Fault)>,
}

struct GameSettings {
    variant: Variant,
    tc: (Duration, Duration),
    max_moves: u32,
    margin: Duration,
    resign_score: i32,
    resign_moves: usize,
}

/// A small deterministic generator (xorshift64*) for opening moves and dice.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize) % n.max(1)
    }
}

/// Plays `plies` random legal moves from `start` (stopping before a finished game); the same seed gives
/// the same moves.
fn random_opening<R: Rules>(start: &Position<R>, plies: u32, rng: &mut Rng) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if R::VARIANT == Variant::Dice {
            let faces = pos.dice_faces_with_moves();
            if faces.is_empty() {
                break;
            }
            pos.set_dice_roll(Some(faces[rng.below(faces.len())]));
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv =
            legal.get(rng.below(legal.len())).unwrap_or(Move::normal(mysl_core::Square::A1, mysl_core::Square::B1));
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if next.outcome_with_draw_rules().is_some() || next.legal_moves().is_empty() {
            break;
        }
        moves.push(mv);
        pos = next;
        if R::VARIANT == Variant::Dice {
            pos.set_dice_roll(None);
        }
    }
    moves
}

/// Plays one game. `engines[0]` has White. The dice rolls come from `rng`.
fn play_game<R: Rules>(
    engines: [&mut Engine; 2],
    fen: Option<&str>,
    opening_plies: u32,
    opening_seed: u64,
    settings: &GameSettings,
    rng: &mut Rng,
) -> Result<GameRecord, CliError> {
    let [white, black] = engines;
    let mut engines = [white, black];
    let start = match fen {
        Some(fen) => Position::<R>::from_fen(fen).map_err(|e| CliError::Input(format!("opening '{fen}': {e}")))?,
        None => Position::<R>::startpos(),
    };
    let initial = start.fen() == Position::<R>::startpos().fen();
    let tc = settings.tc;
    let mut clocks = [tc.0, tc.0];
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    let mut history: [VecDeque<i32>; 2] = [VecDeque::new(), VecDeque::new()];
    let loser_of = |side: usize| if side == 0 { "0-1" } else { "1-0" };
    for (side, e) in engines.iter_mut().enumerate() {
        if let Err(e) = e.new_game(R::VARIANT, &start.fen(), initial, tc) {
            return Ok(GameRecord {
                result: loser_of(side),
                reason: e,
                pgn: String::new(),
                fault: Some((side, Fault::Crash)),
            });
        }
    }
    // The opening's random moves, told to both engines.
    let opening = random_opening(&start, opening_plies, &mut Rng::new(opening_seed));
    let mut fault = None;
    let mut opening_error = None;
    for mv in opening {
        if R::VARIANT == Variant::Dice {
            // Dice: the roll that allowed this move is not recorded; the position after it has none.
            pos.set_dice_roll(None);
        }
        let text = uci::move_to_uci(&pos, mv);
        sans.push(san::move_to_san(&pos, mv));
        for (side, e) in engines.iter_mut().enumerate() {
            if let Err(err) = e.tell_move(&text) {
                opening_error.get_or_insert((side, err));
            }
        }
        moves.push(text);
        pos.play_unchecked(mv);
    }
    let (result, reason) = if let Some((side, err)) = opening_error {
        fault = Some((side, Fault::Crash));
        (loser_of(side), err)
    } else {
        loop {
            if let Some(o) = pos.outcome_with_draw_rules() {
                let reason = match o {
                    mysl_core::Outcome::Decisive { reason, .. } | mysl_core::Outcome::Draw { reason } => {
                        reason.to_string()
                    }
                };
                break (o.result_str(), reason);
            }
            if pos.fullmoves() > settings.max_moves {
                break ("1/2-1/2", format!("draw after {} moves", settings.max_moves));
            }
            let side = pos.turn() as usize;
            if R::VARIANT == Variant::Dice {
                let faces = pos.dice_faces_with_moves();
                pos.set_dice_roll(faces.get(rng.below(faces.len())).copied());
            }
            let position = if R::VARIANT == Variant::Dice {
                // The roll is part of the position: send it as a FEN (mysl's `roll=N` field).
                format!("position fen {}", pos.fen())
            } else if moves.is_empty() {
                format!("position fen {}", start.fen())
            } else {
                format!("position fen {} moves {}", start.fen(), moves.join(" "))
            };
            let limit = clocks[side] + settings.margin + Duration::from_secs(1);
            let t0 = Instant::now();
            let answer = engines[side].think(&position, clocks, tc.1, side, limit);
            let used = t0.elapsed();
            let name = engines[side].name.clone();
            let text = match answer {
                Ok(t) => t,
                Err(e) => {
                    let kind = if used >= clocks[side] + settings.margin { Fault::Time } else { Fault::Crash };
                    fault = Some((side, kind));
                    break (loser_of(side), e);
                }
            };
            if used > clocks[side] + settings.margin {
                fault = Some((side, Fault::Time));
                break (loser_of(side), format!("{name} lost on time"));
            }
            clocks[side] = clocks[side].saturating_sub(used) + tc.1;
            let parsed = uci::parse_uci_move(&pos, &text).ok().or_else(|| san::parse_san(&pos, &text).ok());
            let Some(mv) = parsed.filter(|&m| pos.is_legal(m)) else {
                fault = Some((side, Fault::Illegal));
                break (loser_of(side), format!("{name} played an illegal move '{text}'"));
            };
            let mv_text = uci::move_to_uci(&pos, mv);
            sans.push(san::move_to_san(&pos, mv));
            if let Err(e) = engines[1 - side].tell_move(&mv_text) {
                fault = Some((1 - side, Fault::Crash));
                break (loser_of(1 - side), e);
            }
            moves.push(mv_text);
            pos.play_unchecked(mv);
            // Score adjudication: both engines agree, for their last N moves each, that one side is winning.
            if settings.resign_moves > 0 {
                let white_view = engines[side].score.map(|s| if side == 0 { s } else { -s });
                let h = &mut history[side];
                match white_view {
                    Some(s) => h.push_back(s),
                    None => h.clear(),
                }
                while h.len() > settings.resign_moves {
                    h.pop_front();
                }
                let agree = |sign: i32| {
                    history.iter().all(|h| {
                        h.len() == settings.resign_moves && h.iter().all(|&s| s * sign >= settings.resign_score)
                    })
                };
                if agree(1) {
                    break ("1-0", "adjudication: both engines' scores".to_string());
                }
                if agree(-1) {
                    break ("0-1", "adjudication: both engines' scores".to_string());
                }
            }
        }
    };
    let pgn = crate::play::pgn(&start, &sans, result, &engines[0].name, &engines[1].name);
    Ok(GameRecord { result, reason, pgn, fault })
}

/// Elo difference and its 95% interval from wins, draws and losses.
pub fn elo(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let s = (w as f64 + d as f64 / 2.0) / n;
    let to_elo = |p: f64| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        -400.0 * (1.0 / p - 1.0).log10()
    };
    let var = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s.powi(2)) / n;
    let se = (var / n).sqrt();
    (to_elo(s), to_elo(s - 1.96 * se), to_elo(s + 1.96 * se))
}

/// What a worker reports for one game.
struct Finished {
    game: usize,
    a_white: bool,
    record: Result<GameRecord, CliError>,
    names: (String, String),
}

fn read_openings(path: &str) -> Result<Vec<String>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or(l).split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect();
    if lines.is_empty() {
        return Err(CliError::Input(format!("{path}: no positions")));
    }
    Ok(lines)
}

pub fn run(args: MatchArgs) -> Result<ExitCode, CliError> {
    if args.engines.len() != 2 {
        return Err(CliError::Input(format!("give exactly two --engine options (got {})", args.engines.len())));
    }
    let specs: Vec<EngineSpec> =
        args.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<_, _>>().map_err(CliError::Input)?;
    let variant = Variant::from_name(&args.variant)
        .ok_or_else(|| CliError::Input(format!("unknown variant '{}'", args.variant)))?;
    if variant == Variant::Dice && specs.iter().any(|s| s.proto == Proto::Xboard) {
        return Err(CliError::Input("dice chess needs UCI engines (the roll travels in the FEN)".into()));
    }
    let tc = parse_tc(&args.tc)?;
    let openings: Option<Vec<String>> = args.openings.as_deref().map(read_openings).transpose()?;
    if let Some(list) = &openings {
        for fen in list {
            dispatch_variant!(variant, R => {
                Position::<R>::from_fen(fen).map(|_| ())
            })
            .map_err(|e| CliError::Input(format!("opening '{fen}': {e}")))?;
        }
    }
    let settings = Arc::new(GameSettings {
        variant,
        tc,
        max_moves: args.max_moves,
        margin: Duration::from_millis(args.margin_ms),
        resign_score: args.resign_score,
        resign_moves: args.resign_moves,
    });
    let openings = Arc::new(openings);
    let next_game = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel::<Finished>();
    let concurrency = args.concurrency.clamp(1, args.games.max(1));
    // Start one pair first so that a bad engine command fails before any game.
    let first_pair = (
        Engine::start(&specs[0], variant).map_err(CliError::Failure)?,
        Engine::start(&specs[1], variant).map_err(CliError::Failure)?,
    );
    let mut pairs = vec![Some(first_pair)];
    pairs.resize_with(concurrency, || None);
    let mut workers = Vec::new();
    for pair in pairs {
        let (specs, settings, openings, next_game, tx) =
            (specs.clone(), settings.clone(), openings.clone(), next_game.clone(), tx.clone());
        let games = args.games;
        let (plies, seed) = (args.random_plies, args.seed);
        workers.push(std::thread::spawn(move || {
            let (mut a, mut b) = match pair {
                Some((ea, eb)) => (Some(ea), Some(eb)),
                None => (None, None),
            };
            loop {
                let game = next_game.fetch_add(1, Ordering::SeqCst);
                if game >= games {
                    break;
                }
                let record = (|| -> Result<(GameRecord, (String, String), bool), CliError> {
                    if a.is_none() {
                        a = Some(Engine::start(&specs[0], settings.variant).map_err(CliError::Failure)?);
                    }
                    if b.is_none() {
                        b = Some(Engine::start(&specs[1], settings.variant).map_err(CliError::Failure)?);
                    }
                    let (ea, eb) = (a.as_mut().expect("started"), b.as_mut().expect("started"));
                    if ea.name == eb.name {
                        ea.name.push_str("-1");
                        eb.name.push_str("-2");
                    }
                    let pair_index = game / 2;
                    let fen = openings.as_ref().as_ref().map(|list| list[pair_index % list.len()].as_str());
                    let opening_seed = seed ^ (pair_index as u64).wrapping_mul(0xA24B_AED4_963E_E407);
                    let mut rng = Rng::new(seed.wrapping_add(game as u64));
                    let a_white = game % 2 == 0;
                    let names = (ea.name.clone(), eb.name.clone());
                    let rec = dispatch_variant!(settings.variant, R => {
                        if a_white {
                            play_game::<R>([ea, eb], fen, plies, opening_seed, &settings, &mut rng)
                        } else {
                            play_game::<R>([eb, ea], fen, plies, opening_seed, &settings, &mut rng)
                        }
                    })?;
                    Ok((rec, names, a_white))
                })();
                let a_white = game % 2 == 0;
                let (record, names) = match record {
                    Ok((rec, names, _)) => {
                        // Restart an engine that crashed or hung, so that the next game starts clean.
                        if let Some((side, Fault::Crash | Fault::Time)) = rec.fault {
                            if (side == 0) == a_white {
                                a = None;
                            } else {
                                b = None;
                            }
                        }
                        (Ok(rec), names)
                    }
                    Err(e) => (Err(e), (String::new(), String::new())),
                };
                let failed = record.is_err();
                if tx.send(Finished { game, a_white, record, names }).is_err() || failed {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut faults = [[0u32; 3]; 2];
    let mut names = (specs[0].program.clone(), specs[1].program.clone());
    let mut error = None;
    let mut finished = 0;
    for done in rx {
        let record = match done.record {
            Ok(r) => r,
            Err(e) => {
                error.get_or_insert(e);
                continue;
            }
        };
        finished += 1;
        names = done.names.clone();
        match (record.result, done.a_white) {
            ("1-0", true) | ("0-1", false) => w += 1,
            ("1/2-1/2", _) => d += 1,
            _ => l += 1,
        }
        if let Some((side, kind)) = record.fault {
            let engine = if (side == 0) == done.a_white { 0 } else { 1 };
            faults[engine][kind as usize] += 1;
        }
        let (white, black) = if done.a_white { (&names.0, &names.1) } else { (&names.1, &names.0) };
        println!("game {}: {white} - {black} {} ({})", done.game + 1, record.result, record.reason);
        if let Some(path) = &args.pgn {
            if !record.pgn.is_empty() {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(record.pgn.as_bytes()))
                    .map_err(|e| CliError::Failure(format!("{path}: {e}")))?;
            }
        }
        if finished % 10 == 0 && finished < args.games {
            let (e, lo, hi) = elo(w, d, l);
            println!("after {finished} games: {w} - {l} - {d}, Elo {e:+.1} ({lo:+.1} to {hi:+.1})");
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if let Some(e) = error {
        return Err(e);
    }
    let (e, lo, hi) = elo(w, d, l);
    println!(
        "Score of {} vs {}: {w} - {l} - {d} [{:.3}] {} games",
        names.0,
        names.1,
        (w as f64 + d as f64 / 2.0) / (w + d + l).max(1) as f64,
        w + d + l
    );
    println!("Elo difference: {e:+.1} (95%: {lo:+.1} to {hi:+.1})");
    for (i, name) in [&names.0, &names.1].into_iter().enumerate() {
        let [crash, illegal, time] = faults[i];
        println!("{name}: {crash} crashes or hangs, {illegal} illegal moves, {time} losses on time");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let plain = EngineSpec::parse("stockfish -x").expect("plain");
        assert_eq!((plain.program.as_str(), plain.args.len(), plain.proto), ("stockfish", 1, Proto::Uci));
        let kv = EngineSpec::parse("cmd=/usr/games/fairymax proto=xboard name=FM option.\"Move Overhead\"=50 arg=-v")
            .expect("key=value");
        assert_eq!(kv.proto, Proto::Xboard);
        assert_eq!(kv.name.as_deref(), Some("FM"));
        assert_eq!(kv.options, vec![("Move Overhead".to_string(), "50".to_string())]);
        assert_eq!(kv.args, vec!["-v".to_string()]);
        assert!(EngineSpec::parse("cmd=x proto=telepathy").is_err());
        assert!(EngineSpec::parse("cmd=x bogus").is_err());
        assert!(EngineSpec::parse("cmd=\"x").is_err());
        assert!(EngineSpec::parse("").is_err());
    }

    #[test]
    fn features_and_scores() {
        let f = parse_features("myname=\"Fairy-Max 5.0b\" usermove=1 variants=\"normal,berolina\" done=1");
        assert_eq!(f[0], ("myname".to_string(), "Fairy-Max 5.0b".to_string()));
        assert_eq!(f[2].1, "normal,berolina");
        assert_eq!(f[3], ("done".to_string(), "1".to_string()));
        assert_eq!(uci_info_score("info depth 3 score cp -25 nodes 10 pv e2e4"), Some(-25));
        assert_eq!(uci_info_score("info depth 9 score mate 2 pv a1a8"), Some(29998));
        assert_eq!(uci_info_score("info string hello"), None);
        assert_eq!(xboard_post_score(" 7 -31 120 4567 e2e4 e7e5"), Some(-31));
        assert_eq!(xboard_post_score("telluser hi"), None);
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let start = mysl_core::Chess::startpos();
        let a = random_opening(&start, 8, &mut Rng::new(7));
        let b = random_opening(&start, 8, &mut Rng::new(7));
        assert_eq!(a, b);
        assert_eq!(a.len(), 8);
        let mut pos = start.clone();
        for mv in a {
            assert!(pos.is_legal(mv));
            pos.play_unchecked(mv);
        }
    }

    #[test]
    fn elo_and_its_95_percent_interval() {
        let close = |a: f64, b: f64| (a - b).abs() < 0.05;
        // 75% over 100 games: 400 log10(3) = +190.85; with no draws the per-game standard deviation is
        // sqrt(0.1875), so the score's 95% interval is 0.75 +- 1.96 * 0.0433 (cutechess: +190.8 +- 81.2).
        let (e, lo, hi) = elo(75, 0, 25);
        assert!(close(e, 190.85) && close(lo, 119.21) && close(hi, 281.52), "{e} {lo} {hi}");
        // The same score with draws instead of losses is surer: a narrower interval.
        let (e, lo, hi) = elo(50, 50, 0);
        assert!(close(e, 190.85) && close(lo, 148.02) && close(hi, 239.74), "{e} {lo} {hi}");
        // Even scores: 0, symmetric; the mirror image of a result mirrors the Elo.
        let (e, lo, hi) = elo(30, 40, 30);
        assert!(close(e, 0.0) && close(lo, -53.16) && close(hi, 53.16), "{e} {lo} {hi}");
        let (e, lo, hi) = elo(25, 0, 75);
        assert!(close(e, -190.85) && close(lo, -281.52) && close(hi, -119.21), "{e} {lo} {hi}");
        // No games: nothing known; all wins: finite (the score is clamped just below 1).
        let (e, lo, hi) = elo(0, 0, 0);
        assert!(e == 0.0 && lo == f64::NEG_INFINITY && hi == f64::INFINITY);
        let (e, _, hi) = elo(10, 0, 0);
        assert!(e.is_finite() && e > 2000.0 && hi.is_finite(), "{e} {hi}");
    }

    #[test]
    fn bad_time_controls() {
        assert!(parse_tc("10+0.1").is_ok());
        for bad in ["", "x", "0+1", "-5+0", "10+-1", "inf+0"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
