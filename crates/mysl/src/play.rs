//! `mysl play`: a game in the terminal between humans and/or the engine, any variant, with clocks,
//! undo, flip, hints, dice rolls, a result line and PGN export.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use mysl_core::{
    dispatch_variant, san, uci, Color, File, Move, Position, Rank, Role, Rules, Square, Variant, VariantState,
};
use mysl_engine::{Limits, Searcher, TranspositionTable};

use crate::CliError;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Variant (chess, antichess, 3check, extinction, berolina, cylinder, dice, knightrelay, recycle, …).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Who plays White: human or engine.
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black: human or engine.
    #[arg(long, default_value = "engine")]
    black: String,
    /// Time control: minutes+increment seconds (e.g. 5+3), or `none`.
    #[arg(long, default_value = "none")]
    tc: String,
    /// Engine thinking time per move when there is no clock, in seconds.
    #[arg(long, default_value_t = 2.0)]
    movetime: f64,
    /// Start position (FEN); default: the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Save the game as PGN to this file at the end.
    #[arg(long)]
    pgn: Option<String>,
    /// Plain ASCII pieces instead of Unicode symbols.
    #[arg(long)]
    ascii: bool,
    /// Opening book for the engine: `<default>` (built in), a Polyglot `.bin` or mysl `.mbk` file.
    #[arg(long, default_value = "<default>")]
    book: String,
    /// The engine plays without a book.
    #[arg(long)]
    no_book: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Player {
    Human,
    Engine,
}

fn player(text: &str) -> Result<Player, CliError> {
    match text {
        "human" | "h" => Ok(Player::Human),
        "engine" | "e" | "computer" | "mysl" => Ok(Player::Engine),
        other => Err(CliError::Input(format!("player must be 'human' or 'engine', found '{other}'"))),
    }
}

fn parse_tc(text: &str) -> Result<Option<(Duration, Duration)>, CliError> {
    if text == "none" {
        return Ok(None);
    }
    let bad = || CliError::Input(format!("--tc: expected MINUTES+SECONDS such as 5+3, found '{text}'"));
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base: f64 = base.parse().map_err(|_| bad())?;
    let inc: f64 = inc.parse().map_err(|_| bad())?;
    if base <= 0.0 || inc < 0.0 {
        return Err(bad());
    }
    Ok(Some((Duration::from_secs_f64(base * 60.0), Duration::from_secs_f64(inc))))
}

pub fn run(args: PlayArgs) -> Result<std::process::ExitCode, CliError> {
    let variant = Variant::from_name(&args.variant)
        .ok_or_else(|| CliError::Input(format!("unknown variant '{}'", args.variant)))?;
    let players = [player(&args.white)?, player(&args.black)?];
    let tc = parse_tc(&args.tc)?;
    dispatch_variant!(variant, R => play::<R>(&args, players, tc))
}

struct Game<R: Rules> {
    start: Position<R>,
    pos: Position<R>,
    moves: Vec<Move>,
    sans: Vec<String>,
    /// Dice chess: the roll each move was played under (`None` in the other variants).
    rolls: Vec<Option<Role>>,
}

impl<R: Rules> Game<R> {
    fn new(start: Position<R>) -> Game<R> {
        Game { pos: start.clone(), start, moves: Vec::new(), sans: Vec::new(), rolls: Vec::new() }
    }

    /// Plays `mv` and returns its SAN.
    fn play(&mut self, mv: Move) -> &str {
        self.sans.push(san::move_to_san(&self.pos, mv));
        self.rolls.push(self.pos.state().roll());
        self.moves.push(mv);
        self.pos.play_unchecked(mv);
        self.sans.last().map_or("", String::as_str)
    }

    /// Takes back `n` moves (false if there are fewer). In dice chess the position gets back the roll
    /// the first taken-back move was played under: an undo neither frees the piece type nor re-rolls.
    fn undo(&mut self, n: usize) -> bool {
        if n == 0 || self.moves.len() < n {
            return false;
        }
        let mut roll = None;
        for _ in 0..n {
            self.moves.pop();
            self.sans.pop();
            roll = self.rolls.pop().flatten();
        }
        self.pos = replay(&self.start, &self.moves);
        if matches!(R::VARIANT, Variant::Dice) {
            self.pos.set_dice_roll(roll);
        }
        true
    }
}

