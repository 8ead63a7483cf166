#!/usr/bin/env bash
# Builds the binaries of the test clusters from Go modules, once per version, into a cache
# outside the git tree, and prints that folder on its last line:
#   kube-apiserver, kube-controller-manager, kube-scheduler, kubectl  (k8s.io/kubernetes, go/)
#   etcd                                                              (go.etcd.io/etcd/server/v3, go/)
#   kwok + kwok-stages.yaml                                           (sigs.k8s.io/kwok, go-kwok/)
# A warm run only checks that every binary is there and exits. kwok is optional: when its build
# fails (or GITFLEET_KWOK=0) the script warns and the clusters run without a simulated Node.
set -euo pipefail

K8S_VERSION="v1.34.4"
here="$(cd "$(dirname "$0")" && pwd)"
cache="${GITFLEET_CACHE:-$HOME/.cache/gitfleet}"
out="$cache/k8s-$K8S_VERSION/bin"
bins=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd)
kwok_version="$(awk '$1 == "require" && $2 == "sigs.k8s.io/kwok" { print $3 }' "$here/go-kwok/go.mod")"

k8s_missing=0
for b in "${bins[@]}"; do [[ -x "$out/$b" ]] || k8s_missing=1; done
kwok_missing=0
if [[ "${GITFLEET_KWOK:-1}" != 0 ]]; then
  [[ -x "$out/kwok" && -f "$out/kwok-stages.yaml" && "$(cat "$out/kwok.version" 2>/dev/null)" == "$kwok_version" ]] ||
    kwok_missing=1
fi
if [[ $k8s_missing == 0 && $kwok_missing == 0 ]]; then
  echo "$out"
  exit 0
fi

mkdir -p "$out"
tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

if [[ $k8s_missing == 1 ]]; then
  minor="${K8S_VERSION#v1.}"; minor="${minor%%.*}"
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  start=$(date +%s)
  echo "building ${bins[*]} $K8S_VERSION into $out (cold: many minutes)" >&2
  (
    cd "$here/go"
    CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
      k8s.io/kubernetes/cmd/kube-apiserver \
      k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kube-scheduler \
      k8s.io/kubernetes/cmd/kubectl
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" go.etcd.io/etcd/server/v3
  )
  mv "$tmp"/* "$out/"
  echo "built Kubernetes and etcd in $(($(date +%s) - start))s" >&2
fi

# kwok simulates Nodes and plays Pod lifecycles. Its stages (what it does to a Node or a Pod
# and when) are not built in: they ship as YAML in its module, and the "fast" set makes Nodes
# Ready and Pods Running at once, with node leases kept fresh.
build_kwok() {
  local dir
  (cd "$here/go-kwok" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/kwok" sigs.k8s.io/kwok/cmd/kwok) || return 1
  dir="$(cd "$here/go-kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)" || return 1
  local stages=(node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
    pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml)
  for s in "${stages[@]}"; do
    echo "---"
    cat "$dir/kustomize/stage/$s"
  done >"$tmp/kwok-stages.yaml" || return 1
  echo "$kwok_version" >"$tmp/kwok.version"
}
if [[ $kwok_missing == 1 ]]; then
  start=$(date +%s)
  echo "building kwok $kwok_version into $out" >&2
  if build_kwok; then
    mv "$tmp/kwok" "$tmp/kwok-stages.yaml" "$tmp/kwok.version" "$out/"
    echo "built kwok in $(($(date +%s) - start))s" >&2
  else
    echo "WARNING: kwok $kwok_version did not build; the test clusters will have no simulated Node" >&2
  fi
fi
echo "$out"
