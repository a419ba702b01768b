//! Popeye's English input language: a lexer with line/column spans and a parser that recovers at
//! `NextProblem`/`EndProblem`, so one bad problem does not stop the others.
//!
//! Keywords are case-insensitive and may be shortened to any unique prefix, as in Popeye.

use std::fmt;

use mysl_core::Color;

pub use crate::board::Conditions;
use crate::board::{castle_bits, parse_square, AntiCirce, Bgl, Board, Circe, Mars, Paralysis, Piece, BGL_INFINITE};
use crate::lang::{self, Category, Language};
use crate::stipulation::{self, StipError, Stipulation};
use crate::walk::{self, Kind};

/// A located input error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// The offending token ("" at end of input).
    pub token: String,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {} (at '{}')", self.line, self.column, self.message, self.token)
    }
}

impl std::error::Error for ParseError {}

/// Solving options (Popeye's `Option` command).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub set_play: bool,
    pub white_to_play: bool,
    pub try_play: bool,
    /// `Defence n`: tries with at most n refutations (default 1).
    pub defence: u32,
    pub no_threat: bool,
    /// `Threat n`: keys must threaten the goal in at most n moves.
    pub threat: Option<u32>,
    pub max_solutions: Option<u32>,
    pub variation: bool,
    pub intelligent: bool,
    pub quodlibet: bool,
    /// `MatesIn1`: show the defender's early goal moves in self/reflex play.
    pub mates_in_1: bool,
    pub max_time: Option<u64>,
    /// `EnPassant` squares as given.
    pub en_passant: Vec<u8>,
    pub no_castling: Vec<u8>,
    /// `CastlingMutuallyExclusive` pairs of rook squares.
    pub castling_exclusive: Vec<(u8, u8)>,
    /// Intended solutions per twin (mysl: `Remark Intended n` or `Option Intended n`; default 1),
    /// for the classification of solutions (`classify`).
    pub intended: Option<u32>,
    /// `NoWk`, `NoBk`: the position has no white (black) king.
    pub no_wk: bool,
    pub no_bk: bool,
    /// `NullMoves`: either side may pass (a null move, written `...`) instead of moving; help
    /// play ending in mate only (docs/problems.md, "Null moves").
    pub null_moves: bool,
    /// `Duplex`: solved again with the other side starting and reaching the goal;
    /// `HalfDuplex`: only that way (help and series play).
    pub duplex: bool,
    pub half_duplex: bool,
}

/// One change of a twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinChange {
    Move(u8, u8),
    Exchange(u8, u8),
    Remove(u8),
    Add(Color, Kind, u8),
    /// Every piece of the first kind becomes the second kind.
    Substitute(Kind, Kind),
    /// Rotation counterclockwise by 90, 180 or 270 degrees.
    Rotate(u32),
    /// Mirror: `a1<-->h1` (files), `a1<-->a8` (ranks), `a1<-->h8`, `h1<-->a8` (diagonals).
    Mirror(Mirror),
    Shift(u8, u8),
    Stipulation(Stipulation),
    /// `Twin Condition ...`: replaces the conditions (only the supported ones).
    Condition(Conditions),
}

impl Conditions {
    /// Popeye's names, for twin headers (one condition a line in Popeye; here on one line).
    pub fn names(&self) -> Vec<String> {
        let rex = if self.circe_rex { "RexInclusive" } else { "" };
        let mut v: Vec<String> =
            [self.circe.name(), rex, self.paralysis.name(), self.anticirce.name(), self.mars.name()]
                .iter()
                .filter(|n| !n.is_empty())
                .map(|n| n.to_string())
                .collect();
        if self.breton {
            v.push("Breton".into());
        }
        if self.chameleon_pursuit {
            v.push("ChameleonPursuit".into());
        }
        if self.transmuted_kings {
            v.push("TransmutedKings".into());
        }
        if self.pepo {
            v.push("Pepo".into());
        }
        if self.ghost_chess {
            v.push("GhostChess".into());
        }
        if self.andernach {
            v.push("AndernachChess".into());
        }
        if self.checkless {
            v.push("ChecklessChess".into());
        }
        if self.annan {
            v.push("AnnanChess".into());
        }
        if self.parrain {
            v.push("Circe Parrain".into());
        }
        if self.singlebox {
            v.push("SingleBox Type1".into());
        }
        if self.imitators.n > 0 {
            let squares: String = self.imitators.squares().iter().map(|&s| crate::board::square_name(s)).collect();
            v.push(format!("Imitator {squares}"));
        }
        if self.no_iprom {
            v.push("NoIProm".into());
        }
        if self.back_home {
            v.push("BackHome".into());
        }
        if self.castling_chess {
            v.push("CastlingChess".into());
        }
        if self.exchange_castling {
            v.push("ExchangeCastling".into());
        }
        if self.danger_circe {
            v.push("DangerCirce".into());
        }
        if self.bicaptures {
            v.push("Bicaptures".into());
        }
        if self.cast_inverse {
            v.push("CASTInverse".into());
        }
        if self.all_in_chess {
            v.push("AllInChess".into());
        }
        if self.frankfurt {
            v.push("FrankfurtChess".into());
        }
        if self.holes.any() {
            let squares: String = self.holes.into_iter().map(|s| crate::board::square_name(s as u8)).collect();
            v.push(format!("Hole {squares}"));
        }
        if self.cavalier_majeur {
            v.push("CavalierMajeur".into());
        }
        if self.take_make {
            v.push("Take&MakeChess".into());
        }
        match self.no_capture {
            [true, true] => v.push("NoCapture".into()),
            [true, false] => v.push("NoWhiteCapture".into()),
            [false, true] => v.push("NoBlackCapture".into()),
            _ => {}
        }
        for (on, name) in self.maximummer.iter().zip(["WhiteMaximummer", "BlackMaximummer"]) {
            if *on {
                v.push(name.into());
            }
        }
        if self.bgl.on {
            v.push(format!("BGL{}", self.bgl.text().trim_end_matches(')').replace(" (", "  ").replace('/', "  ")));
        }
        v
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    A1H1,
    A1A8,
    A1H8,
    H1A8,
}

/// A `Twin` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// `Twin Continued`: applies to the previous twin instead of the original position.
    pub continued: bool,
    pub changes: Vec<TwinChange>,
}

/// A parsed problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line of `BeginProblem` (or of the previous `NextProblem`).
    pub line: usize,
    pub authors: Vec<String>,
    pub origin: Vec<String>,
    pub titles: Vec<String>,
    pub board: Board,
    pub stipulation: Option<Stipulation>,
    pub options: Options,
    pub twins: Vec<Twin>,
    /// Features used by the problem that the solver does not support yet ("not supported yet: X").
    pub unsupported: Vec<String>,
    /// The conditions (`Condition ...`; see [`Conditions`]).
    pub conditions: Conditions,
}

#[derive(Clone, Debug)]
struct Token {
    text: String,
    line: usize,
    col: usize,
}

