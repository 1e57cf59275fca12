#!/usr/bin/env python3
"""Checks that Kodex's time-travel PGN opens in python-chess.

A documented check, not a CI dependency. Needs python-chess
(`pip install chess`); without it the script says so and exits 0.

    python3 tests/pgn_check.py              # builds and runs the engine example
    python3 tests/pgn_check.py game.pgn ... # checks PGN files instead

Every game must read with `chess.pgn.read_game` without errors, every move of
every line must be legal, and every game names its timeline start in a
`[TimeTravel]` tag (a game that starts after a jump carries its position in
`[SetUp "1"]`/`[FEN]` unless that is the standard start).
"""

import io
import os
import subprocess
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    print("python-chess is not installed (pip install chess): check skipped")
    sys.exit(0)


def engine_pgn(games: int) -> str:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    command = [
        "cargo", "run", "-q", "-p", "kodex-engine",
        "--example", "timetravel_pgn", "--", str(games),
    ]
    return subprocess.run(
        command, cwd=root, check=True, capture_output=True, text=True
    ).stdout


def moves_in(node) -> int:
    count = 0
    for child in node.variations:
        count += 1 + moves_in(child)
    return count


def check(text: str, source: str) -> int:
    handle = io.StringIO(text)
    games = 0
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        games += 1
        where = f"{source}: game {games}"
        if game.errors:
            raise SystemExit(f"{where}: {game.errors}")
        travel = game.headers.get("TimeTravel", "")
        if not travel:
            raise SystemExit(f"{where}: no [TimeTravel] tag")
        # Replays every line; python-chess has already checked legality while reading.
        board = game.board()
        for move in game.mainline_moves():
            if not board.is_legal(move):
                raise SystemExit(f"{where}: illegal {move}")
            board.push(move)
        if moves_in(game) == 0 and not travel.startswith("after jump"):
            raise SystemExit(f"{where}: no moves")
    if games == 0:
        raise SystemExit(f"{source}: no game read")
    return games


def main() -> None:
    files = sys.argv[1:]
    total = 0
    if files:
        for name in files:
            with open(name, encoding="utf-8") as f:
                total += check(f.read(), name)
    else:
        total += check(engine_pgn(50), "engine example")
    print(f"pgn_check: {total} games read by python-chess without errors")


if __name__ == "__main__":
    main()
