//! Stipulations as structures: a play kind, a goal and a length.

use std::fmt;

/// What the last move must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `#`: the side to move after the last move is mated.
    Mate,
    /// `=`: stalemated.
    Stalemate,
    /// `==`: both sides stalemated.
    DoubleStalemate,
    /// `+`: the side to move after the last move is in check.
    Check,
    /// `x`: the last move captured.
    Capture,
    /// `00`: the last move was castling.
    Castling,
    /// `ep`: the last move was an en-passant capture.
    EnPassant,
    /// `z<square>`: the last move ended on the square (0 = a1 .. 63 = h8).
    Target(u8),
    /// `~`: any move.
    Any,
}

impl Goal {
    pub fn symbol(self) -> String {
        match self {
            Goal::Mate => "#".into(),
            Goal::Stalemate => "=".into(),
            Goal::DoubleStalemate => "==".into(),
            Goal::Check => "+".into(),
            Goal::Capture => "x".into(),
            Goal::Castling => "00".into(),
            Goal::EnPassant => "ep".into(),
            Goal::Target(s) => format!("z{}", crate::board::square_name(s)),
            Goal::Any => "~".into(),
        }
    }
}

/// How the two sides cooperate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// White forces the goal against any defence (`#n`).
    Direct,
    /// Both sides cooperate (`h#n`); Black starts unless the length has a half move.
    Help,
    /// White forces Black to reach the goal against White (`s#n`).
    SelfPlay,
    /// As self, but both sides must reach the goal in one move when they can (`r#n`).
    Reflex,
    /// As reflex, but only Black is obliged (`semi-r#n`).
    SemiReflex,
    /// Help play ending in a selfmate in 1 (`hs#n`).
    HelpSelf,
}

/// A traditional stipulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stipulation {
    pub play: Play,
    /// `ser-`: one side plays all its moves in a row.
    pub series: bool,
    pub goal: Goal,
    /// Full moves `n` of `h#n`, `#n`, `ser-#n`, ...
    pub moves: u32,
    /// `n.5`: a half move more (help play starts with the other side).
    pub half: bool,
    /// Parry series (`pser-`, `phser-`; with `series`): a series move may give check, and the
    /// other side then parries it with one move before the series goes on.
    pub parry: Parry,
}

/// How the other side parries a check in a parry series (Popeye's `pser-`/`phser-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parry {
    /// Not a parry series: a series move other than the last may not give check.
    None,
    /// The parry is a help move (`pser-h`, `phser-`): some parry must let the series go on.
    Help,
    /// The parry is a defence (`pser-` in direct, self and reflex play): every parry must.
    Defence,
}

impl Stipulation {
    /// Number of help half-moves for help play (`h#n`: 2n; `h#n.5`: 2n+1; `hs#n`: 2n-1 before the selfmate in 1).
    pub fn help_plies(&self) -> u32 {
        match self.play {
            Play::HelpSelf => 2 * self.moves - 1 + self.half as u32,
            _ => 2 * self.moves + self.half as u32,
        }
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.series, self.parry) {
            (false, _) => {}
            (true, Parry::None) => f.write_str("ser-")?,
            (true, Parry::Help) if self.play != Play::Help => f.write_str("phser-")?,
            (true, _) => f.write_str("pser-")?,
        }
        f.write_str(match self.play {
            Play::Direct => "",
            Play::Help => "h",
            Play::SelfPlay => "s",
            Play::Reflex => "r",
            Play::SemiReflex => "semi-r",
            Play::HelpSelf => "hs",
        })?;
        write!(f, "{}{}", self.goal.symbol(), self.moves)?;
        if self.half {
            f.write_str(".5")?;
        }
        Ok(())
    }
}

