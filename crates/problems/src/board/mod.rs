//! The solver board: pieces of data-driven kinds on 64 squares, make/unmake with small undo
//! records, legal move generation by "make, is my king attacked, unmake", goal tests and a
//! Zobrist key for the solver's hash tables.
//!
//! This module holds the position itself (pieces, side to move, castling and en-passant rights,
//! the conditions' state) and its plain accessors; the rest of the board is one concern a file:
//!
//! * `zobrist.rs`: the hash key;
//! * `make.rs`: make/unmake of a move and of a null move;
//! * `attack.rs`: square attacks and the check test;
//! * `check.rs`: the orthodox shortcuts (check candidates, the pin mask of the legality test);
//! * `movegen.rs`: pseudo-legal and legal moves, pawns and castling, goal tests;
//! * `neutral.rs`: neutral pieces.
//!
//! The fairy walks' geometry is in [`crate::walk`], the conditions in `conditions/` (their types
//! are re-exported here). docs/problems.md, "Layout".

mod attack;
mod check;
mod make;
mod movegen;
mod neutral;
mod threat;
mod zobrist;

use mysl_core::{Bitboard, Color, Square};

use self::zobrist::z_piece;
use crate::walk::{self, Kind, KindSet, NUM_KINDS};

pub use self::check::CheckInfo;
pub use crate::conditions::anticirce::AntiCirce;
pub use crate::conditions::back_home::BACK_HOME_MAX_DEPTH;
pub use crate::conditions::bgl::{bgl_cost, bgl_number, Bgl, BGL_INFINITE};
pub use crate::conditions::circe::{rebirth_square, Circe};
pub use crate::conditions::effects::Effects;
pub use crate::conditions::imitator::{Imitators, IMITATOR_PROMOTION, MAX_IMITATORS};
pub use crate::conditions::kings::CHECKLESS_MAX_DEPTH;
pub use crate::conditions::madrasi::Paralysis;
pub use crate::conditions::mars::Mars;
pub use crate::conditions::singlebox::singlebox_max;
pub use crate::conditions::Conditions;
pub use crate::walk::bul::hurdle_square;
pub use crate::walk::fairy::berolina_capture_square;

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
    /// Take&Make: the piece on `cap` is captured and the mover ends its make on `to`.
    Locust {
        cap: u8,
    },
    /// Take&Make: the same, and the mover, a pawn, promotes on `to` to `kind`.
    TakeMakePromote {
        cap: u8,
        kind: Kind,
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
pub(crate) const MAX_GHOSTS: usize = 32;

/// `Move::extra` when the move has no extra effect.
pub const NO_EXTRA: u8 = 255;

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
    pub(crate) ext: bool,
    /// A promotion by a Berolina pawn (unmake puts the Berolina pawn back, not a pawn).
    berolina: bool,
    /// The board's [`Board::last_move`] and [`Board::last_capture`] before the move.
    last_move: Move,
    last_capture: bool,
}

