"""The browser app's HTML shell (``server/web/pages.py``): what it makes the browser load."""

from __future__ import annotations

import re

from fourfold.server.web.controllers import STATIC, build_id
from fourfold.server.web.pages import _shell_text


def test_the_shell_preloads_every_module_of_the_app_but_its_entry() -> None:
    shell = _shell_text()
    modules = {file.name for file in STATIC.glob("*.js")} - {"app.js"}
    preloaded = re.findall(r'<link rel="modulepreload" href="/ui/([^/"]+)/([^/"]+)">', shell)
    assert {build for build, _ in preloaded} == {build_id()}
    assert sorted(name for _, name in preloaded) == sorted(modules)
    assert {"util.js", "table.js", "lobby.js"} <= modules
    assert f'<script type="module" src="/ui/{build_id()}/app.js">' in shell
    assert "PRELOADS" not in shell and "/ui/BUILD/" not in shell
