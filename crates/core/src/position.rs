//! A validated position: placement, side to move, castling, en passant, clocks, Zobrist keys, the
//! check/pin cache, and a history stack for unmake and repetition detection.

use std::fmt;
use std::marker::PhantomData;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::PositionError;
use crate::fen::Setup;
use crate::moves::{Move, MoveKind};
use crate::rules::{Generator, Orthodox, Rules, Variant, VariantState};
use crate::types::{CastlingMode, CastlingSide, Color, EndReason, File, Outcome, Piece, Rank, Role, Square};
use crate::zobrist;

/// Castling rights and the geometry needed to castle (fixed for a game, also for Chess960).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// Bit `2 * color + side` set = that right still exists.
    rights: u8,
    /// The rook of each right (index `2 * color + side`).
    rook: [Square; 4],
    /// Squares that must be empty (both pieces' paths, without the king and the rook themselves).
    empty_path: [Bitboard; 4],
    /// Squares the king crosses or lands on (must not be attacked).
    king_path: [Bitboard; 4],
    /// For each square, the rights lost when a piece leaves or arrives there.
    lost_rights: [u8; 64],
    /// The castling king of each color (where a variant may have several kings: extinction).
    king: [Square; 2],
    mode: CastlingMode,
}

impl Castling {
    const fn none() -> Castling {
        Castling {
            rights: 0,
            rook: [Square::H1, Square::A1, Square::H8, Square::A8],
            empty_path: [Bitboard::EMPTY; 4],
            king_path: [Bitboard::EMPTY; 4],
            lost_rights: [0; 64],
            king: [Square::E1, Square::E8],
            mode: CastlingMode::Standard,
        }
    }

    #[inline(always)]
    const fn index(color: Color, side: CastlingSide) -> usize {
        2 * color as usize + side as usize
    }

    /// Whether this right still exists.
    #[inline(always)]
    pub fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rights & (1 << Castling::index(color, side)) != 0
    }

    /// Whether `color` has any castling right.
    #[inline(always)]
    pub fn has_any(&self, color: Color) -> bool {
        self.rights & (3 << (2 * color as usize)) != 0
    }

    /// The rook square of a right that exists.
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rook[Castling::index(color, side)])
        } else {
            None
        }
    }

    /// The raw rights as four bits (white short, white long, black short, black long).
    pub fn bits(&self) -> u8 {
        self.rights
    }

    pub fn mode(&self) -> CastlingMode {
        self.mode
    }

    /// The king that castles for `color` (meaningful while `color` has a right).
    #[inline(always)]
    pub(crate) fn king(&self, color: Color) -> Square {
        self.king[color as usize]
    }

    #[inline(always)]
    pub(crate) fn empty_path_of(&self, i: usize) -> Bitboard {
        self.empty_path[i]
    }

    #[inline(always)]
    pub(crate) fn king_path_of(&self, i: usize) -> Bitboard {
        self.king_path[i]
    }

    fn add(&mut self, color: Color, side: CastlingSide, king: Square, rook: Square) {
        let i = Castling::index(color, side);
        self.rights |= 1 << i;
        self.rook[i] = rook;
        self.king[color as usize] = king;
        let king_to = side.king_to(color);
        let rook_to = side.rook_to(color);
        let king_span = attacks::between(king, king_to) | king_to;
        let rook_span = attacks::between(rook, rook_to) | rook_to;
        self.empty_path[i] = (king_span | rook_span) - Bitboard::from_square(king) - Bitboard::from_square(rook);
        self.king_path[i] = king_span | king;
        self.lost_rights[king as usize] |= 1 << i;
        self.lost_rights[rook as usize] |= 1 << i;
    }

    /// Polyglot/Zobrist contribution of the current rights.
    fn key(&self) -> u64 {
        let mut k = 0;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.has(color, side) {
                    k ^= zobrist::castling(color, side);
                }
            }
        }
        k
    }
}

/// What make saves so that unmake can restore it (the irreversible part of the state).
#[derive(Clone, Copy, Debug)]
struct Undo<S> {
    key: u64,
    pawn_key: u64,
    rights: u8,
    ep_square: Option<Square>,
    halfmoves: u32,
    captured: Option<Piece>,
    checkers: Bitboard,
    pinned: Bitboard,
    state: S,
}

