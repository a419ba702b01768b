//! Popeye's notation: move texts with their marks (checks, rebirths, the conditions' effects) and
//! the formats of help and series lines.

use mysl_core::Color;

use super::{goal_reached, Searcher};
use crate::board::{square_name, Board, Move, Special, NULL_MOVE};
use crate::stipulation::{Goal, Parry};
use crate::walk::{self, KINDS};

impl Searcher {
    /// Popeye's text for `m` in the current position, with its check/goal mark.
    pub(super) fn move_text(&mut self, m: Move, final_goal: bool) -> String {
        move_text(&mut self.board, self.stip.goal, m, final_goal)
    }

    /// Texts of a sequence of moves played from the current position (the board is restored).
    pub(super) fn line_texts(&mut self, moves: &[Move], final_goal_at: Option<usize>) -> Vec<String> {
        let mut texts = Vec::new();
        let mut undos = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if m == NULL_MOVE {
                texts.push("...".to_string());
                undos.push((m, None, Some(self.board.make_null())));
                continue;
            }
            texts.push(self.move_text(m, final_goal_at == Some(i)));
            undos.push((m, Some(self.board.make(m)), None));
        }
        while let Some((m, u, ep)) = undos.pop() {
            match (u, ep) {
                (Some(u), _) => self.board.unmake(m, u),
                (None, Some(ep)) => self.board.unmake_null(ep),
                (None, None) => {}
            }
        }
        texts
    }

    /// Texts of a series line: `k` series moves (the other side passing in between, or in a parry
    /// series parrying a check with the move that follows in `moves`), then the tail. Each text
    /// comes with whether it is a (numbered) series move.
    pub(super) fn series_texts(&mut self, moves: &[Move], k: usize) -> Vec<(bool, String)> {
        let mut texts = Vec::new();
        let mut undos = Vec::new();
        let mut series_done = 0;
        let mut parry_next = false;
        for (i, &m) in moves.iter().enumerate() {
            let numbered = series_done < k && !parry_next;
            let u = if m == NULL_MOVE {
                texts.push((numbered, "...".to_string()));
                (None, Some(self.board.make_null()))
            } else {
                texts.push((numbered, self.move_text(m, i + 1 == moves.len())));
                (Some(self.board.make(m)), None)
            };
            let mut null = None;
            parry_next = false;
            if numbered {
                series_done += 1;
                if series_done < k {
                    if self.stip.parry != Parry::None && self.board.in_check(self.board.side) {
                        parry_next = true;
                    } else {
                        null = Some(self.board.make_null());
                    }
                }
            }
            undos.push((m, u, null));
        }
        while let Some((m, u, null)) = undos.pop() {
            if let Some(ep) = null {
                self.board.unmake_null(ep);
            }
            match u {
                (Some(u), _) => self.board.unmake(m, u),
                (None, Some(ep)) => self.board.unmake_null(ep),
                (None, None) => {}
            }
        }
        texts
    }
}

