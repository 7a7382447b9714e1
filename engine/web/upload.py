"""Files sent from the page: one file field of a ``multipart/form-data`` body, read with the standard
library's MIME parser (no form-parsing dependency). The service's body limit (413 above it) bounds what
arrives here."""

from __future__ import annotations

import email.parser
import email.policy


class UploadProblem(ValueError):
    """A file that cannot be read; ``problem`` names what is wrong, which the page says in its language
    (``templates/web/_problems.html.j2``)."""

    def __init__(self, problem: str, name: str = "") -> None:
        super().__init__(f"{problem}: {name}")
        self.problem = problem
        self.name = name


def uploaded_file(body: bytes, content_type: str | None, field: str) -> tuple[str, str]:
    """The file name and the text (UTF-8) of the file field ``field``; an ``UploadProblem`` otherwise."""
    if not content_type or not content_type.lower().startswith("multipart/form-data"):
        raise UploadProblem("no_file")
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise UploadProblem("no_file")
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") != field:
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        name = part.get_filename() or ""
        if not name and not data:
            raise UploadProblem("no_file")
        if not data.strip():
            raise UploadProblem("empty", name)
        try:
            return name, data.decode("utf-8")
        except UnicodeDecodeError:
            raise UploadProblem("not_text", name) from None
    raise UploadProblem("no_file")
