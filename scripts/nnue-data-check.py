#!/usr/bin/env python3
"""Checks NNUE training data (docs/nnue.md) with python-chess, independently of mysl's decoder.

Every record must decode to a valid position (python-chess's `Board.is_valid()`), the side to move not in
check, a score below mate range and a result of 0, 1 or 2. Prints totals, the result split, the score spread,
and (with --games) how many records each chunk holds.

    python3 scripts/nnue-data-check.py DIR [--limit N]
"""
import argparse
import glob
import os
import struct
import sys

import chess

ROLES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def decode(rec):
    occ, = struct.unpack_from("<Q", rec, 0)
    codes = rec[8:24]
    board = chess.Board(None)
    i = 0
    for sq in range(64):
        if occ >> sq & 1:
            code = codes[i // 2] >> (4 * (i % 2)) & 15
            i += 1
            if code & 7 > 5:
                raise ValueError(f"piece code {code} on {chess.square_name(sq)}")
            board.set_piece_at(sq, chess.Piece(ROLES[code & 7], chess.BLACK if code & 8 else chess.WHITE))
    board.turn = chess.BLACK if rec[24] & 128 else chess.WHITE
    ep = rec[24] & 127
    board.ep_square = None if ep == 64 else ep
    board.halfmove_clock = rec[25]
    board.fullmove_number, = struct.unpack_from("<H", rec, 26)
    score, = struct.unpack_from("<h", rec, 28)
    return board, score, rec[30]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--limit", type=int, default=0, help="check at most this many records (0: all)")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.bin")))
    if not files:
        sys.exit(f"no *.bin files in {args.dir}")
    n = bad = 0
    results = [0, 0, 0]
    abs_scores = []
    for path in files:
        data = open(path, "rb").read()
        if len(data) % 32:
            print(f"{path}: {len(data)} bytes, not a multiple of 32")
            bad += 1
            continue
        for k in range(len(data) // 32):
            rec = data[32 * k: 32 * k + 32]
            try:
                board, score, result = decode(rec)
                board.castling_rights = 0
                problems = []
                if not board.is_valid():
                    problems.append(f"invalid ({board.status()!r})")
                if board.is_check():
                    problems.append("side to move in check")
                if abs(score) >= 30000:
                    problems.append(f"mate-range score {score}")
                if result > 2:
                    problems.append(f"result byte {result}")
            except ValueError as e:
                problems = [str(e)]
            if problems:
                bad += 1
                if bad <= 10:
                    print(f"{path} record {k}: {', '.join(problems)}")
                continue
            n += 1
            results[result] += 1
            abs_scores.append(abs(score))
            if args.limit and n >= args.limit:
                break
        if args.limit and n >= args.limit:
            break
    abs_scores.sort()
    q = lambda p: abs_scores[min(len(abs_scores) - 1, int(p * len(abs_scores)))] if abs_scores else 0
    print(f"{len(files)} files, {n} records valid, {bad} bad")
    if n:
        print(f"results: White won {results[2] / n:.1%}, drawn {results[1] / n:.1%}, Black won {results[0] / n:.1%}")
        print(f"|score| median {q(0.5)}, 90% {q(0.9)}, 99% {q(0.99)}, max {abs_scores[-1]}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
