//! Probing generated tables (from files in a directory or from memory).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mysl_core::{Chess, Color, Role};

use crate::format::path_for;
use crate::material::{Material, MAX_PIECES};
use crate::pos::{Moves, TbMove, TbPos};
use crate::read::TableFile;
use crate::table::Table;
use crate::value::{self, INVALID};
use crate::TbError;

/// Values of a position for the side to move, assuming the 50-move counter is 0 (as Syzygy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    /// Internal DTM value (see [`crate::value`]).
    pub dtm_raw: i16,
    /// Internal DTZ-scale value.
    pub dtz_raw: i16,
}

impl ProbeResult {
    /// -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win (Syzygy's WDL).
    pub fn wdl(&self) -> i8 {
        value::wdl_of_dtz(self.dtz_raw)
    }
    /// Syzygy's DTZ (plies; negative when losing).
    pub fn dtz(&self) -> i32 {
        value::syzygy_dtz(self.dtz_raw)
    }
    /// DTM in plies, python-chess Gaviota convention (positive when the side to move mates).
    pub fn dtm(&self) -> i32 {
        value::gaviota_dtm(self.dtm_raw)
    }
}

enum Source {
    Dir(PathBuf, Mutex<HashMap<Material, Arc<TableFile>>>),
    Memory(HashMap<Material, Arc<Table>>),
}

/// A set of tables.
pub struct Tablebase {
    source: Source,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Source::Dir(d, _) => write!(f, "Tablebase({})", d.display()),
            Source::Memory(m) => write!(f, "Tablebase({} tables in memory)", m.len()),
        }
    }
}

/// One legal move with the values of the position it leads to, from the mover's view.
#[derive(Clone, Debug)]
pub struct MoveValue {
    pub mv: TbMove,
    pub uci: String,
    pub zeroing: bool,
    pub result: ProbeResult,
}

impl Tablebase {
    /// Tables are read from `DIR/<material>.mtb` when first needed.
    pub fn open_dir(dir: &Path) -> Tablebase {
        Tablebase { source: Source::Dir(dir.to_path_buf(), Mutex::new(HashMap::new())) }
    }

    pub fn from_tables(tables: HashMap<Material, Arc<Table>>) -> Tablebase {
        Tablebase { source: Source::Memory(tables) }
    }

    /// (DTM, DTZ) of a legal position `p` in its table's orientation, `sq` its squares in table order.
    fn raw(&self, p: &TbPos, sq: &[u8]) -> Result<(i16, i16), TbError> {
        let (m, side) = (&p.material(), p.stm as usize);
        match &self.source {
            Source::Memory(map) => {
                let t = map.get(m).ok_or_else(|| TbError::Missing { material: m.to_string(), dir: "memory".into() })?;
                let idx = t.layout.index(sq).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
                Ok((t.dtm[side][idx as usize], t.dtz[side][idx as usize]))
            }
            Source::Dir(..) => {
                let file = self.file(m)?;
                let idx =
                    file.layout.storage_index(sq).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
                if !file.resolves_captures() {
                    return file.get(side, idx);
                }
                let w = self.resolved_wdl(p, &file, idx)?;
                if w == 0 {
                    return Ok((0, 0));
                }
                let dtz = self.resolved_dtz(p, &file, idx, w)?;
                let (mut dtm, dtz) = file.metrics_with(side, idx, Some(dtz))?;
                if file.resolves_dtm_captures() {
                    // the stored DTM ranks no higher than the best capture's where a capture decides it
                    let mut moves = Moves::default();
                    p.zeroing_moves(&mut moves);
                    for m in moves.as_slice().iter().filter(|m| m.capture.is_some()) {
                        let c = value::parent_of(self.probe(&p.play(m))?.dtm_raw);
                        if value::rank(c) > value::rank(dtm) {
                            dtm = c;
                        }
                    }
                }
                Ok((dtm, dtz))
            }
        }
    }

    fn file(&self, m: &Material) -> Result<Arc<TableFile>, TbError> {
        let Source::Dir(dir, cache) = &self.source else { unreachable!("only for directories") };
        let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = c.get(m) {
            return Ok(f.clone());
        }
        let path = path_for(dir, m);
        if !path.exists() {
            return Err(TbError::Missing { material: m.to_string(), dir: dir.clone() });
        }
        let f = Arc::new(TableFile::open(&path, Some(*m))?);
        c.insert(*m, f.clone());
        Ok(f)
    }

