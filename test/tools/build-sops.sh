#!/usr/bin/env bash
# Builds sops and age (with age-keygen) from Go modules, once per version, into a cache outside
# the git tree, and prints that folder on its last line. The secrets tests make their encrypted
# files with these real binaries. A warm run only checks that every binary is there and exits.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/go-sops"
sops_version="$(awk '$1 == "github.com/getsops/sops/v3" { print $2; exit }' "$mod/go.mod")"
age_version="$(awk '$1 == "filippo.io/age" { print $2; exit }' "$mod/go.mod")"
cache="${GITFLEET_CACHE:-$HOME/.cache/gitfleet}"
out="$cache/sops-$sops_version/bin"
bins=(sops age age-keygen)

missing=0
for b in "${bins[@]}"; do [[ -x "$out/$b" ]] || missing=1; done
[[ "$(cat "$out/age.version" 2>/dev/null)" == "$age_version" ]] || missing=1
if [[ $missing == 0 ]]; then
  echo "$out"
  exit 0
fi

mkdir -p "$out"
tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
start=$(date +%s)
echo "building sops $sops_version and age $age_version into $out" >&2
(
  cd "$mod"
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/" \
    github.com/getsops/sops/v3/cmd/sops filippo.io/age/cmd/age filippo.io/age/cmd/age-keygen
)
echo "$age_version" >"$tmp/age.version"
mv "$tmp"/* "$out/"
echo "built sops and age in $(($(date +%s) - start))s" >&2
echo "$out"
