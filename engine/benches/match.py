#!/usr/bin/env python3
"""Plays kodex-uci against Fairy-Stockfish (limited strength) or against
itself at another level, and prints the score and the Elo difference with a
95% error margin.

Needs python-chess (`pip install chess`) and, against Fairy-Stockfish,
`apt-get install fairy-stockfish`. Build the engine first:

    cargo build -p kodex-uci --release --bin kodex-uci

Examples:

    # level 8 against Fairy-Stockfish at 1800 Elo, chess, 1 s a move
    engine/benches/match.py --games 20 --movetime 1.0 --fsf-elo 1800
    # level 5 against level 4 in atomic
    engine/benches/match.py --variant atomic --level 5 --opponent-level 4 --games 20
    # A/B: this build against an older kodex-uci binary, both at level 8
    engine/benches/match.py --variant crazyhouse --opponent-engine /tmp/kodex-uci-old --opponent-level 8

Each opening is played twice, colours swapped. Openings: a few plies of a
seeded random game (or, in chess, of a short book line).
"""

import argparse
import math
import random
import shutil
import sys
import time

import chess
import chess.engine
import chess.variant

CHESS_BOOK = [
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "c2c4 e7e5 b1c3 g8f6",
    "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6",
    "d2d4 g8f6 g1f3 e7e6",
    "e2e4 d7d5 e4d5 d8d5",
    "d2d4 f7f5 g2g3 g8f6",
]


def board_for(variant):
    if variant == "chess":
        return chess.Board()
    cls = chess.variant.find_variant(variant)
    return cls()


def opening(variant, index, rng):
    board = board_for(variant)
    if variant == "chess":
        for uci in CHESS_BOOK[index % len(CHESS_BOOK)].split():
            board.push_uci(uci)
        return board
    for _ in range(4):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return board_for(variant)
    return board


def elo_of(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def play_game(white, black, board, limit, max_plies):
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = engines[board.turn]
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            # An illegal or missing move loses.
            return "0-1" if board.turn == chess.WHITE else "1-0"
        board.push(result.move)
    if board.ply() >= max_plies and not board.is_game_over(claim_draw=True):
        return "1/2-1/2"
    return board.result(claim_draw=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/kodex-uci", help="kodex-uci binary")
    parser.add_argument("--variant", default="chess", help="python-chess variant name (chess, atomic, crazyhouse, antichess, ...)")
    parser.add_argument("--level", type=int, default=8, help="kodex Skill Level 1-8")
    parser.add_argument("--opponent-level", type=int, help="play kodex at this level instead of Fairy-Stockfish")
    parser.add_argument("--opponent-engine", help="the opponent kodex-uci binary (default: --engine); implies --opponent-level 8 if unset")
    parser.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    parser.add_argument("--fsf-elo", type=int, default=1800, help="Fairy-Stockfish UCI_Elo (1350-2850)")
    parser.add_argument("--games", type=int, default=10, help="games (rounded up to pairs)")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after this many plies")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    kodex = chess.engine.SimpleEngine.popen_uci(args.engine)
    kodex.configure({"Skill Level": args.level})
    if args.opponent_engine is not None and args.opponent_level is None:
        args.opponent_level = 8
    if args.opponent_level is not None:
        opponent = chess.engine.SimpleEngine.popen_uci(args.opponent_engine or args.engine)
        opponent.configure({"Skill Level": args.opponent_level})
        name = f"kodex level {args.opponent_level}"
        if args.opponent_engine is not None:
            name += f" ({args.opponent_engine})"
    else:
        opponent = chess.engine.SimpleEngine.popen_uci(args.fsf)
        opponent.configure({"UCI_LimitStrength": True, "UCI_Elo": args.fsf_elo})
        name = f"Fairy-Stockfish Elo {args.fsf_elo}"
    uci_variant = board_for(args.variant).uci_variant
    for engine, label in ((kodex, "kodex-uci"), (opponent, name)):
        option = engine.options.get("UCI_Variant")
        if uci_variant != "chess" and (option is None or uci_variant not in option.var):
            print(f"{label} does not play {uci_variant}", file=sys.stderr)
            kodex.quit()
            opponent.quit()
            sys.exit(2)
    limit = chess.engine.Limit(time=args.movetime)
    print(f"kodex level {args.level} vs {name}, {args.variant}, {args.movetime} s/move", flush=True)

    points = []
    wins = draws = losses = 0
    started = time.time()
    pairs = (args.games + 1) // 2
    for pair in range(pairs):
        start = opening(args.variant, pair, rng)
        for kodex_white in (True, False):
            board = start.copy()
            white, black = (kodex, opponent) if kodex_white else (opponent, kodex)
            try:
                result = play_game(white, black, board, limit, args.max_plies)
            except chess.engine.EngineError as error:
                # Not a result of play: the game does not count.
                print(f"engine error, game skipped: {error}", file=sys.stderr)
                continue
            if result == "1/2-1/2":
                point = 0.5
                draws += 1
            elif (result == "1-0") == kodex_white:
                point = 1.0
                wins += 1
            else:
                point = 0.0
                losses += 1
            points.append(point)
            colour = "white" if kodex_white else "black"
            print(f"game {len(points)}: kodex {colour} {result} in {board.ply()} plies  (+{wins} ={draws} -{losses})", flush=True)

    kodex.quit()
    opponent.quit()
    n = len(points)
    if n == 0:
        print("no games finished")
        return
    score = sum(points) / n
    deviation = math.sqrt(sum((p - score) ** 2 for p in points) / max(n - 1, 1))
    margin = 1.96 * deviation / math.sqrt(n)
    low, high = elo_of(score - margin), elo_of(score + margin)
    print(f"\n{n} games: +{wins} ={draws} -{losses}, score {100 * score:.1f}% ± {100 * margin:.1f}%")
    print(f"Elo difference {elo_of(score):+.0f} (95%: {low:+.0f} .. {high:+.0f}), {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
