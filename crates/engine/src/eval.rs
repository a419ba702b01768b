//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! Tapered between middlegame and endgame weights by the remaining non-pawn material. Terms: material,
//! piece-square tables, pawn structure (passed, isolated, doubled, connected, backward, candidate; cached
//! in a pawn hash with the passed pawns), safe mobility (a table per piece and square count), threats
//! (pieces attacked by pawns, minors and rooks; hanging pieces), passed pawns against the kings (king
//! distances, blocked, free path), king safety (pawn shield, attacks on the king zone), bishop pair, outposts,
//! rooks on open files and the seventh rank. Every linear weight is a parameter in [`Weights::params`]; the evaluation walks the
//! position once through an [`Accumulator`], which either sums weights (play) or records how often each
//! parameter occurs (a [`Trace`], for the Texel tuner in `mysl tune`).

use mysl_core::attacks;
use mysl_core::variants as geometry;
use mysl_core::{Bitboard, Board, Color, File, Position, Rank, Role, Rules, Square, Variant};

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
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

// Parameter layout (each a middlegame/endgame pair).
pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 6;
pub const PASSED: usize = PST + 6 * 64;
pub const ISOLATED: usize = PASSED + 8;
pub const DOUBLED: usize = ISOLATED + 1;
pub const CONNECTED: usize = DOUBLED + 1;
pub const BISHOP_PAIR: usize = CONNECTED + 1;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
pub const ROOK_SEVENTH: usize = ROOK_HALF_OPEN + 1;
pub const SHIELD: usize = ROOK_SEVENTH + 1;
pub const BACKWARD: usize = SHIELD + 1;
/// By relative rank.
pub const CANDIDATE: usize = BACKWARD + 1;
/// Knight, bishop.
pub const OUTPOST: usize = CANDIDATE + 8;
/// Enemy pieces attacked by our pawns, by the victim's role.
pub const THREAT_BY_PAWN: usize = OUTPOST + 2;
/// Enemy pieces attacked by our knights or bishops, by the victim's role (pawns only when undefended).
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
/// Enemy pieces attacked by our rooks, by the victim's role (pawns and minors only when undefended).
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// Enemy pieces (not pawns, not the king) that we attack and they do not defend.
pub const HANGING: usize = THREAT_BY_ROOK + 6;
/// Passed pawns, by relative rank, times the Chebyshev distance of the enemy king to the stop square.
pub const PASSED_THEIR_KING: usize = HANGING + 1;
/// Passed pawns, by relative rank, times the distance of our king to the stop square.
pub const PASSED_OUR_KING: usize = PASSED_THEIR_KING + 8;
/// Passed pawns whose stop square is occupied, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED_OUR_KING + 8;
/// Passed pawns whose way to promotion is free of enemy pieces and enemy attacks, by relative rank.
pub const PASSED_FREE: usize = PASSED_BLOCKED + 8;
/// King danger by attack units on the king (zone attacks weighted by role, safe checks), in steps of
/// [`KING_DANGER_STEP`] units: the value for the king's side.
pub const KING_DANGER: usize = PASSED_FREE + 8;
pub const KING_DANGER_STEP: i32 = 8;
const KING_DANGER_SIZE: usize = 32;
/// Mobility by the number of safe squares (not own pawns or king, not attacked by enemy pawns): a table
/// per piece, knight 0..=8, bishop 0..=13, rook 0..=14, queen 0..=27.
pub const MOBILITY_TABLE: usize = KING_DANGER + KING_DANGER_SIZE;
const MOBILITY_OFFSET: [usize; 6] = [0, 0, 9, 9 + 14, 9 + 14 + 15, 0];
const MOBILITY_MAX: [usize; 6] = [0, 8, 13, 14, 27, 0];
/// Number of tunable parameters (pairs).
pub const N_PARAMS: usize = MOBILITY_TABLE + 9 + 14 + 15 + 28;

/// Names of the parameters, for the tuner's output.
pub fn param_name(i: usize) -> String {
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    match i {
        i if i < PST => format!("material {}", ROLES[i - MATERIAL]),
        i if i < PASSED => format!("pst {} {}", ROLES[(i - PST) / 64], Square::ALL[(i - PST) % 64]),
        i if i < ISOLATED => format!("passed rank {}", i - PASSED + 1),
        ISOLATED => "isolated".into(),
        DOUBLED => "doubled".into(),
        CONNECTED => "connected".into(),
        BISHOP_PAIR => "bishop pair".into(),
        ROOK_OPEN => "rook open file".into(),
        ROOK_HALF_OPEN => "rook half-open file".into(),
        ROOK_SEVENTH => "rook seventh".into(),
        SHIELD => "pawn shield".into(),
        BACKWARD => "backward".into(),
        i if (CANDIDATE..OUTPOST).contains(&i) => format!("candidate rank {}", i - CANDIDATE + 1),
        OUTPOST => "outpost knight".into(),
        i if i == OUTPOST + 1 => "outpost bishop".into(),
        i if i < THREAT_BY_MINOR => format!("threat by pawn on {}", ROLES[i - THREAT_BY_PAWN]),
        i if i < THREAT_BY_ROOK => format!("threat by minor on {}", ROLES[i - THREAT_BY_MINOR]),
        i if i < HANGING => format!("threat by rook on {}", ROLES[i - THREAT_BY_ROOK]),
        HANGING => "hanging".into(),
        i if i < PASSED_OUR_KING => format!("passed rank {} their king distance", i - PASSED_THEIR_KING + 1),
        i if i < PASSED_BLOCKED => format!("passed rank {} our king distance", i - PASSED_OUR_KING + 1),
        i if i < PASSED_FREE => format!("passed rank {} blocked", i - PASSED_BLOCKED + 1),
        i if i < KING_DANGER => format!("passed rank {} free", i - PASSED_FREE + 1),
        i if i < MOBILITY_TABLE => format!("king danger {}", (i - KING_DANGER) as i32 * KING_DANGER_STEP),
        i if i < N_PARAMS => {
            let k = i - MOBILITY_TABLE;
            let role = (1..5).rev().find(|&r| k >= MOBILITY_OFFSET[r]).unwrap_or(1);
            format!("mobility {} {}", ROLES[role], k - MOBILITY_OFFSET[role])
        }
        _ => "?".into(),
    }
}