const COMMANDS: &[&str] = &[
    "beginproblem",
    "endproblem",
    "nextproblem",
    "author",
    "origin",
    "title",
    "remark",
    "award",
    "stipulation",
    "sstipulation",
    "pieces",
    "forsyth",
    "condition",
    "option",
    "twin",
    "zeroposition",
    "protocol",
    "layout",
    "latex",
    "latexpieces",
    "initialgamearray",
];

const OPTIONS: &[&str] = &[
    "try",
    "defence",
    "setplay",
    "nothreat",
    "threat",
    "maxsolutions",
    "variation",
    "whitetoplay",
    "intelligent",
    "intended",
    "quodlibet",
    "maxtime",
    "enpassant",
    "nocastling",
    "castlingmutuallyexclusive",
    "noboard",
    "movenumbers",
    "beep",
    "nowk",
    "nobk",
    "duplex",
    "halfduplex",
    "postkeyplay",
    "nullmoves",
    "keepmatingpiece",
    "nontrivial",
    "maxflightsquares",
    "stoponshortsolutions",
    "noshortvariations",
    "halfduplex",
    "lastcapture",
    "goalisend",
    "suppressgrid",
    "writegrid",
    "maxthreatlength",
    "mutuallyexclusivecastling",
    "matesin1",
];

const TWIN_WORDS: &[&str] = &[
    "move",
    "exchange",
    "remove",
    "add",
    "substitute",
    "rotate",
    "mirror",
    "shift",
    "stipulation",
    "condition",
    "continued",
    "polishtype",
    "sstipulation",
    "forsyth",
];

const COLORS: &[&str] = &["white", "black", "neutral"];

const ATTRIBUTES: &[&str] = &[
    "royal",
    "kamikaze",
    "chameleon",
    "jigger",
    "volage",
    "halfneutral",
    "frischauf",
    "functionary",
    "paralysing",
    "magic",
    "bul",
    "dob",
    "hurdlecolourchanging",
    "protean",
    "uncapturable",
    "patrol",
];

/// Index of the keyword that `word` names: a unique prefix, or a word that starts with a keyword
/// (Popeye accepts `Variations` for `Variation`).
pub fn match_keyword(word: &str, table: &[&str]) -> Option<usize> {
    let w = word.to_ascii_lowercase();
    if w.is_empty() {
        return None;
    }
    if let Some(i) = table.iter().position(|k| *k == w) {
        return Some(i);
    }
    let matches: Vec<usize> = table.iter().enumerate().filter(|(_, k)| k.starts_with(&w)).map(|(i, _)| i).collect();
    match matches.as_slice() {
        [i] => Some(*i),
        [] => {
            // A keyword followed by a plural 's' or similar: the longest keyword that prefixes the word.
            let mut best: Option<usize> = None;
            for (i, k) in table.iter().enumerate() {
                if w.starts_with(k) && w.len() <= k.len() + 1 && best.is_none_or(|b| table[b].len() < k.len()) {
                    best = Some(i);
                }
            }
            best
        }
        _ => None,
    }
}

fn tokenize(text: &str) -> (Vec<Token>, Vec<String>) {
    let mut tokens = Vec::new();
    let mut lines = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        lines.push(line.to_string());
        let mut col = 0;
        let mut cur = String::new();
        let mut start = 0;
        for ch in line.chars() {
            col += 1;
            // Popeye's token separators: white space, `;` and `,` (`token.c`, `SpaceChar`):
            // `Kh8, Td8` lists pieces.
            if ch.is_whitespace() || ch == ',' || ch == ';' {
                if !cur.is_empty() {
                    tokens.push(Token { text: std::mem::take(&mut cur), line: ln + 1, col: start });
                }
            } else {
                if cur.is_empty() {
                    start = col;
                }
                cur.push(ch);
            }
        }
        if !cur.is_empty() {
            tokens.push(Token { text: cur, line: ln + 1, col: start });
        }
    }
    (tokens, lines)
}

/// A piece specification such as `Kf3`, `Pd4f2`, `NHb3`: (code, squares), or `None` if the token
/// does not end in one or more squares.
fn split_piece_spec(token: &str) -> Option<(String, Vec<u8>)> {
    if !token.is_ascii() {
        return None;
    }
    for code_len in 1..=2 {
        if token.len() <= code_len || !(token.len() - code_len).is_multiple_of(2) {
            continue;
        }
        let (code, rest) = token.split_at(code_len);
        if !code.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let squares: Option<Vec<u8>> = (0..rest.len() / 2).map(|i| parse_square(&rest[2 * i..2 * i + 2])).collect();
        if let Some(squares) = squares {
            return Some((code.to_ascii_uppercase(), squares));
        }
    }
    None
}

struct Parser<'a> {
    tokens: &'a [Token],
    lines: &'a [String],
    pos: usize,
    /// Fixed by the first token (`BeginProblem`, `DebutProbleme`, `AnfangProblem`).
    lang: Language,
    /// An error that stands only if the problem is otherwise supported: a second king of one
    /// side is an input error, unless the problem is refused anyway (Dynasty, `a=>b` with its
    /// second position).
    deferred: Option<ParseError>,
}

