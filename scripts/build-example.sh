#!/usr/bin/env sh
# Set up a virtual environment and build the bundled example report into site/.
set -eu
EXTRAS="" . "$(dirname "$0")/setup.sh"
.venv/bin/benchproof build data/example -o site
echo "Open site/index.html in a browser."
