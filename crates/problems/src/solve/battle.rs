//! Battle play: direct, self, reflex and semi-reflex play (`#n`, `s#n`, `r#n`, `hs#` is help
//! play): does the attacker win, and the solution trees (keys, tries, threats, variations, set
//! play).

use mysl_core::{Bitboard, Color};

use super::bounds::FREE_MAX;
use super::hash::salt;
use super::{front, par_map, Searcher, Solution};
use crate::board::{Board, Move};
use crate::stipulation::{Goal, Play};

/// Defender nodes with at least this many attacker moves left order their defences by the
/// attacker's replies ([`Searcher::order_by_replies`]).
const FEW_REPLIES_MIN: u32 = 2;

/// The move buffer of a defender node with `k` attacker moves left, and of an attacker node
/// with `n` (each recursion level its own; index 0 is the leaves' scratch).
fn defender_buf(k: u32) -> u32 {
    2 * k.min(63) + 2
}

fn attacker_buf(n: u32) -> u32 {
    2 * n.min(63) + 1
}

impl Searcher {
    fn is_direct(&self) -> bool {
        self.stip.play == Play::Direct
    }

    /// Defences available to the side to move (reflex: only goal moves when there are any).
    fn defences(&mut self) -> Vec<Move> {
        if matches!(self.stip.play, Play::Reflex | Play::SemiReflex) {
            let g = self.goal_moves();
            if !g.is_empty() {
                return g;
            }
        }
        self.board.legal_moves()
    }

    /// After a defence (attacker to move, `k` attacker moves left): does the attacker win?
    fn after_defence(&mut self, k: u32) -> bool {
        if !self.is_direct() && self.goal_reached() {
            return true;
        }
        k > 0 && self.wins(k)
    }

    /// Defender to move, `k` attacker moves left: does the attacker win against every defence?
    fn defender_loses(&mut self, k: u32) -> bool {
        if k == 0 && self.stip.play == Play::SelfPlay {
            // The last layer of a self-play problem: computed, never hashed (a probe of the large
            // table is a cache miss that costs more than the test, which mostly stops at the
            // first defence).
            if self.tick() {
                return false;
            }
            return self.all_replies_reach_goal();
        }
        // One entry for every budget: losing within k is losing within more.
        let key = self.board.key() ^ salt(0, 3);
        if let Some(v) = self.hash.get_monotone(key, k) {
            return v;
        }
        if self.tick() {
            return false;
        }
        let reflex = matches!(self.stip.play, Play::Reflex | Play::SemiReflex);
        let buf = defender_buf(k);
        let mut ds = self.take_buf(buf);
        if reflex {
            ds = self.defences();
        } else {
            self.board.pseudo_moves(&mut ds);
        }
        if k >= FEW_REPLIES_MIN {
            self.order_by_replies(&mut ds);
        } else {
            front(&mut ds, self.refute_killer[(k as usize).min(63)]);
        }
        let us = self.board.side;
        let mut res = true;
        let mut legal = 0;
        let child_salt = salt(0, 4);
        for &d in &ds {
            let u = self.board.make(d);
            if k > 0 {
                self.hash.prefetch(self.board.key() ^ child_salt);
            }
            if self.board.in_check(us) {
                self.board.unmake(d, u);
                continue;
            }
            legal += 1;
            let ok = self.after_defence(k);
            self.board.unmake(d, u);
            if !ok {
                self.refute_killer[(k as usize).min(63)] = Some(d);
                res = false;
                break;
            }
        }
        self.bufs[buf as usize] = ds;
        if legal == 0 {
            res = false;
        }
        self.hash_put_monotone(key, res, k);
        res
    }

    /// Defences (pseudo-legal, defender to move) ordered by how many moves they leave the
    /// attacker, fewest first (illegal ones last): proving that the attacker does not win after
    /// a defence costs about its number of moves to the power of the moves left, and the
    /// defence that refutes is usually the first tried. Popeye orders defences the same way
    /// (`optimisations/count_nr_opponent_moves`). The attacker's moves are counted as generated
    /// (in check under orthodox rules, only the moves that may be legal): a cheap measure.
    fn order_by_replies(&mut self, ds: &mut [Move]) {
        let us = self.board.side;
        let mut scratch = self.take_buf(0);
        let mut keyed = std::mem::take(&mut self.reply_counts);
        keyed.clear();
        for &d in ds.iter() {
            let u = self.board.make(d);
            let count = if self.board.in_check(us) {
                u32::MAX
            } else {
                scratch.clear();
                let them = self.board.side;
                match (self.board.evasion_targets(), self.board.king_square(them)) {
                    (Some(targets), Some(ksq)) => self.board.evasion_candidates(targets, ksq, &mut scratch),
                    _ => self.board.pseudo_moves(&mut scratch),
                }
                scratch.len() as u32
            };
            self.board.unmake(d, u);
            keyed.push((count, d));
        }
        keyed.sort_by_key(|&(c, _)| c);
        for (slot, &(_, d)) in ds.iter_mut().zip(&keyed) {
            *slot = d;
        }
        self.reply_counts = keyed;
        self.bufs[0] = scratch;
    }