/// Every evaluation weight.
#[derive(Clone, Debug)]
pub struct Weights {
    /// The tunable pairs, indexed by the constants above (PSTs from White's side, a1 = 0).
    pub params: Vec<Score>,
    /// King-zone attack units per attacking role; the units index the tuned [`KING_DANGER`] table.
    pub king_attack: [i32; 6],
    /// Units for a safe check by each role (a square that checks, reachable, not defended).
    pub safe_check: [i32; 6],
    pub tempo: i32,
}

fn centre_distance(sq: Square) -> i32 {
    let df = (2 * sq.file() as i32 - 7).abs();
    let dr = (2 * sq.rank() as i32 - 7).abs();
    (df + dr) / 2
}

impl Weights {
    /// Hand-set starting values (what the tuner starts from).
    pub fn initial() -> Weights {
        let mut p = vec![Score(0, 0); N_PARAMS];
        let material =
            [Score(100, 125), Score(330, 310), Score(345, 330), Score(480, 550), Score(980, 1020), Score(0, 0)];
        p[MATERIAL..MATERIAL + 6].copy_from_slice(&material);
        for sq in Square::ALL {
            let i = sq as usize;
            let c = centre_distance(sq);
            let f = sq.file() as i32;
            let r = sq.rank() as i32;
            let central_file = 3 - (2 * f - 7).abs() / 2;
            p[PST + i] = if r == 0 || r == 7 {
                Score(0, 0)
            } else {
                Score(central_file * (r - 1) * 3 + (r - 1) * 2, (r - 1) * 8)
            };
            p[PST + 64 + i] = Score(24 - 8 * c, 18 - 6 * c);
            p[PST + 128 + i] = Score(12 - 4 * c, 10 - 3 * c);
            p[PST + 192 + i] = Score(if r == 6 { 10 } else { 0 } + central_file * 2, 0);
            p[PST + 256 + i] = Score(6 - 2 * c, 12 - 4 * c);
            let king_mg = match (r, f) {
                (0, 0..=2) | (0, 6..=7) => 20,
                (0, _) => 0,
                (1, _) => -10,
                _ => -30 - 5 * r,
            };
            p[PST + 320 + i] = Score(king_mg, 30 - 10 * c);
        }
        let passed = [(0, 0), (5, 10), (8, 16), (15, 30), (30, 55), (55, 95), (90, 150), (0, 0)];
        for (k, (m, e)) in passed.iter().enumerate() {
            p[PASSED + k] = Score(*m, *e);
        }
        p[ISOLATED] = Score(-12, -15);
        p[DOUBLED] = Score(-10, -25);
        p[CONNECTED] = Score(6, 8);
        p[BISHOP_PAIR] = Score(30, 50);
        p[ROOK_OPEN] = Score(25, 10);
        p[ROOK_HALF_OPEN] = Score(12, 6);
        p[ROOK_SEVENTH] = Score(10, 20);
        p[SHIELD] = Score(12, 0);
        p[BACKWARD] = Score(-8, -10);
        let candidate = [(0, 0), (2, 5), (3, 7), (6, 12), (12, 25), (20, 40), (0, 0), (0, 0)];
        for (k, (m, e)) in candidate.iter().enumerate() {
            p[CANDIDATE + k] = Score(*m, *e);
        }
        p[OUTPOST] = Score(25, 15);
        p[OUTPOST + 1] = Score(12, 6);
        let victim = [0, 1, 1, 2, 3, 0];
        for r in 0..5 {
            p[THREAT_BY_PAWN + r] = if r == 0 { Score(0, 0) } else { Score(30 + 15 * victim[r], 20 + 10 * victim[r]) };
            p[THREAT_BY_MINOR + r] = Score(5 + 15 * victim[r], 15 + 10 * victim[r]);
            p[THREAT_BY_ROOK + r] = Score(5 + 10 * victim[r], 15 + 10 * victim[r]);
        }
        p[HANGING] = Score(30, 20);
        for r in 1..7 {
            let w = (r as i32 - 1) * (r as i32 - 1);
            p[PASSED_THEIR_KING + r] = Score(0, 2 * w);
            p[PASSED_OUR_KING + r] = Score(0, -w);
            p[PASSED_BLOCKED + r] = Score(-w, -2 * w);
            p[PASSED_FREE + r] = Score(w, 3 * w);
        }
        for u in 0..KING_DANGER_SIZE {
            // Saturates: the highest steps are rare, so their fitted values stay near these.
            let d = (u as i32 * KING_DANGER_STEP).min(160);
            p[KING_DANGER + u] = Score(-d * d / 64, -d / 4);
        }
        // Mobility: a curve through 0 at a typical number of squares, steeper at the low end.
        let slope = [0, 6, 5, 3, 2, 0];
        for role in 1..5 {
            let max = MOBILITY_MAX[role] as i32;
            for n in 0..=max {
                let x = n - max / 2;
                let v = if x < 0 { 2 * slope[role] * x } else { slope[role] * x };
                p[MOBILITY_TABLE + MOBILITY_OFFSET[role] + n as usize] = Score(v, v);
            }
        }
        Weights { params: p, king_attack: [0, 8, 8, 12, 20, 0], safe_check: [0, 12, 8, 12, 10, 0], tempo: 10 }
    }
}

