#!/usr/bin/env python3
"""Protocol stress (issue 24 item 5): random but well-formed UCI or xboard sessions against the binary.

    scripts/protocol-stress.py uci 100000 [--seed 1] [--mysl target/release/mysl]
    scripts/protocol-stress.py xboard 100000 [--seed 1]

A session is one `mysl uci` / `mysl xboard` process fed a seeded random command script (positions from
the start, the perft suites' FENs and Chess960 starts, walked with legal moves; go/stop/ponderhit/
setoption/ucinewgame/isready, or new/variant/setboard/usermove/go/force/?/analyze/undo/ping/..., at random
small delays, with stop before go, quit during a search and end of input). It checks:

- no crash: exit status 0, nothing on stderr (a panic prints there), the process ends within 2 s of
  `quit` or end of input;
- no hang: every `isready` (`ping`) is answered, within 100 ms when no search runs (the maximum and the
  99th percentile are printed; the limit is reported, not enforced, as the machine may be loaded) and
  within 10 s while one runs;
- every `go` is answered by exactly one `bestmove` (xboard: the engine's turn by one `move` or a result),
  legal in the position it was asked for (within `searchmoves`), and `(none)` only where there is no
  legal move; the first move of every `info` PV is legal; no `info string error`, `Error` or `Illegal
  move` answer (the script sends only well-formed commands).

Legality comes from python-chess (`pip install chess`) for chess, Chess960, antichess and three-check; the
other variants (antichess-noep, extinction, berolina, cylinder, dice, knightrelay, recycle) have no
independent move generator, so there the reference is mysl's own `go perft 1` in a separate `mysl uci`
process (it catches protocol faults: a stale or wrong position, a move of the wrong side, garbage; not rule
errors, which the perft suites test).

The command script is a function of the seed, but the engine's answers depend on timing, so two runs with
one seed differ once a reply differs. Exit status 1 if anything failed (the failures are printed).
"""

import argparse
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time

import chess
import chess.variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERFT_DIR = os.path.join(ROOT, "..", "shared", "data", "perft")
START = chess.STARTING_FEN

# (name, UCI_Variant, xboard variant, python-chess board class or None, Chess960)
VARIANTS = [
    ("chess", "chess", "normal", chess.Board, False),
    ("chess960", "chess", "fischerandom", chess.Board, True),
    ("antichess", "antichess", "antichess", chess.variant.AntichessBoard, False),
    ("3check", "3check", "3check", chess.variant.ThreeCheckBoard, False),
    ("antichess-noep", "antichess-noep", "antichess-noep", None, False),
    ("extinction", "extinction", "extinction", None, False),
    ("berolina", "berolina", "berolina", None, False),
    ("cylinder", "cylinder", "cylinder", None, False),
    ("dice", "dice", "dice", None, False),
    ("knightrelay", "knightrelay", "knightrelay", None, False),
    ("recycle", "recycle", "recycle", None, False),
]
BY_NAME = {v[0]: v for v in VARIANTS}


def suite_fens():
    """Start FENs per variant: the perft suites' positions (the start position always)."""
    fens = {v[0]: [None] for v in VARIANTS}
    files = {"standard.perft": "chess", "antichess.perft": "antichess", "antichess-noep.perft": "antichess-noep",
             "threecheck.perft": "3check", "extinction.perft": "extinction", "berolina.perft": "berolina",
             "dice.perft": "dice"}
    for f, name in files.items():
        path = os.path.join(PERFT_DIR, f)
        if not os.path.exists(path):
            continue
        for line in open(path):
            if line.startswith("#") or ";" not in line:
                continue
            fen = line.split(";")[1].strip()
            if fen != START and "roll=" not in fen:
                fens[name].append(fen)
    return fens


class Failure(Exception):
    pass


class Stats:
    def __init__(self):
        self.commands = 0
        self.sessions = 0
        self.searches = 0
        self.moves_checked = 0
        self.quit_during_search = 0
        self.eof_sessions = 0
        self.idle_latency = []  # isready/ping answered with no search running (s)
        self.busy_latency = []
        self.exit_latency = []
        self.failures = []

    def fail(self, text):
        self.failures.append(text)
        print("FAIL: " + text, flush=True)


