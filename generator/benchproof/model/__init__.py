"""The model: the frozen dataclasses and words handed from stage to stage.

``terms`` (statuses, a point, where a value came from), ``config`` (report.yaml, the arm
files, the ``audit:`` block), ``decision`` (the ``decision``, ``crossover`` and
``reference`` blocks), ``columns`` and ``records`` (the run records, kept as columns) and
``project`` (the validated project that ``read/`` hands on).
"""
