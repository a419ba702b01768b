//! The conditions (fairy rules) of the solver board, one file per family, and the hooks through
//! which the board asks them:
//!
//! * flags: [`Board::attack_conditions`] (the orthodox shortcuts are off) and
//!   [`Board::ext_active`] (a move has effects beyond Circe's: [`effects`]);
//! * observation: [`Board::attacked_checked`], the attackers one by one, each attack validated
//!   by the conditions that restrict it (Madrasi, Isardam, BGL, AntiCirce, Bul, Imitator,
//!   SingleBox, BackHome, and the walks of Mars Circe, Annan, TransmutedKings);
//! * legality: [`Board::in_check_rare`] (Isardam, Pepo, Circe RexInclusive, ChecklessChess);
//! * move generation: [`Board::pseudo_moves_ext`], the conditions' changes to the pseudo-legal
//!   moves (choices of rebirth squares, removals and hurdle moves, filters);
//! * what a move does: [`Board::make_ext`] and [`Board::unmake_ext`] ([`effects`]); Circe's
//!   rebirth is in [`Board::make`] itself.
//!
//! The board's fields hold each condition's switch and state; [`Conditions`] is the set a
//! problem or twin is played under.

pub(crate) mod all_in;
pub(crate) mod annan;
pub(crate) mod anticirce;
pub(crate) mod back_home;
pub(crate) mod bgl;
pub(crate) mod breton;
pub(crate) mod captures;
pub(crate) mod castling;
pub(crate) mod circe;
pub(crate) mod danger;
pub(crate) mod effects;
pub(crate) mod imitator;
pub(crate) mod kings;
pub(crate) mod madrasi;
pub(crate) mod mars;
pub(crate) mod maximummer;
pub(crate) mod singlebox;
pub(crate) mod take_make;

use mysl_core::{Bitboard, Color};

use crate::board::{bgl_cost, sq, AntiCirce, Bgl, Board, Circe, Imitators, Mars, Move, Paralysis, Piece, Special};
use crate::walk::{self, Kind, Walk, KINDS, NUM_KINDS};

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
    /// Condition DangerCirce.
    pub danger_circe: bool,
    /// Condition BiCaptures.
    pub bicaptures: bool,
    /// Condition CASTInverse (`CASTChess Inverse`).
    pub cast_inverse: bool,
    /// Condition AllInChess.
    pub all_in_chess: bool,
    /// Condition FrankfurtChess.
    pub frankfurt: bool,
    /// Conditions NoCapture (both), NoWhiteCapture, NoBlackCapture (by colour index).
    pub no_capture: [bool; 2],
    /// Condition CavalierMajeur: knights are nightriders (set-up and promotions).
    pub cavalier_majeur: bool,
    /// Condition Take&MakeChess.
    pub take_make: bool,
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
        danger_circe: false,
        bicaptures: false,
        cast_inverse: false,
        all_in_chess: false,
        frankfurt: false,
        no_capture: [false; 2],
        cavalier_majeur: false,
        take_make: false,
    };
}

