//! Reading PGN games: `.pgn`, `.pgn.gz` and `.pgn.zst` files or standard input, several at once.
//!
//! One thread decompresses and cuts the text into games (keeping each game's file, number and line);
//! worker threads parse the games with `pgn-reader` and replay them with mysl's rules; the results come
//! back in file order, so everything built from them is deterministic whatever the thread count.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use mysl_core::{CastlingSide, Color, File as BoardFile, Move, MoveList, Position, Rank, Role, Rules, Square, Variant};
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;

/// A PGN input: a path, or `-` for standard input.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
}

impl Input {
    pub fn new(name: impl Into<String>) -> Input {
        Input { name: name.into() }
    }
}

/// Counts the raw (compressed) bytes read, for progress bars.
struct CountingReader<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens an input, recognising gzip and zstd by their magic bytes (not by the file name).
pub fn open_input(input: &Input, counter: Arc<AtomicU64>) -> io::Result<Box<dyn BufRead + Send>> {
    let raw: Box<dyn Read + Send> = if input.name == "-" {
        Box::new(CountingReader { inner: io::stdin(), counter })
    } else {
        Box::new(CountingReader { inner: File::open(&input.name)?, counter })
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let magic = buffered.fill_buf()?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(1 << 16, flate2::bufread::MultiGzDecoder::new(buffered))))
    } else if magic.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Ok(Box::new(BufReader::with_capacity(1 << 16, zstd::stream::read::Decoder::with_buffer(buffered)?)))
    } else {
        Ok(Box::new(buffered))
    }
}

/// The total size of the inputs that are files (for a progress bar); `None` if one is standard input.
pub fn total_input_bytes(inputs: &[Input]) -> Option<u64> {
    inputs.iter().map(|i| if i.name == "-" { None } else { std::fs::metadata(&i.name).ok().map(|m| m.len()) }).sum()
}

/// Where a game is: its input, its number in that input (from 1) and the line its text starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLocation {
    pub input: usize,
    pub number: u64,
    pub line: u64,
}

/// (start, end, number, line) of each game in a batch's text.
type GameSpans = Vec<(usize, usize, u64, u64)>;

/// A run of consecutive games' text.
struct Batch {
    seq: u64,
    input: usize,
    data: Vec<u8>,
    /// (start, end, number, line) of each game in `data`.
    games: Vec<(usize, usize, u64, u64)>,
}

const BATCH_BYTES: usize = 1 << 18;

/// Cuts PGN text into games. A game starts at its first non-blank line and ends where a tag line
/// (`[...`) follows movetext, which is where `pgn-reader` starts a new game too; blank lines inside
/// movetext do not end a game here.
struct Splitter {
    input: usize,
    data: Vec<u8>,
    games: GameSpans,
    /// The game being read: (start offset, number, line, has movetext).
    current: Option<(usize, u64, u64, bool)>,
    number: u64,
    line: u64,
}

impl Splitter {
    fn new(input: usize) -> Splitter {
        Splitter {
            input,
            data: Vec::with_capacity(BATCH_BYTES + 4096),
            games: Vec::new(),
            current: None,
            number: 0,
            line: 0,
        }
    }

    /// Adds one line (with its newline); returns a full batch when one is ready.
    fn push_line(&mut self, line: &[u8]) -> Option<(Vec<u8>, GameSpans)> {
        self.line += 1;
        let mut text = line;
        if self.line == 1 && text.starts_with(b"\xef\xbb\xbf") {
            text = &text[3..];
        }
        let trimmed = text.trim_ascii_start();
        let blank = trimmed.is_empty();
        let is_tag = trimmed.first() == Some(&b'[');
        let mut ready = None;
        if let Some((start, number, line, has_moves)) = &mut self.current {
            if is_tag && *has_moves {
                let end = self.data.len();
                self.games.push((*start, end, *number, *line));
                self.current = None;
                if self.data.len() >= BATCH_BYTES {
                    ready = Some((std::mem::take(&mut self.data), std::mem::take(&mut self.games)));
                    self.data.reserve(BATCH_BYTES + 4096);
                }
            } else if !blank && !is_tag && !trimmed.starts_with(b"%") {
                *has_moves = true;
            }
        }
        if self.current.is_none() && !blank {
            self.number += 1;
            self.current = Some((self.data.len(), self.number, self.line, !is_tag && !trimmed.starts_with(b"%")));
        }
        if self.current.is_some() {
            self.data.extend_from_slice(text);
        }
        ready
    }

