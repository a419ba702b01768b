//! One front for our own tables (`*.mtb`) and Syzygy files (`*.rtbw`, `*.rtbz`): what the engine and
//! `mysl tb probe` ask. Positions come in as the rules core's types (board, side to move, en passant
//! square); no shakmaty type shows outside this module.
//!
//! Values are from the side to move's view and in Syzygy's conventions: WDL -2..2 (loss, blessed loss,
//! draw, cursed win, win) assuming the 50-move counter is 0, DTZ (plies to the next zeroing move, signed),
//! and DTM (plies to mate, python-chess's Gaviota sign) when our tables have it. Our tables are asked first
//! when both have the ending.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mysl_core::{Board, Color, Move, Position, Role, Rules, Square, Variant};
use shakmaty::FromSetup as _;

use crate::material::Material;
use crate::pos::TbPos;
use crate::probe::{ProbeResult, Tablebase};
use crate::TbError;

/// Which tables answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbSource {
    Mysl,
    Syzygy,
}

/// Values of a position for the side to move, its 50-move counter taken as 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbValue {
    /// -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
    pub wdl: i8,
    /// Syzygy's DTZ (plies, negative when losing); `None` when only a WDL file was found.
    pub dtz: Option<i32>,
    /// Plies to mate (positive: the side to move mates); only from our tables.
    pub dtm: Option<i32>,
    pub source: TbSource,
}

/// A legal root move with the values it gives the mover (as `mysl tb probe` prints them).
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub uci: String,
    /// A capture or pawn move.
    pub zeroing: bool,
    /// The mover's WDL of the position when playing this move, counter 0 before it.
    pub wdl: i8,
    /// Plies from the root to the next zeroing move (Syzygy sign; 1 for a mate or winning zeroing move).
    pub dtz: i32,
    /// Plies from the root to mate (Gaviota sign), when our tables have it.
    pub dtm: Option<i32>,
    /// Stockfish-style rank that takes the root's 50-move counter into account: 1000 for a win within the
    /// counter, 1..999 for a win the counter spoils, 0 a draw, negative a loss (larger is longer).
    pub rank: i32,
}

/// The root position's values and every legal move, best first.
#[derive(Clone, Debug)]
pub struct RootProbe {
    /// The position's own values (counter 0).
    pub value: TbValue,
    /// The outcome with the root's 50-move counter: the WDL class of the best rank.
    pub wdl50: i8,
    pub moves: Vec<RootMove>,
}

/// The rank of a win within the 50-move counter.
pub const RANK_WIN: i32 = 1000;

/// Our tables and/or Syzygy files.
pub struct Tablebases {
    ours: Option<(Tablebase, PathBuf, HashSet<Material>)>,
    ours_max: usize,
    syzygy: Option<shakmaty_syzygy::Tablebase<shakmaty::Chess>>,
    syzygy_dirs: Vec<PathBuf>,
    /// Variant tables (`mysl tb gen --variant`) from the `<variant>/` directories of our directory.
    variants: HashMap<Variant, Arc<crate::variant::VariantTablebase>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("ours", &self.ours.as_ref().map(|(_, d, s)| (d.clone(), s.len())))
            .field("syzygy", &self.syzygy_dirs)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases::new()
    }
}

fn sm_bb(b: mysl_core::Bitboard) -> shakmaty::Bitboard {
    shakmaty::Bitboard(b.0)
}

impl Tablebases {
    pub fn new() -> Tablebases {
        Tablebases { ours: None, ours_max: 0, syzygy: None, syzygy_dirs: Vec::new(), variants: HashMap::new() }
    }

