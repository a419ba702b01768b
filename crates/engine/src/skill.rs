//! Strength levels (`UCI_LimitStrength` / `UCI_Elo`): a weaker engine that errs like a weaker human
//! rather than a random blunderer.
//!
//! A level is a `UCI_Elo` from [`MIN_ELO`] to [`MAX_ELO`] on Stockfish 15.1's `UCI_Elo` scale. A
//! calibration table measured by matches against Stockfish (docs/levels.md) turns it into an internal
//! strength `s` (1350..2850, 2850 the full engine); `t = (s - 1350) / 1500` sets the parameters. The
//! range ends at the full engine's measured `UCI_Elo` ([`MAX_ELO`]).
//! Everything here is pure: the protocol session runs the search and hands the lines over.
//!
//! - **Nodes**: the search stops after [`Skill::node_limit`] nodes, `1500 · 2^((s - 1350) / 160)`
//!   (about 7 000 at `UCI_Elo` 1350): a weaker player sees less. The full engine has no limit of its own.
//! - **Lines**: it searches [`Skill::multipv`] lines (4; 1 at full strength, which plays the best move).
//! - **Choice**: among the lines of the deepest completed iteration, a move losing at most
//!   [`Skill::margin`] centipawns against the best line is drawn with weight `exp(-loss / T)`,
//!   `T =` [`Skill::temperature`]: a weaker player more often takes a worse, but plausible, move.
//!   A move losing more than the margin is never drawn (the best line always qualifies), so a queen
//!   is not thrown away at random.
//! - **Missed tactic**: with probability [`Skill::miss_chance`] the choice is made from the lines of a
//!   shallower iteration (two plies less), with that iteration's scores: the player did not see the
//!   refutation (or the combination) that only the deeper search found. The margin then applies to
//!   what the shallow search saw.
//! - **Mates**: when the deepest iteration has a line mating us the opponent (a mate score for the
//!   side to move), the fastest such line is played: a found mate is never thrown away. Lines
//!   in which we are mated lose more than any margin, so they are drawn only when every line does.
//!
//! The draws come from a [`SkillRng`] seeded by the caller (the session mixes the game's text with a
//! per-session counter), so the same seed gives the same moves.
//!
//! [`search_at_level`] runs a search at a level (the UCI/xboard session and the web page both use it);
//! [`LevelLines`] is its record of the lines, for callers that run the search themselves.

use mysl_core::{Move, Position, Rules};

use crate::score::MATE_BOUND;
use crate::search::{Limits, SearchInfo, SearchResult, Searcher};

/// The weakest level.
pub const MIN_ELO: u32 = 1350;
/// The strongest level: the full engine, which the calibration puts at this `UCI_Elo`. Stockfish's
/// range goes on to 2850, but a level above what the full engine measures could not be honoured.
pub const MAX_ELO: u32 = FULL_ENGINE_ELO;
/// `UCI_Elo`'s default.
pub const DEFAULT_ELO: u32 = MIN_ELO;

/// The calibration: `UCI_Elo` (Stockfish 15.1's `UCI_Elo` scale, measured by matches against it,
/// docs/levels.md) to the internal strength `s` that sets the parameters. Piecewise linear; at and above
/// the last point the level is the full engine (one line, no node limit of its own).
const CALIBRATION: [(u32, u32); 5] = [(1350, 1730), (1600, 1900), (1900, 2300), (2100, 2730), (2250, FULL_STRENGTH)];
/// The `UCI_Elo` from which a level is the full engine: the calibration's last point.
pub const FULL_ENGINE_ELO: u32 = CALIBRATION[CALIBRATION.len() - 1].0;
/// The internal strength of the full engine.
const FULL_STRENGTH: u32 = 2850;
/// The internal strength's lowest value (the parameter curves start there).
const MIN_STRENGTH: u32 = 1350;

/// The parameters of one strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    elo: u32,
    /// Internal strength, [`MIN_STRENGTH`]..=[`FULL_STRENGTH`], from [`CALIBRATION`].
    strength: u32,
}

/// The internal strength for a `UCI_Elo` value (clamped to the range).
fn calibrated_strength(elo: u32) -> u32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let mut below = CALIBRATION[0];
    for point in CALIBRATION {
        if elo <= point.0 {
            if point.0 == below.0 {
                return point.1;
            }
            let f = f64::from(elo - below.0) / f64::from(point.0 - below.0);
            return (f64::from(below.1) + f * f64::from(point.1 - below.1)).round() as u32;
        }
        below = point;
    }
    FULL_STRENGTH
}

