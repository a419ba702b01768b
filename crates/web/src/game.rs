//! The game model behind the web UI: one game between humans and/or the engine, any variant.
//!
//! A game is stored without its rules type (start FEN, moves as UCI text, the die rolled before each
//! move); the typed [`Position`] is rebuilt by replaying when a request needs it. Games are short, so
//! the replay costs microseconds and the model needs no generic storage.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mysl_core::{dispatch_variant, san, uci, Color, Move, Outcome, Position, Role, Rules, Variant, VariantState};
use serde::Serialize;
use serde_json::{json, Value};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human,
    Engine,
}

impl Player {
    pub fn parse(text: &str) -> Result<Player, String> {
        match text {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine),
            other => Err(format!("player must be 'human' or 'engine', found '{other}'")),
        }
    }
}

/// A chess clock: time left per side, the increment, and since when the side to move has been thinking.
#[derive(Clone, Debug)]
pub struct Clock {
    pub initial: Duration,
    pub remaining: [Duration; 2],
    pub increment: Duration,
    pub since: Instant,
}

/// One move played.
#[derive(Clone, Debug)]
pub struct Ply {
    pub uci: String,
    /// The die rolled before the move (dice chess).
    pub roll: Option<Role>,
    /// The move was in the book for its position.
    pub book: bool,
    /// Time left to the mover after the move (for the move list), when there is a clock.
    pub clock_after: Option<Duration>,
    /// The evaluation of the position after the move (for the evaluation graph).
    pub eval: Option<Eval>,
}

/// An evaluation for the graph: engine units (centipawns, mate scores as the engine gives them) from
/// White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: i32,
    /// Reported by the engine for its own move (else a quick search after the game).
    pub engine: bool,
    /// Depth of the search.
    pub depth: i32,
}