    fn finish(&mut self) -> (Vec<u8>, GameSpans) {
        if let Some((start, number, line, _)) = self.current.take() {
            self.games.push((start, self.data.len(), number, line));
        }
        (std::mem::take(&mut self.data), std::mem::take(&mut self.games))
    }
}

/// Reads every input in order and hands each game's text, with its location, to `parse` on `threads`
/// worker threads; `consume` gets the results in input order. `stop` ends the reading early.
pub fn for_each_game<T, P, C>(
    inputs: &[Input],
    threads: usize,
    counter: Arc<AtomicU64>,
    stop: &AtomicBool,
    parse: P,
    mut consume: C,
) -> Result<(), InputError>
where
    T: Send,
    P: Fn(GameLocation, &[u8]) -> T + Sync,
    C: FnMut(GameLocation, T),
{
    let threads = threads.max(1);
    let (batch_tx, batch_rx) = sync_channel::<Batch>(threads * 2);
    let batch_rx = Mutex::new(batch_rx);
    let (result_tx, result_rx) = sync_channel::<(u64, Vec<(GameLocation, T)>)>(threads * 2);
    std::thread::scope(|scope| -> Result<(), InputError> {
        let reader = scope.spawn(move || -> Result<(), InputError> {
            let mut seq = 0;
            for (index, input) in inputs.iter().enumerate() {
                let mut source = open_input(input, counter.clone()).map_err(|e| InputError {
                    input: input.name.clone(),
                    line: 0,
                    source: e,
                })?;
                let mut splitter = Splitter::new(index);
                let mut line = Vec::with_capacity(256);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    line.clear();
                    let n = source.read_until(b'\n', &mut line).map_err(|e| InputError {
                        input: input.name.clone(),
                        line: splitter.line + 1,
                        source: e,
                    })?;
                    if n == 0 {
                        break;
                    }
                    if let Some((data, games)) = splitter.push_line(&line) {
                        if batch_tx.send(Batch { seq, input: splitter.input, data, games }).is_err() {
                            return Ok(());
                        }
                        seq += 1;
                    }
                }
                let (data, games) = splitter.finish();
                if !games.is_empty() {
                    if batch_tx.send(Batch { seq, input: index, data, games }).is_err() {
                        return Ok(());
                    }
                    seq += 1;
                }
            }
            Ok(())
        });
        for _ in 0..threads {
            let result_tx = result_tx.clone();
            let batch_rx = &batch_rx;
            let parse = &parse;
            scope.spawn(move || loop {
                let batch = {
                    let Ok(rx) = batch_rx.lock() else { return };
                    match rx.recv() {
                        Ok(b) => b,
                        Err(_) => return,
                    }
                };
                let results = batch
                    .games
                    .iter()
                    .map(|&(start, end, number, line)| {
                        let loc = GameLocation { input: batch.input, number, line };
                        (loc, parse(loc, &batch.data[start..end]))
                    })
                    .collect();
                if result_tx.send((batch.seq, results)).is_err() {
                    return;
                }
            });
        }
        drop(result_tx);
        deliver_in_order(result_rx, &mut consume);
        match reader.join() {
            Ok(r) => r,
            Err(_) => Err(InputError {
                input: String::new(),
                line: 0,
                source: io::Error::other("the PGN reader thread failed"),
            }),
        }
    })
}

