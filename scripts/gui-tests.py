#!/usr/bin/env python3
"""mysl driven through python-chess's engine API, the way lichess-bot and other GUIs drive it.

    scripts/gui-tests.py [--fast] [MYSL]        (MYSL: the engine binary; default target/release/mysl)

Each check prints `PASS name` or `FAIL name: reason`; the last line is `N passed, M failed` and the exit
code is non-zero when a check fails. Every engine call is bounded (python-chess timeouts where it has
them, and a per-check watchdog that kills the engine otherwise). Searches are deterministic where
python-chess allows: fixed nodes or depth, fixed openings, a seeded random mover.
"""
import logging
import os
import random
import signal
import sys
import time
import traceback

import chess
import chess.engine
import chess.variant
from chess.engine import Limit

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
FAST = "--fast" in sys.argv
MYSL = os.path.abspath(ARGS[0] if ARGS else os.environ.get("MYSL", "target/release/mysl"))
INIT_TIMEOUT = 20  # seconds for the uci/xboard handshake

# Checks that fail because of a known mysl bug (name -> note); they print XFAIL and do not count as
# failures. An expected failure that passes prints XPASS and counts as a failure (remove the entry).
EXPECTED_FAIL: dict[str, str] = {}


class Watchdog(Exception):
    pass


# Lines python-chess does not expect (mysl's `info string error: ...` outside a search, xboard's
# `Error (...)`) are logged by python-chess as warnings; we capture them to see what mysl reported.
class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ": >> " in message:  # a line from the engine (python-chess logs them at debug level)
            self.lines.append(message.split(": >> ", 1)[1])
        elif "Unexpected engine output" in message:
            self.lines.append(message)


CAPTURE = Capture()
logging.getLogger("chess.engine").addHandler(CAPTURE)
logging.getLogger("chess.engine").setLevel(logging.DEBUG)
logging.getLogger("chess.engine").propagate = False

OPEN = []  # engines opened by the running check (killed by the watchdog, closed afterwards)


def uci(*extra):
    e = chess.engine.SimpleEngine.popen_uci([MYSL, *extra], timeout=INIT_TIMEOUT)
    OPEN.append(e)
    return e


def xboard(*extra):
    e = chess.engine.SimpleEngine.popen_xboard([MYSL, *extra], timeout=INIT_TIMEOUT)
    OPEN.append(e)
    return e


def kill_open():
    for e in OPEN:
        try:
            os.kill(e.transport.get_pid(), signal.SIGKILL)
        except Exception:
            pass


def close_open():
    for e in OPEN:
        try:
            e.close()
        except Exception:
            pass
    OPEN.clear()


RESULTS = {"pass": 0, "fail": 0}


def check(name, fn, budget=60):
    """Runs one check under a watchdog of `budget` seconds."""

    def alarm(_sig, _frame):
        kill_open()
        raise Watchdog(f"no answer within {budget} s (engine killed)")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(budget)
    t0 = time.time()
    error = None
    note = None
    try:
        note = fn()
    except AssertionError as e:
        error = str(e) or "assertion failed: " + traceback.format_exc().strip().splitlines()[-2].strip()
    except Exception as e:  # noqa: BLE001 - anything is a failure of the check
        error = f"{type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        close_open()
    took = f" ({time.time() - t0:.1f}s{'; ' + note if note and not error else ''})"
    if name in EXPECTED_FAIL:
        if error:
            print(f"XFAIL {name}: {error} [known: {EXPECTED_FAIL[name]}]{took}", flush=True)
            RESULTS["pass"] += 1
        else:
            print(f"FAIL {name}: XPASS, expected to fail ({EXPECTED_FAIL[name]}); remove it from EXPECTED_FAIL", flush=True)
            RESULTS["fail"] += 1
    elif error:
        print(f"FAIL {name}: {error}{took}", flush=True)
        RESULTS["fail"] += 1
    else:
        print(f"PASS {name}{took}", flush=True)
        RESULTS["pass"] += 1


