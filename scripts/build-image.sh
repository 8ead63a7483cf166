#!/usr/bin/env bash
# Builds gitfleet's container image from the Dockerfile with podman, on a machine that reaches
# no container registry: the Dockerfile's base (NODE_IMAGE, node:20-bookworm-slim by default)
# is made locally instead of pulled.
#
#   1. a Debian bookworm root filesystem (debootstrap --variant=minbase, from the Debian mirror
#      this machine's apt uses, or $GITFLEET_DEBIAN_MIRROR), cached as a tarball under
#      $GITFLEET_CACHE (default ~/.cache/gitfleet), since it takes minutes and never changes;
#   2. this machine's Node (the `node` on PATH and the npm beside it) copied into it, a
#      `node` user with uid and gid 1000, as the official node image has, and the certificate
#      authorities this machine trusts (for `npm ci` in the build): imported with
#      `podman import` as localhost/gitfleet-node:<node version>;
#   3. helm and kustomize, built by tools/go-render/build.sh (cached in ~/.cache/gitfleet), imported
#      as localhost/gitfleet-render-tools:<helm version>-<kustomize version> holding them in /out;
#   4. `podman build --build-arg NODE_IMAGE=<that image> --build-arg RENDER_TOOLS_IMAGE=<that one>`
#      of the Dockerfile, tagged $GITFLEET_IMAGE (default localhost/gitfleet:dev).
#
# With GITFLEET_NODE_IMAGE set, steps 1 and 2 are skipped and that image is the base (a
# machine that can pull node:20-bookworm-slim); with GITFLEET_RENDER_TOOLS_IMAGE set, step 3. Prints the image's name last, on stdout.
#
# Podman's flags come from podman-flags.sh beside this file (the sandbox needs vfs storage and
# cgroupfs); the build runs with the host's network, which reaches the npm registry.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/podman-flags.sh
source "$root/scripts/podman-flags.sh"
cache="${GITFLEET_CACHE:-$HOME/.cache/gitfleet}/image"
image="${GITFLEET_IMAGE:-localhost/gitfleet:dev}"

say() { echo "build-image: $*" >&2; }
need() {
  command -v "$1" >/dev/null || {
    say "$1 is not installed ($2)"
    exit 2
  }
}
need podman 'apt-get install -y podman'

# The mirror apt uses (deb822 sources first, then the one-line format), unless told.
debian_mirror() {
  if [ -n "${GITFLEET_DEBIAN_MIRROR:-}" ]; then
    echo "$GITFLEET_DEBIAN_MIRROR"
    return
  fi
  local found
  found="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)"
  [ -n "$found" ] || found="$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | head -n1 || true)"
  [ -n "$found" ] || {
    say "no Debian mirror in /etc/apt/sources*: set GITFLEET_DEBIAN_MIRROR"
    exit 2
  }
  echo "$found"
}