class Engine:
    """A mysl process; stdout lines land in a queue with the time they were read."""

    def __init__(self, argv, stats, log_tail=200):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        self.stats = stats
        self.stderr = []
        self.sent = []  # the last commands, for failure reports
        self.log = []  # every command and answer of the session: (time, '>' or '<', line)
        self.log_tail = log_tail
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            t = time.perf_counter()
            self.log.append((t, "<", line.rstrip("\n")))
            self.lines.put((t, line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def _read_err(self):
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\n"))

    def send(self, line, count=True):
        if count:
            self.stats.commands += 1
        self.sent.append(line)
        self.log.append((time.perf_counter(), ">", line))
        if len(self.sent) > self.log_tail:
            del self.sent[: len(self.sent) - self.log_tail]
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def get(self, timeout):
        """The next line (time, text), None at end of output; raises queue.Empty after `timeout`."""
        return self.lines.get(timeout=timeout)

    def context(self):
        return " | last commands: " + " ; ".join(self.sent[-12:])

    def dump(self, path):
        """Writes the session's transcript and, if the process still runs, its threads' stacks (gdb)."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            t0 = self.log[0][0] if self.log else 0
            for t, d, line in list(self.log):
                f.write(f"{t - t0:10.4f} {d} {line}\n")
            if self.proc.poll() is None and shutil.which("gdb"):
                bt = subprocess.run(["gdb", "-p", str(self.proc.pid), "-batch", "-ex", "thread apply all bt 12"],
                                    capture_output=True, text=True, timeout=60)
                f.write("\n# gdb: thread apply all bt\n" + bt.stdout)
        return path


class Oracle:
    """Legal moves from mysl's own `go perft 1` (a separate process) for the variants python-chess lacks."""

    def __init__(self, mysl):
        self.proc = subprocess.Popen([mysl, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.variant = None
        self.cache = {}

    def legal(self, variant, fen, moves):
        key = (variant, fen, tuple(moves))
        if key in self.cache:
            return self.cache[key]
        w = self.proc.stdin
        if variant != self.variant:
            w.write(f"setoption name UCI_Variant value {variant}\n")
            self.variant = variant
        pos = "startpos" if fen is None else "fen " + fen
        w.write(f"position {pos}" + (" moves " + " ".join(moves) if moves else "") + "\ngo perft 1\n")
        w.flush()
        out = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise Failure("the oracle process ended")
            line = line.strip()
            if line.startswith("info string error"):
                raise Failure(f"oracle: {line} ({variant} {fen} {moves})")
            if line.startswith("Nodes searched"):
                break
            m = re.match(r"^(\S+): \d+$", line)
            if m:
                out.append(m.group(1))
        if len(self.cache) > 200000:
            self.cache.clear()
        self.cache[key] = out
        return out


class Line:
    """A game as the driver knows it: variant, start FEN (None = start position), moves, legal moves."""

    def __init__(self, spec, fen, oracle):
        self.spec, self.fen, self.moves, self.oracle = spec, fen, [], oracle
        cls, chess960 = spec[3], spec[4]
        self.board = None
        if cls is not None:
            self.board = cls(fen or cls.starting_fen, chess960=chess960)

    def legal(self):
        if self.board is not None:
            if self.board.is_variant_end():
                return []
            return [m.uci() for m in self.board.legal_moves]
        return self.oracle.legal(self.spec[1], self.fen, self.moves)

    def push(self, mv):
        if self.board is not None:
            self.board.push_uci(mv)
        self.moves.append(mv)

    def pop(self):
        if self.board is not None:
            self.board.pop()
        self.moves.pop()

    def position_command(self):
        pos = "startpos" if self.fen is None else "fen " + self.fen
        return f"position {pos}" + (" moves " + " ".join(self.moves) if self.moves else "")

    def describe(self):
        return f"{self.spec[0]} {self.fen or 'startpos'} moves {' '.join(self.moves)}"


def new_line(rng, spec, fens, oracle):
    if spec[0] == "chess960":
        fen = chess.Board.from_chess960_pos(rng.randrange(960)).fen() if rng.random() < 0.9 else None
    else:
        fen = rng.choice(fens[spec[0]])
    line = Line(spec, fen, oracle)
    walk(rng, line, rng.choice([0, 0, 2, 6, 12, 30]))
    return line


def walk(rng, line, plies):
    for _ in range(plies):
        legal = line.legal()
        if not legal:
            return
        line.push(rng.choice(legal))


def percentile(xs, p):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


# --------------------------------------------------------------------------------------------------
# UCI


class UciSession:
    def __init__(self, args, rng, stats, fens, oracle):
        self.rng, self.stats, self.fens, self.oracle = rng, stats, fens, oracle
        self.e = Engine([args.mysl, "uci"], stats)
        self.pending = []  # searches not yet answered: dicts
        self.spec = BY_NAME["chess"]
        self.line = Line(self.spec, None, oracle)
        self.chess960 = False

    # output handling ---------------------------------------------------------------------------
    def handle(self, t, text):
        if text is None:
            raise Failure("the engine closed its output" + self.e.context())
        if text.startswith("bestmove"):
            if not self.pending:
                raise Failure(f"'{text}' without a pending go" + self.e.context())
            p = self.pending.pop(0)
            words = text.split()
            best = words[1] if len(words) > 1 else ""
            if best == "(none)":
                if p["legal"]:
                    raise Failure(f"bestmove (none) with {len(p['legal'])} legal moves in {p['where']}"
                                  + self.e.context())
            elif best not in p["allowed"]:
                raise Failure(f"illegal '{text}' in {p['where']} (allowed: {sorted(p['allowed'])[:40]})"
                              + self.e.context())
            if len(words) >= 4 and words[2] == "ponder" and p["board"] is not None:
                b = p["board"].copy(stack=False)
                b.push_uci(best)
                if words[3] not in {m.uci() for m in b.legal_moves}:
                    raise Failure(f"illegal ponder move in '{text}' after {p['where']}" + self.e.context())
            self.stats.moves_checked += 1
        elif text.startswith("info"):
            if text.startswith("info string error"):
                raise Failure(f"'{text}'" + self.e.context())
            if " pv " in text and self.pending:
                first = text.split(" pv ", 1)[1].split()[:1]
                p = self.pending[0]
                if first and first[0] not in p["allowed"]:
                    raise Failure(f"PV starts with an illegal move: '{text}' in {p['where']}" + self.e.context())
        elif text == "readyok" or text == "uciok":
            raise Failure(f"unexpected '{text}'" + self.e.context())

    def drain(self):
        while True:
            try:
                t, text = self.e.lines.get_nowait()
            except queue.Empty:
                return
            self.handle(t, text)

    def wait_for(self, word, sent_at, timeout):
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            try:
                t, text = self.e.get(max(left, 0.0))
            except queue.Empty:
                raise Failure(f"no '{word}' within {timeout} s" + self.e.context())
            if text == word:
                return t - sent_at
            self.handle(t, text)

    def unbounded(self):
        return any(p["unbounded"] for p in self.pending)

    # commands ----------------------------------------------------------------------------------
    def isready(self):
        searching = bool(self.pending)
        sent = self.e.send("isready")
        lat = self.wait_for("readyok", sent, 10.0 if searching else 2.0)
        (self.stats.busy_latency if searching else self.stats.idle_latency).append(lat)

    def settle(self):
        """Waits until every search has answered (stopping an endless one)."""
        if self.unbounded():
            self.e.send("stop")
            for p in self.pending:
                p["unbounded"] = False
        deadline = time.perf_counter() + 60
        while self.pending:
            try:
                t, text = self.e.get(max(deadline - time.perf_counter(), 0.0))
            except queue.Empty:
                raise Failure(f"{len(self.pending)} searches not answered within 60 s" + self.e.context())
            self.handle(t, text)

    def go(self):
        rng = self.rng
        legal = self.line.legal()
        allowed = set(legal)
        kind = rng.random()
        words = ["go"]
        unbounded = False
        # dice: every unrolled ply is a chance node searched with a full window, so a fixed depth costs
        # far more (depth 4 about 6 million nodes from Kiwipete, depth 5 minutes): at most 3 there
        top = 3 if self.spec[0] == "dice" else 5
        if kind < 0.2:
            words += ["depth", str(rng.randint(1, top))]
        elif kind < 0.4:
            words += ["nodes", str(rng.choice([1, 10, 100, 1000, 5000, 20000]))]
        elif kind < 0.55:
            words += ["movetime", str(rng.randint(1, 30))]
        elif kind < 0.75:
            t = [str(rng.randint(20, 3000)), str(rng.randint(20, 3000))]
            words += ["wtime", t[0], "btime", t[1]]
            if rng.random() < 0.7:
                words += ["winc", str(rng.randint(0, 50)), "binc", str(rng.randint(0, 50))]
            if rng.random() < 0.3:
                words += ["movestogo", str(rng.randint(1, 40))]
        elif kind < 0.8:
            words += ["mate", str(rng.randint(1, 3)), "movetime", str(rng.randint(1, 30))]
        elif kind < 0.87 and legal:
            chosen = rng.sample(legal, rng.randint(1, min(4, len(legal))))
            allowed = set(chosen)
            words += ["depth", str(rng.randint(1, min(4, top))), "searchmoves"] + chosen
        elif kind < 0.94:
            words += ["infinite"]
            unbounded = True
        else:
            words.insert(1, "ponder")
            unbounded = True
            words += rng.choice([["depth", "3"], ["nodes", "2000"], ["movetime", "10"],
                                 ["wtime", "500", "btime", "500"], []])
        self.e.send(" ".join(words))
        self.stats.searches += 1
        self.pending.append({"legal": legal, "allowed": allowed, "unbounded": unbounded,
                             "ponder": words[1:2] == ["ponder"], "bounded_after_hit": len(words) > 2 and
                             words[1] == "ponder", "where": self.line.describe(),
                             "board": self.line.board.copy() if self.line.board is not None else None})

    def position(self):
        rng = self.rng
        r = rng.random()
        if r < 0.1:
            self.line = new_line(rng, self.spec, self.fens, self.oracle)
        elif r < 0.25 and self.line.moves:
            for _ in range(rng.randint(1, min(3, len(self.line.moves)))):
                self.line.pop()
        else:
            walk(rng, self.line, rng.choice([1, 1, 1, 2, 4]))
        self.e.send(self.line.position_command())

    def set_variant(self, spec):
        """Switches variant (and Chess960) and sends a position of it."""
        if spec[1] != self.spec[1]:
            self.e.send(f"setoption name UCI_Variant value {spec[1]}")
        if spec[4] != self.chess960:
            self.e.send(f"setoption name UCI_Chess960 value {'true' if spec[4] else 'false'}")
            self.chess960 = spec[4]
        self.spec = spec
        self.line = new_line(self.rng, spec, self.fens, self.oracle)
        self.e.send(self.line.position_command())

    def setoption(self):
        rng = self.rng
        opt = rng.choice(["Hash", "Threads", "MultiPV", "Clear Hash", "variant", "variant", "OwnBook", "Ponder",
                          "Move Overhead", "UCI_LimitStrength", "UCI_Elo", "Use NNUE", "BookVariety"])
        if opt == "variant":
            self.set_variant(rng.choice(VARIANTS))
            return
        value = {
            "Hash": lambda: str(rng.choice([1, 2, 8, 16, 32])),
            "Threads": lambda: str(rng.choice([1, 1, 2])),
            "MultiPV": lambda: str(rng.choice([1, 1, 2, 4])),
            "OwnBook": lambda: rng.choice(["true", "false"]),
            "Ponder": lambda: rng.choice(["true", "false"]),
            "Move Overhead": lambda: str(rng.randint(0, 50)),
            "UCI_LimitStrength": lambda: rng.choice(["true", "false", "false"]),
            "UCI_Elo": lambda: str(rng.randint(1350, 2250)),
            "Use NNUE": lambda: rng.choice(["true", "true", "false"]),
            "BookVariety": lambda: str(rng.randint(0, 100)),
        }.get(opt)
        self.e.send(f"setoption name {opt}" + (f" value {value()}" if value else ""))

    def end(self, how):
        """Ends the process by `quit` or end of input; checks the exit and the last answers."""
        searching = bool(self.pending)
        if how == "quit":
            if searching:
                self.stats.quit_during_search += 1
            sent = self.e.send("quit")
        else:
            self.settle_unbounded_for_eof()
            self.stats.eof_sessions += 1
            sent = time.perf_counter()
            self.e.proc.stdin.close()
        try:
            code = self.e.proc.wait(timeout=10 if how == "eof" else 2)
        except subprocess.TimeoutExpired:
            self.e.proc.kill()
            raise Failure(f"the process did not end after {how}" + self.e.context())
        if how == "quit":
            self.stats.exit_latency.append(time.perf_counter() - sent)
        # every pending search answered before the exit
        while True:
            t, text = self.e.get(5)
            if text is None:
                break
            self.handle(t, text)
        if self.pending:
            raise Failure(f"{len(self.pending)} go without a bestmove at {how}" + self.e.context())
        time.sleep(0.01)
        if code != 0:
            raise Failure(f"exit status {code} after {how}" + self.e.context())
        if self.e.stderr:
            raise Failure("stderr: " + " / ".join(self.e.stderr[:10]) + self.e.context())

    def settle_unbounded_for_eof(self):
        pass  # end of input stops an endless search itself (Session::finish)

    def run(self, budget):
        rng = self.rng
        e = self.e
        e.send("uci")
        self.wait_for("uciok", time.perf_counter(), 5.0)
        self.set_variant(rng.choice(VARIANTS))
        start = self.stats.commands
        while self.stats.commands - start < budget:
            self.drain()
            r = rng.random()
            # an endless search is ended by stop or ponderhit before long
            if self.unbounded() and rng.random() < 0.3:
                p = next(p for p in self.pending if p["unbounded"])
                if p["ponder"] and p["bounded_after_hit"] and rng.random() < 0.6:
                    e.send("ponderhit")
                    p["unbounded"] = False
                    p["ponder"] = False
                else:
                    e.send("stop")
                    for p in self.pending:
                        p["unbounded"] = False
            elif r < 0.16:
                self.isready()
            elif r < 0.33:
                self.position()
            elif r < 0.55:
                self.go()
            elif r < 0.62:
                e.send("stop")  # also with no search running
                for p in self.pending:
                    p["unbounded"] = False
            elif r < 0.64:
                e.send("ponderhit")  # with no ponder search: nothing happens
                for p in self.pending:
                    if p["ponder"] and p["bounded_after_hit"]:
                        p["unbounded"], p["ponder"] = False, False
            elif r < 0.72:
                self.setoption()
            elif r < 0.75:
                e.send("ucinewgame")
                self.line = Line(self.spec, None, self.oracle) if self.spec[0] != "chess960" else new_line(
                    rng, self.spec, self.fens, self.oracle)
                e.send(self.line.position_command())
            elif r < 0.76:
                e.send("uci")
                self.wait_for("uciok", time.perf_counter(), 10.0)
            elif r < 0.85:
                self.settle()
                self.isready()
            else:
                time.sleep(rng.choice([0.001, 0.002, 0.005, 0.01, 0.03]))
            if rng.random() < 0.3:
                time.sleep(rng.choice([0, 0.0002, 0.001, 0.003]))
        self.end("eof" if rng.random() < 0.1 else "quit")


# --------------------------------------------------------------------------------------------------
# xboard


RESULT = re.compile(r"^(1-0|0-1|1/2-1/2) \{")


class XboardSession:
    def __init__(self, args, rng, stats, fens, oracle):
        self.rng, self.stats, self.fens, self.oracle = rng, stats, fens, oracle
        self.e = Engine([args.mysl, "xboard"], stats)
        self.ping_n = 0
        self.spec = BY_NAME["chess"]
        self.line = Line(self.spec, None, oracle)
        self.force = False
        self.engine_white = False
        self.thinking = None  # the legal moves of the position the engine thinks on
        self.over = False
        self.analyzing = False
        self.post = False
        self.need_sync = False  # the engine moved: its result claim (if any) may still be on the way

    def handle(self, text, moved):
        if text is None:
            raise Failure("the engine closed its output" + self.e.context())
        if text.startswith("move "):
            mv = text.split()[1]
            if self.thinking is None:
                raise Failure(f"'{text}' while the engine was not to move" + self.e.context())
            if mv not in self.thinking:
                raise Failure(f"illegal '{text}' in {self.line.describe()}" + self.e.context())
            self.line.push(mv)
            self.thinking = None
            self.stats.moves_checked += 1
            self.need_sync = True
            moved.append(mv)
        elif RESULT.match(text):
            self.over = True
            self.force = True
            self.thinking = None
        elif text.startswith(("Error", "Illegal move", "tellusererror")):
            raise Failure(f"'{text}'" + self.e.context())
        elif text.startswith("pong"):
            raise Failure(f"unexpected '{text}'" + self.e.context())

    def ping(self, timeout=None):
        """Sends ping and waits for its pong (after the engine's move when it thinks); the lines before it."""
        self.ping_n += 1
        n = self.ping_n
        searching = self.thinking is not None or self.analyzing
        sent = self.e.send(f"ping {n}")
        timeout = timeout or (30.0 if searching else 2.0)
        deadline = time.perf_counter() + timeout
        moved = []
        while True:
            try:
                t, text = self.e.get(max(deadline - time.perf_counter(), 0.0))
            except queue.Empty:
                raise Failure(f"no 'pong {n}' within {timeout} s" + self.e.context())
            if text == f"pong {n}":
                lat = t - sent
                if self.thinking is None and not moved and not self.analyzing and not searching:
                    self.stats.idle_latency.append(lat)
                else:
                    self.stats.busy_latency.append(lat)
                if self.thinking is not None:
                    raise Failure(f"pong {n} before the engine's move" + self.e.context())
                return moved
            self.handle(text, moved)

    def drain(self):
        moved = []
        while True:
            try:
                _, text = self.e.lines.get_nowait()
            except queue.Empty:
                return moved
            self.handle(text, moved)

    def engine_to_move(self):
        white = self.line.board.turn if self.line.board is not None else self.white_to_move()
        return white == self.engine_white

    def white_to_move(self):
        # the side to move from the FEN and the number of moves
        white = self.line.fen is None or self.line.fen.split()[1] == "w"
        return white if len(self.line.moves) % 2 == 0 else not white

    def start_thinking(self):
        legal = self.line.legal()
        if not legal:
            self.over = True
            self.force = True
            self.thinking = None
        else:
            self.thinking = legal
            self.stats.searches += 1

    def limits(self):
        rng = self.rng
        k = rng.random()
        if k < 0.35:
            self.e.send(f"sd {rng.randint(1, 4)}")
            self.e.send("st 1")
        elif k < 0.7:
            self.e.send(f"level {rng.choice([0, 40])} 0:{rng.randint(1, 5):02d} {rng.choice(['0', '0.01', '0.1'])}")
        else:
            self.e.send(f"st {rng.choice(['0.01', '0.02', '0.05'])}")
        self.send_times()

    def send_times(self):
        cs = self.rng.randint(20, 500)
        self.e.send(f"time {cs}")
        self.e.send(f"otim {self.rng.randint(20, 500)}")

    def new_game(self, first=False):
        rng = self.rng
        e = self.e
        if not first:
            # the last game's answers first: a result claimed for its last move must not be taken as
            # the new game's
            self.ping()
        e.send("new")
        self.thinking = None
        self.analyzing = False
        self.force = False
        self.engine_white = False
        self.over = False
        spec = rng.choice(VARIANTS)
        self.spec = spec
        if spec[2] != "normal":
            e.send(f"variant {spec[2]}")
        self.limits()
        if rng.random() < 0.5:
            e.send("post" if rng.random() < 0.5 else "nopost")
        self.line = Line(spec, None, self.oracle)
        if spec[0] == "chess960" or rng.random() < 0.4:
            e.send("force")
            self.force = True
            self.line = new_line(rng, spec, self.fens, self.oracle)
            fen = self.line.fen
            played = list(self.line.moves)
            if fen is not None:
                e.send(f"setboard {fen}")
            elif rng.random() < 0.5:
                e.send(f"setboard {self.line.board.starting_fen if self.line.board else START}")
            for mv in played:
                e.send(f"usermove {mv}")
        if rng.random() < 0.3:
            self.ping()

    def user_move(self):
        legal = self.line.legal()
        if not legal:
            self.over = True
            return
        mv = self.rng.choice(legal)
        self.send_times()
        self.e.send(f"usermove {mv}")
        self.line.push(mv)
        if self.analyzing:
            return
        if not self.force and self.engine_to_move():
            self.start_thinking()

    def while_thinking(self):
        """The engine thinks: wait for its move, hurry it, or interrupt it."""
        rng = self.rng
        e = self.e
        r = rng.random()
        if r < 0.55:
            self.ping()  # answered after the move
        elif r < 0.7:
            e.send("?")
            self.ping()
        elif r < 0.8:
            e.send(rng.choice(["post", "nopost", "hard", "easy", "otim 300"]))
        elif r < 0.88:
            # force drops the move if it is not out yet; a move already sent stays in the game
            e.send("force")
            self.force = True
            legal = self.thinking
            self.thinking = None
            moved = []
            try:
                self.ping_after_interrupt(moved, legal)
            finally:
                pass
        elif r < 0.93:
            e.send("result 1-0 {stress}")
            self.force = True
            self.over = True
            legal = self.thinking
            self.thinking = None
            self.ping_after_interrupt([], legal)
        elif r < 0.995:
            legal = self.thinking
            self.thinking = None
            self.new_game_after_interrupt(legal)
        else:
            self.end("quit")
            return "ended"
        return None

    def ping_after_interrupt(self, moved, legal):
        """After force/result during a search: a move may still have come out before; it must be legal."""
        self.ping_n += 1
        n = self.ping_n
        e = self.e
        sent = e.send(f"ping {n}")
        deadline = time.perf_counter() + 30
        while True:
            try:
                t, text = e.get(max(deadline - time.perf_counter(), 0.0))
            except queue.Empty:
                raise Failure(f"no 'pong {n}' after an interrupt" + e.context())
            if text == f"pong {n}":
                self.stats.busy_latency.append(t - sent)
                return
            if text is not None and text.startswith("move "):
                mv = text.split()[1]
                if mv not in legal:
                    raise Failure(f"illegal '{text}' in {self.line.describe()}" + e.context())
                self.line.push(mv)
                self.stats.moves_checked += 1
                continue
            if text is not None and RESULT.match(text):
                continue  # the move just before ended the game
            self.handle(text, moved)

    def new_game_after_interrupt(self, legal):
        # `new` during the search: the move (if it came out before) does not matter any more
        self.e.send("new")
        self.ping_n += 1
        n = self.ping_n
        self.e.send(f"ping {n}")
        deadline = time.perf_counter() + 30
        while True:
            try:
                _, text = self.e.get(max(deadline - time.perf_counter(), 0.0))
            except queue.Empty:
                raise Failure(f"no 'pong {n}' after new" + self.e.context())
            if text == f"pong {n}":
                break
            if text is not None and text.startswith("move "):
                if text.split()[1] not in legal:
                    raise Failure(f"illegal '{text}' in {self.line.describe()}" + self.e.context())
                self.stats.moves_checked += 1
                continue
            if text is not None and RESULT.match(text):
                continue
            self.handle(text, [])
        self.new_game()

    def idle_action(self):
        rng = self.rng
        e = self.e
        r = rng.random()
        if self.analyzing:
            if r < 0.4:
                self.user_move()
            elif r < 0.5 and self.line.moves:
                e.send("undo")
                self.line.pop()
            elif r < 0.6:
                e.send(".")
            elif r < 0.75:
                self.ping()
            elif r < 0.9:
                time.sleep(rng.choice([0.002, 0.01, 0.03]))
            else:
                e.send("exit")
                self.analyzing = False
            return
        if self.over or r < 0.04:
            self.new_game()
            return
        if r < 0.5:
            self.user_move()
        elif r < 0.6:
            # the engine plays the side to move now
            self.send_times()
            e.send("go")
            self.force = False
            self.engine_white = self.line.board.turn if self.line.board is not None else self.white_to_move()
            self.start_thinking()
            if self.thinking is None:
                self.ping()  # the result claim comes instead
        elif r < 0.63:
            e.send("playother")
            self.force = False
            self.engine_white = not (self.line.board.turn if self.line.board is not None else self.white_to_move())
        elif r < 0.68 and len(self.line.moves) >= 1:
            n = 1 if (rng.random() < 0.5 or len(self.line.moves) < 2) else 2
            e.send("undo" if n == 1 else "remove")
            for _ in range(n):
                self.line.pop()
        elif r < 0.75:
            self.ping()
        elif r < 0.78:
            e.send("force")
            self.force = True
        elif r < 0.81:
            e.send("analyze")
            self.analyzing = True
            self.force = True
        elif r < 0.85:
            e.send(rng.choice([f"memory {rng.choice([1, 4, 16, 32])}", f"cores {rng.choice([1, 2])}",
                               "option Clear Hash", f"option OwnBook={rng.choice([0, 1])}",
                               f"option UCI_LimitStrength={rng.choice([0, 0, 1])}",
                               f"option UCI_Elo={rng.randint(1350, 2250)}", "post", "nopost", "hard", "easy",
                               "random", "computer"]))
        elif r < 0.88:
            self.limits()
        else:
            time.sleep(rng.choice([0.0005, 0.002, 0.005]))

    def end(self, how):
        e = self.e
        if how == "quit":
            if self.thinking is not None or self.analyzing:
                self.stats.quit_during_search += 1
            sent = e.send("quit")
        else:
            self.stats.eof_sessions += 1
            sent = time.perf_counter()
            e.proc.stdin.close()
        try:
            code = e.proc.wait(timeout=2 if how == "quit" else 10)
        except subprocess.TimeoutExpired:
            e.proc.kill()
            raise Failure(f"the process did not end after {how}" + e.context())
        if how == "quit":
            self.stats.exit_latency.append(time.perf_counter() - sent)
        while True:
            _, text = e.get(5)
            if text is None:
                break
            if text.startswith("move "):
                if self.thinking is None or text.split()[1] not in self.thinking:
                    raise Failure(f"'{text}' at {how}" + e.context())
                self.thinking = None
                continue
            if RESULT.match(text):
                continue
            self.handle(text, [])
        if code != 0:
            raise Failure(f"exit status {code} after {how}" + e.context())
        time.sleep(0.01)
        if e.stderr:
            raise Failure("stderr: " + " / ".join(e.stderr[:10]) + e.context())

    def run(self, budget):
        rng = self.rng
        e = self.e
        e.send("xboard")
        e.send("protover 2")
        deadline = time.perf_counter() + 5
        while True:
            _, text = e.get(max(deadline - time.perf_counter(), 0.0))
            if text == "feature done=1":
                break
            if text is None:
                raise Failure("no features")
        self.new_game(first=True)
        start = self.stats.commands
        while self.stats.commands - start < budget:
            self.drain()
            if self.need_sync and self.thinking is None:
                # a claim that the engine's move ended the game is printed just after the move: wait for
                # it (the pong comes after it) before the next action
                self.need_sync = False
                self.ping()
            if self.thinking is not None:
                if self.while_thinking() == "ended":
                    return
            else:
                self.idle_action()
            if rng.random() < 0.3:
                time.sleep(rng.choice([0, 0.0002, 0.001, 0.003]))
        if self.thinking is not None and rng.random() < 0.5:
            self.end("quit")
        elif rng.random() < 0.1 and self.thinking is None:
            self.end("eof")
        else:
            self.end("quit")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("protocol", choices=["uci", "xboard"])
    ap.add_argument("commands", type=int, nargs="?", default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mysl", default=os.path.join(ROOT, "target", "release", "mysl"))
    ap.add_argument("--session", type=int, default=2000, help="most commands in one process")
    args = ap.parse_args()
    print(f"protocol-stress: {args.protocol}, {args.commands} commands, seed {args.seed}, {args.mysl}", flush=True)
    rng = random.Random(args.seed)
    stats = Stats()
    fens = suite_fens()
    oracle = Oracle(args.mysl)
    started = time.perf_counter()
    cls = UciSession if args.protocol == "uci" else XboardSession
    last_report = started
    while stats.commands < args.commands and len(stats.failures) < 20:
        budget = min(rng.randint(20, args.session), args.commands - stats.commands)
        s = cls(args, rng, stats, fens, oracle)
        stats.sessions += 1
        try:
            s.run(budget)
        except Failure as f:
            stats.fail(f"session {stats.sessions}: {f}")
            where = s.e.dump(os.path.join(ROOT, "target", "protocol-stress",
                                          f"{args.protocol}-seed{args.seed}-session{stats.sessions}.txt"))
            print(f"  transcript: {where}", flush=True)
            if s.e.stderr:
                print("  stderr: " + " / ".join(s.e.stderr[:20]), flush=True)
            s.e.proc.kill()
        except (queue.Empty, BrokenPipeError) as f:
            stats.fail(f"session {stats.sessions}: {type(f).__name__}: {f}" + s.e.context())
            s.e.proc.kill()
        if time.perf_counter() - last_report > 30:
            last_report = time.perf_counter()
            print(f"  {stats.commands} commands, {stats.sessions} sessions, {stats.searches} searches, "
                  f"{len(stats.failures)} failures, {time.perf_counter() - started:.0f} s", flush=True)
    wall = time.perf_counter() - started
    idle, busy = stats.idle_latency, stats.busy_latency
    ready = "isready" if args.protocol == "uci" else "ping"
    print(f"commands {stats.commands} in {wall:.1f} s ({stats.commands / wall:.0f}/s), sessions {stats.sessions} "
          f"({stats.quit_during_search} quit during a search, {stats.eof_sessions} ended by end of input), "
          f"searches {stats.searches}, moves checked {stats.moves_checked}")
    print(f"{ready} with no search: {len(idle)} answered, max {1000 * max(idle, default=0):.1f} ms, "
          f"p99 {1000 * percentile(idle, 0.99):.1f} ms, p50 {1000 * percentile(idle, 0.5):.2f} ms, "
          f"over 100 ms: {sum(1 for x in idle if x > 0.1)}")
    print(f"{ready} during a search: {len(busy)} answered, max {1000 * max(busy, default=0):.1f} ms, "
          f"p99 {1000 * percentile(busy, 0.99):.1f} ms")
    print(f"exit after quit: max {1000 * max(stats.exit_latency, default=0):.1f} ms, "
          f"p99 {1000 * percentile(stats.exit_latency, 0.99):.1f} ms")
    print(f"failures: {len(stats.failures)}")
    sys.exit(1 if stats.failures else 0)


if __name__ == "__main__":
    main()
