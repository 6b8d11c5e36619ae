#!/usr/bin/env bash
# CI's container step (issue 55): build the image from the Containerfile on a Node 24 base made
# here (no registry is reachable), then use it as a clinic would: start it on a volume, sign in
# and write, back up through exec, stop it with SIGTERM, start a new container on the same
# volume and find the write; and meet the faults an operator meets (a second container on the
# volume, a volume of another user, a database host that is not there). Each check is reported
# in test-results/container.json, which CI's totals count. Usage: scripts/container/check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."

STARTED=$(date +%s)
RUN_ID="ci-$$-$(date +%s)"
BASE="localhost/clinic-ehr-node-base:$RUN_ID"
IMAGE="localhost/clinic-ehr:$RUN_ID"
VOLUME="ehr-data-$RUN_ID"
WORK="$(mktemp -d)"
REPORT=test-results/container.json
SIZE_BUDGET_MB=250

# Rootful Podman on this kind of machine: runc (crun refuses its mixed cgroups), cgroupfs and a
# file event log (no systemd), the host's network (no firewall changes), and limits at or under
# the host's hard ones (Podman's defaults ask for more and the container is refused).
PODMAN=(podman --cgroup-manager cgroupfs --events-backend file)
# The lower of the host's hard limit and what the app needs (npm ci opens thousands of files).
limit() { local hard=$1 want=$2; [ "$hard" = unlimited ] || [ "$hard" -gt "$want" ] && echo "$want" || echo "$hard"; }
nofile=$(limit "$(ulimit -Hn)" 16384)
nproc=$(limit "$(ulimit -Hu)" 4096)
LIMITS=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
# Podman runs health checks from systemd timers, which this machine lacks: off, but for the one
# container whose check is run by hand (its complaint about systemd goes to that container's log).
RUN=(--runtime runc --network host "${LIMITS[@]}" --no-healthcheck)

RESULTS="$WORK/results.tsv"
: >"$RESULTS"
pass() { printf 'passed\t%s\t\n' "$1" >>"$RESULTS"; echo "  ok   $1"; }
fail() { printf 'failed\t%s\t%s\n' "$1" "$2" >>"$RESULTS"; echo "  FAIL $1: $2"; }
elapsed() { echo $(($(date +%s) - $1)); }

