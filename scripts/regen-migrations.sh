#!/usr/bin/env bash
# Until the first release, the schema is one squashed 0000_init per file kind, regenerated from the
# tables.ts files. Serialized with flock so that parallel work does not interleave journals.
# After a release, migrations are append-only: use `npm run db:generate` instead.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/learnspace-migrations.lock
flock 9
rm -rf drizzle/platform drizzle/tenant
npx drizzle-kit generate --config drizzle.platform.config.ts --name init >/dev/null
npx drizzle-kit generate --config drizzle.tenant.config.ts --name init >/dev/null
node_modules/.bin/bun scripts/embed-migrations.ts
