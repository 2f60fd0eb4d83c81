#!/usr/bin/env bash
# Plays Hayate builds against YaneuraOu on a machine with many cores (the lent device machine:
# 16 cores), every build in its own match at the same time, so that all of them meet the same
# load; stops after SECONDS and leaves each run (results.jsonl, CSA records) under OUT_DIR with
# a summary line per build (`hayate standing`, by the first build's binary).
#
#   deploy/anchor/device_match.sh SECONDS BYOYOMI GAMES_PER_BUILD CONCURRENCY_PER_BUILD OUT_DIR
#
# Reads from anchors/ (ignored by git; carried to the device with `run --carry anchors`):
#   anchors/yaneuraou-material6   the anchor (deploy/anchor/build_yaneuraou.sh)
#   anchors/lib/                  its shared libraries, for a machine that may lack them
#   anchors/bin/BIN.xz            compressed Hayate binaries
#   anchors/builds.txt            one build a line: NAME BIN [OPTION=VALUE ...] (e.g.
#                                 `evas hayate Tune_qs_quiet_evasions=100`)
#   anchors/openings.txt          the openings (each played with both colours)
# Settings as deploy/anchor/README.md gives them: 1 thread, USI_Hash 256 each, YaneuraOu with
# no book, NetworkDelay 20, MinimumThinkingTime 1.
set -uo pipefail
secs=${1:?usage: device_match.sh SECONDS BYOYOMI GAMES CONCURRENCY OUT_DIR}
byoyomi=${2:?}
games=${3:?}
conc=${4:?}
out=${5:?}
here=$(cd "$(dirname "$0")/../.." && pwd)
a="$here/anchors"
work=$(mktemp -d)
export LD_LIBRARY_PATH="$a/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
nproc; uptime
for x in "$a"/bin/*.xz; do
  xz -dc "$x" > "$work/$(basename "$x" .xz)" && chmod +x "$work/$(basename "$x" .xz)"
done
names=()
while read -r n bin opts; do
  case "$n" in ''|'#'*) continue ;; esac
  names+=("$n")
  {
    printf '[[engine]]\nname = "%s"\npath = "%s"\n[engine.options]\nUSI_Hash = 256\nThreads = 1\nNetworkDelay = 20\n' \
      "$n" "$work/$bin"
    for o in $opts; do printf '%s = "%s"\n' "${o%%=*}" "${o#*=}"; done
    printf '\n[[engine]]\nname = "yo"\npath = "%s"\n[engine.options]\n' "$a/yaneuraou-material6"
    printf 'BookFile = "no_book"\nNetworkDelay = 20\nNetworkDelay2 = 20\nMinimumThinkingTime = 1\n'
    printf 'USI_Hash = 256\nThreads = 1\n'
  } > "$work/$n.toml"
done < "$a/builds.txt"
"$a/yaneuraou-material6" <<< "quit" | head -1 || { echo "the anchor does not start" >&2; exit 1; }
pids=()
for n in "${names[@]}"; do
  timeout -s INT "$secs" "$work/$(awk -v n="$n" '$1 == n {print $2}' "$a/builds.txt")" match --engines "$work/$n.toml" --out "$out/$n" \
    --format round-robin --games "$games" --byoyomi "$byoyomi" --openings "$a/openings.txt" \
    --concurrency "$conc" --resign-cp 3000 --resign-moves 3 --quiet > "$out/$n.log" 2>&1 &
  pids+=($!)
done
# The arena finishes the games in flight after SIGINT; 45 s later whatever is left goes.
( sleep $((secs + 45)); pkill -KILL -f "$work/" ) 2>/dev/null &
killer=$!
wait "${pids[@]}"
kill "$killer" 2>/dev/null
uptime
first=$(awk '$1 !~ /^#/ && NF {print $2; exit}' "$a/builds.txt")
for n in "${names[@]}"; do
  echo "$n: $("$work/$first" standing "$out/$n" | grep ' vs ')"
done
rm -rf "$work"