    /// WDL50 of a legal position (-2..=2, Syzygy's numbers; the 50-move counter 0). From files this decodes one
    /// block of the WDL stream only.
    pub fn probe_wdl(&self, pos: &TbPos) -> Result<i8, TbError> {
        if let Source::Memory(_) = self.source {
            return Ok(self.probe(pos)?.wdl());
        }
        let Some((p, sq)) = oriented(pos)? else { return Ok(0) };
        let file = self.file(&p.material())?;
        let idx =
            file.layout.storage_index(&sq[..p.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
        self.resolved_wdl(&p, &file, idx)
    }

    /// The DTZ a winning zeroing move gives position `p` of WDL `w > 0` (1 for a win, 101 for a cursed win),
    /// if it has one (double pawn steps left out, as the writer leaves them out).
    fn zeroing_dtz(&self, p: &TbPos, w: i8) -> Result<Option<i16>, TbError> {
        let mut moves = Moves::default();
        p.zeroing_moves(&mut moves);
        for m in moves.as_slice() {
            if crate::pos::zeroing_may_decide(p, m) && -self.probe_wdl(&p.play(m))? == w {
                return Ok(Some(if w == 2 { 1 } else { 101 }));
            }
        }
        Ok(None)
    }

    /// DTZ of position `p` (storage index `idx` of `file`, a file that leaves values to the reader) of WDL
    /// `w != 0`: a winning zeroing move's, the stored value, or a search where the stored value says so.
    fn resolved_dtz(&self, p: &TbPos, file: &TableFile, idx: u64, w: i8) -> Result<i16, TbError> {
        if file.resolves_zeroing() && w > 0 {
            if let Some(z) = self.zeroing_dtz(p, w)? {
                return Ok(z);
            }
        }
        let side = p.stm as usize;
        let stored = file.stored_dtz(side, idx)?;
        if stored != 0 || !file.dtz_searched(side) {
            return Ok(stored);
        }
        let mut moves = Moves::default();
        let same = |c: &TbPos| -> Result<i16, TbError> {
            // one ply down: the same ending, the other side to move (whose DTZ is stored)
            let mut sq = [0u8; 8];
            c.table_order_squares(&mut sq);
            let i = file
                .layout
                .storage_index(&sq[..c.n])
                .ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
            let cw = self.resolved_wdl(c, file, i)?;
            if cw == 0 {
                return Ok(0);
            }
            if file.dtz_searched(c.stm as usize) {
                return Err(TbError::Corrupt { path: file.path.clone(), why: "both sides' DTZ searched".into() });
            }
            self.resolved_dtz(c, file, i, cw)
        };
        match crate::pos::searched_dtz(p, &mut moves, |c| self.probe_wdl(c), same)? {
            Some(z) if value::wdl_of_dtz(z) == w => Ok(z),
            _ => Err(TbError::Corrupt {
                path: file.path.clone(),
                why: format!("stream {} at {idx}: a DTZ left to a search that does not find it", 2 + side),
            }),
        }
    }

    /// WDL of position `p` (storage index `idx` of `file`): the stored value, raised to the best value of
    /// its captures where the file leaves captures to the reader (a capture never gains more than a win,
    /// so a stored win needs no search).
    fn resolved_wdl(&self, p: &TbPos, file: &TableFile, idx: u64) -> Result<i8, TbError> {
        let stored = file.wdl(p.stm as usize, idx)?;
        if !file.resolves_captures() || stored == 2 {
            return Ok(stored);
        }
        let mut moves = Moves::default();
        p.zeroing_moves(&mut moves);
        let mut best = stored;
        for m in moves.as_slice().iter().filter(|m| m.capture.is_some()) {
            best = best.max(-self.probe_wdl(&p.play(m))?);
            if best == 2 {
                break;
            }
        }
        Ok(best)
    }

    /// Values of a legal position (the side not to move is not in check).
    pub fn probe(&self, pos: &TbPos) -> Result<ProbeResult, TbError> {
        let Some((p, sq)) = oriented(pos)? else { return Ok(ProbeResult { dtm_raw: 0, dtz_raw: 0 }) };
        let (dtm_raw, dtz_raw) = self.raw(&p, &sq[..p.n])?;
        if dtm_raw == INVALID || dtz_raw == INVALID {
            return Err(TbError::Unsupported(format!("table {} has no value for {}", p.material(), pos.fen())));
        }
        Ok(ProbeResult { dtm_raw, dtz_raw })
    }

    /// Values of a position and of each of its legal moves. `ep` is the square of a pawn that has just made
    /// a double step and may be captured en passant: then the position's value comes from its moves.
    pub fn probe_root(&self, pos: &TbPos, ep: Option<u8>) -> Result<(ProbeResult, Vec<MoveValue>), TbError> {
        let moves = self.probe_moves_ep(pos, ep)?;
        let Some(_) = ep else { return Ok((self.probe(pos)?, moves)) };
        if moves.is_empty() {
            let v = if pos.in_check() { -1 } else { 0 };
            return Ok((ProbeResult { dtm_raw: v, dtz_raw: v }, moves));
        }
        let mut best = moves[0].result;
        for m in &moves {
            if value::rank(m.result.dtm_raw) > value::rank(best.dtm_raw) {
                best.dtm_raw = m.result.dtm_raw;
            }
            if value::rank(m.result.dtz_raw) > value::rank(best.dtz_raw) {
                best.dtz_raw = m.result.dtz_raw;
            }
        }
        Ok((best, moves))
    }

    /// Values of the position of a FEN and of each of its legal moves (best first): the checks and the
    /// en passant handling of `mysl tb probe`, shared by the command line and the web UI.
    pub fn probe_fen(&self, fen: &str) -> Result<(ProbeResult, Vec<MoveValue>), TbError> {
        let (pos, ep) = pos_from_fen(fen)?;
        if !pos.is_legal() {
            return Err(TbError::Unsupported(format!("'{fen}': the side not to move is in check")));
        }
        self.probe_root(&pos, ep)
    }

    /// The endings available: the table files of the directory (sorted by name), or the tables in memory.
    pub fn materials(&self) -> Vec<String> {
        let mut names: Vec<String> = match &self.source {
            Source::Memory(map) => map.keys().map(|m| m.to_string()).collect(),
            Source::Dir(dir, _) => std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .filter_map(|e| {
                            let name = e.file_name().to_string_lossy().into_owned();
                            let stem = name.strip_suffix(".mtb")?;
                            Material::parse(stem).ok().filter(|m| m.to_string() == stem).map(|_| stem.to_string())
                        })
                        .collect()
                })
                .unwrap_or_default(),
        };
        names.sort_by_key(|n| (n.len(), n.clone()));
        names
    }