    /// Self play, defender to move, no attacker move left: does every legal defence reach the
    /// goal (and is there one)? The same answer as the general loop of
    /// [`Searcher::defender_loses`] with `k == 0` (`after_defence(0)` is "the goal is reached").
    ///
    /// For mate, the defences that cannot give check ([`Board::could_check_with`] false: a
    /// superset test of checking moves, the one the help search's last move relies on) come
    /// first and need only their legality tested: a legal defence that gives no check mates no
    /// king, so it refutes at once. This order changes nothing but the time (the answer is an
    /// "every defence" test). The moves that may check are then played out in full.
    pub(super) fn all_replies_reach_goal(&mut self) -> bool {
        let us = self.board.side;
        let mut moves = self.take_buf(0);
        let test = self.board.needs_legality_test();
        // In check (orthodox rules): only the moves that may be legal, the king's first (the
        // likeliest escapes, which give no check but by discovery).
        let evasions = if test.is_none() { self.board.evasion_targets() } else { None };
        match (evasions, self.board.king_square(us)) {
            (Some(targets), Some(ksq)) => self.board.evasion_candidates(targets, ksq, &mut moves),
            _ => self.board.pseudo_moves(&mut moves),
        }
        let ci = if self.stip.goal == Goal::Mate && !self.board.restricts_moves() && !self.board.neutral.any() {
            self.board.king_square(!us).map(|k| self.board.check_info(k))
        } else {
            None
        };
        let mut res = None;
        if let Some(ci) = &ci {
            for &m in &moves {
                if self.board.could_check_with(ci, m) {
                    continue;
                }
                if !Board::must_test(test, m) {
                    res = Some(false);
                    break;
                }
                let u = self.board.make(m);
                let legal = !self.board.in_check(us);
                self.board.unmake(m, u);
                if legal {
                    res = Some(false);
                    break;
                }
            }
        }
        let res = match res {
            Some(r) => r,
            None => {
                let mut legal = 0;
                let mut all = true;
                for &m in &moves {
                    if ci.as_ref().is_some_and(|ci| !self.board.could_check_with(ci, m)) {
                        continue; // illegal (the pass above)
                    }
                    let u = self.board.make(m);
                    if self.board.in_check(us) {
                        self.board.unmake(m, u);
                        continue;
                    }
                    legal += 1;
                    let g = self.goal_reached();
                    self.board.unmake(m, u);
                    if !g {
                        all = false;
                        break;
                    }
                }
                all && legal > 0
            }
        };
        self.bufs[0] = moves;
        res
    }

    /// After an attacker move (defender to move) with `n` attacker moves counting that move: does it win?
    fn move_wins(&mut self, n: u32) -> bool {
        match self.stip.play {
            Play::Direct => self.goal_reached() || (n > 1 && self.defender_loses(n - 1)),
            _ => (self.opts.quodlibet && self.goal_reached()) || self.defender_loses(n - 1),
        }
    }

