"""No frame sent to a seat ever shows another seat's hidden cards, and no frame
sent to a spectator shows a hand — over both transports, through whole games.

Two humans play random legal moves through their sockets, bots fill the other
seats, a spectator watches, and the clock is skipped ahead instead of waited
for. Every frame is then checked against ``hidden_cards`` of the state at the
version the frame carries (replayed from the log), with ``games.core.viewcheck``.
"""
import json
import random
import re

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from games.core.registry import all_games, get_game
from games.core.viewcheck import cards_in_html, cards_in_view
from pigparlor.tables import services
from pigparlor.tables.models import FINISHED, ActionLog
from tests.support.sockets import db, frame_version, open_socket, until, up_to
from tests.support.tables import make_user, next_step, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MARKER = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')


def has_template(game) -> bool:
    try:
        get_template(game.table_template)
    except TemplateDoesNotExist:
        return False
    return True


REGISTERED = [game.slug for game in all_games()]
WITH_PAGES = [game.slug for game in all_games() if has_template(game)]


def hidden_by_version(table_id: int, viewers) -> dict[int, dict]:
    """{version: {viewer: hidden card ids}} for every version of a table, by one replay."""
    current = table(table_id)
    engine = get_game(current.game).engine
    state = engine.start(current.seats, current.deal_seed, current.options)
    hidden = {1: {viewer: engine.hidden_cards(state, viewer) for viewer in viewers}}
    for entry in ActionLog.objects.filter(table=current).order_by("version"):
        state = engine.apply(state, entry.seat, entry.action, entry.at_ms - current.started_at_ms)
        hidden[entry.version] = {viewer: engine.hidden_cards(state, viewer) for viewer in viewers}
    return hidden


async def play_whole_game(slug: str, seed: int = 1, transports=(True, False)):
    """One whole game watched over both transports at once: each viewer (seats 0 and 1, a
    spectator) has a JSON socket and a browser socket; a human acts through either."""
    engine = get_game(slug).engine
    seats = min(max(engine.min_seats, 3), engine.max_seats)
    ana, ben, carl = [await db(make_user)(name) for name in ("ana", "ben", "carl")]
    created = await db(services.create_table)(host=ana, game=slug, seats=seats, bots=seats - 2)
    await db(services.join_table)(created, ben)
    users = {0: ana, 1: ben, None: carl}
    sockets = {(viewer, api): await open_socket(user, created.pk, api=api)
               for viewer, user in users.items() for api in transports}
    rng = random.Random(seed)
    frames: dict = {key: [] for key in sockets}
    for _ in range(5000):
        step = await db(next_step)(created.pk, rng)
        if step is None:
            break
        if step != "clock":
            seat, version, action = step
            key = (seat, rng.choice(transports))
            if key[1]:
                await sockets[key].send_json_to({"type": "act", "version": version, "action": action})
            else:
                await sockets[key].send_to(text_data=json.dumps({"version": str(version), "action": json.dumps(action)}))
            # The act landed (or, in real time, came too late and was refused): look again from there.
            frames[key] += await until(sockets[key], lambda got, version=version: any(
                (frame_version(frame) or 0) > version or '"type": "error"' in frame or 'data-code="' in frame
                for frame in got))
    final = (await db(table)(created.pk)).version
    for key, socket in sockets.items():
        frames[key] += await up_to(socket, final, frames[key])
    for socket in sockets.values():
        await socket.disconnect()
    assert (await db(table)(created.pk)).status == FINISHED
    return created.pk, frames


def check_frames(hidden, frames, api: bool) -> int:
    """Assert no frame leaks; returns how many frames showed their viewer some card."""
    showing = 0
    for viewer, texts in frames.items():
        assert texts, f"viewer {viewer} got no frames"
        for text in texts:
            if api:
                frame = json.loads(text)
                if frame["type"] != "state":
                    continue
                version, cards = frame["version"], cards_in_view(frame)
            else:
                marker = MARKER.search(text)
                if marker is None:
                    assert not cards_in_html(text)
                    continue
                version, cards = int(marker.group(1)), cards_in_html(text)
            assert not cards & hidden[version][viewer], (viewer, version, cards & hidden[version][viewer])
            showing += bool(cards)
    return showing


@pytest.mark.parametrize("slug", ["countgame", *REGISTERED])
async def test_no_frame_shows_hidden_cards_on_either_transport(count_game, slug):
    transports = (True, False) if slug in ["countgame", *WITH_PAGES] else (True,)
    table_id, frames = await play_whole_game(slug, transports=transports)
    hidden = await db(hidden_by_version)(table_id, [0, 1, None])
    for api in transports:
        shown = check_frames(hidden, {viewer: got for (viewer, on_api), got in frames.items() if on_api == api}, api=api)
        assert shown > 0, f"no {'JSON' if api else 'HTML'} frame showed a card"