impl Default for Weights {
    /// The fitted weights (`crate::tuned`) when present, else the initial ones.
    fn default() -> Weights {
        crate::tuned::weights().unwrap_or_else(Weights::initial)
    }
}

/// Receives each occurrence of a parameter: `count` times, positive for White.
pub trait Accumulator {
    fn add(&mut self, param: usize, count: i32);
}

struct Sum<'a> {
    params: &'a [Score],
    total: Score,
}

impl Accumulator for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.total += self.params[param] * count;
    }
}

/// How often each parameter occurs in a position (White minus Black), plus what is not tuned.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub terms: Vec<(u16, i16)>,
    /// Game phase, 0 (bare kings and pawns) … 24 (all pieces).
    pub phase: i32,
    /// The untuned part (variant terms), White's point of view, already tapered.
    pub fixed: i32,
}

impl Accumulator for Trace {
    fn add(&mut self, param: usize, count: i32) {
        if count != 0 {
            match self.terms.iter_mut().find(|(p, _)| *p as usize == param) {
                Some(t) => t.1 += count as i16,
                None => self.terms.push((param as u16, count as i16)),
            }
        }
    }
}

/// Phase weights: knights and bishops 1, rooks 2, queens 4; 24 = the start position.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: Score,
    passed: [Bitboard; 2],
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
        Color::White if r < 7 => !0u64 << (8 * (r + 1)),
        Color::Black if r > 0 => !0u64 >> (8 * (8 - r)),
        _ => 0,
    };
    files & Bitboard(ahead)
}

/// Pawn-structure terms (depend on pawns only, so they are cached by the pawn key).
fn pawn_terms<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.pawns() & board.by_color(color);
        let theirs = board.pawns() & board.by_color(!color);
        for sq in ours {
            let file = sq.file();
            let rel_rank = color.relative_rank(sq.rank()) as usize;
            if (files_adjacent(file) & ours).is_empty() {
                acc.add(ISOLATED, sign);
            }
            let ahead_on_file = front_span(color, sq) & Bitboard::file(file);
            if (ahead_on_file & ours).any() {
                acc.add(DOUBLED, sign);
            }
            let side_by_side = Bitboard::from_square(sq).east() | Bitboard::from_square(sq).west();
            if (attacks::pawn_attacks(!color, sq) & ours).any() || (side_by_side & ours).any() {
                acc.add(CONNECTED, sign);
            }
            let passed = (front_span(color, sq) & theirs).is_empty() && (ahead_on_file & ours).is_empty();
            if passed {
                acc.add(PASSED + rel_rank, sign);
            }
            // Own pawns on the adjacent files level with or behind this one: they can defend or support it.
            let behind_or_level = !(front_span(color, sq) & files_adjacent(file)) & files_adjacent(file);
            let supporters = behind_or_level & ours;
            let stop = if color == Color::White { sq.offset(8) } else { sq.offset(-8) };
            if supporters.is_empty() && stop.is_some_and(|s| (attacks::pawn_attacks(color, s) & theirs).any()) {
                acc.add(BACKWARD, sign);
            }
            // A candidate: not passed, no enemy pawn ahead on its file, at least as many helpers as sentries.
            if !passed && (ahead_on_file & (ours | theirs)).is_empty() {
                let sentries = front_span(color, sq) & files_adjacent(file) & theirs;
                if supporters.count() >= sentries.count() {
                    acc.add(CANDIDATE + rel_rank, sign);
                }
            }
        }
    }
}

/// Squares the pawns of `color` attack under the rules `R` (Berolina pawns capture straight ahead,
/// Cylinder pawns capture across the a/h edge).
fn pawn_attack_span<R: Rules>(color: Color, pawns: Bitboard) -> Bitboard {
    let forward = if color == Color::White { pawns.north() } else { pawns.south() };
    match R::VARIANT {
        Variant::Berolina => forward,
        Variant::Cylinder => {
            let across_h = Bitboard((forward & Bitboard::file(File::H)).0 >> 7);
            let across_a = Bitboard((forward & Bitboard::file(File::A)).0 << 7);
            forward.east() | forward.west() | across_h | across_a
        }
        _ => forward.east() | forward.west(),
    }
}

fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs().max((a.rank() as i32 - b.rank() as i32).abs())
}

/// Our passed pawns (no enemy pawn ahead on its file or the adjacent files, no own pawn ahead on its file).
fn passed_pawns(board: &Board, color: Color) -> Bitboard {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let span = front_span(color, sq);
        if (span & theirs).is_empty() && (span & Bitboard::file(sq.file()) & ours).is_empty() {
            passed.set(sq);
        }
    }
    passed
}