    /// Attacker to move: does it win within `n` moves?
    pub(super) fn wins(&mut self, n: u32) -> bool {
        // One entry for every budget: a win within n is a win within more.
        let key = self.board.key() ^ salt(0, 4);
        if let Some(v) = self.hash.get_monotone(key, n) {
            return v;
        }
        if self.tick() {
            return false;
        }
        let mate_in_1 = n == 1 && self.stip.play == Play::Direct && self.stip.goal == Goal::Mate;
        let enemy_king = self.board.king_square(!self.board.side);
        let buf = attacker_buf(n);
        let mut moves = self.take_buf(buf);
        // Mate in 1: only the moves that may give check are generated (mate needs check);
        // candidate generation skips the conditions' move restrictions.
        let checks_only = match enemy_king {
            Some(k) if mate_in_1 && !self.board.restricts_moves() => Some(self.board.check_info(k)),
            _ => None,
        };
        match &checks_only {
            Some(ci) => {
                self.board.checking_candidates(ci, &mut moves);
                moves.retain(|&m| self.board.could_check_with(ci, m));
            }
            None => self.board.pseudo_moves(&mut moves),
        }
        let mut res = false;
        if self.stip.play == Play::Reflex {
            moves = self.board.legal_moves();
            // White must reach the goal if it can; then it cannot force the reflex goal.
            for &m in &moves {
                let u = self.board.make(m);
                let g = self.goal_reached();
                self.board.unmake(m, u);
                if g {
                    let q = self.opts.quodlibet;
                    self.bufs[buf as usize] = moves;
                    self.hash_put_monotone(key, q, n);
                    return q;
                }
            }
        }
        front(&mut moves, self.win_killer[(n as usize).min(63)]);
        // s#1: the defender's free moves, and the attacker moves that cannot stop them.
        let mut free = [Bitboard(0); FREE_MAX];
        let nfree = if n == 1 && self.self_free { self.free_defences(&mut free) } else { 0 };
        let their_king_info =
            if nfree > 0 { self.board.king_square(!self.board.side).map(|k| self.board.check_info(k)) } else { None };
        for &m in &moves {
            if mate_in_1 && checks_only.is_none() && enemy_king.is_some_and(|k| !self.board.could_check(m, k)) {
                continue;
            }
            if let Some(ci) = &their_king_info {
                if self.misses_a_free_defence(m, ci, &free[..nfree]) {
                    continue;
                }
            }
            let u = self.board.make(m);
            // The defender node's entry, where it will be probed (the last layers of direct and
            // self play are computed, not hashed).
            if n > 1 || matches!(self.stip.play, Play::Reflex | Play::SemiReflex) {
                self.hash.prefetch(self.board.key() ^ salt(0, 3));
            }
            if self.board.in_check(!self.board.side) {
                self.board.unmake(m, u);
                continue;
            }
            let w = self.move_wins(n);
            self.board.unmake(m, u);
            if w {
                self.win_killer[(n as usize).min(63)] = Some(m);
                res = true;
                break;
            }
        }
        self.bufs[buf as usize] = moves;
        self.hash_put_monotone(key, res, n);
        res
    }

    /// Smallest k in 1..=max with `wins(k)` (attacker to move).
    fn min_win(&mut self, max: u32) -> Option<u32> {
        (1..=max).find(|&k| self.wins(k))
    }

    /// Attacker moves that win in exactly `k` (attacker to move).
    fn winning_moves(&mut self, k: u32) -> Vec<Move> {
        let moves = self.board.legal_moves();
        let mut res = Vec::new();
        for m in moves {
            let u = self.board.make(m);
            if self.move_wins(k) {
                res.push(m);
            }
            self.board.unmake(m, u);
        }
        res
    }

    /// Threat after an attacker move (defender to move): (length, threat moves), if any.
    fn threat(&mut self, n_after: u32) -> Option<(u32, Vec<Move>)> {
        let ep = self.board.make_null();
        let mut res = None;
        let max = self.opts.threat.map_or(n_after, |t| t.min(n_after));
        if let Some(k) = self.min_win(max) {
            let ts = self.winning_moves(k);
            res = Some((k, ts));
        }
        self.board.unmake_null(ep);
        res
    }

    /// Prints an attacker move `m` (board before it) that wins in `n`, with its subtree.
    /// `marker`: " !" for keys, " ?" for tries, "" inside the tree. Returns refutations (tries).
    fn print_attack(&mut self, m: Move, n: u32, num: u32, marker: &str, refutations: &[Move], out: &mut Vec<String>) {
        let u = self.board.make(m);
        let direct_goal = (self.is_direct() || self.opts.quodlibet) && self.goal_reached();
        self.board.unmake(m, u);
        // A move reaching the goal before the last move (a short solution) gets the goal's mark
        // too (`1.b6*a7[wPa7->b6] = !` in an =2, pyset-065).
        let text = self.move_text(m, (n == 1 && self.is_direct()) || direct_goal);
        let u = self.board.make(m);
        let victim = self.board.side;
        let in_check = self.board.in_check(victim);
        if direct_goal {
            out.push(format!("{num}.{text}{marker}"));
            self.board.unmake(m, u);
            return;
        }
        let n_after = n - 1;
        let mut threat = None;
        let mut suffix = "";
        // Without Option Variation Popeye prints no post-key play in s#/r#, threats included
        // (`1.Kd1*c2 !` alone in the r#2 of its battle_play test "no variations, but tries").
        let post_key = self.opts.variation || self.is_direct();
        if !in_check && n_after > 0 && !self.opts.no_threat && post_key {
            threat = self.threat(n_after);
            suffix = if threat.is_some() { " threat:" } else { " zugzwang." };
        }
        out.push(format!("{num}.{text}{marker}{suffix}"));
        if let Some((k, ts)) = &threat {
            let ep = self.board.make_null();
            for &t in ts {
                self.print_attack(t, *k, num + 1, "", &[], out);
            }
            self.board.unmake_null(ep);
        }
        // Without Option Variation only the keys/tries, their threats and (s#1, r#1) the forced replies.
        if self.opts.variation || (!marker.is_empty() && n_after == 0) {
            self.print_defences(n_after, num, threat.as_ref(), refutations, out);
        }
        if !refutations.is_empty() {
            out.push("but".to_string());
            for &r in refutations {
                let t = self.move_text(r, false);
                out.push(format!("{num}...{t} !"));
                self.print_reflex_obligation(r, num + 1, out);
            }
        }
        self.board.unmake(m, u);
    }