impl Eval {
    /// `{ply, cp, mate, source, depth}` for the page.
    pub fn json(&self, ply: usize) -> Value {
        let mate = mysl_engine::score::mate_in(self.score);
        json!({
            "ply": ply, "score": self.score, "cp": if mate.is_none() { Some(self.score) } else { None }, "mate": mate,
            "source": if self.engine { "engine" } else { "analysis" }, "depth": self.depth,
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// A sentence such as "White wins by checkmate".
    pub reason: String,
}

/// One game.
#[derive(Debug)]
pub struct Game {
    pub id: u64,
    pub variant: Variant,
    pub start_fen: String,
    pub moves: Vec<Ply>,
    /// The die rolled for the side to move (dice chess).
    pub roll: Option<Role>,
    pub players: [Player; 2],
    /// Engine level 1–8.
    pub level: u8,
    pub clock: Option<Clock>,
    pub result: Option<GameEnd>,
    /// Bumped at every change, so an engine move computed for an older version is thrown away.
    pub version: u64,
    /// Set while the engine thinks for this game; storing `true` stops it.
    pub engine_stop: Option<Arc<AtomicBool>>,
    /// The last finished "Analyse the game" of this game (for the PGN export); it applies to the moves
    /// it was made for, so a takeback and other moves leave the rest unannotated.
    pub analysis: Option<Arc<StoredAnalysis>>,
}

/// A game analysis kept with its game.
#[derive(Clone, Debug)]
pub struct StoredAnalysis {
    pub plies: Vec<AnalysedPly>,
    pub stats: [mysl_engine::analysis::PlayerStats; 2],
    /// Nodes searched per position.
    pub nodes: u64,
}

/// One analysed move.
#[derive(Clone, Debug)]
pub struct AnalysedPly {
    /// The move (UCI), to check that the game still has it.
    pub uci: String,
    /// The evaluation after the move, White's side (engine units).
    pub white_eval: i32,
    pub judgement: mysl_engine::analysis::Judgement,
    /// The search's best move instead (SAN), for a move that was not good.
    pub best_san: Option<String>,
    /// The better line as a PGN variation, for mistakes and blunders.
    pub variation: Option<String>,
}

fn color_name(c: Color) -> &'static str {
    if c.is_white() {
        "White"
    } else {
        "Black"
    }
}

/// "White wins by checkmate", "Draw by stalemate", "Black wins (variant rule: ...)".
pub fn describe_outcome<R: Rules>(o: Outcome) -> GameEnd {
    let reason = match o {
        Outcome::Decisive { winner, reason } => {
            let why = match reason {
                mysl_core::EndReason::VariantRule => format!("{} rule", variant_title(R::VARIANT)),
                other => other.to_string(),
            };
            format!("{} wins by {why}", color_name(winner))
        }
        Outcome::Draw { reason } => format!("Draw by {reason}"),
    };
    GameEnd { result: o.result_str().to_string(), reason }
}

/// The variant's name for people.
pub fn variant_title(v: Variant) -> &'static str {
    match v {
        Variant::Chess => "Chess",
        Variant::Antichess => "Antichess",
        Variant::AntichessNoEp => "Antichess (no e.p.)",
        Variant::ThreeCheck => "Three-check",
        Variant::Extinction => "Extinction",
        Variant::Berolina => "Berolina",
        Variant::Cylinder => "Cylinder",
        Variant::Dice => "Dice",
        Variant::KnightRelay => "Knight relay",
        Variant::Recycle => "Recycle",
    }
}

/// Parses a FEN for a variant, with the error as a sentence.
pub fn parse_fen<R: Rules>(fen: &str) -> Result<Position<R>, String> {
    Position::<R>::from_fen(fen).map_err(|e| format!("bad FEN for {}: {e}", R::NAME))
}

/// Rolls a die for the side to move: a face with a legal move (dice chess re-rolls faces without one).
pub fn roll_die<R: Rules>(pos: &Position<R>, random: u64) -> Option<Role> {
    if !matches!(R::VARIANT, Variant::Dice) {
        return None;
    }
    let faces = pos.dice_faces_with_moves();
    if faces.is_empty() {
        None
    } else {
        Some(faces[(random % faces.len() as u64) as usize])
    }
}

/// A small random source (xorshift, seeded from the clock) for dice and book choices.
#[derive(Debug)]
pub struct Random(u64);

impl Random {
    /// A fixed seed (tests and the fuzzer: the same rolls and book choices every run).
    pub fn new(seed: u64) -> Random {
        Random(seed | 1)
    }
    pub fn from_time() -> Random {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
        Random(seed | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.next_u64() as f64 / (1u64 << 53) as f64
    }
}

impl Game {
    /// The position before ply `upto` (all moves when `upto` is the number of moves), with the die
    /// roll that was (or is) to be played there.
    pub fn position_at<R: Rules>(&self, upto: usize) -> Result<Position<R>, String> {
        let mut pos = parse_fen::<R>(&self.start_fen)?;
        for ply in &self.moves[..upto] {
            if matches!(R::VARIANT, Variant::Dice) {
                pos.set_dice_roll(ply.roll);
            }
            let mv = uci::parse_uci_move(&pos, &ply.uci).map_err(|e| format!("stored move {}: {e}", ply.uci))?;
            pos.play_unchecked(mv);
        }
        if matches!(R::VARIANT, Variant::Dice) {
            let roll = if upto == self.moves.len() { self.roll } else { self.moves[upto].roll };
            pos.set_dice_roll(roll);
        }
        Ok(pos)
    }

    pub fn position<R: Rules>(&self) -> Result<Position<R>, String> {
        self.position_at::<R>(self.moves.len())
    }

    /// A copy of the moves and start position (no clock, no engine), for work outside the lock.
    pub fn snapshot(&self) -> Game {
        Game {
            id: self.id,
            variant: self.variant,
            start_fen: self.start_fen.clone(),
            moves: self.moves.clone(),
            roll: self.roll,
            players: self.players,
            level: self.level,
            clock: None,
            result: self.result.clone(),
            version: self.version,
            engine_stop: None,
            analysis: self.analysis.clone(),
        }
    }

