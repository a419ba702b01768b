//! Variant rules as types. Each variant is a zero-sized type implementing [`Rules`]; the move generator,
//! make/unmake and outcome code are generic over it, so every `if R::CONST` and every
//! `matches!(R::VARIANT, ...)` is decided at compile time and orthodox chess runs code with no variant
//! branches in it. A runtime [`Variant`] chooses the type once, at the program's edges.
//!
//! The rules implemented are those of docs/variants.md.

use std::fmt::Debug;
use std::hash::Hash;

use crate::moves::MoveKind;
use crate::types::{Role, Square};

/// Which generator a variant uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// Fully legal generation with pins and check masks (orthodox geometry, royal king).
    Orthodox,
    /// Pseudo-legal generation without check (the king is an ordinary piece): every move is legal.
    NonRoyal,
    /// Pseudo-legal generation with the variant's geometry, filtered by "own king not attacked after".
    Filtered,
}

/// The variants mysl plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Chess,
    Antichess,
    AntichessNoEp,
    ThreeCheck,
    Extinction,
    Berolina,
    Cylinder,
    Dice,
    KnightRelay,
    Recycle,
}

impl Variant {
    pub const ALL: [Variant; 10] = [
        Variant::Chess,
        Variant::Antichess,
        Variant::AntichessNoEp,
        Variant::ThreeCheck,
        Variant::Extinction,
        Variant::Berolina,
        Variant::Cylinder,
        Variant::Dice,
        Variant::KnightRelay,
        Variant::Recycle,
    ];