    /// Uses our tables in `dir` (`<ending>.mtb`, as `mysl tb gen` writes them); returns how many there are.
    /// The directory is listed once; files are opened and checked when first probed.
    pub fn set_ours(&mut self, dir: &Path) -> Result<usize, TbError> {
        let io = |e| TbError::Io { path: dir.to_path_buf(), source: e };
        let mut set = HashSet::new();
        let mut max = 0;
        for e in std::fs::read_dir(dir).map_err(io)? {
            let name = e.map_err(io)?.file_name().to_string_lossy().to_string();
            let Some(stem) = name.strip_suffix(".mtb") else { continue };
            if let Ok(m) = Material::parse(stem) {
                if m.normalized() == m && m.count() > 2 {
                    max = max.max(m.count());
                    set.insert(m);
                }
            }
        }
        let mut n = set.len();
        for v in Variant::ALL {
            let sub = dir.join(v.name());
            if v == Variant::Chess || !sub.is_dir() {
                continue;
            }
            let vt = crate::variant::VariantTablebase::open_dir(&sub, v)
                .map_err(|e| TbError::Unsupported(format!("{}: {e}", sub.display())))?;
            n += vt.len();
            if !vt.is_empty() {
                self.variants.insert(v, Arc::new(vt));
            }
        }
        self.ours = Some((Tablebase::open_dir(dir), dir.to_path_buf(), set));
        self.ours_max = max;
        Ok(n)
    }

    /// Adds the Syzygy files of one directory (memory-mapped); returns the number of files added.
    pub fn add_syzygy(&mut self, dir: &Path) -> Result<usize, TbError> {
        if !dir.is_dir() {
            return Err(TbError::Io {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
            });
        }
        // SAFETY: shakmaty-syzygy's contract for memory maps: the table files are not modified while
        // they are open (mysl never writes Syzygy files; they come from a download), and an I/O error
        // while reading a mapped page (a failing disk) is accepted as a crash (SIGBUS).
        let tb = self.syzygy.get_or_insert_with(|| unsafe { shakmaty_syzygy::Tablebase::with_mmap_filesystem() });
        let n = tb.add_directory(dir).map_err(|e| TbError::Io { path: dir.to_path_buf(), source: e })?;
        self.syzygy_dirs.push(dir.to_path_buf());
        Ok(n)
    }

    /// Adds every directory of a search path (`DIR1:DIR2` on Unix, `;` on Windows: UCI `SyzygyPath`).
    pub fn add_syzygy_path(&mut self, path: &str) -> Result<usize, TbError> {
        let mut n = 0;
        for dir in std::env::split_paths(path) {
            if !dir.as_os_str().is_empty() {
                n += self.add_syzygy(&dir)?;
            }
        }
        Ok(n)
    }

    /// The most pieces (kings included) any table covers; 0 without tables.
    pub fn max_pieces(&self) -> usize {
        self.ours_max.max(self.syzygy.as_ref().map_or(0, |t| t.max_pieces()))
    }

    pub fn is_empty(&self) -> bool {
        self.max_pieces() == 0 && self.variants.is_empty()
    }

    /// The variant tables of `v` (read from `<our directory>/<variant>/`), if any.
    pub fn variant(&self, v: Variant) -> Option<Arc<crate::variant::VariantTablebase>> {
        self.variants.get(&v).cloned()
    }

    pub fn has_ours(&self) -> bool {
        self.ours.is_some()
    }

    /// Our table position and the ending's normalized material, if we have the ending. Bare kings need
    /// no table (a draw, which [`Tablebase`] answers itself): a capture into them is valued with any table.
    fn ours_for(&self, board: &Board, turn: Color) -> Option<(&Tablebase, TbPos)> {
        let (tb, _, set) = self.ours.as_ref()?;
        if board.occupied().count() as usize > self.ours_max {
            return None;
        }
        let p = TbPos::from_board(board, turn)?;
        let m = p.material();
        (m.count() == 2 || set.contains(&m.normalized())).then_some((tb, p))
    }