type PResult<T> = Result<T, ParseError>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    /// The stipulation's token, with its length when that follows after a space (`dia 4`,
    /// `ser-s00 9`: Popeye reads on while the stipulation lacks its length).
    fn stipulation_token(&mut self) -> Option<Token> {
        let mut s = self.peek().cloned()?;
        self.pos += 1;
        let is_length = |t: &str| {
            let (whole, half) = t.split_once('.').unwrap_or((t, ""));
            !whole.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && (half.is_empty() && !t.ends_with('.') || half == "5")
        };
        // The castling goal `00` ends in digits too (`ser-s00`, but `#100` has its length).
        let castling_goal = s.text.strip_suffix("00").is_some_and(|h| !h.ends_with(|c: char| c.is_ascii_digit()));
        let lacks_length = !s.text.ends_with(|c: char| c.is_ascii_digit()) || castling_goal;
        if let Some(n) = self.peek().filter(|n| lacks_length && is_length(&n.text)) {
            s.text.push_str(&n.text);
            self.pos += 1;
        }
        Some(s)
    }

    /// Puts a piece; a second king of one side is a deferred error (see `Parser::deferred`).
    fn place(&mut self, p: &mut Problem, t: &Token, color: Color, kind: Kind, s: u8) {
        if kind == walk::KING {
            if let Some(k) = p.board.king_square(color).filter(|&k| k != s) {
                let name = if color == Color::White { "white" } else { "black" };
                let (a, b) = (crate::board::square_name(k), crate::board::square_name(s));
                if self.deferred.is_none() {
                    self.deferred = Some(self.err(Some(t), format!("two {name} kings ({a} and {b})")));
                }
            }
        }
        p.board.put(s, Piece { color, kind });
    }

    fn err(&self, tok: Option<&Token>, msg: impl Into<String>) -> ParseError {
        match tok {
            Some(t) => ParseError { line: t.line, column: t.col, token: t.text.clone(), message: msg.into() },
            None => {
                let line = self.lines.len().max(1);
                let column = self.lines.last().map_or(0, |l| l.chars().count()) + 1;
                ParseError { line, column, token: String::new(), message: msg.into() }
            }
        }
    }

    fn is_command(&self, t: &Token) -> Option<&'static str> {
        let w = self.english(Category::Command, &t.text)?;
        match_keyword(&w, COMMANDS).map(|i| COMMANDS[i])
    }

    /// The English keyword for a word of category `cat` in the input's language (the word itself
    /// in English input), or `None` if the language has no such keyword.
    fn english(&self, cat: Category, word: &str) -> Option<String> {
        match self.lang {
            Language::English => Some(word.to_string()),
            l => lang::to_english(l, cat, word),
        }
    }

    /// Index into an English table of the keyword `word` of category `cat`.
    fn keyword(&self, cat: Category, word: &str, table: &[&str]) -> Option<usize> {
        match_keyword(&self.english(cat, word)?, table)
    }

    /// The English piece code for a code of the input's language ("" if there is none).
    fn piece_code(&self, code: &str) -> String {
        self.english(Category::Piece, code).unwrap_or_default()
    }

    /// Is `t` a piece code alone (one or two letters: `s`, `t`, `nh`)?
    fn is_piece_code(&self, t: &Token) -> bool {
        let code = self.piece_code(&t.text);
        t.text.chars().count() <= 2 && (walk::kind_by_code(&code).is_some() || walk::fairy_name(&code).is_some())
    }

    fn is_twin_word(&self, t: &Token) -> bool {
        self.keyword(Category::Twin, &t.text, TWIN_WORDS).is_some()
    }

    /// Text from after token `t` to the end of its line.
    fn rest_of_line(&mut self, t: &Token) -> String {
        let line = &self.lines[t.line - 1];
        let skip = t.col - 1 + t.text.chars().count();
        let rest: String = line.chars().skip(skip).collect();
        while self.peek().is_some_and(|n| n.line == t.line) {
            self.pos += 1;
        }
        rest.trim().to_string()
    }

    /// Parses the whole file.
    fn file(&mut self) -> Vec<Result<Problem, ParseError>> {
        let mut out = Vec::new();
        // The first token chooses the language.
        if let Some(l) = self.peek().and_then(|t| lang::language_of_begin(&t.text)) {
            self.lang = l;
        }
        // Find BeginProblem.
        loop {
            let Some(t) = self.peek().cloned() else {
                if out.is_empty() {
                    out.push(Err(self.err(None, "no BeginProblem in input")));
                }
                return out;
            };
            self.pos += 1;
            if self.is_command(&t) == Some("beginproblem") {
                break;
            }
            out.push(Err(self.err(Some(&t), "expected BeginProblem")));
            // Skip to BeginProblem.
            while let Some(n) = self.peek() {
                if self.is_command(n) == Some("beginproblem") {
                    break;
                }
                self.pos += 1;
            }
        }
        let mut start_line = self.tokens[self.pos - 1].line;
        loop {
            match self.problem(start_line) {
                Ok((p, end)) => {
                    out.push(Ok(p));
                    match end {
                        End::Next(line) => start_line = line,
                        End::End => return out,
                    }
                }
                Err(e) => {
                    out.push(Err(e));
                    // Recover: skip to the next NextProblem / EndProblem.
                    loop {
                        let Some(t) = self.peek().cloned() else { return out };
                        self.pos += 1;
                        match self.is_command(&t) {
                            Some("nextproblem") => {
                                start_line = t.line;
                                break;
                            }
                            Some("endproblem") => return out,
                            _ => {}
                        }
                    }
                }
            }
        }
    }

    fn problem(&mut self, line: usize) -> PResult<(Problem, End)> {
        self.deferred = None;
        let mut p = Problem {
            line,
            authors: Vec::new(),
            origin: Vec::new(),
            titles: Vec::new(),
            board: Board::empty(),
            stipulation: None,
            options: Options { defence: 1, ..Options::default() },
            twins: Vec::new(),
            unsupported: Vec::new(),
            conditions: Conditions::NONE,
        };
        // Every `Condition` command adds to the conditions before it (as in Popeye).
        let mut condition_words: Vec<String> = Vec::new();
        let mut stip_seen = false;
        loop {
            let Some(t) = self.peek().cloned() else {
                return Err(self.err(None, "unterminated problem: EndProblem missing"));
            };
            self.pos += 1;
            let Some(cmd) = self.is_command(&t) else {
                return Err(self.err(Some(&t), "unknown keyword"));
            };
            match cmd {
                "endproblem" | "nextproblem" => {
                    if p.stipulation.is_none() && !stip_seen {
                        return Err(self.err(Some(&t), "no stipulation given"));
                    }
                    if let Some(e) = self.deferred.take() {
                        if p.unsupported.is_empty() {
                            return Err(e);
                        }
                    }
                    p.board.castling = p.board.default_castling();
                    for &s in &p.options.no_castling {
                        p.board.castling &= !castle_bits(s);
                    }
                    p.board.castling_exclusive =
                        p.options.castling_exclusive.iter().map(|&(a, b)| (castle_bits(a), castle_bits(b))).collect();
                    if let [.., over, pawn] = p.options.en_passant[..] {
                        p.board.ep = Some((over, pawn));
                    }
                    let end = if cmd == "endproblem" { End::End } else { End::Next(t.line) };
                    return Ok((p, end));
                }
                "beginproblem" => return Err(self.err(Some(&t), "BeginProblem inside a problem (EndProblem missing)")),
                "author" => {
                    let r = self.rest_of_line(&t);
                    p.authors.push(r);
                }
                "origin" | "award" => {
                    let r = self.rest_of_line(&t);
                    p.origin.push(r);
                }
                "title" | "remark" | "protocol" => {
                    let r = self.rest_of_line(&t);
                    if cmd == "title" {
                        p.titles.push(r);
                    } else if cmd == "remark" {
                        // mysl: `Remark Intended n` (Popeye reads it as a plain remark).
                        let mut w = r.split_whitespace();
                        if w.next().is_some_and(|x| x.eq_ignore_ascii_case("intended")) {
                            if let Some(n) = w.next().and_then(|x| x.parse::<u32>().ok()) {
                                p.options.intended = Some(n);
                            }
                        }
                    }
                }
                "stipulation" => {
                    stip_seen = true;
                    let Some(s) = self.stipulation_token() else { return Err(self.err(None, "stipulation missing")) };
                    match stipulation::parse(&s.text) {
                        Ok(st) => p.stipulation = Some(st),
                        Err(StipError::Unsupported(m)) => p.unsupported.push(m),
                        Err(StipError::Syntax(m)) => return Err(self.err(Some(&s), m)),
                    }
                }
                "sstipulation" => {
                    stip_seen = true;
                    let r = self.rest_of_line(&t);
                    p.unsupported.push(format!("sstipulation {r}"));
                }
                "pieces" => {
                    self.pieces(&mut p)?;
                }
                "forsyth" => {
                    let Some(s) = self.peek().cloned() else { return Err(self.err(None, "Forsyth string missing")) };
                    self.pos += 1;
                    self.forsyth(&s, &mut p)?;
                }
                "condition" => {
                    let mut words = Vec::new();
                    while let Some(n) = self.peek().cloned() {
                        // A piece code belongs to the condition (Chameleon Circe's sequence
                        // `s l t d s`: `t` also abbreviates `Titel`).
                        if !self.is_piece_code(&n) && self.is_command(&n).is_some() {
                            break;
                        }
                        // A BGL budget that looks like a number must be one (at most two decimals).
                        let after_bgl = words.first().is_some_and(|w: &String| w.eq_ignore_ascii_case("bgl"));
                        if after_bgl
                            && words.len() <= 2
                            && n.text.starts_with(|c: char| c.is_ascii_digit() || c == '.')
                            && bgl_value(&n.text).is_none()
                        {
                            return Err(self.err(Some(&n), "bad BGL budget (a number with at most two decimals, or -)"));
                        }
                        words.push(lang::condition_word(self.lang, &n.text));
                        self.pos += 1;
                    }
                    let hole = words
                        .first()
                        .is_some_and(|w| w.eq_ignore_ascii_case("hole") || w.eq_ignore_ascii_case("holes"));
                    if hole && words.get(1).is_none_or(|w| square_list(w).is_none()) {
                        let tok = self.tokens.get(self.pos.saturating_sub(1));
                        return Err(self.err(tok, "Hole needs a list of squares (Hole d4e5)"));
                    }
                    if !words.is_empty() {
                        condition_words.extend(words);
                        let words = &condition_words;
                        p.unsupported.retain(|u| !u.starts_with("condition "));
                        match parse_conditions(words) {
                            Some(c) => p.conditions = c,
                            None => p.unsupported.push(format!("condition {}", words.join(" "))),
                        }
                    }
                }
                "option" => self.options(&mut p)?,
                "twin" => {
                    let tw = self.twin(&mut p)?;
                    p.twins.push(tw);
                }
                "layout" => p.unsupported.push(format!("command {cmd}")),
                // A zero position: its changes (as a twin's) give the first twin. Read, refused.
                "zeroposition" => {
                    self.twin(&mut p)?;
                    p.unsupported.push(format!("command {cmd}"));
                }
                // The game array: the pieces of the initial position (Popeye's `Array`).
                "initialgamearray" => {
                    use walk::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
                    const BACK: [Kind; 8] = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK];
                    for f in 0..8u8 {
                        for (c, back, pawns) in [(Color::White, 0, 8), (Color::Black, 56, 48)] {
                            p.board.put(back + f, Piece { color: c, kind: BACK[f as usize] });
                            p.board.put(pawns + f, Piece { color: c, kind: PAWN });
                        }
                    }
                }
                // Popeye's LaTeX output: a file name (`LaTeX`), then lines naming pieces for it,
                // each starting with a piece code (`n SU Nightrider`, Popeye's
                // `ParseLaTeXPieces`). mysl writes no LaTeX: read and ignored.
                "latex" | "latexpieces" => {
                    if cmd == "latex" {
                        self.rest_of_line(&t);
                    }
                    while let Some(n) = self.peek().cloned() {
                        let code = self.piece_code(&n.text);
                        if n.text.chars().count() > 2
                            || (walk::kind_by_code(&code).is_none() && walk::fairy_name(&code).is_none())
                        {
                            break;
                        }
                        self.rest_of_line(&n);
                    }
                }
                _ => return Err(self.err(Some(&t), "unknown keyword")),
            }
        }
    }

    fn pieces(&mut self, p: &mut Problem) -> PResult<()> {
        let mut color: Option<Color> = None;
        // Attribute Bul (or Dob) for the pieces after it, up to the next colour.
        let mut bul = false;
        let mut dob = false;
        // Colour Neutral: the pieces are neutral (stored as white, see `Board::neutral`).
        let mut neutral = false;
        while let Some(t) = self.peek().cloned() {
            if let Some((original, squares)) = split_piece_spec(&t.text) {
                let code = self.piece_code(&original);
                if let Some(kind) = walk::kind_by_code(&code) {
                    let Some(c) = color else {
                        return Err(self.err(Some(&t), "piece before its colour (White/Black)"));
                    };
                    if bul && !matches!(walk::KINDS[kind as usize].walk, walk::Walk::Hopper(_)) {
                        let name = if dob { "dob" } else { "bul" };
                        p.unsupported.push(format!("piece attribute {name} on {code} (only on G, NH)"));
                    }
                    if neutral && kind == walk::KING {
                        p.unsupported.push("neutral kings".into());
                        self.pos += 1;
                        continue;
                    }
                    for s in squares {
                        self.place(p, &t, c, kind, s);
                        let b = mysl_core::Square::from_index(s as u32);
                        if neutral {
                            p.board.neutral.set(b);
                        } else {
                            p.board.neutral.clear(b);
                        }
                        if bul {
                            p.board.bul.set(b);
                        } else {
                            p.board.bul.clear(b);
                        }
                        if dob {
                            p.board.dob.set(b);
                        } else {
                            p.board.dob.clear(b);
                        }
                    }
                    self.pos += 1;
                    continue;
                }
                if let Some(name) = walk::fairy_name(&code) {
                    p.unsupported.push(format!("fairy piece {code} ({name})"));
                    self.pos += 1;
                    continue;
                }
                if self.is_command(&t).is_none() && self.keyword(Category::Colour, &t.text, COLORS).is_none() {
                    return Err(self.err(Some(&t), format!("unknown piece '{}'", original.to_ascii_uppercase())));
                }
            }
            if let Some(i) = self.keyword(Category::Colour, &t.text, COLORS) {
                bul = false;
                dob = false;
                neutral = COLORS[i] == "neutral";
                color = Some(if COLORS[i] == "black" { Color::Black } else { Color::White });
                self.pos += 1;
                continue;
            }
            if let Some(i) = self.keyword(Category::Attribute, &t.text, ATTRIBUTES) {
                if ATTRIBUTES[i] == "bul" {
                    bul = true;
                    dob = false;
                } else if ATTRIBUTES[i] == "dob" {
                    // Dob: a Bul whose hurdle moves by its own walk (Board::dob within Board::bul).
                    bul = true;
                    dob = true;
                } else {
                    p.unsupported.push(format!("piece attribute {}", ATTRIBUTES[i]));
                }
                self.pos += 1;
                continue;
            }
            if self.is_command(&t).is_some() {
                break;
            }
            return Err(self.err(Some(&t), "unknown piece or square"));
        }
        Ok(())
    }

    /// Popeye's Forsyth: squares are filled in order from a8 to h1 (a8..h8, a7..h7, ...), a
    /// number (one or two digits) skips that many squares, also across ranks (`32` = four empty
    /// ranks), and `/` is only a separator (it does not skip to the next rank); empty squares
    /// counted past h1 are dropped (Popeye stops there). `=` makes the next piece neutral.
    fn forsyth(&mut self, t: &Token, p: &mut Problem) -> PResult<()> {
        // Index of the next square in Popeye's order (0 = a8, 63 = h1).
        let mut pos: i32 = 0;
        let chars: Vec<char> = t.text.chars().collect();
        let mut i = 0;
        let mut neutral = false;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            if c == '/' {
                continue;
            }
            if c == '=' {
                neutral = true;
                continue;
            }
            if let Some(d) = c.to_digit(10) {
                let mut n = d as i32;
                if i < chars.len() && chars[i].is_ascii_digit() {
                    n = n * 10 + chars[i].to_digit(10).unwrap_or(0) as i32;
                    i += 1;
                }
                pos = (pos + n).min(64);
                continue;
            }
            let (rank, file) = (7 - pos.div_euclid(8), pos.rem_euclid(8));
            let (code, white) = if c == '.' {
                if i + 2 > chars.len() {
                    return Err(self.err(Some(t), "bad two-letter piece in Forsyth"));
                }
                let s: String = chars[i..i + 2].iter().collect();
                i += 2;
                (s.clone(), s.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
            } else {
                (c.to_string(), c.is_ascii_uppercase())
            };
            if pos >= 64 {
                return Err(self.err(Some(t), "more than 64 squares in Forsyth"));
            }
            let original = code;
            let code = self.piece_code(&original);
            let Some(kind) = walk::kind_by_code(&code) else {
                if walk::fairy_name(&code).is_some() {
                    p.unsupported.push(format!("fairy piece {code}"));
                    neutral = false;
                    pos += 1;
                    continue;
                }
                return Err(self.err(Some(t), format!("unknown piece '{original}' in Forsyth")));
            };
            let s = (rank * 8 + file) as u8;
            if std::mem::take(&mut neutral) {
                if kind == walk::KING {
                    p.unsupported.push("neutral kings".into());
                } else {
                    // Neutral pieces are stored as white (see `Board::neutral`).
                    self.place(p, t, Color::White, kind, s);
                    p.board.neutral.set(mysl_core::Square::from_index(s as u32));
                }
                pos += 1;
                continue;
            }
            self.place(p, t, Color::from_white(white), kind, s);
            pos += 1;
        }
        Ok(())
    }

    fn squares_arg(&mut self) -> PResult<Vec<u8>> {
        let Some(t) = self.peek().cloned() else { return Err(self.err(None, "squares expected")) };
        let s = t.text.as_str();
        if s.len() % 2 != 0 || s.is_empty() || !s.is_ascii() {
            return Err(self.err(Some(&t), "squares expected"));
        }
        let sq: Option<Vec<u8>> = (0..s.len() / 2).map(|i| parse_square(&s[2 * i..2 * i + 2])).collect();
        let sq = sq.ok_or_else(|| self.err(Some(&t), "bad square"))?;
        self.pos += 1;
        Ok(sq)
    }

    fn number_arg(&mut self) -> PResult<u32> {
        let Some(t) = self.peek().cloned() else { return Err(self.err(None, "number expected")) };
        let n = t.text.parse::<u32>().map_err(|_| self.err(Some(&t), "number expected"))?;
        self.pos += 1;
        Ok(n)
    }

    fn options(&mut self, p: &mut Problem) -> PResult<()> {
        while let Some(t) = self.peek().cloned() {
            let Some(i) = self.keyword(Category::Option, &t.text, OPTIONS) else {
                if self.is_command(&t).is_some() {
                    break;
                }
                p.unsupported.push(format!("option {}", t.text));
                self.pos += 1;
                continue;
            };
            self.pos += 1;
            let o = &mut p.options;
            match OPTIONS[i] {
                "try" => o.try_play = true,
                "defence" => o.defence = self.number_arg()?,
                "setplay" => o.set_play = true,
                "nothreat" => o.no_threat = true,
                "threat" => o.threat = Some(self.number_arg()?),
                "maxsolutions" => o.max_solutions = Some(self.number_arg()?),
                "variation" => o.variation = true,
                "whitetoplay" => o.white_to_play = true,
                "intelligent" => {
                    o.intelligent = true;
                    if self.peek().is_some_and(|n| n.text.parse::<u32>().is_ok()) {
                        self.pos += 1;
                    }
                }
                "intended" => o.intended = Some(self.number_arg()?),
                "quodlibet" => o.quodlibet = true,
                "nowk" => o.no_wk = true,
                "nobk" => o.no_bk = true,
                "nullmoves" => o.null_moves = true,
                "duplex" => o.duplex = true,
                "halfduplex" => o.half_duplex = true,
                "matesin1" => o.mates_in_1 = true,
                "maxtime" => o.max_time = Some(self.number_arg()? as u64),
                "enpassant" => o.en_passant = self.squares_arg()?,
                "nocastling" => o.no_castling = self.squares_arg()?,
                "castlingmutuallyexclusive" | "mutuallyexclusivecastling" => {
                    let sq = self.squares_arg()?;
                    for pair in sq.chunks(2) {
                        if let [a, b] = pair {
                            o.castling_exclusive.push((*a, *b));
                        }
                    }
                }
                "noboard" | "movenumbers" | "beep" | "suppressgrid" | "writegrid" => {}
                other => {
                    // Skip a numeric argument so that it is not taken for a command.
                    if self.peek().is_some_and(|n| n.text.parse::<u32>().is_ok()) {
                        self.pos += 1;
                    }
                    p.unsupported.push(format!("option {other}"));
                }
            }
        }
        Ok(())
    }

    fn twin(&mut self, p: &mut Problem) -> PResult<Twin> {
        let mut tw = Twin { continued: false, changes: Vec::new() };
        let refused_before = p.unsupported.len();
        while let Some(t) = self.peek().cloned() {
            let Some(i) = self.keyword(Category::Twin, &t.text, TWIN_WORDS) else {
                if self.is_command(&t).is_some() {
                    break;
                }
                return Err(self.err(Some(&t), "unknown twin change"));
            };
            // "stipulation" and "condition" are also commands: inside Twin they are changes.
            self.pos += 1;
            match TWIN_WORDS[i] {
                "continued" => tw.continued = true,
                "move" => {
                    let a = self.one_square()?;
                    let b = self.one_square()?;
                    tw.changes.push(TwinChange::Move(a, b));
                }
                "exchange" => {
                    let a = self.one_square()?;
                    let b = self.one_square()?;
                    tw.changes.push(TwinChange::Exchange(a, b));
                }
                "remove" => {
                    for s in self.squares_arg()? {
                        tw.changes.push(TwinChange::Remove(s));
                    }
                }
                "shift" => {
                    let a = self.one_square()?;
                    let b = self.one_square()?;
                    tw.changes.push(TwinChange::Shift(a, b));
                }
                "add" => {
                    // Colours and pieces as in `Pieces` (`add white Kc7 black Qa8 Pb7`), up to the
                    // next token that is neither.
                    let mut color = None;
                    let read_before = (tw.changes.len(), p.unsupported.len());
                    while let Some(c) = self.peek().cloned() {
                        if let Some(k) = self.keyword(Category::Colour, &c.text, COLORS) {
                            color = Some(match COLORS[k] {
                                "white" => Color::White,
                                "black" => Color::Black,
                                _ => {
                                    p.unsupported.push("neutral pieces".into());
                                    Color::White
                                }
                            });
                            self.pos += 1;
                            continue;
                        }
                        let Some(color) = color else { return Err(self.err(Some(&c), "colour expected")) };
                        if let Some(a) = self.keyword(Category::Attribute, &c.text, ATTRIBUTES) {
                            p.unsupported.push(format!("twin add with piece attribute {}", ATTRIBUTES[a]));
                            self.pos += 1;
                            continue;
                        }
                        let Some((original, squares)) = split_piece_spec(&c.text) else {
                            if (tw.changes.len(), p.unsupported.len()) == read_before {
                                return Err(self.err(Some(&c), "piece expected"));
                            }
                            break;
                        };
                        let code = self.piece_code(&original);
                        match walk::kind_by_code(&code) {
                            Some(k) => {
                                for s in squares {
                                    tw.changes.push(TwinChange::Add(color, k, s));
                                }
                            }
                            None if walk::fairy_name(&code).is_some() => {
                                p.unsupported.push(format!("fairy piece {code}"))
                            }
                            // Not a piece: the next twin change or command.
                            None if self.is_command(&c).is_some() || self.is_twin_word(&c) => break,
                            None => return Err(self.err(Some(&c), format!("unknown piece '{original}'"))),
                        }
                        self.pos += 1;
                    }
                    if color.is_none() {
                        return Err(self.err(None, "colour expected"));
                    }
                }
                "substitute" => {
                    let a = self.kind_arg(p)?;
                    let b = self.kind_arg(p)?;
                    if let (Some(a), Some(b)) = (a, b) {
                        tw.changes.push(TwinChange::Substitute(a, b));
                    }
                }
                "rotate" => {
                    let n = self.number_arg()?;
                    if ![90, 180, 270].contains(&n) {
                        return Err(self.err(self.tokens.get(self.pos - 1), "rotation must be 90, 180 or 270"));
                    }
                    tw.changes.push(TwinChange::Rotate(n));
                }
                "mirror" => {
                    let Some(m) = self.peek().cloned() else { return Err(self.err(None, "mirror axis expected")) };
                    let axis = match m.text.to_ascii_lowercase().as_str() {
                        "a1<-->h1" => Mirror::A1H1,
                        "a1<-->a8" => Mirror::A1A8,
                        "a1<-->h8" => Mirror::A1H8,
                        "h1<-->a8" => Mirror::H1A8,
                        _ => {
                            return Err(
                                self.err(Some(&m), "mirror axis expected (a1<-->h1, a1<-->a8, a1<-->h8, h1<-->a8)")
                            )
                        }
                    };
                    self.pos += 1;
                    tw.changes.push(TwinChange::Mirror(axis));
                }
                "stipulation" => {
                    let Some(s) = self.stipulation_token() else { return Err(self.err(None, "stipulation missing")) };
                    match stipulation::parse(&s.text) {
                        Ok(st) => tw.changes.push(TwinChange::Stipulation(st)),
                        Err(StipError::Unsupported(m)) => p.unsupported.push(m),
                        Err(StipError::Syntax(m)) => return Err(self.err(Some(&s), m)),
                    }
                }
                other => {
                    // condition (only the Circe ones), polishtype, sstipulation, forsyth: not yet.
                    let mut words = vec![other.to_string()];
                    while let Some(n) = self.peek() {
                        // A piece code after a condition belongs to it (Chameleon Circe's
                        // sequence `s l t d s`), though `t` also abbreviates a command (`Titel`)
                        // and a twin word (`tausche`).
                        if !self.is_piece_code(n) && (self.is_command(n).is_some() || self.is_twin_word(n)) {
                            break;
                        }
                        words.push(lang::condition_word(self.lang, &n.text));
                        self.pos += 1;
                    }
                    match parse_conditions(&words[1..]) {
                        Some(c) if other == "condition" && words.len() > 1 => tw.changes.push(TwinChange::Condition(c)),
                        _ => p.unsupported.push(format!("twin {}", words.join(" "))),
                    }
                }
            }
        }
        if tw.changes.is_empty() && p.unsupported.len() == refused_before {
            return Err(self.err(self.tokens.get(self.pos.saturating_sub(1)), "twin without changes"));
        }
        Ok(tw)
    }

    fn one_square(&mut self) -> PResult<u8> {
        let Some(t) = self.peek().cloned() else { return Err(self.err(None, "square expected")) };
        let s = parse_square(&t.text).ok_or_else(|| self.err(Some(&t), "bad square"))?;
        self.pos += 1;
        Ok(s)
    }

    fn kind_arg(&mut self, p: &mut Problem) -> PResult<Option<Kind>> {
        let Some(t) = self.peek().cloned() else { return Err(self.err(None, "piece expected")) };
        self.pos += 1;
        let code = self.piece_code(&t.text);
        match walk::kind_by_code(&code) {
            Some(k) => Ok(Some(k)),
            None if walk::fairy_name(&code).is_some() => {
                p.unsupported.push(format!("fairy piece {code}"));
                Ok(None)
            }
            None => Err(self.err(Some(&t), format!("unknown piece '{}'", t.text))),
        }
    }
}

