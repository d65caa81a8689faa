"""Every page a player meets passes axe-core with no serious or critical violation, on a phone
and on a laptop: the home page, each game's lobby and rules, signing in and up, a live table of
each of the four games, a replay, the profile, your tables, the tournaments and one
tournament. A visitor's pages log no error or warning on the console either.

axe-core is pinned in tests/e2e/axe/package.json and installed there by ``make test`` (never
served to users); Playwright evaluates it in each page (DevTools evaluation, which the
site's Content Security Policy does not govern)."""
from __future__ import annotations

import random

import pytest

from tests.api.test_e2e_serve import http, play_to_the_end
from tests.conftest import ROOT
from tests.support.browser import create_table_by_api, sign_up, wait_for_first_frame
from tests.tournaments.programs import iso_in, make_accounts, token_for

pytestmark = pytest.mark.browser

AXE = ROOT / "tests" / "e2e" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ["oink", "pigpile", "piggypiggy", "snout"]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " :: " + n.failureSummary.replace(/\\s+/g, " "))}));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: `make test` installs axe-core (tests/e2e/axe/package.json)")
    return AXE.read_text()


# READ_STILL: the pages run with reduced motion (which the site honours: animations take
# 0.01 ms), so axe reads each colour as it rests, not a log line or a card half-way
# through fading in while bots play (a 4.25:1 mid-fade read as a failure).


def violations(page, axe_source: str) -> list[dict]:
    """axe's serious and critical violations on the page as it stands."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source)
    found = page.evaluate(RUN_AXE)
    for rule in found:
        if rule["impact"] not in ("serious", "critical"):
            print(f"{page.url} ({rule['impact']}): {rule['id']}: {rule['nodes']}")
    return [rule for rule in found if rule["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def finished_table(live_site) -> int:
    token = live_site.manage("api_token", "axe-replayer", "--create")
    status, created = http(live_site, "POST", "/api/tables/", token, {"game": "snout", "seats": 2, "bots": 1})
    assert status == 201, created
    play_to_the_end(live_site, token, created["ws"], random.Random(11))
    return created["id"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_visitors_pages_have_no_serious_violation_and_a_quiet_console(live_site, context_factory, axe_source,
                                                                         viewport):
    context = context_factory(viewport=viewport, reduced_motion="reduce")  # see READ_STILL
    said = []
    context.on("console", lambda message: message.type in ("error", "warning")
               and said.append(f"{message.page.url if message.page else '?'}: {message.text}"))
    page = context.new_page()
    paths = ["/", *[f"/games/{slug}/" for slug in GAMES], *[f"/games/{slug}/rules/" for slug in GAMES],
             "/accounts/login/", "/accounts/signup/", "/tournaments/"]
    failed = {}
    for path in paths:
        page.goto(f"{live_site}{path}")
        if path.startswith("/games/") and not path.endswith("/rules/"):
            wait_for_first_frame(page)  # the lobby socket's first frame, where a missing target would show
        failed.update({f"{path} {rule['id']}": rule for rule in violations(page, axe_source)})
    assert not failed, "\n".join(f"{where}: {rule['help']}: {rule['nodes']}" for where, rule in failed.items())
    assert not said, said  # e.g. htmx:oobErrorNoTarget, or a Permissions-Policy feature Chromium does not know


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_players_pages_and_a_live_table_of_each_game_have_no_serious_violation(
        live_site, context_factory, axe_source, finished_table, viewport):
    page = context_factory(viewport=viewport, reduced_motion="reduce").new_page()  # see READ_STILL
    username = sign_up(page, live_site)
    token = token_for(live_site, username)
    tables = {slug: create_table_by_api(live_site, token, slug, seats=3, bots=2) for slug in GAMES}
    staff, _ = make_accounts(live_site, 0)
    status, tournament = http(live_site, "POST", "/api/tournaments/", staff, {
        "name": "Accessible cup", "starts_at": iso_in(3600), "capacity": {"min": 2, "max": 8},
        "stages": [{"game": "snout", "format": "elimination", "table_size": 2, "advance": 1}]})
    assert status == 201, tournament
    failed = {}
    for slug, table_id in tables.items():
        page.goto(f"{live_site}/tables/{table_id}/")
        wait_for_first_frame(page)
        failed.update({f"{slug} table {rule['id']}": rule for rule in violations(page, axe_source)})
    for path in (f"/tables/{finished_table}/replay/", "/profile/", "/your-tables/", "/tournaments/",
                 f"/tournaments/{tournament['id']}/"):
        page.goto(f"{live_site}{path}")
        failed.update({f"{path} {rule['id']}": rule for rule in violations(page, axe_source)})
    assert not failed, "\n".join(f"{where}: {rule['help']}: {rule['nodes']}" for where, rule in failed.items())