    /// r#: after the defence `d` (board before it), the attacker must reach the goal if it can;
    /// Popeye prints those obligatory goal moves under the defence (`1...Ke3*d4 !` then
    /// `2.Sd2-f3 #`): they are what breaks the attacker's move.
    fn print_reflex_obligation(&mut self, d: Move, num: u32, out: &mut Vec<String>) {
        if self.stip.play != Play::Reflex || self.opts.quodlibet {
            return;
        }
        let u = self.board.make(d);
        for g in self.goal_moves() {
            let t = self.move_text(g, true);
            out.push(format!("{num}.{t}"));
        }
        self.board.unmake(d, u);
    }

    /// Defender to move; prints the defences that defeat the threat with their shortest continuations.
    fn print_defences(
        &mut self,
        k: u32,
        num: u32,
        threat: Option<&(u32, Vec<Move>)>,
        refutations: &[Move],
        out: &mut Vec<String>,
    ) {
        let ds = self.defences();
        for d in ds {
            if refutations.contains(&d) {
                continue;
            }
            let text_goal = !self.is_direct();
            let text = self.move_text(d, text_goal);
            let u = self.board.make(d);
            if !self.is_direct() && self.goal_reached() {
                // Popeye shows the defender's goal moves only at the end (or with MatesIn1).
                if k == 0 || self.opts.mates_in_1 {
                    out.push(format!("{num}...{text}"));
                }
                self.board.unmake(d, u);
                continue;
            }
            if k == 0 {
                self.board.unmake(d, u);
                continue;
            }
            let Some(kmin) = self.min_win(k) else {
                self.board.unmake(d, u);
                continue;
            };
            if let Some((kt, ts)) = threat {
                // As Popeye prints them: a defence is a variation if it defeats at least one of
                // the threat moves and does not allow a win shorter than the threat.
                let legal = self.board.legal_moves();
                let mut all_still = kmin >= *kt;
                for &t in ts {
                    if !all_still {
                        break;
                    }
                    // The threat move may be there with another castling partner or hurdle
                    // move (`Board::same_threat_move`).
                    let same: Vec<Move> =
                        legal.iter().copied().filter(|&l| self.board.same_threat_move(l, t)).collect();
                    let mut w = false;
                    for l in same {
                        let u2 = self.board.make(l);
                        w = self.move_wins(*kt);
                        self.board.unmake(l, u2);
                        if w {
                            break;
                        }
                    }
                    all_still &= w;
                }
                let short = kmin < *kt;
                if short || all_still {
                    self.board.unmake(d, u);
                    continue;
                }
            }
            out.push(format!("{num}...{text}"));
            for c in self.winning_moves(kmin) {
                self.print_attack(c, kmin, num + 1, "", &[], out);
            }
            self.board.unmake(d, u);
        }
    }

    /// Refutations of attacker move `m` (board before it) in an n-mover, in the order of the
    /// defences; only the first `limit + 1` found (more make no try to print). `[m]` if there
    /// is no defence at all (stalemate: not a try).
    fn refutations(&mut self, m: Move, n: u32, limit: u32) -> Vec<Move> {
        let u = self.board.make(m);
        let ds = self.defences();
        let mut refs = Vec::new();
        if ds.is_empty() {
            refs.push(m);
        } else {
            // The likeliest refutations first, so that a move with many stops early.
            let mut tried = ds.clone();
            if n >= 2 {
                self.order_by_replies(&mut tried);
            }
            let mut found = Vec::new();
            for d in tried {
                let u2 = self.board.make(d);
                let ok = self.after_defence(n - 1);
                self.board.unmake(d, u2);
                if !ok {
                    found.push(d);
                    if found.len() as u32 > limit {
                        break;
                    }
                }
            }
            refs = ds.into_iter().filter(|d| found.contains(d)).collect();
        }
        self.board.unmake(m, u);
        refs
    }

