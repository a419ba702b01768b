//! Time management: a soft limit (stop deepening) and a hard limit (stop searching) from the clock,
//! with the move overhead kept in reserve so the engine never loses on time.

use std::time::Duration;

use crate::search::Limits;

#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeBudget {
    pub fn unlimited() -> TimeBudget {
        TimeBudget { soft: None, hard: None }
    }

    pub fn from_limits(limits: &Limits, _fullmoves: u32) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::unlimited();
        }
        if let Some(mt) = limits.movetime {
            // A fixed time per move is used in full: only the hard limit applies.
            let t = mt.saturating_sub(limits.move_overhead).max(Duration::from_millis(1));
            return TimeBudget { soft: None, hard: Some(t) };
        }
        let Some((time, inc, movestogo)) = limits.clock else {
            return TimeBudget::unlimited();
        };
        let overhead = limits.move_overhead;
        let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves = movestogo.unwrap_or(25).clamp(1, 50);
        // Target: an equal share of the remaining time plus most of the increment.
        let share = usable / moves.max(2) + inc * 3 / 4;
        let soft = share.min(usable / 2);
        let hard = (share * 4).min(usable * 3 / 4).max(soft);
        TimeBudget { soft: Some(soft.max(Duration::from_millis(1))), hard: Some(hard.max(Duration::from_millis(1))) }
    }

    /// After an iteration: stop deepening once the soft limit is used, earlier when the best move is
    /// stable, later when the score has just dropped (`score_drop` centipawns below the previous iteration).
    pub fn should_stop_iterating(&self, elapsed: Duration, stable_iterations: u32, score_drop: i32) -> bool {
        match self.soft {
            None => false,
            Some(soft) => {
                let stability = match stable_iterations {
                    0 => 1.4,
                    1 => 1.1,
                    2 => 0.9,
                    _ => 0.75,
                };
                let falling = 1.0 + (score_drop.clamp(0, 100) as f64) / 150.0;
                // The next iteration takes longer than the last one: stop when it would likely overrun.
                elapsed.as_secs_f64() >= soft.as_secs_f64() * stability * falling * 0.7
            }
        }
    }

    pub fn hard_exceeded(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }
}