/// A move typed by the user (SAN or UCI), if legal here (in dice chess: of the rolled piece type).
fn parse_human_move<R: Rules>(pos: &Position<R>, text: &str) -> Option<Move> {
    san::parse_san(pos, text).ok().or_else(|| uci::parse_uci_move(pos, text).ok()).filter(|&m| pos.is_legal(m))
}

fn glyph(piece: mysl_core::Piece, ascii: bool) -> char {
    if ascii {
        return piece.char();
    }
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

fn draw_board<R: Rules>(pos: &Position<R>, flipped: bool, ascii: bool, last: Option<Move>) -> String {
    let mut s = String::new();
    let ranks: Vec<Rank> = if flipped { Rank::ALL.to_vec() } else { Rank::ALL.iter().rev().copied().collect() };
    let files: Vec<File> = if flipped { File::ALL.iter().rev().copied().collect() } else { File::ALL.to_vec() };
    for rank in &ranks {
        s.push_str(&format!(" {} ", rank.char()));
        for file in &files {
            let sq = Square::from_coords(*file, *rank);
            let marked = last.is_some_and(|m| m.to() == sq || (m.drop_role().is_none() && m.from() == sq));
            let c = pos
                .board()
                .piece_at(sq)
                .map_or(if (sq.file() as u8 + sq.rank() as u8).is_multiple_of(2) { '·' } else { ' ' }, |p| {
                    glyph(p, ascii)
                });
            let c = if ascii && c == '·' { '.' } else { c };
            s.push_str(&if marked { format!("[{c}]") } else { format!(" {c} ") });
        }
        s.push('\n');
    }
    s.push_str("   ");
    for file in &files {
        s.push_str(&format!(" {} ", file.char()));
    }
    s.push('\n');
    let pockets = pos.state().pockets();
    if pockets.iter().flatten().any(|&n| n > 0) {
        for color in Color::ALL {
            let hand: String = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
                .iter()
                .flat_map(|&r| {
                    std::iter::repeat_n(
                        glyph(mysl_core::Piece::new(color, r), ascii),
                        pockets[color as usize][r as usize] as usize,
                    )
                })
                .collect();
            s.push_str(&format!("   {color} in hand: {hand}\n"));
        }
    }
    if matches!(R::VARIANT, Variant::ThreeCheck) {
        let c = pos.state().remaining_checks();
        s.push_str(&format!("   checks still needed: White {}, Black {}\n", c[0], c[1]));
    }
    s
}

/// Time-seeded xorshift for dice rolls.
struct Dice(u64);
impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn roll(&mut self, faces: &[Role]) -> Option<Role> {
        self.next();
        if faces.is_empty() {
            None
        } else {
            Some(faces[((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % faces.len() as u64) as usize])
        }
    }
}

fn fmt_clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
}

