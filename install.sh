#!/usr/bin/env bash
# One-step install from a checkout: pnpm (if missing), dependencies, build.
# Leaves bin/judge runnable. Needs Node.js 20.19 or newer, and a C++ toolchain
# (python3, make, g++) for better-sqlite3, which builds from source.
#   --languages all|ID,ID...  also install (as root, with apt-get) the Debian packages of these
#                             languages of config/languages.json (`judge-runner languages install`)
#   --browser                 also install (as root, with apt-get) Debian's chromium, which the
#                             browser tests drive, and nginx, which the reverse-proxy test runs;
#                             a judge serving students needs neither
#   --postgres                also install (as root, with apt-get) Debian's postgresql, on whose
#                             throw-away clusters the tests run the PostgreSQL engine
set -euo pipefail
cd "$(dirname "$0")"

languages=""
browser=""
postgres=""
while [ $# -gt 0 ]; do
  case "$1" in
    --languages) languages="${2:?--languages needs all or a list of language ids}"; shift 2 ;;
    --languages=*) languages="${1#--languages=}"; shift ;;
    --browser) browser=1; shift ;;
    --postgres) postgres=1; shift ;;
    *) echo "install.sh: unknown option $1 (usage: ./install.sh [--languages all|ID,ID...] [--browser] [--postgres])" >&2; exit 2 ;;
  esac
done

need_node="20.19.0"
if ! command -v node >/dev/null 2>&1; then
  echo "install.sh: Node.js $need_node or newer is required (https://nodejs.org or your distribution's nodejs 20+ package)" >&2
  exit 1
fi
if ! node -e "const [a,b]=process.versions.node.split('.').map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)"; then
  echo "install.sh: Node.js $(node --version) is too old; $need_node or newer is required" >&2
  exit 1
fi
if ! command -v pnpm >/dev/null 2>&1; then
  echo "install.sh: installing pnpm 10 with npm"
  npm install --global pnpm@10 >/dev/null
fi
if ! command -v g++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: installing the build tools better-sqlite3 needs"
    apt-get update -qq && apt-get install -y -qq python3 make g++ >/dev/null
  else
    echo "install.sh: python3, make and g++ are required to build better-sqlite3" >&2
    exit 1
  fi
fi

# judge-runner sandboxes submissions with bubblewrap (the judge itself does not need it)
if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: installing bubblewrap, the sandbox judge-runner uses"
    apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null
  else
    echo "install.sh: bubblewrap (bwrap) is missing: judge-runner cannot sandbox without it (apt-get install bubblewrap)" >&2
  fi
fi

# nginx: the reverse-proxy recipe of docs/operations.md is tested with it (packages/server/test/reverse-proxy.test.ts)
if [ -n "$browser" ] && { ! command -v chromium >/dev/null 2>&1 || ! { command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: installing chromium and nginx for the browser and reverse-proxy tests"
    apt-get update -qq && apt-get install -y -qq chromium nginx >/dev/null
  else
    echo "install.sh: --browser needs root and apt-get to install chromium and nginx (or install them yourself: apt-get install chromium nginx)" >&2
    exit 1
  fi
fi

# PostgreSQL: the storage tests run the data layer on a throw-away cluster (scripts/pg-test-cluster.sh)
if [ -n "$postgres" ] && ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: installing Debian's postgresql for the tests on PostgreSQL"
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  else
    echo "install.sh: --postgres needs root and apt-get to install postgresql (or install it yourself: apt-get install postgresql)" >&2
    exit 1
  fi
fi

pnpm install --frozen-lockfile
pnpm build

if [ -n "$languages" ]; then
  if [ "$languages" = all ]; then
    bin/judge-runner languages install --all
  else
    bin/judge-runner languages install $(echo "$languages" | tr ',' ' ')
  fi
fi
echo "install.sh: done. Next: bin/judge init --data-dir ./data && bin/judge serve --data-dir ./data"
