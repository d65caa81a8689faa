"""The closed set of refusals every door answers with (design.md, the JSON protocol)."""

BAD_REQUEST, STALE, ILLEGAL, FORBIDDEN, NOT_FOUND = "bad_request", "stale", "illegal", "forbidden", "not_found"
# Too much at once from one user (sockets, tables): try again later.
RATE_LIMITED = "rate_limited"
CODES = (BAD_REQUEST, STALE, ILLEGAL, FORBIDDEN, NOT_FOUND, RATE_LIMITED)


class TableError(Exception):
    def __init__(self, code: str, message: str):
        assert code in CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def as_json(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message}
