#!/usr/bin/env bash
# The cluster check (issue 24): etcd ×3, HAProxy, 3 appliances and S3 on loopback; bounded to 6 min.
# Uses LEARNSPACE_TEST_S3_ENDPOINT (the Swift CI started) when set, else starts its own (≈1–2 min more).
# Needs Debian's etcd-server, etcd-client and haproxy (installed here when missing).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v etcd >/dev/null || ! command -v haproxy >/dev/null; then
  (timeout 90 apt-get update && DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y etcd-server etcd-client haproxy) >/dev/null 2>&1 \
    || { echo "cluster check: could not install etcd-server and haproxy"; exit 1; }
fi
# Six minutes in all, the installation included.
exec timeout -k 10 $((360 - SECONDS)) node_modules/.bin/bun scripts/cluster-check.ts
