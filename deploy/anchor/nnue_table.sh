#!/usr/bin/env bash
# Every NNUE architecture Hayate evaluates against YaneuraOu built for it: exactness on a file
# of SFENs and nps side by side, with the same random net (seed 1) for both.
#
#   deploy/anchor/nnue_table.sh HAYATE YO_DIR SFENS POSITIONS < ARCHS
#
# ARCHS lines: `SHAPE YO_BINARY_NAME` (e.g. `HalfKA_hm2_256x2-32-32
# yaneuraou-nnue-halfkahm2-256x2-32-32`, the binaries of build_yaneuraou.sh in YO_DIR); SFENS
# the positions compared (record_nnue.py); POSITIONS those of nps.py (`go movetime 300`).
# Prints `SHAPE exact EQUAL/N` and the two engines' nps and depth.
set -euo pipefail
hayate=$1; yo=$2; sfens=$3; positions=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$sfens" > "$work/sfens"
sfens=$work/sfens
while read -r shape bin; do
  case $shape in '#'* | '') continue ;; esac
  [ -x "$yo/$bin" ] || { echo "$shape: no $yo/$bin"; continue; }
  python3 "$here/record_nnue.py" "$yo/$bin" "$hayate" "$shape" 1 "$sfens" > "$work/yo.txt"
  mkdir -p "$work/net"
  "$hayate" nnue random "$shape" "$work/net/nn.bin" --seed 1 > /dev/null
  "$hayate" eval --evaluator nnue --nnue "$work/net/nn.bin" --sfen-file "$sfens" > "$work/hy.txt"
  equal=$(paste -d' ' <(cut -d' ' -f3 "$work/yo.txt") "$work/hy.txt" | awk '$1==$2' | wc -l)
  echo "$shape exact $equal/$(wc -l < "$work/yo.txt")"
  python3 "$here/nps.py" 300 "$positions" "$hayate@EvalType=nnue,EvalDir=$work/net" "$yo/$bin@EvalDir=$work/net"
done
