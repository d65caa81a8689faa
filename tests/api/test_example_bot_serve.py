"""docs/api.md's example bot, run exactly as the page prints it (only its BASE pointed at
the test's server) against the real server (``manage.py serve``): it plays a Pig Pile
table with three bots to the end and prints the ranks and the finished table."""
import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def example_bot() -> str:
    text = DOCS.read_text()
    section = text[text.index("## An example bot"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_documented_example_bot_plays_a_table_to_the_end(live_site):
    code = example_bot()
    assert 'BASE, TOKEN = "http://127.0.0.1:8000", sys.argv[1]' in code
    token = live_site.manage("api_token", "example-bot", "--create")
    done = subprocess.run([sys.executable, "-c", code.replace("http://127.0.0.1:8000", live_site.url), token],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:] + live_site.log_path.read_text()[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ranks [") and "scores [" in lines[0], done.stdout
    assert "'status': 'finished'" in lines[-1] and "'username': 'example-bot'" in lines[-1], done.stdout


def test_the_live_server_serves_both_documents_without_a_token(live_site):
    for path, key in (("/api/schema/", "openapi"), ("/api/schema/socket/", "$defs")):
        with urllib.request.urlopen(f"{live_site}{path}", timeout=30) as response:
            assert response.status == 200 and response.headers["Content-Type"] == "application/json"
            assert key in json.loads(response.read())
