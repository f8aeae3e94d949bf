# Shared by the two entry scripts: make .venv and install benchproof into it (editable).
# usage: EXTRAS="[test]" . scripts/setup.sh
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --editable ".${EXTRAS:-}"
