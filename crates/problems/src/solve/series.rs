//! Series play (ser-#, ser-=, ser-h#, ser-s#, ser-r#, parry series `pser-`): `k` moves of one
//! side while the other passes (or parries a check), then the tail.

use mysl_core::{Bitboard, Color};

use super::bounds::{check_reachable, disjoint_count, FREE_MAX};
use super::hash::salt;
use super::{par_map, Searcher, Solution};
use crate::board::{Board, Move, NULL_MOVE};
use crate::stipulation::{Goal, Parry, Play};

impl Searcher {
    /// Series of exactly `k` moves by the side to move, then the tail. Lines include tail replies.
    fn series(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if self.tick() {
            return false;
        }
        // ser-h#: the other side mates with one move after this series of k moves (a parry
        // series gives it more moves).
        if self.help_mate && self.stip.parry == Parry::None && !check_reachable(&self.board, !self.board.side, 1, k) {
            return false;
        }
        // ser-#: the series side mates with its k-th move, the other side does not move.
        if self.series_mate && !check_reachable(&self.board, self.board.side, k, 0) {
            return false;
        }
        let key = self.board.key() ^ salt(k, 2);
        if k > 1 && self.hash_get(key) == Some(false) {
            return false;
        }
        // ser-r: the series side too must reach the goal whenever it can (`ser-r+3`: castling with
        // check would be forced, so the series must first take that right away); then the
        // reflex play has failed.
        if self.stip.play == Play::Reflex && self.has_goal_move() {
            if k > 1 {
                self.hash_put(key, false, k);
            }
            return false;
        }
        let (mating, w, b) = if self.series_mate { (self.board.side, k, 0) } else { (!self.board.side, 1, k) };
        if self.intel && !crate::intelligent::mate_possible(&self.board, mating, w, b, &mut self.intel_scratch) {
            if k > 1 {
                self.hash_put(key, false, k);
            }
            return false;
        }
        // Stalemate goals (no parry): the stalemated side's free moves.
        // ser-=: only the series side moves, its k moves touch at most 2k squares (2 more when
        // castling), so more free moves with disjoint masks than that cannot all be taken away;
        // the last move must touch every mask. ser-h=: the series side's last move, then the
        // other side's stalemating move (as h= two half moves before the end: `stalemate_skips`).
        let mut free = [Bitboard(0); FREE_MAX];
        let mut nfree = 0;
        let mut castle = false;
        let mut last_filter = false;
        let mut help_skip = false;
        if self.stale_free && self.stip.parry == Parry::None {
            if self.stip.play == Play::Direct {
                nfree = self.stalemate_free_moves(true, &mut free);
                // En passant: only now (the other side makes no double step), a third square.
                let budget = 2 * k as usize
                    + 2 * self.board.has_castling_rights(self.board.side) as usize
                    + self.board.ep.is_some() as usize;
                if disjoint_count(&free[..nfree], Bitboard(0)) > budget {
                    if k > 1 {
                        self.hash_put(key, false, k);
                    }
                    return false;
                }
                last_filter = k == 1;
            } else if self.stip.play == Play::Help && k == 1 {
                nfree = self.stalemate_free_moves(false, &mut free);
                castle = self.board.has_castling_rights(!self.board.side);
                help_skip = true;
            }
        }
        // ser-s#: after the last series move every defence must mate, so that move must take
        // away each free defence, as the key of an s#1 ([`Searcher::free_defences`]).
        let mut their_king_info = None;
        if k == 1 && self.self_free {
            nfree = self.free_defences(&mut free);
            if nfree > 0 {
                their_king_info = self.board.king_square(!self.board.side).map(|ksq| self.board.check_info(ksq));
            }
        }
        let us = self.board.side;
        let mut moves = self.take_buf(k);
        self.board.pseudo_moves(&mut moves);
        let test = self.board.needs_legality_test();
        let mut found = false;
        for &m in &moves {
            if last_filter && nfree > 0 && self.misses_a_free_move(m, &free[..nfree]) {
                continue;
            }
            if let Some(ci) = &their_king_info {
                if self.misses_a_free_defence(m, ci, &free[..nfree]) {
                    continue;
                }
            }
            if help_skip && nfree >= 2 && self.stalemate_skips(m, &free[..nfree], castle) {
                continue;
            }
            let u = self.board.make(m);
            if Board::must_test(test, m) && self.board.in_check(us) {
                self.board.unmake(m, u);
                continue;
            }
            line.push(m);
            found |= self.after_series_move(k, line, out);
            line.pop();
            self.board.unmake(m, u);
        }
        self.bufs[k as usize] = moves;
        // Option NullMoves: the series side passes (not in check).
        if self.null_moves && !self.board.in_check(us) {
            let ep = self.board.make_null();
            line.push(NULL_MOVE);
            found |= self.after_series_move(k, line, out);
            line.pop();
            self.board.unmake_null(ep);
        }
        if k > 1 && !found {
            self.hash_put(key, false, k);
        }
        found
    }

    /// After a series move (`k` moves of the series left, this one included; the other side to
    /// move): the tail after the last one, else the rest of the series: the other side passes,
    /// or in a parry series parries a check (Popeye's `pser-`: some parry for help parries, every
    /// parry for defences; a check that cannot be parried ends the line).
    fn after_series_move(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        let us = !self.board.side;
        if k == 1 {
            return self.series_tail(line, out);
        }
        if self.board.in_check(!us) {
            if self.stip.parry == Parry::None || self.series_goal_early() {
                return false;
            }
            return self.series_parry(k, line, out);
        }
        if self.series_goal_early() {
            return false;
        }
        let ep = self.board.make_null();
        let found = self.series(k - 1, line, out);
        self.board.unmake_null(ep);
        found
    }