/// Parses a traditional stipulation such as `h#2`, `h#2.5`, `ser-h=5`, `s#3`, `semi-r#2`.
/// `Err` carries a message: either a syntax error or "not supported yet: ...".
pub fn parse(text: &str) -> Result<Stipulation, StipError> {
    let t = text.to_ascii_lowercase();
    let mut rest = t.as_str();
    // Parry series: `pser-` (the parry is a help move in pser-h, a defence otherwise) and
    // `phser-` (help parries); Popeye's `input/plaintext/stipulation.c`.
    let mut parry = Parry::None;
    if let Some(r) = rest.strip_prefix("ph") {
        if r.starts_with("ser-") {
            rest = r;
            parry = Parry::Help;
        }
    } else if let Some(r) = rest.strip_prefix('p') {
        if r.starts_with("ser-") {
            rest = r;
            parry = Parry::Defence;
        }
    }
    for p in ["reci-", "exact-", "dia", "a=>b", "semi-h", "hr"] {
        if rest.starts_with(p) {
            return Err(StipError::Unsupported(format!("stipulation {text}")));
        }
    }
    if rest.contains("->") {
        return Err(StipError::Unsupported(format!("stipulation {text}")));
    }
    let series = if let Some(r) = rest.strip_prefix("ser-") {
        rest = r;
        true
    } else {
        false
    };
    // Series proof games (`ser-dia5`, `ser-a=>b4`).
    if series && (rest.starts_with("dia") || rest.starts_with("a=>b")) {
        return Err(StipError::Unsupported(format!("stipulation {text}")));
    }
    let play = if let Some(r) = rest.strip_prefix("semi-r") {
        rest = r;
        Play::SemiReflex
    } else if let Some(r) = rest.strip_prefix("hs") {
        rest = r;
        Play::HelpSelf
    } else if let Some(r) = rest.strip_prefix('h') {
        rest = r;
        Play::Help
    } else if let Some(r) = rest.strip_prefix('s') {
        rest = r;
        Play::SelfPlay
    } else if let Some(r) = rest.strip_prefix('r') {
        rest = r;
        Play::Reflex
    } else {
        Play::Direct
    };
    // The goals by their spelling (`==` before `=`); `#` alone, `z` with its square.
    const GOALS: [(&str, Goal); 7] = [
        ("==", Goal::DoubleStalemate),
        ("=", Goal::Stalemate),
        ("+", Goal::Check),
        ("x", Goal::Capture),
        ("00", Goal::Castling),
        ("ep", Goal::EnPassant),
        ("~", Goal::Any),
    ];
    let goal = if let Some(r) = rest.strip_prefix('#') {
        if r.starts_with('#') || r.starts_with('=') || r.starts_with('!') {
            return Err(StipError::Unsupported(format!("goal in {text}")));
        }
        rest = r;
        Goal::Mate
    } else if let Some((r, g)) = GOALS.iter().find_map(|&(p, g)| rest.strip_prefix(p).map(|r| (r, g))) {
        rest = r;
        g
    } else if let Some(target) = rest.strip_prefix('z').and_then(|r| r.get(..2)).and_then(crate::board::parse_square) {
        rest = &rest[3..];
        Goal::Target(target)
    } else if rest.starts_with(['%', 'z', 'c', '!', '<', '0', 'e']) && !rest.is_empty() {
        return Err(StipError::Unsupported(format!("goal in {text}")));
    } else {
        return Err(StipError::Syntax(format!("no goal in stipulation {text}")));
    };
    let (num, half) = match rest.strip_suffix(".5") {
        Some(n) => (n, true),
        None => (rest, false),
    };
    let moves: u32 = num.parse().map_err(|_| StipError::Syntax(format!("bad length in stipulation {text}")))?;
    if moves > 60 {
        // Popeye reads such lengths (a ser-=65 in its examples); mysl's move stacks end at 60.
        return Err(StipError::Unsupported(format!("length over 60 in stipulation {text}")));
    }
    if half && !matches!(play, Play::Help | Play::HelpSelf) {
        return Err(StipError::Unsupported(format!("half moves in {text}")));
    }
    if moves == 0 && !(half && play == Play::Help) {
        return Err(StipError::Syntax(format!("length 0 in stipulation {text}")));
    }
    if series && play == Play::HelpSelf {
        return Err(StipError::Unsupported(format!("stipulation {text}")));
    }
    if play == Play::Help && parry != Parry::None {
        if parry == Parry::Help {
            // phser-h#: Popeye reads it as pser-h# too; keep the one spelling.
            return Err(StipError::Unsupported(format!("stipulation {text}")));
        }
        parry = Parry::Help;
    }
    Ok(Stipulation { play, series, goal, moves, half, parry })
}

/// Why a stipulation was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StipError {
    Syntax(String),
    Unsupported(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_traditional_forms() {
        for s in [
            "#2",
            "h#2",
            "h#2.5",
            "h=3",
            "h==3",
            "s#6",
            "r#2",
            "semi-r#2",
            "hs#3",
            "hs#3.5",
            "ser-#4",
            "ser-h#8",
            "ser-h=5",
            "ser-s#6",
            "ser-r#2",
            "ser-=4",
            "h=0.5",
            "pser-h#6",
            "pser-#3",
            "pser-=2",
            "pser-s#4",
            "phser-s#6",
            "pser-h=3",
            "pser-r#2",
        ] {
            let st = parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert_eq!(st.to_string(), s);
        }
        assert_eq!(parse("pser-h#3").expect("parsed").parry, Parry::Help);
        assert_eq!(parse("pser-#3").expect("parsed").parry, Parry::Defence);
        assert_eq!(parse("phser-#3").expect("parsed").parry, Parry::Help);
        assert_eq!(parse("ser-#3").expect("parsed").parry, Parry::None);
        assert!(matches!(parse("phser-h#3"), Err(StipError::Unsupported(_))));
        assert!(matches!(parse("h#x"), Err(StipError::Syntax(_))));
        assert!(matches!(parse("h"), Err(StipError::Syntax(_))));
        // Popeye reads these; mysl refuses them by name.
        for s in ["ser-=65", "#61", "ser-dia5", "dia4.5", "ser-a=>b3"] {
            assert!(matches!(parse(s), Err(StipError::Unsupported(_))), "{s}");
        }
        assert!(parse("ser-=60").is_ok());
    }
}
