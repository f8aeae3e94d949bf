#!/usr/bin/env sh
# The linter, the formatter's check and the type checker, as pyproject.toml configures them
# ([tool.ruff], [tool.mypy]); scripts/test.sh runs this before pytest, and so does CI.
# Usage: sh scripts/lint.sh  (from anywhere; needs the .venv that scripts/setup.sh makes)
set -u
cd "$(dirname "$0")/.."
bin=.venv/bin
for tool in ruff mypy; do
  if [ ! -x "$bin/$tool" ]; then
    echo "error: $bin/$tool was not found; install the test extras: .venv/bin/pip install -e '.[test]'" >&2
    exit 1
  fi
done
failed=""
"$bin/ruff" check --no-fix . || failed="$failed ruff-check"
"$bin/ruff" format --check . || failed="$failed ruff-format"
"$bin/mypy" || failed="$failed mypy"
if [ -n "$failed" ]; then
  echo "error: lint failed:$failed" >&2
  case "$failed" in
    *ruff-format*) echo "  formatting: .venv/bin/ruff format . rewrites the files it lists" >&2 ;;
  esac
  case "$failed" in
    *ruff-check*) echo "  lint: .venv/bin/ruff check --fix . fixes what it can; the rest is by hand (docs/development.md)" >&2 ;;
  esac
  exit 1
fi
echo "lint: ruff check, ruff format --check and mypy are clean" >&2
