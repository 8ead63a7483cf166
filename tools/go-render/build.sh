#!/usr/bin/env bash
# Builds the tools that render the fleet's template sources (docs/sources.md) from Go modules,
# once per version, into a cache outside the git tree, and prints one line per tool,
# "<name> <folder>", the folder holding that tool's binary:
#   helm       (helm.sh/helm/v4/cmd/helm, helm/)               ~/.cache/gitfleet/helm-<version>/bin
#   kustomize  (sigs.k8s.io/kustomize/kustomize/v5, kustomize/) ~/.cache/gitfleet/kustomize-<version>/bin
# The versions are the ones pinned in each folder's go.mod. A warm run only checks that every
# binary is there and exits. `build.sh helm` or `build.sh kustomize` builds one.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cache="${GITFLEET_CACHE:-$HOME/.cache/gitfleet}"

# The version of a module a folder's go.mod requires (the binary is stamped with it, as the
# tools' own release builds are: `helm version`, `kustomize version`).
required() { awk -v m="$2" '($1 == "require" && $2 == m) || $1 == m { print ($1 == m ? $2 : $3); exit }' "$here/$1/go.mod"; }

build_one() {
  local name="$1" module="$2" pkg="$3" stamp="$4"
  local version out tmp start
  version="$(required "$name" "$module")"
  out="$cache/$name-$version/bin"
  if [[ -x "$out/$name" ]]; then
    echo "$name $out"
    return 0
  fi
  mkdir -p "$out"
  tmp="$(mktemp -d "$out.tmp.XXXXXX")"
  start=$(date +%s)
  echo "building $name $version into $out" >&2
  if ! (cd "$here/$name" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X $stamp=$version" -o "$tmp/$name" "$pkg") 2>&1 |
    sed 's/^/  /' >&2 || [[ ! -x "$tmp/$name" ]]; then
    rm -rf "$tmp"
    echo "ERROR: $name $version did not build" >&2
    return 1
  fi
  mv "$tmp/$name" "$out/$name"
  rm -rf "$tmp"
  echo "built $name $version in $(($(date +%s) - start))s" >&2
  echo "$name $out"
}

want="${1:-all}"
if [[ "$want" == all || "$want" == helm ]]; then
  build_one helm helm.sh/helm/v4 helm.sh/helm/v4/cmd/helm helm.sh/helm/v4/internal/version.version
fi
if [[ "$want" == all || "$want" == kustomize ]]; then
  build_one kustomize sigs.k8s.io/kustomize/kustomize/v5 sigs.k8s.io/kustomize/kustomize/v5 \
    sigs.k8s.io/kustomize/api/provenance.version
fi
