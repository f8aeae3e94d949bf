#!/usr/bin/env sh
# Set up a virtual environment and run the whole test suite, browser tests included.
set -eu
EXTRAS="[test]" . "$(dirname "$0")/setup.sh"
if [ -z "${BENCHPROOF_CHROMIUM:-}" ]; then
  for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
      BENCHPROOF_CHROMIUM="$(command -v "$candidate")"
      break
    fi
  done
fi
if [ -z "${BENCHPROOF_CHROMIUM:-}" ] || [ ! -x "$BENCHPROOF_CHROMIUM" ]; then
  echo "error: the browser tests need Chromium and none was found." >&2
  echo "  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium" >&2
  echo "  elsewhere: install Chromium and set BENCHPROOF_CHROMIUM=/path/to/chromium" >&2
  exit 1
fi
export BENCHPROOF_CHROMIUM
if ! command -v unzip >/dev/null 2>&1; then
  echo "error: the evidence-bundle tests unpack with Info-ZIP unzip, which was not found." >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y unzip" >&2
  exit 1
fi
if ! command -v hyperfine >/dev/null 2>&1; then
  echo "error: the import tests run hyperfine to make real scan output, and it was not found." >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y hyperfine" >&2
  exit 1
fi
if ! command -v ssh-keygen >/dev/null 2>&1; then
  echo "error: the signature tests sign and check with OpenSSH's ssh-keygen, which was not found." >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y openssh-client" >&2
  exit 1
fi
# The page checks of the browser suite: axe-core (accessibility) and the Nu HTML checker
# (vnu-jar, which runs on Java 11 or later), and oxlint (the page scripts' linter) come from
# the npm registry, pinned in package-lock.json, into node_modules/ (their install scripts are not run: vnu-jar's would
# download a Java runtime).
for tool in node npm java; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: the page checks (axe-core, the Nu HTML checker) need $tool, which was not found." >&2
    echo "  Debian/Ubuntu: sudo apt-get install -y nodejs npm default-jre-headless" >&2
    exit 1
  fi
done
java_major="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\)\.\{0,1\}\([0-9]*\).*/\1 \2/p' | head -n 1)"
case "$java_major" in
  "1 "*) java_major="${java_major#1 }" ;;
  *) java_major="${java_major%% *}" ;;
esac
if [ -z "$java_major" ] || [ "$java_major" -lt 11 ]; then
  echo "error: the Nu HTML checker needs Java 11 or later; 'java -version' says: $(java -version 2>&1 | head -n 1)" >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y default-jre-headless" >&2
  exit 1
fi
if [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -f node_modules/vnu-jar/build/dist/vnu.jar ] \
   || [ ! -x node_modules/.bin/oxlint ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing axe-core, vnu-jar and oxlint into node_modules/ (npm ci)" >&2
  if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2; then
    echo "error: 'npm ci' could not install the page checks and the linter from the npm registry (see above)." >&2
    exit 1
  fi
fi
# ruff (lint and format) and mypy first: a finding fails the command before the suite runs
if ! sh scripts/lint.sh; then   # setup.sh left us at the root
  echo "error: scripts/lint.sh failed (above); the test suite did not run" >&2
  exit 1
fi
status=0
# Two workers, as CI's two cores (about 6.5 minutes instead of 8.5 on such a machine); a later
# -n in the arguments wins (-n 0: one process).
.venv/bin/python -m pytest -n 2 "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests" >&2
fi
exit "$status"