/// Everything but the pawn structure; returns the phase. Attacks follow the geometry of the rules `R`
/// (Cylinder wraps, Berolina pawns, Knight Relay's knights that attack nothing but lend their leap);
/// for orthodox chess every geometry choice is resolved at compile time.
fn piece_terms<R: Rules, A: Accumulator>(board: &Board, acc: &mut A, weights: &Weights, passed: [Bitboard; 2]) -> i32 {
    let relay = matches!(R::VARIANT, Variant::KnightRelay);
    let king_attack = &weights.king_attack;
    let occ = board.occupied();
    let mut phase = 0;
    let mut king_danger = [0i32; 2];
    // Squares attacked by each side: by pawns, by minors, by rooks, by anything.
    let pawn_att = [Color::White, Color::Black].map(|c| pawn_attack_span::<R>(c, board.pawns() & board.by_color(c)));
    let mut minor_att = [Bitboard::EMPTY; 2];
    let mut rook_att = [Bitboard::EMPTY; 2];
    let mut all_att = pawn_att;
    let mut role_att = [[Bitboard::EMPTY; 6]; 2];
    let mut zone_attackers = [0i32; 2];
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.by_color(color);
        let their_king = (board.kings() & board.by_color(!color)).first();
        let king_zone = their_king.map_or(Bitboard::EMPTY, |k| geometry::king_attacks::<R>(k) | k);
        let relayed = if relay { geometry::relayed_pieces(board, color) } else { Bitboard::EMPTY };
        let mobility_area = !(ours & (board.pawns() | board.kings())) & !pawn_att[!color as usize];
        let mut attackers = 0;
        let mut danger = 0;
        for role in Role::ALL {
            for sq in board.by_role(role) & ours {
                let rel = if color == Color::White { sq } else { sq.flip_vertical() };
                acc.add(MATERIAL + role as usize, sign);
                acc.add(PST + 64 * role as usize + rel as usize, sign);
                phase += PHASE[role as usize];
                let mut att = match role {
                    Role::Knight if relay => Bitboard::EMPTY,
                    Role::Knight => geometry::knight_attacks::<R>(sq),
                    Role::Bishop => geometry::bishop_attacks::<R>(sq, occ),
                    Role::Rook => geometry::rook_attacks::<R>(sq, occ),
                    Role::Queen => geometry::queen_attacks::<R>(sq, occ),
                    Role::King => geometry::king_attacks::<R>(sq),
                    Role::Pawn => Bitboard::EMPTY,
                };
                if relay && relayed.contains(sq) && role != Role::Pawn {
                    att |= attacks::knight_attacks(sq);
                }
                all_att[color as usize] |= att;
                role_att[color as usize][role as usize] |= att;
                match role {
                    Role::Knight | Role::Bishop => minor_att[color as usize] |= att,
                    Role::Rook => rook_att[color as usize] |= att,
                    _ => {}
                }
                if matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen) {
                    let r = role as usize;
                    // A relay knight moves (never captures): its mobility is its empty squares.
                    let reach = if relay && role == Role::Knight { attacks::knight_attacks(sq) - occ } else { att };
                    let n = ((reach & mobility_area).count() as usize).min(MOBILITY_MAX[r]);
                    acc.add(MOBILITY_TABLE + MOBILITY_OFFSET[r] + n, sign);
                    if (att & king_zone).any() {
                        attackers += 1;
                        danger += king_attack[role as usize] * (att & king_zone).count() as i32;
                    }
                }
                if matches!(role, Role::Knight | Role::Bishop) {
                    // Outpost: ranks 4-6, defended by a pawn, never attackable by an enemy pawn.
                    let rel_rank = color.relative_rank(sq.rank()) as usize;
                    let theirs_pawns = board.pawns() & board.by_color(!color);
                    if (3..=5).contains(&rel_rank)
                        && (attacks::pawn_attacks(!color, sq) & board.pawns() & ours).any()
                        && (front_span(color, sq) & files_adjacent(sq.file()) & theirs_pawns).is_empty()
                    {
                        acc.add(OUTPOST + role as usize - Role::Knight as usize, sign);
                    }
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & board.pawns()).is_empty() {
                        acc.add(ROOK_OPEN, sign);
                    } else if (file & board.pawns() & ours).is_empty() {
                        acc.add(ROOK_HALF_OPEN, sign);
                    }
                    if color.relative_rank(sq.rank()) == Rank::Seventh {
                        acc.add(ROOK_SEVENTH, sign);
                    }
                }
            }
        }
        if (board.bishops() & ours).more_than_one() {
            acc.add(BISHOP_PAIR, sign);
        }
        // Pawn shield: own pawns on the king's and adjacent files, one or two ranks ahead.
        if let Some(k) = (board.kings() & ours).first() {
            let r = k.rank() as i32;
            let (r1, r2) = if color == Color::White { (r + 1, r + 2) } else { (r - 1, r - 2) };
            let ranks = [r1, r2]
                .iter()
                .filter(|&&x| (0..8).contains(&x))
                .fold(Bitboard::EMPTY, |b, &x| b | Bitboard::rank(Rank::ALL[x as usize]));
            let near = front_span(color, k) & ranks & board.pawns() & ours;
            acc.add(SHIELD, sign * near.count().min(3) as i32);
        }
        zone_attackers[color as usize] = attackers;
        king_danger[(!color) as usize] += danger;
    }
    // Threats, safe checks and passed pawns need both sides' attacks.
    for color in Color::ALL {
        let (us, them) = (color as usize, !color as usize);
        let sign = if color == Color::White { 1 } else { -1 };
        if let Some(k) = (board.kings() & board.by_color(!color)).first() {
            let mut danger = king_danger[them];
            let safe = !board.by_color(color) & !all_att[them];
            let rook_checks = geometry::rook_attacks::<R>(k, occ) & safe;
            let bishop_checks = geometry::bishop_attacks::<R>(k, occ) & safe;
            let knight_checks = if relay { Bitboard::EMPTY } else { geometry::knight_attacks::<R>(k) & safe };
            let checks = [
                (Role::Knight, knight_checks),
                (Role::Bishop, bishop_checks),
                (Role::Rook, rook_checks),
                (Role::Queen, rook_checks | bishop_checks),
            ];
            for (role, squares) in checks {
                if (squares & role_att[us][role as usize]).any() {
                    danger += weights.safe_check[role as usize];
                }
            }
            if zone_attackers[us] < 2 {
                danger /= 2;
            }
            let step = (danger / KING_DANGER_STEP).clamp(0, KING_DANGER_SIZE as i32 - 1) as usize;
            // The table holds the value for the king's side.
            acc.add(KING_DANGER + step, -sign);
        }
        let enemies = board.by_color(!color) - board.kings() - if relay { board.knights() } else { Bitboard::EMPTY };
        let undefended = enemies - all_att[them];
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let victims = enemies & board.by_role(role);
            let r = role as usize;
            acc.add(THREAT_BY_PAWN + r, sign * (victims & pawn_att[us]).count() as i32);
            let minor_victims = if r >= Role::Rook as usize { victims } else { victims & undefended };
            acc.add(THREAT_BY_MINOR + r, sign * (minor_victims & minor_att[us]).count() as i32);
            let rook_victims = if role == Role::Queen { victims } else { victims & undefended };
            acc.add(THREAT_BY_ROOK + r, sign * (rook_victims & rook_att[us]).count() as i32);
        }
        acc.add(HANGING, sign * (undefended & (all_att[us] - board.pawns())).count() as i32);

        let our_king = (board.kings() & board.by_color(color)).first();
        let their_king = (board.kings() & board.by_color(!color)).first();
        for sq in passed[us] {
            let rel_rank = color.relative_rank(sq.rank()) as usize;
            let Some(stop) = sq.offset(if color == Color::White { 8 } else { -8 }) else { continue };
            if let Some(k) = their_king {
                acc.add(PASSED_THEIR_KING + rel_rank, sign * distance(k, stop).min(5));
            }
            if let Some(k) = our_king {
                acc.add(PASSED_OUR_KING + rel_rank, sign * distance(k, stop).min(5));
            }
            if occ.contains(stop) {
                acc.add(PASSED_BLOCKED + rel_rank, sign);
            }
            let path = front_span(color, sq) & Bitboard::file(sq.file());
            if (path & (board.by_color(!color) | all_att[them])).is_empty() {
                acc.add(PASSED_FREE + rel_rank, sign);
            }
        }
    }
    phase.min(MAX_PHASE)
}

