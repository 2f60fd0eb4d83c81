#!/usr/bin/env bash
# Publishes a net to a run directory: copies NN_BIN to RUN/models/<sha256>.bin (written under
# a temporary name, renamed when whole; never rewritten) and points RUN/current at it by
# renaming a new symlink over the old one, so a reader sees the old net or the new one, never
# a mix. Self-play workers started with `--nnue RUN/current` pick it up between games.
#
#   publish-model.sh NN_BIN RUN [NOTE]      prints the hash
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 NN_BIN RUN [NOTE]" >&2
  exit 2
fi
src=$1
run=$2
note=${3:-}

hash=$(sha256sum "$src" | cut -d' ' -f1)
mkdir -p "$run/models"
model="$run/models/$hash.bin"
if [[ ! -e $model ]]; then
  tmp="$run/models/.$hash.bin.tmp.$$"
  cp "$src" "$tmp"
  sync "$tmp"
  mv -f "$tmp" "$model"
fi
link="$run/.current.tmp.$$"
ln -sfn "models/$hash.bin" "$link"
mv -fT "$link" "$run/current"
printf '%s %s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$hash" "$note" >>"$run/models.log"
echo "$hash"
