//! Tables for chess variants (issue 23 §2): distance to mate (or to the variant's win) for every position of
//! a pawnless ending under the rules `R` of mysl-core, with no other program's tables to compare with.
//!
//! The generator is generic: it never encodes a variant's rules itself, it asks mysl-core for the legal moves
//! and the end of the game. It runs retrograde over an explicit predecessor graph (built from forward moves),
//! so the variants whose un-moves are not the reverse of their moves (Knight Relay, antichess's compulsory
//! captures) need no un-move generator. [`verify`] checks a finished table by a different route: every
//! position against the values of its successors one ply later.
//!
//! Index: `turn · 64ⁿ + Σ squareₖ · 64ⁿ⁻¹⁻ᵏ` over the pieces in table order (White's, then Black's, each from
//! king to knight); identical pieces stand on rising squares, and any other placement, two pieces on one
//! square or a position mysl-core rejects is not a position ([`INVALID`]). Values ([`Dtm`] as `i16`): 0 a
//! draw, `1 + d` a win in `d` plies for the side to move, `-1 - d` a loss in `d` plies. The fifty-move rule
//! is not applied (a DTM table, as Gaviota's).

use std::collections::HashMap;
use std::sync::Arc;

use mysl_core::fen::Setup;
use mysl_core::{Bitboard, Board, CastlingMode, Color, Move, Piece, Position, Role, Rules, Square, Variant};

use crate::pair;

mod symmetry;
use symmetry::Symmetry;

/// Not a position of the table.
pub const INVALID: i16 = i16::MIN;
/// Largest number of pieces (the table is `2 · 64ⁿ` entries).
pub const MAX_PIECES: usize = 4;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtm {
    Draw,
    /// Wins in this many plies (0: the game is already won, e.g. stalemated in antichess).
    Win(u16),
    /// Loses in this many plies (0: checkmated now).
    Loss(u16),
}

impl Dtm {
    pub fn to_i16(self) -> i16 {
        match self {
            Dtm::Draw => 0,
            Dtm::Win(d) => 1 + d as i16,
            Dtm::Loss(d) => -1 - d as i16,
        }
    }

    pub fn from_i16(v: i16) -> Option<Dtm> {
        match v {
            INVALID => None,
            0 => Some(Dtm::Draw),
            v if v > 0 => Some(Dtm::Win((v - 1) as u16)),
            v => Some(Dtm::Loss((-1 - v) as u16)),
        }
    }

    /// The value one ply earlier, for the side that moved into this position.
    pub fn parent(self) -> Dtm {
        match self {
            Dtm::Draw => Dtm::Draw,
            Dtm::Win(d) => Dtm::Loss(d + 1),
            Dtm::Loss(d) => Dtm::Win(d + 1),
        }
    }

    /// Orders values for the side to move: faster wins first, slower losses last.
    pub fn rank(self) -> i32 {
        match self {
            Dtm::Win(d) => 100_000 - d as i32,
            Dtm::Draw => 0,
            Dtm::Loss(d) => -100_000 + d as i32,
        }
    }

