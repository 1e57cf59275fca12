#!/usr/bin/env python3
"""Kodex against Fairy-Stockfish: legal-move sets on random games, and perft.

For every variant Fairy-Stockfish can express with our rules, this plays
random games and compares, at every ply, the set of legal moves `kodex-uci`
lists (`go perft 1`) with the one pyffish lists; then it prints the perft
numbers of the start position by both, for the fixed vectors of
engine/tests/historical.rs. Not run in CI (it needs pyffish).

    pip install pyffish
    cargo build --release -p kodex-engine --bin kodex-uci
    python3 tests/differential_fsf.py [--games 200] [--plies 300] [--seed 1] [--depth 3] [variant ...]

Fairy-Stockfish built-ins are used where their rules are ours (shatranj,
grand); the others are defined in the variants.ini below, written for
Kodex's rules (VARIANTS.md), and loaded with pyffish.load_variant_config.
Variants Fairy-Stockfish cannot express (the chaturanga king's leap and
promotion into the start square's piece, Frankfurt's capturers, the citadel
board) are listed in UNCHECKABLE and checked by the rule tests in
engine/tests/ instead. Whale shogi is compared up to the first dolphin on the
far rank or captured porpoise (STOP_BEFORE), the two rules it cannot say.

Exit status 1 when any variant disagrees; each disagreement prints the FEN,
the moves played and the moves only one side lists.
"""

import argparse
import os
import random
import subprocess
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KODEX_UCI = os.environ.get(
    "KODEX_UCI",
    os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "kodex-uci"),
)
# KODEX_UCI=path overrides the binary (a shared target directory may hold another checkout's build).

# Our rules, in Fairy-Stockfish's variant language.
VARIANTS_INI = """
[giveaway-kodex:antichess]
promotionPieceTypes = q

[lesson-race:chess]
king = -
castling = false
promotionPieceTypes = -
mandatoryPawnPromotion = false
flagPiece = p
flagRegionWhite = *8
flagRegionBlack = *1
extinctionValue = loss
extinctionPieceTypes = *
stalemateValue = draw

[greatchess:chess]
maxFile = j
maxRank = 10
castling = false
doubleStep = false
promotionRegionWhite = *10
promotionRegionBlack = *1
customPiece1 = g:QN
customPiece2 = v:BN
customPiece3 = w:RN
promotionPieceTypes = q
startFen = rnbqkgvbnr/ppppwwpppp/4pp4/10/10/10/10/4PP4/PPPPWWPPPP/RNBVGKQBNR w - - 0 1

[semedo:chess]
maxFile = e
maxRank = 8
castling = false
doubleStep = false
queen = -
bishop = -
rook = -
customPiece1 = s:F
customPiece2 = r:mRcpR
king = k:mK
promotionPieceTypes = s
startFen = nsksn/rpppr/p3p/5/5/P3P/RPPPR/NSKSN w - - 0 1

[lesson6:chess]
castling = false
startFen = 2bqkb2/2pppp2/8/8/8/8/2PPPP2/2BQKB2 w - - 0 1

# Whale shogi without its two exceptions (the dolphin's move back from the
# far rank, the porpoise dropped as a killer whale): games stop before either.
[whaleshogi-kodex:chess]
maxRank = 6
maxFile = f
pieceDrops = true
capturesToHand = true
castling = false
doubleStep = false
pawn = -
queen = -
rook = -
bishop = -
knight = -
king = k
shogiPawn = d
customPiece1 = p:sW
customPiece2 = h:fRbB
customPiece3 = g:fRbF
customPiece4 = n:sWbWfD
customPiece5 = b:fWfFbW
customPiece6 = o:RF
promotionPieceTypes = -
dropNoDoubled = d
dropNoDoubledCount = 2
shogiPawnDropMateIllegal = true
immobilityIllegal = true
stalemateValue = loss
startFen = bnpkgh/dddddd/6/6/DDDDDD/HGKPNB[] w - - 0 1
"""

