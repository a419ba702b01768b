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

    /// The time a search aims at: the soft limit, or the hard one when only that is set (movetime);
    /// `None` without a clock.
    pub fn target(&self) -> Option<Duration> {
        self.soft.or(self.hard)
    }

    pub fn hard_exceeded(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, movestogo: Option<u32>, overhead: u64) -> TimeBudget {
        let limits =
            Limits { clock: Some((ms(time), ms(inc), movestogo)), move_overhead: ms(overhead), ..Limits::default() };
        TimeBudget::from_limits(&limits, 1)
    }

    #[test]
    fn limits_stay_within_the_clock_less_the_overhead() {
        for time in [1, 10, 29, 30, 31, 50, 100, 1_000, 10_000, 60_000, 3_600_000] {
            for inc in [0, 10, 100, 1_000, 30_000] {
                for movestogo in [None, Some(1), Some(2), Some(40), Some(1000)] {
                    for overhead in [0, 30, 100] {
                        let b = clock(time, inc, movestogo, overhead);
                        let (soft, hard) = (b.soft.expect("soft"), b.hard.expect("hard"));
                        let what = format!("time {time} inc {inc} mtg {movestogo:?} overhead {overhead}");
                        assert!(soft <= hard, "{what}: soft {soft:?} hard {hard:?}");
                        if time > overhead {
                            let usable = ms(time - overhead);
                            assert!(hard <= usable, "{what}: hard {hard:?} beyond {usable:?}");
                            assert!(soft <= usable / 2 || soft == ms(1), "{what}: soft {soft:?}");
                        } else {
                            // Nothing left beyond the overhead: the least that still returns a move.
                            assert_eq!((soft, hard), (ms(1), ms(1)), "{what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tiny_clocks_and_the_last_move_before_the_control() {
        // 50 ms left, no increment, 30 ms overhead: 20 ms usable.
        let b = clock(50, 0, None, 30);
        assert!(b.hard.expect("hard") <= ms(15), "{b:?}");
        assert!(b.soft.expect("soft") <= ms(10), "{b:?}");
        // movestogo 1: the whole remaining time is not staked on one move.
        let b = clock(10_000, 0, Some(1), 30);
        assert!(b.soft.expect("soft") <= ms(4_985), "{b:?}");
        assert!(b.hard.expect("hard") <= ms(7_478), "{b:?}");
        let b = clock(50, 0, Some(1), 30);
        assert!(b.hard.expect("hard") <= ms(15), "{b:?}");
        // A big increment does not lift the limits beyond the clock.
        let b = clock(200, 10_000, None, 30);
        assert!(b.hard.expect("hard") <= ms(170) * 3 / 4, "{b:?}");
    }

    #[test]
    fn movetime_infinite_and_no_clock() {
        let limits = Limits { movetime: Some(ms(500)), move_overhead: ms(30), ..Limits::default() };
        let b = TimeBudget::from_limits(&limits, 1);
        assert_eq!((b.soft, b.hard), (None, Some(ms(470))));
        let limits = Limits { movetime: Some(ms(10)), move_overhead: ms(30), ..Limits::default() };
        assert_eq!(TimeBudget::from_limits(&limits, 1).hard, Some(ms(1)));
        let limits = Limits { infinite: true, clock: Some((ms(100), ms(0), None)), ..Limits::default() };
        let b = TimeBudget::from_limits(&limits, 1);
        assert!(b.soft.is_none() && b.hard.is_none() && !b.hard_exceeded(Duration::from_secs(3600)));
        let b = TimeBudget::from_limits(&Limits::default(), 1);
        assert!(!b.should_stop_iterating(Duration::from_secs(3600), 10, 0));
    }

    #[test]
    fn iterations_stop_before_the_soft_limit_is_overrun() {
        let b = clock(10_000, 0, None, 0);
        let soft = b.soft.expect("soft");
        assert!(b.should_stop_iterating(soft, 0, 0), "at the soft limit");
        assert!(!b.should_stop_iterating(soft / 4, 0, 0));
        // A stable best move stops earlier than a changing one; a falling score later.
        let t = soft * 6 / 10;
        assert!(b.should_stop_iterating(t, 3, 0) && !b.should_stop_iterating(t, 0, 0));
        let t = soft * 98 / 100;
        assert!(b.should_stop_iterating(t, 0, 0) && !b.should_stop_iterating(t, 0, 100));
    }
}
