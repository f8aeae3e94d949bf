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
if ! command -v ssh-keygen >/dev/null 2>&1; then
  echo "error: the signature tests sign and check with OpenSSH's ssh-keygen, which was not found." >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y openssh-client" >&2
  exit 1
fi
status=0
.venv/bin/python -m pytest "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests" >&2
fi
exit "$status"
