//! `mysl datagen`: self-play games that make NNUE training data (docs/nnue.md).
//!
//! Each game starts from the start position plus a few random plies, then the engine plays both sides
//! with a fixed node limit per move. Quiet positions (not in check, the best move neither a capture nor a
//! promotion, no mate score) are kept with the search score; the game's result is filled in at its end.
//! Games go to chunk files of a fixed number of games; chunk `k` is made from seed `seed + k`, written to a
//! temporary file and renamed when complete, so a stopped run resumes where it was and makes the same bytes.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context};
use mysl_core::{Chess, Color, Move, Orthodox, Outcome};
use mysl_engine::score::MATE_BOUND;
use mysl_engine::{Limits, Searcher, TranspositionTable};
use mysl_nnue::record::{GameResult, Record, RECORD_SIZE};

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Directory for the chunk files (created; existing chunks are kept and skipped).
    #[arg(long)]
    out: PathBuf,
    /// Games in parallel (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Node limit per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random plies from the start position before the engine plays (one more in every other game).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Start positions: the standard one, Chess960 (both sides alike) or double Chess960 (each side its
    /// own), drawn from the seed.
    #[arg(long, value_enum, default_value_t = Start::Standard)]
    start: Start,
    /// Games to make in all (counting the chunks already there); 0: until stopped.
    #[arg(long, default_value_t = 0)]
    games: u64,
    /// Games per chunk file.
    #[arg(long, default_value_t = 50)]
    games_per_chunk: u64,
    /// Base seed: chunk k uses seed + k.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table per thread, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Where games start (before the random plies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Start {
    Standard,
    Frc,
    Dfrc,
}

/// Chess960 back rank number `n` (0..960) in Scharnagl's numbering (518 is the standard one).
pub fn chess960_back_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let (n, b1) = (n / 4, n % 4);
    rank[2 * b1 + 1] = 'B';
    let (n, b2) = (n / 4, n % 4);
    rank[2 * b2] = 'B';
    let (n, q) = (n / 6, n % 6);
    let put_nth_empty = |k: usize, piece: char, rank: &mut [char; 8]| {
        let i = (0..8).filter(|&i| rank[i] == ' ').nth(k).expect("a free square");
        rank[i] = piece;
    };
    put_nth_empty(q, 'Q', &mut rank);
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n % 10];
    // The second knight first, so that the first one's index is not shifted.
    put_nth_empty(b, 'N', &mut rank);
    put_nth_empty(a, 'N', &mut rank);
    for piece in ['R', 'K', 'R'] {
        put_nth_empty(0, piece, &mut rank);
    }
    rank
}

/// The start position of a game: standard, or a Chess960 / double Chess960 one from `rng`.
fn start_position(start: Start, rng: &mut Rng) -> Chess {
    let white = match start {
        Start::Standard => return Chess::startpos(),
        Start::Frc | Start::Dfrc => chess960_back_rank(rng.below(960) as usize),
    };
    let black = if start == Start::Dfrc { chess960_back_rank(rng.below(960) as usize) } else { white };
    let rooks = |rank: &[char; 8], lower: bool| -> String {
        let mut files: Vec<char> = (0..8).filter(|&i| rank[i] == 'R').map(|i| (b'a' + i as u8) as char).collect();
        files.reverse(); // the king side's rook first, as in Shredder-FEN's "HAha"
        files.into_iter().map(|c| if lower { c } else { c.to_ascii_uppercase() }).collect()
    };
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        black.iter().collect::<String>().to_lowercase(),
        white.iter().collect::<String>(),
        rooks(&white, false),
        rooks(&black, true)
    );
    Chess::from_fen(&fen).unwrap_or_else(|_| Chess::startpos())
}

/// How one game is played and adjudicated.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    pub nodes: u64,
    pub random_plies: u32,
    pub start: Start,
    /// A side wins when the score stays at least this for `win_plies` plies in a row (both sides agree).
    pub win_score: i32,
    pub win_plies: u32,
    /// A draw when, after `draw_after` plies, the score stays within this for `draw_plies` plies.
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after: u32,
    /// Games longer than this are draws.
    pub max_plies: u32,
    /// Games whose first searched score is beyond this (a lost opening) are thrown away.
    pub max_opening_score: i32,
}

impl GameSettings {
    pub fn new(nodes: u64, random_plies: u32) -> GameSettings {
        GameSettings {
            nodes,
            random_plies,
            start: Start::Standard,
            win_score: 1500,
            win_plies: 6,
            draw_score: 10,
            draw_plies: 12,
            draw_after: 80,
            max_plies: 500,
            max_opening_score: 1000,
        }
    }
}

