#!/usr/bin/env bash
# A Debian bookworm base image for the Containerfile, made from Debian's mirror alone, for machines
# that reach no container registry: debootstrap (minbase, with the binary's two shared libraries),
# trimmed, then `podman import`. Prints the image's name. Needs root (debootstrap).
# Usage: .ci/container-base.sh [IMAGE]   (default localhost/apns-emulator-base:bookworm)
set -euo pipefail
image=${1:-localhost/apns-emulator-base:bookworm}
if podman image exists "$image"; then echo "$image"; exit 0; fi
mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
root=$(mktemp -d /var/tmp/apns-emulator-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=liblmdb0,libnghttp2-14 bookworm "$root" "$mirror" >&2
# What a slim image leaves out: package caches and lists, documentation, manuals, locales.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
  "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/var/log/*
tar -C "$root" -c . | podman import --change 'CMD ["bash"]' - "$image" >&2
echo "$image"
