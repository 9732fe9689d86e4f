#!/usr/bin/env bash
# A real S3-compatible store on loopback for tests: OpenStack Swift (Debian's swift-proxy,
# swift-account, swift-container, swift-object) with the s3api and tempauth middlewares, and
# memcached. One replica on one device in DIR; nothing outside DIR is written.
#   scripts/swift-s3.sh start DIR PORT [BUCKET…] → creates the buckets, then prints
#                                                "endpoint=http://127.0.0.1:PORT" when it answers
#   scripts/swift-s3.sh stop DIR
# S3 credentials: access key "test:tester", secret "testing"; region us-east-1.
# SWIFT_WORKERS (default 1): processes per Swift server; a bench of 1,000 replicated files needs more.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?DIR}

if [ "$cmd" = stop ]; then
  for f in "$dir"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  exit 0
fi

port=${3:?PORT}
workers=${SWIFT_WORKERS:-1}
shift 3
for bin in swift-proxy-server swift-account-server swift-container-server swift-object-server swift-ring-builder memcached; do
  command -v "$bin" >/dev/null || { echo "swift-s3: $bin is missing (apt-get install swift-proxy swift-account swift-container swift-object memcached)" >&2; exit 3; }
done
mkdir -p "$dir/srv/d1" "$dir/cache" "$dir/run"
acct=$((port + 1)); cont=$((port + 2)); obj=$((port + 3)); mc=$((port + 4))

common() {
  cat <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
user = $(id -un)
swift_dir = $dir
devices = $dir/srv
mount_check = false
workers = $workers
log_level = WARNING
log_address = /nonexistent
recon_cache_path = $dir/cache
CONF
}
{ common; echo "bind_port = $acct"; printf '[pipeline:main]\npipeline = account-server\n[app:account-server]\nuse = egg:swift#account\n[account-replicator]\n[account-auditor]\n[account-reaper]\n'; } >"$dir/account-server.conf"
{ common; echo "bind_port = $cont"; printf '[pipeline:main]\npipeline = container-server\n[app:container-server]\nuse = egg:swift#container\n[container-replicator]\n[container-updater]\n[container-auditor]\n[container-sync]\n'; } >"$dir/container-server.conf"
{ common; echo "bind_port = $obj"; printf '[pipeline:main]\npipeline = object-server\n[app:object-server]\nuse = egg:swift#object\n[object-replicator]\n[object-updater]\n[object-auditor]\n'; } >"$dir/object-server.conf"
cat >"$dir/proxy-server.conf" <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $port
user = $(id -un)
swift_dir = $dir
workers = $workers
log_level = WARNING
log_address = /nonexistent

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$mc
# Many replicated files upload at once: the default pool of 2 connections times out and error-limits memcached.
memcache_max_connections = 64
pool_timeout = 5
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
CONF

for ring in account:$acct container:$cont object:$obj; do
  name=${ring%%:*}; p=${ring##*:}
  swift-ring-builder "$dir/$name.builder" create 0 1 0 >/dev/null
  swift-ring-builder "$dir/$name.builder" add "r1z1-127.0.0.1:$p/d1" 1 >/dev/null
  swift-ring-builder "$dir/$name.builder" rebalance >/dev/null 2>&1 || true
done

start() { # name, command…
  local name=$1; shift
  "$@" >"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}
start memcached memcached -l 127.0.0.1 -p "$mc" -U 0 -m 64 -u "$(id -un)"
start account swift-account-server "$dir/account-server.conf" -v
start container swift-container-server "$dir/container-server.conf" -v
start object swift-object-server "$dir/object-server.conf" -v
start proxy swift-proxy-server "$dir/proxy-server.conf" -v

# Python start-up on a busy 2-core machine: up to a minute.
up=0
for _ in $(seq 1 600); do
  if curl -fsS "http://127.0.0.1:$port/healthcheck" >/dev/null 2>&1; then up=1; break; fi
  sleep 0.1
done
if [ $up -ne 1 ]; then
  echo "swift-s3: the proxy did not answer on 127.0.0.1:$port; logs in $dir" >&2
  exit 1
fi
# Buckets are Swift containers: made through Swift's own API with a tempauth token.
token=$(curl -fsS -D - -o /dev/null -H "X-Auth-User: test:tester" -H "X-Auth-Key: testing" "http://127.0.0.1:$port/auth/v1.0" | tr -d '\r' | sed -n 's/^[Xx]-[Aa]uth-[Tt]oken: //p')
for bucket in "$@"; do
  curl -fsS -X PUT -H "X-Auth-Token: $token" "http://127.0.0.1:$port/v1/AUTH_test/$bucket" >/dev/null
done
echo "endpoint=http://127.0.0.1:$port"