def legal(board, move, what="move"):
    assert move is not None, f"{what}: no move (position {board.fen()})"
    assert move in board.legal_moves, f"{what} {move.uci()} is illegal in {board.fen()}"


# ---------------------------------------------------------------------------------------------- UCI

EXPECTED_OPTIONS = ["Hash", "Threads", "MultiPV", "Ponder", "UCI_Variant", "UCI_Chess960", "EvalFile",
                    "Use NNUE", "UCI_LimitStrength", "UCI_Elo", "Move Overhead", "OwnBook", "BookDepth",
                    "BookVariety", "SyzygyPath", "SyzygyProbeLimit", "Clear Hash"]


def uci_identity():
    with uci() as e:
        assert e.id.get("name", "").lower().startswith("mysl"), f"id name is {e.id.get('name')!r}"
        assert e.id.get("author"), "no id author"
        missing = [o for o in EXPECTED_OPTIONS if o not in e.options]
        assert not missing, f"options python-chess does not see: {missing}"
        var = e.options["UCI_Variant"]
        assert var.type == "combo", f"UCI_Variant is a {var.type}"
        want = "chess antichess antichess-noep 3check extinction berolina cylinder dice knightrelay recycle".split()
        assert set(want) <= set(var.var), f"UCI_Variant lacks {sorted(set(want) - set(var.var))}"
        e.ping()


def non_default(opt):
    if opt.type == "spin":
        return opt.default + 1 if opt.max is None or opt.default < opt.max else opt.default - 1
    if opt.type == "check":
        return not opt.default
    if opt.type == "combo":
        return next(v for v in opt.var if v != opt.default)
    return None


def uci_configure_roundtrip():
    with uci() as e:
        done = []
        for name, opt in e.options.items():
            if opt.is_managed() or opt.type in ("button", "string"):
                continue
            value = non_default(opt)
            if name == "Hash":
                value = 32
            if name == "Threads":
                value = 2
            CAPTURE.lines.clear()
            e.configure({name: value})
            e.ping()
            errors = [l for l in CAPTURE.lines if "error" in l.lower()]
            assert not errors, f"setoption {name}={value}: {errors}"
            done.append(name)
        e.configure({"Clear Hash": None})  # a button
        e.configure({"SyzygyPath": ""})
        e.ping()
        errors = [l for l in CAPTURE.lines if "error" in l.lower()]
        assert not errors, f"button/string options: {errors}"
        assert {"Hash", "Threads", "Use NNUE", "UCI_LimitStrength", "UCI_Elo"} <= set(done), done
        # The engine still plays after all that (with strength limited, hash 32, threads 2).
        board = chess.Board()
        r = e.play(board, Limit(nodes=2000))
        legal(board, r.move)


def uci_bad_values():
    with uci() as e:
        # python-chess validates against the declared option: out of range or unknown names raise.
        for bad in ({"Hash": 0}, {"Hash": 10 ** 9}, {"UCI_Elo": -5}, {"No Such Option": 1}, {"UCI_Variant": "x"}):
            try:
                e.configure(bad)
            except chess.engine.EngineError:
                pass
            else:
                raise AssertionError(f"configure({bad}) did not raise")
        # Values python-chess passes through: mysl answers `info string error: ...` and keeps going.
        for name, value in (("EvalFile", "/nonexistent/net.nnue"), ("BookFile", "/nonexistent/book.bin"),
                            ("SyzygyPath", "/nonexistent/syzygy")):
            CAPTURE.lines.clear()
            e.configure({name: value})
            e.ping()
            reported = [l for l in CAPTURE.lines if "error" in l.lower()]
            assert reported, f"setoption {name} {value}: no error reported (saw {CAPTURE.lines})"
        # Raw bad values (below python-chess's validation) for typed options.
        for line in ("setoption name Hash value lots", "setoption name Ponder value maybe",
                     "setoption name UCI_Variant value nosuchchess", "setoption name Nope value 1"):
            CAPTURE.lines.clear()
            e.protocol.send_line(line)
            e.ping()
            assert any("error" in l.lower() for l in CAPTURE.lines), f"{line!r}: no error reported ({CAPTURE.lines})"
        e.ping()
        board = chess.Board()
        legal(board, e.play(board, Limit(nodes=1000)).move)