fn deliver_in_order<T, C: FnMut(GameLocation, T)>(rx: Receiver<(u64, Vec<(GameLocation, T)>)>, consume: &mut C) {
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (seq, results) in rx {
        pending.insert(seq, results);
        while let Some(results) = pending.remove(&next) {
            for (loc, r) in results {
                consume(loc, r);
            }
            next += 1;
        }
    }
}

/// An input could not be read (missing file, bad compressed data).
#[derive(Debug, thiserror::Error)]
#[error("{input}: {}{source}", if *.line > 0 { format!("line {}: ", .line) } else { String::new() })]
pub struct InputError {
    pub input: String,
    pub line: u64,
    #[source]
    pub source: io::Error,
}

/// The result of a game, from its `Result` tag (or the movetext's termination marker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// `*` or anything else.
    Unknown,
}

impl GameResult {
    fn from_tag(value: &[u8]) -> GameResult {
        match value {
            b"1-0" => GameResult::WhiteWins,
            b"0-1" => GameResult::BlackWins,
            b"1/2-1/2" | b"\xc2\xbd-\xc2\xbd" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }
}

/// The tags a book needs.
#[derive(Clone, Debug, Default)]
pub struct GameTags {
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    pub result: Option<GameResult>,
    pub variant: Option<String>,
    pub fen: Option<String>,
}

/// Why a game cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("illegal move {san} at ply {ply} ({})", move_number_text(*.ply, .san))]
    IllegalMove { ply: usize, san: String },
    #[error("ambiguous move {san} at ply {ply}")]
    AmbiguousMove { ply: usize, san: String },
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    #[error("bad FEN tag: {0}")]
    BadFen(String),
    #[error("unreadable game text: {0}")]
    Syntax(String),
}

fn move_number_text(ply: usize, san: &str) -> String {
    let n = ply.div_ceil(2);
    if ply % 2 == 1 {
        format!("{n}. {san}")
    } else {
        format!("{n}... {san}")
    }
}

/// What the replay of one game gives a consumer.
pub trait GameSink<R: Rules> {
    /// After the tags: `false` skips the game's moves (a filtered game).
    fn tags(&mut self, tags: &GameTags) -> bool;
    /// Each move, with the position before it; return `false` to stop reading the game.
    fn ply(&mut self, pos: &Position<R>, mv: Move, ply: usize) -> bool;
    /// A comment of the main line after `ply` moves (0: before the first), as written between the braces
    /// (see [`clock_commands`]); ignored unless a sink wants it.
    fn comment(&mut self, _ply: usize, _text: &[u8]) {}
}

/// The `[%clk ...]` commands of a comment, as written.
pub fn clock_commands(comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%clk") {
        let Some(len) = rest[start..].find(']') else { break };
        out.push(rest[start..start + len + 1].to_string());
        rest = &rest[start + len + 1..];
    }
    out
}

/// The time of a `[%clk H:MM:SS]` command (seconds may have decimals: `[%clk 0:00:09.4]`).
pub fn parse_clock(command: &str) -> Option<std::time::Duration> {
    let inner = command.trim().strip_prefix("[%clk")?.strip_suffix(']')?.trim();
    let mut parts = inner.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let s: f64 = s.parse().ok()?;
    if m >= 60 || !(0.0..60.0).contains(&s) {
        return None;
    }
    Some(std::time::Duration::from_secs(h * 3600 + m * 60) + std::time::Duration::from_secs_f64(s))
}

/// Replays one game's text (as cut by [`for_each_game`]) with the rules `R`.
pub fn replay_game<R: Rules, S: GameSink<R>>(text: &[u8], sink: &mut S) -> Result<GameTags, GameError> {
    let mut visitor = Replay::<R, S> {
        sink,
        tags: GameTags::default(),
        pos: None,
        moves: MoveList::new(),
        ply: 0,
        done: false,
        error: None,
        started: false,
    };
    let mut reader = Reader::new(text);
    // `pgn-reader` ends a game's movetext at a blank line; this game goes on until the next tag section,
    // so later pieces continue the same movetext.
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(e) => return Err(GameError::Syntax(e.to_string())),
        }
        if visitor.done {
            break;
        }
    }
    match visitor.error {
        Some(e) => Err(e),
        None => Ok(visitor.tags),
    }
}

