//! The `mysl` command line.

mod analyse_cmd;
mod book_cmd;
mod datagen;
mod match_cmd;
mod perft_cmd;
mod play;
mod solve_cmd;
mod tb_cmd;
mod tb_variant_cmd;
mod train_cmd;
mod tune;
mod web_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "mysl",
    version,
    about = "mysl: a chess program (rules core, engine, book, tablebases, problem solver)"
)]
struct Cli {
    /// Without a subcommand mysl runs the engine protocol loop (UCI or xboard, from the first line).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal: human vs human, human vs engine, engine vs engine.
    Play(play::PlayArgs),
    /// Play engine-vs-engine games between two UCI or xboard engines, refereed by mysl's rules (any variant).
    Match(match_cmd::MatchArgs),
    /// Fit the evaluation weights to positions from PGN games (Texel tuning).
    Tune(tune::TuneArgs),
    /// Opening books: build from PGN, probe, dump.
    Book(book_cmd::BookArgs),
    /// Serve the web UI on localhost: play, analysis, opening explorer.
    Web(web_cmd::WebArgs),
    /// Solve chess problems written in Popeye's input language.
    Solve(solve_cmd::SolveArgs),
    /// Self-play games that make NNUE training data (docs/nnue.md).
    Datagen(datagen::DatagenArgs),
    /// Endgame tablebases: generate (DTM and DTZ50), probe.
    Tb(tb_cmd::TbArgs),
    /// Train the NNUE evaluation on `mysl datagen` data (docs/nnue.md).
    Train(train_cmd::TrainArgs),
    /// Analyse PGN games: [%eval] comments, ?!/?/?? marks, better lines, ACPL and accuracy (docs/analysis.md).
    Analyse(analyse_cmd::AnalyseArgs),
    /// Run the UCI protocol loop on standard input and output.
    Uci,
    /// Run the xboard (CECP v2) protocol loop on standard input and output.
    Xboard,
    /// Count the leaf nodes of the legal move tree (perft), or run a perft suite file.
    Perft(perft_cmd::PerftArgs),
    /// Search a fixed list of positions; the node count signs the search version.
    Bench {
        /// Depth for orthodox positions (variants: 3 less).
        #[arg(long, short, default_value_t = mysl_engine::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Print each position's node count.
        #[arg(long, short)]
        verbose: bool,
    },
}

/// Exit code for bad input (usage, FEN, files): the message names what and where.
pub const EXIT_INPUT: u8 = 2;
/// Exit code for a run that found a problem (e.g. a perft mismatch).
pub const EXIT_FAILURE: u8 = 1;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        None => protocol_loop(None),
        Some(Command::Uci) => protocol_loop(Some("uci")),
        Some(Command::Xboard) => protocol_loop(Some("xboard")),
        Some(Command::Perft(args)) => perft_cmd::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Match(args)) => match_cmd::run(args),
        Some(Command::Book(args)) => book_cmd::run(args),
        Some(Command::Web(args)) => web_cmd::run(args),
        Some(Command::Solve(args)) => solve_cmd::run(args),
        Some(Command::Tb(args)) => tb_cmd::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Train(args)) => train_cmd::run(args),
        Some(Command::Analyse(args)) => analyse_cmd::run(args),
        Some(Command::Bench { depth, verbose }) => {
            let r = mysl_engine::bench::run_bench(depth, |i, variant, fen, nodes| {
                if verbose {
                    eprintln!("{:>2} {variant:<14} {nodes:>10}  {fen}", i + 1);
                }
            });
            for line in r.summary() {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(CliError::Input(msg)) => {
            eprintln!("mysl: {msg}");
            ExitCode::from(EXIT_INPUT)
        }
        Err(CliError::Failure(msg)) => {
            eprintln!("mysl: {msg}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Reads protocol commands from stdin until `quit` or end of input.
fn protocol_loop(forced: Option<&str>) -> Result<ExitCode, CliError> {
    use std::io::{BufRead, Write};
    use std::sync::Arc;
    let out: mysl_protocol::Output = Arc::new(|line: &str| {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    let mut protocol = match forced {
        Some("xboard") => mysl_protocol::Protocol::Xboard(Box::new(mysl_protocol::Xboard::new(out))),
        Some(_) => mysl_protocol::Protocol::Uci(Box::new(mysl_protocol::Uci::new(out))),
        None => mysl_protocol::Protocol::new(out),
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if protocol.handle(&line) == mysl_protocol::Flow::Quit {
            return Ok(ExitCode::SUCCESS);
        }
    }
    protocol.finish();
    Ok(ExitCode::SUCCESS)
}

/// Errors reported to the user as one line.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: exit code 2.
    Input(String),
    /// The work itself failed: exit code 1.
    Failure(String),
}
