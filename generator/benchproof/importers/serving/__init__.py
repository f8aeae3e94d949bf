"""Helpers shared by the LLM-serving importers (vLLM serve/throughput, SGLang, GuideLLM), a module
per job: ``reading`` (a file of JSON results), ``values`` (rates, concurrency, times),
``metrics`` (a metric read from a result), ``fields`` (the raw fields and the finished record),
``stub`` (the arm file's start) and ``result`` (what a serving importer returns).

What they have in common, and how it is decided here once:

* **Reading.**  A file is read as UTF-8 (BOM and CRLF tolerated, as everywhere in
  benchproof); an empty file, a file that is not JSON (with the line of the
  ``JSONDecodeError``) or a file of the wrong format raises :class:`~benchproof.errors.ImportFormatError`
  with ``file:line``.  Python's ``json`` accepts the bare ``Infinity``/``NaN`` tokens that
  SGLang and old vLLM write, so such files parse; a non-finite *metric* value then becomes
  ``None`` ("not measured") and a warning in ``skipped`` — never a number.
* **Rates and concurrency.**  An unlimited request rate (``"inf"``, ``Infinity``) is the
  dimension value ``"inf"`` (text, never a number); an unset concurrency limit (``null``)
  is ``"unlimited"``.
* **Per-request arrays** (``input_lens``, ``output_lens``, ``ttfts``, ``itls``,
  ``latencies``, ``generated_texts``, ``errors``...) are *summarised*, not copied: the
  record keeps ``<name>_count`` (the array's length) and, for ``errors``,
  ``errors_nonempty`` (requests whose error text is not empty).  The numbers themselves
  stay in the source file, which the import copies into ``evidence/imports/`` and every
  record names as its evidence; a run record stays one row of the raw table instead of a
  megabyte of floats.  Any other list is summarised the same way and a
  nested mapping is kept as compact JSON text, so no field is dropped.
* **Raw fields** keep the tool's own field names.  A name that clashes with a run-record
  column (``status``, ``repeat``, ``arm``...) or with a metric/dimension id gets the
  suffix ``_original``; vLLM's buggy key ``"request_goodput:"`` loses its colon.  Request
  and token counts (``completed``, ``failed``, ``total_input_tokens``, ``*_count``...) are
  raw fields too, whole numbers, never metrics (a median of 300.0 requests says nothing).
* **Repetitions and where from** as for every importer (``common``): ``repeat`` 1, 2, 3...
  in file order, ``imported_from`` ``<file name>:<line>``.
"""
