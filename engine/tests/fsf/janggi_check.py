#!/usr/bin/env python3
"""Differential check of Kodex's `janggi` against Fairy-Stockfish's built-in.

Plays random games with pyffish (`pip install pyffish`) and, in every
position, compares the legal-move sets of pyffish and `kodex-uci` (divide
lines of `go perft 1`), then prints perft numbers of a few positions from
both, for the fixed vectors of `engine/tests/janggi.rs`.

    cargo build --release -p kodex-engine --bin kodex-uci
    python3 engine/tests/fsf/janggi_check.py [games] [seed]

Exits non-zero on the first disagreement, printing the position and moves.
"""
import random
import subprocess
import sys

import pyffish as sf

VARIANT = "janggi"
KODEX = "target/release/kodex-uci"


class Kodex:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send(f"setoption name UCI_Variant value {VARIANT}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def divide(self, fen, moves, depth=1):
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send(f"go perft {depth}")
        found = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("kodex-uci ended")
            line = line.strip()
            if line.startswith("Nodes searched"):
                return found, int(line.split()[-1])
            if ": " in line and not line.startswith("info"):
                move, count = line.split(": ")
                found[move] = int(count)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    kodex = Kodex(sys.argv[3] if len(sys.argv) > 3 else KODEX)
    start = sf.start_fen(VARIANT)
    positions = 0
    ends = {}
    for game in range(games):
        moves = []
        for _ply in range(300):
            theirs = set(sf.legal_moves(VARIANT, start, moves))
            # Kodex gets the position two plies back and the last two moves:
            # enough for bikjang and double passes, too short for the
            # repetition that would make `position ... moves` refuse a move.
            back = max(len(moves) - 2, 0)
            ours = set(kodex.divide(sf.get_fen(VARIANT, start, moves[:back]), moves[back:])[0])
            positions += 1
            if theirs != ours:
                print(f"game {game}: moves {' '.join(moves)}")
                print(f"  fen {sf.get_fen(VARIANT, start, moves)}")
                print(f"  only Fairy-Stockfish: {sorted(theirs - ours)}")
                print(f"  only Kodex: {sorted(ours - theirs)}")
                return 1
            if not theirs:
                end, _ = sf.is_immediate_game_end(VARIANT, start, moves)
                key = "immediate end" if end else "mate"
                ends[key] = ends.get(key, 0) + 1
                break
            # Passes now and then (a pass answering a pass ends the game, so rarely then).
            passes = [m for m in theirs if m[: len(m) // 2] == m[len(m) // 2 :]]
            others = sorted(theirs - set(passes))
            answering_pass = moves and moves[-1][: len(moves[-1]) // 2] == moves[-1][len(moves[-1]) // 2 :]
            if passes and (not others or rng.random() < (0.01 if answering_pass else 0.05)):
                moves.append(passes[0])
            else:
                moves.append(rng.choice(others))
        else:
            ends["300 plies"] = ends.get("300 plies", 0) + 1
    print(f"{games} games, {positions} positions: legal moves agree; endings {ends}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