fn play<R: Rules>(
    args: &PlayArgs,
    players: [Player; 2],
    tc: Option<(Duration, Duration)>,
) -> Result<std::process::ExitCode, CliError> {
    let fen = args.fen.clone().unwrap_or_else(|| mysl_core::STARTING_FEN.to_string());
    let start = Position::<R>::from_fen(&fen).map_err(|e| CliError::Input(e.to_string()))?;
    let mut game = Game::new(start);
    let mut clocks = tc.map(|(base, _)| [base, base]);
    let increment = tc.map_or(Duration::ZERO, |(_, inc)| inc);
    let tt = Arc::new(TranspositionTable::new(64));
    let book = if args.no_book {
        None
    } else if args.book == "<default>" {
        Some(mysl_book::default_book().map_err(|e| CliError::Failure(e.to_string()))?)
    } else {
        Some(mysl_book::Book::open(&args.book).map_err(|e| CliError::Input(e.to_string()))?)
    }
    .filter(|b| b.variant().unwrap_or(Variant::Chess) == R::VARIANT);
    let mut flipped = players == [Player::Engine, Player::Human];
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut dice = Dice(seed ^ (std::process::id() as u64) << 32 | 1);
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut result: Option<(String, String)> = None;
    println!(
        "mysl: {} — White: {:?}, Black: {:?}. Type a move (SAN or UCI), or: undo, flip, hint, resign, quit, help.",
        R::NAME,
        players[0],
        players[1]
    );

    'game: loop {
        if let Some(o) = game.pos.outcome_with_draw_rules() {
            let reason = match o {
                mysl_core::Outcome::Decisive { winner, reason } => {
                    format!("{} wins ({reason})", if winner.is_white() { "White" } else { "Black" })
                }
                mysl_core::Outcome::Draw { reason } => format!("draw ({reason})"),
            };
            result = Some((o.result_str().to_string(), reason));
            break;
        }
        let turn = game.pos.turn();
        // Dice chess: roll a face that has a legal move (a position back from an undo keeps its roll).
        if matches!(R::VARIANT, Variant::Dice) && game.pos.state().roll().is_none() {
            let faces = game.pos.dice_faces_with_moves();
            let roll = dice.roll(&faces);
            game.pos.set_dice_roll(roll);
        }
        print!("\n{}", draw_board(&game.pos, flipped, args.ascii, game.moves.last().copied()));
        if let Some(c) = &clocks {
            println!("   clocks: White {}  Black {}", fmt_clock(c[0]), fmt_clock(c[1]));
        }
        if let Some(role) = game.pos.state().roll() {
            println!("   die: {} ({})", mysl_core::rules::role_die_face(role), format!("{role:?}").to_lowercase());
        }
        let side = if turn.is_white() { "White" } else { "Black" };
        let started = Instant::now();
        let mv = match players[turn as usize] {
            Player::Engine => {
                let book_moves = book.as_ref().map(|b| b.probe(&game.pos)).unwrap_or_default();
                let random = (dice.next() >> 11) as f64 / (1u64 << 53) as f64;
                if let Some(m) = mysl_book::choose_move(&book_moves, 50, random) {
                    println!("{side} (engine) plays from its book.");
                    m
                } else {
                    println!("{side} (engine) is thinking...");
                    let limits = engine_limits(clocks.as_ref().map(|c| c[turn as usize]), increment, args.movetime);
                    let mut searcher = Searcher::<R>::new(tt.clone(), Arc::new(AtomicBool::new(false)));
                    let r = searcher.search(&game.pos, &limits, |_| {});
                    match r.best {
                        Some(m) => m,
                        None => break,
                    }
                }
            }
            Player::Human => {
                let mut chosen = None;
                while chosen.is_none() {
                    print!("{side} to move> ");
                    let _ = std::io::stdout().flush();
                    let Some(Ok(line)) = input.next() else {
                        println!("\nend of input: game abandoned");
                        return finish(&game, None, args);
                    };
                    let line = line.trim().to_string();
                    match line.as_str() {
                        "" => {}
                        "quit" | "exit" => return finish(&game, None, args),
                        "resign" => {
                            let winner = if turn.is_white() { "0-1" } else { "1-0" };
                            result = Some((winner.to_string(), format!("{side} resigns")));
                            break;
                        }
                        "flip" => {
                            flipped = !flipped;
                            print!("{}", draw_board(&game.pos, flipped, args.ascii, game.moves.last().copied()));
                        }
                        "help" => println!("moves: SAN (Nf3, exd5, O-O, e8=Q, N@e4) or UCI (g1f3); commands: undo, flip, hint, resign, quit"),
                        "hint" => {
                            let limits = Limits { movetime: Some(Duration::from_secs(1)), multipv: 1, ..Limits::default() };
                            let mut searcher = Searcher::<R>::new(tt.clone(), Arc::new(AtomicBool::new(false)));
                            match searcher.search(&game.pos, &limits, |_| {}).best {
                                Some(m) => println!("hint: {}", san::move_to_san(&game.pos, m)),
                                None => println!("no legal move"),
                            }
                        }
                        "undo" => {
                            // Take back to the last position where a human was to move.
                            let n = if players[!turn as usize] == Player::Engine { 2 } else { 1 };
                            if game.undo(n) {
                                // Start the turn over: side to move, board, clocks and die as they are now.
                                continue 'game;
                            } else {
                                println!("nothing to undo");
                            }
                        }
                        text => match parse_human_move(&game.pos, text) {
                            Some(m) => chosen = Some(m),
                            None => println!("'{text}' is not a legal move here (type help)"),
                        },
                    }
                }
                if result.is_some() {
                    break;
                }
                match chosen {
                    Some(m) => m,
                    None => break,
                }
            }
        };
        if let Some(c) = clocks.as_mut() {
            let used = started.elapsed();
            if used > c[turn as usize] {
                result =
                    Some((if turn.is_white() { "0-1" } else { "1-0" }.to_string(), format!("{side} lost on time")));
                break;
            }
            c[turn as usize] = c[turn as usize] - used + increment;
        }
        println!("{side} plays {}", game.play(mv));
    }
    if let Some((r, reason)) = &result {
        print!("\n{}", draw_board(&game.pos, flipped, args.ascii, game.moves.last().copied()));
        println!("Result: {r} ({reason})");
    }
    finish(&game, result, args)
}