    /// The better of two values for the side to move.
    pub fn max(self, other: Dtm) -> Dtm {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

/// Errors of variant table generation and reading.
#[derive(Debug, thiserror::Error)]
pub enum VariantTbError {
    #[error("ending {0}: {1}")]
    Ending(String, String),
    #[error("{0}")]
    File(String),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// The pieces of an ending in table order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pieces(pub Vec<Piece>);

const ROLE_ORDER: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

fn role_char(r: Role) -> char {
    match r {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        Role::Knight => 'N',
        Role::Pawn => 'P',
    }
}

impl Pieces {
    /// Reads `KRvKN` (royal variants: one king a side) or `RvNN` (antichess: kings are ordinary pieces).
    pub fn parse<R: Rules>(name: &str) -> Result<Pieces, VariantTbError> {
        let err = |m: &str| VariantTbError::Ending(name.to_string(), m.to_string());
        let (w, b) = name.split_once(['v', 'V']).ok_or_else(|| err("expected WHITEvBLACK, e.g. KRvK"))?;
        let mut pieces = Vec::new();
        for (color, side) in [(Color::White, w), (Color::Black, b)] {
            let mut roles = Vec::new();
            for c in side.chars() {
                let role = ROLE_ORDER
                    .into_iter()
                    .find(|&r| role_char(r) == c.to_ascii_uppercase())
                    .ok_or_else(|| err(&format!("unknown piece letter '{c}'")))?;
                roles.push(role);
            }
            roles.sort_by_key(|r| ROLE_ORDER.iter().position(|x| x == r));
            if R::ROYAL_KING && roles.iter().filter(|&&r| r == Role::King).count() != 1 {
                return Err(err("each side needs exactly one king in this variant"));
            }
            pieces.extend(roles.into_iter().map(|role| Piece { color, role }));
        }
        if pieces.len() > MAX_PIECES {
            return Err(err(&format!("at most {MAX_PIECES} pieces")));
        }
        let one_sided =
            pieces.iter().all(|p| p.color == Color::Black) || pieces.iter().all(|p| p.color == Color::White);
        if !R::ROYAL_KING && one_sided {
            return Err(err("both sides need a piece (otherwise the game is over)"));
        }
        Ok(Pieces(pieces))
    }

    /// Every ending of `min..=max` pieces that has tables under `R` (royal variants: a king a side and the
    /// rest; antichess: any pieces, both sides at least one), smallest first, in name order.
    pub fn all<R: Rules>(min: usize, max: usize) -> Vec<Pieces> {
        let roles: &[Role] = if R::ROYAL_KING { &ROLE_ORDER[1..] } else { &ROLE_ORDER };
        // multisets of `k` roles, in ROLE_ORDER order
        fn sides(roles: &[Role], k: usize) -> Vec<Vec<Role>> {
            if k == 0 {
                return vec![Vec::new()];
            }
            let mut out = Vec::new();
            for (i, &r) in roles.iter().enumerate() {
                for mut rest in sides(&roles[i..], k - 1) {
                    rest.insert(0, r);
                    out.push(rest);
                }
            }
            out
        }
        let kings = if R::ROYAL_KING { 2 } else { 0 };
        let mut out = Vec::new();
        for n in min.max(2)..=max.min(MAX_PIECES) {
            let mut this = Vec::new();
            for w in 0..=n - kings {
                let b = n - kings - w;
                if !R::ROYAL_KING && (w == 0 || b == 0) {
                    continue;
                }
                for ws in sides(roles, w) {
                    for bs in sides(roles, b) {
                        let mut v = Vec::new();
                        for (color, side) in [(Color::White, &ws), (Color::Black, &bs)] {
                            if R::ROYAL_KING {
                                v.push(Piece { color, role: Role::King });
                            }
                            v.extend(side.iter().map(|&role| Piece { color, role }));
                        }
                        this.push(Pieces(v));
                    }
                }
            }
            this.sort_by_key(|p| p.name());
            out.extend(this);
        }
        out
    }

    /// Reads an ending's name without the rules' checks (a file's own name of its ending).
    fn parse_any(name: &str) -> Result<Pieces, VariantTbError> {
        let pieces = Pieces::parse::<mysl_core::Antichess>(name)?;
        Ok(pieces)
    }

    /// The pieces on a board, in table order.
    pub fn of_board(board: &Board) -> Pieces {
        let mut pieces = Vec::new();
        for color in Color::ALL {
            for role in ROLE_ORDER {
                let n = (board.by_color(color) & board.by_role(role)).count();
                pieces.extend((0..n).map(|_| Piece { color, role }));
            }
        }
        Pieces(pieces)
    }

    pub fn name(&self) -> String {
        let side = |c: Color| self.0.iter().filter(|p| p.color == c).map(|p| role_char(p.role)).collect::<String>();
        format!("{}v{}", side(Color::White), side(Color::Black))
    }

    fn size(&self) -> usize {
        2 << (6 * self.0.len())
    }

    /// The index of a position of these pieces (its board must hold exactly them).
    fn index_of(&self, board: &Board, turn: Color) -> usize {
        let mut idx = turn as usize;
        let mut k = 0;
        while k < self.0.len() {
            let p = self.0[k];
            let squares = board.by_color(p.color) & board.by_role(p.role);
            for sq in squares {
                idx = idx * 64 + sq as usize;
                k += 1;
            }
        }
        idx
    }

    /// The squares and side to move of index `idx`, if they form a placement in table order.
    fn decode(&self, idx: usize) -> Option<(Board, Color)> {
        let n = self.0.len();
        let mut board = Board::empty();
        let mut occupied = Bitboard::EMPTY;
        let mut prev: Option<(Piece, u32)> = None;
        for k in 0..n {
            let sq = ((idx >> (6 * (n - 1 - k))) & 63) as u32;
            let p = self.0[k];
            if let Some((q, s)) = prev {
                if q == p && s >= sq {
                    return None;
                }
            }
            let square = Square::new(sq).expect("a square below 64");
            if occupied.contains(square) {
                return None;
            }
            occupied |= square;
            board.set_piece_at(square, Some(p));
            prev = Some((p, sq));
        }
        let turn = if idx >> (6 * n) == 0 { Color::White } else { Color::Black };
        Some((board, turn))
    }
}

/// The position of `board` with `turn` to move, if mysl-core accepts it under `R`.
fn position<R: Rules>(board: Board, turn: Color) -> Option<Position<R>> {
    let setup = Setup { board, turn, castling_rooks: Bitboard::EMPTY, ..Setup::standard() };
    Position::from_setup(setup, CastlingMode::Standard).ok()
}

/// The end of the game in `pos`, as a value for its side to move (the fifty-move rule and insufficient
/// material are not applied: a table plays on).
pub fn terminal<R: Rules>(pos: &Position<R>) -> Option<Dtm> {
    if let Some(o) = pos.variant_outcome() {
        return Some(match o.winner() {
            Some(w) if w == pos.turn() => Dtm::Win(0),
            Some(_) => Dtm::Loss(0),
            None => Dtm::Draw,
        });
    }
    if pos.has_legal_moves() {
        return None;
    }
    Some(if !R::ROYAL_KING {
        Dtm::Win(0)
    } else if pos.is_check() {
        Dtm::Loss(0)
    } else {
        Dtm::Draw
    })
}

/// A finished table.
#[derive(Clone, Debug)]
pub struct VariantTable {
    pub variant: Variant,
    pub pieces: Pieces,
    values: Vec<i16>,
}

impl VariantTable {
    pub fn name(&self) -> String {
        self.pieces.name()
    }

    /// Entries (both sides to move, positions or not).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The raw value at an index ([`INVALID`] where no position).
    pub fn value_at(&self, idx: usize) -> i16 {
        self.values[idx]
    }

    /// The value of a position of this ending.
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<Dtm> {
        if Pieces::of_board(pos.board()) != self.pieces {
            return None;
        }
        Dtm::from_i16(self.values[self.pieces.index_of(pos.board(), pos.turn())])
    }

    /// Counts of (wins, draws, losses) for the side to move, over the positions.
    pub fn counts(&self) -> (u64, u64, u64) {
        let mut c = (0, 0, 0);
        for &v in &self.values {
            match Dtm::from_i16(v) {
                Some(Dtm::Win(_)) => c.0 += 1,
                Some(Dtm::Draw) => c.1 += 1,
                Some(Dtm::Loss(_)) => c.2 += 1,
                None => {}
            }
        }
        c
    }

    /// The longest win (plies) and one position index where it occurs.
    pub fn longest_win(&self) -> Option<(u16, usize)> {
        let mut best: Option<(u16, usize)> = None;
        for (i, &v) in self.values.iter().enumerate() {
            if let Some(Dtm::Win(d)) = Dtm::from_i16(v) {
                if best.is_none_or(|(b, _)| d > b) {
                    best = Some((d, i));
                }
            }
        }
        best
    }

    /// A FEN of the position at `idx`.
    pub fn fen_at<R: Rules>(&self, idx: usize) -> Option<String> {
        let (board, turn) = self.pieces.decode(idx)?;
        position::<R>(board, turn).map(|p| p.fen())
    }
}

/// Generates the tables of a variant, each once (the endings a capture leads to first), keeping them.
pub struct VariantGenerator<R: Rules> {
    tables: HashMap<Pieces, Arc<VariantTable>>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> std::fmt::Debug for VariantGenerator<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VariantGenerator").field("variant", &R::VARIANT).field("tables", &self.tables.len()).finish()
    }
}

impl<R: Rules> Default for VariantGenerator<R> {
    fn default() -> Self {
        VariantGenerator { tables: HashMap::new(), _rules: std::marker::PhantomData }
    }
}

/// What one forward step from a position gives: a position of the same ending (by index), the value of a
/// position after a capture or promotion (from a smaller table), or a position of the same ending with an
/// en-passant capture to make (by index, and the best value for its side to move of its e.p. captures).
enum Step {
    Same(usize),
    Known(Dtm),
    EnPassant(usize, Dtm),
}

/// The roles a pawn may promote to under `R`.
fn promotion_roles<R: Rules>() -> Vec<Role> {
    let mut v = vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    if !R::ROYAL_KING {
        v.push(Role::King);
    }
    v
}

/// The best value for the side to move of `pos`'s en-passant captures (`None`: it has none), each valued by
/// `value` (the position after the capture, for its side to move).
pub fn en_passant_value<R: Rules, E>(
    pos: &mut Position<R>,
    value: &mut dyn FnMut(&Position<R>) -> Result<Dtm, E>,
) -> Result<Option<Dtm>, E> {
    let mut best: Option<Dtm> = None;
    for mv in pos.legal_moves().iter() {
        if !mv.is_en_passant() {
            continue;
        }
        pos.play_unchecked(mv);
        let v = value(pos);
        pos.unplay(mv);
        let v = v?.parent();
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    Ok(best)
}

impl<R: Rules> VariantGenerator<R> {
    /// Every table generated so far, smallest endings first.
    pub fn tables(&self) -> Vec<Arc<VariantTable>> {
        let mut v: Vec<Arc<VariantTable>> = self.tables.values().cloned().collect();
        v.sort_by_key(|t| (t.pieces.0.len(), t.name()));
        v
    }

    /// Every ending that generating `targets` needs (they and what they convert into), each after the
    /// endings it needs.
    pub fn plan(targets: &[Pieces]) -> Vec<Pieces> {
        fn visit<R: Rules>(p: &Pieces, out: &mut Vec<Pieces>) {
            if out.contains(p) {
                return;
            }
            for sub in VariantGenerator::<R>::successors(p) {
                visit::<R>(&sub, out);
            }
            out.push(p.clone());
        }
        let mut out = Vec::new();
        for t in targets {
            visit::<R>(t, &mut out);
        }
        out
    }

    /// Adds a table read from a file (a resumed run does not generate it again).
    pub fn insert(&mut self, table: VariantTable) -> Result<(), VariantTbError> {
        if table.variant != R::VARIANT {
            return Err(VariantTbError::Ending(table.name(), format!("a {} table, not {}", table.variant, R::VARIANT)));
        }
        self.tables.insert(table.pieces.clone(), Arc::new(table));
        Ok(())
    }

    /// The table of an ending, if generated or inserted.
    pub fn get(&self, pieces: &Pieces) -> Option<Arc<VariantTable>> {
        self.tables.get(pieces).cloned()
    }

    /// The endings a move can lead to: a piece captured, a pawn promoted, or both at once.
    fn successors(pieces: &Pieces) -> Vec<Pieces> {
        let sorted = |mut v: Vec<Piece>| {
            v.sort_by_key(|p| (p.color as u8, ROLE_ORDER.iter().position(|&r| r == p.role)));
            Pieces(v)
        };
        let both_sides = |v: &Pieces| {
            Color::ALL.into_iter().all(|c| v.0.iter().any(|p| p.color == c))
                && (!R::ROYAL_KING || v.0.iter().filter(|p| p.role == Role::King).count() == 2)
        };
        let mut out: Vec<Pieces> = Vec::new();
        let n = pieces.0.len();
        for k in 0..=n {
            // k < n: piece k is captured; k == n: nothing is
            let mut base = pieces.0.clone();
            if k < n {
                base.remove(k);
            }
            let mut cands = vec![sorted(base.clone())];
            for (j, p) in base.iter().enumerate() {
                if p.role == Role::Pawn && (k == n || pieces.0[k].color != p.color) {
                    for role in promotion_roles::<R>() {
                        let mut v = base.clone();
                        v[j] = Piece { color: p.color, role };
                        cands.push(sorted(v));
                    }
                }
            }
            for c in cands {
                if c != *pieces && both_sides(&c) && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The table of `pieces`, generated (with every smaller table it needs) unless already known.
    /// `progress` is told each ending as it starts.
    pub fn table(
        &mut self,
        pieces: &Pieces,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Arc<VariantTable>, VariantTbError> {
        if let Some(t) = self.tables.get(pieces) {
            return Ok(t.clone());
        }
        for sub in Self::successors(pieces) {
            if !self.tables.contains_key(&sub) {
                self.table(&sub, progress)?;
            }
        }
        progress(&pieces.name());
        let t = Arc::new(self.solve(pieces)?);
        self.tables.insert(pieces.clone(), t.clone());
        Ok(t)
    }

    /// The value of a position after a capture or a promotion (a smaller ending, or the end of the game).
    fn known(&self, child: &mut Position<R>) -> Result<Dtm, VariantTbError> {
        if let Some(v) = terminal(child) {
            return Ok(v);
        }
        let pieces = Pieces::of_board(child.board());
        let t = self.tables.get(&pieces).ok_or_else(|| {
            VariantTbError::Ending(pieces.name(), "a move leads to an ending that was not generated".into())
        })?;
        let stored = t.probe(child).ok_or_else(|| {
            VariantTbError::Ending(pieces.name(), "a position reached by a move is not in the table".into())
        })?;
        let ep = en_passant_value(child, &mut |p| self.known(&mut p.clone()))?;
        Ok(ep.map_or(stored, |e| e.max(stored)))
    }

    /// The forward steps of `pos` (not at the end of the game).
    fn steps(
        &self,
        pos: &mut Position<R>,
        pieces: &Pieces,
        sym: &Symmetry,
        out: &mut Vec<Step>,
    ) -> Result<(), VariantTbError> {
        out.clear();
        let n = pieces.0.len() as u32;
        for mv in pos.legal_moves().iter() {
            // only a pawn's double step can give an en-passant capture
            let double_step = pos.board().role_at(mv.from()) == Some(Role::Pawn)
                && (mv.from() as i32 / 8 - mv.to() as i32 / 8).abs() == 2;
            pos.play_unchecked(mv);
            let step = if pos.board().occupied().count() == n && mv.promotion().is_none() {
                let j = sym.canonical(pieces.index_of(pos.board(), pos.turn()));
                let ep =
                    if double_step { en_passant_value(pos, &mut |p| self.known(&mut p.clone())) } else { Ok(None) };
                match ep {
                    Ok(Some(f)) => Ok(Step::EnPassant(j, f)),
                    Ok(None) => Ok(Step::Same(j)),
                    Err(e) => Err(e),
                }
            } else {
                self.known(pos).map(Step::Known)
            };
            pos.unplay(mv);
            out.push(step?);
        }
        Ok(())
    }

    fn solve(&self, pieces: &Pieces) -> Result<VariantTable, VariantTbError> {
        let size = pieces.size();
        let sym = Symmetry::new::<R>(pieces);
        // entries `size..`: positions of the ending with an en-passant capture to make (not stored), one per
        // (placement, value of the captures)
        let mut ep_nodes: HashMap<(u32, i16), u32> = HashMap::new();
        let mut ep_floor: Vec<Dtm> = Vec::new();
        let mut ep_links: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut values = vec![INVALID; size];
        // per position: same-ending successors not decided yet, the best value of those decided for the side
        // to move, and whether a decided one is a draw
        let mut open = vec![0u16; size];
        let mut best = vec![Dtm::Loss(0).to_i16(); size];
        let mut draw_floor = vec![false; size];
        let mut pending: Vec<Vec<(u32, i16)>> = Vec::new();
        let push = |pending: &mut Vec<Vec<(u32, i16)>>, i: usize, v: Dtm| {
            let level = match v {
                Dtm::Win(d) | Dtm::Loss(d) => d as usize,
                Dtm::Draw => unreachable!("draws are not scheduled"),
            };
            if pending.len() <= level {
                pending.resize(level + 1, Vec::new());
            }
            pending[level].push((i as u32, v.to_i16()));
        };
        // pass 1: terminal positions, captures, predecessor counts
        let mut pred_count = vec![0u32; size];
        let mut steps = Vec::new();
        for i in 0..size {
            let Some((board, turn)) = pieces.decode(i) else { continue };
            if sym.canonical(i) != i {
                // valid if its class's smallest index is; the value is copied from there at the end
                values[i] = IMAGE;
                continue;
            }
            let Some(mut pos) = position::<R>(board, turn) else { continue };
            values[i] = UNDECIDED;
            if let Some(v) = terminal(&pos) {
                if v == Dtm::Draw {
                    values[i] = 0;
                } else {
                    push(&mut pending, i, v);
                }
                continue;
            }
            self.steps(&mut pos, pieces, &sym, &mut steps)?;
            let mut b = Dtm::Loss(0);
            let mut same = 0u16;
            for s in &steps {
                match *s {
                    Step::Same(j) => {
                        same += 1;
                        pred_count[j] += 1;
                    }
                    Step::EnPassant(j, f) => {
                        let x = *ep_nodes.entry((j as u32, f.to_i16())).or_insert_with(|| {
                            ep_floor.push(f);
                            ep_links.entry(j as u32).or_default().push((size + ep_floor.len() - 1) as u32);
                            (size + ep_floor.len() - 1) as u32
                        });
                        same += 1;
                        if pred_count.len() <= x as usize {
                            pred_count.resize(x as usize + 1, 0);
                        }
                        pred_count[x as usize] += 1;
                    }
                    Step::Known(v) => b = b.max(v.parent()),
                }
            }
            draw_floor[i] = b == Dtm::Draw;
            best[i] = b.to_i16();
            open[i] = same;
            if let Dtm::Win(_) = b {
                push(&mut pending, i, b);
            } else if same == 0 {
                if b == Dtm::Draw {
                    values[i] = 0;
                } else {
                    push(&mut pending, i, b);
                }
            }
        }
        let total = size + ep_floor.len();
        values.resize(total, UNDECIDED);
        pred_count.resize(total, 0);
        for (k, &f) in ep_floor.iter().enumerate() {
            // an e.p. node wins at least as fast as its best capture; otherwise it follows its placement
            if let Dtm::Win(_) = f {
                push(&mut pending, size + k, f);
            }
        }
        // predecessor lists (CSR): pass 2 repeats the forward steps
        let mut start = vec![0u32; total + 1];
        let mut acc = 0u64;
        for i in 0..total {
            start[i] = acc as u32;
            acc += pred_count[i] as u64;
        }
        start[total] = acc as u32;
        if acc > u32::MAX as u64 {
            return Err(VariantTbError::Ending(pieces.name(), "too many moves for one table".into()));
        }
        drop(pred_count);
        let mut fill = start.clone();
        let mut preds = vec![0u32; acc as usize];
        for i in 0..size {
            if values[i] == INVALID || values[i] == IMAGE || open[i] == 0 {
                continue;
            }
            let (board, turn) = pieces.decode(i).expect("decoded in pass 1");
            let mut pos = position::<R>(board, turn).expect("accepted in pass 1");
            self.steps(&mut pos, pieces, &sym, &mut steps)?;
            for s in &steps {
                let (j, target) = match *s {
                    Step::Same(j) => (j, j),
                    Step::EnPassant(j, f) => (j, ep_nodes[&(j as u32, f.to_i16())] as usize),
                    Step::Known(_) => continue,
                };
                if values[j] == INVALID || values[j] == IMAGE {
                    return Err(VariantTbError::Ending(
                        pieces.name(),
                        format!("a move leads to index {j}, which mysl-core does not accept as a position"),
                    ));
                }
                preds[fill[target] as usize] = i as u32;
                fill[target] += 1;
            }
        }
        drop(fill);
        // retrograde, level by level: a position decided at level d has its value in d plies
        let mut level = 0;
        while level < pending.len() {
            while let Some((i, v)) = pending[level].pop() {
                let i = i as usize;
                if values[i] != UNDECIDED {
                    continue;
                }
                values[i] = v;
                let child = Dtm::from_i16(v).expect("a value");
                // e.p. nodes of this placement: the better of their captures and this value
                if let Some(xs) = ep_links.get(&(i as u32)) {
                    for &x in xs {
                        let x = x as usize;
                        if values[x] != UNDECIDED {
                            continue;
                        }
                        match (ep_floor[x - size], child) {
                            (_, Dtm::Win(_)) => push(&mut pending, x, ep_floor[x - size].max(child)),
                            (Dtm::Loss(_), Dtm::Loss(_)) => push(&mut pending, x, ep_floor[x - size].max(child)),
                            _ => {}
                        }
                    }
                }
                let for_parent = child.parent();
                for &p in &preds[start[i] as usize..start[i + 1] as usize] {
                    let p = p as usize;
                    if values[p] != UNDECIDED {
                        continue;
                    }
                    open[p] -= 1;
                    let b = Dtm::from_i16(best[p]).expect("a value").max(for_parent);
                    best[p] = b.to_i16();
                    match for_parent {
                        Dtm::Win(_) => push(&mut pending, p, for_parent),
                        _ if open[p] == 0 && !draw_floor[p] => push(&mut pending, p, b),
                        _ => {}
                    }
                }
            }
            level += 1;
        }
        values.truncate(size);
        for v in values.iter_mut() {
            if *v == UNDECIDED {
                *v = 0;
            }
        }
        // the images take their class's value (the smallest index of a class comes first)
        for i in 0..size {
            if values[i] == IMAGE {
                values[i] = values[sym.canonical(i)];
            }
        }
        Ok(VariantTable { variant: R::VARIANT, pieces: pieces.clone(), values })
    }
}

/// A position not decided yet during generation.
const UNDECIDED: i16 = i16::MIN + 1;
/// During generation: a placement whose value is its symmetry class's (copied at the end).
const IMAGE: i16 = i16::MIN + 2;

/// Checks every position of `table` against its successors one ply later (the values of the same table, of
/// the smaller tables in `generator`, and the end of the game by mysl-core), independently of the
/// retrograde generation: a win in d has a successor lost in d − 1 and none lost sooner; a loss in d has
/// only won successors, the slowest in d − 1; a draw has no lost successor and a drawn one (or is
/// stalemate). Returns the number of positions checked, or the first position that fails.
pub fn verify<R: Rules>(table: &VariantTable, generator: &VariantGenerator<R>) -> Result<u64, String> {
    // the index range in one chunk per core; the first failure by index is reported
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let chunk = table.len().div_ceil(threads);
    let results: Vec<Result<u64, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = t * chunk..((t + 1) * chunk).min(table.len());
                s.spawn(move || verify_range(table, generator, range))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a verifier thread panicked")).collect()
    });
    results.into_iter().sum()
}

fn verify_range<R: Rules>(
    table: &VariantTable,
    generator: &VariantGenerator<R>,
    range: std::ops::Range<usize>,
) -> Result<u64, String> {
    let pieces = &table.pieces;
    let n = pieces.0.len() as u32;
    let mut checked = 0u64;
    for i in range {
        let decoded = pieces.decode(i).and_then(|(b, t)| position::<R>(b, t));
        let Some(mut pos) = decoded else {
            if table.values[i] != INVALID {
                return Err(format!("index {i} holds a value but is not a position"));
            }
            continue;
        };
        let stored = Dtm::from_i16(table.values[i]).ok_or_else(|| format!("{}: no value", pos.fen()))?;
        let expected = match terminal(&pos) {
            Some(v) => v,
            None => {
                let mut best: Option<Dtm> = None;
                for mv in pos.legal_moves().iter() {
                    let double_step = pos.board().role_at(mv.from()) == Some(Role::Pawn)
                        && (mv.from() as i32 / 8 - mv.to() as i32 / 8).abs() == 2;
                    pos.play_unchecked(mv);
                    // same ending: its stored value (checked at its own index, the end of the game included),
                    // and its en-passant captures, which only a double step allows
                    let v = if pos.board().occupied().count() == n && mv.promotion().is_none() {
                        let stored = Dtm::from_i16(table.values[pieces.index_of(pos.board(), pos.turn())])
                            .ok_or_else(|| format!("a successor ({}) has no value", pos.fen()));
                        match stored {
                            Ok(s) if double_step => {
                                en_passant_value(&mut pos, &mut |p| successor_value(table, generator, &mut p.clone()))
                                    .map(|e| e.map_or(s, |e| e.max(s)))
                            }
                            other => other,
                        }
                    } else {
                        successor_value(table, generator, &mut pos)
                    };
                    pos.unplay(mv);
                    let v = v.map_err(|e| format!("{}: {e}", pos.fen()))?.parent();
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
                best.expect("not terminal: a legal move")
            }
        };
        if stored != expected {
            return Err(format!("{}: stored {stored:?}, its successors give {expected:?}", pos.fen()));
        }
        checked += 1;
    }
    Ok(checked)
}

/// The value of a successor for the verifier: the end of the game, or the stored value of its placement
/// (this table or a smaller one) and its en-passant captures, the better.
fn successor_value<R: Rules>(
    table: &VariantTable,
    generator: &VariantGenerator<R>,
    pos: &mut Position<R>,
) -> Result<Dtm, String> {
    if let Some(v) = terminal(pos) {
        return Ok(v);
    }
    let pieces = Pieces::of_board(pos.board());
    let stored = if pieces == table.pieces {
        table.probe(pos)
    } else {
        generator.tables.get(&pieces).and_then(|t| t.probe(pos))
    };
    let stored = stored.ok_or_else(|| format!("a successor ({}) has no value", pos.fen()))?;
    let ep = en_passant_value(pos, &mut |p| successor_value(table, generator, &mut p.clone()))?;
    Ok(ep.map_or(stored, |e| e.max(stored)))
}

/// File magic of a variant table.
pub const MAGIC: &[u8; 8] = b"MYSLVTB\n";
pub const VERSION: u32 = 1;

/// File name of an ending of a variant in a directory: `<dir>/<variant>/<ending>.vtb`.
pub fn path_for(dir: &std::path::Path, variant: Variant, pieces: &Pieces) -> std::path::PathBuf {
    dir.join(variant.name()).join(format!("{}.vtb", pieces.name()))
}

/// The file bytes of a table: magic, version, variant and ending names (16 bytes each, NUL-padded), entries
/// (`u64`), the pair-coded values (invalid entries as the value before them), CRC-32 of all before.
pub fn to_bytes(table: &VariantTable) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = |s: &str| {
        let mut b = [0u8; 16];
        b[..s.len()].copy_from_slice(s.as_bytes());
        out.extend_from_slice(&b);
    };
    name(table.variant.name());
    name(&table.name());
    out.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    let mut last = 0i16;
    let filled: Vec<i16> = table
        .values
        .iter()
        .map(|&v| {
            if v != INVALID {
                last = v;
            }
            last
        })
        .collect();
    let coded = pair::encode(filled, 6..=10).expect("DTM values fit the pair coder's symbols");
    out.extend_from_slice(&coded);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Writes a table to its file under `dir` (through a temporary file, renamed when complete).
pub fn write(dir: &std::path::Path, table: &VariantTable) -> Result<std::path::PathBuf, VariantTbError> {
    let path = path_for(dir, table.variant, &table.pieces);
    let io = |e| VariantTbError::Io(path.display().to_string(), e);
    std::fs::create_dir_all(path.parent().expect("a directory")).map_err(io)?;
    let tmp = path.with_extension("vtb.tmp");
    std::fs::write(&tmp, to_bytes(table)).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

/// Reads a table file (checked whole: magic, version, names, CRC, the coded stream), entries that are not
/// positions marked [`INVALID`].
pub fn from_bytes<R: Rules>(bytes: &[u8]) -> Result<VariantTable, VariantTbError> {
    let mut t = parse_file(bytes, Some(R::VARIANT))?;
    Pieces::parse::<R>(&t.pieces.name())?;
    for (i, v) in t.values.iter_mut().enumerate() {
        if t.pieces.decode(i).and_then(|(b, t)| position::<R>(b, t)).is_none() {
            *v = INVALID;
        }
    }
    Ok(t)
}

/// Parses a table file without marking the entries that are not positions (they hold their neighbours'
/// values): for probing positions known to be legal, as the engine's search does.
pub fn parse_file(bytes: &[u8], expect: Option<Variant>) -> Result<VariantTable, VariantTbError> {
    let bad = |m: &str| VariantTbError::File(m.to_string());
    let head = 8 + 4 + 16 + 16 + 8;
    if bytes.len() < head + 4 {
        return Err(bad("truncated variant table file"));
    }
    if &bytes[..8] != MAGIC {
        return Err(bad("not a mysl variant table (bad magic)"));
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body) != u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]) {
        return Err(bad("CRC mismatch (damaged file)"));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(bad(&format!("variant table version {version}, this build reads {VERSION}")));
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim_end_matches('\0').to_string();
    let name = text(&bytes[12..28]);
    let variant = Variant::from_name(&name).ok_or_else(|| bad(&format!("unknown variant '{name}'")))?;
    if let Some(e) = expect {
        if e != variant {
            return Err(bad(&format!("a {variant} table, not {e}")));
        }
    }
    let pieces = Pieces::parse_any(&text(&bytes[28..44]))?;
    let size = u64::from_le_bytes(bytes[44..52].try_into().expect("8 bytes"));
    if size != pieces.size() as u64 {
        return Err(bad("entry count does not match the ending"));
    }
    let stream = pair::PairStream::parse(body, head, body.len(), size).map_err(|e| bad(&e))?;
    let mut values = Vec::with_capacity(size as usize);
    let mut block = Vec::new();
    for b in 0..stream.blocks() {
        stream.decode_block(body, b, &mut block).map_err(bad)?;
        values.extend_from_slice(&block);
    }
    if values.len() as u64 != size {
        return Err(bad("the coded stream does not hold every entry"));
    }
    Ok(VariantTable { variant, pieces, values })
}

/// Material of a board as a key: 4 bits per (colour, role).
#[inline]
fn material_key(board: &Board) -> u64 {
    let mut key = 0u64;
    for (c, color) in Color::ALL.into_iter().enumerate() {
        for (r, role) in ROLE_ORDER.into_iter().enumerate() {
            let n = (board.by_color(color) & board.by_role(role)).count() as u64;
            key |= n.min(15) << (4 * (c * 6 + r));
        }
    }
    key
}

/// The variant tables of one variant, for the engine: every `.vtb` file of a directory, decoded into memory.
#[derive(Debug, Default)]
pub struct VariantTablebase {
    pub variant: Option<Variant>,
    tables: HashMap<u64, VariantTable>,
    max_pieces: usize,
}

impl VariantTablebase {
    /// Reads every `<ending>.vtb` of `dir` (a `DIR/<variant>` directory of `mysl tb gen --variant`).
    pub fn open_dir(dir: &std::path::Path, variant: Variant) -> Result<VariantTablebase, VariantTbError> {
        let io = |e| VariantTbError::Io(dir.display().to_string(), e);
        let mut tb = VariantTablebase { variant: Some(variant), ..Default::default() };
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "vtb"))
            .collect();
        names.sort();
        for path in names {
            let bytes = std::fs::read(&path).map_err(|e| VariantTbError::Io(path.display().to_string(), e))?;
            let t = parse_file(&bytes, Some(variant))
                .map_err(|e| VariantTbError::File(format!("{}: {e}", path.display())))?;
            let mut board = Board::empty();
            for (k, p) in t.pieces.0.iter().enumerate() {
                board.set_piece_at(Square::new(k as u32).expect("a square"), Some(*p));
            }
            tb.max_pieces = tb.max_pieces.max(t.pieces.0.len());
            tb.tables.insert(material_key(&board), t);
        }
        Ok(tb)
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The value of a legal position with no castling rights and no en-passant capture, if its ending is here.
    /// No allocation.
    #[inline]
    pub fn probe(&self, board: &Board, turn: Color) -> Option<Dtm> {
        let t = self.tables.get(&material_key(board))?;
        Dtm::from_i16(t.values[t.pieces.index_of(board, turn)])
    }
}

impl VariantTable {
    /// A table from raw values (index order as [`VariantTable::value_at`]); for tests of the verifier.
    pub fn from_values(variant: Variant, pieces: Pieces, values: Vec<i16>) -> VariantTable {
        VariantTable { variant, pieces, values }
    }
}

impl VariantTablebase {
    /// The value of a position of the variant `R` and of each legal move (for the side that makes it), best
    /// first: what `mysl tb probe --variant` and the web UI's panel show. The position's own value is taken
    /// from its moves (so an en-passant capture its FEN allows counts); a successor with an e.p. capture of its
    /// own is valued the same way, one ply deeper. Errors name what is missing.
    pub fn probe_root<R: Rules>(&self, pos: &Position<R>) -> Result<(Dtm, Vec<(Move, Dtm)>), String> {
        if pos.castling().has_any(Color::White) || pos.castling().has_any(Color::Black) {
            return Err("the tables do not cover positions with castling rights".into());
        }
        let mut pos = pos.clone();
        let stored = self.value_after_moves(&mut pos, 1)?;
        let mut moves = Vec::new();
        for mv in pos.legal_moves().iter() {
            pos.play_unchecked(mv);
            let v = self.value_after_moves(&mut pos, 1);
            pos.unplay(mv);
            moves.push((mv, v?.parent()));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1.rank()));
        let root = terminal(&pos).or(moves.first().map(|m| m.1)).unwrap_or(stored);
        Ok((root, moves))
    }

    /// The end of the game, or the stored value (with the e.p. captures, `depth` plies deep at most).
    fn value_after_moves<R: Rules>(&self, pos: &mut Position<R>, depth: u32) -> Result<Dtm, String> {
        if let Some(v) = terminal(pos) {
            return Ok(v);
        }
        let stored = self.probe(pos.board(), pos.turn()).ok_or_else(|| {
            format!(
                "no {} table for {} (generate it with `mysl tb gen --variant {} {} --dir DIR`)",
                R::VARIANT,
                pos.fen(),
                R::VARIANT,
                Pieces::of_board(pos.board()).name()
            )
        })?;
        if pos.ep_square().is_none() || depth == 0 {
            return Ok(stored);
        }
        let ep = en_passant_value(pos, &mut |p| self.value_after_moves(&mut p.clone(), depth - 1))?;
        Ok(ep.map_or(stored, |e| e.max(stored)))
    }
}