struct Replay<'s, R: Rules, S> {
    sink: &'s mut S,
    tags: GameTags,
    pos: Option<Position<R>>,
    moves: MoveList,
    ply: usize,
    done: bool,
    error: Option<GameError>,
    started: bool,
}

fn parse_elo(value: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(value).ok()?.trim();
    s.parse::<u16>().ok().filter(|&e| e > 0)
}

impl<R: Rules, S: GameSink<R>> Visitor for Replay<'_, R, S> {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if self.started {
            return ControlFlow::Continue(());
        }
        let raw = value.as_bytes();
        match name {
            b"WhiteElo" => self.tags.white_elo = parse_elo(raw),
            b"BlackElo" => self.tags.black_elo = parse_elo(raw),
            b"Result" => self.tags.result = Some(GameResult::from_tag(raw)),
            b"Variant" => self.tags.variant = Some(String::from_utf8_lossy(&value.decode()).into_owned()),
            b"FEN" => self.tags.fen = Some(String::from_utf8_lossy(&value.decode()).into_owned()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        if self.started {
            return ControlFlow::Continue(());
        }
        self.started = true;
        if let Some(name) = &self.tags.variant {
            if Variant::from_name(name).is_none() {
                self.error = Some(GameError::UnknownVariant(name.clone()));
                self.done = true;
                return ControlFlow::Break(());
            }
        }
        if !self.sink.tags(&self.tags) {
            self.done = true;
            return ControlFlow::Break(());
        }
        let pos = match &self.tags.fen {
            Some(fen) => match Position::<R>::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    self.error = Some(GameError::BadFen(e.to_string()));
                    self.done = true;
                    return ControlFlow::Break(());
                }
            },
            None => Position::<R>::startpos(),
        };
        self.pos = Some(pos);
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        if self.done {
            return ControlFlow::Break(());
        }
        let Some(pos) = self.pos.as_mut() else { return ControlFlow::Break(()) };
        self.ply += 1;
        let found = match find_move_orthodox(pos, &san_plus.san) {
            Some(mv) => Ok(mv),
            None => {
                pos.legal_moves_into(&mut self.moves);
                find_move(pos, &san_plus.san, &self.moves)
            }
        };
        let mv = match found {
            Ok(mv) => mv,
            Err(ambiguous) => {
                let san = san_plus.to_string();
                self.error = Some(if ambiguous {
                    GameError::AmbiguousMove { ply: self.ply, san }
                } else {
                    GameError::IllegalMove { ply: self.ply, san }
                });
                self.done = true;
                return ControlFlow::Break(());
            }
        };
        if !self.sink.ply(pos, mv, self.ply) {
            self.done = true;
            return ControlFlow::Break(());
        }
        pos.play_unchecked(mv);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        if self.pos.is_some() && !self.done {
            self.sink.comment(self.ply, comment.as_bytes());
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: Outcome) -> ControlFlow<()> {
        if self.tags.result.is_none() {
            self.tags.result = Some(match outcome {
                Outcome::Known(KnownOutcome::Decisive { winner: shakmaty::Color::White }) => GameResult::WhiteWins,
                Outcome::Known(KnownOutcome::Decisive { winner: shakmaty::Color::Black }) => GameResult::BlackWins,
                Outcome::Known(KnownOutcome::Draw) => GameResult::Draw,
                Outcome::Unknown => GameResult::Unknown,
            });
        }
        // Text after the result is not part of the game.
        self.done = true;
        ControlFlow::Break(())
    }

    fn end_game(&mut self, _movetext: ()) {}
}

