"""Issue 28, items 5, 6 and 8, as players meet them in Chromium at 390x844 and 1280x800:
the hand and the action buttons in view on your move (docked at the bottom edge), the
last move's badge clear of every seat's name, the chat as a drawer with an unread count
on a phone, the notifications menu bringing a rematch offer to the other player, and the
desktop table in two columns with every page lined up under the header."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_play_feel_browser import DESKTOP, IPHONE, create_table, shoot
from tests.games.oink.helpers import near_the_end
from tests.support.browser import leave, sign_up, wait_for_first_frame, wait_for_table_page, wait_until_over

pytestmark = pytest.mark.browser

# Read in one task of the page (frames keep replacing the parts while bots play): from the
# top of the page, where the hand and the action button are, and the viewport's height.
IN_VIEW = """([hand, action]) => {
    window.scrollTo(0, 0);
    const box = selector => { const found = document.querySelector(selector);
        if (!found) { return null; } const r = found.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
    const docked = [...document.getElementById('table-socket').children]
        .filter(part => getComputedStyle(part).position === 'sticky' && getComputedStyle(part).top === 'auto' && part.offsetHeight > 0)
        .map(part => { const r = part.getBoundingClientRect(); return [part.id, r.top, r.bottom, part.hasAttribute('style')]; });
    return {yours: document.getElementById('table-turn').dataset.yourMove, height: window.innerHeight,
            hand: box(hand), action: box(action), docked: docked}; }"""

# Every last-move badge against every seat name on the board: the boxes that overlap.
BADGES_OVER_NAMES = """() => {
    const names = [...document.querySelectorAll('#table-socket [class$="seat__name"]')];
    const badges = [...document.querySelectorAll('#table-socket .last-move')];
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return {badges: badges.length, overlaps: badges.flatMap(badge => names
        .filter(name => overlap(badge.getBoundingClientRect(), name.getBoundingClientRect()))
        .map(name => badge.textContent + ' over ' + name.textContent.trim()))}; }"""

HANDS = {"pigpile": ("#pp-hand", "#pp-prompt button"), "snout": ("#sn-hand", "#sn-hand .sn-pass button")}


@pytest.mark.parametrize("size", [IPHONE, DESKTOP], ids=["390", "1280"])
@pytest.mark.parametrize("game", ["pigpile", "snout"])
def test_on_your_move_the_hand_and_its_button_are_in_view_and_no_badge_covers_a_name(
        live_site, context_factory, game, size):
    phone = size == IPHONE
    page = context_factory(viewport=size, is_mobile=phone, has_touch=phone).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, game)
    hand, action = HANDS[game]
    # The first move of both games is everyone's (three cards face up; three cards to pass).
    page.locator('#table-turn[data-your-move="true"]').wait_for()
    page.locator(action).first.wait_for()
    seen = page.evaluate(IN_VIEW, [hand, action])
    assert seen["yours"] == "true", seen
    for part in ("hand", "action"):
        box = seen[part]
        assert box is not None and box["top"] >= 0 and box["bottom"] <= seen["height"] + 1, (part, seen)
    # The docked parts stack, none over another, their offsets in the page's own stylesheet:
    # no style attribute (htmx would copy it to the next frame's part, an inline style the CSP blocks).
    docked = sorted(seen["docked"], key=lambda part: part[1])
    assert len(docked) >= 2 and not any(part[3] for part in docked), docked
    assert all(upper[2] <= lower[1] + 1 for upper, lower in zip(docked, docked[1:])), docked
    page.locator("#table-socket .last-move").first.wait_for()  # a bot has moved: its seat wears the badge
    badges = page.evaluate(BADGES_OVER_NAMES)
    assert badges["badges"] >= 1 and badges["overlaps"] == [], badges
    shoot(page, f"dock-{game}-{size['width']}")


def test_on_a_phone_the_chat_is_a_drawer_that_counts_what_you_have_not_read(live_site, context_factory):
    ana = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(ana, live_site)
    table_id = create_table(ana, live_site, "piggypiggy")
    wait_for_first_frame(ana)
    expect(ana.locator("#chat")).to_be_hidden()  # folded away: the board has the screen
    toggle = ana.get_by_role("button", name=re.compile(r"^Chat"))
    expect(toggle).to_have_attribute("aria-expanded", "false")

    bea = context_factory(viewport=DESKTOP).new_page()
    sign_up(bea, live_site)
    bea.goto(f"{live_site}/tables/{table_id}/")  # watching, and chatting
    expect(bea.locator("#chat")).to_be_visible()  # a desktop shows it in the side column
    wait_for_first_frame(bea)  # the socket is open: a line sent before that is dropped with its queue
    bea.get_by_role("button", name="Hello!").click()
    bea.get_by_role("button", name="Good game").click()

    unread = ana.locator("#chat-unread")
    expect(unread).to_have_text("2 new")
    expect(toggle).to_have_accessible_name("Chat 2 new")
    toggle.click()
    drawer = ana.locator("#chat")
    expect(drawer).to_be_visible()
    expect(drawer.locator(".chat-line")).to_have_count(2)
    expect(unread).to_be_hidden()
    box = ana.evaluate("() => { const r = document.getElementById('chat').getBoundingClientRect();"
                       " return [r.bottom, window.innerHeight, r.left, r.right, window.innerWidth]; }")
    assert abs(box[0] - box[1]) <= 1 and box[2] <= 1 and abs(box[3] - box[4]) <= 1, box  # the bottom sheet
    shoot(ana, "chat-drawer-390")
    ana.keyboard.press("Escape")
    expect(drawer).to_be_hidden()
    expect(toggle).to_be_focused()
    bea.get_by_role("button", name="Thanks").click()
    expect(unread).to_have_text("1 new")
    ana.reload()  # what was read stays read
    expect(ana.locator("#chat-unread")).to_have_text("1 new")


def test_the_other_player_finds_the_rematch_offer_in_the_notifications_menu(live_site, context_factory):
    ana = context_factory(viewport=DESKTOP).new_page()
    bea = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    ana_name, bea_name = sign_up(ana, live_site), sign_up(bea, live_site)
    ana.goto(f"{live_site}/games/oink/")
    ana.select_option("select[name=seats]", "2")
    ana.fill("input[name=bots]", "0")
    ana.fill("input[name=opt_reveal_gap_ms]", "500")  # the quickest Oink! the rules allow
    ana.get_by_role("button", name="Create table").click()
    ana.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", ana.url).group(1))
    bea.goto(f"{live_site}/lobby/tables/{table_id}/")
    bea.get_by_role("button", name="Take a seat").click()
    for page in (ana, bea):
        wait_for_table_page(page)
    live_site.edit_state(table_id, near_the_end())  # the ending is not what this test looks at
    for page in (ana, bea):
        leave(page, table_id)
    wait_until_over(ana, live_site, table_id)

    bea.goto(f"{live_site}/")  # somewhere else on the site
    bell = bea.locator("#inbox-button")
    expect(bea.locator("#inbox-count")).to_be_hidden()
    ana.goto(f"{live_site}/tables/{table_id}/")
    ana.get_by_role("button", name="Play again").click()
    ana.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    rematch_id = int(re.search(r"/tables/(\d+)/", ana.url).group(1))
    expect(ana.locator(".seat-list")).to_contain_text(f"{bea_name} is still deciding")

    expect(bea.locator("#inbox-count")).to_have_text("1 waiting")  # live, over the player socket
    bell.click()
    expect(bell).to_have_attribute("aria-expanded", "true")
    offer = bea.locator('#inbox-panel [data-kind="rematch"]')
    expect(offer).to_contain_text(f"{ana_name} offers a rematch")
    box = bea.evaluate("() => { const r = document.getElementById('inbox-panel').getBoundingClientRect();"
                       " return [r.left, r.right, window.innerWidth]; }")
    assert box[0] >= 0 and box[1] <= box[2], box  # the menu fits the phone
    shoot(bea, "inbox-rematch-390")
    offer.get_by_role("button", name="Play again").click()
    for page in (ana, bea):
        wait_for_table_page(page)
        assert page.url.endswith(f"/tables/{rematch_id}/")
        expect(page.locator("#table-players")).to_contain_text(bea_name)
    expect(bea.locator("#inbox-count")).to_be_hidden()  # answered: nothing waits any more


# One page.evaluate: the boxes that make the desktop table, and the header's left edge.
DESKTOP_BOXES = """() => {
    const box = selector => { const r = document.querySelector(selector).getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
    return {brand: box('.brand'), title: box('main h1'), turn: box('#table-turn'), log: box('#table-log'),
            chat: box('#chat'), card: box('#sn-hand .card'), header: box('.site-header__inner')}; }"""


def test_a_desktop_table_has_two_columns_and_every_page_lines_up_with_the_header(live_site, context_factory):
    page = context_factory(viewport=DESKTOP).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, "snout")
    page.locator("#sn-hand .card").first.wait_for()
    boxes = page.evaluate(DESKTOP_BOXES)
    assert abs(boxes["title"]["left"] - boxes["brand"]["left"]) <= 1, boxes  # "Table 17" under the logo
    assert boxes["turn"]["width"] >= 600, boxes  # the board has the width
    assert boxes["log"]["left"] >= boxes["turn"]["right"] + 10, boxes  # a side column
    assert abs(boxes["chat"]["left"] - boxes["log"]["left"]) <= 1 and boxes["chat"]["top"] >= boxes["log"]["bottom"], boxes
    assert boxes["chat"]["right"] <= boxes["header"]["right"] + 1, boxes
    assert boxes["card"]["width"] >= 64, boxes  # larger cards than a phone's 46 px
    shoot(page, "desktop-snout-1280")

    table_path = page.url.removeprefix(live_site)
    for path in ("/", "/games/snout/", "/games/snout/rules/", "/tournaments/", "/your-tables/", "/profile/",
                 "/accounts/password/change/", table_path):
        page.goto(f"{live_site}{path}")
        edges = page.evaluate("""() => [document.querySelector('.brand').getBoundingClientRect().left,
            document.querySelector('main > :not(.messages)').getBoundingClientRect().left]""")
        assert abs(edges[0] - edges[1]) <= 1, (path, edges)

    page.goto(f"{live_site}/games/snout/")  # the lobby: tables on the left, a new table on the right
    columns = page.evaluate("""() => [document.querySelector('.lobby-live').getBoundingClientRect(),
        document.getElementById('new-table').getBoundingClientRect()].map(r => [r.left, r.right, r.top])""")
    (live_left, live_right, live_top), (new_left, _, new_top) = columns
    assert new_left > live_right and abs(new_top - live_top) <= 2, columns
