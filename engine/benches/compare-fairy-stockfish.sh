#!/usr/bin/env bash
# Perft side by side: kodex-uci and Fairy-Stockfish on the same UCI script.
# Needs `apt-get install fairy-stockfish`. Usage: engine/benches/compare-fairy-stockfish.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p kodex-uci --bin kodex-uci
fs=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
run() { # engine variant fen-or-startpos depth
  local start end
  start=$(date +%s%N)
  # No `quit`: kodex-uci's ends a running perft; the end of input lets it finish.
  printf 'setoption name UCI_Variant value %s\nposition %s\ngo perft %s\n' "$2" "$3" "$4" | "$1" | grep "Nodes searched" >/dev/null
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
printf '%-14s %-8s %10s %10s %7s\n' variant depth kodex_ms fsf_ms ratio
while read -r variant depth position; do
  k=$(run target/release/kodex-uci "$variant" "$position" "$depth")
  f=$(run "$fs" "$variant" "$position" "$depth")
  printf '%-14s %-8s %10s %10s %7s\n' "$variant" "d$depth" "$k" "$f" "$(awk "BEGIN{printf \"%.2f\", $k/($f>0?$f:1)}")"
done <<'LIST'
chess 5 startpos
chess 4 fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
atomic 5 startpos
kingofthehill 5 startpos
3check 5 startpos
crazyhouse 5 startpos
antichess 5 startpos
horde 5 startpos
racingkings 5 startpos
LIST