    /// A parry series move gave check: the other side's parries, then `k - 1` series moves.
    #[cold]
    fn series_parry(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        let parries = self.board.legal_moves();
        if parries.is_empty() {
            return false;
        }
        let every = self.stip.parry == Parry::Defence;
        let mut lines = Vec::new();
        let mut found = false;
        for &r in &parries {
            let u = self.board.make(r);
            line.push(r);
            let ok = self.series(k - 1, line, &mut lines);
            line.pop();
            self.board.unmake(r, u);
            if every && !ok {
                return false;
            }
            found |= ok;
        }
        out.extend(lines);
        found
    }

    /// After a non-final series move: positions in which the play would already end.
    fn series_goal_early(&mut self) -> bool {
        match self.stip.play {
            Play::Direct => self.goal_reached(),
            // Reflex: if the other side can reach the goal it must, so the series ends here.
            Play::Reflex | Play::SemiReflex => self.has_goal_move(),
            _ => false,
        }
    }

    /// Does the side to move have a move reaching the goal?
    pub(super) fn has_goal_move(&mut self) -> bool {
        !self.goal_moves().is_empty()
    }

    /// Legal moves of the side to move that reach the goal (for mate, only the moves that may
    /// give check are made: the cheap filter comes before the legality test).
    pub(super) fn goal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        let us = self.board.side;
        let king = if self.stip.goal == Goal::Mate && !self.board.restricts_moves() {
            self.board.king_square(!us)
        } else {
            None
        };
        let ci = king.map(|k| self.board.check_info(k));
        match &ci {
            Some(ci) => self.board.checking_candidates(ci, &mut moves),
            None => self.board.pseudo_moves(&mut moves),
        }
        if self.stale_free && self.stip.play == Play::Help {
            let mut free = [Bitboard(0); FREE_MAX];
            let nfree = self.stalemate_free_moves(true, &mut free);
            if nfree > 0 {
                moves.retain(|&m| !self.misses_a_free_move(m, &free[..nfree]));
            }
        }
        let mut res = Vec::new();
        for m in moves {
            if ci.as_ref().is_some_and(|ci| !self.board.could_check_with(ci, m)) {
                continue;
            }
            let u = self.board.make(m);
            if !self.board.in_check(us) && self.goal_reached() {
                res.push(m);
            }
            self.board.unmake(m, u);
        }
        res
    }

    /// The end of a series (after its last move; the other side to move).
    fn series_tail(&mut self, line: &[Move], out: &mut Vec<Vec<Move>>) -> bool {
        match self.stip.play {
            Play::Direct => {
                if self.goal_reached() {
                    out.push(line.to_vec());
                    return true;
                }
                false
            }
            Play::Help => {
                let g = self.goal_moves();
                for &r in &g {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                !g.is_empty()
            }
            Play::SelfPlay => {
                if !self.all_replies_reach_goal() {
                    return false;
                }
                for &r in &self.board.legal_moves() {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                true
            }
            Play::Reflex | Play::SemiReflex => {
                let g = self.goal_moves();
                for &r in &g {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                !g.is_empty()
            }
            Play::HelpSelf => false,
        }
    }
}

pub(super) fn solve_series(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    let n = s.stip.moves;
    // The series side: Black in ser-h (White makes the last move), White otherwise.
    let series_white = (s.stip.play != Play::Help) != s.swap_sides;
    s.board.side = if series_white { Color::White } else { Color::Black };
    let fmt = |t: &mut Searcher, l: &[Move], k: usize| -> String {
        let texts = t.series_texts(l, k);
        let mut line = String::new();
        let mut num = 0;
        for (i, (numbered, tx)) in texts.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            if *numbered {
                num += 1;
                // A pass (Option NullMoves): `2. ...`.
                let tx = if tx == "..." { " ..." } else { tx.as_str() };
                line.push_str(&format!("{num}.{tx}"));
            } else {
                line.push_str(tx);
            }
        }
        line
    };
    if s.opts.set_play {
        // The other side plays the end at once (not when the series side is in check in the
        // diagram: it cannot pass, and Popeye prints no set play).
        let ep = s.board.make_null();
        let mut out = Vec::new();
        if !s.board.in_check(!s.board.side) {
            s.series_tail(&[], &mut out);
        }
        let ep2 = s.board.make_null();
        s.board.unmake_null(ep2);
        for l in out {
            let texts = s.line_texts(&l, Some(l.len() - 1));
            sol.lines.push(format!("1...{}", texts.join(" ")));
        }
        s.board.unmake_null(ep);
        sol.set_play_lines = sol.lines.len();
    }
    // ser-r: a series side that can reach the goal at once must (the series in `Searcher::series`).
    let reflex_broken = s.stip.play == Play::Reflex && s.has_goal_move();
    for k in 1..=n {
        s.grow_hash();
        let mut roots = if reflex_broken { Vec::new() } else { s.board.legal_moves() };
        if s.null_moves && !s.board.in_check(s.board.side) {
            roots.push(NULL_MOVE);
        }
        let (res, stopped) = par_map(s, &roots, threads, |t, m| {
            let mut out = Vec::new();
            let mut line = vec![m];
            if m == NULL_MOVE {
                let ep = t.board.make_null();
                t.after_series_move(k, &mut line, &mut out);
                t.board.unmake_null(ep);
            } else {
                let u = t.board.make(m);
                t.after_series_move(k, &mut line, &mut out);
                t.board.unmake(m, u);
            }
            out.iter().map(|l| fmt(t, l, k as usize)).collect::<Vec<_>>()
        });
        for lines in res {
            sol.lines.extend(lines);
        }
        sol.interrupted |= stopped;
    }
}
