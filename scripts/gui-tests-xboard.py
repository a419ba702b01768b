#!/usr/bin/env python3
"""mysl in matches run by xboard (the Debian package) under Xvfb, as users run engine matches.

    scripts/gui-tests-xboard.py [--fast] [MYSL]     (MYSL: the engine binary; default target/release/mysl)

xboard plays `-matchGames` games between `mysl xboard` and Fairy-Max (or mysl itself) and saves them as
PGN; its `-debug` log holds every line both engines sent and received. A match passes when:

  - xboard finishes the match (bounded by `timeout`) and reports its final score;
  - the PGN holds every game, each with a result and as many moves as were played (the debug log);
  - nobody forfeits: no `Illegal move` (from either engine, or from xboard's own legality test where it
    has one), no false win/draw claim, no engine that exited; mysl sends no `Error` line (except for
    `egtpath` to a directory that does not exist, which xboard's default settings send);
  - every result claim of either engine agrees with the result recorded;
  - replay: orthodox and 3check games parse with python-chess (a mate is a mate there too); every game
    replayed from the debug log in a fresh `mysl xboard` (its own rules) takes every move, and a game
    that ended in mate is claimed as that result.

A result itself (a loss on time, a lost game) never fails a check; only protocol errors, illegal or
refused moves, false claims and incomplete games do. Prints `PASS name` / `FAIL name: reason` /
`SKIP name: reason`, then `N passed, M failed`; the exit code is non-zero when a check fails. A failed
match keeps its folder (PGN, debug log, xboard's output) and names it. See docs/gui-tests.md.
"""
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
FAST = "--fast" in sys.argv
MYSL = os.path.abspath(ARGS[0] if ARGS else os.environ.get("MYSL", "target/release/mysl"))
KEEP = os.environ.get("GUI_TESTS_KEEP") == "1"  # keep every match folder, not only failed ones


def which(name):
    return shutil.which(name) or shutil.which(name, path="/usr/games:/usr/local/games")


XBOARD = which("xboard")
XVFB_RUN = which("xvfb-run")
FAIRYMAX = which("fairymax")

# name, variant, opponent (fairymax | mysl), games, base (min:sec), increment (s), ponder, extra options
FAST_MATCHES = [
    ("xboard-match-chess", "normal", "fairymax", 2, "0:03", 0.1, False, []),
    ("xboard-match-berolina", "berolina", "fairymax", 1, "0:03", 0.1, False, []),
    ("xboard-match-cylinder", "cylinder", "fairymax", 1, "0:03", 0.1, False, []),
]
FULL_MATCHES = [
    ("xboard-match-chess", "normal", "fairymax", 4, "0:10", 0.1, False, []),
    ("xboard-match-chess-ponder", "normal", "fairymax", 2, "0:10", 0.1, True, []),
    ("xboard-match-berolina", "berolina", "fairymax", 4, "0:06", 0.1, False, []),
    ("xboard-match-cylinder", "cylinder", "fairymax", 4, "0:06", 0.1, False, []),
    # Fairy-Max plays neither: mysl against itself, refereed by xboard's own rules for these two.
    ("xboard-match-fischerandom-self", "fischerandom", "mysl", 2, "0:06", 0.1, False, ["-defaultFrcPosition", "100"]),
    ("xboard-match-3check-self", "3check", "mysl", 2, "0:06", 0.1, False, []),
]
# xboard has no rules of its own for these (its variant menu marks them `*`; its source says Berolina
# "might work if TestLegality is off"): with legality testing on it refuses Berolina's diagonal pawn
# steps as illegal. The engines check each other's moves instead, and xboard takes their claims.
NO_XBOARD_RULES = {"berolina", "cylinder"}
MAX_MOVES = 250  # xboard adjudicates a draw after this many moves (a bound; engines claim draws earlier)

RESULTS = {"pass": 0, "fail": 0}


