//! Piece kinds as data: each kind has a walk (how it moves and captures) and its Popeye code.
//!
//! Orthodox walks are evaluated with mysl-core's magic attack tables; fairy walks (leapers, riders,
//! hoppers given by their vectors) by the generic generators in `board.rs`. Known fairy codes
//! without a row here are reported as "not supported yet".

/// How a piece moves.
///
/// Fairy walks are given by their vectors (all eight symmetric images of one (x,y) step, or the
/// eight queen directions): a leaper jumps one vector, a rider repeats it until the first occupied
/// square, a hopper rides to the first piece (the hurdle, of either colour) and lands on the square
/// directly behind it (one more vector), which must be empty or hold an enemy piece. Every fairy
/// piece captures the way it moves, so the same walks decide checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    Leaper(&'static [(i8, i8)]),
    Rider(&'static [(i8, i8)]),
    Hopper(&'static [(i8, i8)]),
    /// A hopper landing `n` squares behind the hurdle (grasshopper-2, -3); the squares between
    /// hurdle and landing square must be empty.
    LongHopper(&'static [(i8, i8)], u8),
    /// Lion-type hopper over `n` hurdles (kangaroo-lion: 2): any distance before, between and
    /// after the hurdles; lands on any empty square behind the last hurdle up to and including
    /// the first piece there (captured if it is an enemy).
    Lion(&'static [(i8, i8)], u8),
    /// Chinese piece (nao = nightrider lines, pao = rook lines, vao = bishop lines): moves like
    /// the rider, captures only by hopping over exactly one piece (any distance) to the first
    /// piece behind it.
    Chinese(&'static [(i8, i8)]),
    /// Rose: knight steps turning around an octagon (clockwise or counter-clockwise), up to seven
    /// steps, every square before the last empty.
    Rose,
    /// Bouncer (queen, rook or bishop lines): for each direction, the distance k to the first
    /// obstacle (a piece, or the board edge: the first square off the board) decides the move:
    /// exactly k squares the opposite way, over empty squares, to an empty square or onto an
    /// enemy piece.
    Bouncer(&'static [(i8, i8)]),
}

/// A piece kind: index into [`KINDS`].
pub type Kind = u8;

pub const KING: Kind = 0;
pub const QUEEN: Kind = 1;
pub const ROOK: Kind = 2;
pub const BISHOP: Kind = 3;
pub const KNIGHT: Kind = 4;
pub const PAWN: Kind = 5;
/// The first fairy kind; kinds from here on use the generic walks.
pub const FIRST_FAIRY: Kind = 6;
pub const GRASSHOPPER: Kind = 6;
pub const NIGHTRIDER: Kind = 7;
pub const NIGHTRIDER_HOPPER: Kind = 8;
/// Number of supported kinds.
pub const NUM_KINDS: usize = 35;

/// The eight images of an (x,y) step (x != y, both > 0, or one of them 0).
const fn images(x: i8, y: i8) -> [(i8, i8); 8] {
    [(x, y), (y, x), (-x, y), (-y, x), (x, -y), (y, -x), (-x, -y), (-y, -x)]
}

pub const QUEEN_VECTORS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight vectors in circular order (the rose turns through them).
pub const KNIGHT_VECTORS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Knight moves from `from` to every square on an empty board (breadth-first search; every square is
/// reachable on 8×8). Used by the solver's pruning bounds.
pub(crate) fn knight_distances(from: usize) -> [u8; 64] {
    let mut row = [u8::MAX; 64];
    row[from] = 0;
    let mut frontier = vec![from];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for &x in &frontier {
            let (f, r) = ((x % 8) as i32, (x / 8) as i32);
            for (df, dr) in KNIGHT_VECTORS {
                let (nf, nr) = (f + df as i32, r + dr as i32);
                if (0..8).contains(&nf) && (0..8).contains(&nr) {
                    let t = (nr * 8 + nf) as usize;
                    if row[t] == u8::MAX {
                        row[t] = d;
                        next.push(t);
                    }
                }
            }
        }
        frontier = next;
    }
    row
}
const ROOK_VECTORS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_VECTORS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const CAMEL: [(i8, i8); 8] = images(1, 3);
const ZEBRA: [(i8, i8); 8] = images(2, 3);
const GIRAFFE: [(i8, i8); 8] = images(1, 4);
const L15: [(i8, i8); 8] = images(1, 5);
const L16: [(i8, i8); 8] = images(1, 6);
const L24: [(i8, i8); 8] = images(2, 4);
const L25: [(i8, i8); 8] = images(2, 5);
const L35: [(i8, i8); 8] = images(3, 5);
const L37: [(i8, i8); 8] = images(3, 7);
const L36: [(i8, i8); 8] = images(3, 6);

/// Two (x,y) leaps together (bison = camel + zebra, ...).
const fn images2(a: (i8, i8), b: (i8, i8)) -> [(i8, i8); 16] {
    let x = images(a.0, a.1);
    let y = images(b.0, b.1);
    let mut out = [(0, 0); 16];
    let mut i = 0;
    while i < 8 {
        out[i] = x[i];
        out[i + 8] = y[i];
        i += 1;
    }
    out
}
const BISON: [(i8, i8); 16] = images2((1, 3), (2, 3));
const OKAPI: [(i8, i8); 16] = images2((1, 2), (2, 3));
const GNU: [(i8, i8); 16] = images2((1, 2), (1, 3));
const ZEBU: [(i8, i8); 16] = images2((1, 3), (1, 4));

/// One row of the kind table.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    pub walk: Walk,
    /// Popeye's English piece code (upper case).
    pub code: &'static str,
}

/// The kind table: orthodox pieces, then the supported fairy pieces.
pub const KINDS: [KindInfo; NUM_KINDS] = [
    KindInfo { walk: Walk::King, code: "K" },
    KindInfo { walk: Walk::Queen, code: "Q" },
    KindInfo { walk: Walk::Rook, code: "R" },
    KindInfo { walk: Walk::Bishop, code: "B" },
    KindInfo { walk: Walk::Knight, code: "S" },
    KindInfo { walk: Walk::Pawn, code: "P" },
    KindInfo { walk: Walk::Hopper(&QUEEN_VECTORS), code: "G" },
    KindInfo { walk: Walk::Rider(&KNIGHT_VECTORS), code: "N" },
    KindInfo { walk: Walk::Hopper(&KNIGHT_VECTORS), code: "NH" },
    KindInfo { walk: Walk::Leaper(&CAMEL), code: "CA" },
    KindInfo { walk: Walk::Leaper(&ZEBRA), code: "Z" },
    KindInfo { walk: Walk::Leaper(&GIRAFFE), code: "GI" },
    KindInfo { walk: Walk::Leaper(&L15), code: "15" },
    KindInfo { walk: Walk::Leaper(&L16), code: "16" },
    KindInfo { walk: Walk::Leaper(&L24), code: "24" },
    KindInfo { walk: Walk::Leaper(&L25), code: "25" },
    KindInfo { walk: Walk::Leaper(&L35), code: "35" },
    KindInfo { walk: Walk::Leaper(&L37), code: "37" },
    KindInfo { walk: Walk::Leaper(&L36), code: "36" },
    KindInfo { walk: Walk::Leaper(&BISON), code: "BI" },
    KindInfo { walk: Walk::Leaper(&OKAPI), code: "OK" },
    KindInfo { walk: Walk::Leaper(&GNU), code: "GN" },
    KindInfo { walk: Walk::Leaper(&ZEBU), code: "ZE" },
    KindInfo { walk: Walk::Rider(&CAMEL), code: "CR" },
    KindInfo { walk: Walk::Rider(&ZEBRA), code: "ZR" },
    KindInfo { walk: Walk::LongHopper(&QUEEN_VECTORS, 2), code: "G2" },
    KindInfo { walk: Walk::LongHopper(&QUEEN_VECTORS, 3), code: "G3" },
    KindInfo { walk: Walk::Lion(&QUEEN_VECTORS, 2), code: "KL" },
    KindInfo { walk: Walk::Chinese(&KNIGHT_VECTORS), code: "NA" },
    KindInfo { walk: Walk::Chinese(&ROOK_VECTORS), code: "PA" },
    KindInfo { walk: Walk::Chinese(&BISHOP_VECTORS), code: "VA" },
    KindInfo { walk: Walk::Rose, code: "RO" },
    KindInfo { walk: Walk::Bouncer(&QUEEN_VECTORS), code: "B1" },
    KindInfo { walk: Walk::Bouncer(&ROOK_VECTORS), code: "B2" },
    KindInfo { walk: Walk::Bouncer(&BISHOP_VECTORS), code: "B3" },
];

/// Orthodox kinds a pawn may promote to, in Popeye's output order (the fairy kinds present in
/// the position follow, see `Board::promotion_fairies`).
pub const PROMOTIONS: [Kind; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// Popeye's fairy piece codes (English), recognised so that they are reported as unsupported
/// rather than as unknown. Not complete; unknown codes are reported as unknown pieces.
pub const FAIRY_CODES: &[(&str, &str)] = &[
    ("G", "grasshopper"),
    ("N", "nightrider"),
    ("NH", "nightrider-hopper"),
    ("CA", "camel"),
    ("Z", "zebra"),
    ("GI", "giraffe"),
    ("LI", "lion"),
    ("EQ", "equihopper"),
    ("KA", "kangaroo"),
    ("M", "moose"),
    ("EA", "eagle"),
    ("SW", "sparrow"),
    ("NA", "nao"),
    ("PA", "pao"),
    ("VA", "vao"),
    ("MA", "mao"),
    ("MO", "moa"),
    ("LE", "leo"),
    ("L", "locust"),
    ("O", "orphan"),
    ("RO", "rose"),
    ("BI", "bishop-lion?"),
    ("KL", "kangaroo-lion"),
    ("G2", "grasshopper-2"),
    ("G3", "grasshopper-3"),
    ("B1", "bouncer"),
    ("B2", "rook bouncer"),
    ("B3", "bishop bouncer"),
    ("BP", "berolina pawn"),
    ("AM", "amazon"),
    ("EM", "empress"),
    ("PR", "princess"),
    ("C", "chancellor?"),
    ("DU", "dummy"),
    ("WE", "wesir"),
    ("F", "fers"),
    ("AN", "antelope"),
    ("BU", "bucephale"),
    ("UB", "ubi-ubi"),
    ("HA", "hamster"),
    ("LO", "lion?"),
    ("RL", "rook-lion"),
    ("BL", "bishop-lion"),
    ("NL", "nightrider-lion"),
    ("MG", "magic?"),
    ("IM", "imitator"),
    ("RH", "rook-hopper"),
    ("BH", "bishop-hopper"),
    ("CH", "chinese piece?"),
    ("SI", "sirene?"),
    ("TR", "triton?"),
    ("NE", "nereide?"),
    ("OR", "orix"),
    ("GN", "gnu"),
    ("BS", "bison"),
    ("ZE", "zebrarider?"),
    ("CR", "camelrider"),
    ("ZR", "zebrarider"),
    ("GR", "gryphon?"),
    ("SK", "skylla?"),
    ("CY", "charybdis?"),
    ("SS", "spiral springer"),
    ("VI", "vizir?"),
    ("FE", "fers?"),
    ("DA", "dabbaba"),
    ("AL", "alfil"),
    ("LS", "leapers?"),
    ("BM", "bob?"),
    ("RM", "reflecting?"),
];

/// Numeric (x,y)-leaper codes such as `15`, `16`, `24`, `25`, `35`, `37` (those not in [`KINDS`]
/// are reported unsupported).
pub fn is_numeric_leaper_code(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_digit())
}

/// The supported kind for an English Popeye code (`K Q R B S P`, `G`, `N`, `NH`, `CA`, `Z`, `GI`,
/// `15`, ...; case-insensitive).
pub fn kind_by_code(code: &str) -> Option<Kind> {
    KINDS.iter().position(|k| k.code.eq_ignore_ascii_case(code)).map(|i| i as Kind)
}

/// The fairy piece name for a code, if it is a known fairy code.
pub fn fairy_name(code: &str) -> Option<&'static str> {
    if is_numeric_leaper_code(code) {
        return Some("(x,y)-leaper");
    }
    FAIRY_CODES.iter().find(|(c, _)| c.eq_ignore_ascii_case(code)).map(|(_, n)| *n)
}