    // shakmaty's position error is large; it is dropped at once
    #[allow(clippy::result_large_err)]
    fn syzygy_pos(board: &Board, turn: Color, ep: Option<Square>, halfmoves: u32) -> Option<shakmaty::Chess> {
        let by_role = shakmaty::ByRole {
            pawn: sm_bb(board.by_role(Role::Pawn)),
            knight: sm_bb(board.by_role(Role::Knight)),
            bishop: sm_bb(board.by_role(Role::Bishop)),
            rook: sm_bb(board.by_role(Role::Rook)),
            queen: sm_bb(board.by_role(Role::Queen)),
            king: sm_bb(board.by_role(Role::King)),
        };
        let by_color = shakmaty::ByColor {
            white: sm_bb(board.by_color(Color::White)),
            black: sm_bb(board.by_color(Color::Black)),
        };
        let mut setup = shakmaty::Setup::empty();
        setup.board = shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?;
        setup.turn = if turn == Color::White { shakmaty::Color::White } else { shakmaty::Color::Black };
        setup.ep_square = ep.map(|s| shakmaty::Square::new(s as u32));
        setup.halfmoves = halfmoves;
        shakmaty::Chess::from_setup(setup, shakmaty::CastlingMode::Standard)
            .or_else(|e: shakmaty::PositionError<shakmaty::Chess>| e.ignore_impossible_check())
            .ok()
    }

    /// WDL only (the search's probe): -2..2 with the counter taken as 0, or `None` when no table has the
    /// position. `ep` is the position's en passant square (a capture there is resolved by the prober).
    /// The caller checks the piece count and castling rights.
    pub fn probe_wdl(&self, board: &Board, turn: Color, ep: Option<Square>) -> Option<i8> {
        if let Some((tb, p)) = self.ours_for(board, turn) {
            return match ep_pawn(ep, turn) {
                // One block of the WDL stream.
                None => tb.probe_wdl(&p).ok(),
                ep => ours_value(tb, &p, ep).map(|r| r.wdl()),
            };
        }
        let tb = self.syzygy.as_ref()?;
        if board.occupied().count() as usize > tb.max_pieces() {
            return None;
        }
        let pos = Self::syzygy_pos(board, turn, ep, 0)?;
        guarded(|| tb.probe_wdl_after_zeroing(&pos)).map(wdl_i8)
    }

    /// WDL, DTZ and (ours only) DTM of a position, its counter taken as 0.
    pub fn probe(&self, board: &Board, turn: Color, ep: Option<Square>) -> Option<TbValue> {
        if let Some((tb, p)) = self.ours_for(board, turn) {
            let r = ours_value(tb, &p, ep_pawn(ep, turn))?;
            return Some(TbValue { wdl: r.wdl(), dtz: Some(r.dtz()), dtm: Some(r.dtm()), source: TbSource::Mysl });
        }
        let tb = self.syzygy.as_ref()?;
        if board.occupied().count() as usize > tb.max_pieces() {
            return None;
        }
        let pos = Self::syzygy_pos(board, turn, ep, 0)?;
        let wdl = wdl_i8(guarded(|| tb.probe_wdl_after_zeroing(&pos))?);
        let dtz = guarded(|| tb.probe_dtz(&pos)).map(|d| d.ignore_rounding().0);
        Some(TbValue { wdl, dtz, dtm: None, source: TbSource::Syzygy })
    }

