"""The API's published schemas (pigparlor/api/schema.py) as validators for tests: an HTTP
answer against its operation's documented response, a request body against the operation's
request schema, and a socket message against the socket's JSON Schema."""
from __future__ import annotations

import json
from functools import cache

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

OPENAPI_ID = "urn:pigparlor:openapi"


def documents() -> tuple[dict, dict]:
    """Built afresh: the OpenAPI document names the games registered now (a test's
    ``count_game`` included)."""
    from pigparlor.api.schema import openapi, socket_schema

    return openapi(), socket_schema()


def _games() -> tuple[str, ...]:
    from games.core.registry import all_games

    return tuple(sorted(game.slug for game in all_games()))


def _pointer(*parts: str) -> str:
    return "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _validator(pointer: str) -> Draft202012Validator:
    return _validator_for(pointer, _games())


@cache
def _validator_for(pointer: str, games: tuple[str, ...]) -> Draft202012Validator:
    document = documents()[0]
    registry = Registry().with_resource(OPENAPI_ID, Resource.from_contents(document, default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"{OPENAPI_ID}#/{pointer}"}, registry=registry)


def check_response(template: str, method: str, response) -> dict | None:
    """Assert a Django test response is documented for ``method template`` (an OpenAPI
    path such as ``/api/tables/{table_id}/``): its status, headers and JSON body.
    Returns the body (None for an empty one)."""
    operation = documents()[0]["paths"][template][method.lower()]
    status = str(response.status_code)
    assert status in operation["responses"], f"{method} {template} answered an undocumented {status}"
    documented = operation["responses"][status]
    for header, spec in documented.get("headers", {}).items():
        if spec.get("required"):
            assert response.has_header(header), f"{method} {template} {status} lacks {header}"
    if "content" not in documented:
        assert not response.content or not response["Content-Type"].startswith("application/json")
        return None
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    body = json.loads(response.content)
    pointer = _pointer("paths", template, method.lower(), "responses", status, "content", "application/json",
                       "schema")
    errors = sorted(_validator(pointer).iter_errors(body), key=str)
    assert not errors, f"{method} {template} {status}: {errors[0].message} at {list(errors[0].absolute_path)}: {body}"
    return body


def check_request(template: str, method: str, body) -> None:
    """Assert ``body`` is a valid request body for the operation (what a client may send)."""
    pointer = _pointer("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
    errors = list(_validator(pointer).iter_errors(body))
    assert not errors, f"{method} {template}: the schema refuses {body!r}: {errors[0].message}"


def refused_request(template: str, method: str, body) -> bool:
    pointer = _pointer("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
    return not _validator(pointer).is_valid(body)


@cache
def _socket_validator(side: str) -> Draft202012Validator:
    from pigparlor.api.schema import socket_schema

    schema = socket_schema()
    return Draft202012Validator({**schema, "$ref": f"#/$defs/{side}"})


def check_frame(frame: dict | str, side: str = "ServerMessage") -> dict:
    """Assert a socket message (parsed or text) matches ``#/$defs/<side>``."""
    message = json.loads(frame) if isinstance(frame, str) else frame
    errors = list(_socket_validator(side).iter_errors(message))
    assert not errors, f"{side} refuses {message!r}: {best_message(errors)}"
    return message


def best_message(errors) -> str:
    from jsonschema.exceptions import best_match

    return best_match(errors).message