# Step 1: the minbase root filesystem, once per cache.
base_rootfs() {
  local tarball="$cache/bookworm-minbase.tar"
  if [ ! -s "$tarball" ]; then
    need debootstrap 'apt-get install -y debootstrap'
    local mirror work
    mirror="$(debian_mirror)"
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/rootfs.XXXXXX")"
    # mktemp makes it 0700, and it becomes the image's `/`: the node user could enter nothing.
    chmod 0755 "$work"
    say "debootstrap --variant=minbase bookworm (takes a few minutes; cached in $tarball)"
    debootstrap --variant=minbase bookworm "$work" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
      say "debootstrap failed; its log: $cache/debootstrap.log"
      tail -n 20 "$cache/debootstrap.log" >&2
      rm -rf "$work"
      exit 1
    }
    # Leave out what an image does not need: apt's downloaded packages and lists.
    rm -rf "$work"/var/cache/apt/archives/*.deb "$work"/var/lib/apt/lists/*
    tar -C "$work" --numeric-owner -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf "$work"
  fi
  echo "$tarball"
}

# Step 2: the node base image, once per Node version.
node_image() {
  need node 'the Node 20 this machine runs is copied into the image'
  local version node_bin npm_dir tag
  version="$(node --version)"
  tag="localhost/gitfleet-node:${version#v}"
  if podman "${podman_flags[@]}" image exists "$tag"; then
    echo "$tag"
    return
  fi
  node_bin="$(readlink -f "$(command -v node)")"
  npm_dir="$(cd "$(dirname "$node_bin")/../lib/node_modules/npm" 2>/dev/null && pwd)" || {
    say "npm is not beside $node_bin (expected ../lib/node_modules/npm)"
    exit 2
  }
  local tarball work
  tarball="$(base_rootfs)"
  work="$(mktemp -d "$cache/node.XXXXXX")"
  trap 'rm -rf "$work"' RETURN
  tar -C "$work" -xf "$tarball"
  chmod 0755 "$work"
  install -D -m 0755 "$node_bin" "$work/usr/local/bin/node"
  mkdir -p "$work/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$work/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$work/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$work/usr/local/bin/npx"
  # The official image's user: node, uid and gid 1000, home /home/node.
  echo 'node:x:1000:' >>"$work/etc/group"
  echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$work/etc/passwd"
  echo 'node:*:19000:0:99999:7:::' >>"$work/etc/shadow"
  install -d -o 1000 -g 1000 "$work/home/node"
  # The certificate authorities this machine trusts, which Node adds to its own
  # (NODE_EXTRA_CA_CERTS, as on this machine): where the way to the npm registry goes through a
  # proxy with its own authority, `npm ci` in the build trusts it as the host's npm does.
  local ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
  local ca_env=()
  if [ -s "$ca" ]; then
    install -D -m 0644 "$ca" "$work/etc/ssl/certs/ca-certificates.crt"
    ca_env=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
  fi
  say "importing $tag (Debian bookworm minbase + node $version)"
  tar -C "$work" --numeric-owner -c . | podman "${podman_flags[@]}" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=${version#v}" \
    "${ca_env[@]}" \
    --change 'CMD ["node"]' \
    - "$tag" >/dev/null
  echo "$tag"
}

# Step 3: helm and kustomize at their pinned versions, built on this machine by
# tools/go-render/build.sh (cached in ~/.cache/gitfleet) and imported as an image holding them in
# /out, the Dockerfile's RENDER_TOOLS_IMAGE: the build then needs no Go image.
render_tools_image() {
  local built work versions tag
  built="$("$root/tools/go-render/build.sh")"
  versions="$(echo "$built" | awk '{ n = split($2, p, "/"); v = v (v ? "-" : "") p[n - 1] } END { print v }')"
  tag="localhost/gitfleet-render-tools:$versions"
  if podman "${podman_flags[@]}" image exists "$tag"; then
    echo "$tag"
    return
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  mkdir -p "$work/out"
  while read -r name dir; do install -m 0755 "$dir/$name" "$work/out/$name"; done <<<"$built"
  say "importing $tag (helm and kustomize from tools/go-render/build.sh)"
  tar -C "$work" --numeric-owner -c . | podman "${podman_flags[@]}" import - "$tag" >/dev/null
  echo "$tag"
}

base="${GITFLEET_NODE_IMAGE:-$(node_image)}"
tools_image="${GITFLEET_RENDER_TOOLS_IMAGE:-$(render_tools_image)}"
say "podman build --build-arg NODE_IMAGE=$base --build-arg RENDER_TOOLS_IMAGE=$tools_image -t $image"
podman "${podman_flags[@]}" build "${podman_build_flags[@]}" \
  --build-arg "NODE_IMAGE=$base" --build-arg "RENDER_TOOLS_IMAGE=$tools_image" \
  -t "$image" -f "$root/Dockerfile" "$root" >&2
echo "$image"