/// A legal position under the rules `R` (orthodox chess by default).
#[derive(Clone)]
pub struct Position<R: Rules = Orthodox> {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: Castling,
    /// Set only when a pawn of the side to move stands ready to capture (the Polyglot convention).
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    /// Enemy pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to their king.
    pub(crate) pinned: Bitboard,
    pub(crate) state: R::State,
    history: Vec<Undo<R::State>>,
    /// Keys of the positions before the current one (for repetitions), in game order.
    key_history: Vec<u64>,
    _rules: PhantomData<R>,
}

/// Orthodox chess.
pub type Chess = Position<Orthodox>;

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position<{}>({})", R::NAME, self.fen())
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)?;
        writeln!(f, "FEN: {}", self.fen())?;
        write!(f, "Key: {:016x}", self.key)
    }
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Position::startpos()
    }
}

impl<R: Rules> PartialEq for Position<R> {
    /// Same placement, side, rights, e.p. state and variant state (clocks and history ignored).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling.rights == other.castling.rights
            && self.ep_square == other.ep_square
            && self.state == other.state
    }
}

impl<R: Rules> Position<R> {
    /// The orthodox start position.
    pub fn startpos() -> Position<R> {
        match Position::from_setup(Setup::standard(), CastlingMode::Standard) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    /// Parses a FEN (X-FEN and Shredder-FEN castling accepted); the castling mode is detected.
    pub fn from_fen(fen: &str) -> Result<Position<R>, crate::error::FenError> {
        let setup = Setup::parse(fen)?;
        let mode = setup.detect_castling_mode();
        Ok(Position::from_setup(setup, mode)?)
    }

    /// Validates a setup under the rules `R`.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position<R>, PositionError> {
        let board = setup.board;
        let turn = setup.turn;
        // Kings: exactly one where the king is royal; at most one in dice (none = the game is over);
        // any number where the king is an ordinary piece that pawns may promote to.
        for color in Color::ALL {
            let kings = (board.kings() & board.by_color(color)).count();
            if R::ROYAL_KING && kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if (R::ROYAL_KING || matches!(R::VARIANT, Variant::Dice)) && kings > 1 {
                return Err(PositionError::TooManyKings(color));
            }
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACK_RANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        let pockets = setup.pockets.unwrap_or([[0; 5]; 2]);
        for color in Color::ALL {
            let ours = board.by_color(color);
            let hand: u32 = pockets[color as usize].iter().map(|&n| n as u32).sum();
            let pawns = (board.pawns() & ours).count() + pockets[color as usize][0] as u32;
            if ours.count() + hand > 16 || pawns > 8 {
                return Err(PositionError::TooMuchMaterial(color));
            }
            let count = |role: Role| {
                (board.by_role(role) & ours).count()
                    + pockets[color as usize].get(role as usize).map_or(0, |&n| n as u32)
            };
            let extra = |role: Role, normal: u32| count(role).saturating_sub(normal);
            let mut promoted =
                extra(Role::Queen, 1) + extra(Role::Rook, 2) + extra(Role::Bishop, 2) + extra(Role::Knight, 2);
            if !R::ROYAL_KING {
                promoted += extra(Role::King, 1);
            }
            if promoted > 8 - pawns {
                return Err(PositionError::TooMuchMaterial(color));
            }
        }

        // Variant state from the FEN's extra fields.
        let mut state = R::State::default();
        if let Some(checks) = setup.remaining_checks {
            if !matches!(R::VARIANT, Variant::ThreeCheck) {
                return Err(PositionError::Variant(format!(
                    "a check counter is only used in 3check, not in {}",
                    R::NAME
                )));
            }
            if checks.iter().any(|&c| c > 3) {
                return Err(PositionError::Variant("check counters must be between 0 and 3".to_string()));
            }
            state.set_remaining_checks(checks);
        }
        if setup.pockets.is_some() {
            if !matches!(R::VARIANT, Variant::Recycle) {
                return Err(PositionError::Variant(format!(
                    "pieces in hand ([...]) are only used in recycle, not in {}",
                    R::NAME
                )));
            }
            state.set_pockets(pockets);
        }
        if let Some(roll) = setup.roll {
            if !matches!(R::VARIANT, Variant::Dice) {
                return Err(PositionError::Variant(format!("a die roll is only used in dice, not in {}", R::NAME)));
            }
            state.set_roll(Some(roll));
        }

        // Castling.
        let mut castling = Castling::none();
        castling.mode = mode;
        let castling_rooks = if R::CASTLING { setup.castling_rooks } else { Bitboard::EMPTY };
        for sq in castling_rooks {
            let color = if sq.rank() == Rank::First { Color::White } else { Color::Black };
            let right_char = crate::fen::castling_char(&board, color, sq);
            let king = match crate::fen::castling_king(&board, color) {
                Some(k) if k.rank() == sq.rank() => k,
                _ => {
                    return Err(PositionError::BadCastling {
                        right: right_char,
                        reason: format!("the {color} king is not on rank {}", sq.rank().char()),
                    })
                }
            };
            if board.piece_at(sq) != Some(Piece::new(color, Role::Rook)) {
                return Err(PositionError::BadCastling {
                    right: right_char,
                    reason: format!("no {color} rook on {sq}"),
                });
            }
            let side = if sq.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            if castling.has(color, side) {
                return Err(PositionError::BadCastling {
                    right: right_char,
                    reason: format!("two castling rights on the same side for {color}"),
                });
            }
            if mode == CastlingMode::Standard && (king.file() != File::E || !matches!(sq.file(), File::A | File::H)) {
                return Err(PositionError::BadCastling {
                    right: right_char,
                    reason: "king and rook are not on their standard squares (use Chess960 mode)".to_string(),
                });
            }
            castling.add(color, side, king, sq);
        }

        // En passant (docs/variants.md): the field counts only if an enemy pawn stands where the
        // double-stepping pawn must be and the squares it passed are empty; otherwise it is ignored.
        // It is kept only when a pawn of the side to move could capture (the Polyglot key rule).
        if setup.ep_victim.is_some() && !matches!(R::VARIANT, Variant::Berolina) {
            return Err(PositionError::Variant(format!(
                "a two-square en passant field is only used in berolina, not in {}",
                R::NAME
            )));
        }
        let mut ep_square = None;
        if let (true, Some(ep)) = (R::EN_PASSANT, setup.ep_square) {
            let (ep_rank, pawn_rank, origin_rank) = match turn {
                Color::White => (Rank::Sixth, Rank::Fifth, Rank::Seventh),
                Color::Black => (Rank::Third, Rank::Fourth, Rank::Second),
            };
            let enemy_pawn = Piece::new(!turn, Role::Pawn);
            if ep.rank() == ep_rank && !board.occupied().contains(ep) {
                if matches!(R::VARIANT, Variant::Berolina) {
                    // The pawn passed diagonally over `ep`: it stands one file to either side.
                    let candidates: Vec<Square> = [-1i32, 1]
                        .iter()
                        .filter_map(|&df| {
                            let f = ep.file() as i32 + df;
                            let pawn = Square::from_coords(File::new(f as u32)?, pawn_rank);
                            let origin = Square::from_coords(File::new((ep.file() as i32 - df) as u32)?, origin_rank);
                            (f >= 0 && board.piece_at(pawn) == Some(enemy_pawn) && !board.occupied().contains(origin))
                                .then_some(pawn)
                        })
                        .collect();
                    let candidates: Vec<Square> = match setup.ep_victim {
                        Some(v) => candidates.into_iter().filter(|&c| c == v).collect(),
                        None => candidates,
                    };
                    if candidates.len() > 1 {
                        return Err(PositionError::BadEnPassant {
                            square: ep,
                            reason: format!(
                                "ambiguous: the pawn on {} or on {} could have passed it",
                                candidates[0], candidates[1]
                            ),
                        });
                    }
                    if let Some(&victim) = candidates.first() {
                        let capturer = ep.with_rank(pawn_rank);
                        if board.piece_at(capturer) == Some(Piece::new(turn, Role::Pawn)) {
                            ep_square = Some(ep);
                            state.set_ep_victim(Some(victim));
                        }
                    }
                } else if board.piece_at(ep.with_rank(pawn_rank)) == Some(enemy_pawn)
                    && !board.occupied().contains(ep.with_rank(origin_rank))
                    && (crate::variants::pawn_attacks::<R>(!turn, ep) & board.pawns() & board.by_color(turn)).any()
                {
                    ep_square = Some(ep);
                }
            }
        }

        let mut pos = Position {
            board,
            turn,
            castling,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            state,
            history: Vec::with_capacity(64),
            key_history: Vec::with_capacity(64),
            _rules: PhantomData,
        };
        let (key, pawn_key) = pos.compute_keys();
        pos.key = key;
        pos.pawn_key = pawn_key;
        pos.update_check_info();

        if R::ROYAL_KING {
            // The side not to move must not be in check; at most two checkers, and a double check
            // must be possible (not two pieces of the same kind, not two sliders in line).
            let their_king = pos.king_square(!turn);
            if crate::variants::attackers_to::<R>(&pos.board, their_king, turn, pos.board.occupied()).any() {
                return Err(PositionError::OppositeCheck);
            }
            if pos.checkers.count() > 2 {
                return Err(PositionError::ImpossibleCheck);
            }
            if pos.checkers.count() == 2 && matches!(R::GENERATOR, Generator::Orthodox) {
                let mut it = pos.checkers;
                let a = it.lsb();
                it.next();
                let b = it.lsb();
                let same_role = pos.board.role_at(a) == pos.board.role_at(b);
                let king = pos.king_square(turn);
                let slider = |sq: Square| {
                    pos.board.role_at(sq).is_some_and(|r| matches!(r, Role::Bishop | Role::Rook | Role::Queen))
                };
                // Two checkers of one kind: only a promotion that uncovers a slider of the kind
                // promoted to (d7xe8=Q with a queen on d2: found by fuzzing), so one of them stands
                // on the promotion rank of the side that moved.
                let promotion_rank = Bitboard::rank((!turn).relative_rank(Rank::Eighth));
                let promoted = |sq: Square| promotion_rank.contains(sq) && slider(sq);
                if (same_role && !(promoted(a) || promoted(b)))
                    || (attacks::aligned(a, b, king) && slider(a) && slider(b))
                {
                    return Err(PositionError::ImpossibleCheck);
                }
            }
        }
        Ok(pos)
    }

    // ---- accessors ----

    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline(always)]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }
    pub fn castling_mode(&self) -> CastlingMode {
        self.castling.mode
    }
    /// Chooses how castling is written (UCI `e1g1` vs `e1h1`, X-FEN vs Shredder letters in FEN).
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        self.castling.mode = mode;
    }
    /// The en-passant square if a pawn of the side to move stands next to the pushed pawn (pseudo-legal).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    /// The en-passant square only if an en-passant capture is legal.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut found = false;
        let mut moves = crate::moves::MoveList::new();
        self.legal_moves_into(&mut moves);
        for m in moves.iter() {
            if m.is_en_passant() {
                found = true;
            }
        }
        if found {
            Some(ep)
        } else {
            None
        }
    }
    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    #[inline(always)]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// The Zobrist key; equal to the Polyglot book key for orthodox chess.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Zobrist key of the pawns alone (for a pawn-structure hash).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }
    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }
    #[inline(always)]
    pub fn state(&self) -> &R::State {
        &self.state
    }
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        (self.board.kings() & self.board.by_color(color)).lsb()
    }
    /// Dice chess: sets the rolled piece type (`None` = not rolled: every face's moves). The key
    /// follows. No effect in other variants.
    pub fn set_dice_roll(&mut self, roll: Option<Role>) {
        if matches!(R::VARIANT, Variant::Dice) {
            let old = state_key::<R>(&self.state);
            self.state.set_roll(roll);
            self.key ^= old ^ state_key::<R>(&self.state);
        }
    }

    /// Number of moves played since this position object was set up (the undo stack depth).
    pub fn ply_from_setup(&self) -> usize {
        self.history.len()
    }

    // ---- keys ----

    /// Computes the Zobrist key and pawn key from scratch.
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut key = 0;
        let mut pawn_key = 0;
        for sq in self.board.occupied() {
            if let Some(p) = self.board.piece_at(sq) {
                let z = zobrist::piece_square(p, sq);
                key ^= z;
                if p.role == Role::Pawn {
                    pawn_key ^= z;
                }
            }
        }
        key ^= self.castling.key();
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        if self.turn == Color::White {
            key ^= zobrist::white_to_move();
        }
        key ^= state_key::<R>(&self.state);
        (key, pawn_key)
    }

    // ---- check information ----

    pub(crate) fn update_check_info(&mut self) {
        if !R::ROYAL_KING {
            return;
        }
        let us = self.turn;
        let them = !us;
        let king = self.king_square(us);
        let occ = self.board.occupied();
        if !matches!(R::GENERATOR, Generator::Orthodox) {
            self.checkers = crate::variants::attackers_to::<R>(&self.board, king, them, occ);
            return;
        }
        self.checkers = self.board.attackers_to(king, them, occ);
        let mut pinned = Bitboard::EMPTY;
        let their = self.board.by_color(them);
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & self.board.orthogonal_sliders())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & self.board.diagonal_sliders()))
            & their;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & self.board.by_color(us);
            }
        }
        self.pinned = pinned;
    }

    /// Whether the move, which must be legal here, gives check.
    pub fn gives_check(&self, mv: Move) -> bool {
        let mut copy = self.clone();
        copy.play_unchecked(mv);
        copy.is_check()
    }

    // ---- make / unmake ----

    #[inline(always)]
    fn put_piece(&mut self, sq: Square, piece: Piece) {
        self.board.put(sq, piece);
        let z = zobrist::piece_square(piece, sq);
        self.key ^= z;
        if piece.role == Role::Pawn {
            self.pawn_key ^= z;
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square, piece: Piece) {
        self.board.remove(sq, piece);
        let z = zobrist::piece_square(piece, sq);
        self.key ^= z;
        if piece.role == Role::Pawn {
            self.pawn_key ^= z;
        }
    }

    #[inline(always)]
    fn move_piece(&mut self, from: Square, to: Square, piece: Piece) {
        self.board.shift(from, to, piece);
        let z = zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        self.key ^= z;
        if piece.role == Role::Pawn {
            self.pawn_key ^= z;
        }
    }

    /// The square of the pawn an en-passant capture onto `to` by the pawn on `from` removes.
    #[inline(always)]
    fn ep_victim_square(state: &R::State, from: Square, to: Square) -> Square {
        if matches!(R::VARIANT, Variant::Berolina) {
            if let Some(victim) = state.ep_victim() {
                return victim;
            }
        }
        Square::from_coords(to.file(), from.rank())
    }

    /// Plays a move that must be legal in this position (from [`Position::legal_moves`] or a parser).
    /// Undo it with [`Position::unplay`].
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let old_state_key = state_key::<R>(&self.state);
        let mut undo = Undo {
            key: self.key,
            pawn_key: self.pawn_key,
            rights: self.castling.rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            captured: None,
            checkers: self.checkers,
            pinned: self.pinned,
            state: self.state,
        };

        if let Some(ep) = self.ep_square.take() {
            self.key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        if matches!(R::VARIANT, Variant::Berolina) {
            self.state.set_ep_victim(None);
        }
        self.halfmoves += 1;

        if let (true, Some(role)) = (matches!(R::VARIANT, Variant::Recycle), mv.drop_role()) {
            // Recycle: a piece from the hand onto an empty square.
            let mut pockets = self.state.pockets();
            pockets[us as usize][role as usize] = pockets[us as usize][role as usize].saturating_sub(1);
            self.state.set_pockets(pockets);
            self.put_piece(to, Piece::new(us, role));
            if role == Role::Pawn {
                self.halfmoves = 0;
            }
        } else {
            let Some(piece) = self.board.piece_at(from) else {
                debug_assert!(false, "no piece on {from} for {mv:?}");
                return;
            };
            match mv.kind() {
                MoveKind::Castle => {
                    let side = if to.file() > from.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                    let rook = Piece::new(us, Role::Rook);
                    self.remove_piece(from, piece);
                    self.remove_piece(to, rook);
                    self.put_piece(side.king_to(us), piece);
                    self.put_piece(side.rook_to(us), rook);
                }
                MoveKind::EnPassant => {
                    let victim_sq = Self::ep_victim_square(&undo.state, from, to);
                    let victim = Piece::new(them, Role::Pawn);
                    self.remove_piece(victim_sq, victim);
                    self.move_piece(from, to, piece);
                    undo.captured = Some(victim);
                    self.halfmoves = 0;
                }
                kind => {
                    if let Some(captured) = self.board.piece_at(to) {
                        self.remove_piece(to, captured);
                        undo.captured = Some(captured);
                        self.halfmoves = 0;
                        if matches!(R::VARIANT, Variant::Recycle) && captured.color == us {
                            let mut pockets = self.state.pockets();
                            if let Some(n) = pockets[us as usize].get_mut(captured.role as usize) {
                                *n += 1;
                            }
                            self.state.set_pockets(pockets);
                        }
                    }
                    if let Some(promoted) = mv.promotion() {
                        self.remove_piece(from, piece);
                        self.put_piece(to, Piece::new(us, promoted));
                    } else if matches!(R::VARIANT, Variant::Recycle) && kind == MoveKind::PawnVanish {
                        self.remove_piece(from, piece);
                    } else {
                        self.move_piece(from, to, piece);
                    }
                    if piece.role == Role::Pawn {
                        self.halfmoves = 0;
                        if R::EN_PASSANT {
                            self.record_double_step(from, to);
                        }
                    }
                }
            }
        }

        let lost = self.castling.lost_rights[from as usize] | self.castling.lost_rights[to as usize];
        if self.castling.rights & lost != 0 {
            self.key ^= self.castling.key();
            self.castling.rights &= !lost;
            self.key ^= self.castling.key();
        }

        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
        self.key ^= zobrist::white_to_move();
        self.key_history.push(undo.key);
        self.history.push(undo);
        self.update_check_info();
        if matches!(R::VARIANT, Variant::ThreeCheck) && self.checkers.any() {
            let mut checks = self.state.remaining_checks();
            checks[us as usize] = checks[us as usize].saturating_sub(1);
            self.state.set_remaining_checks(checks);
        }
        if matches!(R::VARIANT, Variant::Dice) {
            self.state.set_roll(None);
        }
        self.key ^= old_state_key ^ state_key::<R>(&self.state);
    }

    /// After a pawn move: sets the e.p. square if it was a double step an enemy pawn can take.
    #[inline(always)]
    fn record_double_step(&mut self, from: Square, to: Square) {
        let us = self.turn; // called before the turn changes: the mover
        let them = !us;
        let rank_diff = (to.rank() as i32 - from.rank() as i32).abs();
        if rank_diff != 2 {
            return;
        }
        let passed = Square::from_index((from as u32 + to as u32) / 2);
        let capturers = self.board.pawns() & self.board.by_color(them);
        if matches!(R::VARIANT, Variant::Berolina) {
            // An enemy pawn straight in front of the passed square captures onto it.
            if capturers.contains(passed.with_rank(to.rank())) {
                self.ep_square = Some(passed);
                self.state.set_ep_victim(Some(to));
                self.key ^= zobrist::en_passant_file(passed.file() as usize);
            }
        } else if from.file() == to.file() && (crate::variants::pawn_attacks::<R>(us, passed) & capturers).any() {
            self.ep_square = Some(passed);
            self.key ^= zobrist::en_passant_file(passed.file() as usize);
        }
    }

    /// Takes back `mv`, which must be the last move played.
    pub fn unplay(&mut self, mv: Move) {
        let Some(undo) = self.history.pop() else {
            debug_assert!(false, "unplay without a move");
            return;
        };
        self.key_history.pop();
        let them = self.turn;
        let us = !them;
        self.turn = us;
        if us == Color::Black {
            self.fullmoves -= 1;
        }
        self.state = undo.state;
        let from = mv.from();
        let to = mv.to();
        if let (true, Some(role)) = (matches!(R::VARIANT, Variant::Recycle), mv.drop_role()) {
            self.board.remove(to, Piece::new(us, role));
        } else {
            match mv.kind() {
                MoveKind::Castle => {
                    let side = if to.file() > from.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                    let king = Piece::new(us, Role::King);
                    let rook = Piece::new(us, Role::Rook);
                    self.board.remove(side.king_to(us), king);
                    self.board.remove(side.rook_to(us), rook);
                    self.board.put(from, king);
                    self.board.put(to, rook);
                }
                MoveKind::EnPassant => {
                    let pawn = Piece::new(us, Role::Pawn);
                    self.board.shift(to, from, pawn);
                    let victim_sq = Self::ep_victim_square(&self.state, from, to);
                    self.board.put(victim_sq, Piece::new(them, Role::Pawn));
                }
                MoveKind::PawnVanish => {
                    self.board.put(from, Piece::new(us, Role::Pawn));
                    if let Some(captured) = undo.captured {
                        self.board.put(to, captured);
                    }
                }
                _ => {
                    if let Some(promoted) = mv.promotion() {
                        self.board.remove(to, Piece::new(us, promoted));
                        self.board.put(from, Piece::new(us, Role::Pawn));
                    } else if let Some(piece) = self.board.piece_at(to) {
                        self.board.shift(to, from, piece);
                    }
                    if let Some(captured) = undo.captured {
                        self.board.put(to, captured);
                    }
                }
            }
        }
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.castling.rights = undo.rights;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
    }

    /// Passes the turn (a null move, for search). Not legal in check. Undo with [`Position::unplay_null`].
    pub fn play_null(&mut self) {
        self.key_history.push(self.key);
        self.history.push(Undo {
            key: self.key,
            pawn_key: self.pawn_key,
            rights: self.castling.rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            captured: None,
            checkers: self.checkers,
            pinned: self.pinned,
            state: self.state,
        });
        if let Some(ep) = self.ep_square.take() {
            self.key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        self.halfmoves += 1;
        self.turn = !self.turn;
        self.key ^= zobrist::white_to_move();
        self.update_check_info();
    }

    pub fn unplay_null(&mut self) {
        if let Some(undo) = self.history.pop() {
            self.key_history.pop();
            self.turn = !self.turn;
            self.key = undo.key;
            self.pawn_key = undo.pawn_key;
            self.ep_square = undo.ep_square;
            self.halfmoves = undo.halfmoves;
            self.checkers = undo.checkers;
            self.pinned = undo.pinned;
        }
    }

    /// Plays a move if it is legal; returns whether it was.
    pub fn play(&mut self, mv: Move) -> Result<(), crate::error::IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(crate::error::IllegalMove { mv: crate::uci::move_to_uci(self, mv), fen: self.fen() })
        }
    }

    /// Whether `mv` is among the legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Forgets the history: the current position becomes the new root (no repetitions before it).
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.key_history.clear();
    }

    // ---- game outcome ----

    /// True if neither side can ever mate (FIDE dead position, detected by material; orthodox chess and
    /// the variants where it means the same).
    pub fn is_insufficient_material(&self) -> bool {
        R::INSUFFICIENT_MATERIAL && Color::ALL.iter().all(|&c| self.has_insufficient_material(c))
    }

    /// True if `color` has no material that could ever give mate, whatever the opponent does.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.pawns() | b.rooks() | b.queens())).any() {
            return false;
        }
        if (ours & b.knights()).any() {
            // A lone knight mates only if the defender has pieces that can block its own king
            // and not capture the knight (queens always can).
            return ours.count() <= 2 && (b.by_color(!color) - b.kings() - b.queens()).is_empty();
        }
        if (ours & b.bishops()).any() {
            // Bishops on one color can only mate with help from a blocker of the other color.
            let one_color =
                (b.bishops() & Bitboard::DARK_SQUARES).is_empty() || (b.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
            return one_color && b.pawns().is_empty() && b.knights().is_empty();
        }
        true
    }

    /// The end of the game by a variant rule (third check, extinction, captured king), if reached.
    #[inline]
    pub fn variant_outcome(&self) -> Option<Outcome> {
        if !R::HAS_VARIANT_END {
            return None;
        }
        let win = |winner: Color| Some(Outcome::Decisive { winner, reason: EndReason::VariantRule });
        match R::VARIANT {
            Variant::ThreeCheck => {
                let checks = self.state.remaining_checks();
                // The side that just moved can be the only one to reach zero.
                Color::ALL.into_iter().find(|&c| checks[c as usize] == 0).and_then(win)
            }
            Variant::Extinction => {
                let extinct = |c: Color| {
                    let ours = self.board.by_color(c);
                    Role::ALL.iter().any(|&r| (self.board.by_role(r) & ours).is_empty())
                };
                let mover = !self.turn;
                match (extinct(mover), extinct(self.turn)) {
                    (_, true) => win(mover),
                    (true, false) => win(self.turn),
                    (false, false) => None,
                }
            }
            Variant::Dice => {
                let has_king = |c: Color| (self.board.kings() & self.board.by_color(c)).any();
                match (has_king(Color::White), has_king(Color::Black)) {
                    (true, true) => None,
                    (true, false) => win(Color::White),
                    (false, true) => win(Color::Black),
                    (false, false) => Some(Outcome::Draw { reason: EndReason::VariantRule }),
                }
            }
            _ => None,
        }
    }

    /// The fifty-move rule can be applied (100 half-moves without capture or pawn move).
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmoves >= 100
    }

    /// How many times the current position occurred before (same key, within the reversible moves).
    pub fn repetitions(&self) -> usize {
        let n = self.key_history.len();
        let window = (self.halfmoves as usize).min(n);
        self.key_history[n - window..].iter().rev().skip(1).step_by(2).filter(|&&k| k == self.key).count()
    }

    /// The current position occurred before, within the moves since the last capture or pawn move
    /// (the draw test search uses: a repetition inside the tree is as good as a draw).
    pub fn is_repetition(&self) -> bool {
        let n = self.key_history.len();
        let window = (self.halfmoves as usize).min(n);
        let mut i = 2;
        while i <= window {
            if self.key_history[n - i] == self.key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// The current position occurred (at least) twice before.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions() >= 2
    }

    /// The game is over whatever the players claim: a variant rule, checkmate, stalemate (a win for
    /// the stalemated side in antichess), or a dead position (insufficient material).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.variant_outcome() {
            return Some(o);
        }
        if !self.has_legal_moves() {
            return Some(if matches!(R::VARIANT, Variant::Antichess | Variant::AntichessNoEp) {
                Outcome::Decisive { winner: self.turn, reason: EndReason::VariantRule }
            } else if self.is_check() {
                Outcome::Decisive { winner: !self.turn, reason: EndReason::Checkmate }
            } else {
                Outcome::Draw { reason: EndReason::Stalemate }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw { reason: EndReason::InsufficientMaterial });
        }
        None
    }

    /// [`Position::outcome`] plus the draws by the fifty-move rule and threefold repetition, as
    /// engines and match managers apply them without a claim. Mate on the hundredth half-move wins.
    pub fn outcome_with_draw_rules(&self) -> Option<Outcome> {
        if let Some(o) = self.outcome() {
            return Some(o);
        }
        if self.is_fifty_moves() {
            return Some(Outcome::Draw { reason: EndReason::FiftyMoveRule });
        }
        if self.is_threefold_repetition() {
            return Some(Outcome::Draw { reason: EndReason::ThreefoldRepetition });
        }
        None
    }

    /// Checks the internal caches against a recomputation (for tests and debugging).
    pub fn is_consistent(&self) -> bool {
        let mut copy = self.clone();
        copy.update_check_info();
        (self.key, self.pawn_key) == self.compute_keys() && copy.checkers == self.checkers && copy.pinned == self.pinned
    }
}

/// The Zobrist contribution of a variant's extra state (zero for orthodox chess).
#[inline(always)]
pub(crate) fn state_key<R: Rules>(state: &R::State) -> u64 {
    match R::VARIANT {
        Variant::ThreeCheck => {
            let c = state.remaining_checks();
            zobrist::variant_term(0, c[0] as usize) ^ zobrist::variant_term(1, c[1] as usize)
        }
        Variant::Recycle => {
            let mut k = 0;
            for (color, hand) in state.pockets().iter().enumerate() {
                for (role, &n) in hand.iter().enumerate() {
                    if n > 0 {
                        k ^= zobrist::variant_term(2 + 5 * color + role, n as usize);
                    }
                }
            }
            k
        }
        Variant::Dice => state.roll().map_or(0, |r| zobrist::variant_term(12, r as usize)),
        _ => 0,
    }
}