# kodex id -> (Fairy-Stockfish variant, start FEN or None for its own).
CHECKED = {
    "shatranj": ("shatranj", None),
    "giveaway": ("giveaway-kodex", None),
    "lesson1": ("lesson-race", "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1"),
    "lesson2": ("lesson-race", "2b2b2/pppppppp/8/8/8/8/PPPPPPPP/2B2B2 w - - 0 1"),
    "lesson3": ("lesson-race", "r1b2b1r/pppppppp/8/8/8/8/PPPPPPPP/R1B2B1R w - - 0 1"),
    "lesson4": ("lesson-race", "1n4n1/pppppppp/8/8/8/8/PPPPPPPP/1N4N1 w - - 0 1"),
    "lesson5": ("lesson-race", "rnb2bnr/pppppppp/8/8/8/8/PPPPPPPP/RNB2BNR w - - 0 1"),
    "lesson6": ("lesson6", None),
    "grand": ("grand", None),
    "greatchess": ("greatchess", None),
    "semedo": ("semedo", None),
    "whaleshogi": ("whaleshogi-kodex", None),
}


def whale_exception(before, after):
    """Whether a move from FEN `before` to FEN `after` reaches what the
    whale shogi definition above cannot say: a dolphin on the far rank, or a
    porpoise captured (it goes to hand as a killer whale)."""
    ranks = after.split()[0].split("[")[0].split("/")
    pocket = lambda fen: fen.split()[0].partition("[")[2]
    return "D" in ranks[0] or "d" in ranks[-1] or pocket(after).lower().count("p") > pocket(before).lower().count("p")


# Random games stop before a move for which this says yes.
STOP_BEFORE = {"whaleshogi": whale_exception}

# Moves left out of the comparison: the dolphin's step onto the far rank
# (ours promotes it to the far-rank dolphin `f`; the definition above, with
# nothing to become, has the dolphin stuck and so lists no such step).
LEFT_OUT = {"whaleshogi": lambda move: move.endswith("f")}


def dolphin_drop_mate(fsf_name, fen, moves, move):
    """Whether `move` drops a dolphin and mates: the drop the rule book
    forbids, which this Fairy-Stockfish allows though the definition sets
    shogiPawnDropMateIllegal (counted apart, as a known difference)."""
    after = moves + [move]
    return (
        move.upper().startswith("D@")
        and sf.gives_check(fsf_name, fen, after)
        and not sf.legal_moves(fsf_name, fen, after)
    )


# Moves only Fairy-Stockfish lists that are a known difference of its rules.
KNOWN_FSF_ONLY = {"whaleshogi": dolphin_drop_mate}

# Variants where VARIANTS.md ends the game at once when a side is bared and
# cannot bare the opponent back; Fairy-Stockfish lets the bared side move
# first. Random games stop when a side is bare (the rule tests cover it).
BARE_KING = {"shatranj"}

UNCHECKABLE = {
    "chaturanga": "the once-per-game king's knight leap and promotion into the start square's lost piece",
    "diana": "castling that swaps the king and the rook",
    "frankfurt": "a capturer turning into the captured type (and a king into a crowned piece)",
    "citadel": "a 12x12 bounding board (it has at most 10 ranks) with squares only kings may enter",
}