/// Removes the moves of `out[start..]` marked illegal by the condition filters (`from == to`), keeping the
/// order of the others.
pub(crate) fn drop_marked(out: &mut Vec<Move>, start: usize) {
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
            // DangerCirce: an observed piece may go to its rebirth square (moves and checks the
            // shortcuts do not know).
            | self.danger_circe
            // BiCaptures: captures of own pieces (may uncover a check, leave the king's
            // neighbourhood); CASTInverse: a check needs a second capture.
            | self.bicaptures
            | self.cast_inverse
            // AllInChess: the other side's pieces move too.
            | self.all_in_chess
            // FrankfurtChess: a capture changes the capturer's walk (a king's too).
            | self.frankfurt
            // Take&Make: a capture ends with the captured piece's walk, anywhere.
            | self.take_make
    }

    /// [`Board::attack_conditions`] as the move shortcuts of `board/check.rs` see it (the check
    /// test of a move, the check candidates, the pin mask of the legality test). BiCaptures
    /// (alone, orthodox pieces) keeps them: a capture of an own piece leaves its departure square
    /// and fills its arrival square as any capture does, and [`Board::checking_candidates`] adds
    /// those captures. The bounds of the search still see the condition.
    #[inline(always)]
    pub fn move_shortcuts_off(&self) -> bool {
        self.attack_conditions() & !self.bicaptures
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
            | self.pepo
            | self.all_in_chess
            | self.frankfurt
            | self.take_make
    }

    /// `attacked` under Madrasi, Isardam or BGL: attackers one by one. Madrasi: a paralysed piece
    /// (observed by an enemy piece of its kind; kings never) does not attack. Isardam: an attack
    /// counts only if the capture on `s` would be legal, i.e. leave no same-kind observation
    /// (Popeye's observation validator for Isardam type A). BGL: only if the attacker's side can
    /// pay the distance to `s`.
    pub(crate) fn attacked_checked(&self, s: u8, by: Color) -> bool {
        if self.cast_inverse {
            return self.cast_inverse_attacked(s, by);
        }
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
            } else if p.kind == walk::KING && self.frankfurt {
                // FrankfurtChess: a royal piece attacks by its walk.
                self.piece_attacks(f, Piece { color: by, kind: self.royal_walk[by.index()] }, s)
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
                    let n = if self.dob.contains(sq(f)) {
                        self.dob_hurdle_targets(f, s, &mut [0u8; 64])
                    } else {
                        self.bul_hurdle_targets(f, s, v, &mut [0u8; 16])
                    };
                    if n == 0 {
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

    /// [`Board::in_check_base`] under Isardam, Pepo, Circe RexInclusive, DangerCirce or ChecklessChess.
    #[inline(never)]
    pub(crate) fn in_check_rare(&self, c: Color) -> bool {
        if self.paralysis == Paralysis::Isardam && self.any_same_walk_observation() {
            return true;
        }
        let plain = match self.king_square(c) {
            Some(k) if self.pepo => self.pepo_attackers(k, !c) >= 2,
            Some(k) if self.circe_rex => self.rex_circe_checked(k, c),
            Some(k) if self.danger_circe => self.attacked(k, !c) || self.danger_circe_king_capture(k, !c),
            Some(k) => self.attacked(k, !c),
            None => false,
        };
        if self.checkless && c != self.side && !plain {
            return self.checkless_illegal();
        }
        plain
    }

    /// The conditions' changes to the moves `out[start..]` (BGL budgets, Breton and Bul choices,
    /// AntiCirce rebirths, uncapturable pieces).
    #[inline(never)]
    pub(crate) fn pseudo_moves_ext(&self, start: usize, out: &mut Vec<Move>) {
        if self.take_make {
            self.take_make_expand(start, out);
        }
        if self.castling_chess {
            self.castling_chess_moves(out);
        }
        if self.exchange_castling {
            self.exchange_castling_moves(out);
        }
        if self.danger_circe {
            self.danger_circe_moves(start, out);
        }
        if self.bicaptures {
            self.bicaptures_moves(out);
        }
        if self.cast_inverse {
            self.cast_inverse_filter(start, out);
        }
        if self.no_capture[self.side.index()] {
            // NoCapture (Popeye's `nocapture_remove_captures_solve`): the side's captures are
            // removed from its moves; its pieces still observe and check.
            let mut w = start;
            for i in start..out.len() {
                if !self.is_capture(out[i]) {
                    out[w] = out[i];
                    w += 1;
                }
            }
            out.truncate(w);
        }
        if self.all_in_chess {
            self.all_in_chess_moves(start, out);
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
        // Uncapturable pieces (ghosts) are not taken; under Pepo a king may stand attacked by
        // one piece (no check), and Popeye never lets a move capture a king.
        let mut uncapturable = self.uncapturable;
        if self.pepo {
            if let Some(k) = self.king_square(!self.side) {
                uncapturable.set(sq(k));
            }
        }
        if uncapturable.any() {
            let mut w = start;
            for i in start..out.len() {
                let m = out[i];
                let target = match m.special {
                    Special::EnPassant { cap }
                    | Special::EnPassantRebirthPromote { cap, .. }
                    | Special::Locust { cap }
                    | Special::TakeMakePromote { cap, .. } => cap,
                    _ => m.to,
                };
                if !uncapturable.contains(sq(target)) {
                    out[w] = m;
                    w += 1;
                }
            }
            out.truncate(w);
        }
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
            danger_circe: self.danger_circe,
            bicaptures: self.bicaptures,
            cast_inverse: self.cast_inverse,
            all_in_chess: self.all_in_chess,
            frankfurt: self.frankfurt,
            no_capture: self.no_capture,
            cavalier_majeur: self.cavalier_majeur,
            take_make: self.take_make,
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
        self.danger_circe = c.danger_circe;
        self.bicaptures = c.bicaptures;
        self.cast_inverse = c.cast_inverse;
        self.all_in_chess = c.all_in_chess;
        self.frankfurt = c.frankfurt;
        self.no_capture = c.no_capture;
        self.cavalier_majeur = c.cavalier_majeur;
        self.take_make = c.take_make;
        self.royal_walk = [walk::KING; 2];
        self.all_in_forbidden = None;
        self.all_in_last_double = false;
    }
}
