"""Edge table of serve's request checks (serve/server.py), in process: the Host header must be
127.0.0.1 or localhost *with the server's own port* (anything else, a DNS-rebinding page
included, is 403), and a path never leads outside the site folder (docs/guide.md, "Your own report")."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from benchproof.serve.server import Status, listen

OWN = "{port}"  # replaced by the server's port in each row


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve-edges")
    site = root / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><html><body><p>the site</p></body></html>", encoding="utf-8")
    (site / "assets" / "style.css").write_text("p{}", encoding="utf-8")
    (root / "secret.txt").write_text("outside the site", encoding="utf-8")
    running = listen(site, 0)
    running.status = Status(version=3, built=True)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def ask(server, path: str, host: str | None, method: str = "GET") -> tuple[int, bytes]:
    """One request with exactly this Host header (None: none at all)."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host.replace(OWN, str(port)))
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


HOSTS = [
    ("127.0.0.1 with its own port", f"127.0.0.1:{OWN}", 200),
    ("localhost with its own port", f"localhost:{OWN}", 200),
    ("LOCALHOST in capitals (host names have no case)", f"LOCALHOST:{OWN}", 200),
    ("localhost with another port", "localhost:1", 403),
    ("localhost with the port one above", f"localhost:{OWN}1", 403),
    ("127.0.0.1 with another port", "127.0.0.1:8001", 403),
    ("localhost without a port", "localhost", 403),
    ("127.0.0.1 without a port", "127.0.0.1", 403),
    ("another name with its own port (DNS rebinding)", f"evil.example:{OWN}", 403),
    ("a name that ends in localhost", f"notlocalhost:{OWN}", 403),
    ("localhost as a subdomain of another name", f"localhost.evil.example:{OWN}", 403),
    ("a trailing dot", f"localhost.:{OWN}", 403),
    ("IPv6 loopback (the server listens on IPv4 only)", f"[::1]:{OWN}", 403),
    ("another loopback address", f"127.0.0.2:{OWN}", 403),
    ("its own port twice", f"localhost:{OWN}:{OWN}", 403),
    ("an empty Host", "", 403),
    ("no Host at all", None, 403),
]


@pytest.mark.parametrize("name, host, code", [pytest.param(*row, id=row[0]) for row in HOSTS])
def test_the_host_check_at_its_edges(server, name, host, code):
    for path in ("/", "/assets/style.css", "/__benchproof__/status", "/__benchproof__/reload.js"):
        got, body = ask(server, path, host)
        assert got == code, (path, body)
        if code == 403:
            assert body == b"benchproof serve answers only to 127.0.0.1 and localhost\n"
    assert ask(server, "/", host, "HEAD") == (code, b"")


PATHS = [
    ("the site's page", "/", 200, b"the site"),
    ("a file of the site", "/assets/style.css", 200, b"p{}"),
    ("a missing file", "/nothing.html", 404, b"not found\n"),
    ("a step out of the site", "/../secret.txt", 404, b"not found\n"),
    ("a step out, percent-encoded", "/%2e%2e/secret.txt", 404, b"not found\n"),
    ("a step out with an encoded slash", "/..%2fsecret.txt", 404, b"not found\n"),
    ("a step out after a folder", "/assets/../../secret.txt", 404, b"not found\n"),
    ("an absolute path in the path", "//etc/passwd", 404, b"not found\n"),
    ("the status, whatever the query", "/__benchproof__/status?x=1", 200, b'"version": 3'),
]


@pytest.mark.parametrize("name, path, code, shows", [pytest.param(*row, id=row[0]) for row in PATHS])
def test_paths_stay_inside_the_site(server, name, path, code, shows):
    got, body = ask(server, path, f"127.0.0.1:{OWN}")
    assert got == code and shows in body, body[:200]
    assert b"outside the site" not in body


def test_the_status_says_what_the_server_holds(server):
    code, body = ask(server, "/__benchproof__/status", f"localhost:{OWN}")
    assert code == 200 and json.loads(body) == {"version": 3, "ok": True, "problems": [], "seconds": 0.0}