    /// The name used by the CLI and `UCI_Variant`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Antichess => "antichess",
            Variant::AntichessNoEp => "antichess-noep",
            Variant::ThreeCheck => "3check",
            Variant::Extinction => "extinction",
            Variant::Berolina => "berolina",
            Variant::Cylinder => "cylinder",
            Variant::Dice => "dice",
            Variant::KnightRelay => "knightrelay",
            Variant::Recycle => "recycle",
        }
    }

    /// Reads a variant name or alias (case-insensitive; `-`, `_` and spaces ignored): CLI, UCI_Variant,
    /// xboard and PGN `Variant` spellings.
    pub fn from_name(name: &str) -> Option<Variant> {
        let key: String = name.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase).collect();
        Some(match key.as_str() {
            "chess" | "standard" | "normal" | "orthodox" | "chess960" | "fischerandom" | "fromposition" => {
                Variant::Chess
            }
            "antichess" | "giveaway" | "lichessantichess" => Variant::Antichess,
            "antichessnoep" => Variant::AntichessNoEp,
            "3check" | "threecheck" => Variant::ThreeCheck,
            "extinction" | "extinctionchess" => Variant::Extinction,
            "berolina" | "berolinachess" => Variant::Berolina,
            "cylinder" | "cylinderchess" => Variant::Cylinder,
            "dice" | "dicechess" => Variant::Dice,
            "knightrelay" | "knightrelaychess" => Variant::KnightRelay,
            "recycle" | "recyclechess" => Variant::Recycle,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Access to the variant state kinds; the defaults are "this variant has none".
pub trait VariantState: Copy + Clone + Default + Debug + PartialEq + Eq + Hash + Send + Sync {
    /// Checks each side still needs (three-check), White first.
    fn remaining_checks(&self) -> [u8; 2] {
        [0, 0]
    }
    fn set_remaining_checks(&mut self, _checks: [u8; 2]) {}
    /// Pieces in hand (recycle), per color, indexed by role P, N, B, R, Q.
    fn pockets(&self) -> [[u8; 5]; 2] {
        [[0; 5]; 2]
    }
    fn set_pockets(&mut self, _pockets: [[u8; 5]; 2]) {}
    /// The current die roll (dice chess); `None` = not rolled: every face's moves.
    fn roll(&self) -> Option<Role> {
        None
    }
    fn set_roll(&mut self, _roll: Option<Role>) {}
    /// The pawn an en-passant capture removes when it is not behind the e.p. square (Berolina).
    fn ep_victim(&self) -> Option<Square> {
        None
    }
    fn set_ep_victim(&mut self, _victim: Option<Square>) {}
}

impl VariantState for () {}

/// Berolina state: the double-stepped pawn that an e.p. capture removes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BerolinaEp(pub Option<Square>);

impl VariantState for BerolinaEp {
    fn ep_victim(&self) -> Option<Square> {
        self.0
    }
    fn set_ep_victim(&mut self, victim: Option<Square>) {
        self.0 = victim;
    }
}

/// Three-check state: checks each side still needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RemainingChecks(pub [u8; 2]);

impl Default for RemainingChecks {
    fn default() -> Self {
        RemainingChecks([3, 3])
    }
}

impl VariantState for RemainingChecks {
    fn remaining_checks(&self) -> [u8; 2] {
        self.0
    }
    fn set_remaining_checks(&mut self, checks: [u8; 2]) {
        self.0 = checks;
    }
}

/// Recycle state: pieces in hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pockets(pub [[u8; 5]; 2]);

impl VariantState for Pockets {
    fn pockets(&self) -> [[u8; 5]; 2] {
        self.0
    }
    fn set_pockets(&mut self, pockets: [[u8; 5]; 2]) {
        self.0 = pockets;
    }
}

/// Dice state: the rolled piece type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Roll(pub Option<Role>);

impl VariantState for Roll {
    fn roll(&self) -> Option<Role> {
        self.0
    }
    fn set_roll(&mut self, roll: Option<Role>) {
        self.0 = roll;
    }
}

const ORTHODOX_PROMOTIONS: &[MoveKind] =
    &[MoveKind::PromoteQueen, MoveKind::PromoteKnight, MoveKind::PromoteRook, MoveKind::PromoteBishop];
const KING_PROMOTIONS: &[MoveKind] = &[
    MoveKind::PromoteQueen,
    MoveKind::PromoteKnight,
    MoveKind::PromoteRook,
    MoveKind::PromoteBishop,
    MoveKind::PromoteKing,
];

/// The rules of one game. Implemented by zero-sized marker types.
pub trait Rules: Copy + Clone + Default + Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Which variant (for `matches!` on constants, folded at compile time).
    const VARIANT: Variant;
    /// The variant's name as used by the CLI and `UCI_Variant`.
    const NAME: &'static str = Self::VARIANT.name();
    /// Extra state the position carries; `()` for orthodox chess.
    type State: VariantState;
    const GENERATOR: Generator = Generator::Orthodox;
    /// The king is royal: check exists, the king may not be left attacked and is never captured.
    const ROYAL_KING: bool = true;
    /// Captures are compulsory (antichess).
    const MUST_CAPTURE: bool = false;
    const EN_PASSANT: bool = true;
    const CASTLING: bool = true;
    /// The promotion kinds, in generation order.
    const PROMOTIONS: &'static [MoveKind] = ORTHODOX_PROMOTIONS;
    /// The variant can end without mate or stalemate (checks, extinction, captured king).
    const HAS_VARIANT_END: bool = false;
    /// FIDE dead-position draws by insufficient material apply.
    const INSUFFICIENT_MATERIAL: bool = true;
}

macro_rules! rules {
    ($(#[$doc:meta])* $name:ident, $variant:ident, $state:ty $(, $c:ident : $t:ty = $v:expr)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Rules for $name {
            const VARIANT: Variant = Variant::$variant;
            type State = $state;
            $(const $c: $t = $v;)*
        }
    };
}

rules!(
    /// Orthodox chess (FIDE), including Chess960 through the castling mode.
    Orthodox, Chess, ()
);
rules!(
    /// Antichess, lichess rules: captures compulsory, king ordinary, no castling, e.p. allowed;
    /// a side with no pieces or no move wins.
    Antichess, Antichess, (),
    GENERATOR: Generator = Generator::NonRoyal, ROYAL_KING: bool = false,
    MUST_CAPTURE: bool = true, CASTLING: bool = false, PROMOTIONS: &'static [MoveKind] = KING_PROMOTIONS,
    INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Antichess without en passant (the thesis flavour).
    AntichessNoEp, AntichessNoEp, (),
    GENERATOR: Generator = Generator::NonRoyal, ROYAL_KING: bool = false,
    MUST_CAPTURE: bool = true, CASTLING: bool = false, EN_PASSANT: bool = false,
    PROMOTIONS: &'static [MoveKind] = KING_PROMOTIONS, INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Three-check: the third check wins.
    ThreeCheck, ThreeCheck, RemainingChecks,
    HAS_VARIANT_END: bool = true, INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Extinction chess: losing every piece of one type loses; the king is ordinary.
    Extinction, Extinction, (),
    GENERATOR: Generator = Generator::NonRoyal, ROYAL_KING: bool = false,
    PROMOTIONS: &'static [MoveKind] = KING_PROMOTIONS, HAS_VARIANT_END: bool = true,
    INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Berolina chess: pawns move diagonally and capture straight ahead.
    Berolina, Berolina, BerolinaEp,
    GENERATOR: Generator = Generator::Filtered
);
rules!(
    /// Cylinder chess: the a- and h-files are adjacent.
    Cylinder, Cylinder, (),
    GENERATOR: Generator = Generator::Filtered, INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Dice chess (BrainKing): the die names the piece type to move; capturing the king wins.
    Dice, Dice, Roll,
    GENERATOR: Generator = Generator::NonRoyal, ROYAL_KING: bool = false, HAS_VARIANT_END: bool = true,
    INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Knight relay: pieces a knight's move from a friendly knight also move as knights; knights
    /// neither capture nor are captured.
    KnightRelay, KnightRelay, (),
    GENERATOR: Generator = Generator::Filtered, EN_PASSANT: bool = false, INSUFFICIENT_MATERIAL: bool = false
);
rules!(
    /// Recycle chess: capture your own pieces into your hand and drop them later.
    Recycle, Recycle, Pockets,
    GENERATOR: Generator = Generator::Filtered, INSUFFICIENT_MATERIAL: bool = false
);

/// The role a die face names (1 pawn … 6 king).
pub const fn die_face_role(face: u8) -> Option<Role> {
    match face {
        1 => Some(Role::Pawn),
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        6 => Some(Role::King),
        _ => None,
    }
}

/// The die face of a role.
pub const fn role_die_face(role: Role) -> u8 {
    role as u8 + 1
}

/// Runs `$body` with the type alias `$R` bound to the rules type of a runtime [`Variant`]: the one place
/// where a runtime choice becomes a compile-time type.
///
/// ```
/// use mysl_core::{dispatch_variant, Position, Variant};
/// let n = dispatch_variant!(Variant::Antichess, R => Position::<R>::startpos().legal_moves().len());
/// assert_eq!(n, 20);
/// ```
#[macro_export]
macro_rules! dispatch_variant {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Chess => {
                type $R = $crate::Orthodox;
                $body
            }
            $crate::Variant::Antichess => {
                type $R = $crate::Antichess;
                $body
            }
            $crate::Variant::AntichessNoEp => {
                type $R = $crate::AntichessNoEp;
                $body
            }
            $crate::Variant::ThreeCheck => {
                type $R = $crate::ThreeCheck;
                $body
            }
            $crate::Variant::Extinction => {
                type $R = $crate::Extinction;
                $body
            }
            $crate::Variant::Berolina => {
                type $R = $crate::Berolina;
                $body
            }
            $crate::Variant::Cylinder => {
                type $R = $crate::Cylinder;
                $body
            }
            $crate::Variant::Dice => {
                type $R = $crate::Dice;
                $body
            }
            $crate::Variant::KnightRelay => {
                type $R = $crate::KnightRelay;
                $body
            }
            $crate::Variant::Recycle => {
                type $R = $crate::Recycle;
                $body
            }
        }
    };
}
