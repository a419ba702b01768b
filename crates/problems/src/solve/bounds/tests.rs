//! The bounds never change an answer: random positions, compared with brute force or with the
//! search without the bound.

use mysl_core::Color;

use super::{check_reachable, flights_coverable};
use crate::board::{Board, Move, Piece};
use crate::input::Options;
use crate::solve::notation::format_help_line;
use crate::solve::series::solve_series;
use crate::solve::{Limits, Searcher, Solution};
use crate::stipulation::{Goal, Parry, Play, Stipulation};
use crate::walk;

/// The next number of a xorshift generator (reproducible random test positions).
fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Does a line of `plies` legal half moves (the last one by `mating`) end in a position where
/// `goal` holds? Brute force.
fn line_exists(b: &mut Board, mating: Color, plies: u32, goal: fn(&mut Board, Color) -> bool) -> bool {
    if plies == 0 {
        return false;
    }
    for m in b.legal_moves() {
        let u = b.make(m);
        let hit = if plies == 1 { goal(b, mating) } else { line_exists(b, mating, plies - 1, goal) };
        b.unmake(m, u);
        if hit {
            return true;
        }
    }
    false
}

/// `mating` gives check (the goal of the check-reach bound's test).
fn gives_check(b: &mut Board, mating: Color) -> bool {
    b.in_check(!mating)
}

/// `mating` mates.
fn gives_mate(b: &mut Board, mating: Color) -> bool {
    b.in_check(!mating) && b.legal_moves().is_empty()
}

/// The check-reach bound never rules out a line that exists: random positions, every length
/// up to 4 half moves, compared with brute force.
#[test]
fn check_reachable_is_sound() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut rnd = |n: u64| xorshift(&mut seed) % n;
    let mut pruned = 0;
    let mut tried = 0;
    while tried < 400 {
        let mut b = Board::empty();
        let white = [walk::KING, walk::KNIGHT, walk::PAWN, walk::BISHOP, walk::ROOK, walk::QUEEN];
        let black = [walk::KING, walk::ROOK, walk::PAWN];
        let nw = 2 + rnd(3) as usize;
        let mut ok = true;
        for (i, &k) in white.iter().take(nw).chain(black.iter()).enumerate() {
            let color = if i < nw { Color::White } else { Color::Black };
            let s = rnd(64) as u8;
            if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                ok = false;
                break;
            }
            b.put(s, Piece { color, kind: k });
        }
        if !ok {
            continue;
        }
        b.side = Color::Black;
        if b.in_check(Color::White) || b.in_check(Color::Black) {
            continue;
        }
        tried += 1;
        // The mask-based check filter and generator keep every move that gives check.
        for side in [Color::White, Color::Black] {
            b.side = side;
            let k = b.king_square(!side).expect("king");
            let ci = b.check_info(k);
            let mut all = Vec::new();
            b.pseudo_moves(&mut all);
            // Moves that skip the legality test are legal.
            let test = b.needs_legality_test();
            for &m in &all {
                if !Board::must_test(test, m) {
                    let u = b.make(m);
                    assert!(!b.in_check(side), "{m:?} {b:?}");
                    b.unmake(m, u);
                }
            }
            let mut got = Vec::new();
            b.checking_candidates(&ci, &mut got);
            got.retain(|&m| b.could_check_with(&ci, m));
            for &m in &all {
                let u = b.make(m);
                let checks = !b.in_check(side) && b.in_check(!side);
                b.unmake(m, u);
                if checks {
                    assert!(got.contains(&m), "{m:?} {b:?}");
                }
            }
            assert!(got.iter().all(|m| all.contains(m)));
        }
        for plies in 1..=4u32 {
            // White makes the last half move.
            b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
            if !check_reachable(&b, Color::White, plies.div_ceil(2), plies / 2) {
                pruned += 1;
                assert!(!line_exists(&mut b, Color::White, plies, gives_check), "pruned a line: {plies} plies, {b:?}");
            }
        }
    }
    assert!(pruned > 50, "the bound should prune some of these positions ({pruned})");
}

