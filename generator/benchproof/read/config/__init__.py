"""The YAML configuration wing of ``read/``: report.yaml (``report``; its ``audit:``,
``decision:``, ``crossover:`` and ``reference:`` blocks in ``audit``, ``decision``,
``workload`` and ``weighing``, their keys in ``audit_fields`` and ``decision_fields``), the arm
files (``arms``), what the blocks point at (``targets``) and the files they read
(``distributions``)."""
