#!/usr/bin/env bash
# A cluster on one machine, for trying it: a local nats-server with JetStream, workers and two API nodes over the
# demo data (generated on the first start, as `svc demo` does). Prints the API URLs and the demo key; Ctrl-C stops
# every process it started. See docs/deployment.md.
#
# Variables: NATS_PORT (4333), API_PORTS ("8081 8082"), SVC_DATA_DIR (data/demo), WORKERS (2).
set -euo pipefail
cd "$(dirname "$0")/.."

NATS_PORT=${NATS_PORT:-4333}
API_PORTS=${API_PORTS:-"8081 8082"}
DATA=${SVC_DATA_DIR:-data/demo}
WORKERS=${WORKERS:-2}

if ! command -v nats-server >/dev/null 2>&1; then
  echo "nats-server is not installed; scripts/system-deps.sh installs it (Debian package nats-server)." >&2
  exit 1
fi
if [ ! -f dist/src/cli/main.js ]; then
  echo "Build first: npm run build" >&2
  exit 1
fi

RUN=$(mktemp -d "${TMPDIR:-/tmp}/svc-cluster-XXXXXX")
PIDS=()
# Stops in reverse order of start: API nodes and workers finish their work while NATS is still there, NATS last.
stop() {
  trap - EXIT INT TERM
  for ((i = ${#PIDS[@]} - 1; i >= 1; i--)); do kill "${PIDS[$i]}" 2>/dev/null || true; done
  for ((i = ${#PIDS[@]} - 1; i >= 1; i--)); do wait "${PIDS[$i]}" 2>/dev/null || true; done
  kill "${PIDS[0]}" 2>/dev/null || true
  wait 2>/dev/null || true
  echo "Stopped. Logs are in $RUN."
}
trap stop EXIT INT TERM

# Waits until the API node on port $1 (process $2) answers /v1/health; the first start may generate the demo data.
wait_for_api() {
  for _ in $(seq 1 600); do
    if curl -sf "http://127.0.0.1:$1/v1/health" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$2" 2>/dev/null; then
      echo "The API node on port $1 stopped; its log ($RUN/api-$1.log) ends with:" >&2
      tail -n 20 "$RUN/api-$1.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "The API node on port $1 did not answer within 5 minutes; see $RUN/api-$1.log." >&2
  exit 1
}

echo "Logs: $RUN"
nats-server -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$RUN/nats" >"$RUN/nats.log" 2>&1 &
PIDS+=($!)
export SVC_NATS_URL="nats://127.0.0.1:$NATS_PORT"

# Workers open their datasets on the first task, so they may start before the first node generates the demo data.
for i in $(seq 1 "$WORKERS"); do
  node bin/svc.js worker --nats "$SVC_NATS_URL" --data "$DATA" --threads 1 >"$RUN/worker-$i.log" 2>&1 &
  PIDS+=($!)
done
workers="$WORKERS workers"

urls=()
first=1
for port in $API_PORTS; do
  if [ "$first" = 1 ]; then
    # The first node is `svc demo`: demo data when missing, and the demo key (kept in $DATA/demo-key).
    node bin/svc.js demo --port "$port" --data "$DATA" >"$RUN/api-$port.log" 2>&1 &
    first=0
  else
    node bin/svc.js serve --port "$port" --data "$DATA" >"$RUN/api-$port.log" 2>&1 &
  fi
  PIDS+=($!)
  wait_for_api "$port" "$!"
  urls+=("http://127.0.0.1:$port/v1")
done

cat <<BANNER

A cluster on NATS $SVC_NATS_URL: ${#urls[@]} API nodes, $workers.

  API nodes: ${urls[*]}
  Demo key:  $(cat "$DATA/demo-key")

Try (ask one node, then the other: the statistics come from the shared cache, the limit counts both):
  export KEY=$(cat "$DATA/demo-key")
  curl -s -H "Authorization: Bearer \$KEY" "${urls[0]}/historical/stats?lat=50.84675&lon=4.35224&radius=25"
  curl -si -H "Authorization: Bearer \$KEY" "${urls[${#urls[@]}-1]}/historical/stats?lat=50.84675&lon=4.35224&radius=25" | grep -i x-cache

Ctrl-C stops everything.
BANNER
wait