fn role_of(role: shakmaty::Role) -> Role {
    match role {
        shakmaty::Role::Pawn => Role::Pawn,
        shakmaty::Role::Knight => Role::Knight,
        shakmaty::Role::Bishop => Role::Bishop,
        shakmaty::Role::Rook => Role::Rook,
        shakmaty::Role::Queen => Role::Queen,
        shakmaty::Role::King => Role::King,
    }
}

fn square_of(sq: shakmaty::Square) -> Square {
    Square::from_index(u32::from(sq))
}

/// The common case fast, without generating every legal move: an orthodox position not in check and a
/// piece move, pawn push or pawn capture (not en passant) that exactly one legal move matches. `None`
/// leaves the decision (and the error message) to [`find_move`].
pub fn find_move_orthodox<R: Rules>(pos: &Position<R>, san: &San) -> Option<Move> {
    use mysl_core::attacks;
    use mysl_core::{Bitboard, MoveKind};
    if R::VARIANT != Variant::Chess || pos.is_check() {
        return None;
    }
    let San::Normal { role, file, rank, capture, to, promotion } = san else { return None };
    let (role, to) = (role_of(*role), square_of(*to));
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    if ours.contains(to) {
        return None;
    }
    let king = pos.king_square(us);
    let occupied = board.occupied();
    let pinned = pos.pinned();
    let safe = |from: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let mut candidates = match role {
        Role::Pawn => {
            let back = if us == Color::White { -8 } else { 8 };
            if *capture {
                if !theirs.contains(to) {
                    return None; // en passant or nonsense
                }
                let f = (*file)?;
                // A pawn captures from a neighbouring file only ("cxf3" names no move).
                if usize::from(f).abs_diff(to.file().index()) != 1 {
                    return None;
                }
                let from = to.offset(back)?;
                let from = Square::from_coords(BoardFile::ALL[usize::from(f)], from.rank());
                Bitboard::from_square(from)
            } else {
                if occupied.contains(to) || file.is_some_and(|f| usize::from(f) != to.file().index()) {
                    return None;
                }
                let one = to.offset(back)?;
                if occupied.contains(one) {
                    Bitboard::from_square(one)
                } else {
                    let double_rank = if us == Color::White { Rank::Fourth } else { Rank::Fifth };
                    if to.rank() != double_rank {
                        return None;
                    }
                    Bitboard::from_square(one.offset(back)?)
                }
            }
        }
        Role::King => {
            if promotion.is_some() || board.attackers_to(to, !us, occupied.without(king)).any() {
                return None;
            }
            Bitboard::from_square(king) & attacks::king_attacks(to)
        }
        _ => attacks::attacks(us, role, to, occupied),
    } & board.by_piece(mysl_core::Piece { color: us, role });
    if let Some(f) = file {
        candidates &= Bitboard::file(BoardFile::ALL[usize::from(*f)]);
    }
    if let Some(r) = rank {
        candidates &= Bitboard::rank(Rank::ALL[usize::from(*r)]);
    }
    let from = (candidates & !Bitboard::from_square(king))
        .filter_safe(safe)
        .or_else(|| (role == Role::King).then(|| candidates.single()).flatten())?;
    let last_rank = if us == Color::White { Rank::Eighth } else { Rank::First };
    let kind = match (role, promotion) {
        (Role::Pawn, Some(p)) if to.rank() == last_rank => match role_of(*p) {
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen => MoveKind::promotion(role_of(*p)),
            _ => return None,
        },
        (Role::Pawn, None) if to.rank() == last_rank => return None,
        (_, None) => MoveKind::Normal,
        _ => return None,
    };
    Some(Move::new(from, to, kind))
}

trait SingleSafe {
    fn filter_safe(self, safe: impl Fn(Square) -> bool) -> Option<Square>;
}