    /// Every position of the game (the start, then after each move, each with its die roll in dice
    /// chess) and the moves, for the game analysis.
    pub fn positions_and_moves<R: Rules>(&self) -> Result<(Vec<Position<R>>, Vec<Move>), String> {
        let mut pos = parse_fen::<R>(&self.start_fen)?;
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, ply) in self.moves.iter().enumerate() {
            if matches!(R::VARIANT, Variant::Dice) {
                pos.set_dice_roll(ply.roll);
            }
            let mv = uci::parse_uci_move(&pos, &ply.uci).map_err(|e| format!("stored move {}: {e}", ply.uci))?;
            if !pos.is_legal(mv) {
                return Err(format!("stored move {} at ply {} is not legal", ply.uci, i + 1));
            }
            positions.push(pos.clone());
            moves.push(mv);
            pos.play_unchecked(mv);
        }
        if matches!(R::VARIANT, Variant::Dice) {
            pos.set_dice_roll(self.roll);
        }
        positions.push(pos);
        Ok((positions, moves))
    }

    /// The stored analysis of each move while the game still has the moves it was made for.
    fn analysed_plies(&self) -> Vec<&AnalysedPly> {
        let Some(a) = &self.analysis else { return Vec::new() };
        a.plies.iter().zip(&self.moves).take_while(|(a, m)| a.uci == m.uci).map(|(a, _)| a).collect()
    }

    /// The side to move now.
    pub fn turn(&self) -> Color {
        dispatch_variant!(self.variant, R => self.position::<R>().map_or(Color::White, |p| p.turn()))
    }

    /// Time used by the side to move so far on this move.
    pub fn thinking_time(&self) -> Duration {
        self.clock.as_ref().map_or(Duration::ZERO, |c| c.since.elapsed())
    }

    /// Ends the game on time if the side to move has run out. Returns true if it did.
    pub fn check_flag(&mut self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let turn = self.turn();
        let Some(clock) = &self.clock else { return false };
        if clock.since.elapsed() >= clock.remaining[turn as usize] {
            let winner = !turn;
            self.result = Some(GameEnd {
                result: if winner.is_white() { "1-0" } else { "0-1" }.to_string(),
                reason: format!("{} wins on time", color_name(winner)),
            });
            self.version += 1;
            return true;
        }
        false
    }

    /// Plays `text` (UCI or SAN) for the side to move, checked by the rules core.
    pub fn play(&mut self, text: &str, book: Option<&mysl_book::Book>, rng: &mut Random) -> Result<(), String> {
        dispatch_variant!(self.variant, R => self.play_typed::<R>(text, book, rng))
    }

    fn play_typed<R: Rules>(
        &mut self,
        text: &str,
        book: Option<&mysl_book::Book>,
        rng: &mut Random,
    ) -> Result<(), String> {
        if let Some(end) = &self.result {
            return Err(format!("the game is over ({} {})", end.result, end.reason));
        }
        if self.check_flag() {
            return Err("the game is over: time ran out".to_string());
        }
        let mut pos = self.position::<R>()?;
        let text = text.trim();
        let mv = uci::parse_uci_move(&pos, text)
            .ok()
            .or_else(|| san::parse_san(&pos, text).ok())
            .filter(|m| pos.is_legal(*m))
            .ok_or_else(|| format!("illegal move '{text}' in {}", pos.fen()))?;
        let in_book = book_for::<R>(book).is_some_and(|b| b.probe(&pos).iter().any(|bm| bm.mv == mv));
        let turn = pos.turn();
        let mut clock_after = None;
        if let Some(clock) = self.clock.as_mut() {
            let used = clock.since.elapsed();
            let left = clock.remaining[turn as usize];
            if used >= left {
                self.check_flag();
                return Err("the game is over: time ran out".to_string());
            }
            clock.remaining[turn as usize] = left - used + clock.increment;
            clock.since = Instant::now();
            clock_after = Some(clock.remaining[turn as usize]);
        }
        let uci_text = uci::move_to_uci(&pos, mv);
        pos.play_unchecked(mv);
        self.moves.push(Ply { uci: uci_text, roll: self.roll, book: in_book, clock_after, eval: None });
        self.roll = roll_die::<R>(&pos, rng.next_u64());
        pos.set_dice_roll(self.roll);
        self.after_change::<R>(&pos);
        Ok(())
    }

