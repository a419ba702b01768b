//! Help play (h#, h=, h==, hs#): every line of the given length that ends in the goal, with the
//! check-reach, flight, intelligent and stalemate bounds, check-only generation at the last half
//! move, and Option NullMoves.

use mysl_core::{Bitboard, Color};

use super::bounds::{check_reachable, disjoint_count, flights_coverable, one_move_touches_all, FREE_MAX};
use super::hash::salt;
use super::notation::format_help_line;
use super::{par_map, Searcher, Solution, INTEL_MIN_PLIES};
use crate::board::{Board, Move, NULL_MOVE};
use crate::stipulation::{Goal, Play};

impl Searcher {
    /// All help lines of exactly `plies` half moves from here ending in the goal (for hs#: ending
    /// in a position where the other side is forced to reach the goal). Returns true if any.
    pub(super) fn help(&mut self, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if self.tick() {
            return false;
        }
        if self.help_mate {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !check_reachable(&self.board, mating, plies.div_ceil(2), plies / 2) {
                return false;
            }
        }
        if plies == 1 {
            return self.help_leaf(line, out);
        }
        let key = self.board.key() ^ salt(plies, 1);
        if self.hash_get(key) == Some(false) {
            return false;
        }
        if self.help_mate && self.help_flights && !(self.intel && plies >= INTEL_MIN_PLIES) {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !flights_coverable(&self.board, mating, plies.div_ceil(2), plies / 2) {
                self.hash_put(key, false, plies);
                return false;
            }
        }
        if self.intel && plies >= INTEL_MIN_PLIES {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !crate::intelligent::mate_possible(
                &self.board,
                mating,
                plies.div_ceil(2),
                plies / 2,
                &mut self.intel_scratch,
            ) {
                self.hash_put(key, false, plies);
                return false;
            }
        }
        // h=: the stalemated side's move, then the last move (see `stalemate_skips`).
        let mut free = [Bitboard(0); FREE_MAX];
        let (nfree, castle) = if self.stale_free && plies == 2 && !self.stip.series {
            (self.stalemate_free_moves(false, &mut free), self.board.has_castling_rights(!self.board.side))
        } else {
            (0, false)
        };
        let mut moves = self.take_buf(plies);
        self.board.pseudo_moves(&mut moves);
        let us = self.board.side;
        let test = self.board.needs_legality_test();
        let mut found = false;
        let child_salt = salt(plies - 1, 1);
        for &m in &moves {
            if nfree >= 2 && self.stalemate_skips(m, &free[..nfree], castle) {
                continue;
            }
            let u = self.board.make(m);
            self.hash.prefetch(self.board.key() ^ child_salt);
            if Board::must_test(test, m) && self.board.in_check(us) {
                self.board.unmake(m, u);
                continue;
            }
            line.push(m);
            if self.help(plies - 1, line, out) {
                found = true;
            }
            line.pop();
            self.board.unmake(m, u);
        }
        self.bufs[plies as usize] = moves;
        if self.null_moves && self.help_null(plies, line, out) {
            found = true;
        }
        if !found {
            self.hash_put(key, false, plies);
        }
        found
    }

    /// Option NullMoves: the side to move passes (Popeye's `null_move_generator_solve`), unless
    /// it is in check (the passing side would stay in check: illegal). Never the last half move:
    /// a pass gives no check.
    fn help_null(&mut self, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if plies < 2 || self.board.in_check(self.board.side) {
            return false;
        }
        let ep = self.board.make_null();
        line.push(NULL_MOVE);
        let found = self.help(plies - 1, line, out);
        line.pop();
        self.board.unmake_null(ep);
        found
    }

    /// The last help half move: only moves that can complete the goal are looked at closely.
    /// The hash is probed only when there are candidate moves: in h# finding that there is no
    /// checking move at all costs less than a probe's cache miss.
    fn help_leaf(&mut self, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        // h=, h==: the other side's free moves; a last move that leaves one in place is skipped.
        let mut free = [Bitboard(0); FREE_MAX];
        let nfree = if self.stale_free { self.stalemate_free_moves(true, &mut free) } else { 0 };
        // The last move leaves a square of one of our pieces and lands on one square (en passant
        // touches a third, castling four: then only a count of masks sharing no square): if no
        // such pair of squares touches every mask, no last move stalemates.
        if nfree >= 2 {
            let (ep, castle) = (self.board.ep.is_some(), self.board.has_castling_rights(self.board.side));
            let hopeless = if ep || castle {
                disjoint_count(&free[..nfree], Bitboard(0)) > 2 + ep as usize + 2 * castle as usize
            } else {
                !one_move_touches_all(&free[..nfree], self.board.color_bb(self.board.side))
            };
            if hopeless {
                return false;
            }
        }
        let mut pseudo = self.take_buf(0);
        let us = self.board.side;
        let need_check = self.stip.goal == Goal::Mate && self.stip.play != Play::HelpSelf;
        // Candidate generation skips the conditions' move restrictions.
        let ci = if need_check && !self.board.restricts_moves() {
            self.board.king_square(!us).map(|k| self.board.check_info(k))
        } else {
            None
        };
        match &ci {
            Some(ci) => {
                self.board.checking_candidates(ci, &mut pseudo);
                pseudo.retain(|&m| self.board.could_check_with(ci, m));
            }
            None => self.board.pseudo_moves(&mut pseudo),
        }
        if nfree > 0 {
            pseudo.retain(|&m| !self.misses_a_free_move(m, &free[..nfree]));
        }
        if pseudo.is_empty() {
            self.bufs[0] = pseudo;
            return false;
        }
        let key = self.board.key() ^ salt(1, 1);
        if self.hash_get(key) == Some(false) {
            self.bufs[0] = pseudo;
            return false;
        }
        let found = self.help_leaf_moves(&pseudo, need_check, line, out);
        self.bufs[0] = pseudo;
        if !found {
            self.hash_put(key, false, 1);
        }
        found
    }

