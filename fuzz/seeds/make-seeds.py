#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ from real data: FENs of the
perft suites and Popeye problems in ../shared, a few master games, slices of the Polyglot books there,
a small .mbk built by mysl, and hand-written protocol sessions. Run once before the first fuzzing;
afterwards the committed corpora are the fuzzer's minimised ones (scripts/fuzz.sh)."""
import gzip, hashlib, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared", "data")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
# Variant::ALL order (crates/core/src/rules.rs): the selector byte of fen, moves and pgn.
VARIANTS = ["chess", "antichess", "antichess-noep", "3check", "extinction", "berolina", "cylinder", "dice",
            "knightrelay", "recycle"]
ALIAS = {"standard": "chess", "threecheck": "3check", "berolina-noep": "berolina"}


def put(target, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def variant_byte(name):
    return bytes([VARIANTS.index(ALIAS.get(name, name))])


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# fen and moves: the perft suites' positions, and the start position with each variant's fields.
fens = []
for name in sorted(os.listdir(os.path.join(SHARED, "perft"))):
    for line in open(os.path.join(SHARED, "perft", name)):
        if line.startswith("#") or ";" not in line:
            continue
        variant, fen = line.split(";")[:2]
        fens.append((variant, fen))
extra = [
    ("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+0"),
    ("recycle", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1"),
    ("dice", START + " roll=3"),
    ("chess", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    ("berolina", "rnbqkbnr/pppp1ppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq e3d4 0 2"),
]
for v in VARIANTS:
    extra.append((v, START))
for variant, fen in fens + extra:
    put("fen", variant_byte(variant) + fen.encode())
moves = ["e4", "e7e5", "Nf3", "b8c6", "Bb5", "a6", "O-O", "exd5", "Bxc6", "dxc6", "e1g1", "P@e4", "Q@d5", "a7a8q", "e8=Q+"]
for i, (variant, fen) in enumerate(fens[::4] + extra):
    lines = [fen] + moves[i % 5:] + moves[:i % 5]
    put("moves", variant_byte(variant) + "\n".join(lines).encode())

# pgn: master games, alone and a few together, plain, gzip and zstd; a variant game; broken text.
games = open(os.path.join(SHARED, "pgn", "kasparov-2128.pgn"), encoding="utf-8", errors="replace").read().split("\n\n[Event ")
games = [g if g.startswith("[Event ") else "[Event " + g for g in games[:12]]
for g in games[:6]:
    put("pgn", b"\x00" + g.encode() + b"\n")
three = ("\n\n".join(games[6:9]) + "\n").encode()
put("pgn", b"\x00" + three)
put("pgn", b"\x30" + three)
put("pgn", b"\x00" + gzip.compress(three))
try:
    put("pgn", b"\x00" + subprocess.run(["zstd", "-c", "-q"], input=three, capture_output=True, check=True).stdout)
except (OSError, subprocess.CalledProcessError):
    print("zstd not found: no zstd seed", file=sys.stderr)
put("pgn", b"\x03" + b'[Variant "Three-check"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxe5 1-0\n')
put("pgn", b"\x01" + b'[Variant "Antichess"]\n[Result "0-1"]\n\n1. e3 b5 2. Bxb5 c6 3. Bxc6 Nxc6 0-1\n')
put("pgn", b"\x09" + b'[Variant "Recycle"]\n[Result "*"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Bxd2 P@e4 *\n')
put("pgn", b"\x00" + b'[FEN "8/8/8/8/8/8/k7/4K2R w K - 0 1"]\n[SetUp "1"]\n[Result "1-0"]\n\n1. O-O Kb3 {comment} (1... Ka3) 2. Rh3+ $1 1-0\n')
put("pgn", b"\x00" + b'[Result "1-0"]\n\n1. e4 e5 2. Qxf7 1-0\n\n[Result "0-1"]\n1. d4 ; rest\n0-1\n')

# book: slices of the Polyglot books (whole 16-byte entries), and small .mbk books built by mysl.
for name, n in [("gnuchess_book_1.02.bin", 24), ("kasparov_maxply20_min1.bin", 40), ("pgnmentor_maxply30_min3.bin", 8)]:
    data = open(os.path.join(SHARED, "books", name), "rb").read()
    put("book", b"\x00" + data[: 16 * n])
    put("book", b"\x00" + data[len(data) // 2 // 16 * 16:][: 16 * n])
mysl = os.environ.get("MYSL", os.path.join(ROOT, "target", "release", "mysl"))
if os.path.exists(mysl):
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "g.pgn")
        with open(pgn, "w") as f:
            f.write("\n\n".join(games[:4]) + "\n")
        for ext, flag in [("mbk", b"\x01"), ("bin", b"\x00")]:
            out = os.path.join(tmp, "b." + ext)
            subprocess.run([mysl, "book", "build", "--pgn", pgn, "--out", out, "--max-ply", "12", "--min-games", "1", "--quiet"], check=True)
            put("book", flag + open(out, "rb").read())
else:
    print(f"{mysl} not found: no .mbk seed", file=sys.stderr)

# popeye: the problem set's inputs.
for line in open(os.path.join(SHARED, "problems", "popeye-set.jsonl")):
    put("popeye", json.loads(line)["popeye_input"])

# uci and xboard: sessions as GUIs send them.
for s in [
    "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 3\nquit\n",
    "uci\nsetoption name UCI_Variant value antichess\nposition startpos moves e2e3\ngo nodes 200\n",
    "setoption name UCI_Variant value 3check\nposition fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1\ngo movetime 10\n",
    "setoption name MultiPV value 3\nsetoption name Threads value 2\nposition startpos\ngo infinite\nstop\n",
    "setoption name Ponder value true\nposition startpos moves d2d4\ngo ponder wtime 1000 btime 1000 winc 10 binc 10\nponderhit\n",
    "position startpos\ngo perft 2\nd\nbench 1\n",
    "setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1\ngo wtime 100 btime 100 movestogo 5\n",
    "setoption name OwnBook value true\nposition startpos\ngo wtime 60000 btime 60000\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1500\ngo nodes 300\n",
    "setoption name Hash value 2\nsetoption name Clear Hash\nposition startpos moves e2e4\ngo mate 2 searchmoves e7e5 d7d5\n",
    "setoption name UCI_Variant value dice\nposition startpos\ngo depth 2\nsetoption name UCI_Variant value recycle\nposition startpos moves e2e4 d7d5 e4d5 d8d5\ngo depth 2\n",
]:
    put("uci", s)
for s in [
    "xboard\nprotover 2\nnew\nrandom\nlevel 40 5 0\npost\nhard\ntime 30000\notim 30000\nusermove e2e4\n",
    "xboard\nprotover 2\nnew\nvariant 3check\nforce\nusermove e2e4\nusermove e7e5\ngo\n",
    "xboard\nnew\nforce\nsetboard 8/8/8/8/8/8/k7/4K2R w K - 0 1\nsd 2\ngo\nundo\nremove\n",
    "xboard\nnew\npost\nanalyze\nusermove e2e4\n.\nexit\nping 7\n",
    "xboard\nnew\nst 1\ncores 2\nmemory 1\neasy\nplayother\nusermove d7d5\n?\nresult 1-0 {White wins}\n",
    "xboard\nnew\nvariant giveaway\nnopost\ngo\nforce\noption MultiPV=2\noption Ponder=1\nusermove h7h6\n",
    "xboard\nprotover 2\naccepted setboard\nnew\nvariant fischerandom\nsetboard bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo\nquit\n",
]:
    put("xboard", s)
for t in sorted(os.listdir(CORPUS)):
    print(t, len(os.listdir(os.path.join(CORPUS, t))))
