#!/usr/bin/env bash
# Builds YaneuraOu, the anchor Hayate's search is measured against, from a source folder you give.
#
#   deploy/anchor/build_yaneuraou.sh YANEURAOU_DIR [OUT_DIR] [EDITION] [TARGET_CPU]
#
# YANEURAOU_DIR  a checkout of yaneurao/YaneuraOu (the folder holding source/Makefile)
# OUT_DIR        where the binary goes (default: anchors/ in this repository, ignored by git)
# EDITION        material (default: YANEURAOU_ENGINE_MATERIAL, MATERIAL_LEVEL=6, the same KKPEE9
#                evaluation as Hayate's default) or any YANEURAOU_ENGINE_* name (e.g.
#                YANEURAOU_ENGINE_NNUE for HalfKP 256x2-32-32)
# TARGET_CPU     AVX2 (default), AVX512VNNI, ...
#
# YaneuraOu is GPL: it runs as a separate program only (`hayate match`), and neither its source
# nor its binary is ever committed here. Needs Debian's clang and lld (`apt-get install clang lld`).
set -euo pipefail
src=${1:?usage: build_yaneuraou.sh YANEURAOU_DIR [OUT_DIR] [EDITION] [TARGET_CPU]}
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$here/anchors}
edition=${3:-material}
cpu=${4:-AVX2}
[ -f "$src/source/Makefile" ] || { echo "no source/Makefile under $src" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "clang++ not found: apt-get install clang lld" >&2; exit 2; }
mkdir -p "$out"
if [ "$edition" = material ]; then
  args=(YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL MATERIAL_LEVEL=6)
  name=yaneuraou-material6
else
  args=(YANEURAOU_EDITION="$edition")
  name=$(echo "$edition" | tr 'A-Z_' 'a-z-' | sed 's/^yaneuraou-engine-/yaneuraou-/')
fi
# A private object folder per edition, so that two editions never share objects.
obj=$(mktemp -d)
trap 'rm -rf "$obj"' EXIT
(cd "$src/source" && make -j"$(nproc)" normal "${args[@]}" TARGET_CPU="$cpu" COMPILER=clang++ \
  OBJDIR="$obj" TARGET="$obj/YaneuraOu-by-gcc" >&2)
# Written beside the target, then renamed: a killed build never leaves half a binary.
cp "$obj/YaneuraOu-by-gcc" "$out/.$name.tmp"
mv "$out/.$name.tmp" "$out/$name"
echo "$out/$name"