impl Undo {
    /// Circe: the square and piece of the rebirth the move caused, if any.
    pub fn reborn(&self) -> Option<(u8, Piece)> {
        self.reborn
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

#[inline(always)]
pub(crate) fn sq(i: u8) -> Square {
    Square::from_index(i as u32)
}

/// The solver board.
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) squares: [Option<Piece>; 64],
    by_color: [Bitboard; 2],
    pub(crate) by_kind: [[Bitboard; NUM_KINDS]; 2],
    /// Squares of fairy pieces per colour (so orthodox positions skip the fairy code at once).
    pub(crate) fairy: [Bitboard; 2],
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
    /// The last move played ([`NULL_MOVE`] before the first) and whether it captured: what the
    /// goals of a move (capture, castling, en passant, target square, any) ask about.
    pub(crate) last_move: Move,
    pub(crate) last_capture: bool,
    /// Squares of the pieces with Popeye's attribute Bul (only hoppers of [`Walk::Hopper`](walk::Walk::Hopper)): after
    /// a Bul hopper's move its hurdle moves as the hopper would, without capturing (each
    /// possible such move a move of its own, [`Move::extra`], a pawn reaching its last rank
    /// promoting); a Bul move whose hurdle cannot move is illegal. Checks are the hopper's plain
    /// attacks. The attribute moves with the piece; part of the hash key.
    pub bul: Bitboard,
    /// The pieces among [`Board::bul`] with Popeye's attribute Dob instead: their hurdle moves
    /// by its own walk ([`Board::dob_hurdle_targets`]). The attribute moves with the piece;
    /// part of the hash key.
    pub dob: Bitboard,
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
    pub(crate) ghosts: [(u8, Piece); MAX_GHOSTS],
    pub(crate) n_ghosts: u8,
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
    pub(crate) home: [u8; 64],
    /// BackHome: how deep the legal-move-back-home tests are nested ([`BACK_HOME_MAX_DEPTH`]).
    pub(crate) back_home_depth: u8,
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
    /// Condition DangerCirce (Popeye's `conditions/danger_circe.c`): a piece observed by an
    /// enemy piece may also move to its Circe rebirth square (capturing an enemy piece there);
    /// a king is in check if an enemy piece could capture it so or by an ordinary move.
    pub danger_circe: bool,
    /// Condition BiCaptures (Popeye's `conditions/bicaptures.c`): a piece may also capture the
    /// pieces of its own side, except the king.
    pub bicaptures: bool,
    /// Condition CASTInverse (Popeye's `conditions/castinverse.c`): a piece may capture only if
    /// it has at least two captures; a piece with fewer observes (checks) nothing.
    pub cast_inverse: bool,
    /// Condition AllInChess (Popeye's `conditions/all_in_chess.c`): the side to move may move
    /// the other side's pieces too (each by its own colour's rules); the move that undoes the
    /// last one is illegal (see [`Board::all_in_chess_after`]).
    pub all_in_chess: bool,
    /// Conditions NoCapture / NoWhiteCapture / NoBlackCapture (by colour index): that side's
    /// captures are not among its moves; its pieces still observe (check) as usual.
    pub no_capture: [bool; 2],
    /// Condition CavalierMajeur: knights are nightriders; the set-up replaces them
    /// ([`Board::cavalier_majeur_setup`]) and pawns promote to a nightrider instead of a knight.
    pub cavalier_majeur: bool,
    /// Condition Take&MakeChess: a capture goes on with a non-capturing move of the captured
    /// piece's walk and colour from the capture square ([`Board::take_make_expand`]).
    pub take_make: bool,
    /// AllInChess: the move (from, to) that would undo the last one and is therefore illegal;
    /// part of the hash key.
    pub all_in_forbidden: Option<(u8, u8)>,
    /// AllInChess: was the last move a pawn's double step?
    pub all_in_last_double: bool,
    /// Condition FrankfurtChess (Popeye's `conditions/frankfurt.c`): a piece that captures takes
    /// the captured piece's walk (Popeye's `frankfurt_walk_adjuster_solve`), a king too: it stays
    /// the royal piece (kind [`walk::KING`] on the board) and moves and attacks by the walk in
    /// [`Board::royal_walk`].
    pub frankfurt: bool,
    /// FrankfurtChess: by colour index, the walk of the royal piece ([`walk::KING`]: a king's);
    /// part of the hash key.
    pub royal_walk: [Kind; 2],
    /// ChecklessChess: how deep the mate tests of checking moves are nested (a board cloned for
    /// such a test has one more); beyond [`CHECKLESS_MAX_DEPTH`] a check counts as not mating.
    pub(crate) checkless_depth: u8,
    /// The effects of the condition moves made and not taken back ([`Effects`]).
    pub(crate) ext_undo: Vec<Effects>,
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
            last_move: NULL_MOVE,
            last_capture: false,
            bul: Bitboard(0),
            dob: Bitboard(0),
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
            danger_circe: false,
            bicaptures: false,
            cast_inverse: false,
            all_in_chess: false,
            all_in_forbidden: None,
            all_in_last_double: false,
            no_capture: [false; 2],
            cavalier_majeur: false,
            take_make: false,
            frankfurt: false,
            royal_walk: [walk::KING; 2],
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
    pub(crate) fn add(&mut self, s: u8, p: Piece) {
        self.squares[s as usize] = Some(p);
        self.by_color[p.color.index()].set(sq(s));
        self.by_kind[p.color.index()][p.kind as usize].set(sq(s));
        if p.kind >= walk::FIRST_FAIRY {
            self.fairy[p.color.index()].set(sq(s));
        }
        self.key ^= z_piece(p, s);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, s: u8, p: Piece) {
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
        self.effective_castling() & bits != 0
    }