# Fairy-Max 5.0b (Debian) segfaults in some positions, e.g. Berolina after 1.h2g3 or 1.g1f3: a match
# that ends because Fairy-Max died is played once more from a later start position, and skipped (not
# failed) when it dies again; mysl's part of the games is still checked. The starts: Berolina after
# 1.e2d3 a7c5, orthodox after 1.e4 e5, Cylinder after 1.e4 e5.
OPPONENT_CRASH = re.compile(r"Error (?:writing to|reading from) second chess program|second chess program[^\n]*exit")
RETRY_START = {
    "berolina": "rnbqkbnr/1ppppppp/8/2p5/8/3P4/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "normal": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "cylinder": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
}


def report(name, problems, summary):
    if problems:
        RESULTS["fail"] += 1
        print(f"FAIL {name}: " + "; ".join(problems[:6]) + (f" (+{len(problems) - 6} more)" if len(problems) > 6 else ""), flush=True)
    else:
        RESULTS["pass"] += 1
        print(f"PASS {name}: {summary}", flush=True)


# ---------------------------------------------------------------- PGN (as xboard writes it)

def split_pgn(text):
    """Games as (headers, movetext, the game's PGN text)."""
    games = []
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        if not block.strip():
            continue
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]\s*$', block, re.M))
        movetext = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        games.append((headers, movetext, block.strip() + "\n\n"))
    return games


def pgn_plies_and_termination(movetext):
    """Move count and the last comment (xboard's reason for the result) of a game's movetext."""
    comments = re.findall(r"\{([^}]*)\}", movetext)
    bare = re.sub(r"\{[^}]*\}", " ", movetext)
    bare = re.sub(r"\([^)]*\)", " ", bare)
    tokens = [t for t in bare.split() if not re.fullmatch(r"\d+\.+|\d+\.\.\.|1-0|0-1|1/2-1/2|\*|\$\d+", t)]
    tokens = [re.sub(r"^\d+\.+", "", t) for t in tokens]
    return len([t for t in tokens if t]), (comments[-1] if comments else "")


# ---------------------------------------------------------------- xboard's debug log

LOG_LINE = re.compile(r"^(\d+) ([<>])(first|second)\s*: ?(.*)$")
CLAIM = re.compile(r"^(1-0|0-1|1/2-1/2) \{(.*)\}")
MOVE_TEXT = re.compile(r"^([a-z]\d+[a-z]\d+[a-z]?|O-O(-O)?|[A-Z]@[a-z]\d+)$")


def parse_debug(text):
    """Per game (in order): mysl's view of the moves (its own `move`s and the `usermove`s it got),
    the claims each engine made, and the reason xboard gave for the end."""
    games = []
    game = None
    for raw in text.splitlines():
        if raw.startswith("New game ("):
            game = {"moves": [], "claims": [], "end": None, "header": raw}
            games.append(game)
            continue
        if game is None:
            continue
        if raw.startswith("GameEnds(") and game["end"] is None:
            m = re.match(r"GameEnds\((\d+), (.*), (\d+)\)$", raw)
            if m and m.group(2) != "(null)":
                game["end"] = m.group(2)
            continue
        m = LOG_LINE.match(raw)
        if not m:
            continue
        _, direction, who, body = m.groups()
        if direction == "<":
            c = CLAIM.match(body)
            if c:
                game["claims"].append((who, c.group(1), c.group(2)))
        if game["end"] is not None or who != "first":
            continue
        if direction == "<" and body.startswith("move "):
            game["moves"].append(body.split()[1])
        elif direction == ">" and body.startswith("usermove "):
            # xboard writes `usermove ` and the move separately: `usermove 1012 >first : c7c6`
            game["moves"].append(body.split()[-1])
    return games