/// Which line to play: `iteration` indexes the list given to [`Skill::choose`], `line` its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub iteration: usize,
    pub line: usize,
    /// The choice came from a shallower iteration (a "missed tactic").
    pub missed: bool,
}

impl Skill {
    /// The level for `elo`, clamped to [`MIN_ELO`]..=[`MAX_ELO`].
    pub fn new(elo: u32) -> Skill {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        Skill { elo, strength: calibrated_strength(elo) }
    }

    /// The full engine: the calibration's top and above.
    pub fn is_full_strength(&self) -> bool {
        self.strength >= FULL_STRENGTH
    }

    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// 0 at the lowest internal strength, 1 at full strength.
    fn t(&self) -> f64 {
        f64::from(self.strength - MIN_STRENGTH) / f64::from(FULL_STRENGTH - MIN_STRENGTH)
    }

    /// Nodes per move: doubles every 160 points of internal strength, 1 500 at its lowest; `None` (the
    /// GUI's limits only) at full strength.
    pub fn node_limit(&self) -> Option<u64> {
        if self.is_full_strength() {
            return None;
        }
        Some((1500.0 * 2f64.powf(f64::from(self.strength - MIN_STRENGTH) / 160.0)).round() as u64)
    }

    /// Lines searched (MultiPV): 4 up to internal strength 2200, 3 up to 2450, then 2; 1 at full
    /// strength. Every line costs search depth, and near the top depth is what the level lacks: the
    /// first calibration, 4 lines throughout, left a 200-Elo step below the full engine.
    pub fn multipv(&self) -> usize {
        match self.strength {
            s if s >= FULL_STRENGTH => 1,
            s if s >= 2450 => 2,
            s if s >= 2200 => 3,
            _ => 4,
        }
    }

    /// Applies the level to a search's limits: its lines, and its node limit unless the search is
    /// `infinite` (`go infinite`, `go ponder` run until told to stop) or the caller's is smaller.
    pub fn limit(&self, limits: &mut Limits) {
        if let (false, Some(level_nodes)) = (limits.infinite, self.node_limit()) {
            limits.nodes = Some(limits.nodes.map_or(level_nodes, |n| n.min(level_nodes)));
        }
        limits.multipv = limits.multipv.max(self.multipv());
    }

    /// Softmax temperature in centipawns: 120 at the lowest internal strength, falling linearly to 0 at
    /// full strength.
    pub fn temperature(&self) -> f64 {
        120.0 * (1.0 - self.t())
    }

    /// The most a chosen move may lose against the best line, in centipawns: 300 at the lowest internal
    /// strength (about a minor piece), falling linearly to 40 just below full strength; 0 at full strength.
    pub fn margin(&self) -> i32 {
        if self.is_full_strength() {
            0
        } else {
            (40.0 + 260.0 * (1.0 - self.t())).round() as i32
        }
    }

    /// The chance that the move is chosen from a shallower iteration: 25% at the lowest internal strength,
    /// falling quadratically to 0 at full strength.
    pub fn miss_chance(&self) -> f64 {
        0.25 * (1.0 - self.t()).powi(2)
    }

    /// Chooses a line. `iterations` holds the scores (side to move's view, centipawns or mate
    /// scores) of the lines of each completed iteration, shallowest first, each in the search's
    /// MultiPV order (its best line first). Empty input, or an empty deepest iteration, gives line 0
    /// of the last iteration.
    pub fn choose(&self, iterations: &[Vec<i32>], rng: &mut SkillRng) -> Choice {
        let deepest = iterations.len().saturating_sub(1);
        let fallback = Choice { iteration: deepest, line: 0, missed: false };
        let Some(lines) = iterations.last().filter(|l| !l.is_empty()) else { return fallback };
        // A found mate is always played: the fastest one.
        if lines.iter().any(|&s| s >= MATE_BOUND) {
            return Choice { line: argmax(lines), ..fallback };
        }
        if self.is_full_strength() || lines.len() == 1 {
            return fallback;
        }
        // Draw both numbers every time, so the sequence of draws does not depend on the branch.
        let miss_draw = rng.unit();
        let pick_draw = rng.unit();
        let mut choice = fallback;
        if iterations.len() >= 2 && miss_draw < self.miss_chance() {
            let shallow = deepest.saturating_sub(2);
            if !iterations[shallow].is_empty() {
                choice = Choice { iteration: shallow, line: 0, missed: true };
            }
        }
        let lines = &iterations[choice.iteration];
        choice.line = self.pick(lines, pick_draw);
        choice
    }

