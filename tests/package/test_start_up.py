"""What a build costs before it reads a record: no library it does not use."""

from __future__ import annotations

import subprocess
import sys

from support.common import EXAMPLE

PROBE = """
import sys
from benchproof.cli import main
try:
    main(["build", sys.argv[1], "-o", sys.argv[2]])
except SystemExit as done:
    assert done.code == 0, done.code
print(" ".join(sorted(name for name in ("pandas", "benchproof.build") if name in sys.modules)))
"""


def test_a_build_never_imports_pandas(tmp_path):
    # pyarrow imports pandas (a quarter of a second) the first time it is given a list, only to
    # ask whether the list is a pandas object (benchproof.model.arrow answers without it)
    done = subprocess.run([sys.executable, "-c", PROBE, str(EXAMPLE), str(tmp_path / "site")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["benchproof.build"]


def test_pandas_still_works_with_pyarrow_after_the_question_was_answered_without_it():
    probe = ("import benchproof.model.arrow, sys, pyarrow as pa; assert 'pandas' not in sys.modules\n"
             "import pandas as pd\n"
             "print(pa.table({'a': [1, 2]}).to_pandas()['a'].sum(), pa.array(pd.Series([3.5])).to_pylist())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "[3.5]"]
