"""The closed set of refusals every door answers with (design.md, the JSON protocol)."""

BAD_REQUEST, STALE, ILLEGAL, FORBIDDEN, NOT_FOUND = "bad_request", "stale", "illegal", "forbidden", "not_found"
# Too much at once from one user (sockets, tables): try again later.
RATE_LIMITED = "rate_limited"
CODES = (BAD_REQUEST, STALE, ILLEGAL, FORBIDDEN, NOT_FOUND, RATE_LIMITED)
# The refusal of a move at a table that is over (finished, or closed by a moderator); the
# table page shows it as a sentence (the protocol's messages are lower case, docs/api.md).
GAME_OVER = "the game is over"
GAME_OVER_SENTENCE = "The game is over."


class TableError(Exception):
    """A refusal. ``retry_after_s``, when known, is how long until the same
    request could succeed (HTTP's ``Retry-After``)."""

    def __init__(self, code: str, message: str, *, retry_after_s: int | None = None):
        assert code in CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after_s = retry_after_s

    def as_json(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message}
