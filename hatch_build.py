"""The wheel's build hook: compile the report templates into the package
(``benchproof/pages/compiled/``, see ``generator/benchproof/pages/ahead.py``).

A wheel carries the compiled modules beside the package's code.  An editable install writes
them into the checkout's package folder (ignored by git); after a template is edited, its
module no longer matches and the template is compiled at run time until the next install."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location("benchproof_ahead", root / "generator/benchproof/pages/ahead.py")
        ahead = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ahead)  # only jinja2 and the standard library: see build-system.requires
        if version == "editable":
            ahead.write(root / "templates", ahead.COMPILED)  # loaded from the checkout: its package folder
            return
        self._out = tempfile.TemporaryDirectory(prefix="benchproof-compiled-")
        ahead.write(root / "templates", Path(self._out.name))
        build_data["force_include"][self._out.name] = f"benchproof/pages/{ahead.FOLDER}"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if version != "editable":
            self._out.cleanup()