fn replay<R: Rules>(start: &Position<R>, moves: &[Move]) -> Position<R> {
    let mut p = start.clone();
    for &m in moves {
        p.play_unchecked(m);
    }
    p
}

fn engine_limits(clock: Option<Duration>, inc: Duration, movetime: f64) -> Limits {
    match clock {
        Some(t) => Limits {
            clock: Some((t, inc, None)),
            move_overhead: Duration::from_millis(50),
            multipv: 1,
            ..Limits::default()
        },
        None => Limits { movetime: Some(Duration::from_secs_f64(movetime.max(0.01))), multipv: 1, ..Limits::default() },
    }
}

/// The game as PGN (shared with the web UI and `mysl match`; it lives in mysl-book).
pub use mysl_book::pgn::write_pgn as pgn;

fn finish<R: Rules>(
    game: &Game<R>,
    result: Option<(String, String)>,
    args: &PlayArgs,
) -> Result<std::process::ExitCode, CliError> {
    if let Some(path) = &args.pgn {
        let r = result.as_ref().map_or("*", |(r, _)| r.as_str());
        let text = pgn(&game.start, &game.sans, r, &args.white, &args.black);
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| CliError::Failure(format!("{path}: {e}")))?;
        println!("game saved to {path}");
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::Dice;

    #[test]
    fn dice_undo_restores_the_roll() {
        // White rolled a 2 (knight): only knight moves.
        let start =
            Position::<Dice>::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 roll=2").expect("FEN");
        let mut game = Game::new(start);
        assert!(parse_human_move(&game.pos, "e4").is_none(), "a pawn move on a knight roll");
        let nf3 = parse_human_move(&game.pos, "Nf3").expect("a knight move on a knight roll");
        game.play(nf3);
        // Black rolls a 1 (pawn) and answers.
        game.pos.set_dice_roll(Some(Role::Pawn));
        let e5 = parse_human_move(&game.pos, "e5").expect("a pawn move");
        game.play(e5);
        assert!(game.pos.state().roll().is_none(), "White has not rolled yet");
        // Undo both moves: White is back on the knight roll, not free to move anything.
        assert!(game.undo(2));
        assert_eq!(game.pos.state().roll(), Some(Role::Knight));
        assert!(game.moves.is_empty() && game.sans.is_empty() && game.rolls.is_empty());
        for text in ["e4", "e2e4", "d4", "a3"] {
            assert!(parse_human_move(&game.pos, text).is_none(), "{text} after undo on a knight roll");
        }
        assert!(parse_human_move(&game.pos, "Nc3").is_some());
        assert!(parse_human_move(&game.pos, "g1f3").is_some());
        // Undo one move: Black's pawn roll comes back.
        game.play(nf3);
        game.pos.set_dice_roll(Some(Role::Pawn));
        game.play(e5);
        assert!(game.undo(1));
        assert_eq!(game.pos.state().roll(), Some(Role::Pawn));
        assert!(parse_human_move(&game.pos, "Nc6").is_none());
        assert!(parse_human_move(&game.pos, "d5").is_some());
        assert!(!game.undo(2), "only one move left");
    }

    #[test]
    fn undo_outside_dice_leaves_no_roll() {
        let mut game = Game::new(mysl_core::Chess::startpos());
        let e4 = parse_human_move(&game.pos, "e4").expect("e4");
        game.play(e4);
        assert!(game.undo(1));
        assert_eq!(game.pos.fen(), mysl_core::Chess::startpos().fen());
        assert!(game.pos.state().roll().is_none());
        assert!(!game.undo(1));
    }
}
