"""The games' own controls as a player meets them on a 390×844 phone and a 1280×800 desktop:
Pig Pile's face-up choice by tapping three cards (and by keyboard), plays by tapping a
number's cards; Piggy Piggy's food plays tap-to-choose then tap again or "Play"; a Cancel
button for the goat on phones; seats named by the bot level picked at creation; the phase
named when nobody in particular is to move; announcements without "..".

Screenshots of every game at both sizes go to ``$PIGPARLOR_SCREENSHOTS`` (default
<tmp>/pigparlor-screenshots/games-<game>-<size>.png) for a person to look at.
"""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.test_piggypiggy_browser import (
    FINAL,
    MY_MOVE,
    a_seed_dealing_a_goat_to_seat_0,
    after,
    answer_the_prompt,
    play_food,
    start_piggypiggy_table_with_bots,
)
from tests.support.browser import (
    DESKTOP,
    IPHONE,
    create_table,
    horizontal_overflow,
    shoot,
    sign_up,
    version,
)

pytestmark = pytest.mark.browser


def phone(context_factory):
    return context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()


def no_double_stops(page) -> None:
    assert ".." not in page.locator("#table-announce").text_content()


def test_pigpile_face_up_choice_by_taps_and_plays_by_tapping_the_cards_on_a_phone(live_site, context_factory):
    page = phone(context_factory)
    sign_up(page, live_site)
    create_table(page, live_site, "pigpile", seats=4, bots=3, level="Easy")
    players = page.locator("#table-players").inner_text()
    assert "Easy bot 2" in players and "Easy bot 4" in players

    # PP1 by taps: no list of combinations, a toggle per hand card.
    expect(page.locator("#table-turn")).to_contain_text("Everyone chooses three cards to lay face up")
    assert page.locator(".pp-choice").count() == 0
    toggles = page.locator("#pp-hand .pp-toggle")
    assert toggles.count() == 7
    confirm = page.locator("#pp-prompt .pp-faceup button[type=submit]")
    expect(confirm).to_be_disabled()
    toggles.nth(0).click()
    toggles.nth(1).click()
    expect(confirm).to_have_text("Tap 1 more card")
    toggles.nth(1).click()  # tap again to undo
    expect(toggles.nth(1)).to_have_attribute("aria-pressed", "false")
    for index in (2, 3):
        toggles.nth(index).click()
    toggles.nth(4).click()  # a fourth is refused, with a hint
    expect(toggles.nth(4)).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".pp-faceup__hint")).to_contain_text("put it back")
    chosen = sorted(toggles.nth(index).get_attribute("data-value") for index in (0, 2, 3))
    expect(confirm).to_be_enabled()
    expect(confirm).to_have_text(re.compile(r"^Lay .+, .+ and .+ face up$"))
    assert horizontal_overflow(page) == 0
    shoot(page, "games-pigpile-choose-390", near="#pp-hand")
    before = version(page)
    confirm.click()
    page.wait_for_function("([v]) => Number(document.querySelector('#table-version').dataset.version) > v",
                           arg=[before])
    face_up = page.locator("#pp-me .card[data-card]")
    expect(face_up).to_have_count(3)
    ranks = sorted("0" if rank == "W" else rank for rank in
                   (face_up.nth(index).get_attribute("data-rank") for index in range(3)))
    assert ranks == chosen

    # Plays: tap the number's cards, then how many; each control names its cards.
    page.wait_for_selector("#pp-hand .pp-pick, #pp-prompt .pp-pickup button", timeout=30_000)
    if page.locator("#pp-hand .pp-pick").count() == 0:
        pytest.fail("the first turn offered nothing to play from the hand")
    pick = page.locator("#pp-hand .pp-pick").first
    name = pick.locator(":scope > .visually-hidden").inner_text()  # its name: its cards are hidden from screen readers
    assert re.match(r"^Play (a |an |a Hog Wild|\d+s: you have \d|Hog Wilds: you have \d)", name), name
    pick.click()
    expect(pick).to_have_attribute("aria-expanded", "true")
    panel = page.locator("#" + pick.get_attribute("aria-controls"))
    counts = panel.locator(".pp-count button")
    labels = counts.all_inner_texts()
    assert labels and all(re.match(r"^Play (a|an|two|three|four|five|six|\d+) ", label) for label in labels), labels
    assert "Play 1" not in labels
    shoot(page, "games-pigpile-play-390", near="#pp-hand")
    page.keyboard.press("Escape")  # cancels, focus back on the cards
    expect(panel).to_be_hidden()
    expect(pick).to_be_focused()
    pick.click()
    page.get_by_role("button", name="Cancel").click()
    expect(panel).to_be_hidden()
    pick.click()
    after(page, counts.first.click)
    expect(page.locator("#table-log")).to_contain_text("played")
    no_double_stops(page)