cleanup() {
  "${PODMAN[@]}" rm -f -t 0 "ehr-a-$RUN_ID" "ehr-b-$RUN_ID" "ehr-c-$RUN_ID" "ehr-d-$RUN_ID" >/dev/null 2>&1
  "${PODMAN[@]}" volume rm -f "$VOLUME" "$VOLUME-foreign" >/dev/null 2>&1
  "${PODMAN[@]}" rmi -f "$IMAGE" "$BASE" >/dev/null 2>&1
  "${PODMAN[@]}" image prune -f >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

report() {
  mkdir -p test-results
  node -e '
    const fs = require("node:fs");
    const rows = fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map((l) => l.split("\t"));
    const assertionResults = rows.map(([status, name, message]) => ({ fullName: `the container image ${name}`, status, failureMessages: message ? [message] : [] }));
    const failed = rows.filter(([s]) => s === "failed").length;
    fs.writeFileSync(process.argv[2], JSON.stringify({
      numPassedTests: rows.length - failed, numFailedTests: failed,
      testResults: [{ name: "scripts/container/check.sh", status: failed ? "failed" : "passed", assertionResults }],
    }));' "$RESULTS" "$REPORT"
  echo "== container checks: $(grep -c ^passed "$RESULTS") passed, $(grep -c ^failed "$RESULTS") failed, in $(elapsed "$STARTED") s"
}
# Stops the run where nothing after the failed step can be checked.
give_up() {
  fail "$1" "$2"
  report
  exit 1
}

free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
wait_healthy() { # <port> <container>: seconds to the first healthy answer, or nothing
  local from=$(date +%s%N)
  for _ in $(seq 1 600); do
    if curl -sf "http://127.0.0.1:$1/api/health" >/dev/null; then
      echo "$(((($(date +%s%N) - from) / 1000000)))"
      return 0
    fi
    [ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$2" 2>/dev/null)" = true ] || return 1
    sleep 0.2
  done
  return 1
}

echo "== container image (Containerfile), Podman $(podman --version | cut -d' ' -f3), runc"
t=$(date +%s)
scripts/container/make-local-base.sh "$BASE" "$(command -v node)" >"$WORK/base.log" 2>&1 || give_up "base is made from this machine's Node 24" "$(tail -3 "$WORK/base.log")"
pass "base is made from this machine's Node 24 ($(elapsed "$t") s)"

t=$(date +%s)
"${PODMAN[@]}" build --format docker --runtime runc --network host "${LIMITS[@]}" --build-arg NODE_IMAGE="$BASE" -t "$IMAGE" -f Containerfile . >"$WORK/build.log" 2>&1 ||
  give_up "builds from the Containerfile" "$(grep -iE 'error' "$WORK/build.log" | tail -3)"
pass "builds from the Containerfile ($(elapsed "$t") s)"

size_mb=$(("$("${PODMAN[@]}" image inspect -f '{{.Size}}' "$IMAGE")" / 1000000))
[ "$size_mb" -lt "$SIZE_BUDGET_MB" ] && pass "is under $SIZE_BUDGET_MB MB ($size_mb MB)" || fail "is under $SIZE_BUDGET_MB MB" "$size_mb MB"

leftovers=$("${PODMAN[@]}" run --rm "${RUN[@]}" --entrypoint sh "$IMAGE" -c \
  'for p in /app/web /app/domain /app/tests /app/e2e /app/server/modules /app/node_modules/vite /app/node_modules/.bin/vitest /root/.npm /home/node/.npm; do [ -e "$p" ] && echo "$p"; done; for c in cc gcc g++ make python3; do command -v $c; done; find /app -name "*.map" | head -1')
[ -z "$leftovers" ] && pass "holds no sources, tests, dev packages, compilers, npm cache or source maps" || fail "holds no sources, tests, dev packages, compilers, npm cache or source maps" "$leftovers"

[ "$("${PODMAN[@]}" image inspect -f '{{.Config.User}}' "$IMAGE")" = node ] && pass "declares the non-root user node" || fail "declares the non-root user node" "User is $("${PODMAN[@]}" image inspect -f '{{.Config.User}}' "$IMAGE")"

# A clinic's first start: a new volume, the demo (for this check only), health, and a write.
# A directory of the host's for backups, as a clinic mounts one.
"${PODMAN[@]}" volume create "$VOLUME" >/dev/null
mkdir -p "$WORK/backups" && chown 1000:1000 "$WORK/backups"
PORT_A=$(free_port)
"${PODMAN[@]}" run -d --name "ehr-a-$RUN_ID" --runtime runc --network host "${LIMITS[@]}" -e PORT="$PORT_A" -e DEMO=1 \
  -v "$VOLUME:/data" -v "$WORK/backups:/backups" "$IMAGE" >/dev/null 2>"$WORK/run-a.log"
if ms=$(wait_healthy "$PORT_A" "ehr-a-$RUN_ID"); then
  pass "starts on a new volume and answers /api/health (${ms} ms after run)"
else
  give_up "starts on a new volume and answers /api/health" "$("${PODMAN[@]}" logs "ehr-a-$RUN_ID" 2>&1 | tail -5)"
fi
"${PODMAN[@]}" healthcheck run "ehr-a-$RUN_ID" >/dev/null 2>&1 && pass "passes its own HEALTHCHECK" || fail "passes its own HEALTHCHECK" "podman healthcheck run failed"
uid=$("${PODMAN[@]}" exec "ehr-a-$RUN_ID" id -u)
[ "$uid" != 0 ] && pass "runs the app as user id $uid, not root" || fail "runs the app as a non-root user" "id -u is $uid"

BASE_URL="http://127.0.0.1:$PORT_A"
curl -sf -c "$WORK/cookies" -H "origin: $BASE_URL" -H 'content-type: application/json' \
  -d '{"email":"admin@demo.clinic","password":"demo-clinic-2026"}' "$BASE_URL/api/auth/login" >/dev/null || give_up "signs in" "POST /api/auth/login failed"
patient=$(curl -sf -b "$WORK/cookies" -H "origin: $BASE_URL" -H 'content-type: application/json' \
  -d '{"firstName":"Contained","lastName":"Volume","dateOfBirth":"1980-02-03","phone":"555-0199"}' "$BASE_URL/api/patients" |
  node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(JSON.parse(s).id ?? ""))')
[ -n "$patient" ] && pass "signs in and creates a patient over HTTP" || give_up "signs in and creates a patient over HTTP" "no patient id came back"

# Backups of the embedded engine while it runs, through exec, into the host's directory.
"${PODMAN[@]}" exec "ehr-a-$RUN_ID" npm run backup --silent -- /backups >"$WORK/backup.log" 2>&1 </dev/null
if grep -q 'Backup written to /backups/' "$WORK/backup.log" && [ -n "$(find "$WORK/backups" -mindepth 2 -type f | head -1)" ]; then
  pass "backs up while it runs, with npm run backup through exec, into a mounted directory"
else
  fail "backs up while it runs, with npm run backup through exec, into a mounted directory" "$(tail -3 "$WORK/backup.log")"
fi

# A second container on the same embedded volume: refused, as a second process is.
PORT_B=$(free_port)
"${PODMAN[@]}" run -d --name "ehr-b-$RUN_ID" "${RUN[@]}" -e PORT="$PORT_B" -v "$VOLUME:/data" "$IMAGE" >/dev/null
code=$("${PODMAN[@]}" wait "ehr-b-$RUN_ID" 2>/dev/null)
if [ "$code" != 0 ] && "${PODMAN[@]}" logs "ehr-b-$RUN_ID" 2>&1 | grep -q 'The embedded database is in use by process 1'; then
  pass "refuses a second container on the same volume (exit $code)"
else
  fail "refuses a second container on the same volume" "exit $code: $("${PODMAN[@]}" logs "ehr-b-$RUN_ID" 2>&1 | tail -2)"
fi

t=$(date +%s%N)
"${PODMAN[@]}" stop -t 10 "ehr-a-$RUN_ID" >/dev/null 2>&1
stop_ms=$((($(date +%s%N) - t) / 1000000))
code=$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "ehr-a-$RUN_ID")
if [ "$code" = 0 ] && [ "$stop_ms" -lt 10000 ]; then
  pass "stops on SIGTERM with exit 0 (${stop_ms} ms)"
