"""Per-request records (``requests/``): found, read column by column and batch by batch,
checked, and reduced to each run's sorted values (:class:`~benchproof.model.requests.RequestData`)."""