    /// The candidate last moves `pseudo` (only possible checks for mate): records the solutions.
    fn help_leaf_moves(
        &mut self,
        pseudo: &[Move],
        need_check: bool,
        line: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) -> bool {
        let us = self.board.side;
        let before = out.len();
        let test = self.board.needs_legality_test();
        for &m in pseudo {
            let u = self.board.make(m);
            let candidate =
                (!need_check || self.board.in_check(!us)) && !(Board::must_test(test, m) && self.board.in_check(us));
            self.board.unmake(m, u);
            if candidate {
                line.push(m);
                self.help_final_line(line, out);
                line.pop();
            }
        }
        out.len() > before
    }

    /// The last help move `m` (board before it): records the solution(s) it completes.
    fn help_final(&mut self, m: Move, out: &mut Vec<Vec<Move>>) {
        self.help_final_line(&[m], out);
    }

    /// `line` ends with the last help move, played from the current position minus that move.
    fn help_final_line(&mut self, line: &[Move], out: &mut Vec<Vec<Move>>) {
        let m = *line.last().expect("a move");
        let u = self.board.make(m);
        if self.stip.play == Play::HelpSelf {
            // The other side must reach the goal (mate us) with every move. Its moves are
            // tested one by one, up to the first legal one that misses the goal.
            let mut pseudo = Vec::with_capacity(64);
            self.board.pseudo_moves(&mut pseudo);
            let them = self.board.side;
            let mut replies = Vec::new();
            let mut all = true;
            for &r in &pseudo {
                let u2 = self.board.make(r);
                let legal = !self.board.in_check(them);
                let g = legal && self.goal_reached();
                self.board.unmake(r, u2);
                if legal {
                    if !g {
                        all = false;
                        break;
                    }
                    replies.push(r);
                }
            }
            if all && !replies.is_empty() {
                for &r in &replies {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
            }
        } else if self.goal_reached() {
            out.push(line.to_vec());
        }
        self.board.unmake(m, u);
    }
}

/// `set_play_after_pass`: the lines are set play of a help play with an odd number of half-moves
/// (h#n.5, or WhiteToPlay): Popeye numbers them as the actual play, White's first move passed
/// (`1... ... 2.Ra4*c4 ...`).
fn help_lines(s: &mut Searcher, plies: u32, threads: usize, set_play_after_pass: bool, sol: &mut Solution) {
    if plies == 0 {
        return;
    }
    s.grow_hash();
    let mut roots = s.board.legal_moves();
    if s.null_moves && plies >= 2 && !s.board.in_check(s.board.side) {
        roots.push(NULL_MOVE);
    }
    let (res, stopped) = par_map(s, &roots, threads, |t, m| {
        let mut out = Vec::new();
        if m == NULL_MOVE {
            let ep = t.board.make_null();
            let mut line = vec![m];
            t.help(plies - 1, &mut line, &mut out);
            t.board.unmake_null(ep);
            let lines: Vec<String> = out
                .iter()
                .map(|l| format_help_line(&with_pass(set_play_after_pass, t.line_texts(l, Some(plies as usize - 1)))))
                .collect();
            return (lines, t.stopped);
        }
        let u = t.board.make(m);
        let mut line = vec![m];
        if plies == 1 {
            t.board.unmake(m, u);
            t.help_final(m, &mut out);
        } else {
            t.help(plies - 1, &mut line, &mut out);
            t.board.unmake(m, u);
        }
        let final_at = if t.stip.play == Play::HelpSelf { None } else { Some(plies as usize - 1) };
        let lines: Vec<String> = out
            .iter()
            .map(|l| {
                let fa = if t.stip.play == Play::HelpSelf { Some(l.len() - 1) } else { final_at };
                format_help_line(&with_pass(set_play_after_pass, t.line_texts(l, fa)))
            })
            .collect();
        (lines, t.stopped)
    });
    for (lines, _) in res {
        sol.lines.extend(lines);
    }
    sol.interrupted |= stopped;
}

pub(super) fn solve_help(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    let full = s.stip.help_plies();
    let plies = if s.opts.white_to_play && !s.stip.half { full - 1 } else { full };
    // The side that reaches the goal (or forces it, hs#) makes the last help move: White.
    s.board.side = if (plies % 2 == 1) != s.swap_sides { Color::White } else { Color::Black };
    if s.opts.set_play && plies >= 1 {
        let ep = s.board.make_null();
        // A side in check in the diagram cannot pass: Popeye prints no set play then.
        if s.board.in_check(!s.board.side) {
            s.board.unmake_null(ep);
            return help_actual(s, plies, threads, sol);
        }
        let mut min = plies - 1;
        while min >= 3 {
            min -= 2;
        }
        let mut k = min;
        while k < plies {
            if k >= 1 {
                help_lines(s, k, threads, plies % 2 == 1, sol);
            }
            k += 2;
        }
        s.board.unmake_null(ep);
        sol.set_play_lines = sol.lines.len();
    }
    help_actual(s, plies, threads, sol);
}

/// Actual help play: shorter solutions of the same parity, then the full length.
fn help_actual(s: &mut Searcher, plies: u32, threads: usize, sol: &mut Solution) {
    let mut k = if plies.is_multiple_of(2) { 2 } else { 1 };
    while k <= plies {
        help_lines(s, k, threads, false, sol);
        k += 2;
    }
}

/// A help line's move texts, after a passed first move when `pass` (see [`help_lines`]).
fn with_pass(pass: bool, mut texts: Vec<String>) -> Vec<String> {
    if pass {
        texts.insert(0, "...".to_string());
    }
    texts
}