/// A series stipulation solved with a bound on and off (`switch` turns it); the lines must be the
/// same. Returns them.
fn series_lines_both_ways(
    b: &Board,
    stip: Stipulation,
    limits: &Limits,
    switch: fn(&mut Searcher, bool),
) -> Vec<String> {
    let mut lines = Vec::new();
    for on in [true, false] {
        let mut s = Searcher::new(b.clone(), stip, Options::default(), limits);
        switch(&mut s, on);
        let mut sol = Solution::default();
        solve_series(&mut s, 1, &mut sol);
        sol.lines.sort();
        lines.push(sol.lines);
    }
    assert_eq!(lines[0], lines[1], "{stip}: {b:?}");
    lines.swap_remove(0)
}

/// The s#1 free-defence bound ([`Searcher::free_defences`]) never changes an answer: random
/// positions, s#1 and s#2, `wins` with the bound against `wins` without it, and ser-s#1-3
/// (the series' last move) solved both ways.
#[test]
fn free_defence_bound_is_sound() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = |n: u64| xorshift(&mut seed) % n;
    let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
    let (mut tried, mut wins, mut skipped_before, mut series_solved) = (0, 0, 0u64, 0u32);
    // Release test runs take more positions (most are lost: about one in 500 s#1 is won).
    let positions = if cfg!(debug_assertions) { 5000 } else { 20000 };
    while tried < positions {
        let mut b = Board::empty();
        let white =
            [walk::KING, walk::QUEEN, walk::ROOK, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN, walk::PAWN];
        let black = [walk::KING, walk::QUEEN, walk::KNIGHT, walk::PAWN, walk::ROOK, walk::PAWN];
        let nw = 4 + rnd(5) as usize;
        let nb = 2 + rnd(5) as usize;
        // Kings close together, so that mates are within reach.
        let wk = rnd(64) as u8;
        let mut ok = true;
        for (i, &k) in white.iter().take(nw).chain(black.iter().take(nb)).enumerate() {
            let color = if i < nw { Color::White } else { Color::Black };
            let s = if i == nw {
                let (f, r) = ((wk % 8) as i64 + rnd(5) as i64 - 2, (wk / 8) as i64 + rnd(5) as i64 - 2);
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    ok = false;
                    break;
                }
                (r * 8 + f) as u8
            } else if i == 0 {
                wk
            } else {
                rnd(64) as u8
            };
            if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                ok = false;
                break;
            }
            b.put(s, Piece { color, kind: k });
        }
        if !ok {
            continue;
        }
        b.side = Color::White;
        if b.in_check(Color::Black) {
            continue;
        }
        tried += 1;
        for n in 1..=(1 + (tried % 10 == 0) as u32) {
            let stip = Stipulation {
                play: Play::SelfPlay,
                series: false,
                goal: Goal::Mate,
                moves: n,
                half: false,
                parry: Parry::None,
            };
            let mut with = Searcher::new(b.clone(), stip, Options::default(), &limits);
            assert!(with.self_free);
            let mut without = Searcher::new(b.clone(), stip, Options::default(), &limits);
            without.self_free = false;
            let (x, y) = (with.wins(n), without.wins(n));
            assert_eq!(x, y, "s#{n}: {b:?}");
            wins += x as u32;
            skipped_before += without.nodes.saturating_sub(with.nodes);
        }
        // ser-s# (the series' last move must take the free defences away): 1 to 3 moves, the
        // same lines with and without the bound.
        if tried % 4 == 0 {
            let stip = Stipulation {
                play: Play::SelfPlay,
                series: true,
                goal: Goal::Mate,
                moves: if tried % 40 == 0 { 3 } else { 1 + (tried / 4) % 2 },
                half: false,
                parry: Parry::None,
            };
            let lines = series_lines_both_ways(&b, stip, &limits, |s, on| {
                assert!(s.self_free);
                s.self_free = on;
            });
            series_solved += !lines.is_empty() as u32;
        }
    }
    eprintln!("free-defence test: {wins} won, {skipped_before} nodes saved, {series_solved} ser-s# solved");
    assert!(wins > 5, "some positions should be won ({wins})");
    assert!(series_solved > 5, "some ser-s# should have solutions ({series_solved})");
    assert!(skipped_before > 0, "the bound should save some nodes");
}
/// The stalemate bounds (the last move must take away every free move of the stalemated
/// side, [`Searcher::stalemate_free_moves`]; its move before that must leave fewer than
/// three disjoint ones, [`Searcher::stalemate_skips`]) never lose a solution: random
/// positions with a few pieces a side (castling rights now and then), h= of 1 to 4 half
/// moves solved with and without them, the same lines.
#[test]
fn stalemate_bounds_are_sound() {
    let mut seed = 0x5851_f42d_4c95_7f2du64;
    let mut rnd = |n: u64| xorshift(&mut seed) % n;
    let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
    let (mut tried, mut solved, mut saved, mut series_solved) = (0u32, 0u32, 0u64, 0u32);
    let positions = if cfg!(debug_assertions) { 1500 } else { 6000 };
    let white_pool = [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN, walk::PAWN];
    let black_pool = [walk::PAWN, walk::PAWN, walk::PAWN, walk::KNIGHT, walk::BISHOP, walk::ROOK];
    while tried < positions {
        let mut b = Board::empty();
        let castle = rnd(4) == 0;
        let wk = if castle { 4 } else { rnd(64) as u8 };
        b.put(wk, Piece { color: Color::White, kind: walk::KING });
        if castle {
            b.put(7, Piece { color: Color::White, kind: walk::ROOK });
            if rnd(2) == 0 {
                b.put(0, Piece { color: Color::White, kind: walk::ROOK });
            }
        }
        // The stalemated king near an edge, where stalemates are within reach.
        let bk = [rnd(8) as u8, 56 + rnd(8) as u8, 8 * rnd(8) as u8, 8 * rnd(8) as u8 + 7][rnd(4) as usize];
        if b.piece_at(bk).is_some() {
            continue;
        }
        b.put(bk, Piece { color: Color::Black, kind: walk::KING });
        let mut ok = true;
        let (nw, nb) = (1 + rnd(3) as usize, rnd(7) as usize);
        for i in 0..nw + nb {
            let (color, kind) = if i < nw {
                (Color::White, white_pool[rnd(white_pool.len() as u64) as usize])
            } else {
                (Color::Black, black_pool[rnd(black_pool.len() as u64) as usize])
            };
            let s = rnd(64) as u8;
            if b.piece_at(s).is_some() || (kind == walk::PAWN && !(8..56).contains(&s)) {
                ok = false;
                break;
            }
            b.put(s, Piece { color, kind });
        }
        if !ok {
            continue;
        }
        b.castling = b.default_castling();
        let plies = 1 + rnd(4) as u32;
        b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
        if b.in_check(!b.side) {
            continue;
        }
        tried += 1;
        let stip = Stipulation {
            play: Play::Help,
            series: false,
            goal: Goal::Stalemate,
            moves: plies / 2,
            half: plies % 2 == 1,
            parry: Parry::None,
        };
        let mut with = Searcher::new(b.clone(), stip, Options::default(), &limits);
        assert!(with.stale_free);
        let mut without = Searcher::new(b.clone(), stip, Options::default(), &limits);
        without.stale_free = false;
        let (mut x, mut y) = (Vec::new(), Vec::new());
        with.help(plies, &mut Vec::new(), &mut x);
        without.help(plies, &mut Vec::new(), &mut y);
        let key = |v: &Vec<Vec<Move>>| {
            let mut k: Vec<String> = v.iter().map(|l| format!("{l:?}")).collect();
            k.sort();
            k
        };
        assert_eq!(key(&x), key(&y), "h= in {plies} half moves: {b:?}");
        solved += !x.is_empty() as u32;
        saved += without.nodes.saturating_sub(with.nodes);
        // The series forms: ser-= (White's series, Black stalemated) and ser-h= (Black's
        // series, then White stalemates), 1 to 3 moves.
        for play in [Play::Direct, Play::Help] {
            if tried % 3 != 0 {
                break;
            }
            let series_side = if play == Play::Direct { Color::White } else { Color::Black };
            if b.in_check(!series_side) {
                continue;
            }
            let stip = Stipulation {
                play,
                series: true,
                goal: Goal::Stalemate,
                moves: if tried % 8 == 0 { 3 } else { 1 + tried % 2 },
                half: false,
                parry: Parry::None,
            };
            let lines = series_lines_both_ways(&b, stip, &limits, |s, on| {
                assert!(s.stale_free);
                s.stale_free = on;
            });
            series_solved += !lines.is_empty() as u32;
        }
    }
    eprintln!("series: {series_solved} with a solution");
    assert!(series_solved > 10, "some series should stalemate ({series_solved})");
    eprintln!("stalemate bound test: {solved} of {tried} positions with a solution, {saved} nodes saved");
    // By hand: the last move Rc2-a2 takes away two free moves at once (the capture d3xc2 by
    // leaving c2, the push a3-a2 by landing on a2), so Black's g3-g2 before it, which leaves
    // exactly two disjoint free moves, must not be skipped.
    let board_of = |black_pawn: &str| {
        let mut b = Board::empty();
        let sq = |name: &str| {
            let by = name.as_bytes();
            (by[1] - b'1') * 8 + (by[0] - b'a')
        };
        for (s, color, kind) in [
            ("h8", Color::Black, walk::KING),
            ("h7", Color::Black, walk::PAWN),
            ("d3", Color::Black, walk::PAWN),
            ("a3", Color::Black, walk::PAWN),
            (black_pawn, Color::Black, walk::PAWN),
            ("f7", Color::White, walk::KING),
            ("h6", Color::White, walk::PAWN),
            ("d2", Color::White, walk::PAWN),
            ("c2", Color::White, walk::ROOK),
            ("g1", Color::White, walk::BISHOP),
        ] {
            b.put(sq(s), Piece { color, kind });
        }
        b
    };
    let mut b = board_of("g3");
    b.side = Color::Black;
    let stip = Stipulation {
        play: Play::Help,
        series: false,
        goal: Goal::Stalemate,
        moves: 1,
        half: false,
        parry: Parry::None,
    };
    let mut s = Searcher::new(b, stip, Options::default(), &limits);
    let mut out = Vec::new();
    s.help(2, &mut Vec::new(), &mut out);
    let lines: Vec<String> = out.iter().map(|l| format_help_line(&s.line_texts(l, Some(1)))).collect();
    assert!(lines.iter().any(|l| l.contains("g3-g2") && l.contains("Rc2-a2 =")), "{lines:?}");
    // The same last move as ser-=1 (the pawn already on g2): one series move takes away
    // two free moves, so the series bound may not cut at two disjoint masks.
    // A White pawn on b4 gives a first move that touches nothing (ser-=2: the bound is
    // asked after it, not at the root).
    let mut b = board_of("g2");
    b.put(25, Piece { color: Color::White, kind: walk::PAWN });
    let stip = Stipulation {
        play: Play::Direct,
        series: true,
        goal: Goal::Stalemate,
        moves: 2,
        half: false,
        parry: Parry::None,
    };
    let mut s = Searcher::new(b, stip, Options::default(), &limits);
    let mut sol = Solution::default();
    solve_series(&mut s, 1, &mut sol);
    assert!(sol.lines.iter().any(|l| l == "1.b4-b5 2.Rc2-a2 ="), "ser-=2: {:?}", sol.lines);
    assert!(solved > 20, "some positions should have a stalemate ({solved})");
    assert!(saved > 0, "the bounds should save some nodes");
}