fn taper(s: Score, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights, pawn_table: vec![PawnEntry::default(); 1 << 14] }
    }

    pub fn clear(&mut self) {
        self.pawn_table.iter_mut().for_each(|e| *e = PawnEntry::default());
    }

    /// The pawn-structure score and the passed pawns, from the pawn hash when there.
    fn pawn_score(&mut self, board: &Board, pawn_key: u64) -> (Score, [Bitboard; 2]) {
        let idx = (pawn_key as usize) & (self.pawn_table.len() - 1);
        let e = self.pawn_table[idx];
        if e.key == pawn_key && pawn_key != 0 {
            return (e.score, e.passed);
        }
        let mut sum = Sum { params: &self.weights.params, total: Score(0, 0) };
        pawn_terms(board, &mut sum);
        let passed = [passed_pawns(board, Color::White), passed_pawns(board, Color::Black)];
        self.pawn_table[idx] = PawnEntry { key: pawn_key, score: sum.total, passed };
        (sum.total, passed)
    }

    /// The evaluation of `pos` for the side to move.
    pub fn evaluate<R: Rules>(&mut self, pos: &Position<R>) -> i32 {
        let board = pos.board();
        let (pawns, passed) = self.pawn_score(board, pos.pawn_key());
        let mut sum = Sum { params: &self.weights.params, total: pawns };
        let phase = piece_terms::<R, _>(board, &mut sum, &self.weights, passed);
        let mut v = taper(sum.total, phase);
        if R::VARIANT == Variant::Chess {
            match crate::endgame::probe(board, pos.turn()) {
                Some(crate::endgame::Verdict::Exact(x)) => v = x,
                Some(crate::endgame::Verdict::Scale(s)) => v = v * s / 64,
                None => {}
            }
        }
        let v = variant_adjust::<R>(pos, v, &self.weights, phase);
        (if pos.turn() == Color::White { v } else { -v }) + self.weights.tempo
    }

    /// The trace of `pos` (White's point of view, no tempo): the tuner's view of the evaluation.
    pub fn trace<R: Rules>(&self, pos: &Position<R>) -> Trace {
        let board = pos.board();
        let mut trace = Trace::default();
        pawn_terms(board, &mut trace);
        let passed = [passed_pawns(board, Color::White), passed_pawns(board, Color::Black)];
        trace.phase = piece_terms::<R, _>(board, &mut trace, &self.weights, passed);
        trace.fixed = variant_adjust::<R>(pos, 0, &self.weights, trace.phase);
        trace
    }
}

