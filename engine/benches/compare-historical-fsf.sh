#!/usr/bin/env bash
# Perft of the historical games' start positions, side by side: kodex-uci and
# Fairy-Stockfish on the same UCI script, in one run, with the node counts
# (they must agree for the times to compare) and the time ratio.
#
# Fairy-Stockfish's built-ins where its rules are ours (shatranj, grand,
# janggi); the others from a variants.ini written here (the definitions of
# tests/differential_fsf.py). Variants it cannot express (chaturanga, Diana,
# Frankfurt, whale shogi, citadel) are not listed. An older Fairy-Stockfish
# may read a definition differently: a node-count mismatch is printed as such
# and its time is not a comparison.
#
# Needs `apt-get install fairy-stockfish`. Measure on a quiet machine:
#   engine/benches/compare-historical-fsf.sh [depth-offset]
# (a depth offset of -1 runs every line one ply shallower, for a quick look).
set -euo pipefail
cd "$(dirname "$0")/../.."
offset=${1:-0}
target=${CARGO_TARGET_DIR:-target}
cargo build --release -q -p kodex-uci --bin kodex-uci
kodex="$target/release/kodex-uci"
fs=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
ini=$(mktemp --suffix=.ini)
trap 'rm -f "$ini"' EXIT
cat >"$ini" <<'INI'
[giveaway-kodex:antichess]
promotionPieceTypes = q

[lesson6:chess]
castling = false
startFen = 2bqkb2/2pppp2/8/8/8/8/2PPPP2/2BQKB2 w - - 0 1
INI
run() { # engine variant depth -> "milliseconds nodes"
  local start end nodes
  start=$(date +%s%N)
  # No `quit`: kodex-uci's ends a running perft; the end of input lets it finish.
  nodes=$(printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\n' \
    "$ini" "$2" "$3" | "$1" 2>/dev/null | sed -n 's/^Nodes searched: *//p')
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 )) ${nodes:-?}"
}
printf '%-10s %-14s %5s %12s %9s %9s %7s\n' kodex fsf depth nodes kodex_ms fsf_ms ratio
while read -r ours theirs depth; do
  depth=$((depth + offset))
  read -r k kn <<<"$(run "$kodex" "$ours" "$depth")"
  read -r f fn <<<"$(run "$fs" "$theirs" "$depth")"
  if [ "$kn" = "$fn" ]; then
    ratio=$(awk "BEGIN{printf \"%.2f\", $k/($f>0?$f:1)}")
    nodes=$kn
  else
    ratio="n/a"
    nodes="$kn≠$fn"
  fi
  printf '%-10s %-14s %5s %12s %9s %9s %7s\n' "$ours" "$theirs" "d$depth" "$nodes" "$k" "$f" "$ratio"
done <<'LIST'
shatranj shatranj 6
grand grand 4
janggi janggi 5
giveaway giveaway-kodex 5
lesson6 lesson6 6
LIST
echo "ratio = kodex time / Fairy-Stockfish time (lower is faster); load: $(cut -d' ' -f1-3 /proc/loadavg)"
