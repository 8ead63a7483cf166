#!/usr/bin/env bash
# Builds the small OCI registry the template source tests push charts to and the hub pulls them
# from (test/tools/go-oci-registry: go-containerregistry's registry package, served on
# 127.0.0.1), once per version, into a cache outside the git tree, and prints that folder on its
# last line. A warm run only checks that the binary is there and exits.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/go-oci-registry"
version="$(awk '$1 == "require" && $2 == "github.com/google/go-containerregistry" { print $3; exit }' "$mod/go.mod")"
cache="${GITFLEET_CACHE:-$HOME/.cache/gitfleet}"
out="$cache/oci-registry-$version/bin"

if [[ -x "$out/oci-registry" ]]; then
  echo "$out"
  exit 0
fi

mkdir -p "$out"
tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
start=$(date +%s)
echo "building oci-registry (go-containerregistry $version) into $out" >&2
(cd "$mod" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/oci-registry" .)
mv "$tmp/oci-registry" "$out/"
echo "built oci-registry in $(($(date +%s) - start))s" >&2
echo "$out"
