"""The run-record wing of ``read/``: run files read keeping ``file:line`` (``records_io``; plain
CSV by ``fast_csv``, ``parquet``), validated into :class:`~benchproof.model.records.Records`
(``validate``, with ``timestamps``), and the audit's guards applied to them (``guards``)."""
