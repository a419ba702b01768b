//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! Tapered between middlegame and endgame weights by the remaining non-pawn material. Terms: material,
//! piece-square tables, pawn structure (passed, isolated, doubled, connected; cached in a pawn hash),
//! mobility, king safety (pawn shield, attacks on the king zone), bishop pair, rooks on open files and the
//! seventh rank. The weights live in [`Weights`] so a tuner can fit them; the defaults are hand-set
//! starting values until `mysl tune` has fitted them.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color, File, Position, Rank, Role, Rules, Square, Variant};

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Every evaluation weight.
#[derive(Clone, Debug)]
pub struct Weights {
    pub material: [Score; 6],
    /// Piece-square tables from White's side, a1 = 0.
    pub pst: [[Score; 64]; 6],
    pub passed: [Score; 8],
    pub isolated: Score,
    pub doubled: Score,
    pub connected: Score,
    pub mobility: [Score; 6],
    pub bishop_pair: Score,
    pub rook_open: Score,
    pub rook_half_open: Score,
    pub rook_seventh: Score,
    pub shield: Score,
    pub king_attack: [i32; 6],
    pub tempo: i32,
}

fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = (2 * f - 7).abs();
    let dr = (2 * r - 7).abs();
    (df + dr) / 2
}

impl Default for Weights {
    fn default() -> Weights {
        let mut pst = [[Score(0, 0); 64]; 6];
        for sq in Square::ALL {
            let i = sq as usize;
            let c = centre_distance(sq);
            let f = sq.file() as i32;
            let r = sq.rank() as i32;
            let central_file = 3 - (2 * f - 7).abs() / 2;
            pst[Role::Pawn as usize][i] = if r == 0 || r == 7 {
                Score(0, 0)
            } else {
                Score(central_file * (r - 1) * 3 + (r - 1) * 2, (r - 1) * 8)
            };
            pst[Role::Knight as usize][i] = Score(24 - 8 * c, 18 - 6 * c);
            pst[Role::Bishop as usize][i] = Score(12 - 4 * c, 10 - 3 * c);
            pst[Role::Rook as usize][i] = Score(if r == 6 { 10 } else { 0 } + central_file * 2, 0);
            pst[Role::Queen as usize][i] = Score(6 - 2 * c, 12 - 4 * c);
            let king_mg = match (r, f) {
                (0, 0..=2) | (0, 6..=7) => 20,
                (0, _) => 0,
                (1, _) => -10,
                _ => -30 - 5 * r,
            };
            pst[Role::King as usize][i] = Score(king_mg, 30 - 10 * c);
        }
        Weights {
            material: [
                Score(100, 125),
                Score(330, 310),
                Score(345, 330),
                Score(480, 550),
                Score(980, 1020),
                Score(0, 0),
            ],
            pst,
            passed: [
                Score(0, 0),
                Score(5, 10),
                Score(8, 16),
                Score(15, 30),
                Score(30, 55),
                Score(55, 95),
                Score(90, 150),
                Score(0, 0),
            ],
            isolated: Score(-12, -15),
            doubled: Score(-10, -25),
            connected: Score(6, 8),
            mobility: [Score(0, 0), Score(4, 4), Score(5, 5), Score(2, 4), Score(1, 2), Score(0, 0)],
            bishop_pair: Score(30, 50),
            rook_open: Score(25, 10),
            rook_half_open: Score(12, 6),
            rook_seventh: Score(10, 20),
            shield: Score(12, 0),
            king_attack: [0, 8, 8, 12, 20, 0],
            tempo: 10,
        }
    }
}

/// Phase weights: knights and bishops 1, rooks 2, queens 4; 24 = the start position.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Pawn-structure cache entry.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: Score,
}

/// The evaluator: weights plus a pawn hash table.
pub struct Evaluator {
    pub weights: Weights,
    pawn_table: Vec<PawnEntry>,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator").field("pawn_entries", &self.pawn_table.len()).finish()
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(Weights::default())
    }
}