def uci_go_ponder_nodes_waits():
    """`go ponder nodes N` must not answer before `ponderhit` or `stop` (the node limit counts after
    ponderhit). python-chess sends exactly this for `play(..., Limit(nodes=N), ponder=True)`."""
    with uci() as e:
        lines = []

        class Go(chess.engine.BaseCommand):
            def start(self):
                e.protocol.send_line("position startpos moves e2e4 e7e5")
                e.protocol.send_line("go ponder nodes 2000")
                e.protocol.loop.call_later(2.0, lambda: e.protocol.send_line("stop"))

            def line_received(self, line):
                if line.startswith("bestmove"):
                    lines.append((time.time() - t0, line))
                    self.result.set_result(None)
                    self.set_finished()

        import asyncio

        async def run():
            return await e.protocol.communicate(Go)

        t0 = time.time()
        asyncio.run_coroutine_threadsafe(run(), e.protocol.loop).result(10)
        took, line = lines[0]
        assert took >= 1.9, f"'go ponder nodes 2000' answered '{line}' after {took:.2f}s, before 'stop' (sent at 2s)"
        return f"bestmove only after stop ({took:.1f}s)"


def random_move(board, rng):
    return rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))


def uci_game_ponder(vs_self, clock_s, max_plies):
    def run():
        rng = random.Random(25)
        board = chess.Board()
        e = uci()
        e2 = uci() if vs_self else None
        ponders = 0
        clock = [clock_s, clock_s]  # seconds each (fixed: the clocks are not run down, games stay short)
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            eng = e if board.turn == chess.WHITE or not vs_self else e2
            if board.turn == chess.BLACK and not vs_self:
                board.push(random_move(board, rng))
                continue
            # A clock, as lichess-bot plays: with `Limit(nodes=...)` python-chess sends `go ponder nodes N`,
            # which mysl ends on its own (see uci-go-ponder-nodes-waits), racing python-chess's ponderhit.
            r = eng.play(board, Limit(white_clock=clock[0], black_clock=clock[1], white_inc=0.05, black_inc=0.05),
                         ponder=True)
            legal(board, r.move)
            board.push(r.move)
            if r.ponder is not None:
                ponders += 1
                legal(board, r.ponder, f"ponder move after {r.move.uci()}")
        assert board.ply() >= min(20, max_plies) or board.is_game_over(), f"game stopped at ply {board.ply()}"
        assert ponders > 0, "no ponder move was ever given"
        e.quit()
        if e2:
            e2.quit()
        for x in (e, e2):
            if x is not None:
                rc = x.transport.get_returncode()
                assert rc in (0, None), f"exit status after quit: {rc}"
        return f"{board.ply()} plies, {ponders} ponder moves, {board.result(claim_draw=True)}"
    return run


def uci_analysis_multipv(fens, depth):
    def run():
        with uci() as e:
            for fen in fens:
                board = chess.Board(fen)
                with e.analysis(board, Limit(depth=depth), multipv=3) as a:
                    a.wait()
                    lines = a.multipv
                check_multipv(board, lines, fen)
            # An early stop: an infinite analysis ends on `stop` with a best move.
            board = chess.Board(fens[0])
            t0 = time.time()
            with e.analysis(board, multipv=3) as a:
                for info in a:
                    if info.get("depth", 0) >= 4 and "pv" in info:
                        break
                a.stop()
                best = a.wait()
            assert time.time() - t0 < 30, "stop took too long"
            legal(board, best.move, "bestmove after stop")
            # Stopped mid-iteration, the lines not yet searched at the last depth still show the previous
            # depth's (UCI reports each line as it finishes), so two may begin alike: only legality here.
            check_multipv(board, a.multipv, "stopped " + fens[0], distinct=False)
            e.ping()
    return run