    /// A line of `lines` by softmax over the loss against the best, within the margin.
    fn pick(&self, lines: &[i32], unit: f64) -> usize {
        let best = lines.iter().copied().max().unwrap_or(0);
        let temperature = self.temperature().max(1.0);
        let weights: Vec<f64> = lines
            .iter()
            .map(|&s| {
                let loss = best.saturating_sub(s);
                if loss <= self.margin() {
                    (-f64::from(loss) / temperature).exp()
                } else {
                    0.0
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = unit * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 {
                if target < *w {
                    return i;
                }
                target -= w;
            }
        }
        argmax(lines)
    }
}

/// The first index of the highest score.
fn argmax(scores: &[i32]) -> usize {
    let best = scores.iter().copied().max().unwrap_or(0);
    scores.iter().position(|&s| s == best).unwrap_or(0)
}

/// The seeded generator of the level's choices.
pub type SkillRng = mysl_core::rng::SplitMix64;

/// One iteration's lines: (depth, [(MultiPV index, score, PV)]).
type Iteration = (i32, Vec<(usize, i32, Vec<Move>)>);

/// The exact lines a search reported, by iteration, for a level's choice.
#[derive(Clone, Debug, Default)]
pub struct LevelLines {
    /// Shallowest first.
    iterations: Vec<Iteration>,
}

/// The move a level plays, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelMove {
    pub best: Move,
    pub ponder: Option<Move>,
    /// The chosen line's score (side to move's view).
    pub score: i32,
    /// The depth of the iteration the line came from.
    pub depth: i32,
    /// A one-line account of the choice, for an `info string`.
    pub note: String,
}

impl LevelLines {
    /// Records one report of the search; bounds (fail-high/low reports) and empty lines are skipped.
    pub fn record(&mut self, info: &SearchInfo) {
        if info.bound.is_some() || info.pv.is_empty() {
            return;
        }
        if self.iterations.last().is_none_or(|(d, _)| *d != info.depth) {
            self.iterations.push((info.depth, Vec::new()));
        }
        if let Some((_, lines)) = self.iterations.last_mut() {
            // A line reported again one place lower (MultiPV, a later line scored better) replaces its
            // earlier report.
            let line = (info.multipv, info.score, info.pv.clone());
            match lines.iter_mut().find(|(index, _, _)| *index == info.multipv) {
                Some(old) => *old = line,
                None => lines.push(line),
            }
        }
    }