fn files_adjacent(file: File) -> Bitboard {
    let f = file as i32;
    let mut b = Bitboard::EMPTY;
    if f > 0 {
        b |= Bitboard::file(File::ALL[(f - 1) as usize]);
    }
    if f < 7 {
        b |= Bitboard::file(File::ALL[(f + 1) as usize]);
    }
    b
}

/// Squares in front of `sq` (from `color`'s side) on its file and the adjacent files.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = files_adjacent(sq.file()) | Bitboard::file(sq.file());
    let r = sq.rank() as u32;
    let ahead = match color {
        Color::White => {
            if r >= 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Black => {
            if r == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - r))
            }
        }
    };
    files & Bitboard(ahead)
}

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights, pawn_table: vec![PawnEntry::default(); 1 << 14] }
    }

    pub fn clear(&mut self) {
        self.pawn_table.iter_mut().for_each(|e| *e = PawnEntry::default());
    }

    fn pawns(&mut self, board: &mysl_core::Board, pawn_key: u64) -> PawnEntry {
        let idx = (pawn_key as usize) & (self.pawn_table.len() - 1);
        let e = self.pawn_table[idx];
        if e.key == pawn_key && pawn_key != 0 {
            return e;
        }
        let w = &self.weights;
        let mut score = Score(0, 0);
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            let ours = board.pawns() & board.by_color(color);
            let theirs = board.pawns() & board.by_color(!color);
            let mut s = Score(0, 0);
            for sq in ours {
                let file = sq.file();
                let rel_rank = color.relative_rank(sq.rank()) as usize;
                if (files_adjacent(file) & ours).is_empty() {
                    s += w.isolated;
                }
                if (front_span(color, sq) & Bitboard::file(file) & ours).any() {
                    s += w.doubled;
                }
                if (attacks::pawn_attacks(!color, sq) & ours).any() || (Bitboard(sq_neighbours(sq)) & ours).any() {
                    s += w.connected;
                }
                if (front_span(color, sq) & theirs).is_empty()
                    && (front_span(color, sq) & Bitboard::file(file) & ours).is_empty()
                {
                    s += w.passed[rel_rank];
                }
            }
            score += s * sign;
        }
        let entry = PawnEntry { key: pawn_key, score };
        self.pawn_table[idx] = entry;
        entry
    }

    /// The evaluation of `pos` for the side to move.
    pub fn evaluate<R: Rules>(&mut self, pos: &Position<R>) -> i32 {
        let board = pos.board();
        let w = &self.weights;
        let mut score = Score(0, 0);
        let mut phase = 0;
        let occ = board.occupied();
        let mut king_danger = [0i32; 2];

        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            let ours = board.by_color(color);
            let their_king = (board.kings() & board.by_color(!color)).first();
            let king_zone = their_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k) | k);
            let mut s = Score(0, 0);
            let mut attackers = 0;
            for role in Role::ALL {
                for sq in board.by_role(role) & ours {
                    let rel = if color == Color::White { sq } else { sq.flip_vertical() };
                    s += w.material[role as usize] + w.pst[role as usize][rel as usize];
                    phase += PHASE[role as usize];
                    let att = match role {
                        Role::Knight => attacks::knight_attacks(sq),
                        Role::Bishop => attacks::bishop_attacks(sq, occ),
                        Role::Rook => attacks::rook_attacks(sq, occ),
                        Role::Queen => attacks::queen_attacks(sq, occ),
                        _ => Bitboard::EMPTY,
                    };
                    if att.any() {
                        s += w.mobility[role as usize] * (att - ours).count() as i32;
                        if (att & king_zone).any() {
                            attackers += 1;
                            king_danger[(!color) as usize] +=
                                w.king_attack[role as usize] * (att & king_zone).count() as i32;
                        }
                    }
                    if role == Role::Rook {
                        let file = Bitboard::file(sq.file());
                        if (file & board.pawns()).is_empty() {
                            s += w.rook_open;
                        } else if (file & board.pawns() & ours).is_empty() {
                            s += w.rook_half_open;
                        }
                        if color.relative_rank(sq.rank()) == Rank::Seventh {
                            s += w.rook_seventh;
                        }
                    }
                }
            }
            if (board.bishops() & ours).more_than_one() {
                s += w.bishop_pair;
            }
            // Pawn shield: own pawns on the king's and adjacent files, one or two ranks ahead.
            if let Some(k) = (board.kings() & ours).first() {
                let r = k.rank() as i32;
                let (r1, r2) = if color == Color::White { (r + 1, r + 2) } else { (r - 1, r - 2) };
                let ranks = [r1, r2]
                    .iter()
                    .filter_map(|&x| Rank::new(x as u32).filter(|_| x >= 0))
                    .fold(Bitboard::EMPTY, |b, rank| b | Bitboard::rank(rank));
                let near = front_span(color, k) & ranks & board.pawns() & ours;
                s += w.shield * near.count().min(3) as i32;
            }
            if attackers < 2 {
                king_danger[(!color) as usize] /= 2;
            }
            score += s * sign;
        }
        let pawns = self.pawns(board, pos.pawn_key());
        score += pawns.score;
        // King danger counts in the middlegame, quadratically in the attack weight.
        for color in Color::ALL {
            let d = king_danger[color as usize];
            let penalty = d * d / 64;
            let sign = if color == Color::White { -1 } else { 1 };
            score += Score(penalty * sign, 0);
        }

        let phase = phase.min(MAX_PHASE);
        let mut v = (score.0 * phase + score.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        v = variant_adjust::<R>(pos, v);
        let v = if pos.turn() == Color::White { v } else { -v };
        v + self.weights.tempo
    }
}

