//! `mysl solve FILE`: solves the chess problems of a file in Popeye's input language.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use mysl_problems::input::parse_problems;
use mysl_problems::output;
use mysl_problems::solve::Limits;

use crate::{CliError, EXIT_INPUT};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem file in Popeye's input language (English keywords).
    pub file: std::path::PathBuf,
    /// One JSON object per problem instead of Popeye-style text.
    #[arg(long)]
    pub json: bool,
    /// Memory for the hash tables, e.g. 256M or 1G (default 256M).
    #[arg(long, value_name = "M")]
    pub maxmem: Option<String>,
    /// Stop each problem after S seconds (its output is then marked as interrupted).
    #[arg(long, value_name = "S")]
    pub maxtime: Option<u64>,
    /// Use the intelligent mode (h#, ser-h#, ser-# with orthodox pieces) even without `Option Intelligent`.
    #[arg(long, conflicts_with = "no_intelligent")]
    pub intelligent: bool,
    /// Never use the intelligent mode, even with `Option Intelligent` (plain exhaustive search).
    #[arg(long)]
    pub no_intelligent: bool,
    /// Intended solutions per twin for the classification (overrides `Remark Intended n`; default 1).
    #[arg(long, value_name = "N")]
    pub intended: Option<u32>,
    /// Threads for splitting the root moves (default 2).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Parses `256M`, `1G`, `512K` or a plain byte count.
fn parse_mem(s: &str) -> Option<usize> {
    let s = s.trim();
    let (num, mul) = match s.chars().last()?.to_ascii_uppercase() {
        'K' => (&s[..s.len() - 1], 1usize << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<usize>().ok()?.checked_mul(mul)
}

pub fn run(a: SolveArgs) -> Result<ExitCode, CliError> {
    let text = std::fs::read(&a.file).map_err(|e| CliError::Input(format!("{}: {e}", a.file.display())))?;
    let text = String::from_utf8_lossy(&text);
    let mem = match &a.maxmem {
        Some(m) => parse_mem(m).ok_or_else(|| CliError::Input(format!("--maxmem {m}: expected a size like 256M")))?,
        None => 256 << 20,
    };
    let threads = a.threads.clamp(1, 64);
    // About 40 bytes per hash entry (key, value, table overhead), split over the threads.
    let hash_entries = (mem / 40 / threads).max(1024);
    let stop = Arc::new(AtomicBool::new(false));
    let on_interrupt = stop.clone();
    let _ = ctrlc::set_handler(move || on_interrupt.store(true, Ordering::Relaxed));
    let name = a.file.display().to_string();
    let mut input_errors = 0;
    let problems = parse_problems(&text);
    let total = problems.len();
    for (i, p) in problems.into_iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            eprintln!("mysl solve: interrupted");
            return Ok(ExitCode::from(130));
        }
        let mut problem = match p {
            Ok(p) => p,
            Err(e) => {
                input_errors += 1;
                eprintln!("{name}:{}:{}: {} (at '{}'); problem skipped", e.line, e.column, e.message, e.token);
                if a.json {
                    println!(
                        "{{\"error\":\"input\",\"line\":{},\"column\":{},\"message\":{:?}}}",
                        e.line, e.column, e.message
                    );
                }
                continue;
            }
        };
        if a.intended.is_some() {
            problem.options.intended = a.intended;
        }
        if a.intelligent {
            problem.options.intelligent = true;
        } else if a.no_intelligent {
            problem.options.intelligent = false;
        }
        let max_time = a.maxtime.or(problem.options.max_time);
        let limits = Limits {
            hash_entries,
            deadline: max_time.map(|s| Instant::now() + Duration::from_secs(s)),
            stop: stop.clone(),
            threads,
            ..Limits::default()
        };
        let done = Arc::new(AtomicBool::new(false));
        let heartbeat = {
            let done = done.clone();
            let label = format!("problem {}/{total} (line {})", i + 1, problem.line);
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut next = 10;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if start.elapsed().as_secs() >= next {
                        eprintln!("mysl solve: still solving {label}: {} s", start.elapsed().as_secs());
                        next += 10;
                    }
                }
            })
        };
        let start = Instant::now();
        let result = mysl_problems::solve_problem(&problem, &limits);
        done.store(true, Ordering::Relaxed);
        let _ = heartbeat.join();
        if a.json {
            println!("{}", output::json(&problem, &result));
        } else {
            print!("{}", output::text(&problem, &result));
            println!("time = {:.3} s\n", start.elapsed().as_secs_f64());
        }
        if let Err(e) = &result {
            eprintln!("{name}: problem at line {}: {e}", problem.line);
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(if input_errors > 0 { ExitCode::from(EXIT_INPUT) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::parse_mem;

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_mem("256M"), Some(256 << 20));
        assert_eq!(parse_mem("1g"), Some(1 << 30));
        assert_eq!(parse_mem("1000"), Some(1000));
        assert_eq!(parse_mem("x"), None);
    }
}
