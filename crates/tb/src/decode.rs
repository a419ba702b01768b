//! Decoding a whole table file back into a [`Table`], the same as the generator made it
//! ([`TableFile::to_table`], [`TableFile::decode_metric`]). A file with
//! [`FLAG_CAPTURES`](crate::format::FLAG_CAPTURES) leaves the values that captures and zeroing moves decide
//! to the reader: they are resolved here by probing the endings the captures lead to, so this module comes
//! after the prober ([`crate::probe`]).

use std::collections::HashMap;
use std::sync::Arc;

use crate::material::Material;
use crate::pos::{zeroing_may_decide, TbPos};
use crate::read::TableFile;
use crate::table::{Table, DTM};
use crate::value::{self, INVALID};
use crate::TbError;

impl TableFile {
    /// Calls `f(index, side, position, its legal zeroing moves)` for every canonical legal position of the
    /// generation index and side to move (the whole-file resolvers below).
    fn for_each_position(
        &self,
        mut f: impl FnMut(usize, usize, &TbPos, &[crate::pos::TbMove]) -> Result<(), TbError>,
    ) -> Result<(), TbError> {
        let l = &self.layout;
        let n = l.len();
        let mut sq = [0u8; 8];
        let mut moves = crate::pos::Moves::default();
        for i in 0..l.size as usize {
            if l.decode(i as u64, &mut sq).is_none() || l.index(&sq[..n]) != Some(i as u64) {
                continue;
            }
            for (side, stm) in [mysl_core::Color::White, mysl_core::Color::Black].into_iter().enumerate() {
                let p = TbPos::new(&l.pieces, &sq[..n], stm);
                if !p.is_legal() {
                    continue;
                }
                p.zeroing_moves(&mut moves);
                f(i, side, &p, moves.as_slice())?;
            }
        }
        Ok(())
    }

    /// With [`FLAG_CAPTURES`]: the decoded WDL values (generation order, both sides) raised to the best value
    /// of each position's captures, probed in `subs`.
    ///
    /// [`FLAG_CAPTURES`]: crate::format::FLAG_CAPTURES
    fn resolve_captures(&self, wdl: &mut [Vec<i16>], subs: &HashMap<Material, Arc<Table>>) -> Result<(), TbError> {
        if !self.resolves_captures() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        self.for_each_position(|i, side, p, moves| {
            let w = wdl[side][i];
            if w == 2 || w == INVALID {
                return Ok(());
            }
            for m in moves.iter().filter(|m| m.capture.is_some()) {
                wdl[side][i] = wdl[side][i].max(-tb.probe(&p.play(m))?.wdl() as i16);
            }
            Ok(())
        })
    }

