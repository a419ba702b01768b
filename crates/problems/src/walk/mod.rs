//! Piece kinds as data: each kind has a walk (how it moves and captures) and its Popeye code.
//!
//! Orthodox walks are evaluated with mysl-core's magic attack tables; fairy walks (leapers, riders,
//! hoppers given by their vectors) by the generic generators in `walk/fairy.rs` (the orphan:
//! `walk/orphan.rs`; the Bul attribute of hoppers: `walk/bul.rs`). Known fairy codes
//! without a row here are reported as "not supported yet".

pub(crate) mod bul;
pub(crate) mod fairy;
pub(crate) mod orphan;

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
    /// steps, every square before the last empty; and the pieces that use its lines (see
    /// [`RoseKind`]).
    Rose(RoseKind),
    /// Bouncer (queen, rook or bishop lines): for each direction, the distance k to the first
    /// obstacle (a piece, or the board edge: the first square off the board) decides the move:
    /// exactly k squares the opposite way, over empty squares, to an empty square or onto an
    /// enemy piece.
    Bouncer(&'static [(i8, i8)]),
    /// Kangaroo: over two hurdles on one line (any distance before, between them), landing
    /// directly behind the second.
    Kangaroo(&'static [(i8, i8)]),
    /// Mao (orthogonal first) or moa (diagonal first): a knight step through the adjacent square
    /// on its way, which must be empty; as a rider (maorider, moarider) it repeats the step while
    /// the squares it reaches are empty.
    Xiangqi {
        diagonal_first: bool,
        rider: bool,
    },
    /// Equihopper: hops over a piece standing exactly half-way to its arrival square. On queen
    /// lines every square between departure and arrival other than the hurdle is empty (any
    /// length); off them the hurdle is one (1,2), (1,3) or (2,3) step away and nothing can
    /// stand in between. The orix has only the queen-line moves.
    Equihopper {
        queen_lines_only: bool,
    },
    /// Non-stop equihopper: hops over any piece to the square as far behind it as the piece is
    /// from the departure square; the squares in between do not matter.
    NonstopEquihopper,
    /// A piece with the moves of all its components (amazon = queen + knight, ...).
    Compound(&'static [Walk]),
    /// Angle hopper (moose 45°, eagle 90°, sparrow 135°; on queen, rook or bishop lines): rides
    /// to the first piece, then lands on the square next to it in a direction turned by the
    /// angle (`eighths` × 45°) either way from the approach.
    AngleHopper(&'static [(i8, i8)], u8),
    /// Locust (queen, rook, bishop or nightrider lines): moves only by capturing: rides to the
    /// first piece on a line, which must be an enemy, and lands on the square directly behind
    /// it, which must be empty; the piece jumped over is captured (Popeye's `locusts.c`). It
    /// attacks (checks) the first piece on a line when the square behind it is empty.
    Locust(&'static [(i8, i8)]),
    /// Orphan: no walk of its own; it moves and attacks like each kind of piece that observes it,
    /// an enemy piece of that kind or, transitively, an enemy orphan observed that way (Popeye's
    /// `orphan.c`). See `Board::orphan_chain`.
    Orphan,
    /// Berolina pawn (Popeye's `pieces/walks/pawns/berolina.c`): steps one square diagonally
    /// forward without capturing (two from its second rank, the passed square empty: a double
    /// step giving an en-passant right on the passed square), captures one square straight
    /// forward (also en passant), promotes on its last rank like a pawn, and has no moves (and
    /// attacks nothing) on its first rank. See `Board::berolina_moves`.
    BerolinaPawn,
}

/// The eight queen directions counter-clockwise from east (an angle hopper turns through them).
pub const QUEEN_DIRECTIONS_CIRCULAR: [(i8, i8); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// What a piece on rose lines does with the first piece on a line (the hurdle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoseKind {
    /// Rose: stops there (captures it if it is an enemy).
    Plain,
    /// Rose-hopper: lands on the next square of the line.
    Hopper,
    /// Rose-lion: lands on any square behind it up to the next piece (captured if enemy).
    Lion,
    /// Rao (Chinese rose): moves as a rose, captures the first piece behind the hurdle.
    Rao,
}

/// A set of kinds, bit k for kind k.
pub type KindSet = u128;

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
pub const NUM_KINDS: usize = 82;
/// The locust (`L`; `LR`, `LB`, `LN` follow it).
pub const LOCUST: Kind = 76;
/// The orphan (`O`).
pub const ORPHAN: Kind = 80;
/// The Berolina pawn (`BP`).
pub const BEROLINA_PAWN: Kind = 81;
const _: () = assert!(NUM_KINDS <= KindSet::BITS as usize);

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
pub const ROOK_VECTORS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_VECTORS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Leaps of two squares orthogonally (dabbaba) and diagonally (alfil).
const DABBABA: [(i8, i8); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
const ALFIL: [(i8, i8); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const ANTELOPE: [(i8, i8); 8] = images(3, 4);
/// Bucephale (root-25 leaper): (3,4) and (0,5) leaps.
const BUCEPHALE: [(i8, i8); 12] = {
    let x = images(3, 4);
    let mut out = [(0, 0); 12];
    let mut i = 0;
    while i < 8 {
        out[i] = x[i];
        i += 1;
    }
    out[8] = (5, 0);
    out[9] = (-5, 0);
    out[10] = (0, 5);
    out[11] = (0, -5);
    out
};
/// Squirrel: knight, alfil and dabbaba leaps.
const SQUIRREL: [(i8, i8); 16] = {
    let mut out = [(0, 0); 16];
    let mut i = 0;
    while i < 8 {
        out[i] = KNIGHT_VECTORS[i];
        i += 1;
    }
    while i < 12 {
        out[i] = DABBABA[i - 8];
        out[i + 4] = ALFIL[i - 8];
        i += 1;
    }
    out
};
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
/// The hurdle vectors of the equihopper's moves off queen lines (arrival = twice the vector).
pub const EQUIHOPPER_OFF_LINE: [(i8, i8); 24] = {
    let a = images(1, 2);
    let b = images(1, 3);
    let c = images(2, 3);
    let mut out = [(0, 0); 24];
    let mut i = 0;
    while i < 8 {
        out[i] = a[i];
        out[i + 8] = b[i];
        out[i + 16] = c[i];
        i += 1;
    }
    out
};
const QUEEN_RIDER: Walk = Walk::Rider(&QUEEN_VECTORS);
const ROOK_RIDER: Walk = Walk::Rider(&ROOK_VECTORS);
const BISHOP_RIDER: Walk = Walk::Rider(&BISHOP_VECTORS);
const KNIGHT_LEAPER: Walk = Walk::Leaper(&KNIGHT_VECTORS);
const NIGHTRIDER_RIDER: Walk = Walk::Rider(&KNIGHT_VECTORS);

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
    KindInfo { walk: Walk::Rose(RoseKind::Plain), code: "RO" },
    KindInfo { walk: Walk::Bouncer(&QUEEN_VECTORS), code: "B1" },
    KindInfo { walk: Walk::Bouncer(&ROOK_VECTORS), code: "B2" },
    KindInfo { walk: Walk::Bouncer(&BISHOP_VECTORS), code: "B3" },
    KindInfo { walk: Walk::Lion(&QUEEN_VECTORS, 1), code: "LI" },
    KindInfo { walk: Walk::Lion(&ROOK_VECTORS, 1), code: "RL" },
    KindInfo { walk: Walk::Lion(&BISHOP_VECTORS, 1), code: "BL" },
    KindInfo { walk: Walk::Lion(&KNIGHT_VECTORS, 1), code: "NL" },
    KindInfo { walk: Walk::Kangaroo(&QUEEN_VECTORS), code: "KA" },
    KindInfo { walk: Walk::Chinese(&QUEEN_VECTORS), code: "LE" },
    KindInfo { walk: Walk::Xiangqi { diagonal_first: false, rider: false }, code: "MA" },
    KindInfo { walk: Walk::Xiangqi { diagonal_first: true, rider: false }, code: "MO" },
    KindInfo { walk: Walk::Xiangqi { diagonal_first: false, rider: true }, code: "AO" },
    KindInfo { walk: Walk::Xiangqi { diagonal_first: true, rider: true }, code: "OA" },
    KindInfo { walk: Walk::Equihopper { queen_lines_only: false }, code: "EQ" },
    KindInfo { walk: Walk::Equihopper { queen_lines_only: true }, code: "OR" },
    KindInfo { walk: Walk::NonstopEquihopper, code: "NE" },
    KindInfo { walk: Walk::Hopper(&ROOK_VECTORS), code: "RH" },
    KindInfo { walk: Walk::Hopper(&BISHOP_VECTORS), code: "BH" },
    KindInfo { walk: Walk::Hopper(&CAMEL), code: "CH" },
    KindInfo { walk: Walk::Hopper(&ZEBRA), code: "ZH" },
    KindInfo { walk: Walk::Leaper(&ROOK_VECTORS), code: "WE" },
    KindInfo { walk: Walk::Leaper(&BISHOP_VECTORS), code: "FE" },
    KindInfo { walk: Walk::Leaper(&DABBABA), code: "DA" },
    KindInfo { walk: Walk::Leaper(&ALFIL), code: "AL" },
    KindInfo { walk: Walk::Leaper(&ANTELOPE), code: "AN" },
    KindInfo { walk: Walk::Leaper(&BUCEPHALE), code: "BU" },
    KindInfo { walk: Walk::Leaper(&SQUIRREL), code: "SQ" },
    KindInfo { walk: Walk::Rider(&GNU), code: "GR" },
    KindInfo { walk: Walk::Compound(&[QUEEN_RIDER, KNIGHT_LEAPER]), code: "AM" },
    KindInfo { walk: Walk::Compound(&[ROOK_RIDER, KNIGHT_LEAPER]), code: "EM" },
    KindInfo { walk: Walk::Compound(&[BISHOP_RIDER, KNIGHT_LEAPER]), code: "PR" },
    KindInfo { walk: Walk::Compound(&[ROOK_RIDER, NIGHTRIDER_RIDER]), code: "WA" },
    KindInfo { walk: Walk::AngleHopper(&QUEEN_VECTORS, 1), code: "M" },
    KindInfo { walk: Walk::AngleHopper(&QUEEN_VECTORS, 2), code: "EA" },
    KindInfo { walk: Walk::AngleHopper(&QUEEN_VECTORS, 3), code: "SW" },
    KindInfo { walk: Walk::AngleHopper(&ROOK_VECTORS, 1), code: "RM" },
    KindInfo { walk: Walk::AngleHopper(&ROOK_VECTORS, 2), code: "RE" },
    KindInfo { walk: Walk::AngleHopper(&ROOK_VECTORS, 3), code: "RW" },
    KindInfo { walk: Walk::AngleHopper(&BISHOP_VECTORS, 1), code: "BM" },
    KindInfo { walk: Walk::AngleHopper(&BISHOP_VECTORS, 2), code: "BE" },
    KindInfo { walk: Walk::AngleHopper(&BISHOP_VECTORS, 3), code: "BW" },
    KindInfo { walk: Walk::Rose(RoseKind::Hopper), code: "RP" },
    KindInfo { walk: Walk::Rose(RoseKind::Lion), code: "RN" },
    KindInfo { walk: Walk::Rose(RoseKind::Rao), code: "RA" },
    KindInfo { walk: Walk::Locust(&QUEEN_VECTORS), code: "L" },
    KindInfo { walk: Walk::Locust(&ROOK_VECTORS), code: "LR" },
    KindInfo { walk: Walk::Locust(&BISHOP_VECTORS), code: "LB" },
    KindInfo { walk: Walk::Locust(&KNIGHT_VECTORS), code: "LN" },
    KindInfo { walk: Walk::Orphan, code: "O" },
    KindInfo { walk: Walk::BerolinaPawn, code: "BP" },
];
const _: () = assert!(matches!(KINDS[LOCUST as usize].walk, Walk::Locust(_)));
const _: () = assert!(matches!(KINDS[ORPHAN as usize].walk, Walk::Orphan));
const _: () = assert!(matches!(KINDS[BEROLINA_PAWN as usize].walk, Walk::BerolinaPawn));

/// Orthodox kinds a pawn may promote to, in Popeye's output order (the fairy kinds present in
/// the position follow, see `Board::promotion_fairies`).
pub const PROMOTIONS: [Kind; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// Popeye's fairy piece codes (English input language) with their names, so that a code we do
/// not support is reported as an unsupported piece rather than an unknown one. The numeric
/// (x,y)-leaper codes are recognised by [`is_numeric_leaper_code`].
pub const FAIRY_CODES: &[(&str, &str)] = &[
    ("G", "grasshopper"),
    ("N", "nightrider"),
    ("NH", "nightrider-hopper"),
    ("CA", "camel"),
    ("Z", "zebra"),
    ("GI", "giraffe"),
    ("RF", "root-50-leaper"),
    ("BU", "bucephale"),
    ("WE", "wazir"),
    ("AL", "alfil"),
    ("FE", "fers"),
    ("DA", "dabbaba"),
    ("LI", "lion"),
    ("NE", "non-stop equihopper"),
    ("L", "locust"),
    ("BP", "berolina pawn"),
    ("AM", "amazon"),
    ("EM", "empress"),
    ("PR", "princess"),
    ("GN", "gnu"),
    ("AN", "antelope"),
    ("SQ", "squirrel"),
    ("WA", "waran"),
    ("DR", "dragon"),
    ("KA", "kangaroo"),
    ("SS", "spiral springer"),
    ("UU", "ubi-ubi"),
    ("HA", "hamster"),
    ("M", "moose"),
    ("EA", "eagle"),
    ("SW", "sparrow"),
    ("AR", "archbishop"),
    ("RB", "reflecting bishop"),
    ("C", "cardinal"),
    ("DU", "dummy"),
    ("CR", "camelrider"),
    ("ZR", "zebrarider"),
    ("GR", "gnurider"),
    ("CH", "camelrider-hopper"),
    ("ZH", "zebrarider-hopper"),
    ("GH", "gnurider-hopper"),
    ("DS", "diagonal spiral springer"),
    ("BK", "bouncy knight"),
    ("EQ", "equihopper"),
    ("CT", "cat"),
    ("BS", "berolina superpawn"),
    ("SP", "superpawn"),
    ("RL", "rook-lion"),
    ("BL", "bishop-lion"),
    ("SI", "sirene"),
    ("TR", "triton"),
    ("ND", "nereide"),
    ("O", "orphan"),
    ("EH", "edgehog"),
    ("MO", "moa"),
    ("RR", "rook-hunter"),
    ("BR", "bishop-hunter"),
    ("AO", "maorider"),
    ("OA", "moarider"),
    ("RH", "rook-hopper"),
    ("BH", "bishop-hopper"),
    ("EK", "erlking"),
    ("BT", "boyscout"),
    ("GT", "girlscout"),
    ("SK", "skylla"),
    ("CY", "charybdis"),
    ("CG", "contra-grasshopper"),
    ("RN", "rose-lion"),
    ("RP", "rose-hopper"),
    ("OK", "okapi"),
    ("G2", "grasshopper-2"),
    ("G3", "grasshopper-3"),
    ("DG", "double grasshopper"),
    ("KH", "king-hopper"),
    ("OR", "orix"),
    ("GL", "gral"),
    ("LR", "rook-locust"),
    ("LB", "bishop-locust"),
    ("LN", "nightrider-locust"),
    ("WR", "wazirrider"),
    ("FR", "fersrider"),
    ("BI", "bison"),
    ("ET", "elephant"),
    ("NA", "nao"),
    ("LE", "leo"),
    ("MA", "mao"),
    ("PA", "pao"),
    ("VA", "vao"),
    ("RO", "rose"),
    ("RM", "rook-moose"),
    ("RE", "rook-eagle"),
    ("RW", "rook-sparrow"),
    ("BM", "bishop-moose"),
    ("BE", "bishop-eagle"),
    ("BW", "bishop-sparrow"),
    ("RA", "rao"),
    ("SO", "scorpion"),
    ("MG", "marguerite"),
    ("NL", "nightrider-lion"),
    ("ML", "maorider-lion"),
    ("MM", "moarider-lion"),
    ("F", "friend"),
    ("DO", "dolphin"),
    ("RT", "rabbit"),
    ("BO", "bob"),
    ("QE", "equi-english"),
    ("QF", "equi-french"),
    ("QQ", "querquisite"),
    ("B1", "bouncer"),
    ("B2", "rook-bouncer"),
    ("B3", "bishop-bouncer"),
    ("CP", "chinese pawn"),
    ("RK", "radial knight"),
    ("PP", "protean pawn"),
    ("LS", "rose-locust"),
    ("ZE", "zebu"),
    ("BN", "bouncy nightrider"),
    ("S2", "spiral springer (2,0)"),
    ("S4", "spiral springer (4,0)"),
    ("S1", "diagonal spiral springer (1,1)"),
    ("S3", "diagonal spiral springer (3,3)"),
    ("QN", "quintessence"),
    ("DK", "double rook-hopper"),
    ("DB", "double bishop-hopper"),
    ("NO", "non-stop orix"),
    ("TH", "treehopper"),
    ("LH", "leafhopper"),
    ("GE", "greater treehopper"),
    ("GF", "greater leafhopper"),
    ("KL", "kangaroo-lion"),
    ("KO", "kao"),
    ("KP", "knight-hopper"),
    ("SH", "ship"),
    ("GY", "gryphon"),
    ("MS", "marine knight"),
    ("PO", "poseidon"),
    ("MP", "marine pawn"),
    ("MH", "marine ship"),
    ("ST", "sting"),
    ("SE", "senora"),
    ("FA", "faro"),
    ("LO", "loco"),
    ("SL", "saltador"),
    ("AH", "mao-hopper"),
    ("OH", "moa-hopper"),
    ("HC", "contra-hamster"),
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