impl SingleSafe for mysl_core::Bitboard {
    /// The one square that passes `safe`; `None` if none or several.
    fn filter_safe(self, safe: impl Fn(Square) -> bool) -> Option<Square> {
        let mut found = None;
        for sq in self {
            if safe(sq) {
                if found.is_some() {
                    return None;
                }
                found = Some(sq);
            }
        }
        found
    }
}

/// The legal move a SAN names: `Err(false)` if none, `Err(true)` if several.
pub fn find_move<R: Rules>(pos: &Position<R>, san: &San, legal: &MoveList) -> Result<Move, bool> {
    let mut found = None;
    let mut count = 0;
    match san {
        San::Normal { role, file, rank, to, promotion, .. } => {
            let role = role_of(*role);
            let to = square_of(*to);
            let promotion = promotion.map(role_of);
            let file = file.map(|f| BoardFile::ALL[usize::from(f)]);
            let rank = rank.map(|r| Rank::ALL[usize::from(r)]);
            for mv in legal.iter() {
                if mv.is_castle() || mv.drop_role().is_some() || mv.to() != to {
                    continue;
                }
                let from = mv.from();
                if pos.board().role_at(from) != Some(role)
                    || file.is_some_and(|f| from.file() != f)
                    || rank.is_some_and(|r| from.rank() != r)
                    || mv.promotion() != promotion
                {
                    continue;
                }
                count += 1;
                found = Some(mv);
            }
        }
        San::Castle(side) => {
            let side = match side {
                shakmaty::CastlingSide::KingSide => CastlingSide::KingSide,
                shakmaty::CastlingSide::QueenSide => CastlingSide::QueenSide,
            };
            for mv in legal.iter().filter(|m| m.is_castle()) {
                let king_side = mv.to().file() > mv.from().file();
                if king_side == (side == CastlingSide::KingSide) {
                    count += 1;
                    found = Some(mv);
                }
            }
        }
        San::Put { role, to } => {
            let role = role_of(*role);
            let to = square_of(*to);
            for mv in legal.iter() {
                if mv.drop_role() == Some(role) && mv.to() == to {
                    count += 1;
                    found = Some(mv);
                }
            }
        }
        San::Null => {}
    }
    match (count, found) {
        (1, Some(mv)) => Ok(mv),
        (0, _) => Err(false),
        _ => Err(true),
    }
}

/// Which side moves in a position (a small helper for sinks).
pub fn mover<R: Rules>(pos: &Position<R>) -> Color {
    pos.turn()
}

/// The game as PGN: Seven Tag Roster, `Variant`, `SetUp`/`FEN` for other starts, SAN moves wrapped at 80.
pub fn write_pgn<R: Rules>(start: &Position<R>, sans: &[String], result: &str, white: &str, black: &str) -> String {
    let moves: Vec<PgnMove> = sans.iter().map(|s| PgnMove { san: s.clone(), ..PgnMove::default() }).collect();
    write_pgn_with(start, &moves, result, white, black)
}

/// A move for [`write_pgn_with`]: its SAN (with a `?`/`!` suffix if any), then a comment (the whole
/// `{ ... }` text) and a variation (the whole `( ... )` text) if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    pub san: String,
    pub comment: Option<String>,
    pub variation: Option<String>,
}