    /// With [`FLAG_ZEROING`]: the decoded DTZ values (generation order, both sides) of wins with a winning
    /// zeroing move set to 1 (101 for a cursed win); `wdl` are the resolved WDL values of this table.
    ///
    /// [`FLAG_ZEROING`]: crate::format::FLAG_ZEROING
    fn resolve_zeroing(
        &self,
        wdl: &[Vec<i16>],
        dtz: &mut [Vec<i16>],
        subs: &HashMap<Material, Arc<Table>>,
    ) -> Result<(), TbError> {
        if !self.resolves_zeroing() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        let l = &self.layout;
        let mut csq = [0u8; 8];
        self.for_each_position(|i, side, p, moves| {
            let w = wdl[side][i];
            if w <= 0 || w == INVALID {
                return Ok(());
            }
            for m in moves.iter().filter(|m| zeroing_may_decide(p, m)) {
                let c = p.play(m);
                let cw = if c.material() == l.material {
                    c.table_order_squares(&mut csq);
                    let g = l.index(&csq[..c.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
                    wdl[c.stm as usize][g as usize] as i8
                } else {
                    tb.probe(&c)?.wdl()
                };
                if -cw as i16 == w {
                    dtz[side][i] = if w == 2 { 1 } else { 101 };
                    break;
                }
            }
            Ok(())
        })
    }

    /// With [`FLAG_DTZ_SEARCHED`]: the decoded DTZ values of that side's positions that are not drawn and hold
    /// 0 replaced by a 1-ply search's (after [`TableFile::resolve_zeroing`]; `wdl` resolved).
    ///
    /// [`FLAG_DTZ_SEARCHED`]: crate::format::FLAG_DTZ_SEARCHED
    fn resolve_searched_dtz(
        &self,
        wdl: &[Vec<i16>],
        dtz: &mut [Vec<i16>],
        subs: &HashMap<Material, Arc<Table>>,
    ) -> Result<(), TbError> {
        let Some(side) = (0..2).find(|&s| self.dtz_searched(s)) else { return Ok(()) };
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        let l = &self.layout;
        let n = l.len();
        let (white, black) = dtz.split_at_mut(1);
        let (own, other) = if side == 0 { (&mut white[0], &black[0]) } else { (&mut black[0], &white[0]) };
        let stm = if side == 0 { mysl_core::Color::White } else { mysl_core::Color::Black };
        let index_of = |c: &TbPos| -> Result<usize, TbError> {
            let mut csq = [0u8; 8];
            c.table_order_squares(&mut csq);
            let g = l.index(&csq[..c.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
            Ok(g as usize)
        };
        let mut sq = [0u8; 8];
        let mut moves = crate::pos::Moves::default();
        for i in 0..l.size as usize {
            let w = wdl[side][i];
            if w == 0 || w == INVALID || own[i] != 0 {
                continue;
            }
            if l.decode(i as u64, &mut sq).is_none() || l.index(&sq[..n]) != Some(i as u64) {
                continue;
            }
            let p = TbPos::new(&l.pieces, &sq[..n], stm);
            if !p.is_legal() {
                continue;
            }
            let wdl_after = |c: &TbPos| -> Result<i8, TbError> {
                if c.material() == l.material {
                    Ok(wdl[c.stm as usize][index_of(c)?] as i8)
                } else {
                    Ok(tb.probe(c)?.wdl())
                }
            };
            let dtz_after = |c: &TbPos| -> Result<i16, TbError> {
                let g = index_of(c)?;
                Ok(if wdl[1 - side][g] == 0 { 0 } else { other[g] })
            };
            match crate::pos::searched_dtz(&p, &mut moves, wdl_after, dtz_after)? {
                Some(z) if value::wdl_of_dtz(z) as i16 == w => own[i] = z,
                _ => {
                    return Err(TbError::Corrupt {
                        path: self.path.clone(),
                        why: format!("stream {}: a DTZ left to a search that does not find it", 2 + side),
                    })
                }
            }
        }
        Ok(())
    }

    /// With [`FLAG_DTM_CAPTURES`]: the decoded DTM values (generation order, both sides, after
    /// [`TableFile::finish_decoded`]) of positions that are not drawn raised to their best capture's.
    ///
    /// [`FLAG_DTM_CAPTURES`]: crate::format::FLAG_DTM_CAPTURES
    fn resolve_dtm_captures(&self, dtm: &mut [Vec<i16>], subs: &HashMap<Material, Arc<Table>>) -> Result<(), TbError> {
        if !self.resolves_dtm_captures() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        self.for_each_position(|i, side, p, moves| {
            if dtm[side][i] == INVALID || dtm[side][i] == 0 {
                return Ok(());
            }
            for m in moves.iter().filter(|m| m.capture.is_some()) {
                let c = value::parent_of(tb.probe(&p.play(m))?.dtm_raw);
                if value::rank(c) > value::rank(dtm[side][i]) {
                    dtm[side][i] = c;
                }
            }
            Ok(())
        })
    }

    /// The values of one metric ([`DTM`] or [`DTZ`]) for both sides to move, as the generator made them
    /// ([`INVALID`] for holes and illegal positions, 0 for draws): a third of the memory of
    /// [`TableFile::to_table`] (the totals of a 5-piece ending with pawns).
    ///
    /// [`DTZ`]: crate::table::DTZ
    pub fn decode_metric(&self, metric: usize, subs: &HashMap<Material, Arc<Table>>) -> Result<[Vec<i16>; 2], TbError> {
        let delta = self.flags & 0b11_0000 != 0;
        let wanted: Vec<usize> = if metric == DTM {
            if delta {
                vec![0, 1, 2, 3, 4, 5]
            } else {
                vec![0, 1, 4, 5]
            }
        } else {
            vec![0, 1, 2, 3]
        };
        let mut st = self.decode_streams(&wanted)?;
        self.resolve_captures(&mut st[..2], subs)?;
        if !st[2].is_empty() {
            let (wdl, rest) = st.split_at_mut(2);
            self.resolve_zeroing(wdl, &mut rest[..2], subs)?;
            self.resolve_searched_dtz(wdl, &mut rest[..2], subs)?;
        }
        let (wdl, rest) = st.split_at_mut(2);
        let (dtz, dtm) = rest.split_at_mut(2);
        if metric == DTM {
            self.finish_decoded(wdl, dtz, dtm);
            self.resolve_dtm_captures(dtm, subs)?;
            Ok([std::mem::take(&mut dtm[0]), std::mem::take(&mut dtm[1])])
        } else {
            self.finish_decoded(wdl, dtz, &mut [Vec::new(), Vec::new()]);
            Ok([std::mem::take(&mut dtz[0]), std::mem::take(&mut dtz[1])])
        }
    }

    /// Decodes the whole file into a table, the same as the generator made it: holes and illegal positions
    /// (which the file leaves as "don't care") are marked [`INVALID`] again, drawn positions get DTM and DTZ 0.
    /// `subs`: the endings its captures lead to (needed for a file with [`FLAG_CAPTURES`]).
    ///
    /// [`FLAG_CAPTURES`]: crate::format::FLAG_CAPTURES
    pub fn to_table(&self, subs: &HashMap<Material, Arc<Table>>) -> Result<Table, TbError> {
        let mut st = self.decode_streams(&[0, 1, 2, 3, 4, 5])?;
        self.resolve_captures(&mut st[..2], subs)?;
        let (wdl, rest) = st.split_at_mut(2);
        self.resolve_zeroing(wdl, &mut rest[..2], subs)?;
        self.resolve_searched_dtz(wdl, &mut rest[..2], subs)?;
        let (wdl, rest) = st.split_at_mut(2);
        let (dtz, dtm) = rest.split_at_mut(2);
        self.finish_decoded(wdl, dtz, dtm);
        self.resolve_dtm_captures(dtm, subs)?;
        let dtz = [std::mem::take(&mut dtz[0]), std::mem::take(&mut dtz[1])];
        let dtm = [std::mem::take(&mut dtm[0]), std::mem::take(&mut dtm[1])];
        Ok(Table { layout: self.layout.clone(), dtm, dtz })
    }
}
