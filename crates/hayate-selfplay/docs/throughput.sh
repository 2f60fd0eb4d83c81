#!/usr/bin/env bash
# usage: tp.sh NET PLIES THREADS...   (each thread plays one game of PLIES plies, 100 playouts; 1 thread plays 3)
net=$1; plies=$2; shift 2
for t in "$@"; do
  out=/tmp/tp-$t; rm -rf $out
  n=$t; [ $t -eq 1 ] && n=3
  line=$(/work/main/target/release/hayate selfplay --player mcts --model $net --out $out --positions $((n*10)) --shard-size 10 --threads $t --playouts 100 --max-plies $plies --max-plies-from $plies --resign 0 --quiet 2>&1 | grep -E "network:|positions .* in" | tr '\n' ' ')
  echo "$(basename $net) games_at_once=$t $line"
  rm -rf $out
done