/// [`write_pgn`] with comments and variations after the moves; a Black move after one gets its number
/// again (`2... Nc6`). Tokens are wrapped at 80 columns; a comment or variation stays on one line.
pub fn write_pgn_with<R: Rules>(
    start: &Position<R>,
    moves: &[PgnMove],
    result: &str,
    white: &str,
    black: &str,
) -> String {
    let date = "????.??.??";
    let mut s = format!(
        "[Event \"mysl game\"]\n[Site \"local\"]\n[Date \"{date}\"]\n[Round \"-\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n"
    );
    if !matches!(R::VARIANT, Variant::Chess) {
        s.push_str(&format!("[Variant \"{}\"]\n", R::NAME));
    }
    if start.fen() != mysl_core::STARTING_FEN || !matches!(R::VARIANT, Variant::Chess) {
        s.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.fen()));
    }
    s.push('\n');
    let mut line = String::new();
    let mut number = start.fullmoves();
    let mut white_to_move = start.turn().is_white();
    let mut tokens = Vec::new();
    let mut renumber = !white_to_move;
    for m in moves {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if renumber {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        tokens.extend(m.comment.iter().cloned());
        tokens.extend(m.variation.iter().cloned());
        renumber = m.comment.is_some() || m.variation.is_some();
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    if moves.is_empty() && !white_to_move {
        tokens.push(format!("{number}..."));
    }
    tokens.push(result.to_string());
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::Orthodox;

    struct Collect(Vec<Move>);
    impl GameSink<Orthodox> for Collect {
        fn tags(&mut self, _tags: &GameTags) -> bool {
            true
        }
        fn ply(&mut self, _pos: &Position<Orthodox>, mv: Move, _ply: usize) -> bool {
            self.0.push(mv);
            true
        }
    }

    fn split(text: &str) -> Vec<(u64, u64, String)> {
        let mut s = Splitter::new(0);
        let mut out = Vec::new();
        let mut take = |data: Vec<u8>, games: Vec<(usize, usize, u64, u64)>| {
            for (a, b, n, l) in games {
                out.push((n, l, String::from_utf8_lossy(&data[a..b]).into_owned()));
            }
        };
        for line in text.split_inclusive('\n') {
            if let Some((d, g)) = s.push_line(line.as_bytes()) {
                take(d, g);
            }
        }
        let (d, g) = s.finish();
        take(d, g);
        out
    }

    #[test]
    fn clock_comments_are_read_and_parsed() {
        assert_eq!(
            clock_commands(" [%clk 0:01:02] [%eval 0.3] x [%clk 1:00:00]"),
            vec!["[%clk 0:01:02]", "[%clk 1:00:00]"]
        );
        assert!(clock_commands("no clock").is_empty());
        use std::time::Duration;
        assert_eq!(parse_clock("[%clk 0:01:02]"), Some(Duration::from_secs(62)));
        assert_eq!(parse_clock("[%clk 1:00:09.5]"), Some(Duration::from_millis(3_609_500)));
        for bad in ["[%clk 1:60:00]", "[%clk 0:00:60]", "[%clk 1:2]", "[%clk a:00:00]", "[%eval 0.3]", "[%clk 0:00:-1]"]
        {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
        // A sink sees the main line's comments with the number of moves before them, not the variations'.
        struct Comments(Vec<(usize, String)>);
        impl GameSink<Orthodox> for Comments {
            fn tags(&mut self, _tags: &GameTags) -> bool {
                true
            }
            fn ply(&mut self, _pos: &Position<Orthodox>, _mv: Move, _ply: usize) -> bool {
                true
            }
            fn comment(&mut self, ply: usize, text: &[u8]) {
                self.0.push((ply, String::from_utf8_lossy(text).trim().to_string()));
            }
        }
        let text = b"{start} 1. e4 { [%clk 0:05:00] } e5 (1... c5 {no}) 2. Nf3 {a} {b} *";
        let mut sink = Comments(Vec::new());
        replay_game::<Orthodox, _>(text, &mut sink).expect("game");
        let got: Vec<(usize, &str)> = sink.0.iter().map(|(p, t)| (*p, t.as_str())).collect();
        assert_eq!(got, [(0, "start"), (1, "[%clk 0:05:00]"), (3, "a"), (3, "b")]);
    }

    #[test]
    fn writes_comments_and_variations_and_reads_them_back() {
        let start = Position::<Orthodox>::startpos();
        let m = |san: &str, comment: Option<&str>, variation: Option<&str>| PgnMove {
            san: san.into(),
            comment: comment.map(str::to_string),
            variation: variation.map(str::to_string),
        };
        let moves = [
            m("e4", Some("{ [%eval 0.30] [%clk 0:05:00] }"), None),
            m("e5", None, None),
            m("Nf3", None, None),
            m("Qg5??", Some("{ [%eval 10.00] Blunder. Nc6 was best. }"), Some("( 2... Nc6 3. d4 )")),
            m("Nxg5", None, None),
        ];
        let text = write_pgn_with(&start, &moves, "1-0", "A", "B");
        assert!(text.ends_with(
            "\n1. e4 { [%eval 0.30] [%clk 0:05:00] } 1... e5 2. Nf3 Qg5??\n{ [%eval 10.00] Blunder. Nc6 was best. } ( 2... Nc6 3. d4 ) 3. Nxg5 1-0\n\n"
        ), "{text}");
        let mut sink = Collect(Vec::new());
        replay_game::<Orthodox, _>(text.as_bytes(), &mut sink).expect("game");
        assert_eq!(sink.0.len(), 5);
        // Without comments it is write_pgn's text.
        let plain: Vec<String> = ["e4", "e5"].iter().map(|s| s.to_string()).collect();
        let bare: Vec<PgnMove> = plain.iter().map(|s| m(s, None, None)).collect();
        assert_eq!(write_pgn_with(&start, &bare, "*", "A", "B"), write_pgn(&start, &plain, "*", "A", "B"));
        assert!(write_pgn(&start, &plain, "*", "A", "B").ends_with("\n1. e4 e5 *\n\n"));
    }

    #[test]
    fn splits_games_with_lines() {
        let text = "\n[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5\n\n2. Nf3 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        let games = split(text);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].0, games[0].1), (1, 2));
        assert!(games[0].2.contains("2. Nf3"));
        assert_eq!((games[1].0, games[1].1), (2, 9));
    }

    #[test]
    fn replays_across_blank_lines_and_stops_at_result() {
        let text = b"[Result \"1-0\"]\n\n1. e4 e5\n\n2. Nf3 {c} (2. Nc3) Nc6 1-0 3. Bb5\n";
        let mut sink = Collect(Vec::new());
        let tags = replay_game::<Orthodox, _>(text, &mut sink).expect("game");
        assert_eq!(tags.result, Some(GameResult::WhiteWins));
        assert_eq!(sink.0.len(), 4);
    }

    #[test]
    fn illegal_move_is_reported_with_ply() {
        let mut sink = Collect(Vec::new());
        let err = replay_game::<Orthodox, _>(b"1. e4 e5 2. Ke3 *\n", &mut sink).expect_err("illegal");
        assert_eq!(err, GameError::IllegalMove { ply: 3, san: "Ke3".into() });
        assert_eq!(err.to_string(), "illegal move Ke3 at ply 3 (2. Ke3)");
    }

    /// Found by fuzzing (fuzz target `pgn`, a Kasparov game with 28.gxf3 mutated to 28.cxf3): the fast
    /// path took a pawn capture's from-square on the named file without checking that the file is a
    /// neighbour of the destination's, so the illegal c2-f3 was played and went into the book.
    #[test]
    fn a_pawn_capture_from_a_distant_file_is_illegal() {
        let game = |mv: &str| format!("[FEN \"4k3/8/8/8/8/5p2/2P3P1/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. {mv} *\n");
        let mut sink = Collect(Vec::new());
        let err = replay_game::<Orthodox, _>(game("cxf3").as_bytes(), &mut sink).expect_err("illegal");
        assert_eq!(err, GameError::IllegalMove { ply: 1, san: "cxf3".into() });
        assert!(sink.0.is_empty());
        let mut sink = Collect(Vec::new());
        replay_game::<Orthodox, _>(game("gxf3").as_bytes(), &mut sink).expect("gxf3 is legal");
        assert_eq!(sink.0.len(), 1);
    }
}