    /// Records the result if the position ends the game, and bumps the version.
    pub fn after_change<R: Rules>(&mut self, pos: &Position<R>) {
        self.version += 1;
        if self.result.is_none() {
            if let Some(o) = pos.outcome_with_draw_rules() {
                self.result = Some(describe_outcome::<R>(o));
            }
        }
    }

    /// Takes back `n` plies (the result is cleared; the clocks keep their times).
    pub fn take_back(&mut self, n: usize, rng: &mut Random) -> Result<(), String> {
        if n == 0 || n > self.moves.len() {
            return Err(format!("cannot take back {n} moves: {} played", self.moves.len()));
        }
        let keep = self.moves.len() - n;
        self.roll = self.moves[keep].roll;
        self.moves.truncate(keep);
        self.result = None;
        if let Some(c) = self.clock.as_mut() {
            c.since = Instant::now();
        }
        let _ = rng;
        self.version += 1;
        Ok(())
    }

    /// The side that resigns: the human whose turn it is, else a human side, else the side to move.
    pub fn resign(&mut self, color: Option<Color>) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is already over".to_string());
        }
        let turn = self.turn();
        let loser = color.unwrap_or(if self.players[turn as usize] == Player::Human {
            turn
        } else if self.players[!turn as usize] == Player::Human {
            !turn
        } else {
            turn
        });
        let winner = !loser;
        self.result = Some(GameEnd {
            result: if winner.is_white() { "1-0" } else { "0-1" }.to_string(),
            reason: format!("{} resigns", color_name(loser)),
        });
        self.version += 1;
        Ok(())
    }

    /// The game as PGN with a `Variant` tag; `[%clk h:mm:ss]` after each move when the game has a clock,
    /// and where the game was analysed (and still has those moves) the marks `?!`/`?`/`??`, `[%eval E]`,
    /// the notes and the better lines as `mysl analyse` writes them.
    pub fn pgn(&self) -> Result<String, String> {
        use mysl_engine::analysis::{clock_command, format_eval, move_comment, note, shows_line};
        let analysed = self.analysed_plies();
        dispatch_variant!(self.variant, R => {
            let start = parse_fen::<R>(&self.start_fen)?;
            let mut pos = start.clone();
            let mut moves = Vec::with_capacity(self.moves.len());
            for (i, ply) in self.moves.iter().enumerate() {
                if matches!(R::VARIANT, Variant::Dice) {
                    pos.set_dice_roll(ply.roll);
                }
                let mv = uci::parse_uci_move(&pos, &ply.uci).map_err(|e| e.to_string())?;
                let mut m = mysl_book::pgn::PgnMove { san: san::move_to_san(&pos, mv), ..Default::default() };
                let clocks: Vec<String> = ply.clock_after.map(clock_command).into_iter().collect();
                match analysed.get(i) {
                    Some(a) => {
                        m.san.push_str(a.judgement.nag());
                        let text = note(a.judgement, a.best_san.as_deref());
                        m.comment = Some(move_comment(Some(&format_eval(a.white_eval)), &clocks, text.as_deref()));
                        m.variation = a.variation.clone().filter(|_| shows_line(a.judgement));
                    }
                    None if !clocks.is_empty() => m.comment = Some(move_comment(None, &clocks, None)),
                    None => {}
                }
                moves.push(m);
                pos.play_unchecked(mv);
            }
            let name = |p: Player| if p == Player::Human { "Human" } else { "mysl" };
            let result = self.result.as_ref().map_or("*", |r| r.result.as_str());
            let mut text = mysl_book::pgn::write_pgn_with(&start, &moves, result, name(self.players[0]), name(self.players[1]));
            let mut tags = String::new();
            if let Some(c) = &self.clock {
                tags.push_str(&format!("[TimeControl \"{}+{}\"]\n", c.initial.as_secs_f64(), c.increment.as_secs_f64()));
            }
            if let Some(a) = self.analysis.as_ref().filter(|_| !analysed.is_empty() && analysed.len() == self.moves.len()) {
                let [w, b] = a.stats;
                tags.push_str(&format!("[WhiteACPL \"{}\"]\n[BlackACPL \"{}\"]\n", w.acpl(), b.acpl()));
                tags.push_str(&format!("[WhiteAccuracy \"{:.1}\"]\n[BlackAccuracy \"{:.1}\"]\n", w.accuracy(), b.accuracy()));
                tags.push_str(&format!("[Annotator \"mysl {} web analysis, {} nodes\"]\n", env!("CARGO_PKG_VERSION"), a.nodes));
            }
            if let Some(end) = &self.result {
                text = text.replacen("[Result ", &format!("[Termination \"{}\"]\n[Result ", end.reason), 1);
            }
            if !tags.is_empty() {
                let at = text.find("\n\n").map_or(text.len(), |i| i + 1);
                text.insert_str(at, &tags);
            }
            Ok(text)
        })
    }

    /// Everything the page shows, as JSON.
    pub fn view(&self, book: Option<&mysl_book::Book>) -> Result<Value, String> {
        dispatch_variant!(self.variant, R => self.view_typed::<R>(book))
    }

    fn view_typed<R: Rules>(&self, book: Option<&mysl_book::Book>) -> Result<Value, String> {
        let mut pos = parse_fen::<R>(&self.start_fen)?;
        if matches!(R::VARIANT, Variant::Dice) {
            pos.set_dice_roll(self.moves.first().map_or(self.roll, |p| p.roll));
        }
        let start_fen = pos.fen();
        let start_pockets = pockets_json(&pos);
        let start_checks = checks_json(&pos);
        let mut keys = vec![pos.key()];
        let mut plies = Vec::with_capacity(self.moves.len());
        for (i, ply) in self.moves.iter().enumerate() {
            if matches!(R::VARIANT, Variant::Dice) {
                pos.set_dice_roll(ply.roll);
            }
            let mv = uci::parse_uci_move(&pos, &ply.uci).map_err(|e| format!("stored move {}: {e}", ply.uci))?;
            let san_text = san::move_to_san(&pos, mv);
            let (from, to) = move_squares(&ply.uci);
            let number = pos.fullmoves();
            let white = pos.turn().is_white();
            pos.play_unchecked(mv);
            if matches!(R::VARIANT, Variant::Dice) {
                let next = self.moves.get(i + 1).map_or(self.roll, |p| p.roll);
                pos.set_dice_roll(next);
            }
            keys.push(pos.key());
            plies.push(json!({
                "san": san_text, "uci": ply.uci, "from": from, "to": to, "number": number, "white": white,
                "book": ply.book, "roll": ply.roll.map(mysl_core::rules::role_die_face),
                "clock_ms": ply.clock_after.map(|d| d.as_millis() as u64),
                "eval": ply.eval.map(|e| e.json(i + 1)),
                "fen": pos.fen(), "check": pos.is_check(),
                "pockets": pockets_json(&pos), "checks": checks_json(&pos),
            }));
        }
        let legal: Vec<Value> = if self.result.is_some() { Vec::new() } else { legal_moves_json(&pos) };
        let opening = if matches!(R::VARIANT, Variant::Chess) {
            mysl_book::eco::classify(&keys).map(|o| json!({"eco": o.eco, "name": o.name}))
        } else {
            None
        };
        let turn = pos.turn();
        let clock = self.clock.as_ref().map(|c| {
            let mut left = c.remaining;
            let running = self.result.is_none();
            if running {
                left[turn as usize] = left[turn as usize].saturating_sub(c.since.elapsed());
            }
            json!({
                "white_ms": left[0].as_millis() as u64, "black_ms": left[1].as_millis() as u64,
                "increment_ms": c.increment.as_millis() as u64, "initial_ms": c.initial.as_millis() as u64,
                "running": if running { Some(if turn.is_white() { "white" } else { "black" }) } else { None },
            })
        });
        let book_moves: Vec<String> = book_for::<R>(book)
            .map(|b| b.probe(&pos).iter().map(|m| uci::move_to_uci(&pos, m.mv)).collect())
            .unwrap_or_default();
        Ok(json!({
            "id": self.id,
            "version": self.version,
            "variant": R::NAME,
            "variant_title": variant_title(R::VARIANT),
            "start_fen": start_fen,
            "start_pockets": start_pockets,
            "start_checks": start_checks,
            "fen": pos.fen(),
            "turn": if turn.is_white() { "white" } else { "black" },
            "check": pos.is_check(),
            "moves": plies,
            "legal": legal,
            "book_moves": book_moves,
            "pockets": pockets_json(&pos),
            "checks": checks_json(&pos),
            "roll": self.roll.map(mysl_core::rules::role_die_face),
            "roll_role": self.roll.map(role_name),
            "players": self.players,
            "level": self.level,
            "clock": clock,
            "result": self.result,
            "thinking": self.engine_stop.is_some(),
            "opening": opening,
        }))
    }
}