/// The tapered evaluation of a trace under `params` (White's point of view).
pub fn evaluate_trace(trace: &Trace, params: &[Score]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(p, c) in &trace.terms {
        mg += params[p as usize].0 as f64 * c as f64;
        eg += params[p as usize].1 as f64 * c as f64;
    }
    (mg * trace.phase as f64 + eg * (MAX_PHASE - trace.phase) as f64) / MAX_PHASE as f64 + trace.fixed as f64
}

/// Variant terms on top of the orthodox evaluation `v` (White's point of view; `phase` tapers them).
fn variant_adjust<R: Rules>(pos: &Position<R>, v: i32, weights: &Weights, phase: i32) -> i32 {
    use mysl_core::VariantState;
    let board = pos.board();
    match R::VARIANT {
        Variant::Antichess | Variant::AntichessNoEp => {
            // Losing material is the goal: fewer pieces is better. Mobility: the side with more
            // squares to go to is less often forced into giving the wrong piece away.
            let count = |c: Color| board.by_color(c).count() as i32;
            let mobility = |c: Color| antichess_mobility(board, c);
            let threats = antichess_threats(board);
            (count(Color::Black) - count(Color::White)) * 100
                + (mobility(Color::White) - mobility(Color::Black)) * ANTICHESS_MOBILITY
                + threats
        }
        Variant::ThreeCheck => v + three_check_terms(pos),
        Variant::Extinction => v + extinction_terms(pos),
        Variant::Recycle => {
            // Pieces in hand keep their material value (the fitted weights), plus a little for where a
            // drop may go.
            let pockets = pos.state().pockets();
            let mut adj = 0;
            for color in Color::ALL {
                for (role, &n) in pockets[color as usize].iter().enumerate() {
                    let value = taper(weights.params[MATERIAL + role], phase) + HAND_BONUS;
                    adj += color_sign(color) * n as i32 * value;
                }
            }
            v + adj
        }
        Variant::Cylinder => {
            // On a cylinder no file is an edge: a piece's square value is the mean of its rank's values.
            let (mut mg, mut eg) = (0, 0);
            for sq in board.occupied() {
                let Some(piece) = board.piece_at(sq) else { continue };
                let rel = if piece.color == Color::White { sq } else { sq.flip_vertical() };
                let base = PST + 64 * piece.role as usize;
                let rank_start = base + 8 * rel.rank() as usize;
                let rank = &weights.params[rank_start..rank_start + 8];
                let here = weights.params[base + rel as usize];
                let sign = color_sign(piece.color);
                mg += sign * (rank.iter().map(|p| p.0).sum::<i32>() / 8 - here.0);
                eg += sign * (rank.iter().map(|p| p.1).sum::<i32>() / 8 - here.1);
            }
            v + taper(Score(mg, eg), phase)
        }
        _ => v,
    }
}

/// Antichess: centipawns per square a side's pieces can move to.
const ANTICHESS_MOBILITY: i32 = 3;

/// Squares the pieces of `color` attack or (pawns) can push to, not counting their own pieces' squares.
fn antichess_mobility(board: &Board, color: Color) -> i32 {
    let occ = board.occupied();
    let ours = board.by_color(color);
    let mut n = 0;
    for sq in ours - board.pawns() {
        let att = board.role_at(sq).map_or(Bitboard::EMPTY, |role| attacks::attacks(color, role, sq, occ));
        n += (att - ours).count() as i32;
    }
    let pawns = board.pawns() & ours;
    let pushes = if color == Color::White { pawns.north() } else { pawns.south() } - occ;
    n + pushes.count() as i32
}

/// Squares attacked by `color`'s pieces: (at least once, at least twice, by its pieces but pawns and kings).
fn attack_maps(board: &Board, color: Color) -> (Bitboard, Bitboard, Bitboard) {
    let occ = board.occupied();
    let ours = board.by_color(color);
    let pawns = board.pawns() & ours;
    let (west, east) = if color == Color::White {
        (pawns.north().west(), pawns.north().east())
    } else {
        (pawns.south().west(), pawns.south().east())
    };
    let mut once = west | east;
    let mut twice = west & east;
    let mut pieces = Bitboard::EMPTY;
    for sq in ours - board.pawns() {
        let role = board.role_at(sq);
        let att = role.map_or(Bitboard::EMPTY, |role| attacks::attacks(color, role, sq, occ));
        twice |= once & att;
        once |= att;
        if role != Some(Role::King) {
            pieces |= att;
        }
    }
    (once, twice, pieces)
}

/// Antichess: what a side that can capture loses (it must capture; most when the opponent cannot take
/// back: divided by one plus the captures answered by a recapture). Half of Fairy-Stockfish's 2000 in
/// its pawn units, measured against a quarter of it (+36 Elo in self-play, docs/strength.md).
const ANTICHESS_MUST_CAPTURE: i32 = 800;
/// Antichess: per empty square one of a side's pieces can move to that the opponent attacks (it can force
/// a capture), and again if the side does not attack it twice.
const ANTICHESS_OFFER: (i32, i32) = (80, 84);

