#!/usr/bin/env bash
# A Node 24 base image made on this machine, for building the Containerfile where no container
# registry is reachable (CI; issue 55). It stands in for the official node:24-slim: the Node
# binary (the registry's `node` package, as .ci/run installs it), the shared libraries it links,
# npm from the npm registry, BusyBox for a shell and the usual commands, and the `node` account
# (uid 1000) the official image has, and this machine's certificate authorities (its way to the
# npm registry may pass a TLS proxy of its own). Usage: make-local-base.sh <image name> [node binary]
set -euo pipefail
IMAGE="${1:?usage: make-local-base.sh <image name> [node binary]}"
NODE_BIN="$(readlink -f "${2:-$(command -v node)}")"
BUSYBOX="$(command -v busybox || true)"
[ -x "$NODE_BIN" ] || { echo "no node binary at $NODE_BIN"; exit 1; }
[ -n "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 || { echo "needs a static busybox (Debian: apt-get install busybox-static)"; exit 1; }

ROOTFS="$(mktemp -d)"
trap 'rm -rf "$ROOTFS"' EXIT
mkdir -p "$ROOTFS"/{bin,usr/bin,usr/local/bin,etc,tmp,root,home/node,lib64,lib/x86_64-linux-gnu}
chmod 1777 "$ROOTFS/tmp"
install -m 0755 "$NODE_BIN" "$ROOTFS/usr/local/bin/node"
# The libraries the binary links, and the C library's whole set (native add-ons link librt and
# others; name lookups load libnss_*), at the paths the loader looks in.
C_LIBRARY=$(dpkg -L libc6 | grep -E '^/(usr/)?lib/x86_64-linux-gnu/[^/]*\.so[.0-9]*$')
for lib in $(ldd "$NODE_BIN" | grep -o '/[^ ]*') $C_LIBRARY; do
  mkdir -p "$ROOTFS$(dirname "$lib")"
  cp -L "$lib" "$ROOTFS$lib"
done
install -m 0755 "$BUSYBOX" "$ROOTFS/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [ -e "$ROOTFS/bin/$applet" ] || ln -s busybox "$ROOTFS/bin/$applet"
done
ln -s /bin/env "$ROOTFS/usr/bin/env"
npm install --global --prefix "$ROOTFS/usr/local" --no-audit --no-fund --loglevel=error npm@11
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$ROOTFS/etc/nsswitch.conf"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$ROOTFS/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\nnogroup:x:65534:\n' >"$ROOTFS/etc/group"
chown 1000:1000 "$ROOTFS/home/node"
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
CHANGES=(--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' --change 'CMD ["node"]')
if [ -f "$CA_BUNDLE" ]; then
  mkdir -p "$ROOTFS/etc/ssl/certs"
  cp -L "$CA_BUNDLE" "$ROOTFS$CA_BUNDLE"
  CHANGES+=(--change "ENV NODE_EXTRA_CA_CERTS=$CA_BUNDLE")
fi

tar -C "$ROOTFS" -c . | podman import "${CHANGES[@]}" - "$IMAGE" >/dev/null
echo "made $IMAGE: Node $("$NODE_BIN" --version), $(du -sh "$ROOTFS" | cut -f1)"