/// The supported conditions (case-insensitive): `Circe`, `ChameleonCirce` (= `Circe Chameleon`),
/// `CirceClone` (= `Circe Clone`), `MirrorCirce` (= `Circe Mirror`), `Madrasi`, `Isardam` and their
/// combinations; alone: `Breton`, `BGL w b` / `BGL n`, `ChameleonPursuit`, `AntiCirce` (plain, Calvet or Cheylan), `AntiSuperCirce`, `AntiCirce Cage`,
/// `TransmutedKings`, `Pepo`, `GhostChess`, `AndernachChess`, `AnnanChess` (type A), `Circe Parrain`,
/// `Circe RexInclusive` (plain, Mirror, Chameleon), `Imitator <squares>` (`NoIProm`), `BackHome`,
/// `CastlingChess`, `ExchangeCastling`, `DangerCirce`, `BiCaptures`, `CASTChess Inverse`, `AllInChess`, `FrankfurtChess`;
/// the move restrictions of [`parse_combined`] (Checkless, Maximummer, NoCapture, Hole) together.
/// `None` for anything else (another condition, an option or parameter we do not implement such
/// as `TypeB`, a condition above with one it does not combine with), which makes the problem
/// unsupported.
fn parse_conditions(words: &[String]) -> Option<Conditions> {
    if let Some(c) = parse_combined(words) {
        return c;
    }
    let first = words.first().map(|w| w.to_ascii_lowercase());
    let none = Conditions::NONE;
    // AntiCirce (plain, or Super: `AntiSuperCirce`, `AntiCirce Super`), Calvet (default) or
    // Cheylan.
    if let Some(w) = first.as_deref() {
        let anti_super = w.len() >= 7 && "antisupercirce".starts_with(w);
        if anti_super || w == "anticirce" {
            let (mut sup, mut cheylan, mut cage) = (anti_super, false, false);
            for o in &words[1..] {
                match o.to_ascii_lowercase().as_str() {
                    "super" => sup = true,
                    "cheylan" => cheylan = true,
                    "calvet" => cheylan = false,
                    "cage" => cage = true,
                    _ => return None,
                }
            }
            if cage {
                // AntiCirce Cage (Calvet); with Super or Cheylan: not supported yet.
                return (!sup && !cheylan).then_some(Conditions { anticirce: AntiCirce::Cage, ..none });
            }
            let a = match (sup, cheylan) {
                (true, true) => AntiCirce::SuperCheylan,
                (true, false) => AntiCirce::SuperCalvet,
                (false, true) => AntiCirce::Cheylan,
                (false, false) => AntiCirce::Calvet,
            };
            return Some(Conditions { anticirce: a, ..none });
        }
    }
    match first.as_deref() {
        Some("breton") if words.len() == 1 => return Some(Conditions { breton: true, ..none }),
        Some("transmutedkings") if words.len() == 1 => return Some(Conditions { transmuted_kings: true, ..none }),
        Some("pepo") if words.len() == 1 => return Some(Conditions { pepo: true, ..none }),
        Some("ghostchess") if words.len() == 1 => return Some(Conditions { ghost_chess: true, ..none }),
        // `AndernachChess`, or a unique prefix of it (`Andernach`).
        Some(w) if words.len() == 1 && w.len() >= 9 && "andernachchess".starts_with(w) => {
            return Some(Conditions { andernach: true, ..none })
        }
        // `AnnanChess` (a unique prefix: `Annan`), Popeye's default type A, also named (`TypeA`);
        // types B, C, D (kings excepted as annaniser or annanised) are not supported.
        Some(w) if w.len() >= 5 && "annanchess".starts_with(w) => {
            return match words.get(1).map(|t| t.to_ascii_lowercase()) {
                None => Some(Conditions { annan: true, ..none }),
                Some(t) if t == "typea" && words.len() == 2 => Some(Conditions { annan: true, ..none }),
                _ => None,
            };
        }
        // `Circe Parrain` (also `CirceParrain`), alone.
        Some("circe") if words.len() == 2 && words[1].eq_ignore_ascii_case("parrain") => {
            return Some(Conditions { parrain: true, ..none })
        }
        Some("circeparrain") if words.len() == 1 => return Some(Conditions { parrain: true, ..none }),
        // `SingleBox Type1` (types 2 and 3, and the type left out: not supported).
        Some("singlebox") if words.len() == 2 && words[1].eq_ignore_ascii_case("type1") => {
            return Some(Conditions { singlebox: true, ..none })
        }
        // `MarsCirce` and `AntiMarsCirce`, alone and without variants.
        Some("marscirce") if words.len() == 1 => return Some(Conditions { mars: Mars::Mars, ..none }),
        Some("antimarscirce") if words.len() == 1 => return Some(Conditions { mars: Mars::AntiMars, ..none }),
        // `Imitator <squares>` (several words allowed), optionally with `NoIProm`.
        Some("imitator") | Some("noiprom") => {
            let mut c = Conditions { ..none };
            for w in words {
                match w.to_ascii_lowercase().as_str() {
                    "imitator" => {}
                    "noiprom" => c.no_iprom = true,
                    w => {
                        for s in square_list(w)? {
                            if c.imitators.squares().contains(&s) || !c.imitators.push(s) {
                                return None;
                            }
                        }
                    }
                }
            }
            // NoIProm alone means nothing here.
            return (c.imitators.n > 0).then_some(c);
        }
        Some("backhome") if words.len() == 1 => return Some(Conditions { back_home: true, ..none }),
        // `FrankfurtChess` (a unique prefix from `frankf` on).
        Some(w) if words.len() == 1 && w.len() >= 6 && "frankfurtchess".starts_with(w) => {
            return Some(Conditions { frankfurt: true, ..none })
        }
        Some("allinchess") if words.len() == 1 => return Some(Conditions { all_in_chess: true, ..none }),
        Some("bicaptures") if words.len() == 1 => return Some(Conditions { bicaptures: true, ..none }),
        // `CASTChess Inverse` (also `CASTInverse`); plain CASTChess is not supported.
        Some("castchess") if words.len() == 2 && words[1].eq_ignore_ascii_case("inverse") => {
            return Some(Conditions { cast_inverse: true, ..none })
        }
        Some("castinverse") if words.len() == 1 => return Some(Conditions { cast_inverse: true, ..none }),
        // `DangerCirce` (a unique prefix from `danger` on).
        Some(w) if words.len() == 1 && w.len() >= 6 && "dangercirce".starts_with(w) => {
            return Some(Conditions { danger_circe: true, ..none })
        }
        // `CastlingChess` (`castling`: a unique prefix of Popeye's name; `CAST` and `CastInverse`
        // begin with `cast`) and `ExchangeCastling` (`exch`: `ExclusiveChess` begins with `exc`).
        Some(w) if words.len() == 1 && w.len() >= 5 && "castlingchess".starts_with(w) => {
            return Some(Conditions { castling_chess: true, ..none })
        }
        Some(w) if words.len() == 1 && w.len() >= 4 && "exchangecastling".starts_with(w) => {
            return Some(Conditions { exchange_castling: true, ..none })
        }
        // Popeye takes unique prefixes of condition names: `chameleonp` is the shortest here.
        Some(w) if words.len() == 1 && w.len() >= 10 && "chameleonpursuit".starts_with(w) => {
            return Some(Conditions { chameleon_pursuit: true, ..none })
        }
        Some("bgl") => {
            // `BGL w b` (a budget per side) or `BGL n` (one budget, paid by both sides).
            let w = bgl_value(words.get(1)?)?;
            return match words.get(2) {
                None => Some(Conditions { bgl: Bgl { on: true, global: true, left: [w, w] }, ..none }),
                Some(b) if words.len() == 3 => {
                    Some(Conditions { bgl: Bgl { on: true, global: false, left: [w, bgl_value(b)?] }, ..none })
                }
                _ => None,
            };
        }
        _ => {}
    }
    let mut circe = None;
    let mut variant = Circe::Plain;
    let mut paralysis = Paralysis::Off;
    let mut rex = false;
    for w in words {
        match w.to_ascii_lowercase().as_str() {
            // Kings are reborn too (Popeye's default for Circe is RexExclusive).
            "rexinclusive" => rex = true,
            "rexexclusive" if !rex => {}
            "madrasi" if paralysis == Paralysis::Off => paralysis = Paralysis::Madrasi,
            "isardam" if paralysis == Paralysis::Off => paralysis = Paralysis::Isardam,
            "circe" => circe = Some(()),
            "chameleoncirce" | "circechameleon" => {
                circe = Some(());
                variant = Circe::Chameleon;
            }
            "circeclone" => {
                circe = Some(());
                variant = Circe::Clone;
            }
            "mirrorcirce" | "circemirror" => {
                circe = Some(());
                variant = Circe::Mirror;
            }
            "mirror" if circe.is_some() && variant == Circe::Plain => variant = Circe::Mirror,
            "chameleon" if circe.is_some() && variant == Circe::Plain => variant = Circe::Chameleon,
            "clone" if circe.is_some() && variant == Circe::Plain => variant = Circe::Clone,
            _ => return None,
        }
    }
    // RexInclusive: with Circe (plain, Chameleon, Mirror) alone; with Clone (a king reborn
    // with the capturer's walk), Madrasi or Isardam (kings paralysed) not supported.
    if rex && (circe.is_none() || variant == Circe::Clone || paralysis != Paralysis::Off) {
        return None;
    }
    Some(Conditions { circe: circe.map_or(Circe::Off, |()| variant), circe_rex: rex, paralysis, ..none })
}

