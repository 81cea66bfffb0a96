"""CSRF tokens: a form's hidden token is derived from a secret only the browser's cookie
holds (the session's value once signed in, a random pre-sign-in value before), so another site
can neither read nor forge it."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import unquote_plus

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, QuerystringParser, parse_options_header

FIELD = "csrf"  # the form field
HEADER = "x-csrf-token"  # or this header, for scripts


def csrf_token(secret: str) -> str:
    """The token of forms shown to the holder of the cookie value ``secret``."""
    return hmac.new(secret.encode(), b"hegemon csrf", hashlib.sha256).hexdigest()


def csrf_valid(secret: str | None, given: str | None) -> bool:
    """Whether ``given`` is the token of ``secret`` (compared in constant time)."""
    if not secret or not given:
        return False
    return hmac.compare_digest(csrf_token(secret), given)


PREFIX_BYTES = 64 * 1024
"""A form's token must come within its first this many bytes: the site's forms put it first,
so it is found without holding the rest of the body (an upload's file) in memory."""

_MOST = 256  # longer than any token: a field name or value past it is not ours


class FormScan:
    r"""Finds the ``csrf`` field of a form body (url-encoded or multipart) fed chunk by chunk,
    keeping nothing of the body but that field's name and value as they stream past.

    ``done`` once the field is found (``token``), or the form is of another type, malformed,
    or ended without it (``token`` None).

    >>> scan = FormScan("application/x-www-form-urlencoded")
    >>> scan.feed(b"name=ada&cs")
    >>> scan.done
    False
    >>> scan.feed(b"rf=abc%2B1&password=" + b"x" * 100_000)
    >>> scan.done, scan.token
    (True, 'abc+1')
    >>> scan = FormScan("multipart/form-data; boundary=b")
    >>> scan.feed(b'--b\r\ncontent-disposition: form-data; name="file"; filename="bot.py"\r\n')
    >>> scan.feed(b"\r\nprint(1)\r\n--b\r\ncontent-disposition: form-data; name=csrf\r\n\r\nabc")
    >>> scan.feed(b"\r\n--b--\r\n")
    >>> scan.done, scan.token
    (True, 'abc')
    """

    def __init__(self, content_type: str):
        kind, options = parse_options_header(content_type)
        self.token: str | None = None
        self.done = False
        self._name, self._value = bytearray(), bytearray()
        self._header, self._header_value = bytearray(), bytearray()
        self._parser: MultipartParser | QuerystringParser | None = None
        self._encoded = kind == b"application/x-www-form-urlencoded"
        if self._encoded:
            self._parser = QuerystringParser(
                {
                    "on_field_start": self._part_begin,
                    "on_field_name": self._grow(self._name),
                    "on_field_data": self._grow(self._value),
                    "on_field_end": self._part_end,
                }
            )
        elif kind == b"multipart/form-data" and options.get(b"boundary"):
            self._parser = MultipartParser(
                options[b"boundary"],
                {
                    "on_part_begin": self._part_begin,
                    "on_header_field": self._grow(self._header),
                    "on_header_value": self._grow(self._header_value),
                    "on_header_end": self._header_end,
                    "on_part_data": self._grow(self._value),
                    "on_part_end": self._part_end,
                },
            )
        else:
            self.done = True

    def feed(self, chunk: bytes) -> None:
        """Parse the next ``chunk`` of the body."""
        self._run(lambda parser: parser.write(chunk))

    def end(self) -> None:
        """The body has ended: ``done`` from now on."""
        self._run(lambda parser: parser.finalize())
        self.done = True

    def _run(self, step: Any) -> None:
        if self.done or self._parser is None:
            return
        try:
            step(self._parser)
        except FormParserError:  # malformed: no token to be found
            self.done = True

    @staticmethod
    def _grow(into: bytearray) -> Any:
        def grow(data: bytes, start: int, end: int) -> None:
            if len(into) <= _MOST:
                into.extend(data[start : min(end, start + _MOST + 1)])

        return grow

    def _part_begin(self) -> None:
        for held in (self._name, self._value, self._header, self._header_value):
            held.clear()

    def _header_end(self) -> None:
        if bytes(self._header).strip().lower() == b"content-disposition":
            self._name[:] = parse_options_header(bytes(self._header_value))[1].get(b"name", b"")
        self._header.clear()
        self._header_value.clear()

    def _part_end(self) -> None:
        name, value = self._name.decode("latin-1"), self._value.decode("latin-1")
        if self._encoded:
            name, value = unquote_plus(name), unquote_plus(value)
        if name == FIELD and len(self._value) <= _MOST:
            self.token = value
            self.done = True
        self._part_begin()
