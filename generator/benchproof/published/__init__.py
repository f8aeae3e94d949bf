"""Reading what a build published — a site, its evidence zip, an unpacked bundle, a
results.json — as hostile input: for ``verify``, ``sign``, ``compare`` and ``summary``."""
