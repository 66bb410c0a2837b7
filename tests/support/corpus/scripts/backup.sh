#!/bin/bash
# Nightly backup: dump databases, archive directories, rotate old archives.

BACKUP_ROOT=/var/backups/nightly
RETENTION_DAYS=14
LOCK=/run/backup.lock
TODAY=$(date +%F)
DEST="$BACKUP_ROOT/$TODAY"

exec 9>"$LOCK"
if ! flock -n 9; then
    echo "another backup is running" >&2
    exit 1
fi

cleanup() {
    local rc=$?
    rm -f "$LOCK"
    if [ $rc -ne 0 ]; then
        echo "backup failed with status $rc" | mail -s "backup FAILED on $(hostname)" root
    fi
    exit $rc
}
trap cleanup EXIT INT TERM

mkdir -p "$DEST" || exit 1

dump_postgres() {
    local db
    for db in $(sudo -u postgres psql -Atc "SELECT datname FROM pg_database WHERE NOT datistemplate"); do
        sudo -u postgres pg_dump -Fc "$db" > "$DEST/pg_${db}.dump" || return 1
    done
}

archive_dirs() {
    local d name
    for d in /etc /home /srv/www; do
        [ -d "$d" ] || continue
        name=$(echo "$d" | sed 's|^/||; s|/|_|g')
        tar --exclude-caches --exclude='*.tmp' -czf "$DEST/${name}.tar.gz" -C / "${d#/}" 2>>"$DEST/errors.log"
    done
}

checksum() {
    (
        cd "$DEST" && sha256sum -- * > SHA256SUMS
    )
}

rotate() {
    find "$BACKUP_ROOT" -mindepth 1 -maxdepth 1 -type d -mtime +"$RETENTION_DAYS" -print0 |
        while IFS= read -r -d '' old; do
            echo "removing $old"
            rm -rf -- "$old"
        done
}

report() {
    local size
    size=$(du -sh "$DEST" | cut -f1)
    cat <<-EOF
	Backup report for $(hostname -f)
	Date:      $TODAY
	Location:  $DEST
	Size:      $size
	Files:     $(ls -1 "$DEST" | wc -l)
	EOF
}

dump_postgres && archive_dirs && checksum || exit 1
rotate
report | tee "$DEST/REPORT"