    /// Does attacker move `m` satisfy the `Threat n` option (if given)?
    fn threat_ok(&mut self, m: Move, n: u32) -> bool {
        let Some(t) = self.opts.threat else { return true };
        let u = self.board.make(m);
        let ok = if self.board.in_check(self.board.side) || n <= 1 {
            true
        } else {
            let ep = self.board.make_null();
            let r = (1..=t.min(n - 1)).any(|k| self.wins(k));
            self.board.unmake_null(ep);
            r
        };
        self.board.unmake(m, u);
        ok
    }

    /// Output block of one root move in battle play.
    fn battle_root_move(&mut self, m: Move) -> Vec<String> {
        let mut n = self.stip.moves;
        let mut out = Vec::new();
        if self.stip.play == Play::Reflex && self.has_goal_move() {
            // White must reach the goal, which breaks the r#: Popeye prints each such move
            // without a mark (`1.Bg7-f8 #`), as it prints the obligation after a refutation.
            if !self.opts.quodlibet {
                let u = self.board.make(m);
                let g = self.goal_reached();
                self.board.unmake(m, u);
                if g {
                    let t = self.move_text(m, true);
                    out.push(format!("1.{t}"));
                }
            }
            return out;
        }
        let u = self.board.make(m);
        let key = self.move_wins(n);
        // s#n/r#n: a key after which every defence reaches the goal at once is printed as the
        // key of an s#1/r#1 (`1.Rc3-c4 !` then `1...b3-b2 #`), not with a threat or zugzwang.
        let short = key && n > 1 && !self.is_direct() && self.move_wins(1);
        self.board.unmake(m, u);
        if short {
            n = 1;
        }
        if key {
            if self.threat_ok(m, n) {
                self.print_attack(m, n, 1, " !", &[], &mut out);
            }
        } else if self.opts.try_play && !self.stopped {
            let refs = self.refutations(m, n, self.opts.defence);
            let is_stalemate = refs.first() == Some(&m);
            if !is_stalemate && !refs.is_empty() && refs.len() as u32 <= self.opts.defence && self.threat_ok(m, n) {
                self.print_attack(m, n, 1, " ?", &refs, &mut out);
            }
        }
        out
    }

    /// Set play in battle play: the defender moves first.
    fn battle_set_play(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        let ep = self.board.make_null();
        if !self.board.in_check(!self.board.side) {
            let n = self.stip.moves;
            self.print_defences_set(n - 1, &mut out);
        }
        self.board.unmake_null(ep);
        out
    }

    fn print_defences_set(&mut self, k: u32, out: &mut Vec<String>) {
        let ds = self.defences();
        // s#/r#: when every defence reaches the goal at once (the set play is a complete
        // s#0.5/r#0.5), Popeye prints them all (`1...b3-b2 #`), with or without MatesIn1.
        let complete = !self.is_direct() && !ds.is_empty() && {
            let mut all = true;
            for &d in &ds {
                let u = self.board.make(d);
                all = self.goal_reached();
                self.board.unmake(d, u);
                if !all {
                    break;
                }
            }
            all
        };
        for d in ds {
            let text = self.move_text(d, !self.is_direct());
            let u = self.board.make(d);
            if !self.is_direct() && self.goal_reached() {
                if self.opts.mates_in_1 || complete {
                    out.push(format!("1...{text}"));
                }
            } else if k > 0 {
                if let Some(kmin) = self.min_win(k) {
                    out.push(format!("1...{text}"));
                    for c in self.winning_moves(kmin) {
                        self.print_attack(c, kmin, 2, "", &[], out);
                    }
                }
            }
            self.board.unmake(d, u);
        }
    }
}

pub(super) fn solve_battle(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    s.board.side = Color::White;
    if s.opts.set_play {
        let lines = s.battle_set_play();
        sol.lines.extend(lines);
        sol.set_play_lines = sol.lines.len();
    }
    let roots = s.board.legal_moves();
    let (res, stopped) = par_map(s, &roots, threads, |t, m| t.battle_root_move(m));
    for lines in res {
        sol.lines.extend(lines);
    }
    sol.interrupted |= stopped;
}
