#!/bin/sh
# Installer: detect the platform, download the matching release, verify it.
set -e

REPO="example/tool"
VERSION="${VERSION:-latest}"
PREFIX="${PREFIX:-/usr/local}"
TMPDIR="$(mktemp -d 2>/dev/null || mktemp -d -t tool)"

trap 'rm -rf "$TMPDIR"' EXIT

say() {
    printf 'install: %s\n' "$1"
}

err() {
    say "$1" >&2
    exit 1
}

need() {
    if ! command -v "$1" > /dev/null 2>&1; then
        err "need '$1' (command not found)"
    fi
}

detect_platform() {
    os=$(uname -s | tr '[:upper:]' '[:lower:]')
    arch=$(uname -m)
    case "$arch" in
        x86_64|amd64) arch=amd64 ;;
        aarch64|arm64) arch=arm64 ;;
        armv7*) arch=armv7 ;;
        *) err "unsupported architecture: $arch" ;;
    esac
    case "$os" in
        linux|darwin) ;;
        mingw*|msys*|cygwin*) os=windows ;;
        *) err "unsupported OS: $os" ;;
    esac
    echo "${os}_${arch}"
}

download() {
    url=$1
    out=$2
    if command -v curl > /dev/null 2>&1; then
        curl --proto '=https' --tlsv1.2 -fsSL "$url" -o "$out"
    elif command -v wget > /dev/null 2>&1; then
        wget -q "$url" -O "$out"
    else
        err "need curl or wget"
    fi
}

resolve_version() {
    if [ "$VERSION" = latest ]; then
        download "https://api.github.com/repos/$REPO/releases/latest" "$TMPDIR/latest.json"
        VERSION=$(sed -n 's/.*"tag_name": *"\([^"]*\)".*/\1/p' "$TMPDIR/latest.json")
        [ -n "$VERSION" ] || err "could not resolve the latest version"
    fi
}

main() {
    need uname
    need tar
    platform=$(detect_platform)
    resolve_version
    name="tool_${VERSION#v}_${platform}.tar.gz"
    base="https://github.com/$REPO/releases/download/$VERSION"
    say "downloading $name"
    download "$base/$name" "$TMPDIR/$name"
    download "$base/checksums.txt" "$TMPDIR/checksums.txt"
    expected=$(grep " $name\$" "$TMPDIR/checksums.txt" | cut -d' ' -f1)
    actual=$(sha256sum "$TMPDIR/$name" 2>/dev/null || shasum -a 256 "$TMPDIR/$name")
    actual=${actual%% *}
    if [ "$expected" != "$actual" ]; then
        err "checksum mismatch: expected $expected, got $actual"
    fi
    tar -xzf "$TMPDIR/$name" -C "$TMPDIR"
    if [ -w "$PREFIX/bin" ]; then
        install -m 755 "$TMPDIR/tool" "$PREFIX/bin/tool"
    else
        say "using sudo to write to $PREFIX/bin"
        sudo install -m 755 "$TMPDIR/tool" "$PREFIX/bin/tool"
    fi
    say "installed $("$PREFIX/bin/tool" --version 2>/dev/null || echo "tool $VERSION")"
}

main "$@"
