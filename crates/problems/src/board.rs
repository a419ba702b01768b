//! The solver board: pieces of data-driven kinds on 64 squares, make/unmake with small undo
//! records, legal move generation by "make, is my king attacked, unmake", goal tests and a
//! Zobrist key for the solver's hash tables.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color, Square};

use crate::walk::{self, Kind, KindSet, RoseKind, Walk, KINDS, NUM_KINDS};

/// A coloured piece on the solver board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// What a move does besides moving a piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    None,
    /// Pawn double step (sets the en-passant square).
    Double,
    /// En-passant capture; the captured pawn stands on `cap`.
    EnPassant {
        cap: u8,
    },
    /// Castling; the rook moves `rook_from` -> `rook_to`.
    Castle {
        rook_from: u8,
        rook_to: u8,
    },
    /// Promotion to the given kind.
    Promote(Kind),
    /// Bul: the hurdle, a pawn, reaches its last rank with the hurdle move ([`Move::extra`]) and
    /// promotes to the given kind.
    HurdlePromote(Kind),
    /// AntiCirce: the capturing pawn is reborn on its last rank ([`Move::extra`]) and promotes
    /// to the given kind.
    RebirthPromote(Kind),
    /// The same after an en-passant capture (the captured pawn stands on `cap`).
    EnPassantRebirthPromote {
        cap: u8,
        kind: Kind,
    },
    /// Locust capture: the piece jumped over on `cap` is captured, the mover lands on `to`.
    Locust {
        cap: u8,
    },
}

/// A move on the solver board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub special: Special,
    /// Breton: the square of the mover's own piece removed after the capture; Bul: the square
    /// the hurdle moves to; AntiCirce: the capturing piece's rebirth square ([`NO_EXTRA`]: none).
    pub extra: u8,
}

/// Option NullMoves: the null move (the side to move passes), a sentinel in move lists; played
/// with [`Board::make_null`], written `...` (Popeye's `write_regular_move`: " ...").
pub const NULL_MOVE: Move = Move { from: 255, to: 255, special: Special::None, extra: NO_EXTRA };

/// Ghost chess: at most this many ghosts are kept (more captures in one line are not possible
/// with 32 pieces).
const MAX_GHOSTS: usize = 32;

/// `Move::extra` when the move has no extra effect.
pub const NO_EXTRA: u8 = 255;

/// `Move::extra` of a promotion (`Special::Promote`, any kind) under Condition Imitator: the pawn
/// becomes an imitator on its promotion square (`e7-e8=I`).
pub const IMITATOR_PROMOTION: u8 = 254;

/// Condition Imitator: at most this many imitators (Popeye: `maxinum`, 10).
pub const MAX_IMITATORS: usize = 10;

/// Condition Imitator: the imitators' squares, in Popeye's order (the order of the condition, a
/// pawn promoted into an imitator last); `n == 0`: no imitators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Imitators {
    pub sq: [u8; MAX_IMITATORS],
    pub n: u8,
}

impl Imitators {
    pub const NONE: Imitators = Imitators { sq: [0; MAX_IMITATORS], n: 0 };

    /// The squares, in order.
    pub fn squares(&self) -> &[u8] {
        &self.sq[..self.n as usize]
    }

    /// Adds an imitator on `s` (false if there are already [`MAX_IMITATORS`]).
    pub fn push(&mut self, s: u8) -> bool {
        if (self.n as usize) < MAX_IMITATORS {
            self.sq[self.n as usize] = s;
            self.n += 1;
            true
        } else {
            false
        }
    }

    /// The squares as a bitboard.
    pub fn bitboard(&self) -> Bitboard {
        let mut b = Bitboard(0);
        for &s in self.squares() {
            b.set(sq(s));
        }
        b
    }
}

/// ChecklessChess: the mate test of a checking move asks whether the checked side has a legal
/// reply, and a reply that checks back asks the same of the other side. Popeye stops such nested
/// tests at its ply limit and then takes the move as illegal (its "undecidable" case); we stop
/// after this many nested tests.
pub const CHECKLESS_MAX_DEPTH: u8 = 24;

/// BackHome: how deep the tests "has this side a legal move back home?" may nest (a move's
/// legality asks whether the other side checks, which under BackHome asks whether the other side
/// has a legal move back home, ...); deeper, the answer is no (Popeye stops at its ply limit).
pub const BACK_HOME_MAX_DEPTH: u8 = 8;

/// What is needed to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Option<(u8, Piece)>,
    /// Circe: the captured piece reborn on this square.
    reborn: Option<(u8, Piece)>,
    castling: u8,
    ep: Option<(u8, u8)>,
    key: u64,
    /// The move's condition effects are on the board's side stack ([`Board::effects`]).
    ext: bool,
    /// A promotion by a Berolina pawn (unmake puts the Berolina pawn back, not a pawn).
    berolina: bool,
}

impl Undo {
    /// Circe: the square and piece of the rebirth the move caused, if any.
    pub fn reborn(&self) -> Option<(u8, Piece)> {
        self.reborn
    }
}

/// The effects of a move under Breton, BGL, ChameleonPursuit, Bul, AntiCirce or GhostChess
/// and what is needed to take them back (kept on a side stack of the board, see
/// [`Board::effects`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Effects {
    /// Breton: the mover's own piece removed after its capture.
    breton: Option<(u8, Piece)>,
    /// BGL: the budgets before the move.
    bgl_left: [i32; 2],
    /// Chameleon pursuit: the departure square of the move before, and whether this move's
    /// piece changed sides.
    last_from: u8,
    side_changed: bool,
    /// Bul: the hurdle's square, its arrival square and the piece as it was.
    hurdle: Option<(u8, u8, Piece)>,
    /// Bul: the squares of Bul pieces before the move.
    bul: Bitboard,
    /// The squares of the neutral pieces before the move.
    neutral: Bitboard,
    /// AntiCirce: the capturing piece's rebirth square and the piece as it stood on the capture
    /// square.
    anti: Option<(u8, Piece)>,
    /// Ghost chess: the captured piece became a ghost; the ghost summoned on the departure
    /// square (its index in the ghost list, square, piece); the uncapturable pieces before.
    ghost_pushed: bool,
    ghost_summoned: Option<(u8, u8, Piece)>,
    uncapturable: Bitboard,
    /// Circe Parrain: the capture waiting for its rebirth before the move, and the piece reborn
    /// by this move (square, piece as placed).
    parrain_before: Option<(u8, Piece)>,
    parrain_reborn: Option<(u8, Piece)>,
    /// Imitator: the imitators before the move.
    imitators: Imitators,
    /// BackHome: the moved piece's home, the captured piece's home, the castling rook's home.
    home_moved: u8,
    home_captured: u8,
    home_rook: u8,
}

impl Effects {
    /// Breton: the square and piece removed after the capture, if any.
    pub fn breton_removed(&self) -> Option<(u8, Piece)> {
        self.breton
    }

    /// Circe Parrain: the piece reborn after this move (square, piece as placed), if any.
    pub fn parrain_reborn(&self) -> Option<(u8, Piece)> {
        self.parrain_reborn
    }

    /// Chameleon pursuit: did the moved piece change sides?
    pub fn side_changed(&self) -> bool {
        self.side_changed
    }

    /// AntiCirce: the capturing piece's rebirth (rebirth square, the piece as it stood on the
    /// capture square), if any.
    pub fn anti_reborn(&self) -> Option<(u8, Piece)> {
        self.anti
    }

    /// Ghost chess: the ghost that reappeared on the departure square, if any.
    pub fn ghost_summoned(&self) -> Option<(u8, Piece)> {
        self.ghost_summoned.map(|(_, s, p)| (s, p))
    }

    /// Bul: the hurdle's move (from, to, the piece before the move), if any.
    pub fn hurdle_moved(&self) -> Option<(u8, u8, Piece)> {
        self.hurdle
    }
}

/// Castling right bits: white king side (rook h1), white queen side (a1), black h8, black a8.
pub const CASTLE_WK: u8 = 1;
pub const CASTLE_WQ: u8 = 2;
pub const CASTLE_BK: u8 = 4;
pub const CASTLE_BQ: u8 = 8;
/// The white king has not left e1 (Popeye's king castling flag): with Circe, a white rook reborn
/// on a1/h1 regains its castling right while this bit is set. 32: the same for Black (e8).
pub const KING_HOME_W: u8 = 16;
pub const KING_HOME_B: u8 = 32;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const ZOBRIST_PIECES: usize = 2 * NUM_KINDS * 64;
static ZOBRIST: [u64; ZOBRIST_PIECES + 64 + 64 + 1] = {
    let mut t = [0u64; ZOBRIST_PIECES + 64 + 64 + 1];
    let mut i = 0;
    while i < t.len() {
        t[i] = splitmix(0x6d79_736c_5f70_726f ^ (i as u64).wrapping_mul(0x1000_0000_01b3));
        i += 1;
    }
    t
};

#[inline(always)]
fn z_piece(p: Piece, sq: u8) -> u64 {
    ZOBRIST[(p.color.index() * NUM_KINDS + p.kind as usize) * 64 + sq as usize]
}
#[inline(always)]
fn z_castle(c: u8) -> u64 {
    ZOBRIST[ZOBRIST_PIECES + c as usize]
}
#[inline(always)]
fn z_ep(sq: u8) -> u64 {
    ZOBRIST[ZOBRIST_PIECES + 64 + sq as usize]
}
const Z_SIDE: usize = ZOBRIST_PIECES + 64 + 64;

#[inline(always)]
fn sq(i: u8) -> Square {
    Square::from_index(i as u32)
}

/// The solver board.
#[derive(Clone, Debug)]
pub struct Board {
    squares: [Option<Piece>; 64],
    by_color: [Bitboard; 2],
    by_kind: [[Bitboard; NUM_KINDS]; 2],
    /// Squares of fairy pieces per colour (so orthodox positions skip the fairy code at once).
    fairy: [Bitboard; 2],
    pub side: Color,
    pub castling: u8,
    /// En-passant: (square passed over, square of the pawn that can be taken).
    pub ep: Option<(u8, u8)>,
    /// Pairs of castling-right bits that exclude each other (Option CastlingMutuallyExclusive).
    pub castling_exclusive: Vec<(u8, u8)>,
    /// Condition Circe (and its Chameleon and Clone variants): a captured piece other than a king
    /// is reborn on its game-array square ([`rebirth_square`]) if that square is empty after the
    /// move, else it vanishes.
    pub circe: Circe,
    /// Circe RexInclusive: kings are reborn too (on e1/e8, or e8/e1 for Mirror Circe), so a king
    /// is in check only if its capture would leave its rebirth square occupied (Popeye's
    /// `STValidateCheckMoveByPlayingCapture` with the king-capture goal), and a king whose capture
    /// would be reborn may be captured (it is reborn).
    pub circe_rex: bool,
    /// Madrasi or Isardam (see [`Paralysis`]).
    pub paralysis: Paralysis,
    /// Condition Breton: after a capture, one of the mover's own pieces of the captured piece's
    /// kind (the capturing piece included, as it stands after the move) is removed, the mover's
    /// choice (each choice is a move of its own, [`Move::extra`]); none if it has no such piece.
    pub breton: bool,
    /// Condition BGL (see [`Bgl`]).
    pub bgl: Bgl,
    /// Condition ChameleonPursuit: a piece other than a king that moves to the square the
    /// opponent's previous move started from changes sides (it becomes the opponent's).
    pub chameleon_pursuit: bool,
    /// The departure square of the last move played ([`NO_EXTRA`]: none, as before the first
    /// move and after a null move); kept only under ChameleonPursuit, part of the hash key.
    pub last_from: u8,
    /// Squares of the pieces with Popeye's attribute Bul (only hoppers of [`Walk::Hopper`]): after
    /// a Bul hopper's move its hurdle moves as the hopper would, without capturing (each
    /// possible such move a move of its own, [`Move::extra`], a pawn reaching its last rank
    /// promoting); a Bul move whose hurdle cannot move is illegal. Checks are the hopper's plain
    /// attacks. The attribute moves with the piece; part of the hash key.
    pub bul: Bitboard,
    /// Neutral pieces (Popeye's colour `Neutral`): the squares of the pieces that belong to both
    /// sides; see [`Board::neutral_pseudo_moves`]. Between moves they are stored as white pieces;
    /// the attribute moves with its piece (a promoted neutral pawn gives a neutral piece) and is
    /// part of the hash key.
    pub neutral: Bitboard,
    /// Condition AntiCirce (see [`AntiCirce`]).
    pub anticirce: AntiCirce,
    /// Condition TransmutedKings: a king attacked by enemy pieces moves and attacks only as
    /// pieces of their kinds (its own colour's pawn for a pawn) do, not as a king; a king not
    /// attacked is an ordinary king. Which pieces attack a king is decided with the plain
    /// attacks (the enemy king as a king), as Popeye does.
    pub transmuted_kings: bool,
    /// Condition Pepo: a king is in check only when at least two enemy pieces other than the king
    /// attack it; a king attacked by any enemy piece cannot move (it is paralysed).
    pub pepo: bool,
    /// Conditions WhiteMaximummer / BlackMaximummer (by colour index): that side plays only its
    /// longest legal moves, by the squared distance between departure and arrival square (the
    /// king's for castling). Checks are not affected (Popeye's regular, not ultra, mummer).
    pub maximummer: [bool; 2],
    /// Condition AndernachChess: a piece other than a king that captures changes sides on its
    /// arrival square (a promoting pawn after its promotion). Checks are the plain attacks.
    pub andernach: bool,
    /// Condition GhostChess: a captured piece becomes a ghost under its square; when a piece
    /// next leaves that square, the latest ghost there reappears on it as an uncapturable piece
    /// of its colour (`[+wuPc3]`). Ghosts are a list (part of the hash key).
    pub ghost_chess: bool,
    ghosts: [(u8, Piece); MAX_GHOSTS],
    n_ghosts: u8,
    /// Pieces that cannot be captured (ghosts that reappeared: `uPc3-c4`); part of the hash key.
    pub uncapturable: Bitboard,
    /// Condition ChecklessChess (Popeye's `ohneschach`): a move that gives check is illegal unless
    /// it mates, for both sides; the checked side's replies are judged by the same rule (so a
    /// reply that checks back must itself mate). See [`Board::in_check`].
    pub checkless: bool,
    /// Condition Hole: squares that are not part of the board. No piece stands on, moves to or
    /// passes over a hole (lines end there as at the edge; a hole is no hurdle); they count as
    /// occupied in [`Board::occupied`].
    pub holes: Bitboard,
    /// Condition AnnanChess (Popeye's default type A): a piece with a piece of its own colour
    /// directly behind it (one rank towards its own side: below a white piece, above a black one)
    /// moves, captures and checks as that piece (its *annaniser*) would from its own square; kings
    /// annanise and are annanised like any other piece. See [`Board::annan_walker`].
    pub annan: bool,
    /// Condition Circe Parrain: a piece captured (not a king) is reborn after the next move (the
    /// captured side's), on the square displaced from the capture square by that move's vector
    /// (the sum of its piece movements: king and rook for castling), if that square is on the
    /// board and empty after the move; else it is gone. A pawn reborn on its last rank promotes
    /// (the choice is [`Move::extra`], a kind); a pawn on its own first rank steps one square.
    pub parrain: bool,
    /// Circe Parrain: the capture of the last move (capture square, captured piece), waiting
    /// for its rebirth; part of the hash key.
    pub parrain_pending: Option<(u8, Piece)>,
    /// Conditions MarsCirce and AntiMarsCirce (see [`Mars`]).
    pub mars: Mars,
    /// Condition Imitator (see [`Board::imitators_follow`]): the imitators, which move with every
    /// move by its vector (the king's plus the rook's for castling); part of the hash key.
    pub imitators: Imitators,
    /// `NoIProm` (with Imitator): pawns do not promote into imitators.
    pub no_iprom: bool,
    /// Condition BackHome (Popeye's `conditions/backhome.c`): a side that has a legal move taking
    /// a piece back to its diagram square (its *home*; a promoted pawn keeps the pawn's) must play
    /// such a move; a piece observes (checks) only by such a capture, or when its side has no
    /// legal move back home. See [`Board::init_back_home`].
    pub back_home: bool,
    /// BackHome: for each square, the home of the piece on it ([`NO_EXTRA`]: none).
    home: [u8; 64],
    /// BackHome: how deep the legal-move-back-home tests are nested ([`BACK_HOME_MAX_DEPTH`]).
    back_home_depth: u8,
    /// Condition SingleBox Type1: no side may have more pieces of an orthodox kind than the game
    /// array has (1 Q, 2 R, 2 B, 2 S, 8 P), so a pawn promotes only to a kind it has fewer of
    /// (or to a fairy kind); a check by a capture that would promote counts only if such a
    /// promotion is possible (Popeye's `singlebox/type1.c`).
    pub singlebox: bool,
    /// Condition CastlingChess (Popeye's `conditions/castling_chess.c`): a king not in check may
    /// castle in any of the eight directions with the first piece along that line (of either
    /// colour, any kind) if at least two empty squares lie between them: the king goes two
    /// squares towards the partner, the partner to the square the king passed, which must not
    /// be attacked. No rights: any time, as often as possible. Orthodox castling is off. The
    /// moves are [`Special::Castle`] with the partner as the "rook".
    pub castling_chess: bool,
    /// Condition ExchangeCastling (Popeye's `conditions/exchange_castling.c`): once per side
    /// (per line of play), the king may exchange places with any of its own pieces other than a
    /// pawn, anywhere on the board (check or not; the move is legal if the king is not attacked
    /// after it). Orthodox castling is off. The moves are [`Special::Castle`] with the partner
    /// as the "rook" (`rook_from` the partner's square, `rook_to` the king's).
    pub exchange_castling: bool,
    /// ExchangeCastling: the sides that have exchanged (bit 1 White, 2 Black); part of the hash
    /// key.
    pub exchange_used: u8,
    /// ChecklessChess: how deep the mate tests of checking moves are nested (a board cloned for
    /// such a test has one more); beyond [`CHECKLESS_MAX_DEPTH`] a check counts as not mating.
    checkless_depth: u8,
    /// The effects of the condition moves made and not taken back ([`Effects`]).
    ext_undo: Vec<Effects>,
    /// Fairy kinds pawns may promote to besides Q R B S (bit k for kind k): Popeye offers the
    /// fairy kinds present in the position.
    pub promotion_fairies: KindSet,
    key: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

/// Removes the moves of `out[start..]` marked illegal by the condition filters (`from == to`), keeping the
/// order of the others.
fn drop_marked(out: &mut Vec<Move>, start: usize) {
    let mut w = start;
    for i in start..out.len() {
        if out[i].from != out[i].to {
            out[w] = out[i];
            w += 1;
        }
    }
    out.truncate(w);
}

impl Board {
    pub fn empty() -> Board {
        Board {
            squares: [None; 64],
            by_color: [Bitboard(0); 2],
            by_kind: [[Bitboard(0); NUM_KINDS]; 2],
            fairy: [Bitboard(0); 2],
            side: Color::White,
            castling: 0,
            ep: None,
            castling_exclusive: Vec::new(),
            circe: Circe::Off,
            circe_rex: false,
            paralysis: Paralysis::Off,
            breton: false,
            bgl: Bgl::OFF,
            chameleon_pursuit: false,
            last_from: NO_EXTRA,
            bul: Bitboard(0),
            neutral: Bitboard(0),
            anticirce: AntiCirce::Off,
            transmuted_kings: false,
            pepo: false,
            maximummer: [false; 2],
            andernach: false,
            ghost_chess: false,
            ghosts: [(0, Piece { color: Color::White, kind: walk::KING }); MAX_GHOSTS],
            n_ghosts: 0,
            uncapturable: Bitboard(0),
            checkless: false,
            holes: Bitboard(0),
            annan: false,
            parrain: false,
            parrain_pending: None,
            mars: Mars::Off,
            singlebox: false,
            castling_chess: false,
            exchange_castling: false,
            exchange_used: 0,
            imitators: Imitators::NONE,
            no_iprom: false,
            back_home: false,
            home: [NO_EXTRA; 64],
            back_home_depth: 0,
            checkless_depth: 0,
            ext_undo: Vec::new(),
            promotion_fairies: 0,
            key: 0,
        }
    }

