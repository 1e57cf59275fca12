#!/usr/bin/env python3
"""What Python chess bots do, timed side by side with kodex-render.

python-chess draws the board as SVG (chess.svg.board) and cairosvg turns it into
a PNG. This draws the same 8x8 middlegame as the `8x8 middlegame` criterion bench
(render/benches/render.rs) at the same pixel width and prints the median time
and PNG size, then the ratio against the bench's median when it has been run.

    pip install chess cairosvg
    cargo bench -p kodex-render --bench render      # optional, for the ratio
    python3 render/benches/cairosvg_compare.py
"""

import json
import pathlib
import statistics
import time

import cairosvg
import chess
import chess.svg

# samples::middlegame(): black to move after d2-d4; 8x8 boards are 692 px wide.
FEN = "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 b - - 0 10"
WIDTH = 692
RUNS = 30


def render_once(board: chess.Board) -> bytes:
    svg = chess.svg.board(board, size=WIDTH, lastmove=chess.Move.from_uci("d2d4"))
    return cairosvg.svg2png(bytestring=svg.encode(), output_width=WIDTH, output_height=WIDTH)


def criterion_median_ms(name: str):
    root = pathlib.Path(__file__).resolve().parents[2] / "target" / "criterion"
    estimates = root / name / "new" / "estimates.json"
    if not estimates.exists():
        return None
    data = json.loads(estimates.read_text())
    return data["median"]["point_estimate"] / 1e6


def main() -> None:
    board = chess.Board(FEN)
    render_once(board)  # warm up
    times = []
    png = b""
    for _ in range(RUNS):
        start = time.perf_counter()
        png = render_once(board)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    print(f"python-chess + cairosvg, {WIDTH}x{WIDTH}: median {median:.2f} ms, {len(png)} bytes")
    kodex = criterion_median_ms("8x8 middlegame")
    if kodex is None:
        print("run `cargo bench -p kodex-render --bench render` for the kodex-render side")
    else:
        print(f"kodex-render (criterion '8x8 middlegame'): median {kodex:.2f} ms")
        print(f"kodex-render is {median / kodex:.1f}x faster")


if __name__ == "__main__":
    main()