else
  fail "stops on SIGTERM with exit 0 within 10 s" "exit $code after ${stop_ms} ms"
fi

# A new container on the same volume: an upgrade or a restart keeps the clinic's record.
PORT_C=$(free_port)
"${PODMAN[@]}" run -d --name "ehr-c-$RUN_ID" "${RUN[@]}" -e PORT="$PORT_C" -e DEMO=1 -v "$VOLUME:/data" "$IMAGE" >/dev/null
if wait_healthy "$PORT_C" "ehr-c-$RUN_ID" >/dev/null; then
  C_URL="http://127.0.0.1:$PORT_C"
  curl -sf -c "$WORK/cookies-c" -H "origin: $C_URL" -H 'content-type: application/json' \
    -d '{"email":"admin@demo.clinic","password":"demo-clinic-2026"}' "$C_URL/api/auth/login" >/dev/null
  found=$(curl -s -o /dev/null -w '%{http_code}' -b "$WORK/cookies-c" -H "origin: $C_URL" "$C_URL/api/patients/$patient")
  [ "$found" = 200 ] && pass "finds the patient from a new container on the same volume" || fail "finds the patient from a new container on the same volume" "GET /api/patients/$patient answered $found"
else
  fail "finds the patient from a new container on the same volume" "$("${PODMAN[@]}" logs "ehr-c-$RUN_ID" 2>&1 | tail -3)"
fi
"${PODMAN[@]}" rm -f -t 10 "ehr-c-$RUN_ID" >/dev/null 2>&1

# The embedded engine's admin commands run with the app stopped: a one-off container on the volume.
out=$("${PODMAN[@]}" run --rm "${RUN[@]}" -v "$VOLUME:/data" "$IMAGE" npm run create-admin --silent -- --email first.admin@container.test 2>&1)
grep -q 'Created the admin' <<<"$out" && pass "creates the first admin in a one-off container on the stopped app's volume" ||
  fail "creates the first admin in a one-off container on the stopped app's volume" "$(tail -3 <<<"$out")"