/// Antichess threats (White's point of view): a side that can capture will have to; a side whose pieces
/// can step onto squares the opponent attacks can force the opponent's captures.
fn antichess_threats(board: &Board) -> i32 {
    let occ = board.occupied();
    let maps = [attack_maps(board, Color::White), attack_maps(board, Color::Black)];
    let mut adj = 0;
    for color in Color::ALL {
        let sign = color_sign(color);
        let ours = board.by_color(color);
        let (att, att2, mut moves) = maps[color as usize];
        let (their_att, _, _) = maps[!color as usize];
        let captures = att & board.by_color(!color);
        if captures.any() {
            adj -= sign * ANTICHESS_MUST_CAPTURE / (1 + (captures & (their_att - att2)).count() as i32);
        }
        let pawns = board.pawns() & ours;
        moves |= if color == Color::White { pawns.north() } else { pawns.south() };
        let offers = their_att & (moves - occ);
        adj += sign * (ANTICHESS_OFFER.0 * offers.count() as i32 + ANTICHESS_OFFER.1 * (offers - att2).count() as i32);
    }
    adj
}

/// Bonus for a piece in hand (Recycle) on top of its material value.
const HAND_BONUS: i32 = 15;

fn color_sign(color: Color) -> i32 {
    if color == Color::White {
        1
    } else {
        -1
    }
}

/// Three-check: checks given, by the checks a side still needs (index 1: one more wins), and each
/// square from which a side could give its next check (direct checks by its pieces), weighted the same way.
fn three_check_terms<R: Rules>(pos: &Position<R>) -> i32 {
    use mysl_core::VariantState;
    const GIVEN: [i32; 4] = [0, 600, 220, 0];
    const CHECK_SQUARE: [i32; 4] = [0, 45, 22, 10];
    let board = pos.board();
    let occ = board.occupied();
    let remaining = pos.state().remaining_checks();
    let mut adj = 0;
    for color in Color::ALL {
        let sign = color_sign(color);
        let need = remaining[color as usize].clamp(1, 3) as usize;
        adj += sign * GIVEN[need];
        let Some(king) = board.king_of(!color) else { continue };
        let ours = board.by_color(color);
        let free = !ours;
        let knight_sq = attacks::knight_attacks(king) & free;
        let bishop_sq = attacks::bishop_attacks(king, occ) & free;
        let rook_sq = attacks::rook_attacks(king, occ) & free;
        let mut n = 0;
        for sq in board.knights() & ours {
            n += (attacks::knight_attacks(sq) & knight_sq).count();
        }
        for sq in board.bishops() & ours {
            n += (attacks::bishop_attacks(sq, occ) & bishop_sq).count();
        }
        for sq in board.rooks() & ours {
            n += (attacks::rook_attacks(sq, occ) & rook_sq).count();
        }
        for sq in board.queens() & ours {
            n += (attacks::queen_attacks(sq, occ) & (bishop_sq | rook_sq)).count();
        }
        let pawns = board.pawns() & ours;
        let pushes = if color == Color::White { pawns.north() } else { pawns.south() } - occ;
        n += (pushes & attacks::pawn_attacks(!color, king)).count();
        adj += sign * CHECK_SQUARE[need] * n.min(8) as i32;
    }
    adj
}

/// Extinction: the scarcity weight (a type with n pieces costs `SCARCITY / n²`).
const SCARCITY: i32 = 400;

