#!/usr/bin/env bash
# Deploy a release directory to a set of hosts, keeping the last N releases.
set -euo pipefail
IFS=$'\n\t'

readonly APP_NAME="${APP_NAME:-webapp}"
readonly KEEP="${KEEP_RELEASES:-5}"
readonly STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
declare -a HOSTS=()
declare -A ROLE_OF=([web1]=frontend [web2]=frontend [db1]=database)
VERBOSE=0
DRY_RUN=false

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
  cat <<USAGE
Usage: ${0##*/} [-v] [-n] [-k N] host...

  -v      verbose output
  -n      dry run: print what would be done
  -k N    keep N releases (default: $KEEP)
USAGE
}

run() {
  if [[ $DRY_RUN == true ]]; then
    printf 'would run:'; printf ' %q' "$@"; printf '\n'
  else
    (( VERBOSE )) && log "+ $*"
    "$@"
  fi
}

while getopts ':vnk:h' opt; do
  case $opt in
    v) VERBOSE=$((VERBOSE + 1)) ;;
    n) DRY_RUN=true ;;
    k) [[ $OPTARG =~ ^[0-9]+$ ]] || die "-k wants a number, got '$OPTARG'"
       KEEP_OVERRIDE=$OPTARG ;;
    h) usage; exit 0 ;;
    :) die "option -$OPTARG needs an argument" ;;
    \?) die "unknown option -$OPTARG" ;;
  esac
done
shift $((OPTIND - 1))
HOSTS=("$@")
(( ${#HOSTS[@]} > 0 )) || { usage >&2; exit 2; }

build_release() {
  local dir=$1
  mkdir -p "$dir"
  tar -C src -cf - . | tar -C "$dir" -xf -
  echo "$STAMP" > "$dir/RELEASE"
  find "$dir" -name '*.pyc' -delete
}

prune() {
  local host=$1 keep=${KEEP_OVERRIDE:-$KEEP}
  # shellcheck disable=SC2029
  ssh "$host" "cd /srv/$APP_NAME/releases && ls -1t | tail -n +$((keep + 1)) | xargs -r rm -rf"
}

deploy_to() {
  local host=$1 role=${ROLE_OF[$1]:-unknown}
  log "deploying $STAMP to $host ($role)"
  run rsync -az --delete "build/$STAMP/" "$host:/srv/$APP_NAME/releases/$STAMP/"
  run ssh "$host" "ln -sfn /srv/$APP_NAME/releases/$STAMP /srv/$APP_NAME/current && sudo systemctl reload $APP_NAME"
  if [[ $role == database ]]; then
    run ssh "$host" 'cd /srv/app/current && ./manage.py migrate --noinput'
  fi
  prune "$host"
}

build_release "build/$STAMP"
failed=()
for host in "${HOSTS[@]}"; do
  if ! deploy_to "$host"; then
    failed+=("$host")
  fi
done

if (( ${#failed[@]} )); then
  log "failed on: ${failed[*]}"
  exit 1
fi
log "done: ${#HOSTS[@]} host(s), release $STAMP"