def check_multipv(board, lines, where, distinct=True):
    assert len(lines) == 3, f"{where}: {len(lines)} lines instead of 3"
    firsts = [l["pv"][0] for l in lines if l.get("pv")]
    assert len(firsts) == 3, f"{where}: a line without pv"
    assert not distinct or len(set(firsts)) == 3, f"{where}: lines not distinct: {[m.uci() for m in firsts]}"
    for l in lines:
        assert "score" in l, f"{where}: line without score"
        b = board.copy()
        for m in l["pv"]:
            legal(b, m, f"{where}: pv move")
            b.push(m)


# Variants python-chess and mysl share (python-chess's board class sends UCI_Variant itself from
# `type(board).uci_variant`; mysl's variants it has no class for are set with configure below).
SHARED_VARIANTS = [chess.Board, chess.variant.AntichessBoard, chess.variant.ThreeCheckBoard]


def uci_variant_play(cls, plies, nodes):
    def run():
        with uci() as e:
            assert cls.uci_variant in e.options["UCI_Variant"].var, f"mysl lacks {cls.uci_variant}"
            board = cls()
            e.configure({"Hash": 16})
            while not board.is_game_over() and board.ply() < plies:
                r = e.play(board, Limit(nodes=nodes))
                legal(board, r.move, f"{cls.uci_variant} move")
                board.push(r.move)
            e.ping()
            return f"{board.ply()} plies: {' '.join(m.uci() for m in board.move_stack)}"
    return run


def uci_variant_only_mysl(plies):
    """mysl's own variants (no python-chess board): UCI_Variant set by hand, moves checked by mysl's
    own `go` answers only (well-formed, accepted back in `position ... moves`)."""
    def run():
        with uci() as e:
            names = [v for v in e.options["UCI_Variant"].var if v not in ("chess", "antichess", "3check")]
            played = []
            for name in names:
                e.protocol.send_line(f"setoption name UCI_Variant value {name}")
                moves = []
                for _ in range(plies):
                    pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
                    e.protocol.send_line(pos)
                    CAPTURE.lines.clear()
                    e.ping()
                    assert not any("error" in l.lower() for l in CAPTURE.lines), f"{name}: {pos}: {CAPTURE.lines}"
                    best = go_raw(e, "go nodes 2000")
                    if best in (None, "(none)", "0000"):
                        break
                    moves.append(best)
                assert len(moves) >= min(4, plies), f"{name}: only {moves}"
                played.append(f"{name}:{len(moves)}")
            return "plies " + " ".join(played)
    return run


def go_raw(e, go):
    """Sends a raw `go`, returns the bestmove (through python-chess's protocol object)."""
    import asyncio

    class Go(chess.engine.BaseCommand):
        def start(self):
            e.protocol.send_line(go)

        def line_received(self, line):
            if line.startswith("bestmove"):
                parts = line.split()
                self.result.set_result(parts[1] if len(parts) > 1 else None)
                self.set_finished()

    async def run():
        return await e.protocol.communicate(Go)

    return asyncio.run_coroutine_threadsafe(run(), e.protocol.loop).result(30)