def test_pigpile_face_up_choice_by_keyboard_on_a_desktop(live_site, context_factory):
    page = context_factory(viewport=DESKTOP).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, "pigpile", seats=3, bots=2)
    assert "Sensible bot 2" in page.locator("#table-players").inner_text()  # the default level
    toggles = page.locator("#pp-hand .pp-toggle")
    toggles.first.focus()
    page.keyboard.press("Space")
    for _ in range(2):
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    pressed = [toggles.nth(index).get_attribute("aria-pressed") for index in range(7)]
    assert pressed == ["true"] * 3 + ["false"] * 4
    # A frame redraws the hand (here a full snapshot, as the socket's first frame
    # does): the focus stays on the same card and the choice stays made.
    expect(toggles.nth(2)).to_be_focused()
    page.evaluate("""() => {
        document.getElementById("table-version").dataset.old = "1";
        document.getElementById("table-socket")["htmx-internal-data"].webSocket.send(JSON.stringify({type: "snapshot"}));
    }""")
    page.wait_for_function("() => !document.getElementById('table-version').dataset.old")
    expect(toggles.nth(2)).to_be_focused()
    assert [toggles.nth(index).get_attribute("aria-pressed") for index in range(7)] == pressed
    shoot(page, "games-pigpile-choose-1280")
    confirm = page.locator("#pp-prompt .pp-faceup button[type=submit]")
    confirm.focus()
    after(page, lambda: page.keyboard.press("Enter"))
    expect(page.locator("#pp-me .card[data-card]")).to_have_count(3)
    page.wait_for_selector("#pp-hand .pp-pick, #pp-prompt .pp-pickup button", timeout=30_000)
    shoot(page, "games-pigpile-1280")


def test_piggypiggy_food_is_tap_to_choose_then_tap_again_and_the_goat_has_a_cancel_button(
        live_site, context_factory):
    page = phone(context_factory)
    sign_up(page, live_site)
    start_piggypiggy_table_with_bots(live_site, page, a_seed_dealing_a_goat_to_seat_0())
    page.wait_for_selector(MY_MOVE, timeout=30_000)
    food = page.locator("#pg-hand .pg-food").first
    food.wait_for()
    label = food.locator(":scope > .visually-hidden").inner_text()  # its name: the cards inside are hidden from screen readers
    assert re.match(r"^Play \d+ \S+: tap to choose, again to play$", label), label
    before = version(page)
    food.click()
    expect(food).to_have_attribute("aria-pressed", "true")
    commit = page.locator("#pg-hand .pg-commit:not([hidden])")
    expect(commit.locator(".pg-play button")).to_be_visible()
    assert version(page) == before  # one tap sends nothing
    shoot(page, "games-piggypiggy-390", near="#pg-hand")
    commit.get_by_role("button", name="Cancel").click()
    expect(food).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#pg-hand .pg-commit:not([hidden])")).to_have_count(0)
    food.click()
    after(page, food.click)  # the second tap plays it
    expect(page.locator("#table-log")).to_contain_text("played")
    log = page.locator("#table-log").inner_text()
    assert not re.search(r"\bplayer \d", log) and "{seat:" not in log
    no_double_stops(page)
    # The goat (dealt to this seat by the seed), once another stack gives it a target: on a
    # phone a Cancel button, and no "Esc" words.
    for _ in range(15):
        page.wait_for_selector(f"{MY_MOVE}, {FINAL}", timeout=30_000)
        if page.locator(FINAL).count() or page.locator("#pg-hand .pg-goat-toggle").count():
            break
        if page.locator("#pg-prompt .pg-add").count():
            answer_the_prompt(page)
        elif page.locator("#pg-hand .pg-food").count():
            play_food(page, twice=False)
        else:
            after(page, page.locator("#pg-prompt .pg-end button").click)
    page.locator("#pg-hand .pg-goat-toggle").first.click()
    hint = page.locator(".pg-goat-hint")
    expect(hint).to_be_visible()
    expect(hint.locator(".pg-keys")).to_be_hidden()
    shoot(page, "games-piggypiggy-goat-390", near="#pg-prompt")
    hint.get_by_role("button", name="Cancel").click()
    expect(hint).to_be_hidden()


