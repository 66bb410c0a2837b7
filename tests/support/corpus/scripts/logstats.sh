#!/bin/bash
# Summarise web server access logs: status codes, top paths, slow requests.
shopt -s nullglob

LOG_DIR=${1:-/var/log/nginx}
TOP=${TOP:-10}
SLOW_MS=${SLOW_MS:-500}
declare -A status_count=() path_count=()
total=0
slow=0

files=("$LOG_DIR"/access.log "$LOG_DIR"/access.log.[0-9]*)
if (( ${#files[@]} == 0 )); then
    echo "no access logs in $LOG_DIR" >&2
    exit 1
fi

read_logs() {
    local f
    for f in "${files[@]}"; do
        if [[ $f == *.gz ]]; then zcat -- "$f"; else cat -- "$f"; fi
    done
}

# fields: ip - - [time] "METHOD path proto" status bytes "ref" "agent" rt
while IFS= read -r line; do
    [[ $line =~ \"([A-Z]+)\ ([^ ]+)\ [^\"]*\"\ ([0-9]{3})\ ([0-9]+|-).*\ ([0-9.]+)$ ]] || continue
    path=${BASH_REMATCH[2]%%\?*}
    status=${BASH_REMATCH[3]}
    rt_ms=$(awk -v t="${BASH_REMATCH[5]}" 'BEGIN { printf "%d", t * 1000 }')
    (( total++ ))
    (( status_count[$status]++ ))
    (( path_count[\$path]++ )) 2>/dev/null || path_count[$path]=$(( ${path_count[$path]:-0} + 1 ))
    if (( rt_ms > SLOW_MS )); then
        (( slow++ ))
        printf '%6d ms  %s %s\n' "$rt_ms" "${BASH_REMATCH[1]}" "$path" >> /tmp/slow.$$
    fi
done < <(read_logs)

echo "requests: $total"
echo "slow (>${SLOW_MS}ms): $slow ($(( total ? slow * 100 / total : 0 ))%)"
echo
echo "status codes:"
for s in "${!status_count[@]}"; do
    printf '  %s %8d\n' "$s" "${status_count[$s]}"
done | sort

echo
echo "top $TOP paths:"
for p in "${!path_count[@]}"; do
    printf '%d\t%s\n' "${path_count[$p]}" "$p"
done | sort -rn | head -n "$TOP" | while IFS=$'\t' read -r n p; do
    printf '  %8d  %s\n' "$n" "$p"
done

if [[ -s /tmp/slow.$$ ]]; then
    echo
    echo "slowest requests:"
    sort -rn /tmp/slow.$$ | head -n "$TOP"
    rm -f /tmp/slow.$$
fi