/// The seeded generator of openings and Chess960 starts.
pub type Rng = mysl_core::rng::SplitMix64;

/// A searcher with the stop flag it answers to (a node limit sets it; each search clears it).
#[derive(Debug)]
pub struct Player {
    searcher: Searcher<Orthodox>,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
}

impl Player {
    pub fn new(hash_mb: usize) -> Player {
        let stop = Arc::new(AtomicBool::new(false));
        let tt = Arc::new(TranspositionTable::new(hash_mb));
        Player { searcher: Searcher::new(tt.clone(), stop.clone()), tt, stop }
    }
}

/// One self-play game's records, or `None` when the opening was thrown away.
pub fn play_game(player: &mut Player, settings: &GameSettings, rng: &mut Rng) -> Option<Vec<Record>> {
    let mut pos = start_position(settings.start, rng);
    let random_plies = settings.random_plies + (rng.next_u64() & 1) as u32;
    for _ in 0..random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        pos.play_unchecked(mv);
    }
    if pos.outcome().is_some() {
        return None;
    }
    // Every game starts from empty tables, so that a chunk's bytes do not depend on the games a thread
    // played before it.
    player.searcher.clear();
    player.tt.clear();
    let limits = Limits { nodes: Some(settings.nodes), multipv: 1, ..Limits::default() };
    // (record without its result, White's score)
    let mut kept: Vec<Record> = Vec::new();
    let mut win_run = 0u32;
    let mut win_side = Color::White;
    let mut draw_run = 0u32;
    let mut ply = 0u32;
    let result = loop {
        if let Some(outcome) = pos.outcome_with_draw_rules() {
            break result_of(outcome);
        }
        if ply >= settings.max_plies {
            break GameResult::Draw;
        }
        player.stop.store(false, Ordering::Relaxed);
        let found = player.searcher.search(&pos, &limits, |_| {});
        let Some(best) = found.best else { break GameResult::Draw };
        let score = found.score;
        if ply == 0 && score.abs() > settings.max_opening_score {
            return None;
        }
        let white_score = if pos.turn() == Color::White { score } else { -score };
        if score.abs() >= MATE_BOUND {
            // A mate found: the game is decided.
            break if white_score > 0 { GameResult::WhiteWin } else { GameResult::BlackWin };
        }
        if !pos.is_check() && is_quiet(&pos, best) {
            kept.push(Record::new(
                pos.board(),
                pos.turn(),
                pos.ep_square(),
                pos.halfmoves(),
                pos.fullmoves(),
                white_score.clamp(-32000, 32000) as i16,
                GameResult::Draw,
            ));
        }
        // Adjudication.
        if white_score.abs() >= settings.win_score {
            let side = if white_score > 0 { Color::White } else { Color::Black };
            win_run = if side == win_side { win_run + 1 } else { 1 };
            win_side = side;
        } else {
            win_run = 0;
        }
        if win_run >= settings.win_plies {
            break if win_side == Color::White { GameResult::WhiteWin } else { GameResult::BlackWin };
        }
        draw_run =
            if ply >= settings.draw_after && white_score.abs() <= settings.draw_score { draw_run + 1 } else { 0 };
        if draw_run >= settings.draw_plies {
            break GameResult::Draw;
        }
        pos.play_unchecked(best);
        ply += 1;
    };
    for r in &mut kept {
        r.result = result;
    }
    Some(kept)
}

fn result_of(outcome: Outcome) -> GameResult {
    match outcome.winner() {
        Some(Color::White) => GameResult::WhiteWin,
        Some(Color::Black) => GameResult::BlackWin,
        None => GameResult::Draw,
    }
}

fn is_quiet(pos: &Chess, mv: Move) -> bool {
    mv.promotion().is_none() && !mv.is_en_passant() && (mv.is_castle() || pos.board().piece_at(mv.to()).is_none())
}

/// The chunk file of index `k`.
pub fn chunk_path(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("chunk-{k:06}.bin"))
}

/// Plays `games` games from `seed` into one chunk's bytes.
pub fn make_chunk(
    player: &mut Player,
    settings: &GameSettings,
    seed: u64,
    games: u64,
    stop: &AtomicBool,
    mut on_game: impl FnMut(usize),
) -> Option<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut bytes = Vec::new();
    let mut made = 0;
    while made < games {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(records) = play_game(player, settings, &mut rng) {
            for r in &records {
                bytes.extend_from_slice(&r.to_bytes());
            }
            made += 1;
            on_game(records.len());
        }
    }
    Some(bytes)
}

