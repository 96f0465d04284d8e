"""User-facing errors.

Every problem a user can cause is an :class:`HxrefError` carrying a stable
code, the file, the line, the data path and the rule it breaks.  The command
line turns one into a single line on stderr and exit status 2; nothing else
ever reaches a user as a traceback.

Three classes, as in python-chess and the style guide:

* :class:`InvalidInput` -- cannot be read at all (bad YAML, wrong shape, bad signature);
* :class:`IllegalOrder` -- understood, but not allowed now (the rules say no);
* :class:`AmbiguousOrder` -- understood in more than one way.

:class:`Locked` is separate: nothing is wrong with the input, another
process holds the game file.
"""
from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass

#: Stable error codes, one table.  Tests and the manual (docs/) refer to these.
CODES: dict[str, str] = {
    # reading files
    "E100": "file cannot be read (missing, too large, not UTF-8)",
    "E101": "YAML syntax error",
    "E102": "YAML feature not allowed in order files (anchor, alias, tag, several documents)",
    "E103": "a size or depth limit was exceeded",
    "E104": "duplicate key",
    "E105": "two YAML readers read the file differently",
    "E110": "unknown key",
    "E111": "missing key",
    "E112": "wrong type or format of a value",
    # signatures and keys
    "E200": "file is not signed",
    "E201": "signature does not verify",
    "E202": "signed by a key that is not the side's key",
    "E203": "key file cannot be read",
    "E204": "file is encrypted to another key",
    "E205": "encrypted file is damaged or is not an age file",
    "E206": "this key does not sign that: a second join of a game, a template for a game it did not join or "
            "a link past its next one, a history that forks from what it signed",
    # the game and its decisions
    "E300": "file is for another game",
    "E301": "no such decision is awaited",
    "E302": "this side is not asked for this decision",
    "E303": "this side has already answered this decision",
    "E304": "commit/reveal out of order",
    "E305": "reveal does not match its commitment",
    "E306": "commitment replayed or copied",
    "E307": "dice link does not follow the side's chain",
    "E308": "decision cannot be resolved yet",
    "E309": "the game is over",
    "E310": "file written against a head that is not in this game's history",
    "E311": "dice link out of turn: before the choices it follows, extra, or for other choices",
    "E312": "a missed deadline claimed too early, or where no deadline applies",
    "E313": "signed time out of order: before the history the file names, or ahead of this machine's clock",
    "E314": "an opening that does not open its file's commitment, or a hidden-army file without its commitment",
    # the rules
    "E400": "order breaks a rule of the game",
    # game files
    "E500": "game file is damaged or was edited by hand",
    "E501": "game file is locked by another hxref process",
    "E502": "game file already exists",
    "E503": "unknown game system or scenario",
    "E504": "bad command-line value",
    "E505": "game file made by an older hxref",
    "E506": "game file does not extend the head this machine last saw (a rollback or a fork)",
    "E507": "the game's pinned charts differ from this hxref's: join refused unless accepted",
    "E510": "file cannot be written or used (disk full, no permission, read-only file system)",
}


@dataclass
class Where:
    """A place in a file: 1-based line and column, and the data path."""

    file: str | None = None
    line: int | None = None
    col: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line:
            parts.append(str(self.line))
            if self.col:
                parts.append(str(self.col))
        return ":".join(parts)


class HxrefError(Exception):
    """A problem the user can fix; rendered as one line, exit status 2."""

    default_code = "E000"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        file: str | None = None,
        line: int | None = None,
        col: int | None = None,
        path: str | None = None,
        rule: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.where = Where(file, line, col, path)
        self.rule = rule
        self.hint = hint

    def at(self, *, file: str | None = None, line: int | None = None, path: str | None = None) -> "HxrefError":
        """Fill in location details that were unknown where the error was raised."""
        if file and not self.where.file:
            self.where.file = file
        if line and not self.where.line:
            self.where.line = line
        if path and not self.where.path:
            self.where.path = path
        return self

    def render(self) -> str:
        """The single line shown to the user."""
        text = f"{self.where}: {self.message}" if self.where.file or self.where.line else self.message
        if self.where.path:
            text += f" (at {self.where.path})"
        if self.rule:
            text += f" [rule {self.rule}]"
        if self.hint:
            text += f"; {self.hint}"
        return _one_line(f"{text} [{self.code}]")

    def __str__(self) -> str:
        return self.render()

    def lines(self) -> list[str]:
        """The lines shown by a command that lists every problem (one here; :class:`Problems`)."""
        return [self.render()]


class Problems(HxrefError):
    """Several problems of one file at once, each an :class:`HxrefError` with its own line, path,
    rule and code.  ``hxref check`` and ``hxref submit`` print one line a problem
    (:meth:`lines`); :meth:`render` gives them all on one line (mail replies, dashboards).  The
    code, place and rule are the first problem's.  Make one with :func:`gather`."""

    def __init__(self, problems: Sequence[HxrefError]) -> None:
        first = problems[0]
        w = first.where
        super().__init__(first.message, code=first.code, file=w.file, line=w.line, col=w.col, path=w.path,
                         rule=first.rule, hint=first.hint)
        self.problems = list(problems)

    def render(self) -> str:
        return "; ".join(p.render() for p in self.problems)

    def lines(self) -> list[str]:
        return [p.render() for p in self.problems]


def gather(problems: Sequence[HxrefError]) -> HxrefError:
    """One error for one or more ``problems``: the problem itself for one (shown exactly as
    always), else a :class:`Problems` that is also of the first problem's class (so code that
    catches an :class:`IllegalOrder` still catches it)."""
    if not problems:
        raise ValueError("gather needs at least one problem")
    if len(problems) == 1:
        return problems[0]
    first = problems[0]
    cls = next((c for base, c in _SEVERAL if isinstance(first, base)), Problems)
    return cls(problems)


def _one_line(text: str) -> str:
    """Quoted input may hold newlines or control characters: show them escaped, so an error
    stays one line whatever a file contained."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


#: the operating system's words for the errors a user meets most, made plain
_OS_REASONS: dict[int | None, str] = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.ENOENT: "no such file or folder",
    errno.ELOOP: "a symbolic link where none is allowed (or a loop of links)",
}


def os_reason(exc: OSError) -> str:
    """An OSError in a few plain words, without the errno and the path (the message names the file)."""
    reason = _OS_REASONS.get(exc.errno) or exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


def cannot_write(file, exc: OSError, done: str = "the file was left as it was",
                 what: str = "save") -> "InvalidInput":
    """A failed save as one line (E510): which file, why, and what became of it."""
    return InvalidInput(f"cannot {what}: {os_reason(exc)}", code="E510", file=str(file), hint=done or None)


class InvalidInput(HxrefError):
    """The input cannot be read: bad YAML, wrong shape, bad signature."""

    default_code = "E112"


class IllegalOrder(HxrefError):
    """The input is understood, but the rules or the game's state forbid it now."""

    default_code = "E400"


class AmbiguousOrder(HxrefError):
    """The input can be read in more than one way."""

    default_code = "E400"


class Locked(HxrefError):
    """Another hxref process is writing the same game."""

    default_code = "E501"


class InvalidProblems(Problems, InvalidInput):
    """Several problems, the first of which is an :class:`InvalidInput`."""


class IllegalProblems(Problems, IllegalOrder):
    """Several problems, the first of which is an :class:`IllegalOrder`."""


_SEVERAL = ((IllegalOrder, IllegalProblems), (InvalidInput, InvalidProblems))
