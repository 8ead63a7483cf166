# Podman's flags for gitfleet's image script and test (sourced by build-image.sh;
# test/packaging/image.test.ts asks for them with `bash scripts/podman-flags.sh --print`). What
# the sandbox it was made in needs, each found by trying (docs/production.md#the-container-image):
# - overlay storage in a root of its own (/var/lib/containers/storage-overlay), so that it never
#   meets another storage driver's database in the default root; vfs works too
#   (GITFLEET_PODMAN_FLAGS), but copies every layer: a build of the image took 4.5 min warm
#   with vfs, 32 s with overlay, and each `podman run` 12 s instead of 1 s;
# - cgroupfs: no systemd to ask for cgroups;
# - runc, not crun: crun refuses a host whose cgroups are mounted in hybrid mode (v1 + v2);
# - ulimits no higher than this shell's: without CAP_SYS_RESOURCE podman's defaults (a million
#   open files) cannot be set, and the container does not start;
# - the host's network for the build (`npm ci` reaches the registry) and for an agent run
#   against a test cluster on loopback.
# GITFLEET_PODMAN_FLAGS, GITFLEET_PODMAN_BUILD_FLAGS and GITFLEET_PODMAN_RUN_FLAGS
# (space-separated) replace each list on a machine that needs others.
# shellcheck disable=SC2206
podman_flags=(${GITFLEET_PODMAN_FLAGS:---root /var/lib/containers/storage-overlay --storage-driver overlay --cgroup-manager cgroupfs --events-backend file --runtime runc})
# shellcheck disable=SC2206
podman_build_flags=(${GITFLEET_PODMAN_BUILD_FLAGS:---isolation chroot --network host})
# shellcheck disable=SC2206
podman_run_flags=(${GITFLEET_PODMAN_RUN_FLAGS:---ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=4096:4096 --network host})
if [ "${1:-}" = --print ]; then
  # One list a line, for a caller that is not a shell.
  echo "${podman_flags[*]}"
  echo "${podman_build_flags[*]}"
  echo "${podman_run_flags[*]}"
fi