def log_problems(debug_text, output_text):
    """Forfeits, refused moves, false claims, engine deaths and mysl's errors anywhere in the logs."""
    problems = []
    for raw in debug_text.splitlines():
        m = LOG_LINE.match(raw)
        body = m.group(4) if m else raw
        who = m.group(3) if m else "xboard"
        if m and m.group(2) == "<":
            if re.match(r"Illegal move", body, re.I):
                problems.append(f"{who} refused a move: {body}")
            elif who == "first" and re.match(r"(Error|tellusererror)", body):
                if not re.match(r"Error \([^)]*\): egtpath ", body):
                    problems.append(f"mysl: {body}")
        elif not m:
            if re.search(r"Forfeit|False (win|draw|illegal-move) claim|exited unexpectedly|Illegal move", raw):
                problems.append(f"xboard: {raw.strip()}")
    for raw in output_text.splitlines():
        if re.search(r"Illegal move|exited unexpectedly|Forfeit|False .*claim", raw):
            problems.append(f"xboard said: {raw.strip()}")
    # de-duplicate, keep order
    seen = set()
    return [p for p in problems if not (p in seen or seen.add(p))]


# ---------------------------------------------------------------- replays

def replay_with_python_chess(variant, pgn_text):
    """Orthodox, Chess960 and 3check games through python-chess: (problems, per-game board)."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return ["python-chess not installed"], []
    problems, boards = [], []
    stream = io.StringIO(pgn_text)
    n = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        n += 1
        if game.errors:
            problems.append(f"game {n}: python-chess: {game.errors[0]}")
        board = game.end().board()
        boards.append(board)
        result = game.headers.get("Result", "*")
        if board.is_checkmate() or board.is_variant_end():
            expect = board.result(claim_draw=False)
            if expect != result:
                problems.append(f"game {n}: python-chess sees {expect} at the end, the PGN says {result}")
    return problems, boards


def replay_with_mysl(variant, fen, moves):
    """The game from mysl's side of the debug log, in a fresh `mysl xboard`: every move must be taken.
    Returns (problems, verdict): the result mysl claims at once on `go` when the final position ends
    the game under its rules (`1-0`, `0-1`, `1/2-1/2`), else None."""
    lines = ["xboard", "protover 2", "new"]
    if variant != "normal":
        lines.append(f"variant {variant}")
    lines.append("force")
    if fen:
        lines.append(f"setboard {fen}")
    lines += [f"usermove {m}" for m in moves]
    lines += ["ping 1", "sd 1", "go", "ping 2", "quit"]
    try:
        out = subprocess.run([MYSL, "xboard"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                             timeout=60).stdout.splitlines()
    except subprocess.TimeoutExpired:
        return ["replay in mysl timed out"], None
    problems = []
    refused = [l for l in out if re.match(r"(Illegal move|Error|tellusererror)", l)]
    if refused:
        problems.append(f"replay in mysl: {refused[0]}")
    if "pong 2" not in out:
        problems.append("replay in mysl: no pong")
    after = out[out.index("pong 1") + 1:] if "pong 1" in out else []
    claims = [c.group(1) for c in map(CLAIM.match, after) if c]
    return problems, (claims[0] if claims else None)


# ---------------------------------------------------------------- one match

def check_match(folder, variant, games, output, returncode, limit):
    """The checks on a finished match's folder: (problems, per-game summaries, games saved twice)."""
    pgn_path = os.path.join(folder, "games.pgn")
    debug_path = os.path.join(folder, "xboard.debug")
    problems = []
    if returncode in (124, 137):
        problems.append(f"timed out after {limit} s")
    elif returncode != 0:
        problems.append(f"xboard exited with {returncode}")
    score = re.search(r"final score (\d+)-(\d+)-(\d+)", output)
    if not score:
        problems.append("no final score from xboard")
    elif sum(map(int, score.groups())) != games:
        problems.append(f"final score {'-'.join(score.groups())} is not {games} games")
    pgn_text = open(pgn_path).read() if os.path.exists(pgn_path) else ""
    debug_text = open(debug_path, errors="replace").read() if os.path.exists(debug_path) else ""
    if not debug_text:
        problems.append("no debug log")
    problems += log_problems(debug_text, output)

    # xboard saves a game twice when a flag falls as the mating move comes in (once lost on time, once
    # adjudicated as mate, both with the same Round): the first record is the game.
    pgn_games, rounds, twice = [], set(), 0
    for g in split_pgn(pgn_text):
        if g[0].get("Round") in rounds:
            twice += 1
            continue
        rounds.add(g[0].get("Round"))
        pgn_games.append(g)
    log_games = parse_debug(debug_text)
    if len(pgn_games) != games:
        problems.append(f"{len(pgn_games)} games in the PGN, {games} expected")
    if len(log_games) != games:
        problems.append(f"{len(log_games)} games in the debug log, {games} expected")
    results = []
    for i, (headers, movetext, _) in enumerate(pgn_games, 1):
        result = headers.get("Result", "*")
        plies, reason = pgn_plies_and_termination(movetext)
        results.append(f"{result} {{{reason}}} in {plies} plies")
        on_time = "on time" in reason
        if result not in ("1-0", "0-1", "1/2-1/2"):
            problems.append(f"game {i}: result {result}")
        if re.search(r"Forfeit|False|[Ii]llegal|invalid|exited|disconnect|crash", reason):
            problems.append(f"game {i}: ended with {{{reason}}}")
        if plies == 0:
            problems.append(f"game {i}: no moves")
        if i > len(log_games):
            continue
        log = log_games[i - 1]
        # A move that arrives after the flag fell is in the log, not in the PGN.
        if not (len(log["moves"]) == plies or (on_time and len(log["moves"]) == plies + 1)):
            problems.append(f"game {i}: {plies} plies in the PGN, {len(log['moves'])} played in the debug log")
        fen = headers.get("FEN") if headers.get("SetUp") == "1" else None
        p, verdict = replay_with_mysl(variant, fen, log["moves"])
        problems += [f"game {i}: {x}" for x in p]
        # Both engines' claims are about the final position: mysl's rules must see the same.
        for who, claim, text in log["claims"]:
            if claim != verdict:
                problems.append(f"game {i}: {who} claimed {claim} {{{text}}}, mysl's rules see {verdict or 'no end'}")
        if not on_time:
            if verdict is not None and verdict != result:
                problems.append(f"game {i}: the final position is {verdict} under mysl's rules, the PGN says {result}")
            ended_in_mate = re.search(r"mate", reason, re.I) and "stalemate" not in reason.lower()
            if ended_in_mate and verdict is None:
                problems.append(f"game {i}: ended in mate {{{reason}}}, mysl's rules see no end")
    if variant in ("normal", "fischerandom", "3check") and pgn_games:
        p, _ = replay_with_python_chess(variant, "".join(g[2] for g in pgn_games))
        problems += p
    return problems, results, twice