    /// The root position and every legal move, ranked (best first) with the root's 50-move counter in
    /// mind. `None` for variants, castling rights, too many pieces, or a position or move no table has.
    pub fn probe_root<R: Rules>(&self, pos: &Position<R>) -> Option<RootProbe> {
        if R::VARIANT != Variant::Chess
            || pos.castling().has_any(Color::White)
            || pos.castling().has_any(Color::Black)
            || pos.board().occupied().count() as usize > self.max_pieces()
        {
            return None;
        }
        let value = self.probe(pos.board(), pos.turn(), pos.ep_square())?;
        let cnt50 = pos.halfmoves() as i32;
        let mut moves = Vec::new();
        let mut child = pos.clone();
        for mv in pos.legal_moves().iter() {
            let zeroing = mv.is_en_passant()
                || pos.board().role_at(mv.from()) == Some(Role::Pawn)
                || pos.board().occupied().contains(mv.to());
            child.play_unchecked(mv);
            let vals = if !child.has_legal_moves() {
                if child.is_check() {
                    Some((2, 1, Some(1), true))
                } else {
                    Some((0, 0, Some(0), true))
                }
            } else {
                self.probe(child.board(), child.turn(), child.ep_square()).map(|c| {
                    let dtz = if zeroing {
                        before_zeroing(-c.wdl)
                    } else {
                        match c.dtz {
                            Some(d) if d < 0 => -d + 1,
                            Some(d) if d > 0 => -(d + 1),
                            Some(_) => 0,
                            // a WDL file without DTZ: a guess that keeps the class
                            None => before_zeroing(-c.wdl),
                        }
                    };
                    let dtm = c.dtm.map(|k| {
                        if k < 0 {
                            -k + 1
                        } else if k > 0 {
                            -(k + 1)
                        } else {
                            0
                        }
                    });
                    (wdl_of_dtz(dtz), dtz, dtm, c.source == TbSource::Mysl)
                })
            };
            child.unplay(mv);
            let (wdl, dtz, dtm, exact) = vals?;
            // Syzygy's DTZ may be one ply low (a table storing moves): keep a ply of margin for it.
            let limit = if exact { 100 } else { 99 };
            let rank = if dtz > 0 {
                if dtz + cnt50 <= limit {
                    RANK_WIN
                } else {
                    (RANK_WIN - (dtz + cnt50)).max(1)
                }
            } else if dtz < 0 {
                (-RANK_WIN + (-dtz + cnt50)).min(-1)
            } else {
                0
            };
            let uci = mysl_core::uci::move_to_uci(pos, mv);
            moves.push(RootMove { mv, uci, zeroing, wdl, dtz, dtm, rank });
        }
        // best first: rank, then quicker mates (slower when losing), then DTZ
        moves.sort_by_key(|m| {
            let dtm_key = m.dtm.unwrap_or(0);
            // (a win's DTM is positive: quickest first; a loss's negative: longest first)
            (-m.rank, dtm_key, m.dtz.abs())
        });
        let best = moves.first().map_or(0, |m| m.rank);
        let wdl50 = if best >= RANK_WIN {
            2
        } else if best > 0 {
            1
        } else if best == 0 {
            0
        } else if best > -RANK_WIN + 100 {
            -1
        } else {
            -2
        };
        Some(RootProbe { value, wdl50, moves })
    }
}

/// The square of the pawn that may be taken en passant (our prober's convention), from the target square.
fn ep_pawn(ep: Option<Square>, turn: Color) -> Option<u8> {
    ep.map(|s| if turn == Color::White { s as u8 - 8 } else { s as u8 + 8 })
}

fn ours_value(tb: &Tablebase, p: &TbPos, ep: Option<u8>) -> Option<ProbeResult> {
    match ep {
        None => tb.probe(p).ok(),
        Some(sq) => tb.probe_root(p, Some(sq)).ok().map(|(r, _)| r),
    }
}

/// A Syzygy probe whose error or panic is "no value". shakmaty-syzygy reads damaged files with checked
/// lookups, but one sum of a Huffman symbol overflows on a fuzzed file (table.rs, `sym +=`: a panic
/// where overflow checks are on, a wrapped value caught by its next lookup where they are off); a
/// table file must never bring the engine down, so any panic of the prober is caught here.
fn guarded<T, E>(probe: impl FnOnce() -> Result<T, E>) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(probe)).ok()?.ok()
}

fn wdl_i8(w: shakmaty_syzygy::Wdl) -> i8 {
    use shakmaty_syzygy::Wdl;
    match w {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    }
}

/// Syzygy's DTZ of a position whose best move is zeroing and reaches WDL `wdl` (mover's view).
fn before_zeroing(wdl: i8) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        0 => 0,
        -1 => -101,
        _ => -1,
    }
}

/// The WDL class of a DTZ with counter 0.
fn wdl_of_dtz(dtz: i32) -> i8 {
    match dtz {
        d if d > 100 => 1,
        d if d > 0 => 2,
        0 => 0,
        d if d >= -100 => -2,
        _ => -1,
    }
}
