"""The audit: Project + Results → findings, what a reader should not quote yet.

``registry.RULES`` lists the rules in order; each is a pure function in a module per family
(``spread``, ``compare``, ``records``, ``workload``).  ``accept`` applies ``audit.accept``,
``notices`` groups findings for reading, ``run.run_audit`` is the stage itself.
"""
