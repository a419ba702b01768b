#!/usr/bin/env python3
"""mysl with endgame tables against Stockfish from random table positions (issue 6, the play check).

Won positions: mysl (the side to move) must mate. From 3-4 piece positions of our tables every mysl move
must be DTM-optimal (checked with `mysl tb probe`), so the mate comes in exactly the DTM distance when
Stockfish defends best and sooner otherwise; from 5-piece Syzygy positions (no DTM) mysl must mate before
the 50-move rule or a repetition draws. Drawn positions (with at least one losing move for mysl): mysl
must never lose and never play a move that gives Stockfish a table win. Stockfish plays without tables.

Usage: tb-play.py --mysl BIN --tables DIR --syzygy DIR [--won 50] [--drawn 50] [--five 0.3]
       [--sf /usr/games/stockfish] [--sf-ms 50] [--mysl-ms 100] [--seed 1] [--out summary.json]
Needs python-chess (pip install chess).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

import chess
import chess.engine
import chess.syzygy


def materials(tables, syzygy):
    ours = sorted(f[:-4] for f in os.listdir(tables) if f.endswith(".mtb") and 3 <= len(f[:-4]) - 1 <= 4)
    five = sorted(f[:-5] for f in os.listdir(syzygy) if f.endswith(".rtbw") and len(f[:-5]) - 1 == 5)
    return ours, five


def random_board(material, rng):
    white, black = material.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    pieces = [(chess.WHITE, c) for c in white] + [(chess.BLACK, c) for c in black]
    for _ in range(1000):
        board = chess.Board(None)
        ok = True
        for color, c in pieces:
            sq = rng.randrange(64)
            if board.piece_at(sq) or (c == "P" and chess.square_rank(sq) in (0, 7)):
                ok = False
                break
            board.set_piece_at(sq, chess.Piece(chess.PIECE_SYMBOLS.index(c.lower()), color))
        if not ok:
            continue
        board.turn = rng.random() < 0.5
        board.castling_rights = 0
        if board.is_valid() and not board.is_game_over():
            return board
    return None


class Probe:
    """`mysl tb probe --json` (our DTM) with a cache."""

    def __init__(self, mysl, tables):
        self.mysl, self.tables, self.cache = mysl, tables, {}

    def __call__(self, board):
        fen = board.fen()
        key = " ".join(fen.split()[:4])
        if key not in self.cache:
            out = subprocess.run([self.mysl, "tb", "probe", "--dir", self.tables, "--fen", fen, "--json"],
                                 capture_output=True, text=True)
            self.cache[key] = json.loads(out.stdout) if out.returncode == 0 else None
        return self.cache[key]


def wdl(tb, board):
    if len(board.piece_map()) <= 2:
        return 0
    try:
        return tb.probe_wdl(board)
    except (KeyError, chess.syzygy.MissingTableError):
        return None


def has_losing_move(tb, board):
    for mv in board.legal_moves:
        board.push(mv)
        w = wdl(tb, board)
        board.pop()
        if w is not None and w == 2:
            return True
    return False


def pick(kind, rng, ours, five, five_share, tb, probe):
    while True:
        five_piece = rng.random() < five_share
        m = rng.choice(five if five_piece else ours)
        board = random_board(m, rng)
        if board is None:
            continue
        w = wdl(tb, board)
        if kind == "won":
            if w != 2:
                continue
            if five_piece:
                dtz = tb.probe_dtz(board)
                if dtz < 5:
                    continue
                return board, m, None
            p = probe(board)
            if p is None or p["dtm"] < 7:
                continue
            return board, m, p["dtm"]
        if w == 0 and has_losing_move(tb, board):
            return board, m, None


def play(kind, board, dtm, mysl, sf, args, tb, probe):
    us = board.turn
    start = board.fen()
    plies = 0
    mysl_optimal = True
    sf_optimal = True
    violations = []
    max_plies = 300 if kind == "won" else args.drawn_plies
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        if board.turn == us:
            if kind == "won" and dtm is not None:
                p = probe(board)
            mv = mysl.play(board, chess.engine.Limit(time=args.mysl_ms / 1000)).move
            if kind == "won" and dtm is not None and p is not None:
                best = p["dtm"]
                got = next((m["dtm"] for m in p["moves"] if m["uci"] == mv.uci()), None)
                if got != best:
                    mysl_optimal = False
                    violations.append(f"ply {plies}: {board.fen()} {mv.uci()} dtm {got}, best {best}")
            board.push(mv)
            if kind == "drawn":
                w = wdl(tb, board)
                if w is not None and w > 0:
                    violations.append(f"ply {plies}: {mv.uci()} gives Stockfish a table win ({board.fen()})")
        else:
            if kind == "won" and dtm is not None:
                p = probe(board)
            mv = sf.play(board, chess.engine.Limit(time=args.sf_ms / 1000)).move
            if kind == "won" and dtm is not None and p is not None:
                got = next((m["dtm"] for m in p["moves"] if m["uci"] == mv.uci()), None)
                if got != p["dtm"]:
                    sf_optimal = False
            board.push(mv)
        plies += 1
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        result = f"held ({plies} plies)"
    elif outcome.winner is None:
        result = "draw (" + outcome.termination.name.lower() + ")"
    else:
        result = "mysl wins" if outcome.winner == us else "mysl loses"
    return {
        "kind": kind, "fen": start, "plies": plies, "dtm": dtm, "result": result,
        "mysl_dtm_optimal": mysl_optimal, "sf_dtm_optimal": sf_optimal, "violations": violations,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mysl", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--syzygy", required=True)
    ap.add_argument("--won", type=int, default=50)
    ap.add_argument("--drawn", type=int, default=50)
    ap.add_argument("--five", type=float, default=0.3, help="share of 5-piece (Syzygy-only) positions")
    ap.add_argument("--sf", default="/usr/games/stockfish")
    ap.add_argument("--sf-ms", type=int, default=50)
    ap.add_argument("--mysl-ms", type=int, default=100)
    ap.add_argument("--drawn-plies", type=int, default=150, help="longest drawn game (then counted as held)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(args.syzygy)
    probe = Probe(args.mysl, args.tables)
    ours, five = materials(args.tables, args.syzygy)
    mysl = chess.engine.SimpleEngine.popen_uci([args.mysl])
    mysl.configure({"TablebasePath": os.path.abspath(args.tables), "SyzygyPath": os.path.abspath(args.syzygy)})
    sf = chess.engine.SimpleEngine.popen_uci([args.sf])
    sf.configure({"Threads": 1, "Hash": 16})
    games = []
    t0 = time.time()
    try:
        for kind, n in (("won", args.won), ("drawn", args.drawn)):
            for i in range(n):
                board, m, dtm = pick(kind, rng, ours, five, args.five, tb, probe)
                mysl.configure({"Clear Hash": None})
                g = play(kind, board, dtm, mysl, sf, args, tb, probe)
                g["material"] = m
                g["pieces"] = len(m) - 1
                games.append(g)
                ok = (g["result"] == "mysl wins" and g["mysl_dtm_optimal"]) if kind == "won" else \
                    (g["result"] != "mysl loses" and not g["violations"])
                print(f"{kind} {i + 1}/{n} {m:7} {g['fen']:45} dtm {str(dtm):>4} plies {g['plies']:3} "
                      f"{g['result']}{'' if ok else '  FAIL ' + '; '.join(g['violations'][:2])}", flush=True)
    finally:
        mysl.quit()
        sf.quit()
    won = [g for g in games if g["kind"] == "won"]
    drawn = [g for g in games if g["kind"] == "drawn"]
    won_dtm = [g for g in won if g["dtm"] is not None]
    won5 = [g for g in won if g["dtm"] is None]
    summary = {
        "won_dtm_positions": len(won_dtm),
        "won_dtm_mated": sum(g["result"] == "mysl wins" for g in won_dtm),
        "won_dtm_every_move_optimal": sum(g["mysl_dtm_optimal"] for g in won_dtm),
        "won_dtm_exact_when_sf_optimal": sum(g["plies"] == g["dtm"] for g in won_dtm if g["sf_dtm_optimal"]),
        "won_dtm_sf_optimal_games": sum(g["sf_dtm_optimal"] for g in won_dtm),
        "won_dtm_within_dtm": sum(g["plies"] <= g["dtm"] for g in won_dtm if g["result"] == "mysl wins"),
        "won_syzygy_positions": len(won5),
        "won_syzygy_mated": sum(g["result"] == "mysl wins" for g in won5),
        "drawn_positions": len(drawn),
        "drawn_lost": sum(g["result"] == "mysl loses" for g in drawn),
        "drawn_bad_moves": sum(len(g["violations"]) for g in drawn),
        "drawn_won_by_mysl": sum(g["result"] == "mysl wins" for g in drawn),
        "drawn_5_piece": sum(g["pieces"] == 5 for g in drawn),
        "seconds": round(time.time() - t0),
        "sf_ms": args.sf_ms,
        "mysl_ms": args.mysl_ms,
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "games": games}, f, indent=1)
    bad = (summary["won_dtm_mated"] < len(won_dtm) or summary["won_dtm_every_move_optimal"] < len(won_dtm)
           or summary["won_syzygy_mated"] < len(won5) or summary["drawn_lost"] or summary["drawn_bad_moves"])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
