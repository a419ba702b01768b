//! `mysl match`: engine-vs-engine games refereed by mysl's rules, in any variant: clocks, illegal-move and
//! time-loss detection, a move-count draw, PGN, and W/D/L with Elo ± 95%. Engines speak UCI.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clap::Args;
use mysl_core::{dispatch_variant, san, uci, Position, Rules, Variant};

use crate::CliError;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine command line (give exactly two), e.g. `--engine "target/release/mysl" --engine stockfish`.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Variant (the engines must support it through UCI_Variant unless it is chess).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Time control: seconds+increment, e.g. 10+0.1.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Number of games (colors alternate; each opening is played twice).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Openings: a file of FEN/EPD lines, played in order.
    #[arg(long)]
    openings: Option<String>,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<String>,
    /// Declare a draw after this many full moves.
    #[arg(long, default_value_t = 250)]
    max_moves: u32,
    /// Extra time an engine may overrun its clock by before it loses on time, in milliseconds.
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
}

struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(command: &str, variant: Variant) -> Result<Engine, String> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
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
        let mut engine =
            Engine { name: program.rsplit('/').next().unwrap_or(program).to_string(), child, stdin, lines: rx };
        engine.send("uci")?;
        engine
            .wait_for(
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
            )
            .map(|_| ())?;
        if variant != Variant::Chess {
            engine.send(&format!("setoption name UCI_Variant value {}", variant.name()))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("{}: {e}", self.name))
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for(|l| (l == "readyok").then_some(()), Duration::from_secs(10))
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
    if base <= 0.0 || inc < 0.0 {
        return Err(bad());
    }
    Ok((Duration::from_secs_f64(base), Duration::from_secs_f64(inc)))
}

/// One finished game: result from White's side and the reason.
struct GameRecord {
    result: &'static str,
    reason: String,
    pgn: String,
}

#[allow(clippy::too_many_arguments)]
fn play_game<R: Rules>(
    white: &mut Engine,
    black: &mut Engine,
    fen: &str,
    tc: (Duration, Duration),
    max_moves: u32,
    margin: Duration,
    dice_seed: &mut u64,
) -> Result<GameRecord, CliError> {
    let start = Position::<R>::from_fen(fen).map_err(|e| CliError::Input(format!("opening '{fen}': {e}")))?;
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    let mut clocks = [tc.0, tc.0];
    for e in [&mut *white, &mut *black] {
        e.send("ucinewgame").and_then(|_| e.ready()).map_err(CliError::Failure)?;
    }
    let (result, reason) = loop {
        if let Some(o) = pos.outcome_with_draw_rules() {
            let reason = match o {
                mysl_core::Outcome::Decisive { reason, .. } | mysl_core::Outcome::Draw { reason } => reason.to_string(),
            };
            break (o.result_str(), reason);
        }
        if pos.fullmoves() > max_moves {
            break ("1/2-1/2", format!("draw after {max_moves} moves"));
        }
        let side = pos.turn() as usize;
        if R::VARIANT == Variant::Dice {
            let faces = pos.dice_faces_with_moves();
            *dice_seed ^= *dice_seed << 13;
            *dice_seed ^= *dice_seed >> 7;
            *dice_seed ^= *dice_seed << 17;
            pos.set_dice_roll(faces.get((*dice_seed >> 33) as usize % faces.len().max(1)).copied());
        }
        let engine = if side == 0 { &mut *white } else { &mut *black };
        let position = if R::VARIANT == Variant::Dice {
            // The roll is part of the position: send it as a FEN (mysl's `roll=N` field).
            format!("position fen {}", pos.fen())
        } else if moves.is_empty() {
            format!("position fen {}", start.fen())
        } else {
            format!("position fen {} moves {}", start.fen(), moves.join(" "))
        };
        let ms = |d: Duration| d.as_millis();
        let go = format!("go wtime {} btime {} winc {} binc {}", ms(clocks[0]), ms(clocks[1]), ms(tc.1), ms(tc.1));
        let loser = if side == 0 { "0-1" } else { "1-0" };
        let t0 = Instant::now();
        let answer = engine.send(&position).and_then(|_| engine.send(&go)).and_then(|_| {
            engine.wait_for(
                |l| l.strip_prefix("bestmove").map(|m| m.split_whitespace().next().unwrap_or("").to_string()),
                clocks[side] + margin + Duration::from_secs(1),
            )
        });
        let used = t0.elapsed();
        let text = match answer {
            Ok(t) => t,
            Err(e) => break (loser, e),
        };
        if used > clocks[side] + margin {
            break (loser, format!("{} lost on time", engine.name));
        }
        clocks[side] = clocks[side].saturating_sub(used) + tc.1;
        let Ok(mv) = uci::parse_uci_move(&pos, &text) else {
            break (loser, format!("{} played an illegal move '{text}'", engine.name));
        };
        sans.push(san::move_to_san(&pos, mv));
        moves.push(uci::move_to_uci(&pos, mv));
        pos.play_unchecked(mv);
    };
    let pgn = crate::play::pgn(&start, &sans, result, &white.name, &black.name);
    Ok(GameRecord { result, reason, pgn })
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

pub fn run(args: MatchArgs) -> Result<ExitCode, CliError> {
    if args.engines.len() != 2 {
        return Err(CliError::Input(format!("give exactly two --engine options (got {})", args.engines.len())));
    }
    let variant = Variant::from_name(&args.variant)
        .ok_or_else(|| CliError::Input(format!("unknown variant '{}'", args.variant)))?;
    let tc = parse_tc(&args.tc)?;
    let openings: Vec<String> = match &args.openings {
        None => vec![mysl_core::STARTING_FEN.to_string()],
        Some(path) => {
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
            lines
        }
    };
    let mut a = Engine::start(&args.engines[0], variant).map_err(CliError::Failure)?;
    let mut b = Engine::start(&args.engines[1], variant).map_err(CliError::Failure)?;
    if a.name == b.name {
        a.name.push_str("-1");
        b.name.push_str("-2");
    }
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for game in 0..args.games {
        let fen = &openings[(game / 2) % openings.len()];
        let a_white = game % 2 == 0;
        let record = dispatch_variant!(variant, R => {
            if a_white {
                play_game::<R>(&mut a, &mut b, fen, tc, args.max_moves, Duration::from_millis(args.margin_ms), &mut seed)
            } else {
                play_game::<R>(&mut b, &mut a, fen, tc, args.max_moves, Duration::from_millis(args.margin_ms), &mut seed)
            }
        })?;
        let a_score = match (record.result, a_white) {
            ("1-0", true) | ("0-1", false) => 1.0,
            ("1/2-1/2", _) => 0.5,
            _ => 0.0,
        };
        match a_score {
            s if s == 1.0 => w += 1,
            s if s == 0.5 => d += 1,
            _ => l += 1,
        }
        let (white, black) = if a_white { (&a.name, &b.name) } else { (&b.name, &a.name) };
        println!("game {}: {white} - {black} {} ({})", game + 1, record.result, record.reason);
        if let Some(path) = &args.pgn {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(record.pgn.as_bytes()))
                .map_err(|e| CliError::Failure(format!("{path}: {e}")))?;
        }
    }
    let (e, lo, hi) = elo(w, d, l);
    println!(
        "Score of {} vs {}: {w} - {l} - {d} [{:.3}] {} games",
        a.name,
        b.name,
        (w as f64 + d as f64 / 2.0) / (w + d + l).max(1) as f64,
        w + d + l
    );
    println!("Elo difference: {e:+.1} (95%: {lo:+.1} to {hi:+.1})");
    Ok(ExitCode::SUCCESS)
}
