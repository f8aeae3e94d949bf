"""What the tests share: ``common`` (build a project, read a built page as a reader would), and
a module per kind of project or page the tests make and read (``audit``, ``traps``,
``validation``, ``weighing``, ``glance``, ``importing``, ``second_project``, ``runs``, ``serve``,
``cli``, ``browser_charts``, ``browser_runs``).  No test file imports from another."""