def test_piggypiggy_on_a_desktop_plays_food_with_the_keyboard(live_site, context_factory):
    page = context_factory(viewport=DESKTOP).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, "piggypiggy", seats=3, bots=2, level="Easy")
    page.wait_for_selector(f"{MY_MOVE}, #pg-results h2", timeout=30_000)
    food = page.locator("#pg-hand .pg-food").first
    if food.count():
        food.focus()
        page.keyboard.press("Enter")
        expect(food).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Escape")
        expect(food).to_have_attribute("aria-pressed", "false")
        expect(food).to_be_focused()
        page.keyboard.press("Enter")
        after(page, lambda: page.keyboard.press("Enter"))
    shoot(page, "games-piggypiggy-1280")


@pytest.mark.parametrize("size", ["390", "1280"])
def test_oink_hard_bots_are_named_by_level_and_slaps_stay_one_tap(live_site, context_factory, size):
    page = phone(context_factory) if size == "390" else context_factory(viewport=DESKTOP).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, "oink", seats=3, bots=2, level="Hard")
    players = page.locator("#table-players").inner_text()
    assert "Hard bot 2" in players and "Hard bot 3" in players
    # Never a confirm on a slap: each cry is a button of the one ws-send form.
    expect(page.locator("#ok-cries button.ok-cry")).to_have_count(7)
    assert page.locator("#ok-cries[ws-send]").count() == 1
    page.wait_for_function("() => document.querySelectorAll('#table-log li').length > 2", timeout=30_000)
    shoot(page, f"games-oink-{size}", near="#ok-cries")


@pytest.mark.parametrize("size", ["390", "1280"])
def test_snout_names_its_phases_counts_points_and_asks_before_a_snout_call(live_site, context_factory, size):
    page = phone(context_factory) if size == "390" else context_factory(viewport=DESKTOP).new_page()
    name = sign_up(page, live_site)
    create_table(page, live_site, "snout", seats=3, bots=2, level="Easy", ticks=["opt_early_snout"])
    expect(page.locator("#table-turn")).to_contain_text("Everyone chooses three cards to pass")
    expect(page.locator("#table-turn")).not_to_contain_text("Play on")
    assert "Easy bot 2" in page.locator("#table-players").inner_text()
    deadline = time.monotonic() + 180  # a safety net only: the pig reaches a Snout! window
    label, games = None, 0
    while True:
        assert time.monotonic() < deadline, "no Snout! window for this seat"
        page.wait_for_selector("#sn-prompt.is-yours button, #sn-hand .sn-pass button:not([disabled]),"
                               " #table-status .standings", timeout=30_000)
        snout = page.locator("#sn-prompt .sn-act--snout button")
        if snout.count():
            try:  # on a busy machine the window may close before the tap lands: then wait for the next
                text = snout.inner_text(timeout=5_000)
                if text != "Sure? Tap again to call Snout!" or label is None:
                    # (armed already: the tap landed after its check gave up; never tap again, that calls it)
                    label = text
                    expect(page.locator("#table-turn")).to_contain_text(
                        re.compile("Anyone may call Snout! now|’s turn"), timeout=5_000)
                    snout.click(timeout=5_000)  # the light confirm: nothing is sent yet
                    expect(snout).to_have_text("Sure? Tap again to call Snout!", timeout=5_000)
            except (PlaywrightError, AssertionError):
                continue
            assert re.match(r"^Snout! \(\d+ points? in hand\)$", label)
            assert f"{name} called Snout!" not in page.locator("#table-log").inner_text()
            shoot(page, f"games-snout-{size}", near="#sn-prompt")
            try:
                after(page, lambda: page.get_by_role("button", name="Play on").click(timeout=5_000))
                break
            except PlaywrightError:
                # The window is the rules' real time (S10, 6 s): on a busy machine it may close
                # before "Play on" is tapped; then the next window is taken the same way.
                continue
        if page.locator("#table-status .standings").count():
            # The deal decides whether this seat ever gets a window: some games end first
            # (the bots' Snout! calls); then play another game.
            games += 1
            assert games < 6, "five games ended before a Snout! window for this seat"
            create_table(page, live_site, "snout", seats=3, bots=2, level="Easy", ticks=["opt_early_snout"])
            continue
        # Never the Snout! button: a window that opened since the check above would be armed
        # here without its label being read (seen once in a full run).
        offered = page.locator("#sn-hand .sn-pass button:not([disabled]),"
                               " #sn-prompt.is-yours button:not(.sn-act--snout *)").first
        if snout.count():
            continue  # a window opened meanwhile: take it above, not "Play on" here
        try:
            after(page, offered.click)
        except PlaywrightError:
            continue  # swapped away by a newer frame: look again
    assert f"{name} called Snout!" not in page.locator("#table-log").inner_text()
    no_double_stops(page)
    if size == "390":
        assert horizontal_overflow(page) == 0