# On PostgreSQL, configured as compose.yaml does: a URL without a password, the secrets as files.
DB="ehr_container_$$"
if psql -h 127.0.0.1 -U postgres -d test -qc "create database $DB" >/dev/null 2>&1; then
  mkdir -m 700 "$WORK/secrets"
  for s in files_key audit_head_key; do node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64"))' >"$WORK/secrets/$s"; done
  echo 'unused-with-trust-auth' >"$WORK/secrets/db_password"
  chmod 644 "$WORK/secrets"/*
  PORT_D=$(free_port)
  # Each secret mounted as a file of its own, as compose does (the 700 folder stays on the host).
  secret_mounts=()
  for s in files_key audit_head_key db_password; do secret_mounts+=(-v "$WORK/secrets/$s:/run/secrets/$s:ro"); done
  "${PODMAN[@]}" run -d --name "ehr-d-$RUN_ID" "${RUN[@]}" -e PORT="$PORT_D" "${secret_mounts[@]}" \
    -e DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB" -e DATABASE_PASSWORD_FILE=/run/secrets/db_password \
    -e FILES_KEY_FILE=/run/secrets/files_key -e AUDIT_HEAD_KEY_FILE=/run/secrets/audit_head_key "$IMAGE" >/dev/null
  if ms=$(wait_healthy "$PORT_D" "ehr-d-$RUN_ID"); then
    out=$("${PODMAN[@]}" exec "ehr-d-$RUN_ID" npm run create-admin --silent -- --email pg.admin@container.test 2>&1)
    keys=$("${PODMAN[@]}" exec "ehr-d-$RUN_ID" sh -c 'ls /data/files.key /data/audit-head.key 2>/dev/null')
    if grep -q 'Created the admin' <<<"$out" && [ -z "$keys" ]; then
      pass "runs on PostgreSQL with its secrets as files (${ms} ms to health), and creates an admin through exec while it serves"
    else
      fail "runs on PostgreSQL with its secrets as files, and creates an admin through exec while it serves" "$(tail -2 <<<"$out") $keys"
    fi
  else
    fail "runs on PostgreSQL with its secrets as files" "$("${PODMAN[@]}" logs "ehr-d-$RUN_ID" 2>&1 | tail -3)"
  fi
  "${PODMAN[@]}" rm -f -t 10 "ehr-d-$RUN_ID" >/dev/null 2>&1
  psql -h 127.0.0.1 -U postgres -d test -qc "drop database if exists $DB with (force)" >/dev/null 2>&1
else
  fail "runs on PostgreSQL with its secrets as files" "could not create a database on 127.0.0.1:5432"
fi

# A volume made by another user (root, 0700): one sentence that says what to do, exit non-zero.
"${PODMAN[@]}" volume create "$VOLUME-foreign" >/dev/null
foreign=$("${PODMAN[@]}" volume inspect -f '{{.Mountpoint}}' "$VOLUME-foreign")
mkdir -p "$foreign/pg" && chown -R 0:0 "$foreign" && chmod -R 700 "$foreign"
out=$("${PODMAN[@]}" run --rm "${RUN[@]}" -e PORT="$(free_port)" -v "$VOLUME-foreign:/data" "$IMAGE" 2>&1)
code=$?
if [ "$code" != 0 ] && grep -q 'cannot be used by this process (user id 1000)' <<<"$out" && ! grep -qE '^\s+at ' <<<"$out"; then
  pass "refuses a volume owned by another user with one clear message (exit $code)"
else
  fail "refuses a volume owned by another user with one clear message" "exit $code: $(tail -3 <<<"$out")"
fi

# A DATABASE_URL whose host does not exist: waited for, saying so, then exit non-zero.
out=$("${PODMAN[@]}" run --rm "${RUN[@]}" -e PORT="$(free_port)" -e DATABASE_URL=postgres://clinic@no-such-db.invalid:5432/clinic -e DATABASE_WAIT_SECONDS=2 "$IMAGE" 2>&1)
code=$?
if [ "$code" != 0 ] && grep -q 'Waiting for the database at no-such-db.invalid:5432/clinic' <<<"$out" && grep -q 'could not be reached in 2 s' <<<"$out"; then
  pass "waits for a database host that is not there, then exits non-zero (exit $code)"
else
  fail "waits for a database host that is not there, then exits non-zero" "exit $code: $(tail -3 <<<"$out")"
fi

report
! grep -q ^failed "$RESULTS"