    /// The castling rights that can be used now: a rook's only while its king keeps its own
    /// (the flags are Popeye's, one per piece: a rook keeps its flag while its king moves, and a
    /// king reborn on its square under Circe or AntiCirce gets its flag back).
    pub fn effective_castling(&self) -> u8 {
        Board::usable_castling(self.castling)
    }

    /// Popeye's `restore_castling_rights`: a rook reborn in its own corner, or a king on its own
    /// square, gets its castling flag back.
    pub(crate) fn restore_castling_flag(&mut self, s: u8, p: Piece) {
        let bit = match (p.color, s) {
            (Color::White, 0) if p.kind == walk::ROOK => CASTLE_WQ,
            (Color::White, 7) if p.kind == walk::ROOK => CASTLE_WK,
            (Color::Black, 56) if p.kind == walk::ROOK => CASTLE_BQ,
            (Color::Black, 63) if p.kind == walk::ROOK => CASTLE_BK,
            (Color::White, 4) if p.kind == walk::KING => KING_HOME_W,
            (Color::Black, 60) if p.kind == walk::KING => KING_HOME_B,
            _ => 0,
        };
        self.castling |= bit;
    }

    /// The flags `castling` without the rooks' whose king has lost its own.
    pub fn usable_castling(castling: u8) -> u8 {
        let mut c = castling & (KING_HOME_W | KING_HOME_B);
        if castling & KING_HOME_W != 0 {
            c |= castling & (CASTLE_WK | CASTLE_WQ);
        }
        if castling & KING_HOME_B != 0 {
            c |= castling & (CASTLE_BK | CASTLE_BQ);
        }
        c
    }

    /// Castling flags as Popeye sets them, one per piece on its game-array square: a king on
    /// e1/e8, a rook in its corner (whether or not its king is home; castling needs both, see
    /// [`Board::effective_castling`]).
    pub fn default_castling(&self) -> u8 {
        let mut c = 0;
        let is = |s: u8, col: Color, k: Kind| {
            self.piece_at(s) == Some(Piece { color: col, kind: k }) && !self.neutral.contains(sq(s))
        };
        for (s, col, k, bit) in [
            (4, Color::White, walk::KING, KING_HOME_W),
            (7, Color::White, walk::ROOK, CASTLE_WK),
            (0, Color::White, walk::ROOK, CASTLE_WQ),
            (60, Color::Black, walk::KING, KING_HOME_B),
            (63, Color::Black, walk::ROOK, CASTLE_BK),
            (56, Color::Black, walk::ROOK, CASTLE_BQ),
        ] {
            if is(s, col, k) {
                c |= bit;
            }
        }
        c
    }

    pub fn king_square(&self, c: Color) -> Option<u8> {
        self.kind_bb(c, walk::KING).first().map(|s| s as u8)
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
                if self.dob.contains(sq(s)) {
                    b.dob.set(sq(f(s)?));
                }
            }
        }
        Some(b)
    }

    /// Pieces as (square, piece), a1..h8.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, Piece)> + '_ {
        (0..64u8).filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }
}

/// The square `d` away from `s`, if it is on the board.
#[inline(always)]
pub fn offset(s: u8, d: (i8, i8)) -> Option<u8> {
    let f = (s % 8) as i8 + d.0;
    let r = (s / 8) as i8 + d.1;
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as u8)
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
        4 => KING_HOME_W,
        56 => CASTLE_BQ,
        63 => CASTLE_BK,
        60 => KING_HOME_B,
        _ => 0,
    }
}