    /// Every legal move with the value it gives the mover (DTZ counted through zeroing moves as Syzygy).
    pub fn probe_moves(&self, pos: &TbPos) -> Result<Vec<MoveValue>, TbError> {
        self.probe_moves_ep(pos, None)
    }

    fn probe_moves_ep(&self, pos: &TbPos, ep: Option<u8>) -> Result<Vec<MoveValue>, TbError> {
        let mut moves = Moves::default();
        pos.legal_moves(&mut moves);
        let mut list: Vec<(TbMove, TbPos)> = moves.as_slice().iter().map(|m| (*m, pos.play(m))).collect();
        if let Some(sq) = ep {
            list.extend(pos.en_passant_children(sq));
        }
        let mut out = Vec::new();
        for (m, child) in &list {
            let m = *m;
            // After a double step the opponent may capture en passant, a right the tables do not hold:
            // the child is then valued from its moves, as a root with that right.
            let double_step = pos.role[m.piece as usize] == Role::Pawn && m.from.abs_diff(m.to) == 16;
            let r = if double_step && !child.en_passant_children(m.to).is_empty() {
                self.probe_root(child, Some(m.to))?.0
            } else {
                self.probe(child)?
            };
            let zeroing = m.is_zeroing(pos);
            let dtz_raw = if zeroing { crate::value::zeroing_exit(r.dtz_raw) } else { value::parent_of(r.dtz_raw) };
            out.push(MoveValue {
                mv: m,
                uci: m.uci(),
                zeroing,
                result: ProbeResult { dtm_raw: value::parent_of(r.dtm_raw), dtz_raw },
            });
        }
        // best first: by DTM, then DTZ
        out.sort_by_key(|mv| (-value::rank(mv.result.dtm_raw), -value::rank(mv.result.dtz_raw), mv.uci.clone()));
        Ok(out)
    }
}

/// A legal position within the piece limit in the table's orientation, with its squares in table order;
/// `None` for bare kings (a draw, no table).
fn oriented(pos: &TbPos) -> Result<Option<(TbPos, [u8; 8])>, TbError> {
    if pos.n > MAX_PIECES {
        return Err(TbError::Unsupported(format!("{} pieces; tables have at most {MAX_PIECES}", pos.n)));
    }
    if !pos.is_legal() {
        return Err(TbError::Unsupported("illegal position (the side not to move is in check)".into()));
    }
    let m = pos.material();
    if m.count() <= 2 {
        return Ok(None);
    }
    let p = if m.needs_flip() { pos.color_flipped() } else { *pos };
    let mut sq = [0u8; 8];
    p.table_order_squares(&mut sq);
    Ok(Some((p, sq)))
}

/// Parses a FEN into a table position: no castling rights, at most [`MAX_PIECES`] pieces. Also returns the
/// square of a pawn that may be captured en passant (the tables hold no en passant rights: such a position
/// is valued from its moves by [`Tablebase::probe_root`]).
pub fn pos_from_fen(fen: &str) -> Result<(TbPos, Option<u8>), TbError> {
    let chess: Chess = Chess::from_fen(fen).map_err(|e| TbError::Unsupported(format!("bad FEN '{fen}': {e}")))?;
    if chess.castling().has_any(Color::White) || chess.castling().has_any(Color::Black) {
        return Err(TbError::Unsupported(format!("'{fen}': castling rights are not covered by the tables")));
    }
    let n = chess.board().occupied().count() as usize;
    if n > MAX_PIECES {
        return Err(TbError::Unsupported(format!("'{fen}': {n} pieces; tables have at most {MAX_PIECES}")));
    }
    let pos = TbPos::from_board(chess.board(), chess.turn())
        .ok_or_else(|| TbError::Unsupported(format!("'{fen}': bad board")))?;
    // the square of the pawn that may be captured en passant
    let ep = chess.legal_ep_square().map(|s| if chess.turn() == Color::White { s as u8 - 8 } else { s as u8 + 8 });
    Ok((pos, ep))
}
