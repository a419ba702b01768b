#!/usr/bin/env python3
"""Compares mysl's Polyglot reader with python-chess (chess.polyglot) on a book.

Walks the book breadth-first from the start position through book moves (each position once) to
--depth plies, asks both readers for every position's moves and weights, and reports each difference.
Usage: book-vs-python-chess.py --mysl target/release/mysl --book BOOK.bin [--depth 8]
Exit status 0 when both agree on every position, 1 otherwise.
"""
import argparse
import subprocess
import sys

import chess
import chess.polyglot


def python_walk(path, depth):
    rows = {}
    with chess.polyglot.open_reader(path) as reader:
        frontier = [chess.Board()]
        seen = set()
        for _ in range(depth + 1):
            nxt = []
            for board in frontier:
                key = chess.polyglot.zobrist_hash(board)
                if key in seen:
                    continue
                seen.add(key)
                moves = []
                for entry in reader.find_all(board, minimum_weight=0):
                    if not board.is_legal(entry.move):
                        continue
                    moves.append((entry.move.uci(), entry.weight))
                    child = board.copy(stack=False)
                    child.push(entry.move)
                    nxt.append(child)
                if moves:
                    rows[board.fen()] = moves
            frontier = nxt
    return rows


def mysl_walk(exe, path, depth):
    out = subprocess.run([exe, "book", "dump", "--book", path, "--depth", str(depth)],
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        fen, uci, weight = line.split("\t")
        rows.setdefault(fen, []).append((uci, int(weight)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mysl", required=True)
    ap.add_argument("--book", required=True)
    ap.add_argument("--depth", type=int, default=8)
    args = ap.parse_args()
    ours = mysl_walk(args.mysl, args.book, args.depth)
    theirs = python_walk(args.book, args.depth)
    bad = 0
    for fen in sorted(set(ours) | set(theirs)):
        if ours.get(fen) != theirs.get(fen):
            bad += 1
            if bad <= 10:
                print(f"differs at {fen}\n  mysl:         {ours.get(fen)}\n  python-chess: {theirs.get(fen)}")
    moves = sum(len(v) for v in theirs.values())
    print(f"{args.book}: depth {args.depth}: {len(theirs)} positions, {moves} book moves; {bad} positions differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