/// Conditions that combine because each restricts the moves on its own: `ChecklessChess` (or a
/// unique prefix from `checkl` on: Popeye also has CheckZigzag), `WhiteMaximummer`,
/// `BlackMaximummer`, `NoCapture`, `NoWhiteCapture`, `NoBlackCapture`, `CavalierMajeur`,
/// `Take&MakeChess` (a prefix from `take` on; only with Maximummer and Circe), `Hole <squares>` (also
/// `Holes`; several words of squares), one or more of them, alone or with a Circe (plain, Mirror,
/// Chameleon, Clone; not with holes, a rebirth square may be one, nor with CavalierMajeur). `None` when the words hold none of these; `Some(None)` when
/// they combine these with something else, which is not supported.
fn parse_combined(words: &[String]) -> Option<Option<Conditions>> {
    let mut c = Conditions::NONE;
    let mut rest = Vec::new();
    let mut groups = 0;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        i += 1;
        if w.len() >= 6 && "checklesschess".starts_with(&w) {
            c.checkless = true;
        } else if w == "whitemaximummer" {
            c.maximummer[0] = true;
        } else if w == "blackmaximummer" {
            c.maximummer[1] = true;
        } else if w.len() >= 4 && "take&makechess".starts_with(&w) {
            c.take_make = true;
        } else if w == "cavaliermajeur" {
            c.cavalier_majeur = true;
        } else if w == "nocapture" {
            c.no_capture = [true, true];
        } else if w == "nowhitecapture" {
            c.no_capture[0] = true;
        } else if w == "noblackcapture" {
            c.no_capture[1] = true;
        } else if w == "hole" || w == "holes" {
            let mut any = false;
            while let Some(squares) = words.get(i).and_then(|w| square_list(w)) {
                for s in squares {
                    c.holes.set(mysl_core::Square::from_index(s as u32));
                }
                any = true;
                i += 1;
            }
            if !any {
                return Some(None);
            }
        } else {
            rest.push(words[i - 1].clone());
            continue;
        }
        groups += 1;
    }
    if groups == 0 {
        return None;
    }
    // Take&Make: with Maximummer and Circe; Popeye refuses it with NoCapture, and the others
    // were not checked.
    if c.take_make && (c.checkless || c.no_capture != [false; 2] || c.cavalier_majeur || c.holes.0 != 0) {
        return Some(None);
    }
    if rest.is_empty() {
        return Some(Some(c));
    }
    // Circe of any supported kind (plain, Mirror, Chameleon, Clone), without RexInclusive, Madrasi
    // or Isardam: rebirths change neither these moves' lengths nor what checks.
    match parse_conditions(&rest) {
        Some(r)
            if c.holes.0 == 0
                && !c.cavalier_majeur
                && r.circe != Circe::Off
                && r == Conditions { circe: r.circe, ..Conditions::NONE } =>
        {
            Some(Some(Conditions { circe: r.circe, ..c }))
        }
        _ => Some(None),
    }
}