/// Popeye's text for the legal move `m` on `board` (restored afterwards), with its check mark and,
/// when `final_goal` (the move is the one that must reach the goal), the goal's mark:
/// `Qd6-d5 +`, `0-0-0 #`, `Rh1*h4[+bQd8]`, `Kc5*d5 x`, `Ra8*a1 + z`.
pub fn move_text(board: &mut Board, goal: Goal, m: Move, final_goal: bool) -> String {
    let p = board.piece_at(m.from).expect("moving piece");
    let mut s = String::new();
    match m.special {
        Special::Castle { rook_from, rook_to } if board.castling_chess || board.exchange_castling => {
            // CastlingChess: the king's move, then the partner's with its colour,
            // `Ke8-c6/bPb5-d7`; ExchangeCastling: partner and king on their squares before the
            // move, `Bh5<->Ke8` (Popeye's `output_plaintext_write_castling`, `write_exchange`).
            let partner = board.piece_at(rook_from).expect("castling partner");
            let code = KINDS[partner.kind as usize].code;
            if board.castling_chess {
                let col = if partner.color == Color::White { 'w' } else { 'b' };
                s.push_str(&format!(
                    "{}{}-{}/{col}{code}{}-{}",
                    KINDS[p.kind as usize].code,
                    square_name(m.from),
                    square_name(m.to),
                    square_name(rook_from),
                    square_name(rook_to)
                ));
            } else {
                s.push_str(&format!(
                    "{code}{}<->{}{}",
                    square_name(rook_from),
                    KINDS[p.kind as usize].code,
                    square_name(m.from)
                ));
            }
        }
        Special::Castle { rook_from, rook_to } => {
            // Anti-Mars Circe: king and rook first go to their rebirth squares,
            // `[bKf6->e8][bRh5->a8]0-0-0`.
            let col = if p.color == Color::White { 'w' } else { 'b' };
            if m.extra != crate::board::NO_EXTRA {
                s.push_str(&format!("[{col}K{}->{}]", square_name(m.from), square_name(m.extra)));
            }
            let corner = if rook_to % 8 == 5 { rook_to + 2 } else { rook_to - 3 };
            if rook_from != corner {
                s.push_str(&format!("[{col}R{}->{}]", square_name(rook_from), square_name(corner)));
            }
            s.push_str(if rook_to % 8 == 5 { "0-0" } else { "0-0-0" })
        }
        _ => {
            let from = mysl_core::Square::from_index(m.from as u32);
            // Attributes before the piece; with one, a pawn is written `P` too (`uPc3-c4`); a
            // neutral piece `nPe7-e8=nQ`.
            let neutral = board.neutral.contains(from);
            let attr = neutral || board.bul.contains(from) || board.uncapturable.contains(from);
            if neutral {
                s.push('n');
            }
            if board.dob.contains(from) {
                s.push('d');
            } else if board.bul.contains(from) {
                s.push('b');
            }
            if board.uncapturable.contains(from) {
                s.push('u');
            }
            if p.kind == walk::KING && board.frankfurt && board.royal_walk[p.color.index()] != walk::KING {
                // FrankfurtChess: a royal piece by its walk, `rSd4-c6` (not checked against
                // Popeye).
                s.push('r');
                s.push_str(KINDS[board.royal_walk[p.color.index()] as usize].code);
            } else if p.kind != walk::PAWN || attr {
                s.push_str(KINDS[p.kind as usize].code);
            }
            s.push_str(&square_name(m.from));
            if board.mars != crate::board::Mars::Off && m.extra != crate::board::NO_EXTRA {
                // (Anti)Mars Circe: the piece is first put on its rebirth square, `Rh5-h8-e8`.
                s.push('-');
                s.push_str(&square_name(m.extra));
            }
            let ep = matches!(m.special, Special::EnPassant { .. } | Special::EnPassantRebirthPromote { .. });
            if let Special::Locust { cap } | Special::TakeMakePromote { cap, .. } = m.special {
                // A locust capture or a take&make, Popeye's way: departure, capture square,
                // arrival (`Lb3*d5-e6`, `Se3*f5-h6`); an en-passant take made back onto the
                // taken pawn's square as a capture there (`e5*d5`).
                s.push('*');
                if cap != m.to {
                    s.push_str(&square_name(cap));
                    s.push('-');
                }
            } else {
                let capture = board.piece_at(m.to).is_some() || ep;
                s.push(if capture { '*' } else { '-' });
            }
            s.push_str(&square_name(m.to));
            if let Special::Promote(k) | Special::TakeMakePromote { kind: k, .. } = m.special {
                s.push('=');
                if neutral {
                    s.push('n');
                }
                // Imitator: a promotion into an imitator, `e7-e8=I`.
                let imitator = board.imitators.n > 0 && m.extra == crate::board::IMITATOR_PROMOTION;
                s.push_str(if imitator { "I" } else { KINDS[k as usize].code });
            }
            if ep {
                s.push_str(" ep.");
            }
        }
    }
    let u = board.make(m);
    let fx = board.effects(&u);
    if fx.side_changed() {
        // Chameleon pursuit: the piece now belongs to the other side, `Nd3-c1=w`.
        s.push_str(if p.color == Color::White { "=b" } else { "=w" });
    }
    if let Some((royal, k)) = fx.frankfurt_walk() {
        // FrankfurtChess: the capturer's new walk, `c3*d4=S`, a king's `Ke5*d4=rS`.
        s.push('=');
        if royal {
            s.push('r');
        }
        s.push_str(KINDS[k as usize].code);
    }
    if let Some((r, rp)) = u.reborn() {
        // Circe rebirth, Popeye's way: `[+bPc7]`; a neutral piece `[+nPe7]`.
        let c = if board.neutral.contains(mysl_core::Square::from_index(r as u32)) {
            'n'
        } else if rp.color == Color::White {
            'w'
        } else {
            'b'
        };
        s.push_str(&format!("[+{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
    }
    if let Some((r, rp)) = fx.parrain_reborn() {
        // Circe Parrain: the piece captured by the move before is reborn, `[+bPc5]`; a pawn
        // reborn on its last rank as the promoted piece, `[+wPc8=Q]`.
        let c = if rp.color == Color::White { 'w' } else { 'b' };
        let last = if rp.color == Color::White { 7 } else { 0 };
        if rp.kind != walk::PAWN && r / 8 == last && m.extra as usize == rp.kind as usize {
            s.push_str(&format!("[+{c}P{}={}]", square_name(r), KINDS[rp.kind as usize].code));
        } else {
            s.push_str(&format!("[+{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
        }
    }
    if let Some((g, gp)) = fx.ghost_summoned() {
        // Ghost chess: the ghost comes back, uncapturable: `[+wuPc3]`.
        let c = if gp.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[+{c}u{}{}]", KINDS[gp.kind as usize].code, square_name(g)));
    }
    if let Some((r, placed)) = fx.anti_reborn() {
        // AntiCirce: the capturer's rebirth, `[wPa7->d8=Q]`.
        let c = if placed.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[{c}{}{}->{}", KINDS[placed.kind as usize].code, square_name(m.to), square_name(r)));
        if let Special::RebirthPromote(k) | Special::EnPassantRebirthPromote { kind: k, .. } = m.special {
            s.push('=');
            s.push_str(KINDS[k as usize].code);
        }
        s.push(']');
    }
    if let Some((h, t2, hp)) = fx.hurdle_moved() {
        // Bul, Dob: the hurdle's move, `[bPc4->f4]`, `[wbGe3->a7]` (a Bul hurdle, `d` a Dob
        // one), `[wPc6->c8=S]`.
        let c = if hp.color == Color::White { 'w' } else { 'b' };
        let t2s = mysl_core::Square::from_index(t2 as u32);
        let attr = if board.dob.contains(t2s) {
            "d"
        } else if board.bul.contains(t2s) {
            "b"
        } else {
            ""
        };
        s.push_str(&format!("[{c}{attr}{}{}->{}", KINDS[hp.kind as usize].code, square_name(h), square_name(t2)));
        if let Special::HurdlePromote(k) = m.special {
            s.push('=');
            s.push_str(KINDS[k as usize].code);
        }
        s.push(']');
    }
    if let Some((r, rp)) = fx.breton_removed() {
        // Breton removal: `[-bPb3]`.
        let c = if rp.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[-{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
    }
    if board.imitators.n > 0 {
        // Imitator: where the imitators stand after the move, `[Ic4,f6]`.
        let squares: Vec<String> = board.imitators.squares().iter().map(|&i| square_name(i)).collect();
        s.push_str(&format!("[I{}]", squares.join(",")));
    }
    if board.bgl.on {
        s.push_str(&board.bgl.text());
    }
    // The goal's mark (Popeye's goal writer): the check goal's ` +` replaces the check mark (a mating
    // move reaching it too); capture and target are marked after the check (`Ra8*a1 + z`); castling,
    // en passant and any move have no mark of their own.
    let victim = board.side;
    let goal_here = final_goal && goal != Goal::Mate && goal_reached(board, goal);
    if goal_here && goal == Goal::Check {
        s.push_str(" +");
    } else if board.in_check(victim) {
        // Popeye's check writer marks every check ` +`; only the goal writer, at a move that reaches
        // the mate goal, writes ` #` (a defence that happens to mate is `+`).
        let mate_goal = final_goal && goal == Goal::Mate && !board.has_legal_move();
        s.push_str(if mate_goal { " #" } else { " +" });
    } else if goal_here && matches!(goal, Goal::Stalemate | Goal::DoubleStalemate) {
        s.push(' ');
        s.push_str(&goal.symbol());
    }
    if goal_here && matches!(goal, Goal::Capture | Goal::Target(_)) {
        s.push_str(if goal == Goal::Capture { " x" } else { " z" });
    }
    board.unmake(m, u);
    s
}

/// Formats help-play lines: numbered in pairs ending with the last half move.
pub(super) fn format_help_line(texts: &[String]) -> String {
    let mut s = String::new();
    let odd = texts.len() % 2 == 1;
    let mut num = 1;
    for (i, t) in texts.iter().enumerate() {
        // A null move (`...`, Popeye's " ...") after a move number: `1. ...`, `1... ...`.
        let pos = i + odd as usize; // position in pairs
        let t = if t == "..." && (pos.is_multiple_of(2) || i == 0) { " ..." } else { t.as_str() };
        if i == 0 && odd {
            s.push_str(&format!("1...{t}"));
            num = 2;
            continue;
        }
        if pos.is_multiple_of(2) {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&format!("{num}.{t}"));
            num += 1;
        } else {
            s.push(' ');
            s.push_str(t);
        }
    }
    s
}