    /// The move `skill` plays from the recorded lines: the iterations that completed every line (as
    /// many as the first), in MultiPV order. `None` if no line was recorded.
    pub fn choose(&self, skill: Skill, seed: u64) -> Option<LevelMove> {
        let width = self.iterations.first()?.1.len();
        let complete: Vec<_> = self
            .iterations
            .iter()
            .filter(|(_, l)| l.len() == width && l.iter().enumerate().all(|(i, line)| line.0 == i + 1))
            .collect();
        let scores: Vec<Vec<i32>> = complete.iter().map(|(_, l)| l.iter().map(|line| line.1).collect()).collect();
        let choice = skill.choose(&scores, &mut SkillRng::new(seed));
        let (depth, chosen) = complete.get(choice.iteration)?;
        let (_, score, pv) = chosen.get(choice.line)?;
        let shown = match crate::score::mate_in(*score) {
            Some(n) => format!("mate {n}"),
            None => format!("{score} cp"),
        };
        let note = format!(
            "UCI_Elo {}: line {} of {width} at depth {depth}{} ({shown})",
            skill.elo(),
            choice.line + 1,
            if choice.missed { ", from a shallower search (missed tactic)" } else { "" },
        );
        Some(LevelMove { best: *pv.first()?, ponder: pv.get(1).copied(), score: *score, depth: *depth, note })
    }
}

/// Searches `pos` at the level `skill`: the level's limits on top of `limits`, every exact line kept,
/// and the level's choice among them (seeded by `seed`) as the result's move, ponder move and score.
/// `on_info` sees every report of the search. Returns the result and the note on the choice.
/// A level below full strength always evaluates with the hand-crafted evaluation, the one its Elo was
/// calibrated with (docs/levels.md); the searcher's network is put back afterwards.
pub fn search_at_level<R: Rules>(
    searcher: &mut Searcher<R>,
    pos: &Position<R>,
    limits: &Limits,
    skill: Skill,
    seed: u64,
    mut on_info: impl FnMut(&SearchInfo),
) -> (SearchResult, Option<String>) {
    let mut limits = limits.clone();
    skill.limit(&mut limits);
    // Taken out for the search and put back (a level's search allocates one accumulator stack; no cost per node).
    let network = searcher.network().cloned().filter(|_| !skill.is_full_strength());
    if network.is_some() {
        searcher.set_network(None);
    }
    let mut lines = LevelLines::default();
    let mut result = searcher.search(pos, &limits, |info| {
        lines.record(info);
        on_info(info);
    });
    if network.is_some() {
        searcher.set_network(network);
    }
    match lines.choose(skill, seed) {
        Some(chosen) => {
            (result.best, result.ponder, result.score, result.depth) =
                (Some(chosen.best), chosen.ponder, chosen.score, chosen.depth);
            (result, Some(chosen.note))
        }
        None => (result, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE_SCORE;

    #[test]
    fn parameters_are_monotonic_in_elo() {
        let mut last = Skill::new(MIN_ELO);
        assert!(!last.is_full_strength());
        for elo in (MIN_ELO + 10..=MAX_ELO).step_by(10) {
            let s = Skill::new(elo);
            assert!(s.strength >= last.strength, "{elo}");
            if s.is_full_strength() {
                assert_eq!((s.node_limit(), s.multipv(), s.margin(), s.miss_chance()), (None, 1, 0, 0.0), "{elo}");
            } else {
                assert!(s.node_limit() > last.node_limit(), "{elo}");
                assert!(s.temperature() < last.temperature(), "{elo}");
                assert!(s.margin() <= last.margin(), "{elo}");
                assert!(s.miss_chance() <= last.miss_chance(), "{elo}");
            }
            last = s;
        }
        assert!(Skill::new(MAX_ELO).is_full_strength());
        assert_eq!(Skill::new(0), Skill::new(MIN_ELO));
        assert_eq!(Skill::new(9999), Skill::new(MAX_ELO));
    }

    #[test]
    fn calibration_interpolates_between_its_points() {
        for (elo, strength) in CALIBRATION {
            assert_eq!(calibrated_strength(elo), strength);
        }
        let (a, b) = (CALIBRATION[0], CALIBRATION[1]);
        let mid = calibrated_strength((a.0 + b.0) / 2);
        assert!(mid.abs_diff((a.1 + b.1) / 2) <= 1, "{mid}");
        // The internal strength at MIN_ELO is the curve's value there: the parameters it gives.
        let low = Skill::new(MIN_ELO);
        assert_eq!(low.node_limit(), Some((1500.0 * 2f64.powf(f64::from(a.1 - MIN_STRENGTH) / 160.0)).round() as u64));
        assert!(low.margin() < 300 && low.margin() > 200, "{}", low.margin());
    }

    #[test]
    fn max_elo_always_plays_the_best_line() {
        let skill = Skill::new(MAX_ELO);
        let mut rng = SkillRng::new(1);
        for _ in 0..1000 {
            let c = skill.choose(&[vec![30, 25], vec![40, 39, 38, 10]], &mut rng);
            assert_eq!(c, Choice { iteration: 1, line: 0, missed: false });
        }
    }

    #[test]
    fn low_elo_prefers_better_moves_and_keeps_to_the_margin() {
        let skill = Skill::new(MIN_ELO);
        let margin = skill.margin();
        // best, a bit worse, worse, beyond the margin
        let deep = vec![50, 20, -60, 50 - margin - 1];
        let iterations = vec![deep.clone()];
        let mut counts = [0usize; 4];
        let mut rng = SkillRng::new(42);
        for _ in 0..10_000 {
            let c = skill.choose(&iterations, &mut rng);
            assert!(!c.missed, "one iteration: nothing shallower to miss with");
            counts[c.line] += 1;
        }
        assert_eq!(counts[3], 0, "beyond the margin: {counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, "{counts:?}");
        // 50 vs 20 at T = 99.5 (internal strength 1606): weights 1, 0.74, 0.33; the best about 48% of the time.
        assert!((4300..5300).contains(&counts[0]), "{counts:?}");
    }

    #[test]
    fn all_lines_beyond_the_margin_still_gives_a_move() {
        // Every line but the best loses a lot: the best is played.
        let skill = Skill::new(MIN_ELO);
        let mut rng = SkillRng::new(3);
        for _ in 0..100 {
            assert_eq!(skill.choose(&[vec![-200, -900, -MATE_SCORE + 5]], &mut rng).line, 0);
        }
        // Every line is mated: still a line.
        let c = skill.choose(&[vec![-MATE_SCORE + 4, -MATE_SCORE + 2]], &mut rng);
        assert_eq!(c.line, 0);
    }

    #[test]
    fn a_found_mate_is_taken() {
        let skill = Skill::new(MIN_ELO);
        let mut rng = SkillRng::new(7);
        for _ in 0..1000 {
            let c = skill.choose(&[vec![100, 90, 80, 70], vec![300, MATE_SCORE - 5, MATE_SCORE - 3, 280]], &mut rng);
            assert_eq!(c, Choice { iteration: 1, line: 2, missed: false });
        }
    }

    #[test]
    fn low_elo_sometimes_misses_a_tactic() {
        // The deep search finds that line 2 wins a piece; the shallow one did not see it.
        let skill = Skill::new(MIN_ELO);
        let iterations = vec![vec![20, 10, 0, -10], vec![25, 15, 5, -5], vec![30, 20, 10, 0], vec![350, 40, 30, 20]];
        let chance = skill.miss_chance();
        let mut rng = SkillRng::new(11);
        let (mut missed, mut found) = (0, 0);
        for _ in 0..10_000 {
            let c = skill.choose(&iterations, &mut rng);
            if c.missed {
                assert_eq!(c.iteration, 1);
                missed += 1;
            } else {
                assert_eq!(c, Choice { iteration: 3, line: 0, missed: false }, "only line 0 is within the margin");
                found += 1;
            }
        }
        let expected = chance * 10_000.0;
        assert!((f64::from(missed) - expected).abs() < 300.0, "{missed} {found} (chance {chance})");
        // A strong level hardly ever misses.
        let strong = Skill::new(2240);
        let misses = (0..10_000).filter(|_| strong.choose(&iterations, &mut rng).missed).count();
        assert!(misses < 20, "{misses}");
    }

    #[test]
    fn the_same_seed_gives_the_same_choices() {
        let skill = Skill::new(1600);
        let iterations = vec![vec![20, 10, 0, -10], vec![30, 25, 5, -40]];
        let run = |seed| {
            let mut rng = SkillRng::new(seed);
            (0..50).map(|_| skill.choose(&iterations, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn a_level_plays_with_the_hand_crafted_evaluation_and_keeps_the_network() {
        use crate::tt::TranspositionTable;
        use mysl_nnue::{testing::random_network, Network};
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let pos = mysl_core::Chess::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("fen");
        let limits = Limits { depth: Some(5), ..Limits::default() };
        let net = Arc::new(Network::from_bytes(&random_network(32, 7)).expect("valid"));
        let run = |network: Option<Arc<Network>>, skill: Skill| {
            let mut s = Searcher::<mysl_core::Orthodox>::new(
                Arc::new(TranspositionTable::new(1)),
                Arc::new(AtomicBool::new(false)),
            );
            s.set_network(network);
            let (r, _) = search_at_level(&mut s, &pos, &limits, skill, 3, |_| {});
            (r.best, r.score, r.nodes, s.network().map(|n| n.hidden()))
        };
        let level = Skill::new(1600);
        let with_net = run(Some(net.clone()), level);
        let without = run(None, level);
        assert_eq!(with_net.3, Some(32), "the searcher's network is put back");
        assert_eq!(without.3, None);
        assert_eq!((with_net.0, with_net.1, with_net.2), (without.0, without.1, without.2));
        // At full strength the network plays: the random network's tree differs from the evaluation's.
        let full = Skill::new(MAX_ELO);
        assert!(full.is_full_strength());
        assert_ne!(run(Some(net), full).2, run(None, full).2);
    }
}