/// A list of squares written together (`d4e5`), if the word is one.
fn square_list(w: &str) -> Option<Vec<u8>> {
    if w.is_empty() || !w.is_ascii() || !w.len().is_multiple_of(2) {
        return None;
    }
    (0..w.len() / 2).map(|i| parse_square(&w[2 * i..2 * i + 2])).collect()
}

/// A BGL budget: `-` (unlimited) or a decimal number with at most two decimals, in hundredths.
fn bgl_value(w: &str) -> Option<i32> {
    if w == "-" {
        return Some(BGL_INFINITE);
    }
    let (int, frac) = w.split_once('.').unwrap_or((w, ""));
    if int.is_empty()
        || int.len() > 6
        || frac.len() > 2
        || !(int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let frac_val = match frac.len() {
        0 => 0,
        1 => frac.parse::<i32>().ok()? * 10,
        _ => frac.parse::<i32>().ok()?,
    };
    Some(int.parse::<i32>().ok()? * 100 + frac_val)
}

enum End {
    Next(usize),
    End,
}

/// Parses a file of problems. Each problem is parsed on its own: an error in one does not stop
/// the others. Never panics.
pub fn parse_problems(text: &str) -> Vec<Result<Problem, ParseError>> {
    let (tokens, lines) = tokenize(text);
    let mut parser = Parser { tokens: &tokens, lines: &lines, pos: 0, lang: Language::English, deferred: None };
    parser.file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_prefixes() {
        assert_eq!(match_keyword("stip", COMMANDS).map(|i| COMMANDS[i]), Some("stipulation"));
        assert_eq!(match_keyword("cond", COMMANDS).map(|i| COMMANDS[i]), Some("condition"));
        assert_eq!(match_keyword("pie", COMMANDS).map(|i| COMMANDS[i]), Some("pieces"));
        assert_eq!(match_keyword("t", COMMANDS), None);
        assert_eq!(match_keyword("Variations", OPTIONS).map(|i| OPTIONS[i]), Some("variation"));
        assert_eq!(match_keyword("vari", OPTIONS).map(|i| OPTIONS[i]), Some("variation"));
        assert_eq!(match_keyword("set", OPTIONS).map(|i| OPTIONS[i]), Some("setplay"));
        assert_eq!(match_keyword("wh", OPTIONS).map(|i| OPTIONS[i]), Some("whitetoplay"));
    }

    #[test]
    fn piece_specs() {
        assert_eq!(split_piece_spec("Pd4f2"), Some(("P".into(), vec![27, 13])));
        assert_eq!(split_piece_spec("NHb3"), Some(("NH".into(), vec![17])));
        assert_eq!(split_piece_spec("Black"), None);
    }
}