def mysl_problems(problems):
    """The problems beside an opponent's crash that are not its own consequences: xboard's exit status, and
    the match cut short (no final score, fewer games than asked for)."""
    cut_short = re.compile(r"xboard exited with|see |no final score|\d+ games in the (PGN|debug log), \d+ expected")
    return [p for p in problems if not cut_short.match(p)]


def run_match(name, variant, opponent, games, base, inc, ponder, extra):
    problems, summary, folder, crash = play_match(name, variant, opponent, games, base, inc, ponder, extra)
    if crash and opponent == "fairymax" and variant in RETRY_START:
        if not mysl_problems(problems):
            first = f"Fairy-Max crashed ({crash}, {folder}); played again from {RETRY_START[variant]}"
            print(f"  {name}: {first}", flush=True)
            start = os.path.join(folder, "start.fen")
            with open(start, "w") as f:
                f.write(RETRY_START[variant] + "\n")
            extra = extra + ["-lpf", start, "-lpi", "1"]
            problems, summary, folder, crash = play_match(name, variant, opponent, games, base, inc, ponder, extra)
            if crash and not mysl_problems(problems):
                print(f"SKIP {name}: Fairy-Max crashed again ({crash}, {folder}); mysl's moves were legal", flush=True)
                return
            summary += f" (after: {first})"
    report(name, problems, summary)
    if not problems and not KEEP:
        shutil.rmtree(folder, ignore_errors=True)