/// The book when it is for this variant.
pub fn book_for<R: Rules>(book: Option<&mysl_book::Book>) -> Option<&mysl_book::Book> {
    book.filter(|b| b.variant().unwrap_or(Variant::Chess) == R::VARIANT)
}

pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// From and to squares of a UCI move for highlighting (`None` from for a drop).
fn move_squares(uci_text: &str) -> (Option<String>, String) {
    if let Some((_, to)) = uci_text.split_once('@') {
        return (None, to.to_string());
    }
    (uci_text.get(0..2).map(str::to_string), uci_text.get(2..4).unwrap_or("").to_string())
}

fn pockets_json<R: Rules>(pos: &Position<R>) -> Value {
    if !matches!(R::VARIANT, Variant::Recycle) {
        return Value::Null;
    }
    let p = pos.state().pockets();
    let side =
        |c: usize| json!({"pawn": p[c][0], "knight": p[c][1], "bishop": p[c][2], "rook": p[c][3], "queen": p[c][4]});
    json!({"white": side(0), "black": side(1)})
}

fn checks_json<R: Rules>(pos: &Position<R>) -> Value {
    if !matches!(R::VARIANT, Variant::ThreeCheck) {
        return Value::Null;
    }
    let c = pos.state().remaining_checks();
    json!({"white": c[0], "black": c[1]})
}

/// The legal moves for the page: UCI, SAN, from/to squares, promotion or dropped role, and for a
/// castle also the rook's square (the board lets the king be dropped on it).
pub fn legal_moves_json<R: Rules>(pos: &Position<R>) -> Vec<Value> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|mv: Move| {
            let text = uci::move_to_uci(pos, mv);
            let (from, to) = move_squares(&text);
            let rook = if mv.is_castle() { Some(mv.to().to_string()) } else { None };
            json!({
                "uci": text, "san": san::move_to_san_with(pos, mv, &legal), "from": from, "to": to,
                "promotion": mv.promotion().map(role_name), "drop": mv.drop_role().map(role_name),
                "rook": rook,
            })
        })
        .collect()
}
