#!/usr/bin/env bash
# Prints the path of the pinned baseline build's apns-emulator, building it first if needed: the
# commit docs/benchmarks.md names ("The pinned baseline build: `<commit>`"), checked out in a git
# worktree under .build/baseline-<commit>/ and built in release. Every change to the accept path is
# compared with this one build (.ci/benchmark.sh compare), never only with the build before it:
# small costs that each look like noise add up when the baseline moves with every change.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(grep -oE 'The pinned baseline build: `[0-9a-f]{7,40}`' "$root/docs/benchmarks.md" | grep -oE "[0-9a-f]{7,40}" | head -n 1 || true)
[ -n "$commit" ] || { echo "docs/benchmarks.md names no pinned baseline build (\"The pinned baseline build: \`<commit>\`\")" >&2; exit 1; }
tree="$root/.build/baseline-$commit"
binary="$tree/.build/release/apns-emulator"
if [ ! -x "$binary" ]; then
  git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null || { echo "the pinned baseline $commit is not in this clone's history (git fetch, or a full clone)" >&2; exit 1; }
  [ -d "$tree" ] || git -C "$root" worktree add --detach "$tree" "$commit" >&2
  echo "building the pinned baseline $commit in $tree (release; several minutes the first time)" >&2
  swift build -c release --product apns-emulator --package-path "$tree" >&2
fi
echo "$binary"
