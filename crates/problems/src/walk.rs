//! Piece kinds as data: each kind has a walk (how it moves and captures) and its Popeye code.
//!
//! M1 supports the orthodox walks; they are evaluated with mysl-core's magic attack tables. The
//! generic walk shapes (leaper, rider, hopper) are here so fairy pieces can be added as table rows;
//! the parser reports every fairy code as "not supported yet" until their generators are written.

/// How a piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

/// A piece kind: index into [`KINDS`].
pub type Kind = u8;

pub const KING: Kind = 0;
pub const QUEEN: Kind = 1;
pub const ROOK: Kind = 2;
pub const BISHOP: Kind = 3;
pub const KNIGHT: Kind = 4;
pub const PAWN: Kind = 5;
/// Number of supported kinds.
pub const NUM_KINDS: usize = 6;

/// One row of the kind table.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    pub walk: Walk,
    /// Popeye's English piece code (upper case).
    pub code: &'static str,
}

/// The kind table (orthodox pieces).
pub const KINDS: [KindInfo; NUM_KINDS] = [
    KindInfo { walk: Walk::King, code: "K" },
    KindInfo { walk: Walk::Queen, code: "Q" },
    KindInfo { walk: Walk::Rook, code: "R" },
    KindInfo { walk: Walk::Bishop, code: "B" },
    KindInfo { walk: Walk::Knight, code: "S" },
    KindInfo { walk: Walk::Pawn, code: "P" },
];

/// Kinds a pawn may promote to, in Popeye's output order.
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
    ("B1", "bouncer?"),
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

/// Numeric (x,y)-leaper codes such as `15`, `16`, `24`, `25`, `35`, `37`: fairy, unsupported for now.
pub fn is_numeric_leaper_code(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_digit())
}

/// The orthodox kind for an English Popeye code (`K Q R B S P`, case-insensitive).
pub fn orthodox_kind(code: &str) -> Option<Kind> {
    KINDS.iter().position(|k| k.code.eq_ignore_ascii_case(code)).map(|i| i as Kind)
}

/// The fairy piece name for a code, if it is a known fairy code.
pub fn fairy_name(code: &str) -> Option<&'static str> {
    if is_numeric_leaper_code(code) {
        return Some("(x,y)-leaper");
    }
    FAIRY_CODES.iter().find(|(c, _)| c.eq_ignore_ascii_case(code)).map(|(_, n)| *n)
}