def chess960_play(positions, plies, nodes):
    def run():
        with uci() as e:
            castles = 0
            for n in positions:
                board = chess.Board.from_chess960_pos(n)
                rng = random.Random(n)
                while not board.is_game_over() and board.ply() < plies:
                    castling = [m for m in board.legal_moves if board.is_castling(m)]
                    if board.turn == chess.WHITE and castling:
                        # Only castling moves allowed (`go searchmoves`, king-takes-rook notation):
                        # mysl must answer with one of them.
                        r = e.play(board, Limit(nodes=nodes), root_moves=castling)
                        legal(board, r.move, f"960 #{n} castling")
                        assert r.move in castling, f"960 #{n}: {r.move.uci()} is not one of the searchmoves"
                        castles += 1
                        board.push(r.move)
                        continue
                    if board.turn == chess.BLACK:
                        # Black castles as soon as it can (so that castling moves get tested), else random.
                        c = [m for m in board.legal_moves if board.is_castling(m)]
                        board.push(c[0] if c else random_move(board, rng))
                        continue
                    r = e.play(board, Limit(nodes=nodes))
                    legal(board, r.move, f"960 #{n} move")
                    castles += board.is_castling(r.move)
                    board.push(r.move)
                # The engine must accept castling (king takes rook) in the game history.
                e.ping()
            # A fixed position with both castlings available (king on b1, rooks a1 and h1): mysl must
            # answer a castling-only `go searchmoves` with one of them, in king-takes-rook notation.
            board = chess.Board("rk6/8/8/8/8/8/8/RK5R w KQ - 0 1", chess960=True)
            castling = [m for m in board.legal_moves if board.is_castling(m)]
            assert len(castling) == 2, f"test position: castling moves {castling}"
            r = e.play(board, Limit(nodes=nodes), root_moves=castling)
            legal(board, r.move, "960 castling position")
            assert r.move in castling, f"960 castling position: {r.move.uci()} is not a castling move"
            castles += 1
            return f"{len(positions)} positions, {castles} castling moves by mysl"
    return run


# -------------------------------------------------------------------------------------------- xboard


def xboard_game(forced, plies, depth):
    def run():
        e = xboard("xboard") if forced else xboard()
        f = e.protocol.features
        for k in ("setboard", "usermove", "ping", "analyze", "variants"):
            assert k in f, f"feature {k} missing ({sorted(f)})"
        assert f.get("myname", "").lower().startswith("mysl"), f"myname {f.get('myname')!r}"
        board = chess.Board()
        rng = random.Random(5)
        while not board.is_game_over() and board.ply() < plies:
            if board.turn == chess.BLACK:
                board.push(random_move(board, rng))
                continue
            r = e.play(board, Limit(depth=depth))
            legal(board, r.move, "xboard move")
            board.push(r.move)
        e.ping()
        e.quit()
        return f"{board.ply()} plies, {board.result(claim_draw=True)}"
    return run


def xboard_timed_game(plies):
    def run():
        e = xboard()
        board = chess.Board()
        wc = bc = 10.0
        while not board.is_game_over() and board.ply() < plies:
            t0 = time.time()
            r = e.play(board, Limit(white_clock=wc, black_clock=bc, white_inc=0.1, black_inc=0.1))
            used = time.time() - t0
            if board.turn:
                wc = wc - used + 0.1
            else:
                bc = bc - used + 0.1
            assert wc > 0 and bc > 0, "flagged"
            legal(board, r.move, "xboard timed move")
            board.push(r.move)
        e.quit()
        return f"{board.ply()} plies, clocks left {wc:.1f}s/{bc:.1f}s"
    return run


def xboard_analysis():
    with xboard() as e:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        with e.analysis(board) as a:
            seen = None
            for info in a:
                if info.get("depth", 0) >= 5 and info.get("pv"):
                    seen = info
                    break
            a.stop()
        assert seen, "no post output with a pv at depth 5"
        assert "score" in seen, f"no score in {seen}"
        b = board.copy()
        for m in seen["pv"]:
            legal(b, m, "xboard pv move")
            b.push(m)
        e.ping()
        r = e.play(board, Limit(depth=3))
        legal(board, r.move, "move after analysis")