/// The flight bound ([`flights_coverable`]) never rules out a mate that exists: random
/// positions with few mating pieces (a king and pawns or one piece) against many, every
/// length up to 4 half moves against brute force, and h#1 to h#3 solved with the bound
/// against without it (same solutions).
#[test]
fn flight_bound_is_sound() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |n: u64| xorshift(&mut seed) % n;
    let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
    let (mut tried, mut pruned, mut mates, mut saved) = (0, 0, 0, 0u64);
    let positions = if cfg!(debug_assertions) { 1000 } else { 3000 };
    while tried < positions {
        let mut b = Board::empty();
        let extra = [walk::PAWN, walk::PAWN, walk::KNIGHT, walk::BISHOP, walk::ROOK, walk::QUEEN];
        let black =
            [walk::KING, walk::PAWN, walk::PAWN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::QUEEN, walk::PAWN];
        let nw = 1 + rnd(3) as usize;
        let nb = 3 + rnd(6) as usize;
        let bk = rnd(64) as u8;
        let mut ok = true;
        let mut units = vec![(Color::White, walk::KING)];
        for _ in 1..nw {
            units.push((Color::White, extra[rnd(6) as usize]));
        }
        units.extend(black.iter().take(nb).map(|&k| (Color::Black, k)));
        for (i, &(color, k)) in units.iter().enumerate() {
            // The black king first among black, near the white king.
            let s = if i == nw {
                bk
            } else if i < nw || rnd(2) == 0 {
                let (f, r) = ((bk % 8) as i64 + rnd(7) as i64 - 3, (bk / 8) as i64 + rnd(7) as i64 - 3);
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    ok = false;
                    break;
                }
                (r * 8 + f) as u8
            } else {
                rnd(64) as u8
            };
            if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                ok = false;
                break;
            }
            b.put(s, Piece { color, kind: k });
        }
        if !ok || b.king_square(Color::White).is_none() {
            continue;
        }
        b.side = Color::Black;
        if b.in_check(Color::White) || b.in_check(Color::Black) {
            continue;
        }
        tried += 1;
        for plies in 1..=4u32 {
            b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
            if b.in_check(!b.side) {
                continue;
            }
            if !flights_coverable(&b, Color::White, plies.div_ceil(2), plies / 2) {
                pruned += 1;
                assert!(!line_exists(&mut b, Color::White, plies, gives_mate), "pruned a mate: {plies} plies, {b:?}");
            }
        }
        b.side = Color::Black;
        let n = 1 + (tried % 3) as u32;
        if n == 3 && tried % 30 != 0 {
            continue;
        }
        let stip = Stipulation {
            play: Play::Help,
            series: false,
            goal: Goal::Mate,
            moves: n,
            half: false,
            parry: Parry::None,
        };
        let run = |flights: bool| {
            let mut s = Searcher::new(b.clone(), stip, Options::default(), &limits);
            s.help_flights = flights;
            let mut out = Vec::new();
            s.help(2 * n, &mut Vec::new(), &mut out);
            let mut lines: Vec<String> = out.iter().map(|l| format!("{l:?}")).collect();
            lines.sort();
            (lines, s.nodes)
        };
        let ((with, nodes_with), (without, nodes_without)) = (run(true), run(false));
        assert_eq!(with, without, "h#{n}: {b:?}");
        mates += !with.is_empty() as u32;
        saved += nodes_without.saturating_sub(nodes_with);
    }
    eprintln!("flight bound test: {pruned} pruned, {mates} helpmates, {saved} nodes saved");
    assert!(pruned > 50, "the bound should prune some positions ({pruned})");
    assert!(mates > 5, "some positions should have helpmates ({mates})");
}