/// Extinction: a side loses with the last piece of any type, so scarce types are a liability
/// (`SCARCITY / n²` for n pieces of a type, as Fairy-Stockfish weighs extinction) and a last piece
/// under attack is in danger: the side to move would take it at once (the search sees that), the side
/// that must answer loses a tempo for one and usually the game for two.
fn extinction_terms<R: Rules>(pos: &Position<R>) -> i32 {
    let board = pos.board();
    let occ = board.occupied();
    let mut adj = 0;
    for color in Color::ALL {
        let sign = color_sign(color);
        let ours = board.by_color(color);
        let mut threatened = 0;
        for role in Role::ALL {
            let pieces = board.by_role(role) & ours;
            let n = pieces.count() as i32;
            if n == 0 {
                continue;
            }
            adj -= sign * SCARCITY / (n * n);
            if let Some(sq) = pieces.single() {
                if board.is_attacked(sq, !color, occ) {
                    threatened += 1;
                }
            }
        }
        if threatened > 0 {
            let penalty = if color != pos.turn() {
                900
            } else if threatened >= 2 {
                700
            } else {
                120
            };
            adj -= sign * penalty;
        }
    }
    adj
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

    #[test]
    fn trace_reproduces_the_evaluation() {
        let mut e = Evaluator::default();
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let pos = Chess::from_fen(fen).unwrap();
            let white_view = evaluate_trace(&e.trace(&pos), &e.weights.params);
            let direct = e.evaluate(&pos) - e.weights.tempo;
            let direct_white = if pos.turn() == Color::White { direct } else { -direct };
            assert!((white_view - direct_white as f64).abs() <= 1.0, "{fen}: {white_view} vs {direct_white}");
        }
    }

    fn white_view<R: Rules>(e: &mut Evaluator, fen: &str) -> i32 {
        let pos = Position::<R>::from_fen(fen).unwrap();
        let v = e.evaluate(&pos) - e.weights.tempo;
        if pos.turn() == Color::White {
            v
        } else {
            -v
        }
    }

    #[test]
    fn recycle_pieces_in_hand_keep_their_value() {
        use mysl_core::Recycle;
        let mut e = Evaluator::default();
        let without = white_view::<Recycle>(&mut e, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[] w KQkq - 0 1");
        let with = white_view::<Recycle>(&mut e, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[N] w KQkq - 0 1");
        let pos = Position::<Recycle>::from_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[N] w KQkq - 0 1").unwrap();
        let phase = e.trace(&pos).phase;
        assert_eq!(with - without, taper(e.weights.params[MATERIAL + 1], phase) + HAND_BONUS);
    }

    #[test]
    fn cylinder_evaluation_does_not_see_the_files_edges() {
        use mysl_core::Cylinder;
        // Without pawns, turning the cylinder (every piece k files to the right) changes nothing.
        let mut e = Evaluator::default();
        let pieces = [
            (Color::White, Role::King, 0, 0),
            (Color::White, Role::Queen, 3, 2),
            (Color::White, Role::Rook, 7, 1),
            (Color::White, Role::Knight, 1, 4),
            (Color::Black, Role::King, 4, 7),
            (Color::Black, Role::Rook, 0, 6),
            (Color::Black, Role::Bishop, 6, 5),
        ];
        let fen_shifted = |k: usize| {
            let mut board = Board::default();
            for &(color, role, f, r) in &pieces {
                let sq = Square::from_index((8 * r + (f + k) % 8) as u32);
                board.set_piece_at(sq, Some(mysl_core::Piece::new(color, role)));
            }
            format!("{} w - - 0 1", board.board_fen())
        };
        let base = white_view::<Cylinder>(&mut e, &fen_shifted(0));
        for k in 1..8 {
            // Equal up to the rounding of the tapered terms.
            let v = white_view::<Cylinder>(&mut e, &fen_shifted(k));
            assert!((v - base).abs() <= 1, "{}: {v} vs {base}", fen_shifted(k));
        }
        // Orthodox chess does see the edge.
        let orthodox: Vec<i32> = (0..8).map(|k| white_view::<mysl_core::Orthodox>(&mut e, &fen_shifted(k))).collect();
        assert!(orthodox.iter().any(|&v| v != orthodox[0]), "{orthodox:?}");
    }

    #[test]
    fn antichess_fears_a_capture_it_must_make_and_likes_forcing_one() {
        use mysl_core::Antichess;
        let mut e = Evaluator::new(Weights::default());
        // The rook on a1 must take Black's last piece (Black then wins); on b1 it need not.
        let forced = white_view::<Antichess>(&mut e, "8/8/8/n7/8/8/8/R7 w - - 0 1");
        let free = white_view::<Antichess>(&mut e, "8/8/8/n7/8/8/8/1R6 w - - 0 1");
        assert!(forced < free - 200, "{forced} {free}");
        // The same capture is less bad when the taken piece's side can take back.
        let recapture = white_view::<Antichess>(&mut e, "8/8/1p6/n7/8/8/8/R7 w - - 0 1");
        let no_recapture = white_view::<Antichess>(&mut e, "8/1p6/8/n7/8/8/8/R7 w - - 0 1");
        assert!(recapture > no_recapture, "{recapture} {no_recapture}");
        // A knight that can step onto the pawn's capture squares (b3, d3) can force a capture; one with
        // as many moves elsewhere cannot.
        let offers = white_view::<Antichess>(&mut e, "8/8/8/8/2p5/8/8/2N5 w - - 0 1");
        let none = white_view::<Antichess>(&mut e, "8/8/8/8/2p5/8/8/5N2 w - - 0 1");
        assert!(offers > none, "{offers} {none}");
    }

    #[test]
    fn three_check_values_checks_given_and_checks_available() {
        use mysl_core::ThreeCheck;
        let mut e = Evaluator::default();
        let fen = |checks: &str| format!("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - {checks} 2 3");
        let none = white_view::<ThreeCheck>(&mut e, &fen("3+3"));
        let one = white_view::<ThreeCheck>(&mut e, &fen("2+3"));
        let two = white_view::<ThreeCheck>(&mut e, &fen("1+3"));
        assert!(none < one && one < two, "{none} {one} {two}");
        assert!(two - one > one - none, "the last check counts most: {none} {one} {two}");
        assert_eq!(white_view::<ThreeCheck>(&mut e, &fen("3+2")), -one + 2 * none, "symmetric");
    }

    #[test]
    fn extinction_fears_for_the_last_piece_of_a_type() {
        use mysl_core::Extinction;
        let mut e = Evaluator::default();
        // White's only knight is attacked by a pawn: bad for White to move, worse with Black to move.
        let attacked_w =
            white_view::<Extinction>(&mut e, "rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/R1BQKB1R w KQkq - 0 1");
        let attacked_b =
            white_view::<Extinction>(&mut e, "rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/R1BQKB1R b KQkq - 0 1");
        let safe = white_view::<Extinction>(&mut e, "rnbqkbnr/pppp1ppp/8/4p3/8/3N4/PPPPPPPP/R1BQKB1R w KQkq - 0 1");
        assert!(attacked_b < attacked_w && attacked_w < safe, "{attacked_b} {attacked_w} {safe}");
        // Down to one rook against two: the extinction term on top of the orthodox evaluation.
        let extra =
            |e: &mut Evaluator, fen: &str| white_view::<Extinction>(e, fen) - white_view::<mysl_core::Orthodox>(e, fen);
        let start = extra(&mut e, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let one_rook = extra(&mut e, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1");
        assert_eq!(one_rook - start, -(SCARCITY - SCARCITY / 4));
    }
}