fn sq_neighbours(sq: Square) -> u64 {
    let b = Bitboard::from_square(sq);
    (b.east() | b.west()).0
}

/// Variant terms on top of the orthodox evaluation (White's point of view).
fn variant_adjust<R: Rules>(pos: &Position<R>, v: i32) -> i32 {
    let board = pos.board();
    match R::VARIANT {
        Variant::Antichess | Variant::AntichessNoEp => {
            // Losing material is the goal: fewer pieces is better; mobility still matters a little.
            let count = |c: Color| board.by_color(c).count() as i32;
            (count(Color::Black) - count(Color::White)) * 100
        }
        Variant::ThreeCheck => {
            let checks = pos.state_remaining_checks();
            v + (checks[1] as i32 - checks[0] as i32) * 250
        }
        Variant::Extinction => {
            // Being down to the last piece of a type is dangerous.
            let mut adj = 0;
            for color in Color::ALL {
                let sign = if color == Color::White { 1 } else { -1 };
                for role in Role::ALL {
                    if (board.by_role(role) & board.by_color(color)).count() == 1 {
                        adj -= sign * 60;
                    }
                }
            }
            v + adj
        }
        _ => v,
    }
}

/// Extension trait: variant state accessors the evaluator needs.
trait StateAccess {
    fn state_remaining_checks(&self) -> [u8; 2];
}

impl<R: Rules> StateAccess for Position<R> {
    fn state_remaining_checks(&self) -> [u8; 2] {
        use mysl_core::VariantState;
        self.state().remaining_checks()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mysl_core::Chess;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let mut e = Evaluator::default();
        let start = Chess::startpos();
        assert_eq!(e.evaluate(&start), e.weights.tempo);
        // Mirrored positions evaluate the same for the side to move.
        let a = Chess::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let b = Chess::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3").unwrap();
        assert_eq!(e.evaluate(&a), e.evaluate(&b));
    }

    #[test]
    fn material_counts() {
        let mut e = Evaluator::default();
        let up_a_queen = Chess::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(e.evaluate(&up_a_queen) > 700);
    }
}
