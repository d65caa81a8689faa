"""A press is not lost to a frame that replaces its control, on every live part of the site.

Each test puts the mouse down on a control, then a frame replaces the control's part at once
(as when nothing holds frames back: Oink!, or a press longer than the hold), then lets the
mouse up: the press must still do what the control does, the first time (site.js clicks the
control's twin). No test presses twice."""
import pytest

from tests.support.browser import (
    create_table,
    press_down,
    replace_part,
    sign_up,
    version,
    wait_for_first_frame,
    wait_for_table_page,
)

pytestmark = pytest.mark.browser


def test_a_table_control_replaced_under_the_mouse_still_acts(live_site, page):
    sign_up(page, live_site)
    create_table(page, live_site, "piggypiggy", seats=2, bots=1)
    end = page.locator("#pg-prompt.is-yours .pg-end button")
    end.wait_for()  # the newcomer's turn (the bot moves at once when it starts)
    before = version(page)
    press_down(page, end)
    replace_part(page, "#pg-prompt")
    assert page.evaluate("() => document.querySelector('#pg-prompt').dataset.twin") == "1"
    page.mouse.up()
    page.wait_for_function("([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
                           " || document.querySelector('#table-error[data-code]') !== null", arg=[before])
    assert page.locator("#table-error[data-code]").count() == 0
    assert "ran out of time" not in page.locator("#table-log").inner_text()  # the press ended the step


def test_a_listing_join_replaced_under_the_mouse_still_joins(live_site, context_factory):
    host, guest = context_factory().new_page(), context_factory().new_page()
    sign_up(host, live_site)
    guest_name = sign_up(guest, live_site)
    table_id = create_table(host, live_site, "pigpile", seats=4, bots=0)
    guest.goto(f"{live_site}/games/pigpile/")
    wait_for_first_frame(guest)
    join = guest.locator(f'#lobby-listing button[hx-post="/lobby/tables/{table_id}/join/"]')
    press_down(guest, join)
    replace_part(guest, "#lobby-listing")
    guest.mouse.up()
    guest.wait_for_url(f"**/lobby/tables/{table_id}/")  # the tap landed: the guest is in the waiting room
    host.locator(".seat-list__seat", has_text=guest_name).wait_for()


def test_a_waiting_room_start_replaced_under_the_mouse_still_starts(live_site, page):
    sign_up(page, live_site)
    create_table(page, live_site, "pigpile", seats=4, bots=0)
    wait_for_first_frame(page)
    press_down(page, page.get_by_role("button", name="Start now with 3 bots"))
    replace_part(page, "#waiting-room")
    page.mouse.up()
    wait_for_table_page(page)


# The page's table socket reports "connecting" (and its open event waits) until the test lets it
# open: a slow connection at the moment a player taps on a page just loaded.
HOLD_TABLE_SOCKET = """(function () {
  var Real = window.WebSocket;
  var readyState = Object.getOwnPropertyDescriptor(Real.prototype, "readyState").get;
  var waiting = [];
  window.__socketsHeld = true;
  window.__releaseSockets = function () {
    window.__socketsHeld = false;
    waiting.splice(0).forEach(function (open) { open(); });
  };
  function Held(url, protocols) {
    var socket = new Real(url, protocols);
    if (String(url).indexOf("/ws/tables/") < 0) { return socket; }
    var onopen = null;
    Object.defineProperty(socket, "readyState", {get: function () {
      var state = readyState.call(socket);
      return state === Real.OPEN && window.__socketsHeld ? Real.CONNECTING : state;
    }});
    Object.defineProperty(socket, "onopen", {set: function (f) { onopen = f; }, get: function () { return onopen; }});
    socket.addEventListener("open", function (event) {
      var open = function () { if (onopen) { onopen(event); } };
      if (window.__socketsHeld) { waiting.push(open); } else { open(); }
    });
    return socket;
  }
  Held.prototype = Real.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Held[name] = Real[name]; });
  window.WebSocket = Held;
})();"""


def test_a_move_made_before_the_table_socket_first_opens_is_sent_when_it_opens(live_site, page):
    sign_up(page, live_site)
    create_table(page, live_site, "piggypiggy", seats=2, bots=1)
    page.locator("#pg-prompt.is-yours .pg-end button").wait_for()  # the newcomer's turn
    page.context.add_init_script(HOLD_TABLE_SOCKET)
    page.reload()
    end = page.locator("#pg-prompt.is-yours .pg-end button")
    end.wait_for()
    assert page.evaluate("() => window.__socketsHeld") is True
    before = version(page)
    end.click()  # queued by the socket, which is still connecting
    page.evaluate("() => window.__releaseSockets()")
    page.wait_for_function("([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
                           " || document.querySelector('#table-error[data-code]') !== null", arg=[before])
    assert page.locator("#table-error[data-code]").count() == 0
    assert "ran out of time" not in page.locator("#table-log").inner_text()  # the tap ended the step
