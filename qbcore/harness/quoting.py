"""Escaping filters that turn a literal payload into text a given parser reads back unchanged.

The suite's oracles are built only through these functions, never escaped by
hand, so every oracle is as correct as the filters; tests check each filter
against the real parser (bash, GNU sed, Python's json).
"""

from __future__ import annotations

import json

__all__ = ["QuotingError", "single_quote", "double_quote", "sed_pattern", "sed_replacement", "json_string",
           "heredoc_delimiter"]


class QuotingError(ValueError):
    """A payload the target syntax cannot carry (a NUL byte for bash, a newline in a sed pattern)."""


def _no_nul(text: str, where: str):
    if "\0" in text:
        raise QuotingError(f"{where} cannot carry a NUL byte: bash strings end at the first NUL")


def single_quote(text: str) -> str:
    """One bash word that expands to ``text`` exactly: ``'...'`` with each ``'`` written as ``'\\''``."""
    _no_nul(text, "a shell word")
    return "'" + text.replace("'", "'\\''") + "'"


def double_quote(text: str) -> str:
    """One bash word in double quotes that expands to ``text``: ``\\``, ``$``, backtick and ``"`` escaped.

    ``!`` needs nothing: history expansion is off in non-interactive bash.
    """
    _no_nul(text, "a shell word")
    escaped = text.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`").replace('"', '\\"')
    return '"' + escaped + '"'


# characters that are special somewhere in a GNU sed basic regular expression;
# a backslash before each makes it literal (``\]`` and ``\/`` read as themselves)
_BRE_SPECIAL = set("\\.[]*^$")


def sed_pattern(text: str, delimiter: str = "/") -> str:
    """A GNU sed BRE that matches ``text`` literally, for use between ``delimiter`` characters."""
    _check_delimiter(delimiter)
    _no_nul(text, "a sed pattern")
    if "\n" in text:
        raise QuotingError("a sed pattern cannot match a newline: sed reads its input line by line")
    return "".join("\\" + ch if ch in _BRE_SPECIAL or ch == delimiter else ch for ch in text)


def sed_replacement(text: str, delimiter: str = "/") -> str:
    """A GNU sed ``s`` replacement that inserts ``text`` literally (``&``, ``\\``, the delimiter, newlines)."""
    _check_delimiter(delimiter)
    _no_nul(text, "a sed replacement")
    out = []
    for ch in text:
        if ch in "\\&" or ch == delimiter:
            out.append("\\" + ch)
        elif ch == "\n":
            # backslash-newline is GNU sed's way to put a newline in the replacement
            out.append("\\\n")
        else:
            out.append(ch)
    return "".join(out)


def _check_delimiter(delimiter: str):
    if len(delimiter) != 1 or delimiter in "\\\n" or delimiter.isalnum():
        raise QuotingError(f"not a usable sed delimiter: {delimiter!r}")


def json_string(text: str) -> str:
    """A JSON string literal (quotes included) whose value is ``text``; non-ASCII kept as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise QuotingError(f"a JSON string must be valid Unicode; position {exc.start} is not") from None
    return json.dumps(text, ensure_ascii=False)


def heredoc_delimiter(body: str, stem: str = "EOF") -> str:
    """A delimiter word for a quoted here-document carrying ``body``: ``stem``, else ``stem_2``, ...

    Bash ends a here-document at the first line equal to the delimiter, so
    the word must differ from every line of ``body``; quote it (``<<'EOF'``)
    so the body is not expanded.
    """
    if not stem or not all(ch.isalnum() or ch == "_" for ch in stem):
        raise QuotingError(f"a delimiter stem must be letters, digits or _: {stem!r}")
    _no_nul(body, "a here-document")
    lines = set(body.split("\n"))
    candidate, n = stem, 1
    while candidate in lines:
        n += 1
        candidate = f"{stem}_{n}"
    return candidate
