#!/usr/bin/env sh
# Mutation testing of the page scripts' logic (runs.js, report.js) with StrykerJS, offline once
# `npm ci` has installed it (package-lock.json): each change to the logic is run against
# tests/js/runs.test.js and report.test.js, and the score is printed (stryker.config.mjs).
# A few minutes on two cores; not part of CI.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/stryker ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
exec nice node_modules/.bin/stryker run stryker.config.mjs "$@"