class Kodex:
    """A kodex-uci process: legal moves of a position by `go perft 1`."""

    def __init__(self, variant):
        self.proc = subprocess.Popen(
            [KODEX_UCI], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        line = self.proc.stdout.readline()
        if "unknown variant" in line:
            raise SystemExit(f"kodex-uci ({KODEX_UCI}) does not know {variant}: rebuild it")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def perft_divide(self, fen, moves, depth):
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send(f"go perft {depth}")
        divide = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("kodex-uci ended")
            line = line.strip()
            if line.startswith("Nodes searched:"):
                return divide, int(line.split(":")[1])
            if ": " in line and not line.startswith("info"):
                move, count = line.split(": ")
                divide[move] = int(count)

    def legal(self, fen, moves):
        return set(self.perft_divide(fen, moves, 1)[0])

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def fsf_perft(variant, fen, moves, depth):
    if depth == 0:
        return 1
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1 or not legal:
        return len(legal) if depth == 1 else 0
    return sum(fsf_perft(variant, fen, moves + [m], depth - 1) for m in legal)


def fsf_legal(variant, fen, moves):
    # Fairy-Stockfish lists moves even where its game is over by an
    # immediate rule (flag reached); our convention lists none.
    over, _ = sf.is_immediate_game_end(variant, fen, moves)
    if over:
        return set()
    return set(sf.legal_moves(variant, fen, moves))


def is_bare(fen):
    """Whether a side has nothing but its king in `fen`."""
    board = fen.split()[0].split("[")[0]
    white = [c for c in board if c.isupper() and c != "K"]
    black = [c for c in board if c.islower() and c != "k"]
    return not white or not black


def run(kodex_id, games, plies, rng, depth):
    fsf_name, fen = CHECKED[kodex_id]
    fen = fen or sf.start_fen(fsf_name)
    kodex = Kodex(kodex_id)
    compared = disagreements = known_differences = 0
    for game in range(games):
        # Each position is handed over as a FEN (Fairy-Stockfish's), so long
        # games do not depend on move lists; the last move stays in the
        # list, for en passant.
        current, moves = fen, []
        for _ in range(plies):
            now = sf.get_fen(fsf_name, current, moves)
            if (kodex_id in BARE_KING and is_bare(now)) or int(now.split()[4]) >= 100:
                # Decided by the bare king, or drawn by the fifty-move rule
                # (kodex-uci plays no moves after the game's end).
                break
            ours = kodex.legal(current, moves)
            if kodex_id in LEFT_OUT:
                ours = {m for m in ours if not LEFT_OUT[kodex_id](m)}
            theirs = fsf_legal(fsf_name, current, moves)
            compared += 1
            known = KNOWN_FSF_ONLY.get(kodex_id)
            if known and not ours - theirs and theirs - ours:
                if all(known(fsf_name, current, moves, m) for m in theirs - ours):
                    known_differences += 1
                    theirs = ours
            if ours != theirs:
                disagreements += 1
                if disagreements <= 3:
                    print(f"  {kodex_id}: game {game}, fen {current} moves {' '.join(moves)}")
                    print(f"    only kodex: {sorted(ours - theirs)}  only FSF: {sorted(theirs - ours)}")
                break
            if not ours or all(sf.has_insufficient_material(fsf_name, current, moves)):
                # Our game layer ends a game without mating material; perft
                # and Fairy-Stockfish's move list do not.
                break
            move = rng.choice(sorted(ours))
            stop = STOP_BEFORE.get(kodex_id)
            if stop and stop(now, sf.get_fen(fsf_name, current, moves + [move])):
                break
            current = sf.get_fen(fsf_name, current, moves)
            moves = [move]
    _, our_perft = kodex.perft_divide(fen, [], depth)
    their_perft = fsf_perft(fsf_name, fen, [], depth)
    kodex.close()
    agree = "agree" if disagreements == 0 and our_perft == their_perft else "DISAGREE"
    print(
        f"{kodex_id:12} {agree}: {compared} positions in {games} games, {disagreements} disagreements"
        + (f" ({known_differences} positions with a known difference of Fairy-Stockfish's rules)" if known_differences else "")
        + "; "
        f"perft({depth}) kodex {our_perft}, FSF {their_perft}"
    )
    return disagreements == 0 and our_perft == their_perft


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("variants", nargs="*", default=list(CHECKED) + list(UNCHECKABLE))
    args = parser.parse_args()
    sf.load_variant_config(VARIANTS_INI)
    rng = random.Random(args.seed)
    ok = True
    for variant in args.variants:
        if variant in UNCHECKABLE:
            print(f"{variant:12} not checked: Fairy-Stockfish cannot express {UNCHECKABLE[variant]}")
            continue
        ok &= run(variant, args.games, args.plies, rng, args.depth)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