/// Writes `bytes` as chunk `k`: to a temporary file first, renamed when complete.
fn write_chunk(dir: &Path, k: u64, bytes: &[u8]) -> anyhow::Result<()> {
    let path = chunk_path(dir, k);
    let tmp = path.with_extension("bin.tmp");
    let mut f = fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    f.write_all(bytes).with_context(|| format!("writing {}", tmp.display()))?;
    f.sync_all().with_context(|| format!("writing {}", tmp.display()))?;
    drop(f);
    fs::rename(&tmp, &path).with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
    Ok(())
}

pub fn run(args: DatagenArgs) -> Result<std::process::ExitCode, crate::CliError> {
    generate(args)
        .map(|()| std::process::ExitCode::SUCCESS)
        .map_err(|e| crate::CliError::Failure(format!("datagen: {e:#}")))
}

fn generate(args: DatagenArgs) -> anyhow::Result<()> {
    if args.threads == 0 || args.games_per_chunk == 0 || args.nodes == 0 {
        bail!("--threads, --games-per-chunk and --nodes must be at least 1");
    }
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    // Leftovers of an interrupted run.
    let mut existing_positions = 0u64;
    let mut existing_chunks = 0u64;
    for entry in fs::read_dir(&args.out).with_context(|| format!("reading {}", args.out.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("chunk-") && name.ends_with(".bin.tmp") {
            let _ = fs::remove_file(&path);
        } else if name.starts_with("chunk-") && name.ends_with(".bin") {
            let len = fs::metadata(&path)?.len();
            if len % RECORD_SIZE as u64 != 0 {
                bail!(
                    "{}: {} bytes, not a whole number of {}-byte records (delete it to make it again)",
                    path.display(),
                    len,
                    RECORD_SIZE
                );
            }
            existing_positions += len / RECORD_SIZE as u64;
            existing_chunks += 1;
        }
    }
    let total_chunks = if args.games == 0 { u64::MAX } else { args.games.div_ceil(args.games_per_chunk) };
    let settings = GameSettings { start: args.start, ..GameSettings::new(args.nodes, args.random_plies) };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }
    let next_chunk = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let start = Instant::now();
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else if args.games > 0 {
        indicatif::ProgressBar::new(args.games)
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(existing_chunks * args.games_per_chunk);
    // Without a terminal (a log file) a line every minute instead of the bar.
    let log_lines = !args.quiet && !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let last_line = std::sync::Mutex::new(Instant::now());
    let report = |bar: &indicatif::ProgressBar| {
        let p = positions.load(Ordering::Relaxed);
        let secs = start.elapsed().as_secs_f64().max(1e-3);
        let message = format!(
            "{} positions ({} this run, {:.0}/s, {:.2} games/s)",
            existing_positions + p,
            p,
            p as f64 / secs,
            games.load(Ordering::Relaxed) as f64 / secs
        );
        if log_lines {
            let mut last = last_line.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed().as_secs() >= 60 {
                *last = Instant::now();
                eprintln!("datagen: {:.0} s, {} games this run, {message}", secs, games.load(Ordering::Relaxed));
            }
        }
        bar.set_message(message);
    };
    let failure: std::sync::Mutex<Option<anyhow::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut player = Player::new(args.hash);
                loop {
                    let k = next_chunk.fetch_add(1, Ordering::Relaxed);
                    if k >= total_chunks || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if chunk_path(&args.out, k).exists() {
                        continue;
                    }
                    let chunk = make_chunk(
                        &mut player,
                        &settings,
                        args.seed.wrapping_add(k),
                        args.games_per_chunk,
                        &stop,
                        |n| {
                            positions.fetch_add(n as u64, Ordering::Relaxed);
                            games.fetch_add(1, Ordering::Relaxed);
                            bar.inc(1);
                            report(&bar);
                        },
                    );
                    let Some(bytes) = chunk else { break };
                    if let Err(e) = write_chunk(&args.out, k, &bytes) {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    report(&bar);
    bar.finish();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let p = positions.load(Ordering::Relaxed);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "datagen: {} games, {} positions this run in {:.0} s ({:.0} positions/s); {} positions in {}{}",
        games.load(Ordering::Relaxed),
        p,
        secs,
        p as f64 / secs.max(1e-3),
        existing_positions + p,
        args.out.display(),
        if stop.load(Ordering::Relaxed) { " (stopped: unfinished chunks dropped, a re-run resumes)" } else { "" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searcher() -> Player {
        Player::new(1)
    }

    #[test]
    fn a_chunk_is_the_same_bytes_from_the_same_seed() {
        let settings = GameSettings { max_plies: 40, ..GameSettings::new(300, 8) };
        let stop = AtomicBool::new(false);
        let a = make_chunk(&mut searcher(), &settings, 7, 2, &stop, |_| {}).expect("not stopped");
        let b = make_chunk(&mut searcher(), &settings, 7, 2, &stop, |_| {}).expect("not stopped");
        assert_eq!(a, b);
        assert!(!a.is_empty() && a.len() % RECORD_SIZE == 0);
        let c = make_chunk(&mut searcher(), &settings, 8, 2, &stop, |_| {}).expect("not stopped");
        assert_ne!(a, c, "another seed plays other games");
    }

    #[test]
    fn a_chunk_does_not_depend_on_what_the_player_did_before() {
        let settings = GameSettings { max_plies: 40, ..GameSettings::new(300, 8) };
        let stop = AtomicBool::new(false);
        let mut used = searcher();
        make_chunk(&mut used, &settings, 3, 2, &stop, |_| {}).expect("not stopped");
        let after_other_games = make_chunk(&mut used, &settings, 7, 2, &stop, |_| {}).expect("not stopped");
        let fresh = make_chunk(&mut searcher(), &settings, 7, 2, &stop, |_| {}).expect("not stopped");
        assert_eq!(after_other_games, fresh);
    }

    #[test]
    fn kept_positions_are_legal_quiet_and_carry_the_game_result() {
        let settings = GameSettings::new(400, 8);
        let mut rng = Rng::new(3);
        let mut s = searcher();
        let mut games = 0;
        while games < 3 {
            let Some(records) = play_game(&mut s, &settings, &mut rng) else { continue };
            games += 1;
            let result = records.first().map(|r| r.result);
            for r in &records {
                let back = Record::from_bytes(&r.to_bytes()).expect("valid record");
                assert_eq!(back.result, result.expect("some"), "one result per game");
                assert!(back.score.abs() < MATE_BOUND as i16);
                // The record is a legal position, not in check.
                let fen = format!(
                    "{} {} - - {} {}",
                    back.board().board_fen(),
                    if back.turn == Color::White { 'w' } else { 'b' },
                    back.halfmoves,
                    back.fullmoves.max(1)
                );
                let pos = Chess::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert!(!pos.is_check(), "{fen}");
            }
        }
    }

    #[test]
    fn chess960_back_ranks_follow_scharnagl() {
        assert_eq!(chess960_back_rank(518).iter().collect::<String>(), "RNBQKBNR");
        assert_eq!(chess960_back_rank(0).iter().collect::<String>(), "BBQNNRKR");
        assert_eq!(chess960_back_rank(959).iter().collect::<String>(), "RKRNNQBB");
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = chess960_back_rank(n);
            let files = |p: char| (0..8).filter(|&i| r[i] == p).collect::<Vec<_>>();
            let (b, rk, k) = (files('B'), files('R'), files('K'));
            assert_eq!(b.len(), 2);
            assert_ne!(b[0] % 2, b[1] % 2, "{n}: bishops on both colours");
            assert!(rk[0] < k[0] && k[0] < rk[1], "{n}: king between the rooks");
            assert_eq!((files('Q').len(), files('N').len()), (1, 2));
            assert!(seen.insert(r), "{n}: every number its own position");
        }
    }

    #[test]
    fn chess960_games_start_from_legal_positions_with_castling() {
        let mut rng = Rng::new(5);
        for start in [Start::Frc, Start::Dfrc] {
            for _ in 0..50 {
                let pos = start_position(start, &mut rng);
                assert!(pos.castling().has_any(Color::White) && pos.castling().has_any(Color::Black), "{pos}");
                assert!(!pos.legal_moves().is_empty());
            }
        }
        let settings = GameSettings { start: Start::Dfrc, max_plies: 30, ..GameSettings::new(300, 4) };
        let stop = AtomicBool::new(false);
        let a = make_chunk(&mut searcher(), &settings, 3, 1, &stop, |_| {}).expect("not stopped");
        assert!(!a.is_empty());
    }

    #[test]
    fn a_stopped_chunk_is_not_written() {
        let settings = GameSettings::new(300, 8);
        let stop = AtomicBool::new(true);
        assert!(make_chunk(&mut searcher(), &settings, 1, 1, &stop, |_| {}).is_none());
    }
}