def play_match(name, variant, opponent, games, base, inc, ponder, extra):
    """One xboard match: (problems, summary, folder, the opponent's crash as xboard reported it or None)."""
    folder = tempfile.mkdtemp(prefix=f"mysl-{name}-")
    home = os.path.join(folder, "home")
    os.makedirs(home)
    pgn_path = os.path.join(folder, "games.pgn")
    debug_path = os.path.join(folder, "xboard.debug")
    minutes, seconds = base.split(":")
    base_s = int(minutes) * 60 + int(seconds)
    # Each side's clock can run at most base + MAX_MOVES * inc; both, plus start-up and pauses.
    limit = int(games * (2 * (base_s + MAX_MOVES * inc) + 20) + 30)
    second = f"{MYSL} xboard" if opponent == "mysl" else FAIRYMAX
    cmd = ["timeout", "-k", "10", str(limit), XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", XBOARD,
           "-fcp", f"{MYSL} xboard", "-fd", folder, "-scp", second, "-sd", folder,
           "-mg", str(games), "-tc", base, "-inc", str(inc),
           "-sgf", pgn_path, "-debug", "-nameOfDebugFile", debug_path,
           "-popupExitMessage", "false", "-saveSettingsOnExit", "false", "-soundProgram", "",
           "-matchPause", "300", "-autoCallFlag", "true", "-adjudicateDrawMoves", str(MAX_MOVES),
           "-ponder" if ponder else "-xponder"]
    if variant != "normal":
        cmd += ["-variant", variant]
    if variant in NO_XBOARD_RULES:
        cmd += ["-testLegality", "false"]
    cmd += extra
    start = time.monotonic()
    env = dict(os.environ, HOME=home)
    proc = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    took = time.monotonic() - start
    output = proc.stdout + proc.stderr
    with open(os.path.join(folder, "xboard.out"), "w") as f:
        f.write(" ".join(cmd) + "\n" + output)
    problems, results, twice = check_match(folder, variant, games, output, proc.returncode, limit)
    if problems:
        problems.append(f"see {folder}")
    note = f" (xboard saved {twice} game(s) twice: a flag fell as the mate came)" if twice else ""
    debug_path = os.path.join(folder, "xboard.debug")
    debug_text = open(debug_path, errors="replace").read() if os.path.exists(debug_path) else ""
    crash = OPPONENT_CRASH.search(output + "\n" + debug_text)
    summary = f"{games} games in {took:.0f} s: " + ", ".join(results) + note
    return problems, summary, folder, crash.group(0) if crash else None


def main():
    print(f"gui-tests-xboard: {MYSL} with {XBOARD or 'no xboard'}{' (fast)' if FAST else ''}", flush=True)
    missing = [n for n, p in (("xboard", XBOARD), ("xvfb-run", XVFB_RUN), ("fairymax", FAIRYMAX)) if not p]
    matches = FAST_MATCHES if FAST else FULL_MATCHES
    if missing or not (os.path.isfile(MYSL) and os.access(MYSL, os.X_OK)):
        why = f"not installed: {', '.join(missing)}" if missing else f"no engine at {MYSL}"
        for m in matches:
            print(f"SKIP {m[0]}: {why}", flush=True)
    else:
        for m in matches:
            run_match(*m)
    print(f"{RESULTS['pass']} passed, {RESULTS['fail']} failed", flush=True)
    sys.exit(1 if RESULTS["fail"] else 0)


if __name__ == "__main__":
    main()
