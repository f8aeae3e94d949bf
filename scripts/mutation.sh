#!/usr/bin/env sh
# Mutation testing with mutmut: change the targeted modules (the aggregates, the downloads,
# the chart data and the receipts, the audit's rules, accept, the guards, the claims, the
# crossover and reference arithmetic, serve's request checks, the formula rule; see
# [tool.mutmut] in pyproject.toml) one small edit at a time and run the tests that cover each
# edit.  A mutant that no test notices "survived".  Slow (hours on 2 cores), so it is not part
# of CI (.ci/run runs the quick gate, scripts/mutation_gate.py); a second run resumes.
#
#   sh scripts/mutation.sh                 run, then print killed/survived/total per module
#   sh scripts/mutation.sh run 'benchproof.compute.aggregate*'    only one module's mutants
#   sh scripts/mutation.sh results         list the surviving mutants
#   sh scripts/mutation.sh show NAME       the diff of one mutant
#   sh scripts/mutation.sh browse          mutmut's interactive browser
#   FRESH=1 sh scripts/mutation.sh         forget earlier results and start over
set -eu
EXTRAS="[test]" . "$(dirname "$0")/setup.sh"   # the repository root, .venv with mutmut
WORK=.mutation
if [ "${FRESH:-}" = 1 ]; then rm -rf "$WORK"; fi
if [ "$#" -eq 0 ] || [ "$1" = run ]; then
  # mutmut 3 imports the mutated package from ./, src/ or source/: lay generator/ out as src/
  rm -rf "$WORK/src" "$WORK/tests" "$WORK/templates" "$WORK/data" "$WORK/scripts"
  mkdir -p "$WORK/src"
  cp -Rp generator/benchproof "$WORK/src/benchproof"
  cp -Rp tests templates data scripts pyproject.toml "$WORK/"
  # the Vega runtime, made once here (see scripts/mutation_plugin.py)
  .venv/bin/python -c "from benchproof.charts.vega import runtime; import sys; sys.stdout.write(runtime())" \
    > "$WORK/vega.js"
fi
cd "$WORK"
BENCHPROOF_MUTATION_VEGA="$(pwd)/vega.js"
export BENCHPROOF_MUTATION_VEGA
if [ "$#" -gt 0 ] && [ "$1" != run ]; then
  exec ../.venv/bin/mutmut "$@"
fi
[ "$#" -gt 0 ] && shift
../.venv/bin/mutmut run --max-children "${JOBS:-2}" "$@"
echo
echo "module                           killed  survived  other  total"
../.venv/bin/mutmut results --all true | awk -F': ' '
  { name = $1; sub(/^ +/, "", name); sub(/\.x[_ǁ].*/, "", name); status = $2
    total[name]++; if (status == "killed") k[name]++; else if (status == "survived") s[name]++; else o[name]++ }
  END { for (m in total) printf "%-32s %6d %9d %6d %6d\n", m, k[m], s[m], o[m], total[m] }' | sort