def xboard_options():
    with xboard() as e:
        opts = e.options
        # python-chess 1.11 splits `feature option="NAME -type ..."` on whitespace, so mysl's options
        # with a space in the name ("Use NNUE", "Clear Hash") reach it as "Use" and "Clear" with a
        # garbled type: a python-chess limitation (the CECP spec allows spaces). Those two are sent raw.
        want = ["OwnBook", "BookDepth", "BookVariety", "UCI_LimitStrength", "UCI_Elo"]
        missing = [o for o in want if o not in opts]
        assert not missing, f"xboard options missing: {missing} (have {sorted(opts)})"
        for name in want:
            opt = opts[name]
            value = None if opt.type == "button" else non_default(opt)
            CAPTURE.lines.clear()
            e.configure({name: value})
            e.ping()
            errs = [l for l in CAPTURE.lines if "error" in l.lower()]
            assert not errs, f"option {name}={value}: {errs}"
        for raw in ("option Use NNUE=0", "option Clear Hash", "option Use NNUE=1"):
            CAPTURE.lines.clear()
            e.protocol.send_line(raw)
            e.ping()
            errs = [l for l in CAPTURE.lines if "error" in l.lower()]
            assert not errs, f"{raw}: {errs}"
        CAPTURE.lines.clear()
        try:
            e.configure({"EvalFile": "/nonexistent/net.nnue"})
            e.ping()
        except chess.engine.EngineError:
            pass
        else:
            assert any("error" in l.lower() for l in CAPTURE.lines), f"bad EvalFile not reported ({CAPTURE.lines})"
        e.ping()
        board = chess.Board()
        legal(board, e.play(board, Limit(depth=2)).move)


def xboard_variant(cls, plies):
    def run():
        with xboard() as e:
            board = cls()
            while not board.is_game_over() and board.ply() < plies:
                r = e.play(board, Limit(depth=3))
                legal(board, r.move, f"xboard {cls.xboard_variant} move")
                board.push(r.move)
            return f"{board.ply()} plies: {' '.join(m.uci() for m in board.move_stack)}"
    return run


# ---------------------------------------------------------------------------------------------- main

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/8/4k3/8/2P5/4K3/8/8 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


def main():
    if not os.access(MYSL, os.X_OK):
        print(f"no engine at {MYSL}", file=sys.stderr)
        sys.exit(2)
    t0 = time.time()
    print(f"gui-tests: {MYSL} with python-chess {chess.__version__}{' (fast)' if FAST else ''}", flush=True)
    check("uci-identity-options", uci_identity, 30)
    check("uci-configure-roundtrip", uci_configure_roundtrip, 60)
    check("uci-bad-values", uci_bad_values, 60)
    check("uci-go-ponder-nodes-waits", uci_go_ponder_nodes_waits, 20)
    if FAST:
        check("uci-game-ponder-vs-random", uci_game_ponder(False, 2, 80), 60)
        check("uci-game-ponder-self", uci_game_ponder(True, 1, 120), 60)
        check("uci-analysis-multipv3", uci_analysis_multipv(FENS[1:2], 6), 60)
    else:
        check("uci-game-ponder-vs-random", uci_game_ponder(False, 3, 120), 120)
        check("uci-game-ponder-self", uci_game_ponder(True, 3, 120), 180)
        check("uci-analysis-multipv3", uci_analysis_multipv(FENS, 10), 120)
    for cls in SHARED_VARIANTS:
        check(f"uci-variant-{cls.uci_variant}", uci_variant_play(cls, 8 if FAST else 20, 20000), 60)
    if not FAST:
        check("uci-variant-mysl-only", uci_variant_only_mysl(6), 120)
    check("chess960", chess960_play([0, 518, 959] if FAST else [0, 17, 518, 700, 959], 16 if FAST else 30, 3000),
          120)
    check("xboard-auto-game", xboard_game(False, 16 if FAST else 40, 4), 60)
    check("xboard-forced-game", xboard_game(True, 10 if FAST else 30, 4), 60)
    check("xboard-analysis", xboard_analysis, 60)
    check("xboard-options", xboard_options, 60)
    if not FAST:
        check("xboard-timed-game", xboard_timed_game(30), 120)
        for cls in (chess.variant.AntichessBoard, chess.variant.ThreeCheckBoard):
            check(f"xboard-variant-{cls.xboard_variant}", xboard_variant(cls, 12), 60)
    print(f"time {time.time() - t0:.1f}s", flush=True)
    print(f"{RESULTS['pass']} passed, {RESULTS['fail']} failed", flush=True)
    sys.exit(1 if RESULTS["fail"] else 0)


if __name__ == "__main__":
    main()
