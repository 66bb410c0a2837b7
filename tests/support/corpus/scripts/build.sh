#!/usr/bin/env bash
# Build, test and package a C project for several targets.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
TARGETS=(x86_64-linux-gnu aarch64-linux-gnu)
CFLAGS_COMMON="-O2 -Wall -Wextra"
declare -i errors=0

color() {
  local code=$1; shift
  if [[ -t 1 ]]; then printf '\e[%sm%s\e[0m\n' "$code" "$*"; else printf '%s\n' "$*"; fi
}
ok()   { color 32 "ok:   $*"; }
fail() { color 31 "FAIL: $*"; errors+=1; }

version() {
  local v
  v=$(git -C "$ROOT" describe --tags --always --dirty 2>/dev/null) || v=0.0.0
  echo "${v#v}"
}

configure() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  (
    cd "$dir"
    CC="${target}-gcc" CFLAGS="$CFLAGS_COMMON -DVERSION=\"$(version)\"" \
      "$ROOT/configure" --host="$target" --prefix=/usr > configure.log 2>&1
  )
}

compile() {
  local dir=$1
  if make -C "$dir" -j"$JOBS" >"$dir/make.log" 2>&1; then
    ok "compiled in $dir"
  else
    fail "compile in $dir (see $dir/make.log)"
    tail -n 20 "$dir/make.log" | sed 's/^/    /'
    return 1
  fi
}

run_tests() {
  local dir=$1 t passed=0 total=0
  for t in "$dir"/tests/test_*; do
    [[ -x $t ]] || continue
    total=$((total + 1))
    if timeout 60 "$t" >/dev/null 2>&1; then
      passed=$((passed + 1))
    else
      fail "test ${t##*/}"
    fi
  done
  printf '%d/%d tests passed in %s\n' "$passed" "$total" "$dir"
  (( passed == total ))
}

package() {
  local target=$1 dir=$2 out
  out="$ROOT/dist/app-$(version)-${target%%-*}.tar.xz"
  mkdir -p "$ROOT/dist"
  make -C "$dir" DESTDIR="$dir/stage" install >/dev/null
  tar -C "$dir/stage" -cJf "$out" .
  ok "packaged $(basename "$out") ($(stat -c %s "$out") bytes)"
}

main() {
  local target dir
  for target in "${TARGETS[@]}"; do
    dir="$ROOT/build/$target"
    color 36 "== $target"
    configure "$target" "$dir" || { fail "configure $target"; continue; }
    compile "$dir" || continue
    if [[ $target == "$(gcc -dumpmachine)" ]]; then
      run_tests "$dir" || continue
    else
      echo "cross build: tests skipped for $target"
    fi
    package "$target" "$dir"
  done
  if ((errors > 0)); then
    color 31 "$errors error(s)"
    exit 1
  fi
}

main "$@"