    #[inline(always)]
    pub fn piece_at(&self, s: u8) -> Option<Piece> {
        self.squares[s as usize]
    }

    /// The occupied squares, holes included (nothing moves to or across them).
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1] | self.holes
    }

    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    pub fn kind_bb(&self, c: Color, k: Kind) -> Bitboard {
        self.by_kind[c.index()][k as usize]
    }

    /// The Zobrist key (pieces, side to move, castling rights, en-passant square; BGL budgets).
    pub fn key(&self) -> u64 {
        let k = self.key
            ^ z_castle(self.castling)
            ^ self.ep.map_or(0, |(t, _)| z_ep(t))
            ^ if self.side == Color::Black { ZOBRIST[Z_SIDE] } else { 0 };
        if self.ext_active() {
            k ^ self.ext_key()
        } else {
            k
        }
    }

    /// The key of the conditions' state: BGL budgets, the last departure square
    /// (ChameleonPursuit), Bul pieces, ghosts and uncapturable pieces.
    #[inline(never)]
    fn ext_key(&self) -> u64 {
        let mut k = 0;
        if self.bgl.on {
            k ^= splitmix(((self.bgl.left[0] as u32 as u64) << 32) | self.bgl.left[1] as u32 as u64);
        }
        if self.chameleon_pursuit {
            k ^= splitmix(0x6370_0000 ^ self.last_from as u64);
        }
        if self.bul.any() {
            k ^= splitmix(self.bul.0 ^ 0x6275_6c00_0000_0000);
        }
        if self.neutral.any() {
            k ^= splitmix(self.neutral.0 ^ 0x6e65_7500_0000_0000);
        }
        if let Some((cs, p)) = self.parrain_pending {
            k ^= splitmix(0x7061_7200_0000_0000 ^ z_piece(p, cs));
        }
        if self.imitators.n > 0 {
            k ^= splitmix(self.imitators.bitboard().0 ^ 0x696d_6900_0000_0000);
        }
        if self.exchange_castling {
            k ^= splitmix(0x6578_6300_0000_0000 ^ self.exchange_used as u64);
        }
        if self.back_home {
            for s in self.occupied() {
                k ^= splitmix(0x6268_0000 ^ ((s as u64) << 8) ^ self.home[s as usize] as u64);
            }
        }
        if self.ghost_chess {
            k ^= splitmix(self.uncapturable.0 ^ 0x7563_0000_0000_0000);
            for (i, &(g, p)) in self.ghosts[..self.n_ghosts as usize].iter().enumerate() {
                k ^= splitmix(z_piece(p, g).rotate_left(i as u32 + 1));
            }
        }
        k
    }

    /// Does a condition make every move a possible check or a possible self-check, so that the
    /// orthodox shortcuts (check masks, pin masks, check-reach bound) are off? Madrasi, Isardam,
    /// Breton (a removal may uncover a line), BGL (budgets decide attacks), ChameleonPursuit (a
    /// piece changing sides may attack its former king, or mate for its new side).
    #[inline(always)]
    pub fn attack_conditions(&self) -> bool {
        // Non-short-circuit `|`: the flags are loaded and or-ed without a branch each (orthodox
        // solving asks this for every move).
        (self.paralysis != Paralysis::Off)
            | self.breton
            | self.bgl.on
            | self.chameleon_pursuit
            | self.bul.any()
            | (self.anticirce != AntiCirce::Off)
            | self.transmuted_kings
            | self.pepo
            | self.ghost_chess
            // A checking move is legal only if it mates: no move is legal without the test.
            | self.checkless
            // Annan: a piece's walk depends on the piece behind it.
            | self.annan
            // Circe Parrain: a rebirth may check or block a check.
            | self.parrain
            // Neutral pieces check both kings and move for both sides.
            | self.neutral.any()
            // (Anti)Mars Circe: moves and checks start from rebirth squares.
            | (self.mars != Mars::Off)
            // SingleBox: promotions are restricted (the check generators do not know it).
            | self.singlebox
            // Circe RexInclusive: a move that fills or empties a king's rebirth square makes or
            // removes a check.
            | self.circe_rex
            // Imitator: a move is legal only if the imitators can follow it.
            | (self.imitators.n > 0)
            // BackHome: a piece checks only by going back home, or when its side cannot.
            | self.back_home
            // Castling chess, exchange castling: king moves the orthodox shortcuts do not know
            // (no castling rights, yet castling moves; a partner of either colour moves).
            | self.castling_chess
            | self.exchange_castling
            // Not an attack rule, but a capture can turn the capturer against its own king, so
            // the orthodox legality shortcuts must be off.
            | self.andernach
    }

    /// TransmutedKings: the kinds of the pieces of `!c` that attack the king of `c` (plain
    /// attacks), as a bit set (bit k for kind k); 0 without a king.
    pub fn transmutations(&self, c: Color) -> KindSet {
        let Some(k) = self.king_square(c) else { return 0 };
        let mut set: KindSet = 0;
        for f in self.color_bb(!c) {
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            if set & (1 << p.kind) == 0 && self.piece_attacks(f as u8, p, k) {
                set |= 1 << p.kind;
            }
        }
        set
    }

    /// TransmutedKings: does the king of `c` on `f` attack `s`?
    fn transmuted_king_attacks(&self, f: u8, c: Color, s: u8) -> bool {
        let mut t = self.transmutations(c);
        if t == 0 {
            return attacks::king_attacks(sq(f)).contains(sq(s));
        }
        while t != 0 {
            let kind = t.trailing_zeros() as Kind;
            t &= t - 1;
            if self.piece_attacks(f, Piece { color: c, kind }, s) {
                return true;
            }
        }
        false
    }

    /// TransmutedKings: the king's moves on `f` as pieces of the kinds in `t` (its own colour's
    /// pawn for a pawn: one or, from its second rank, two squares forward, diagonal captures;
    /// no promotion, no en passant).
    fn transmuted_king_moves(&self, f: u8, us: Color, mut t: KindSet, out: &mut Vec<Move>) {
        let own = self.color_bb(us);
        let occ = self.occupied();
        let mut targets = Bitboard(0);
        while t != 0 {
            let kind = t.trailing_zeros() as Kind;
            t &= t - 1;
            let from = sq(f);
            targets |= match KINDS[kind as usize].walk {
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                Walk::Pawn => {
                    let mut b = attacks::pawn_attacks(us, from) & self.color_bb(!us);
                    let (dir, start): (i8, u8) = if us == Color::White { (1, 1) } else { (-1, 6) };
                    if let Some(one) = offset(f, (0, dir)) {
                        if !occ.contains(sq(one)) {
                            b.set(sq(one));
                            if f / 8 == start {
                                if let Some(two) = offset(one, (0, dir)) {
                                    if !occ.contains(sq(two)) {
                                        b.set(sq(two));
                                    }
                                }
                            }
                        }
                    }
                    b
                }
                _ => self.fairy_targets(f, kind, us),
            };
        }
        for to in targets & !(own | self.holes) {
            out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
        }
    }

    pub fn put(&mut self, s: u8, p: Piece) {
        if let Some(old) = self.squares[s as usize] {
            self.remove(s, old);
        }
        self.add(s, p);
    }

    pub fn clear(&mut self, s: u8) {
        if let Some(old) = self.squares[s as usize] {
            self.remove(s, old);
        }
    }

    #[inline(always)]
    fn add(&mut self, s: u8, p: Piece) {
        self.squares[s as usize] = Some(p);
        self.by_color[p.color.index()].set(sq(s));
        self.by_kind[p.color.index()][p.kind as usize].set(sq(s));
        if p.kind >= walk::FIRST_FAIRY {
            self.fairy[p.color.index()].set(sq(s));
        }
        self.key ^= z_piece(p, s);
    }

    #[inline(always)]
    fn remove(&mut self, s: u8, p: Piece) {
        self.squares[s as usize] = None;
        self.by_color[p.color.index()].clear(sq(s));
        self.by_kind[p.color.index()][p.kind as usize].clear(sq(s));
        if p.kind >= walk::FIRST_FAIRY {
            self.fairy[p.color.index()].clear(sq(s));
        }
        self.key ^= z_piece(p, s);
    }

    /// Does `c` still have a castling right (either side)?
    pub fn has_castling_rights(&self, c: Color) -> bool {
        let bits = if c == Color::White { CASTLE_WK | CASTLE_WQ } else { CASTLE_BK | CASTLE_BQ };
        self.castling & bits != 0
    }

    /// Castling rights as Popeye assumes them: king and rook on their game-array squares.
    pub fn default_castling(&self) -> u8 {
        let mut c = 0;
        let is = |s: u8, col: Color, k: Kind| {
            self.piece_at(s) == Some(Piece { color: col, kind: k }) && !self.neutral.contains(sq(s))
        };
        if is(4, Color::White, walk::KING) {
            c |= KING_HOME_W;
            if is(7, Color::White, walk::ROOK) {
                c |= CASTLE_WK;
            }
            if is(0, Color::White, walk::ROOK) {
                c |= CASTLE_WQ;
            }
        }
        if is(60, Color::Black, walk::KING) {
            c |= KING_HOME_B;
            if is(63, Color::Black, walk::ROOK) {
                c |= CASTLE_BK;
            }
            if is(56, Color::Black, walk::ROOK) {
                c |= CASTLE_BQ;
            }
        }
        c
    }

    pub fn king_square(&self, c: Color) -> Option<u8> {
        self.kind_bb(c, walk::KING).first().map(|s| s as u8)
    }

    /// Is square `s` attacked by a piece of colour `by`?
    pub fn attacked(&self, s: u8, by: Color) -> bool {
        // The plain flags or-ed without a branch each, the others tested one by one.
        if (self.bgl.on | self.transmuted_kings | self.annan | self.singlebox | self.back_home)
            || self.paralysis != Paralysis::Off
            || self.bul.any()
            || self.anticirce.checks_by_capture()
            || self.mars == Mars::Mars
            || self.imitators.n > 0
        {
            return self.attacked_checked(s, by);
        }
        let t = sq(s);
        let occ = self.occupied();
        let k = &self.by_kind[by.index()];
        if (attacks::knight_attacks(t) & k[walk::KNIGHT as usize]).any() {
            return true;
        }
        if (attacks::king_attacks(t) & k[walk::KING as usize]).any() {
            return true;
        }
        if (attacks::pawn_attacks(!by, t) & k[walk::PAWN as usize]).any() {
            return true;
        }
        let q = k[walk::QUEEN as usize];
        if (attacks::rook_attacks(t, occ) & (k[walk::ROOK as usize] | q)).any() {
            return true;
        }
        if (attacks::bishop_attacks(t, occ) & (k[walk::BISHOP as usize] | q)).any() {
            return true;
        }
        self.fairy[by.index()].any() && self.fairy_attacked(s, by)
    }

    /// Does the piece on `f` attack square `s` by its walk (geometry only)?
    fn piece_attacks(&self, f: u8, p: Piece, s: u8) -> bool {
        let (from, t, occ) = (sq(f), sq(s), self.occupied());
        match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from).contains(t),
            Walk::Queen => attacks::queen_attacks(from, occ).contains(t),
            Walk::Rook => attacks::rook_attacks(from, occ).contains(t),
            Walk::Bishop => attacks::bishop_attacks(from, occ).contains(t),
            Walk::Knight => attacks::knight_attacks(from).contains(t),
            Walk::Pawn => attacks::pawn_attacks(p.color, from).contains(t),
            _ => self.fairy_targets(f, p.kind, p.color).contains(t),
        }
    }

    /// Madrasi observation: is the piece on `z` (not a king) attacked by an enemy piece of the
    /// same kind (geometry only, as Popeye's `madrasi_is_moving_piece_observed`)?
    pub fn observed_by_same_walk(&self, z: u8) -> bool {
        let Some(p) = self.piece_at(z) else { return false };
        if p.kind == walk::KING {
            return false;
        }
        let enemies = self.kind_bb(!p.color, p.kind);
        if !enemies.any() {
            return false;
        }
        let mut it = enemies.into_iter();
        Iterator::any(&mut it, |x| self.piece_attacks(x as u8, Piece { color: !p.color, kind: p.kind }, z))
    }

    /// Is any piece observed by an enemy piece of its own kind (an Isardam-illegal position)?
    pub fn any_same_walk_observation(&self) -> bool {
        let mut it = self.occupied().into_iter();
        Iterator::any(&mut it, |z| self.observed_by_same_walk(z as u8))
    }

    /// `attacked` under Madrasi, Isardam or BGL: attackers one by one. Madrasi: a paralysed piece
    /// (observed by an enemy piece of its kind; kings never) does not attack. Isardam: an attack
    /// counts only if the capture on `s` would be legal, i.e. leave no same-kind observation
    /// (Popeye's observation validator for Isardam type A). BGL: only if the attacker's side can
    /// pay the distance to `s`.
    fn attacked_checked(&self, s: u8, by: Color) -> bool {
        // BackHome: whether `by` has a legal move back home (asked once, when needed).
        let mut home_move: Option<bool> = None;
        for f in self.color_bb(by) {
            let f = f as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            if self.bgl.on && bgl_cost(f, s) > self.bgl.left[by.index()] {
                continue;
            }
            let hit = if self.mars == Mars::Mars {
                self.mars_attacks(f, p, s)
            } else if p.kind == walk::KING && self.transmuted_kings {
                self.transmuted_king_attacks(f, by, s)
            } else if self.annan {
                // Annan: the piece attacks with its annaniser's walk; a pawn walk on its own
                // first rank attacks nothing (it has no moves there).
                let w = self.annan_walker(f, p);
                let first = if by == Color::White { 0 } else { 7 };
                !(w.kind == walk::PAWN && f / 8 == first) && self.piece_attacks(f, w, s)
            } else {
                self.piece_attacks(f, p, s)
            };
            if !hit {
                continue;
            }
            // BackHome: only a capture going back home observes, unless the side has no legal
            // move back home (Popeye's `back_home_validate_observation`).
            if self.back_home
                && self.home[f as usize] != s
                && *home_move.get_or_insert_with(|| self.back_home_exists(by))
            {
                continue;
            }
            // Imitator: the capture is a move only if the imitators can follow it.
            if self.imitators.n > 0 && !self.imitators_follow(f, s, p.kind, Special::None) {
                continue;
            }
            // SingleBox: a pawn's capture on its last rank must be able to promote.
            if self.singlebox && p.kind == walk::PAWN && s / 8 == if by == Color::White { 7 } else { 0 } {
                let mut kinds = self.promotion_fairies;
                for k in walk::PROMOTIONS {
                    kinds |= 1 << k;
                }
                if !(0..NUM_KINDS as Kind).any(|k| kinds & (1 << k) != 0 && self.singlebox_allows(by, k)) {
                    continue;
                }
            }
            // Plain AntiCirce: the capture is a move only if the capturer can be reborn.
            if self.anticirce.plain() && !self.anticirce_capture_legal(f, p, s) {
                continue;
            }
            // AntiCirce Cage: only if the capturer then has a cage.
            if self.anticirce == AntiCirce::Cage && !self.anticirce_cage_capture_legal(f, p, s) {
                continue;
            }
            // Bul: the capture is a move only if the hurdle can then move.
            if self.bul.contains(sq(f)) {
                if let Walk::Hopper(v) = KINDS[p.kind as usize].walk {
                    if self.bul_hurdle_targets(f, s, v, &mut [0u8; 16]) == 0 {
                        continue;
                    }
                }
            }
            match self.paralysis {
                Paralysis::Madrasi if self.observed_by_same_walk(f) => continue,
                Paralysis::Isardam => {
                    let mut after = self.clone();
                    after.paralysis = Paralysis::Off;
                    after.clear(f);
                    after.put(s, p);
                    if after.any_same_walk_observation() {
                        continue;
                    }
                }
                _ => {}
            }
            return true;
        }
        false
    }

    /// AnnanChess: the piece whose walk the piece `p` on `f` moves with: the piece of its colour
    /// directly behind it (on `f - 8` for White, `f + 8` for Black; Popeye's `annanises`, type A:
    /// any piece, kings included), else `p` itself. Only the kind counts; the colour is `p`'s.
    #[inline]
    pub fn annan_walker(&self, f: u8, p: Piece) -> Piece {
        let rear = if p.color == Color::White { f.checked_sub(8) } else { Some(f + 8).filter(|&r| r < 64) };
        match rear.and_then(|r| self.squares[r as usize]) {
            Some(q) if q.color == p.color => Piece { color: p.color, kind: q.kind },
            _ => p,
        }
    }

    /// Plain AntiCirce: could the piece `p` on `f` capture on `s` (a plain capture, no en passant)
    /// and be reborn? Its rebirth square must be empty after the capture: `f` is, `s` is under
    /// Calvet but not under Cheylan. A pawn capturing onto its last rank may be reborn as any
    /// kind it can promote to.
    fn anticirce_capture_legal(&self, f: u8, p: Piece, s: u8) -> bool {
        let free = |r: u8| {
            if r == s {
                self.anticirce == AntiCirce::Calvet
            } else {
                r == f || self.squares[r as usize].is_none()
            }
        };
        let last = if p.color == Color::White { 7 } else { 0 };
        if p.kind == walk::PAWN && s / 8 == last {
            let mut kinds = self.promotion_fairies;
            for k in walk::PROMOTIONS {
                kinds |= 1 << k;
            }
            while kinds != 0 {
                let k = kinds.trailing_zeros() as Kind;
                kinds &= kinds - 1;
                if free(rebirth_square(Piece { color: p.color, kind: k }, s)) {
                    return true;
                }
            }
            return false;
        }
        free(rebirth_square(p, s))
    }

    /// AntiCirce Cage: could the piece `p` on `f` capture on `s` (a plain capture, as a check is
    /// one) and be reborn in a cage? After the capture `f` and `s` are empty (Calvet: the
    /// capturer may be reborn where it captured); a pawn capturing onto its last rank is reborn
    /// as any kind it promotes to, a pawn reborn on its last rank promotes. The capture is legal
    /// if some empty square is a cage for the reborn piece ([`Board::anticirce_caged`]); the
    /// capturer's own king does not matter (a check is a check even from a pinned piece).
    #[inline(never)]
    fn anticirce_cage_capture_legal(&self, f: u8, p: Piece, s: u8) -> bool {
        let mut b = self.clone();
        b.clear(f);
        b.clear(s);
        let last = if p.color == Color::White { 7 } else { 0 };
        let mut kinds: KindSet = 1 << p.kind;
        if p.kind == walk::PAWN && s / 8 == last {
            kinds = self.promotion_fairies;
            for k in walk::PROMOTIONS {
                kinds |= 1 << k;
            }
        }
        let empty = !b.occupied();
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as Kind;
            kinds &= kinds - 1;
            for r in empty {
                let r = r as u8;
                let mut reborn: KindSet = 1 << kind;
                if kind == walk::PAWN && r / 8 == last {
                    reborn = self.promotion_fairies;
                    for k in walk::PROMOTIONS {
                        reborn |= 1 << k;
                    }
                }
                while reborn != 0 {
                    let k = reborn.trailing_zeros() as Kind;
                    reborn &= reborn - 1;
                    b.put(r, Piece { color: p.color, kind: k });
                    let caged = b.anticirce_caged(r);
                    b.clear(r);
                    if caged {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// AntiCirce Cage: is the piece on `r` caged, i.e. without a legal non-capturing move (its
    /// side's king not in check after it, checks as AntiCirce Cage has them)? Popeye's
    /// `circe_cage_cage_tester_solve` with its non-capturing-move finder (captures are not
    /// looked at). The side to move, en passant and castling rights are as they were after.
    /// The recursion ends: a check test plays a king capture, after which that side has no king
    /// and the nested legality test of its opponent's cage candidate finds no check.
    pub fn anticirce_caged(&mut self, r: u8) -> bool {
        let p = self.squares[r as usize].expect("reborn piece");
        let c = p.color;
        let (side, castling) = (self.side, self.castling);
        self.side = c;
        self.castling = 0;
        let mut moves = Vec::new();
        let theirs = self.color_bb(!c);
        let occ = self.occupied() | self.holes;
        let blocked = self.color_bb(c) | self.holes;
        self.piece_moves_plain(sq(r), c, theirs, occ, blocked, &mut moves);
        let mut caged = true;
        for m in moves {
            if m.from != r || self.is_capture(m) {
                continue;
            }
            let u = self.make(m);
            let legal = !self.in_check(c);
            self.unmake(m, u);
            if legal {
                caged = false;
                break;
            }
        }
        self.side = side;
        self.castling = castling;
        caged
    }

    /// Does a piece of colour `by` have a fairy kind?
    #[inline(always)]
    pub fn has_fairy(&self, by: Color) -> bool {
        self.fairy[by.index()].any()
    }

    /// The fairy kinds present on the board, as a bit set (bit k for kind k).
    pub fn fairy_kinds_present(&self) -> KindSet {
        let mut m: KindSet = 0;
        for k in walk::FIRST_FAIRY as usize..NUM_KINDS {
            if self.by_kind[0][k].any() || self.by_kind[1][k].any() {
                m |= 1 << k;
            }
        }
        m
    }

    /// Is square `s` attacked by a fairy piece of colour `by`? Leapers, riders, hoppers (also
    /// long ones) and Chinese pieces are symmetric, so their walk is followed backwards from `s`;
    /// lions, roses and bouncers generate each piece's captures.
    #[inline(never)]
    fn fairy_attacked(&self, s: u8, by: Color) -> bool {
        for kind in walk::FIRST_FAIRY..NUM_KINDS as Kind {
            let pieces = self.by_kind[by.index()][kind as usize];
            if !pieces.any() {
                continue;
            }
            let found = |t: u8| pieces.contains(sq(t));
            let hit = match KINDS[kind as usize].walk {
                Walk::Leaper(v) => v.iter().any(|&d| self.step(s, d).is_some_and(found)),
                Walk::Rider(v) => v.iter().any(|&d| self.ride_to_piece(s, d).is_some_and(found)),
                // The hurdle stands next to `s` (one vector away); the hopper is the first piece
                // behind it on the same line.
                Walk::Hopper(v) => v.iter().any(|&d| {
                    self.step(s, d).is_some_and(|h| {
                        self.squares[h as usize].is_some() && self.ride_to_piece(h, d).is_some_and(found)
                    })
                }),
                // Landing `n` squares behind the hurdle: the n-1 squares next to `s` are empty, the
                // next one is the hurdle, and the hopper is the first piece behind it.
                Walk::LongHopper(v, n) => v.iter().any(|&d| {
                    let mut t = s;
                    for i in 0..n {
                        match self.step(t, d) {
                            Some(u) if i + 1 == n || self.squares[u as usize].is_none() => t = u,
                            _ => return false,
                        }
                    }
                    self.squares[t as usize].is_some() && self.ride_to_piece(t, d).is_some_and(found)
                }),
                // The first piece from `s` is the screen, the next one behind it must be the
                // Chinese piece.
                Walk::Chinese(v) => v
                    .iter()
                    .any(|&d| self.ride_to_piece(s, d).and_then(|h| self.ride_to_piece(h, d)).is_some_and(found)),
                // The locust is the first piece from `s` along `d`, and it would land on the
                // empty square on the other side of `s`.
                Walk::Locust(v) => v.iter().any(|&d| {
                    self.step(s, (-d.0, -d.1)).is_some_and(|a| self.squares[a as usize].is_none())
                        && self.ride_to_piece(s, d).is_some_and(found)
                }),
                // The Berolina pawn captures one square straight forward, not from its first rank.
                Walk::BerolinaPawn => {
                    let f = if by == Color::White { s.checked_sub(8) } else { Some(s + 8).filter(|&f| f < 64) };
                    f.is_some_and(|f| found(f) && berolina_capture_square(f, by) == Some(s))
                }
                _ => Iterator::any(&mut pieces.into_iter(), |f| self.fairy_targets(f as u8, kind, by).contains(sq(s))),
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// The square `d` away from `s` if it is on the board and not a hole (Condition Hole: a hole
    /// is off the board for the pieces' walks, as Popeye's blocked squares).
    #[inline(always)]
    fn step(&self, s: u8, d: (i8, i8)) -> Option<u8> {
        offset(s, d).filter(|&t| !self.holes.contains(sq(t)))
    }

    /// The first occupied square from `s` (exclusive) along vector `d`, if any (a hole ends the
    /// line like the board's edge).
    #[inline(always)]
    fn ride_to_piece(&self, mut s: u8, d: (i8, i8)) -> Option<u8> {
        while let Some(t) = self.step(s, d) {
            if self.squares[t as usize].is_some() {
                return Some(t);
            }
            s = t;
        }
        None
    }

    /// Target squares of a fairy piece of colour `us` on `from` (moves and captures; squares of
    /// own pieces excluded).
    pub fn fairy_targets(&self, from: u8, kind: Kind, us: Color) -> Bitboard {
        let t = match KINDS[kind as usize].walk {
            Walk::Orphan => self.orphan_targets(from, us),
            Walk::BerolinaPawn => {
                berolina_capture_square(from, us).map_or(Bitboard(0), |t| Bitboard::from_square(sq(t)))
            }
            w => self.walk_targets(from, w),
        };
        t & !(self.color_bb(us) | self.holes)
    }

    /// Target squares of a fairy walk from `from`, own pieces included (masked by the caller).
    fn walk_targets(&self, from: u8, walk: Walk) -> Bitboard {
        let mut out = Bitboard(0);
        match walk {
            Walk::Leaper(v) => {
                for &d in v {
                    if let Some(t) = self.step(from, d) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Rider(v) => {
                for &d in v {
                    let mut s = from;
                    while let Some(t) = self.step(s, d) {
                        out.set(sq(t));
                        if self.squares[t as usize].is_some() {
                            break;
                        }
                        s = t;
                    }
                }
            }
            Walk::Hopper(v) => {
                for &d in v {
                    if let Some(t) = self.ride_to_piece(from, d).and_then(|h| self.step(h, d)) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::LongHopper(v, n) => {
                for &d in v {
                    let Some(mut t) = self.ride_to_piece(from, d) else { continue };
                    let mut ok = true;
                    for i in 0..n {
                        match self.step(t, d) {
                            Some(u) if i + 1 == n || self.squares[u as usize].is_none() => t = u,
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if ok {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Lion(v, hurdles) => {
                for &d in v {
                    let mut h = Some(from);
                    for _ in 0..hurdles {
                        h = h.and_then(|x| self.ride_to_piece(x, d));
                    }
                    let Some(mut t) = h else { continue };
                    while let Some(u) = self.step(t, d) {
                        out.set(sq(u));
                        if self.squares[u as usize].is_some() {
                            break;
                        }
                        t = u;
                    }
                }
            }
            Walk::Chinese(v) => {
                for &d in v {
                    let mut t = from;
                    while let Some(u) = self.step(t, d) {
                        if self.squares[u as usize].is_some() {
                            // The screen: capture the first piece behind it (own pieces are
                            // masked out below).
                            if let Some(c) = self.ride_to_piece(u, d) {
                                out.set(sq(c));
                            }
                            break;
                        }
                        out.set(sq(u));
                        t = u;
                    }
                }
            }
            Walk::Bouncer(v) => {
                for &d in v {
                    // k: distance to the first piece or the first square off the board along d.
                    let mut k = 1;
                    let mut t = from;
                    while let Some(u) = self.step(t, d) {
                        if self.squares[u as usize].is_some() {
                            break;
                        }
                        k += 1;
                        t = u;
                    }
                    // Exactly k squares back along -d, the squares before the last empty.
                    let back = (-d.0, -d.1);
                    let mut t = from;
                    for i in 1..=k {
                        match self.step(t, back) {
                            Some(u) => {
                                if i == k {
                                    out.set(sq(u));
                                } else if self.squares[u as usize].is_some() {
                                    break;
                                }
                                t = u;
                            }
                            None => break,
                        }
                    }
                }
            }
            Walk::Rose(kind) => {
                let v = &walk::KNIGHT_VECTORS;
                for start in 0..8usize {
                    for turn in [1usize, 7] {
                        // The line: up to seven knight steps round the octagon (the eighth would
                        // come back to `from`), ending at the board's edge.
                        let mut line = [0u8; 7];
                        let mut n = 0;
                        let mut t = from;
                        while n < 7 {
                            let Some(u) = self.step(t, v[(start + n * turn) % 8]) else { break };
                            line[n] = u;
                            n += 1;
                            t = u;
                        }
                        let line = &line[..n];
                        let occupied = |u: &u8| self.squares[*u as usize].is_some();
                        let hurdle = line.iter().position(occupied);
                        let empty_run = &line[..hurdle.unwrap_or(n)];
                        match kind {
                            RoseKind::Plain | RoseKind::Rao => {
                                for &u in empty_run {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Hopper | RoseKind::Lion => {}
                        }
                        let Some(h) = hurdle else { continue };
                        let behind = &line[h + 1..];
                        match kind {
                            RoseKind::Plain => out.set(sq(line[h])),
                            RoseKind::Hopper => {
                                if let Some(&u) = behind.first() {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Lion => {
                                let stop = behind.iter().position(occupied).map_or(behind.len(), |i| i + 1);
                                for &u in &behind[..stop] {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Rao => {
                                if let Some(&u) = behind.iter().find(|u| occupied(u)) {
                                    out.set(sq(u));
                                }
                            }
                        }
                    }
                }
            }
            Walk::Kangaroo(v) => {
                for &d in v {
                    let second = self.ride_to_piece(from, d).and_then(|h| self.ride_to_piece(h, d));
                    if let Some(t) = second.and_then(|h| self.step(h, d)) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Xiangqi { diagonal_first, rider } => {
                for &d in &walk::KNIGHT_VECTORS {
                    let mut t = from;
                    while let Some(u) = self.xiangqi_step(t, d, diagonal_first) {
                        out.set(sq(u));
                        if !rider || self.squares[u as usize].is_some() {
                            break;
                        }
                        t = u;
                    }
                }
            }
            Walk::Equihopper { queen_lines_only } => {
                for &d in &walk::QUEEN_VECTORS {
                    let Some(h) = self.ride_to_piece(from, d) else { continue };
                    // As many squares behind the hurdle as before it, those in between empty.
                    let k = ((h % 8) as i8 - (from % 8) as i8).abs().max(((h / 8) as i8 - (from / 8) as i8).abs());
                    let mut t = Some(h);
                    for i in 1..=k {
                        t = t.and_then(|x| self.step(x, d)).filter(|&x| i == k || self.squares[x as usize].is_none());
                    }
                    if let Some(t) = t {
                        out.set(sq(t));
                    }
                }
                if !queen_lines_only {
                    for &d in &walk::EQUIHOPPER_OFF_LINE {
                        if let Some(h) = self.step(from, d) {
                            if self.squares[h as usize].is_some() {
                                if let Some(t) = self.step(h, d) {
                                    out.set(sq(t));
                                }
                            }
                        }
                    }
                }
            }
            Walk::NonstopEquihopper => {
                let (ff, fr) = ((from % 8) as i8, (from / 8) as i8);
                for h in self.occupied() {
                    let h = h as u8;
                    let (tf, tr) = (2 * (h % 8) as i8 - ff, 2 * (h / 8) as i8 - fr);
                    if h != from && (0..8).contains(&tf) && (0..8).contains(&tr) {
                        out.set(sq((tr * 8 + tf) as u8));
                    }
                }
            }
            Walk::Compound(parts) => {
                for &w in parts {
                    out |= self.walk_targets(from, w);
                }
            }
            // The squares a locust attacks: the first piece on a line with an empty square
            // directly behind it.
            Walk::Locust(v) => {
                for &d in v {
                    if let Some(h) = self.ride_to_piece(from, d) {
                        if self.step(h, d).is_some_and(|t| self.squares[t as usize].is_none()) {
                            out.set(sq(h));
                        }
                    }
                }
            }
            Walk::AngleHopper(v, eighths) => {
                let circle = &walk::QUEEN_DIRECTIONS_CIRCULAR;
                for &d in v {
                    let Some(h) = self.ride_to_piece(from, d) else { continue };
                    let i = circle.iter().position(|&c| c == d).expect("a queen direction");
                    for turn in [eighths as usize, 8 - eighths as usize] {
                        if let Some(t) = self.step(h, circle[(i + turn) % 8]) {
                            out.set(sq(t));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// One mao (orthogonal square first) or moa (diagonal square first) step from `s` along the
    /// knight vector `d`: the arrival square if the square passed on the way is empty.
    #[inline(always)]
    fn xiangqi_step(&self, s: u8, d: (i8, i8), diagonal_first: bool) -> Option<u8> {
        let via = if diagonal_first {
            (d.0.signum(), d.1.signum())
        } else if d.0.abs() == 2 {
            (d.0.signum(), 0)
        } else {
            (0, d.1.signum())
        };
        let v = self.step(s, via)?;
        if self.squares[v as usize].is_some() {
            return None;
        }
        self.step(s, d)
    }

    /// Is the king of colour `c` in check? (No king: never.) Under Isardam a position with a
    /// Madrasi observation counts as "in check" for both sides: no legal move leads to one, so
    /// the legality test after a move ("is my king attacked") rejects such moves.
    ///
    /// ChecklessChess: for the side that has just moved (`c` is not the side to move), "in check"
    /// means "the move just played is illegal": its own king is attacked, or it checks the other
    /// king without mating it (the side to move has a legal reply, judged by the same rule).
    /// That is the legality test every caller makes after a move (Popeye's `pos_legal` for
    /// `ohneschach`); for the side to move it is the plain check.
    pub fn in_check(&self, c: Color) -> bool {
        if self.neutral.any() {
            return self.neutral_in_check(c);
        }
        self.in_check_base(c)
    }

    /// [`Board::in_check`] with neutral pieces as they are coloured at the time.
    fn in_check_base(&self, c: Color) -> bool {
        // One test for the rare rules (orthodox solving asks this after every move).
        if (self.pepo | self.circe_rex | self.checkless) || self.paralysis == Paralysis::Isardam {
            return self.in_check_rare(c);
        }
        match self.king_square(c) {
            Some(k) => self.attacked(k, !c),
            None => false,
        }
    }

    /// [`Board::in_check_base`] under Isardam, Pepo, Circe RexInclusive or ChecklessChess.
    #[inline(never)]
    fn in_check_rare(&self, c: Color) -> bool {
        if self.paralysis == Paralysis::Isardam && self.any_same_walk_observation() {
            return true;
        }
        let plain = match self.king_square(c) {
            Some(k) if self.pepo => self.pepo_attackers(k, !c) >= 2,
            Some(k) if self.circe_rex => self.rex_circe_checked(k, c),
            Some(k) => self.attacked(k, !c),
            None => false,
        };
        if self.checkless && c != self.side && !plain {
            return self.checkless_illegal();
        }
        plain
    }

    /// ChecklessChess, after a move (the side to move did not make it): does the move check the
    /// side to move without mating it? Past [`CHECKLESS_MAX_DEPTH`] nested tests: yes.
    #[inline(never)]
    fn checkless_illegal(&self) -> bool {
        if !self.in_check(self.side) {
            return false;
        }
        if self.checkless_depth >= CHECKLESS_MAX_DEPTH {
            return true;
        }
        let mut b = self.clone();
        b.checkless_depth += 1;
        b.has_legal_move()
    }

    /// Circe RexInclusive: is the king of `c` on `k` in check, i.e. could a piece of `!c` capture
    /// it with its rebirth square occupied after the capture (the capture square itself, or an
    /// occupied square other than the capturer's departure square)?
    #[inline(never)]
    fn rex_circe_checked(&self, k: u8, c: Color) -> bool {
        let r = self.circe.rebirth_square(Piece { color: c, kind: walk::KING }, k);
        match self.squares[r as usize] {
            _ if r == k => self.attacked(k, !c),
            None => false,
            Some(q) if q.color == c => self.attacked(k, !c),
            // An enemy piece on the rebirth square: its capture frees the square, so only the
            // other attackers check.
            Some(_) => Iterator::any(&mut self.color_bb(!c).into_iter(), |f| {
                let f = f as u8;
                f != r && self.piece_attacks(f, self.squares[f as usize].expect("bitboard and mailbox agree"), k)
            }),
        }
    }

    /// Circe RexInclusive, castling: would the king of `c` standing on `king` be in check on `s`
    /// (the square itself or one it passes)? The king's home square is empty when it stands
    /// elsewhere.
    fn rex_circe_passing_checked(&self, s: u8, king: u8, c: Color) -> bool {
        if s == king {
            return self.rex_circe_checked(s, c);
        }
        let r = self.circe.rebirth_square(Piece { color: c, kind: walk::KING }, s);
        if r == king {
            return false;
        }
        self.rex_circe_checked(s, c)
    }

    /// Pepo: how many pieces of colour `by` other than the king attack `s` (counting stops at 2).
    fn pepo_attackers(&self, s: u8, by: Color) -> u32 {
        let mut n = 0;
        for f in self.color_bb(by) {
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            if p.kind != walk::KING && self.piece_attacks(f as u8, p, s) {
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        n
    }

    /// A cheap superset test: could move `m` of the side to move give check to the enemy king on
    /// `ksq` (direct or discovered)? `false` means it certainly does not.
    pub fn could_check(&self, m: Move, ksq: u8) -> bool {
        let us = self.side;
        let Some(p) = self.piece_at(m.from) else { return true };
        // Our fairy pieces: any move may add or remove a hurdle or open a rider's line. Madrasi:
        // a move may free a paralysed piece. Breton: a removal may uncover a line.
        if self.has_fairy(us) || self.attack_conditions() {
            return true;
        }
        let kind = match m.special {
            Special::None | Special::Double => p.kind,
            Special::Promote(k) => k,
            _ => return true,
        };
        let occ = (self.occupied() & !Bitboard::from_square(sq(m.from))) | Bitboard::from_square(sq(m.to));
        let k = sq(ksq);
        let t = sq(m.to);
        let direct = match KINDS[kind as usize].walk {
            Walk::King => false,
            Walk::Queen => attacks::queen_attacks(t, occ).contains(k),
            Walk::Rook => attacks::rook_attacks(t, occ).contains(k),
            Walk::Bishop => attacks::bishop_attacks(t, occ).contains(k),
            Walk::Knight => attacks::knight_attacks(t).contains(k),
            Walk::Pawn => attacks::pawn_attacks(us, t).contains(k),
            // A promotion to a fairy kind (the board has none of ours yet).
            _ => return true,
        };
        if direct {
            return true;
        }
        // Discovered: the mover stood between the king and one of our line pieces.
        let q = self.kind_bb(us, walk::QUEEN);
        let rooks = self.kind_bb(us, walk::ROOK) | q;
        let bishops = self.kind_bb(us, walk::BISHOP) | q;
        let f = sq(m.from);
        let (kf, kr) = (ksq % 8, ksq / 8);
        let (ff, fr) = (m.from % 8, m.from / 8);
        let sliders = if kf == ff || kr == fr {
            rooks
        } else if (kf as i8 - ff as i8).abs() == (kr as i8 - fr as i8).abs() {
            bishops
        } else {
            return false;
        };
        for s in sliders {
            if attacks::between(k, s).contains(f) {
                return true;
            }
        }
        false
    }

    /// Squares of the side to move's pieces whose moves need the full legality test ("make, is my
    /// king attacked"): its king and its pinned pieces. Any other move, except en passant and
    /// castling, is legal without the test when the side is not in check, in orthodox play.
    /// `None` (test every move): in check, no king, enemy fairy pieces, Circe (a rebirth may
    /// check), Madrasi or Isardam.
    pub fn needs_legality_test(&self) -> Option<Bitboard> {
        let us = self.side;
        if self.circe != Circe::Off || self.attack_conditions() || self.has_fairy(!us) {
            return None;
        }
        let ksq = self.king_square(us)?;
        if self.attacked(ksq, !us) {
            return None;
        }
        let k = sq(ksq);
        let occ = self.occupied();
        let q = self.kind_bb(!us, walk::QUEEN);
        let lines = (attacks::rook_attacks(k, Bitboard(0)) & (self.kind_bb(!us, walk::ROOK) | q))
            | (attacks::bishop_attacks(k, Bitboard(0)) & (self.kind_bb(!us, walk::BISHOP) | q));
        let mut mask = Bitboard::from_square(k);
        for s in lines {
            let b = attacks::between(k, s) & occ;
            if b.count() == 1 {
                mask |= b & self.color_bb(us);
            }
        }
        Some(mask)
    }

    /// With the mask of [`Board::needs_legality_test`]: must move `m` be tested?
    #[inline(always)]
    pub fn must_test(mask: Option<Bitboard>, m: Move) -> bool {
        match mask {
            None => true,
            Some(b) => {
                b.contains(sq(m.from))
                    || matches!(m.special, Special::EnPassant { .. } | Special::Castle { .. } | Special::Locust { .. })
            }
        }
    }

    /// What [`Board::could_check_with`] needs to answer `could_check` for many moves of the side
    /// to move against the enemy king on `ksq` with a few mask tests.
    pub fn check_info(&self, ksq: u8) -> CheckInfo {
        let us = self.side;
        let k = sq(ksq);
        let occ = self.occupied();
        let rook_k = attacks::rook_attacks(k, occ);
        let bishop_k = attacks::bishop_attacks(k, occ);
        // Our pieces that alone stand between the king and one of our line pieces.
        let mut discoverers = Bitboard(0);
        let q = self.kind_bb(us, walk::QUEEN);
        let lines = (attacks::rook_attacks(k, Bitboard(0)) & (self.kind_bb(us, walk::ROOK) | q))
            | (attacks::bishop_attacks(k, Bitboard(0)) & (self.kind_bb(us, walk::BISHOP) | q));
        for s in lines {
            let b = attacks::between(k, s) & occ;
            if b.count() == 1 {
                discoverers |= b & self.color_bb(us);
            }
        }
        CheckInfo {
            ksq,
            all: self.has_fairy(us) || self.attack_conditions(),
            visible: rook_k | bishop_k,
            discoverers,
            rook: rook_k,
            bishop: bishop_k,
            knight: attacks::knight_attacks(k),
            pawn: attacks::pawn_attacks(!us, k),
        }
    }

    /// `could_check(m, ci.ksq)` with the masks of [`Board::check_info`] (same answers where the
    /// moving piece is not seen from the king along a line; those moves take the general test).
    #[inline]
    pub fn could_check_with(&self, ci: &CheckInfo, m: Move) -> bool {
        if ci.all || ci.discoverers.contains(sq(m.from)) {
            return true;
        }
        if ci.visible.contains(sq(m.from)) {
            // Leaving `from` may open the mover's own line to the king.
            return self.could_check(m, ci.ksq);
        }
        let Some(p) = self.piece_at(m.from) else { return true };
        let kind = match m.special {
            Special::None | Special::Double => p.kind,
            Special::Promote(k) => k,
            _ => return true,
        };
        let t = sq(m.to);
        // `from` is not seen from the king, so moving it changes no line from the king except by
        // the piece now on `to`, which is itself still seen.
        match KINDS[kind as usize].walk {
            Walk::King => false,
            Walk::Queen => (ci.rook | ci.bishop).contains(t),
            Walk::Rook => ci.rook.contains(t),
            Walk::Bishop => ci.bishop.contains(t),
            Walk::Knight => ci.knight.contains(t),
            Walk::Pawn => ci.pawn.contains(t),
            _ => true,
        }
    }

    /// The pseudo-legal moves of the side to move for which `could_check_with(ci, m)` holds (the
    /// same set, without generating the others for pieces not seen from the king).
    pub fn checking_candidates(&self, ci: &CheckInfo, out: &mut Vec<Move>) {
        if ci.all {
            self.pseudo_moves(out);
            return;
        }
        let us = self.side;
        let own = self.color_bb(us);
        let theirs = self.color_bb(!us);
        // Holes block lines and are no targets.
        let occ = own | theirs | self.holes;
        let blocked = own | self.holes;
        for from in own {
            let f = from as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let general = ci.visible.contains(from) || ci.discoverers.contains(from);
            let targets = match KINDS[p.kind as usize].walk {
                Walk::King if general => attacks::king_attacks(from),
                Walk::King => continue,
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                _ => {
                    let n = out.len();
                    self.pawn_moves(f, us, theirs, occ, out);
                    if !general {
                        let mut w = n;
                        for i in n..out.len() {
                            if self.could_check_with(ci, out[i]) {
                                out[w] = out[i];
                                w += 1;
                            }
                        }
                        out.truncate(w);
                    }
                    continue;
                }
            } & !blocked;
            let mask = if general {
                Bitboard(!0)
            } else {
                match KINDS[p.kind as usize].walk {
                    Walk::Queen => ci.rook | ci.bishop,
                    Walk::Rook => ci.rook,
                    Walk::Bishop => ci.bishop,
                    _ => ci.knight,
                }
            };
            for to in targets & mask {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
        }
        self.castling_moves(out);
    }

    /// Pseudo-legal moves of the side to move, appended to `out`.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        if self.neutral.any() {
            self.neutral_pseudo_moves(out);
            return;
        }
        self.pseudo_moves_base(out);
    }

    /// [`Board::pseudo_moves`] with every piece of the side to move its own, every other piece
    /// an enemy (neutral pieces as they are coloured at the time).
    fn pseudo_moves_base(&self, out: &mut Vec<Move>) {
        let start = out.len();
        if self.mars != Mars::Off {
            self.mars_moves(out);
        } else {
            self.pseudo_moves_plain(out);
        }
        if self.singlebox {
            self.singlebox_filter(start, out);
        }
        if self.ext_active() {
            self.pseudo_moves_ext(start, out);
        }
        if self.maximummer[self.side.index()] {
            self.longest_legal_only(start, out);
        }
    }

    /// Does a condition restrict the side to move to some of its legal moves (Maximummer)? Then
    /// [`Board::pseudo_moves`] gives exactly the allowed moves, and generators that skip it
    /// ([`Board::checking_candidates`]) must not be used.
    pub fn restricts_moves(&self) -> bool {
        self.maximummer[self.side.index()] | self.back_home
    }

    /// Maximummer: of the moves `out[start..]`, only the legal ones of the greatest length stay.
    #[inline(never)]
    fn longest_legal_only(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let mut b = self.clone();
        let length = |m: &Move| {
            let (df, dr) = ((m.to % 8) as i32 - (m.from % 8) as i32, (m.to / 8) as i32 - (m.from / 8) as i32);
            df * df + dr * dr
        };
        let mut best = -1;
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            let len = length(&m);
            if len < best {
                continue;
            }
            let u = b.make(m);
            let legal = !b.in_check(us);
            b.unmake(m, u);
            if !legal {
                continue;
            }
            if len > best {
                best = len;
                kept = start;
            }
            out[kept] = m;
            kept += 1;
        }
        out.truncate(kept);
    }

    /// The conditions' changes to the moves `out[start..]` (BGL budgets, Breton and Bul choices,
    /// AntiCirce rebirths, uncapturable pieces).
    #[inline(never)]
    fn pseudo_moves_ext(&self, start: usize, out: &mut Vec<Move>) {
        if self.castling_chess {
            self.castling_chess_moves(out);
        }
        if self.exchange_castling {
            self.exchange_castling_moves(out);
        }
        if self.bgl.on {
            let budget = self.bgl.left[self.side.index()];
            let mut w = start;
            for i in start..out.len() {
                if bgl_cost(out[i].from, out[i].to) <= budget {
                    out[w] = out[i];
                    w += 1;
                }
            }
            out.truncate(w);
        }
        if self.breton {
            self.breton_choices(start, out);
        }
        if self.bul.any() {
            self.bul_choices(start, out);
        }
        if self.anticirce != AntiCirce::Off {
            self.anticirce_choices(start, out);
        }
        if self.parrain {
            self.parrain_choices(start, out);
        }
        if self.imitators.n > 0 {
            self.imitator_filter(start, out);
        }
        if self.back_home {
            self.back_home_filter(start, out);
        }
        if self.uncapturable.any() {
            // Uncapturable pieces (ghosts) are not taken.
            let mut w = start;
            for i in start..out.len() {
                let m = out[i];
                let target = match m.special {
                    Special::EnPassant { cap }
                    | Special::EnPassantRebirthPromote { cap, .. }
                    | Special::Locust { cap } => cap,
                    _ => m.to,
                };
                if !self.uncapturable.contains(sq(target)) {
                    out[w] = m;
                    w += 1;
                }
            }
            out.truncate(w);
        }
    }

    /// CastlingChess (Popeye's `castlingchess_generate_moves_for_piece`): the side to move's
    /// king, not in check, castles in each of the eight directions with the first piece on that
    /// line (either colour, any kind), provided the two squares next to the king that way are
    /// empty and the first of them (the square passed, where the partner lands) is not attacked.
    /// The king lands two squares away. Popeye tests the square passed with the king moved
    /// there (the partner still in place); only orthodox pieces are supported with the
    /// condition, and then that is the plain attack test with the king still home: an attack on
    /// the square passed through the king's square would be a line through the king, which is
    /// not in check.
    fn castling_chess_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let Some(k) = self.king_square(us) else { return };
        if self.attacked(k, !us) {
            return;
        }
        let occ = self.occupied();
        const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
        for d in DIRS {
            let Some(passed) = offset(k, d) else { continue };
            if occ.contains(sq(passed)) {
                continue;
            }
            let Some(arrival) = offset(passed, d) else { continue };
            if occ.contains(sq(arrival)) {
                continue;
            }
            let mut s = arrival;
            let partner = loop {
                match offset(s, d) {
                    None => break None,
                    Some(t) if occ.contains(sq(t)) => break Some(t),
                    Some(t) => s = t,
                }
            };
            let Some(partner) = partner else { continue };
            if self.attacked(passed, !us) {
                continue;
            }
            out.push(Move {
                from: k,
                to: arrival,
                special: Special::Castle { rook_from: partner, rook_to: passed },
                extra: NO_EXTRA,
            });
        }
    }

    /// ExchangeCastling (Popeye's `exchange_castling_generate_moves_for_piece`): while the side
    /// to move has not exchanged yet, its king exchanges places with any of its own pieces other
    /// than a pawn (squares a1..h8); being in check does not matter.
    fn exchange_castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        if self.exchange_used & (1 << us.index()) != 0 {
            return;
        }
        let Some(k) = self.king_square(us) else { return };
        for s in self.color_bb(us) {
            let s = s as u8;
            let p = self.squares[s as usize].expect("bitboard and mailbox agree");
            if s == k || p.kind == walk::PAWN {
                continue;
            }
            out.push(Move { from: k, to: s, special: Special::Castle { rook_from: s, rook_to: k }, extra: NO_EXTRA });
        }
    }

    /// BackHome: sets every piece's home to the square it stands on (the diagram; called when the
    /// problem's board is set up).
    pub fn init_back_home(&mut self) {
        for s in 0..64u8 {
            self.home[s as usize] = if self.squares[s as usize].is_some() { s } else { NO_EXTRA };
        }
    }

    /// BackHome: does the move `m` take its piece back to its home (castling: the king)?
    #[inline]
    fn goes_back_home(&self, m: &Move) -> bool {
        self.home[m.from as usize] == m.to
    }

    /// BackHome: has side `c` a legal move back home (whoever is to move)? Past
    /// [`BACK_HOME_MAX_DEPTH`] nested tests: no.
    #[inline(never)]
    fn back_home_exists(&self, c: Color) -> bool {
        if self.back_home_depth >= BACK_HOME_MAX_DEPTH {
            return false;
        }
        let mut b = self.clone();
        b.back_home_depth += 1;
        if b.side != c {
            b.side = c;
            b.ep = None;
        }
        let mut moves = Vec::new();
        b.pseudo_moves_plain(&mut moves);
        for m in moves {
            if b.goes_back_home(&m) {
                let u = b.make(m);
                let legal = !b.in_check(c);
                b.unmake(m, u);
                if legal {
                    return true;
                }
            }
        }
        false
    }

    /// BackHome: if the side to move has a legal move back home among `out[start..]`, only the
    /// moves back home stay (Popeye's `backhome_remove_illegal_moves_solve`).
    fn back_home_filter(&self, start: usize, out: &mut Vec<Move>) {
        if !out[start..].iter().any(|m| self.goes_back_home(m)) || !self.back_home_exists(self.side) {
            return;
        }
        for m in &mut out[start..] {
            if !self.goes_back_home(m) {
                m.to = m.from;
            }
        }
        drop_marked(out, start);
    }

    /// Imitator: of the moves `out[start..]`, only those the imitators can follow stay; each
    /// promotion gets a twin promoting into an imitator ([`IMITATOR_PROMOTION`]) unless `NoIProm`.
    fn imitator_filter(&self, start: usize, out: &mut Vec<Move>) {
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let p = self.squares[m.from as usize].expect("moving piece");
            if !self.imitators_follow(m.from, m.to, p.kind, m.special) {
                out[i].to = out[i].from;
                continue;
            }
            if !self.no_iprom && m.special == Special::Promote(walk::QUEEN) {
                out.push(Move { extra: IMITATOR_PROMOTION, ..m });
            }
        }
        drop_marked(out, start);
    }

    /// Imitator: can every imitator follow the move of the piece of kind `kind` from `from` to `to`
    /// (`special` as in [`Move`])? Popeye's `conditions/imitator.c` (`remove_illegal_moves`,
    /// `imitator_validate_observation`): each imitator makes the same steps, and every square it
    /// passes or lands on must be on the board and empty (the mover's departure square counts as
    /// empty): a leaper (king, knight, pawn step or capture, fairy leapers) makes one step, a
    /// rider (queen, rook, bishop, fairy riders, a pawn's double step) every step of its line.
    /// Castling (Popeye's `castlingimok`): with the king taken off, every imitator must be able
    /// to step one and two squares the king's way; for the long castling then, with the king on
    /// its arrival square, also one square back, its own square and one square on (the rook's
    /// way). Other walks: not supported (the solver refuses them with imitators).
    pub fn imitators_follow(&self, from: u8, to: u8, kind: Kind, special: Special) -> bool {
        let ims = self.imitators;
        // Every imitator displaced by `d` is on the board and on an empty square (or on `vacated`,
        // and not on `filled`).
        let all_free = |d: (i8, i8), vacated: u8, filled: u8| {
            ims.squares().iter().all(|&i| match offset(i, d) {
                Some(t) => t != filled && (t == vacated || self.squares[t as usize].is_none()),
                None => false,
            })
        };
        let (dx, dy) = ((to % 8) as i8 - (from % 8) as i8, (to / 8) as i8 - (from / 8) as i8);
        if let Special::Castle { .. } = special {
            let s = dx.signum();
            if !(all_free((s, 0), from, NO_EXTRA) && all_free((2 * s, 0), from, NO_EXTRA)) {
                return false;
            }
            if s < 0 {
                // Long castling: the rook's way back, the king now on its arrival square.
                return all_free((s, 0), from, to) && all_free((0, 0), from, to) && all_free((-s, 0), from, to);
            }
            return true;
        }
        let line = match KINDS[kind as usize].walk {
            Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Rider(_) => true,
            Walk::Pawn => special == Special::Double,
            _ => false,
        };
        if !line {
            return all_free((dx, dy), from, NO_EXTRA);
        }
        // The rider's step: its vector of which (dx, dy) is a multiple (the primitive one for
        // the orthodox lines and a pawn's double step).
        let (sx, sy) = match KINDS[kind as usize].walk {
            Walk::Rider(v) => {
                match v
                    .iter()
                    .find(|&&(x, y)| x * dy == y * dx && x.signum() == dx.signum() && y.signum() == dy.signum())
                {
                    Some(&d) => d,
                    None => return false,
                }
            }
            _ => {
                let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i8;
                (dx / g, dy / g)
            }
        };
        let n = if sx != 0 { dx / sx } else { dy / sy };
        (1..=n).all(|j| all_free((j * sx, j * sy), from, NO_EXTRA))
    }

    /// Circe Parrain: the rebirth square of the capture on `cs` after the move `m`: `cs` moved by
    /// the vector of `m` (departure to arrival, plus the rook's for castling), if on the board.
    pub fn parrain_square(&self, m: Move, cs: u8) -> Option<u8> {
        let d = |a: u8, b: u8| ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
        let (mut dx, mut dy) = d(m.from, m.to);
        if let Special::Castle { rook_from, rook_to } = m.special {
            let (rx, ry) = d(rook_from, rook_to);
            dx += rx;
            dy += ry;
        }
        offset(cs, (dx, dy))
    }

    /// Circe Parrain: a pawn waiting for its rebirth that would be reborn on its last rank
    /// promotes; each move among `out[start..]` that reborns it there becomes one move per
    /// promotion kind ([`Move::extra`]). Whether the square is free after the move is decided
    /// as [`Board::make`] does (the move's arrival and the castling rook's squares taken, its
    /// departure, the rook's departure and an en-passant victim's square freed).
    fn parrain_choices(&self, start: usize, out: &mut Vec<Move>) {
        let Some((cs, p)) = self.parrain_pending else { return };
        if p.kind != walk::PAWN {
            return;
        }
        let last = if p.color == Color::White { 7 } else { 0 };
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let Some(r) = self.parrain_square(m, cs) else { continue };
            if r / 8 != last || r == m.to {
                continue;
            }
            let mut free = self.squares[r as usize].is_none() || r == m.from;
            match m.special {
                Special::Castle { rook_from, rook_to } => {
                    free = (free || r == rook_from) && r != rook_to;
                }
                Special::EnPassant { cap } | Special::Locust { cap } if r == cap => free = true,
                _ => {}
            }
            if !free {
                continue;
            }
            let mut kinds: Vec<Kind> = walk::PROMOTIONS.to_vec();
            let mut fairies = self.promotion_fairies;
            while fairies != 0 {
                kinds.push(fairies.trailing_zeros() as Kind);
                fairies &= fairies - 1;
            }
            for (j, &k) in kinds.iter().enumerate() {
                let v = Move { extra: k, ..m };
                if j == 0 {
                    out[i] = v;
                } else {
                    out.push(v);
                }
            }
        }
    }

    /// AntiCirce Super: each capture among `out[start..]` becomes one move per rebirth square of
    /// the capturing piece (as it stands after the move, promoted if the capture promoted): any
    /// square empty after the capture, the capture square included (Calvet) or not (Cheylan); a
    /// pawn reborn on its last rank promotes (one move per kind).
    fn anticirce_choices(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let end = out.len();
        let occ = self.occupied();
        for i in start..end {
            let m = out[i];
            let cap = match m.special {
                Special::EnPassant { cap } | Special::Locust { cap } => cap,
                Special::Castle { .. } => continue,
                _ if self.squares[m.to as usize].is_some() => m.to,
                _ => continue,
            };
            let mover = self.squares[m.from as usize].expect("moving piece");
            let placed = if let Special::Promote(k) = m.special { k } else { mover.kind };
            // Empty after the capture: `from`, the captured piece's square, and (Calvet) the
            // capture square where the capturer stands.
            let mut empty = !occ;
            empty.set(sq(m.from));
            empty.set(sq(cap));
            empty.set(sq(m.to));
            if matches!(self.anticirce, AntiCirce::SuperCheylan | AntiCirce::Cheylan) {
                empty.clear(sq(m.to));
            }
            if self.anticirce.plain() {
                // One rebirth square (a pawn's is on its second rank: no promotion there).
                let r = rebirth_square(Piece { color: us, kind: placed }, cap);
                if empty.contains(sq(r)) {
                    out[i].extra = r;
                } else {
                    out[i].to = out[i].from; // rebirth square occupied: illegal (marked)
                }
                continue;
            }
            let last = if us == Color::White { 7 } else { 0 };
            let mut first = true;
            for r in empty {
                let r = r as u8;
                let mut push = |special: Special| {
                    let v = Move { special, extra: r, ..m };
                    if first {
                        out[i] = v;
                        first = false;
                    } else {
                        out.push(v);
                    }
                };
                if placed == walk::PAWN && r / 8 == last {
                    let promote = |k: Kind| match m.special {
                        Special::EnPassant { cap } => Special::EnPassantRebirthPromote { cap, kind: k },
                        _ => Special::RebirthPromote(k),
                    };
                    for k in walk::PROMOTIONS {
                        push(promote(k));
                    }
                    let mut fairies = self.promotion_fairies;
                    while fairies != 0 {
                        push(promote(fairies.trailing_zeros() as Kind));
                        fairies &= fairies - 1;
                    }
                } else {
                    push(m.special);
                }
            }
            if first {
                // No rebirth square: the capture is illegal (marked, removed below).
                out[i].to = out[i].from;
            }
        }
        if self.anticirce == AntiCirce::Cage {
            self.anticirce_cage_filter(start, out);
        }
        drop_marked(out, start);
    }

    /// AntiCirce Cage: of the rebirth choices among `out[start..]`, only those that put the
    /// capturer in a cage ([`Board::anticirce_caged`], judged after the whole move) stay; the
    /// others are marked. No cage at all: the capture is illegal (Popeye's AntiCirce default
    /// "strict": no rebirth-avoiding fallback).
    #[inline(never)]
    fn anticirce_cage_filter(&self, start: usize, out: &mut [Move]) {
        let mut b: Option<Board> = None;
        for m in out[start..].iter_mut() {
            if m.extra == NO_EXTRA || m.from == m.to {
                continue;
            }
            let b = b.get_or_insert_with(|| self.clone());
            let u = b.make(*m);
            let caged = b.anticirce_caged(m.extra);
            b.unmake(*m, u);
            if !caged {
                m.to = m.from;
            }
        }
    }

    /// Bul: each move of a Bul hopper among `out[start..]` becomes one move per non-capturing
    /// move of its hurdle with the hopper's walk on the board after the hop (and per promotion
    /// kind for a pawn reaching its last rank); a move whose hurdle cannot move is dropped.
    fn bul_choices(&self, start: usize, out: &mut Vec<Move>) {
        let end = out.len();
        for i in start..end {
            let m = out[i];
            if !self.bul.contains(sq(m.from)) {
                continue;
            }
            let mover = self.squares[m.from as usize].expect("moving piece");
            let Walk::Hopper(v) = KINDS[mover.kind as usize].walk else { continue };
            let h = hurdle_square(m.from, m.to);
            let hp = self.squares[h as usize].expect("hurdle");
            let last = if hp.color == Color::White { 7 } else { 0 };
            let mut first = true;
            let mut targets = [0u8; 16];
            let n = self.bul_hurdle_targets(m.from, m.to, v, &mut targets);
            for &t2 in &targets[..n] {
                let promote = hp.kind == walk::PAWN && t2 / 8 == last;
                let mut push = |special: Special| {
                    let v = Move { special, extra: t2, ..m };
                    if first {
                        out[i] = v;
                        first = false;
                    } else {
                        out.push(v);
                    }
                };
                if promote {
                    for k in walk::PROMOTIONS {
                        push(Special::HurdlePromote(k));
                    }
                    let mut fairies = self.promotion_fairies;
                    while fairies != 0 {
                        let k = fairies.trailing_zeros() as Kind;
                        fairies &= fairies - 1;
                        push(Special::HurdlePromote(k));
                    }
                } else {
                    push(Special::None);
                }
            }
            if first {
                // No hurdle move: the move is illegal (marked, removed below).
                out[i].to = out[i].from;
            }
        }
        drop_marked(out, start);
    }

    /// Breton: each capture among `out[start..]` becomes one move per own piece of the captured
    /// kind that could be removed after it (the capturing piece as it stands after the move
    /// included); a capture with no such piece stays as it is.
    fn breton_choices(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let victim = match m.special {
                Special::EnPassant { cap } | Special::Locust { cap } => self.squares[cap as usize],
                Special::Castle { .. } => None,
                _ => self.squares[m.to as usize],
            };
            let Some(victim) = victim else { continue };
            let mover = self.squares[m.from as usize].expect("moving piece");
            let placed = if let Special::Promote(k) = m.special { k } else { mover.kind };
            let mut cands = self.kind_bb(us, victim.kind);
            cands.clear(sq(m.from));
            if placed == victim.kind {
                cands.set(sq(m.to));
            }
            let mut first = true;
            for c in cands {
                let v = Move { extra: c as u8, ..m };
                if first {
                    out[i] = v;
                    first = false;
                } else {
                    out.push(v);
                }
            }
        }
    }

    /// Bul: the squares the hurdle of a hop `from`-`to` along the lines `v` can move to without
    /// capturing, as a hopper of those lines, on the board after the hop (`from` empty, `to`
    /// occupied, the hurdle leaving its square). Returns how many were written to `out`.
    fn bul_hurdle_targets(&self, from: u8, to: u8, v: &[(i8, i8)], out: &mut [u8; 16]) -> usize {
        let h = hurdle_square(from, to);
        let occupied = |x: u8| x != from && x != h && (x == to || self.squares[x as usize].is_some());
        let mut n = 0;
        for &d in v {
            let mut t = h;
            let second = loop {
                match offset(t, d) {
                    Some(u) if occupied(u) => break Some(u),
                    Some(u) => t = u,
                    None => break None,
                }
            };
            if let Some(t2) = second.and_then(|x| offset(x, d)) {
                if !occupied(t2) && n < out.len() {
                    out[n] = t2;
                    n += 1;
                }
            }
        }
        n
    }

    fn pseudo_moves_plain(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let own = self.color_bb(us);
        let theirs = self.color_bb(!us);
        // Holes block lines and are no targets.
        let occ = own | theirs | self.holes;
        let blocked = own | self.holes;
        for from in own {
            self.piece_moves_plain(from, us, theirs, occ, blocked, out);
        }
        self.castling_moves(out);
    }

    /// The plain pseudo-legal moves of the piece of `us` on `from` (no castling), appended to
    /// `out`; `occ` and `blocked` as in [`Board::pseudo_moves_plain`].
    #[inline(always)]
    fn piece_moves_plain(
        &self,
        from: Square,
        us: Color,
        theirs: Bitboard,
        occ: Bitboard,
        blocked: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let f = from as u8;
        let p = self.squares[f as usize].expect("bitboard and mailbox agree");
        if self.paralysis == Paralysis::Madrasi && self.observed_by_same_walk(f) {
            return; // paralysed
        }
        if p.kind == walk::KING && self.pepo && self.attacked(f, !us) {
            return; // Pepo: an attacked king is paralysed
        }
        if p.kind == walk::KING && self.transmuted_kings {
            let t = self.transmutations(us);
            if t != 0 {
                self.transmuted_king_moves(f, us, t, out);
                return;
            }
        }
        if self.annan {
            let w = self.annan_walker(f, p);
            if w.kind != p.kind {
                self.annan_moves(f, p, w.kind, occ, out);
                return;
            }
        }
        let targets = match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from),
            Walk::Queen => attacks::queen_attacks(from, occ),
            Walk::Rook => attacks::rook_attacks(from, occ),
            Walk::Bishop => attacks::bishop_attacks(from, occ),
            Walk::Knight => attacks::knight_attacks(from),
            Walk::Pawn => {
                self.pawn_moves(f, us, theirs, occ, out);
                return;
            }
            Walk::Locust(v) => {
                self.locust_moves(f, us, v, out);
                return;
            }
            Walk::Orphan => {
                self.orphan_moves(f, us, out);
                return;
            }
            Walk::BerolinaPawn => {
                self.berolina_moves(f, us, theirs, occ, out);
                return;
            }
            _ => self.fairy_targets(f, p.kind, us),
        } & !blocked;
        for to in targets {
            out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
        }
    }

    /// (Anti)Mars Circe: the pseudo-legal moves of the side to move. Each piece's moves of the
    /// rebirth kind (Mars: captures, Anti-Mars: non-captures) are generated with the piece put
    /// on its rebirth square (`Move::extra`, [`NO_EXTRA`] when that is its own square); the
    /// others from its square. Castling (a non-capture of the king) is plain under Mars Circe;
    /// under Anti-Mars Circe it is not generated (see docs/problems.md).
    #[inline(never)]
    fn mars_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let mut plain = Vec::new();
        // Moves from the pieces' own squares: the plain generator, less the kind of moves
        // made from the rebirth square.
        self.pseudo_moves_plain(&mut plain);
        let anti = self.mars == Mars::AntiMars;
        for m in plain {
            let capture = self.is_capture(m);
            if matches!(m.special, Special::Castle { .. }) {
                if !anti {
                    out.push(m);
                }
                continue;
            }
            // On its rebirth square a piece moves as usual; elsewhere only the moves of the
            // other kind (Mars: non-captures, Anti-Mars: captures) are made from its square.
            let r = rebirth_square(self.squares[m.from as usize].expect("mover"), m.from);
            if r == m.from || capture == anti {
                out.push(m);
            }
        }
        // Moves from the rebirth square.
        for from in self.color_bb(us) {
            let f = from as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let r = rebirth_square(p, f);
            if r == f || self.squares[r as usize].is_some() {
                continue;
            }
            let mut b = self.clone();
            b.mars = Mars::Off;
            b.castling = 0;
            b.clear(f);
            b.put(r, p);
            let mut moves = Vec::new();
            b.pseudo_moves_plain(&mut moves);
            for m in moves {
                if m.from != r || m.to == f || b.is_capture(m) == anti {
                    continue;
                }
                out.push(Move { from: f, to: m.to, special: m.special, extra: r });
            }
        }
        if anti {
            self.antimars_castling_moves(out);
        }
    }

    /// Anti-Mars Circe castling (a non-capture, so from the rebirth squares): the king is put on
    /// e1/e8 (empty, or its own square) and a rook whose rebirth square is the corner (the rook
    /// on it, or one elsewhere with the corner empty) in that corner, then they castle as usual:
    /// the squares between them empty, the king on e1/e8 and the square it passes not attacked
    /// (attacks judged with both relocated). The castling right is the corner's (see
    /// [`antimars_castling`]).
    fn antimars_castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let Some(kd) = self.king_square(us) else { return };
        let king = Piece { color: us, kind: walk::KING };
        let base = if us == Color::White { 0u8 } else { 56 };
        let ke = base + 4;
        if kd != ke && self.squares[ke as usize].is_some() {
            return;
        }
        let rook = Piece { color: us, kind: walk::ROOK };
        // (corner, rook's arrival, king's arrival, squares to be empty, square passed)
        let sides = [
            (base + 7, base + 5, base + 6, [base + 5, base + 6, base + 6], base + 5),
            (base, base + 3, base + 2, [base + 1, base + 2, base + 3], base + 3),
        ];
        for (corner, rook_to, king_to, between, passed) in sides {
            if self.castling & castle_bits(corner) == 0 {
                continue;
            }
            for rd in self.kind_bb(us, walk::ROOK) {
                let rd = rd as u8;
                if rebirth_square(rook, rd) != corner || (rd != corner && self.squares[corner as usize].is_some()) {
                    continue;
                }
                let mut b = self.clone();
                b.mars = Mars::Off;
                b.clear(kd);
                b.clear(rd);
                b.put(ke, king);
                b.put(corner, rook);
                if between.iter().any(|&t| b.squares[t as usize].is_some())
                    || b.attacked(ke, !us)
                    || b.attacked(passed, !us)
                {
                    continue;
                }
                let extra = if kd == ke { NO_EXTRA } else { ke };
                out.push(Move { from: kd, to: king_to, special: Special::Castle { rook_from: rd, rook_to }, extra });
            }
        }
    }

    /// SingleBox Type1: may a piece of colour `c` become one of kind `k` (fewer of that orthodox
    /// kind on the board than in the game array, or a fairy kind)?
    pub fn singlebox_allows(&self, c: Color, k: Kind) -> bool {
        self.kind_bb(c, k).count() < singlebox_max(k)
    }

    /// SingleBox Type1: drops the promotions of `out[start..]` to kinds the side has all of.
    #[inline(never)]
    fn singlebox_filter(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            let ok = match m.special {
                Special::Promote(k)
                | Special::HurdlePromote(k)
                | Special::RebirthPromote(k)
                | Special::EnPassantRebirthPromote { kind: k, .. } => self.singlebox_allows(us, k),
                _ => true,
            };
            if ok {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Does the pseudo-legal move `m` capture?
    fn is_capture(&self, m: Move) -> bool {
        match m.special {
            Special::EnPassant { .. } | Special::EnPassantRebirthPromote { .. } | Special::Locust { .. } => true,
            Special::Castle { .. } => false,
            _ => self.squares[m.to as usize].is_some(),
        }
    }

    /// Mars Circe: does the piece `p` on `f` attack `s`? It captures from its rebirth square, which
    /// must be empty or its own square; its own square is empty meanwhile.
    fn mars_attacks(&self, f: u8, p: Piece, s: u8) -> bool {
        let r = rebirth_square(p, f);
        if r == f {
            return self.piece_attacks(f, p, s);
        }
        if self.squares[r as usize].is_some() || r == s {
            return false;
        }
        let occ = (self.occupied() & !Bitboard::from_square(sq(f))) | Bitboard::from_square(sq(r));
        let (from, t) = (sq(r), sq(s));
        match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from).contains(t),
            Walk::Queen => attacks::queen_attacks(from, occ).contains(t),
            Walk::Rook => attacks::rook_attacks(from, occ).contains(t),
            Walk::Bishop => attacks::bishop_attacks(from, occ).contains(t),
            Walk::Knight => attacks::knight_attacks(from).contains(t),
            Walk::Pawn => attacks::pawn_attacks(p.color, from).contains(t),
            _ => {
                let mut b = self.clone();
                b.mars = Mars::Off;
                b.clear(f);
                b.put(r, p);
                b.piece_attacks(r, p, s)
            }
        }
    }

    /// The captures of a locust of colour `us` on `f` along the vectors `v`: over the first piece
    /// on each line, an enemy, to the empty square directly behind it.
    #[inline(never)]
    fn locust_moves(&self, f: u8, us: Color, v: &[(i8, i8)], out: &mut Vec<Move>) {
        for &d in v {
            let Some(cap) = self.ride_to_piece(f, d) else { continue };
            if self.squares[cap as usize].is_some_and(|p| p.color != us) {
                if let Some(to) = self.step(cap, d).filter(|&t| self.squares[t as usize].is_none()) {
                    out.push(Move { from: f, to, special: Special::Locust { cap }, extra: NO_EXTRA });
                }
            }
        }
    }

    /// Orphan: is the piece of colour `c` on `t` observed by an enemy piece of kind `x` (not an
    /// orphan), or by an enemy orphan that is itself observed that way, through a chain of
    /// orphans of alternating colours (each orphan attacking with the walk of `x`)? `chain`: the
    /// orphans already in the chain (Popeye's `orphan_find_observation_chain`, which replaces
    /// them by dummies: they still block lines but are no links).
    fn orphan_chain(&self, t: u8, x: Kind, c: Color, chain: Bitboard) -> bool {
        let enemy = !c;
        let px = Piece { color: enemy, kind: x };
        let mut it = self.kind_bb(enemy, x).into_iter();
        if Iterator::any(&mut it, |f| self.piece_attacks(f as u8, px, t)) {
            return true;
        }
        let chain = chain | Bitboard::from_square(sq(t));
        let orphans = self.kind_bb(enemy, walk::ORPHAN) & !chain;
        let mut it = orphans.into_iter();
        Iterator::any(&mut it, |o| self.piece_attacks(o as u8, px, t) && self.orphan_chain(o as u8, x, enemy, chain))
    }

    /// Orphan: the kinds (not orphans) on the board whose walk the orphan of colour `c` on `f`
    /// has now, as a bit set.
    fn orphan_walks(&self, f: u8, c: Color) -> KindSet {
        let mut set: KindSet = 0;
        for k in 0..NUM_KINDS as Kind {
            if k != walk::ORPHAN
                && (self.by_kind[0][k as usize].any() || self.by_kind[1][k as usize].any())
                && self.orphan_chain(f, k, c, Bitboard(0))
            {
                set |= 1 << k;
            }
        }
        set
    }

    /// Orphan: the squares the orphan of colour `c` on `f` attacks (own pieces included).
    fn orphan_targets(&self, f: u8, c: Color) -> Bitboard {
        let mut t = self.orphan_walks(f, c);
        let (from, occ) = (sq(f), self.occupied());
        let mut out = Bitboard(0);
        while t != 0 {
            let k = t.trailing_zeros() as Kind;
            t &= t - 1;
            out |= match KINDS[k as usize].walk {
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                Walk::Pawn => attacks::pawn_attacks(c, from),
                Walk::BerolinaPawn => {
                    berolina_capture_square(f, c).map_or(Bitboard(0), |t| Bitboard::from_square(sq(t)))
                }
                w => self.walk_targets(f, w),
            };
        }
        out
    }

    /// Orphan: the moves of the orphan of colour `us` on `f`: those of every walk it has now
    /// ([`Board::orphan_walks`]), each move once. With a pawn's walk it steps, double-steps from
    /// its second rank and captures like a pawn of its colour but does not promote; with a
    /// king's it does not castle.
    #[inline(never)]
    fn orphan_moves(&self, f: u8, us: Color, out: &mut Vec<Move>) {
        let start = out.len();
        let mut t = self.orphan_walks(f, us);
        let (from, occ) = (sq(f), self.occupied());
        let blocked = self.color_bb(us) | self.holes;
        while t != 0 {
            let k = t.trailing_zeros() as Kind;
            t &= t - 1;
            let targets = match KINDS[k as usize].walk {
                Walk::Pawn => {
                    self.borrowed_pawn_moves(f, us, self.color_bb(!us), occ, out);
                    continue;
                }
                Walk::Locust(v) => {
                    self.locust_moves(f, us, v, out);
                    continue;
                }
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                w => self.walk_targets(f, w),
            } & !blocked;
            for to in targets {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
        }
        // Each move once (Popeye's `remove_duplicate_moves_of_single_piece`).
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if !out[start..w].contains(&m) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Pawn moves of a piece that only borrows the pawn's walk (an orphan, ...): no promotion (one move
    /// per arrival square) and no en-passant right.
    fn borrowed_pawn_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let start = out.len();
        self.pawn_moves(f, us, theirs, occ, out);
        let mut w = start;
        for i in start..out.len() {
            let mut m = out[i];
            match m.special {
                Special::Promote(k) if k != walk::PROMOTIONS[0] => continue,
                Special::Promote(_) | Special::Double => m.special = Special::None,
                _ => {}
            }
            out[w] = m;
            w += 1;
        }
        out.truncate(w);
    }

    /// AnnanChess: the moves of the piece `p` on `f` with the walk of kind `kind` (its
    /// annaniser's, another kind than its own). A pawn that arrives on its last rank this way
    /// promotes (Popeye promotes a pawn that stands on its promotion square, whatever walk took
    /// it there); a pawn may land on its own first rank, where it has no moves of its own. Another
    /// piece moving with a pawn walk steps, double-steps from its second rank, captures
    /// diagonally and takes en passant like a pawn, but never promotes and its double step gives
    /// no en-passant right (only a pawn's does).
    #[inline(never)]
    fn annan_moves(&self, f: u8, p: Piece, kind: Kind, occ: Bitboard, out: &mut Vec<Move>) {
        let us = p.color;
        let theirs = self.color_bb(!us);
        if kind == walk::PAWN {
            self.borrowed_pawn_moves(f, us, theirs, occ, out);
            return;
        }
        let from = sq(f);
        let targets = match KINDS[kind as usize].walk {
            Walk::King => attacks::king_attacks(from),
            Walk::Queen => attacks::queen_attacks(from, occ),
            Walk::Rook => attacks::rook_attacks(from, occ),
            Walk::Bishop => attacks::bishop_attacks(from, occ),
            Walk::Knight => attacks::knight_attacks(from),
            _ => self.fairy_targets(f, kind, us),
        } & !(self.color_bb(us) | self.holes);
        let last = if us == Color::White { 7 } else { 0 };
        for to in targets {
            let to = to as u8;
            if p.kind == walk::PAWN && to / 8 == last {
                let mut kinds = self.promotion_fairies;
                for k in walk::PROMOTIONS {
                    out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
                }
                while kinds != 0 {
                    let k = kinds.trailing_zeros() as Kind;
                    kinds &= kinds - 1;
                    out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
                }
            } else {
                out.push(Move { from: f, to, special: Special::None, extra: NO_EXTRA });
            }
        }
    }

    /// A pawn walk's move from `f` to `to` (`last`: its last rank): there every promotion (the
    /// orthodox kinds, then the fairy kinds present), else the move with `special`.
    #[inline(always)]
    fn push_pawn_move(&self, f: u8, to: u8, last: u8, special: Special, out: &mut Vec<Move>) {
        if to / 8 == last {
            for k in walk::PROMOTIONS {
                out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
            }
            let mut fairies = self.promotion_fairies;
            while fairies != 0 {
                let k = fairies.trailing_zeros() as Kind;
                fairies &= fairies - 1;
                out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
            }
        } else {
            out.push(Move { from: f, to, special, extra: NO_EXTRA });
        }
    }

    /// Is the piece on `cap` one that `us` may take en passant: the double-stepped enemy pawn,
    /// orthodox or Berolina (Popeye's `en_passant_find_potential`)?
    #[inline(always)]
    fn ep_victim(&self, cap: u8, us: Color) -> bool {
        matches!(self.squares[cap as usize],
            Some(q) if q.color == !us && (q.kind == walk::PAWN || q.kind == walk::BEROLINA_PAWN))
    }

    fn pawn_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let rank = f / 8;
        let (dir, start, last): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        let push = |out: &mut Vec<Move>, to: u8, double: bool| {
            self.push_pawn_move(f, to, last, if double { Special::Double } else { Special::None }, out)
        };
        // Pawns on their own first rank cannot move (Popeye allows them only with fairy conditions).
        // Circe Parrain: a pawn reborn on its first rank steps one square (Popeye's
        // `pawn_get_no_capture_length`).
        let first = (us == Color::White && rank == 0) || (us == Color::Black && rank == 7);
        if rank == last || (first && !self.parrain) {
            return;
        }
        let one = (f as i8 + dir) as u8;
        if !occ.contains(sq(one)) {
            push(out, one, false);
            if rank == start {
                let two = (one as i8 + dir) as u8;
                if !occ.contains(sq(two)) {
                    push(out, two, true);
                }
            }
        }
        for to in attacks::pawn_attacks(us, sq(f)) {
            let t = to as u8;
            if theirs.contains(to) {
                push(out, t, false);
            } else if let Some((ep_to, cap)) = self.ep {
                if ep_to == t && self.ep_victim(cap, us) && !occ.contains(sq(ep_to)) {
                    out.push(Move { from: f, to: t, special: Special::EnPassant { cap }, extra: NO_EXTRA });
                }
            }
        }
    }

    /// The moves of the Berolina pawn of `us` on `f` (Popeye's `berolina_pawn_generate_moves`):
    /// the capture one square straight forward (en passant too, onto the square an orthodox or
    /// Berolina pawn's double step passed), then the non-capturing steps diagonally forward left
    /// and right, two squares from its second rank if the passed square is empty (a double step:
    /// en-passant right on the passed square). None from its first rank (Popeye's
    /// `pawn_get_no_capture_length` is 0 there) or its last. A move to the last rank promotes
    /// to Q, R, B, S and the fairy kinds present other than pawns (Popeye's promotee sequence
    /// leaves out pawn walks).
    #[inline(never)]
    fn berolina_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let (dir, start, last): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        let push = |out: &mut Vec<Move>, to: u8, special: Special| self.push_pawn_move(f, to, last, special, out);
        let Some(t) = berolina_capture_square(f, us) else { return };
        if theirs.contains(sq(t)) {
            push(out, t, Special::None);
        } else if let Some((ep_to, cap)) = self.ep {
            if ep_to == t && self.ep_victim(cap, us) && !occ.contains(sq(t)) {
                out.push(Move { from: f, to: t, special: Special::EnPassant { cap }, extra: NO_EXTRA });
            }
        }
        for dx in [-1i8, 1] {
            let file = (f % 8) as i8 + dx;
            if !(0..8).contains(&file) {
                continue;
            }
            let one = (f as i8 + dir + dx) as u8;
            if occ.contains(sq(one)) {
                continue;
            }
            push(out, one, Special::None);
            let file2 = file + dx;
            if f / 8 == start && (0..8).contains(&file2) {
                let two = (one as i8 + dir + dx) as u8;
                if !occ.contains(sq(two)) {
                    push(out, two, Special::Double);
                }
            }
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let (k_side, q_side, base) =
            if us == Color::White { (CASTLE_WK, CASTLE_WQ, 0u8) } else { (CASTLE_BK, CASTLE_BQ, 56u8) };
        if self.castling & (k_side | q_side) == 0 {
            return;
        }
        let occ = self.occupied();
        let king = base + 4;
        // Circe RexInclusive: "attacked" means "in check there" (Popeye plays the king's step to
        // the square passed and tests its legality); with the king off e1 (e8), a square passed
        // is never in check when the king's rebirth square is that one.
        let attacked =
            |s: u8| if self.circe_rex { self.rex_circe_passing_checked(s, king, us) } else { self.attacked(s, !us) };
        if self.piece_at(king) != Some(Piece { color: us, kind: walk::KING }) || attacked(king) {
            return;
        }
        if self.castling & k_side != 0
            && !occ.contains(sq(base + 5))
            && !occ.contains(sq(base + 6))
            && !attacked(base + 5)
        {
            out.push(Move {
                from: king,
                to: base + 6,
                special: Special::Castle { rook_from: base + 7, rook_to: base + 5 },
                extra: NO_EXTRA,
            });
        }
        if self.castling & q_side != 0
            && !occ.contains(sq(base + 3))
            && !occ.contains(sq(base + 2))
            && !occ.contains(sq(base + 1))
            && !attacked(base + 3)
        {
            out.push(Move {
                from: king,
                to: base + 2,
                special: Special::Castle { rook_from: base, rook_to: base + 3 },
                extra: NO_EXTRA,
            });
        }
    }

    /// The effects of the conditions and attributes of [`Board::ext_active`] after the move
    /// proper (the mover stands on `m.to` as `placed`; `captured`: what it took), recorded for
    /// [`Board::unmake_ext`].
    #[inline(never)]
    fn make_ext(&mut self, m: Move, placed: Piece, captured: Option<(u8, Piece)>) -> Effects {
        let mut e = Effects {
            bgl_left: self.bgl.left,
            last_from: self.last_from,
            bul: self.bul,
            neutral: self.neutral,
            uncapturable: self.uncapturable,
            ..Effects::default()
        };
        if self.neutral.any() {
            self.neutral_moved(m, captured);
        }
        if self.exchange_castling && matches!(m.special, Special::Castle { .. }) {
            // (Generated only while the side has not exchanged.)
            self.exchange_used |= 1 << self.side.index();
        }
        if self.back_home {
            // The moved piece takes its home along (a promoted pawn keeps the pawn's); a
            // captured piece's home goes with it.
            let cs = captured.map(|(c, _)| c);
            e.home_captured = cs.map_or(NO_EXTRA, |c| self.home[c as usize]);
            if let Some(c) = cs {
                self.home[c as usize] = NO_EXTRA;
            }
            e.home_moved = self.home[m.from as usize];
            self.home[m.from as usize] = NO_EXTRA;
            if let Special::Castle { rook_from, rook_to } = m.special {
                e.home_rook = self.home[rook_from as usize];
                self.home[rook_from as usize] = NO_EXTRA;
                self.home[rook_to as usize] = e.home_rook;
            }
            self.home[m.to as usize] = e.home_moved;
        }
        if self.imitators.n > 0 {
            e.imitators = self.imitators;
            let v = |a: u8, b: u8| ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
            let (mut dx, mut dy) = v(m.from, m.to);
            if let Special::Castle { rook_from, rook_to } = m.special {
                let (rx, ry) = v(rook_from, rook_to);
                dx += rx;
                dy += ry;
            }
            let mut moved = self.imitators;
            for i in 0..moved.n as usize {
                // The generator made sure every imitator lands on the board.
                moved.sq[i] = offset(moved.sq[i], (dx, dy)).unwrap_or(moved.sq[i]);
            }
            if m.extra == IMITATOR_PROMOTION {
                // The pawn (placed as a queen) becomes an imitator on its promotion square.
                self.remove(m.to, placed);
                moved.push(m.to);
            }
            self.imitators = moved;
        }
        if self.parrain {
            e.parrain_before = self.parrain_pending;
            if let Some((cs, p)) = self.parrain_pending {
                if let Some(r) = self.parrain_square(m, cs) {
                    if self.squares[r as usize].is_none() {
                        let last = if p.color == Color::White { 7 } else { 0 };
                        let kind = if p.kind == walk::PAWN && r / 8 == last {
                            if m.extra == NO_EXTRA {
                                walk::QUEEN
                            } else {
                                m.extra as Kind
                            }
                        } else {
                            p.kind
                        };
                        let q = Piece { color: p.color, kind };
                        self.add(r, q);
                        e.parrain_reborn = Some((r, q));
                    }
                }
            }
            self.parrain_pending = captured.filter(|&(_, c)| c.kind != walk::KING);
        }
        if m.extra != NO_EXTRA && self.anticirce != AntiCirce::Off {
            // AntiCirce: the capturer goes to its rebirth square (and promotes there if it is a
            // pawn on its last rank).
            self.remove(m.to, placed);
            let kind = match m.special {
                Special::RebirthPromote(k) | Special::EnPassantRebirthPromote { kind: k, .. } => k,
                _ => placed.kind,
            };
            self.add(m.extra, Piece { color: placed.color, kind });
            e.anti = Some((m.extra, placed));
            self.castling &= !castle_bits(m.extra);
        }
        if self.ghost_chess {
            let mut nu = self.uncapturable;
            if nu.contains(sq(m.from)) {
                nu.clear(sq(m.from));
                nu.set(sq(m.to));
            }
            if let Some((cs, cp)) = captured {
                let n = self.n_ghosts as usize;
                if n < MAX_GHOSTS {
                    self.ghosts[n] = (cs, cp);
                    self.n_ghosts += 1;
                    e.ghost_pushed = true;
                }
            }
            // The latest ghost under the departure square comes back there.
            let n = self.n_ghosts as usize;
            if let Some(i) = (0..n).rev().find(|&i| self.ghosts[i].0 == m.from) {
                let (g, gp) = self.ghosts[i];
                self.ghosts.copy_within(i + 1..n, i);
                self.n_ghosts -= 1;
                self.add(g, gp);
                nu.set(sq(g));
                e.ghost_summoned = Some((i as u8, g, gp));
            }
            self.uncapturable = nu;
        }
        if self.bul.any() {
            let mut nb = self.bul;
            if let Some((cs, _)) = captured {
                nb.clear(sq(cs));
            }
            if nb.contains(sq(m.from)) {
                nb.clear(sq(m.from));
                nb.set(sq(m.to));
                if m.extra != NO_EXTRA {
                    let h = hurdle_square(m.from, m.to);
                    let hp = self.squares[h as usize].expect("hurdle");
                    self.remove(h, hp);
                    let kind = if let Special::HurdlePromote(k) = m.special { k } else { hp.kind };
                    self.add(m.extra, Piece { color: hp.color, kind });
                    e.hurdle = Some((h, m.extra, hp));
                    self.castling &= !(castle_bits(h) | castle_bits(m.extra));
                    if nb.contains(sq(h)) {
                        nb.clear(sq(h));
                        nb.set(sq(m.extra));
                    }
                }
            }
            self.bul = nb;
        }
        if self.breton && m.extra != NO_EXTRA {
            let r = self.squares[m.extra as usize].expect("Breton victim");
            self.remove(m.extra, r);
            e.breton = Some((m.extra, r));
            self.castling &= !castle_bits(m.extra);
        }
        if self.andernach && captured.is_some() && placed.kind != walk::KING {
            let now = self.squares[m.to as usize].expect("capturing piece");
            self.remove(m.to, now);
            self.add(m.to, Piece { color: !now.color, kind: now.kind });
            e.side_changed = true;
        }
        if self.chameleon_pursuit {
            if m.to == self.last_from && placed.kind != walk::KING {
                self.remove(m.to, placed);
                self.add(m.to, Piece { color: !placed.color, kind: placed.kind });
                e.side_changed = true;
            }
            self.last_from = m.from;
        }
        if self.bgl.on {
            let cost = bgl_cost(m.from, m.to);
            if self.bgl.global {
                for v in &mut self.bgl.left {
                    *v = bgl_pay(*v, cost);
                }
            } else {
                let v = &mut self.bgl.left[placed.color.index()];
                *v = bgl_pay(*v, cost);
            }
        }
        e
    }

    /// Takes back [`Board::make_ext`] (before the move proper is taken back).
    #[inline(never)]
    fn unmake_ext(&mut self, m: Move, e: Effects) {
        if self.exchange_castling && matches!(m.special, Special::Castle { .. }) {
            // (`unmake` has given the move back to the mover's side; the side had not exchanged.)
            self.exchange_used &= !(1 << self.side.index());
        }
        if self.back_home {
            self.home[m.to as usize] = NO_EXTRA;
            if let Special::Castle { rook_from, rook_to } = m.special {
                self.home[rook_to as usize] = NO_EXTRA;
                self.home[rook_from as usize] = e.home_rook;
            }
            self.home[m.from as usize] = e.home_moved;
            let cs = match m.special {
                Special::EnPassant { cap } | Special::EnPassantRebirthPromote { cap, .. } | Special::Locust { cap } => {
                    Some(cap)
                }
                Special::Castle { .. } => None,
                _ => (e.home_captured != NO_EXTRA).then_some(m.to),
            };
            if let Some(c) = cs {
                self.home[c as usize] = e.home_captured;
            }
        }
        if self.imitators.n > 0 {
            if m.extra == IMITATOR_PROMOTION {
                // (`unmake` has given the move back to the mover's side.)
                let q = Piece { color: self.side, kind: walk::QUEEN };
                self.add(m.to, q);
            }
            self.imitators = e.imitators;
        }
        if self.ghost_chess {
            if let Some((i, g, gp)) = e.ghost_summoned {
                self.remove(g, gp);
                let (i, n) = (i as usize, self.n_ghosts as usize);
                self.ghosts.copy_within(i..n, i + 1);
                self.ghosts[i] = (g, gp);
                self.n_ghosts += 1;
            }
            if e.ghost_pushed {
                self.n_ghosts -= 1;
            }
            self.uncapturable = e.uncapturable;
        }
        if self.parrain {
            if let Some((r, q)) = e.parrain_reborn {
                self.remove(r, q);
            }
            self.parrain_pending = e.parrain_before;
        }
        if let Some((r, placed)) = e.anti {
            let q = self.squares[r as usize].expect("reborn capturer");
            self.remove(r, q);
            self.add(m.to, placed);
        }
        self.bul = e.bul;
        self.neutral = e.neutral;
        if let Some((h, t2, hp)) = e.hurdle {
            let q = self.squares[t2 as usize].expect("moved hurdle");
            self.remove(t2, q);
            self.add(h, hp);
        }
        if let Some((r, rp)) = e.breton {
            self.add(r, rp);
        }
        self.bgl.left = e.bgl_left;
        self.last_from = e.last_from;
        if e.side_changed {
            let q = self.squares[m.to as usize].expect("piece that changed sides");
            self.remove(m.to, q);
            self.add(m.to, Piece { color: !q.color, kind: q.kind });
        }
    }

    /// Is a condition or attribute on whose moves have effects beyond Circe's (recorded on a
    /// side stack, so that the orthodox make/unmake stays small)?
    #[inline(always)]
    pub fn ext_active(&self) -> bool {
        self.breton
            | self.bgl.on
            | self.chameleon_pursuit
            | self.andernach
            | (self.anticirce != AntiCirce::Off)
            | self.ghost_chess
            | self.bul.any()
            | self.parrain
            | self.neutral.any()
            | (self.mars == Mars::AntiMars)
            | (self.imitators.n > 0)
            | self.back_home
            | self.castling_chess
            | self.exchange_castling
    }

    /// The condition effects of the move `u` was returned for, while it is the last move made
    /// (Breton removal, Bul hurdle move, AntiCirce rebirth, ghost, side change).
    pub fn effects(&self, u: &Undo) -> Effects {
        if u.ext {
            self.ext_undo.last().copied().unwrap_or_default()
        } else {
            Effects::default()
        }
    }

    /// Plays a pseudo-legal move; returns the undo record.
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: None,
            reborn: None,
            castling: self.castling,
            ep: self.ep,
            key: self.key,
            ext: false,
            berolina: false,
        };
        let mut undo = undo;
        let p = self.squares[m.from as usize].expect("a piece on the from square");
        match m.special {
            Special::EnPassant { cap } | Special::EnPassantRebirthPromote { cap, .. } | Special::Locust { cap } => {
                let cp = self.squares[cap as usize].expect("en-passant or locust victim");
                self.remove(cap, cp);
                undo.captured = Some((cap, cp));
            }
            // Anti-Mars Circe: the king may castle onto its rook's square (c1 from a1).
            Special::Castle { .. } => {}
            _ => {
                if let Some(cp) = self.squares[m.to as usize] {
                    self.remove(m.to, cp);
                    undo.captured = Some((m.to, cp));
                }
            }
        }
        self.remove(m.from, p);
        let placed = match m.special {
            Special::Promote(k) => {
                undo.berolina = p.kind == walk::BEROLINA_PAWN;
                Piece { color: p.color, kind: k }
            }
            _ => p,
        };
        if let Special::Castle { rook_from, rook_to } = m.special {
            // The rook leaves before the king arrives (Anti-Mars Circe: a rook on c1 castling
            // from a1, the king on f1 castling from e1).
            let r = self.squares[rook_from as usize].expect("castling rook");
            self.remove(rook_from, r);
            self.add(m.to, placed);
            self.add(rook_to, r);
            let used = castle_bits(rook_from);
            for &(a, b) in &self.castling_exclusive {
                if a & used != 0 {
                    self.castling &= !b;
                }
                if b & used != 0 {
                    self.castling &= !a;
                }
            }
        } else {
            self.add(m.to, placed);
        }
        self.castling &= !(castle_bits(m.from) | castle_bits(m.to));
        // A neutral piece reborn by Circe: its square (the attribute is set after the side stack
        // has kept the squares before the move).
        let mut neutral_reborn = None;
        if self.circe != Circe::Off {
            if let Some((cs, captured)) = undo.captured {
                if captured.kind != walk::KING || self.circe_rex {
                    let cp = self.circe.reborn_piece(captured, p);
                    let neutral = self.neutral.any() && self.neutral.contains(sq(cs));
                    // A neutral piece is reborn as a piece of the side it was captured from
                    // (Popeye's relevant side: the mover's opponent), staying neutral.
                    let r = if neutral {
                        self.circe.rebirth_square(Piece { color: !self.side, kind: cp.kind }, cs)
                    } else {
                        self.circe.rebirth_square(cp, cs)
                    };
                    if self.squares[r as usize].is_none() {
                        self.add(r, cp);
                        undo.reborn = Some((r, cp));
                        if neutral {
                            neutral_reborn = Some(r);
                        }
                        // A rook reborn in its corner regains its castling right (Popeye's
                        // restore_castling_rights); castling also needs the king's right.
                        if cp.kind == walk::ROOK && !neutral {
                            let (home, bits) = match r {
                                0 => (KING_HOME_W, CASTLE_WQ),
                                7 => (KING_HOME_W, CASTLE_WK),
                                56 => (KING_HOME_B, CASTLE_BQ),
                                63 => (KING_HOME_B, CASTLE_BK),
                                _ => (0, 0),
                            };
                            if self.castling & home != 0 {
                                self.castling |= bits;
                            }
                        }
                    }
                }
            }
        }
        if self.ext_active() {
            if self.mars == Mars::AntiMars {
                self.castling = antimars_castling(undo.castling, m);
            }
            let e = self.make_ext(m, placed, undo.captured);
            self.ext_undo.push(e);
            undo.ext = true;
        }
        if let Some(r) = neutral_reborn {
            self.neutral.set(sq(r));
        }
        self.ep = match m.special {
            Special::Double if m.extra != NO_EXTRA && self.mars != Mars::Off => {
                // Anti-Mars Circe: a double step from the rebirth square passes over the square
                // between it and the arrival, unless that is the pawn's own square.
                let over = (m.extra + m.to) / 2;
                (over != m.from).then_some((over, m.to))
            }
            Special::Double => Some(((m.from + m.to) / 2, m.to)),
            _ => None,
        };
        self.side = !self.side;
        undo
    }

    /// Takes back the move `m` made with `make`.
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.side = !self.side;
        if undo.ext {
            let e = self.ext_undo.pop().expect("effects of the move");
            self.unmake_ext(m, e);
        }
        if let Some((r, rp)) = undo.reborn {
            self.remove(r, rp);
        }
        let placed = self.squares[m.to as usize].expect("moved piece");
        self.remove(m.to, placed);
        let p = match m.special {
            Special::Promote(_) => {
                Piece { color: placed.color, kind: if undo.berolina { walk::BEROLINA_PAWN } else { walk::PAWN } }
            }
            _ => placed,
        };
        if let Special::Castle { rook_from, rook_to } = m.special {
            let r = self.squares[rook_to as usize].expect("castled rook");
            self.remove(rook_to, r);
            self.add(m.from, p);
            self.add(rook_from, r);
        } else {
            self.add(m.from, p);
        }
        if let Some((s, cp)) = undo.captured {
            self.add(s, cp);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.key = undo.key;
    }

    /// A "null move": the side to move passes (used for threats and series play).
    ///
    /// Circe Parrain: a capture waiting for its rebirth is lost, as in Popeye, whose null move
    /// (`null_move_player_solve`) skips the move's Circe slices and whose next move finds no
    /// capture in the ply before it (kept on the side stack for [`Board::unmake_null`]).
    pub fn make_null(&mut self) -> Option<(u8, u8)> {
        if self.parrain {
            self.ext_undo.push(Effects { parrain_before: self.parrain_pending.take(), ..Effects::default() });
        }
        let ep = self.ep.take();
        self.side = !self.side;
        ep
    }

    pub fn unmake_null(&mut self, ep: Option<(u8, u8)>) {
        if self.parrain {
            self.parrain_pending = self.ext_undo.pop().expect("null move effects").parrain_before;
        }
        self.side = !self.side;
        self.ep = ep;
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(&mut pseudo);
        let us = self.side;
        pseudo.retain(|&m| {
            let u = self.make(m);
            let ok = !self.in_check(us);
            self.unmake(m, u);
            ok
        });
        pseudo
    }

    /// Does the side to move have at least one legal move?
    pub fn has_legal_move(&mut self) -> bool {
        thread_local! {
            // The goal test of every leaf asks this: one buffer per thread instead of an
            // allocation per call (taken out while in use, so a nested call gets its own).
            static BUF: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut pseudo = BUF.take();
        pseudo.clear();
        self.pseudo_moves(&mut pseudo);
        let us = self.side;
        let mut found = false;
        for &m in &pseudo {
            let u = self.make(m);
            found = !self.in_check(us);
            self.unmake(m, u);
            if found {
                break;
            }
        }
        BUF.set(pseudo);
        found
    }

    /// Is the side to move mated?
    pub fn is_mate(&mut self) -> bool {
        self.in_check(self.side) && !self.has_legal_move()
    }

    /// Is the side to move stalemated?
    pub fn is_stalemate(&mut self) -> bool {
        !self.in_check(self.side) && !self.has_legal_move()
    }

    /// Are both sides stalemated (the side to move and, were it to move, the other side)?
    pub fn is_double_stalemate(&mut self) -> bool {
        if !self.is_stalemate() {
            return false;
        }
        let ep = self.make_null();
        let other = self.is_stalemate();
        self.unmake_null(ep);
        other
    }

    /// The board with every square mapped through `f` (twins: rotate, mirror, shift).
    /// Returns `None` when a piece would leave the board.
    pub fn transformed(&self, f: impl Fn(u8) -> Option<u8>) -> Option<Board> {
        let mut b = Board::empty();
        b.side = self.side;
        b.set_conditions(&self.conditions());
        for s in 0..64u8 {
            if let Some(p) = self.piece_at(s) {
                b.put(f(s)?, p);
                if self.bul.contains(sq(s)) {
                    b.bul.set(sq(f(s)?));
                }
            }
        }
        Some(b)
    }

    /// The conditions the board plays by.
    pub fn conditions(&self) -> Conditions {
        Conditions {
            circe: self.circe,
            circe_rex: self.circe_rex,
            paralysis: self.paralysis,
            breton: self.breton,
            bgl: self.bgl,
            chameleon_pursuit: self.chameleon_pursuit,
            anticirce: self.anticirce,
            transmuted_kings: self.transmuted_kings,
            pepo: self.pepo,
            ghost_chess: self.ghost_chess,
            maximummer: self.maximummer,
            andernach: self.andernach,
            checkless: self.checkless,
            holes: self.holes,
            annan: self.annan,
            parrain: self.parrain,
            mars: self.mars,
            singlebox: self.singlebox,
            imitators: self.imitators,
            no_iprom: self.no_iprom,
            back_home: self.back_home,
            castling_chess: self.castling_chess,
            exchange_castling: self.exchange_castling,
        }
    }

    /// Plays by the conditions `c` from now on (problem set-up and twins; not during a solve).
    pub fn set_conditions(&mut self, c: &Conditions) {
        self.circe = c.circe;
        self.circe_rex = c.circe_rex;
        self.paralysis = c.paralysis;
        self.breton = c.breton;
        self.bgl = c.bgl;
        self.chameleon_pursuit = c.chameleon_pursuit;
        self.anticirce = c.anticirce;
        self.transmuted_kings = c.transmuted_kings;
        self.pepo = c.pepo;
        self.ghost_chess = c.ghost_chess;
        self.maximummer = c.maximummer;
        self.andernach = c.andernach;
        self.checkless = c.checkless;
        self.holes = c.holes;
        self.annan = c.annan;
        self.parrain = c.parrain;
        self.parrain_pending = None;
        self.mars = c.mars;
        self.singlebox = c.singlebox;
        self.imitators = c.imitators;
        self.no_iprom = c.no_iprom;
        self.back_home = c.back_home;
        self.castling_chess = c.castling_chess;
        self.exchange_castling = c.exchange_castling;
        self.exchange_used = 0;
    }

    /// Pieces as (square, piece), a1..h8.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, Piece)> + '_ {
        (0..64u8).filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }
}

/// Masks for testing many moves of one position with [`Board::could_check_with`].
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    ksq: u8,
    /// Every move may check (fairy pieces of the mover, Madrasi/Isardam).
    all: bool,
    /// Squares seen from the king along rook and bishop lines (first piece included).
    visible: Bitboard,
    /// The mover's pieces whose leaving would uncover one of its line pieces on the king.
    discoverers: Bitboard,
    rook: Bitboard,
    bishop: Bitboard,
    knight: Bitboard,
    pawn: Bitboard,
}

/// The conditions a problem or twin is played under (each one is described at its field of
/// [`Board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conditions {
    pub circe: Circe,
    /// Circe RexInclusive (with `circe` Plain, Chameleon or Mirror).
    pub circe_rex: bool,
    pub paralysis: Paralysis,
    pub breton: bool,
    pub bgl: Bgl,
    pub chameleon_pursuit: bool,
    pub anticirce: AntiCirce,
    pub transmuted_kings: bool,
    pub pepo: bool,
    pub ghost_chess: bool,
    pub maximummer: [bool; 2],
    pub andernach: bool,
    pub checkless: bool,
    /// Condition Hole: the squares that are holes.
    pub holes: Bitboard,
    pub annan: bool,
    pub parrain: bool,
    pub mars: Mars,
    pub singlebox: bool,
    /// Condition Imitator: the imitators' squares; `NoIProm`.
    pub imitators: Imitators,
    pub no_iprom: bool,
    /// Condition BackHome.
    pub back_home: bool,
    /// Condition CastlingChess.
    pub castling_chess: bool,
    /// Condition ExchangeCastling.
    pub exchange_castling: bool,
}

impl Conditions {
    /// Orthodox chess.
    pub const NONE: Conditions = Conditions {
        circe: Circe::Off,
        circe_rex: false,
        paralysis: Paralysis::Off,
        breton: false,
        bgl: Bgl::OFF,
        chameleon_pursuit: false,
        anticirce: AntiCirce::Off,
        transmuted_kings: false,
        pepo: false,
        ghost_chess: false,
        maximummer: [false; 2],
        andernach: false,
        checkless: false,
        holes: Bitboard(0),
        annan: false,
        parrain: false,
        mars: Mars::Off,
        singlebox: false,
        imitators: Imitators::NONE,
        no_iprom: false,
        back_home: false,
        castling_chess: false,
        exchange_castling: false,
    };
}

/// Mars Circe and Anti-Mars Circe (Popeye's `conditions/marscirce`): a piece is first put on its
/// own Circe rebirth square ([`rebirth_square`] for its own colour; kings too, e1/e8), which
/// must be empty unless it is the piece's own square, and moves from there: under Mars Circe
/// its captures (and so its checks), under Anti-Mars Circe its non-captures (a move back to
/// its own square is no move). The other moves are plain. Nothing is reborn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mars {
    Off,
    /// `MarsCirce`: captures from the rebirth square.
    Mars,
    /// `AntiMarsCirce`: non-captures from the rebirth square.
    AntiMars,
}

impl Mars {
    /// Popeye's name of the condition.
    pub fn name(self) -> &'static str {
        match self {
            Mars::Off => "",
            Mars::Mars => "MarsCirce",
            Mars::AntiMars => "AntiMarsCirce",
        }
    }
}

/// Which Circe, if any (Popeye's `Circe`, `Circe Chameleon` = `ChameleonCirce`, `Circe Clone` =
/// `CirceClone`; all "relaxed": an occupied rebirth square means no rebirth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Circe {
    #[default]
    Off,
    /// The captured piece is reborn as it is.
    Plain,
    /// The captured piece changes S -> B -> R -> Q -> S before its rebirth (pawns, kings and fairy
    /// pieces keep their kind); the new kind decides the rebirth square.
    Chameleon,
    /// The captured piece is reborn with the kind of the piece that moved (as it was before a
    /// promotion), in its own colour; a captured piece taken by a king is reborn as it is.
    Clone,
    /// Mirror Circe: the captured piece is reborn as it is, on the square where a piece of its
    /// kind of the other colour would be reborn (a black rook taken on a light square goes to
    /// h1, a black pawn taken on the e-file to e2, a white fairy piece to the capture file's
    /// first rank).
    Mirror,
}

impl Circe {
    /// The piece reborn after `captured` was taken by `mover` (the moving piece before the move).
    pub fn reborn_piece(self, captured: Piece, mover: Piece) -> Piece {
        let kind = match self {
            Circe::Off | Circe::Plain | Circe::Mirror => captured.kind,
            Circe::Chameleon => match captured.kind {
                walk::KNIGHT => walk::BISHOP,
                walk::BISHOP => walk::ROOK,
                walk::ROOK => walk::QUEEN,
                walk::QUEEN => walk::KNIGHT,
                k => k,
            },
            Circe::Clone => {
                if mover.kind == walk::KING {
                    captured.kind
                } else {
                    mover.kind
                }
            }
        };
        Piece { color: captured.color, kind }
    }

    /// The square the reborn piece `p`, captured on `s`, goes to.
    pub fn rebirth_square(self, p: Piece, s: u8) -> u8 {
        match self {
            Circe::Mirror => rebirth_square(Piece { color: !p.color, ..p }, s),
            _ => rebirth_square(p, s),
        }
    }

    /// Popeye's name of the condition in twin headers (`Circe Chameleon`).
    pub fn name(self) -> &'static str {
        match self {
            Circe::Off => "",
            Circe::Plain => "Circe",
            Circe::Chameleon => "Circe Chameleon",
            Circe::Clone => "Circe Clone",
            Circe::Mirror => "MirrorCirce",
        }
    }
}

/// AntiCirce: after a capture the capturing piece (kings too: Popeye's default Rex inclusive)
/// is reborn, as it stands on the capture square (a pawn that captured onto its last rank as the
/// promoted piece).
///
/// * Plain AntiCirce (`Calvet`, `Cheylan`): on its own Circe rebirth square ([`rebirth_square`]
///   of the capturing piece and the capture square; Popeye's `rennormal` for the capturer's
///   side). The capture is illegal if that square is occupied after the capture (Popeye's
///   default "strict"); the departure square and the captured piece's square are empty then,
///   and Calvet (default) counts the capture square as empty (the piece stays where it
///   captured), Cheylan forbids a rebirth on the capture square. A king is in check only if
///   such a capture of it would be legal (Popeye's observation validator playing the capture).
/// * AntiCirce Super (AntiSuperCirce): on any square empty after the capture, the mover's
///   choice; Calvet: the capture square counts as empty, Cheylan: it does not. A pawn reborn on
///   its last rank promotes. A capture of the king always has a rebirth square, so checks are
///   the plain attacks.
/// * AntiCirce Cage (Calvet): on any square empty after the capture (the capture square
///   included) that is a cage for the reborn piece, the mover's choice: there the piece, after
///   the whole move, has no legal non-capturing move ([`Board::anticirce_caged`]). A pawn
///   reborn on its last rank promotes (the promoted piece must be caged). No cage: the capture
///   is illegal (strict). A king is in check only if its capture could be played so, i.e. some
///   square would be a cage for the capturer (Popeye's `conditions/circe/cage.c` with the Super
///   rebirth squares of `conditions/circe/super.c`, checks validated by playing the capture as
///   `conditions/anticirce/anticirce.c` does for all but Super).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AntiCirce {
    #[default]
    Off,
    Calvet,
    Cheylan,
    // Next to the plain ones: `checks_by_capture` is one range test.
    Cage,
    SuperCalvet,
    SuperCheylan,
}

impl AntiCirce {
    /// Plain AntiCirce (rebirth on the Circe square; checks depend on it)?
    #[inline(always)]
    pub fn plain(self) -> bool {
        matches!(self, AntiCirce::Calvet | AntiCirce::Cheylan)
    }

    /// Is a check a capture of the king that must be playable (plain AntiCirce: a free rebirth
    /// square, Cage: a cage)? AntiCirce Super's checks are the plain attacks.
    #[inline(always)]
    pub fn checks_by_capture(self) -> bool {
        matches!(self, AntiCirce::Calvet | AntiCirce::Cheylan | AntiCirce::Cage)
    }

    /// Popeye's name in twin headers.
    pub fn name(self) -> &'static str {
        match self {
            AntiCirce::Off => "",
            AntiCirce::Calvet => "AntiCirce",
            AntiCirce::Cheylan => "AntiCirce Cheylan",
            AntiCirce::SuperCalvet => "AntiCirce Super",
            AntiCirce::SuperCheylan => "AntiCirce Cheylan Super",
            AntiCirce::Cage => "AntiCirce Cage",
        }
    }
}

/// Madrasi-type conditions (Popeye's `Madrasi` and `Isardam`, kings not included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paralysis {
    #[default]
    Off,
    /// A piece (not a king) observed by an enemy piece of its own kind is paralysed: it cannot
    /// move, capture or give check.
    Madrasi,
    /// Type A: a move after which a piece is observed by an enemy piece of its own kind is
    /// illegal; a check counts only if capturing the king would be legal by that rule.
    Isardam,
}

impl Paralysis {
    /// Popeye's name in twin headers.
    pub fn name(self) -> &'static str {
        match self {
            Paralysis::Off => "",
            Paralysis::Madrasi => "Madrasi",
            Paralysis::Isardam => "Isardam",
        }
    }
}

/// Condition BGL: each side has a budget of distance (in hundredths of a square's width), or
/// an unlimited one. A move costs the distance from its departure to its arrival square
/// (`round(100 * sqrt(dx² + dy²))`, so 100 a rook step, 141 a diagonal one, 224 a knight move;
/// castling: the king's two squares) and is possible only if the mover's side can pay it; a piece
/// attacks (gives check) only within its side's budget. `BGL w b`: a budget per side, each side
/// pays its own moves; `BGL n`: one budget both sides pay every move from (Popeye's
/// `BGL_global`). The budgets after a move are printed after it: ` (4/10.76)`, ` (5.5)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bgl {
    pub on: bool,
    /// One budget paid by both sides (`BGL n`).
    pub global: bool,
    /// Budgets left (white, black) in hundredths, [`BGL_INFINITE`] for `-`.
    pub left: [i32; 2],
}

/// An unlimited BGL budget (`-`).
pub const BGL_INFINITE: i32 = i32::MAX;

impl Bgl {
    pub const OFF: Bgl = Bgl { on: false, global: false, left: [BGL_INFINITE; 2] };

    /// The budgets as Popeye prints them after a move: ` (4/10.76)`, or ` (5.5)` when global.
    pub fn text(&self) -> String {
        if self.global {
            format!(" ({})", bgl_number(self.left[0]))
        } else {
            format!(" ({}/{})", bgl_number(self.left[0]), bgl_number(self.left[1]))
        }
    }
}

/// A budget the way Popeye writes it: `-` (unlimited), `4`, `6.5`, `1.05`.
pub fn bgl_number(v: i32) -> String {
    if v == BGL_INFINITE {
        "-".to_string()
    } else if v % 100 == 0 {
        format!("{}", v / 100)
    } else if v % 10 == 0 {
        format!("{}.{}", v / 100, (v % 100) / 10)
    } else {
        format!("{}.{:02}", v / 100, v % 100)
    }
}

/// The BGL cost of a move from `a` to `b`: the distance in hundredths, rounded.
#[inline]
pub fn bgl_cost(a: u8, b: u8) -> i32 {
    static COST: [[i32; 8]; 8] = {
        // round(100 * sqrt(dx² + dy²)) for dx, dy in 0..8 (integer square root, then rounding:
        // isqrt(4n) gives the value to the nearest half).
        let mut t = [[0i32; 8]; 8];
        let mut dx = 0;
        while dx < 8 {
            let mut dy = 0;
            while dy < 8 {
                let n = ((dx * dx + dy * dy) * 10000) as u64;
                // floor(sqrt(n)), then round: sqrt(n) >= r + 0.5 iff 4n >= (2r + 1)².
                let mut r = 0u64;
                while (r + 1) * (r + 1) <= n {
                    r += 1;
                }
                if 4 * n >= (2 * r + 1) * (2 * r + 1) {
                    r += 1;
                }
                t[dx][dy] = r as i32;
                dy += 1;
            }
            dx += 1;
        }
        t
    };
    let dx = (a % 8).abs_diff(b % 8) as usize;
    let dy = (a / 8).abs_diff(b / 8) as usize;
    COST[dx][dy]
}

/// A budget after paying `cost` (an unlimited budget stays unlimited).
#[inline]
fn bgl_pay(v: i32, cost: i32) -> i32 {
    if v == BGL_INFINITE {
        v
    } else {
        v - cost
    }
}

/// The square `d` away from `s`, if it is on the board.
#[inline(always)]
pub fn offset(s: u8, d: (i8, i8)) -> Option<u8> {
    let f = (s % 8) as i8 + d.0;
    let r = (s / 8) as i8 + d.1;
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as u8)
}

/// The square a Berolina pawn of `us` on `f` captures on (one straight forward), `None` on its
/// first rank (no moves there, Popeye's `pawn_get_no_capture_length`) or its last.
#[inline]
pub fn berolina_capture_square(f: u8, us: Color) -> Option<u8> {
    match f / 8 {
        0 | 7 => None,
        _ if us == Color::White => Some(f + 8),
        _ => Some(f - 8),
    }
}

/// Circe rebirth square of piece `p` captured on `s` (Popeye's `rennormal`, plain Circe): a pawn
/// on the capture file, 2nd rank (white) or 7th (black); a queen on d1/d8; a king on e1/e8 (only
/// used by Rex inclusive variants); a rook, bishop or knight on its game-array square of the same
/// square colour as `s`; a fairy piece on the capture file, on its promotion rank (8th rank for
/// a white piece, 1st for a black one).
pub fn rebirth_square(p: Piece, s: u8) -> u8 {
    let file = s % 8;
    let base = if p.color == Color::White { 0 } else { 56 };
    let colour = |t: u8| (t % 8 + t / 8) % 2;
    // The two game-array squares (files x and y) differ in colour: take the one of `s`'s colour.
    let home = |x: u8, y: u8| if colour(base + x) == colour(s) { base + x } else { base + y };
    match KINDS[p.kind as usize].walk {
        // Popeye's `rennormal`: every pawn walk (`is_pawn`), the Berolina pawn too.
        Walk::Pawn | Walk::BerolinaPawn => {
            if p.color == Color::White {
                8 + file
            } else {
                48 + file
            }
        }
        Walk::Queen => base + 3,
        Walk::King => base + 4,
        Walk::Rook => home(0, 7),
        Walk::Bishop => home(2, 5),
        Walk::Knight => home(1, 6),
        _ => (56 - base) + file,
    }
}

/// Greatest common divisor (`gcd(0, n) = n`).
fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// SingleBox: how many pieces of kind `k` a side has in the game array (1 K, 1 Q, 2 R, 2 B,
/// 2 S, 8 P); fairy kinds are not limited.
pub fn singlebox_max(k: Kind) -> u32 {
    match k {
        walk::KING | walk::QUEEN => 1,
        walk::ROOK | walk::BISHOP | walk::KNIGHT => 2,
        walk::PAWN => 8,
        _ => u32::MAX,
    }
}

/// Anti-Mars Circe: the castling rights after the move `m` (rights `before` it): Popeye's king
/// flag does not count (a king castles from its rebirth square), a corner's right is lost when
/// a piece leaves or enters the corner, also on the way from its rebirth square, and when its
/// rook castles.
fn antimars_castling(before: u8, m: Move) -> u8 {
    let corner = |s: u8| if matches!(s, 0 | 7 | 56 | 63) { castle_bits(s) } else { 0 };
    let mut lost = corner(m.from) | corner(m.to);
    if m.extra != NO_EXTRA {
        lost |= corner(m.extra);
    }
    if let Special::Castle { rook_to, .. } = m.special {
        lost |= corner(if rook_to % 8 == 5 { rook_to + 2 } else { rook_to - 3 });
    }
    before & !lost
}

/// The hurdle of a hop from `from` to `to` (hoppers land directly behind it): the square one
/// step of the hop's direction (the move vector divided by the gcd of its coordinates) before
/// `to`.
pub fn hurdle_square(from: u8, to: u8) -> u8 {
    let dx = (to % 8) as i8 - (from % 8) as i8;
    let dy = (to / 8) as i8 - (from / 8) as i8;
    let (mut a, mut b) = (dx.unsigned_abs(), dy.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1) as i8;
    offset(to, (-dx / g, -dy / g)).expect("on the board")
}

/// `a1`..`h8` for a square index.
pub fn square_name(s: u8) -> String {
    let f = (b'a' + s % 8) as char;
    let r = (b'1' + s / 8) as char;
    format!("{f}{r}")
}

/// Parses `a1`..`h8` (case-insensitive).
pub fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    let r = b[1];
    if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
        Some((r - b'1') * 8 + (f - b'a'))
    } else {
        None
    }
}

/// The castling rights lost when a piece leaves or lands on `s` (a king or rook home square).
pub(crate) fn castle_bits(s: u8) -> u8 {
    match s {
        0 => CASTLE_WQ,
        7 => CASTLE_WK,
        4 => CASTLE_WK | CASTLE_WQ | KING_HOME_W,
        56 => CASTLE_BQ,
        63 => CASTLE_BK,
        60 => CASTLE_BK | CASTLE_BQ | KING_HOME_B,
        _ => 0,
    }
}

/// Neutral pieces (Popeye's colour `Neutral`, `py-engl.txt`): a neutral piece belongs to both
/// sides. The side to move may move it as its own (a neutral pawn then moves and captures in
/// that side's direction and promotes on its last rank, to a neutral piece), either side may
/// capture it (a neutral piece may capture another), and it attacks both kings: a side may not
/// leave its king attacked by a neutral piece acting for the other side. Between moves the
/// neutral pieces are stored as white pieces; each query gives them the colour it needs on a
/// copy of the board (only positions with neutral pieces pay for this).
impl Board {
    /// Gives every neutral piece the colour `c`, the one on `except` the other colour.
    fn colour_neutrals(&mut self, c: Color, except: Option<u8>) {
        for s in self.neutral {
            let s = s as u8;
            let want = if Some(s) == except { !c } else { c };
            if let Some(p) = self.squares[s as usize] {
                if p.color != want {
                    self.remove(s, p);
                    self.add(s, Piece { color: want, kind: p.kind });
                }
            }
        }
    }

    /// The side to move's pseudo-legal moves with neutral pieces on the board: its own pieces'
    /// moves with the neutral pieces as enemies (so they can be captured), then the moves of
    /// each neutral piece as the side's own, the other neutral pieces still enemies.
    #[inline(never)]
    fn neutral_pseudo_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let mut b = self.clone();
        b.colour_neutrals(!us, None);
        b.pseudo_moves_base(out);
        let mut own = Vec::with_capacity(32);
        for n in self.neutral {
            let n = n as u8;
            b.colour_neutrals(!us, Some(n));
            own.clear();
            b.pseudo_moves_base(&mut own);
            out.extend(own.iter().filter(|m| m.from == n));
        }
    }

    /// Is the king of `c` attacked, the neutral pieces acting for the other side?
    #[inline(never)]
    fn neutral_in_check(&self, c: Color) -> bool {
        let mut b = self.clone();
        b.colour_neutrals(!c, None);
        b.in_check_base(c)
    }

    /// After the move `m` (its capture on `captured`): the neutral attribute leaves with a
    /// captured neutral piece and moves with a moving one.
    fn neutral_moved(&mut self, m: Move, captured: Option<(u8, Piece)>) {
        if let Some((cs, _)) = captured {
            self.neutral.clear(sq(cs));
        }
        if self.neutral.contains(sq(m.from)) {
            self.neutral.clear(sq(m.from));
            self.neutral.set(sq(m.to));
        }
    }
}
