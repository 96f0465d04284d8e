"""Solo and hotseat play at the terminal: ``hxref play GAME`` without ``--choice``.

:func:`play_loop` asks for every awaited decision in turn, for whichever side
is awaited (in a solo game every side sits at this keyboard: hotseat), shows
the side's map and the system's notes, offers a menu of the legal values when
the answer is a single number or word, and otherwise reads YAML (several
lines, ended by an empty line).  An answer is checked with the rules before
anything is stored; a decision's answers are stored and resolved together,
under the game's lock, so quitting half-way through a decision leaves the
game file as it was.

Input is injectable: ``input_fn(prompt) -> str`` replaces the keyboard (tests
drive the loop with a script); end of input is the same as ``q``.  At a terminal the line is
edited with the standard ``readline`` (see :class:`_Keyboard`): a history per side, and a refused
answer offered again for correction.
"""
from __future__ import annotations

import re
import shutil
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.panel import Panel
from rich.prompt import Prompt
from rich.text import Text

from ..base.errors import HxrefError, InvalidInput

COMMANDS = {"?": "help: what this decision asks, every key of an answer, how to answer (paged at a terminal)",
            "m": "the map (paged at a terminal)", "r": "the last report (paged at a terminal)",
            "q": "quit (nothing half-done is saved)"}
#: a number field with at most this many legal values gets a menu of them
MENU_MAX = 30
#: how many of a side's earlier lines the keyboard recalls (Up) from the sittings before
HISTORY_MAX = 500


class Quit(Exception):
    """The user typed ``q`` (or the input ended)."""


@dataclass
class _Menu:
    """A single-field answer chosen from a list of legal values (a bid, a level, a chit)."""

    key: str
    type: str
    values: list | None            # None: any int within minimum..maximum (an open range)
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> Any:
        value: int | str
        if self.type == "int":
            try:
                value = int(text)
            except ValueError:
                raise InvalidInput(f"{text!r} is not a whole number", code="E112") from None
            if self.minimum is not None and value < self.minimum:
                raise InvalidInput(f"{value} is below the minimum {self.minimum}", code="E112")
            if self.maximum is not None and value > self.maximum:
                raise InvalidInput(f"{value} is above the maximum {self.maximum}", code="E112")
        else:
            value = text
        if self.values is not None and value not in self.values:
            raise InvalidInput(f"{text!r} is not one of {', '.join(map(str, self.values))}", code="E112")
        return value


def menu_for(dec) -> _Menu | None:
    """A menu when the decision's schema is one int/str field with choices or a range, else None."""
    required = {k: f for k, f in dec.schema.items() if not f.optional}
    if len(dec.schema) != 1 or len(required) != 1:
        return None
    (key, f), = dec.schema.items()
    if f.type not in ("int", "str"):
        return None
    if f.choices:
        return _Menu(key, f.type, list(f.choices), f.minimum, f.maximum)
    if f.type == "int" and (f.minimum is not None or f.maximum is not None):
        if f.minimum is not None and f.maximum is not None and f.maximum - f.minimum < MENU_MAX:
            return _Menu(key, "int", list(range(f.minimum, f.maximum + 1)), f.minimum, f.maximum)
        return _Menu(key, "int", None, f.minimum, f.maximum)
    return None


def _probe(eng, dec, side: str, menu: _Menu | None) -> _Menu | None:
    """An open number range (a bid of 0 or more) narrowed to the values the rules accept now, when
    they are few: each candidate is checked with the system's ``check`` (nothing is stored)."""
    if menu is None or menu.values is not None or menu.type != "int":
        return menu
    lo = menu.minimum if menu.minimum is not None else (menu.maximum or 0) - MENU_MAX
    hi = min(menu.maximum if menu.maximum is not None else lo + MENU_MAX, lo + MENU_MAX)
    try:
        legal = [v for v in range(lo, hi + 1) if not eng.system.check(eng.state, dec, side, {menu.key: v})]
    except Exception:       # a system that cannot judge a bare value: keep the open prompt
        return menu
    if legal and legal[-1] < hi:
        return _Menu(menu.key, "int", legal, menu.minimum, menu.maximum)
    return menu


class _Keyboard:
    """rich prompts whose input may come from ``input_fn`` (tests) instead of the terminal.

    At a terminal the standard ``readline`` edits the line: the arrows move and recall, Ctrl-A/E
    go to the ends.  Each side has its own history (hotseat: Up never shows the other side's sealed
    answer), and a refused answer is offered again, line by line, for correction.  Input that is not
    a terminal (a pipe, a script) is read as plain lines, exactly as without readline."""

    def __init__(self, console: Console, input_fn: Callable[[str], str] | None):
        self.console = console
        self.input_fn = input_fn
        self.readline: Any = _terminal_readline() if input_fn is None else None
        self.histories: dict[str, list[str]] = {}
        self.side: str | None = None
        self.offered: list[str] = []       # lines to pre-fill, one per coming prompt
        self.history_dir: Path | None = None     # per-side history files kept between sittings
        outer = self

        class _Prompt(Prompt):
            @classmethod
            def get_input(cls, console, prompt, password, stream=None):   # noqa: ARG003
                return outer.line(prompt)

            def on_validate_error(self, value, error):
                super().on_validate_error(value, error)
                outer.offer(value)                  # not one of the values: offered again to correct

        self.prompt_class = _Prompt

    @property
    def editing(self) -> bool:
        return self.readline is not None

    def sit(self, side: str) -> None:
        """``side`` takes the keyboard: its own history comes back, nothing is offered."""
        self.offered = []
        if self.side == side or self.readline is None:
            self.side = side
            return
        self.side = side
        self.readline.clear_history()
        if side not in self.histories:
            self.histories[side] = self._kept(side)
        for item in self.histories[side]:
            self.readline.add_history(item)

    def offer(self, text: str) -> None:
        """Pre-fill the coming prompts with ``text``'s lines (a refused answer, to be corrected)."""
        if self.readline is not None:
            self.offered = text.splitlines() or [text]

    def withdraw(self) -> None:
        """An answer was read whole: lines still offered from a refused one are not for the next."""
        self.offered = []

    def line(self, prompt: Any = "") -> str:
        """One line; EOF or Ctrl-D is :class:`Quit`."""
        try:
            if self.input_fn is None:
                if self.readline is not None:
                    return self._edited(prompt)
                return self.console.input(prompt)
            self.console.print(prompt, end="")
            text = self.input_fn(str(prompt))
        except EOFError:
            raise Quit() from None
        self.console.print(Text(text), highlight=False)       # the transcript shows what was typed
        return text

    def _edited(self, prompt: Any) -> str:
        """One line read by readline, the prompt in its colours (escapes bracketed so readline
        counts only the visible width), pre-filled with the next offered line if any."""
        rl = self.readline
        with self.console.capture() as cap:
            self.console.print(prompt, end="")
        shown = _ANSI.sub(lambda m: "\x01" + m.group(0) + "\x02", cap.get())
        prefill = self.offered.pop(0) if self.offered else ""
        rl.set_startup_hook((lambda: rl.insert_text(prefill)) if prefill else None)
        try:
            text = input(shown)
        finally:
            rl.set_startup_hook(None)
        if text.strip() and text.strip() not in COMMANDS:       # answers, not ? m r q
            history = self.histories.setdefault(self.side or "", [])
            if not history or history[-1] != text:
                history.append(text)
                rl.add_history(text)
                self._keep(text)
        return text

    def _file(self, side: str) -> Path | None:
        if self.history_dir is None:
            return None
        return self.history_dir / (re.sub(r"[^A-Za-z0-9_.-]", "_", side) + ".history")

    def _kept(self, side: str) -> list[str]:
        """The side's lines from earlier sittings (its own file; none when it cannot be read)."""
        path = self._file(side)
        try:
            return path.read_text(encoding="utf-8").splitlines()[-HISTORY_MAX:] if path else []
        except (OSError, UnicodeDecodeError):
            return []

    def _keep(self, text: str) -> None:
        path = self._file(self.side or "")
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError:             # history is a convenience: a read-only home loses it, nothing else
            pass

    def ask(self, prompt: str, choices: list[str] | None = None) -> str:
        try:
            return self.prompt_class.ask(Text.from_markup(prompt), console=self.console, choices=choices,
                                         show_choices=bool(choices)).strip()
        except EOFError:
            raise Quit() from None


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _terminal_readline() -> Any:
    """The standard ``readline`` when the keyboard is a terminal, else None (pipes read plain lines)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        import readline
    except ImportError:         # a Python built without it: plain lines
        return None
    readline.set_auto_history(False)      # the history is kept per side (see _Keyboard.sit)
    readline.clear_history()
    return readline


class Session:
    """One sitting at the keyboard: the game file, the console, the input."""

    def __init__(self, game_path: str | Path, console: Console | None = None,
                 input_fn: Callable[[str], str] | None = None):
        self.path = str(game_path)
        self.console = console or Console(highlight=False)
        self.keys = _Keyboard(self.console, input_fn)
        self.last: list = []            # the resolutions of the last answers, shown before the next prompt

    # --- what the game awaits ---------------------------------------------------------------
    def load(self):
        from ..referee.engine import Engine

        return Engine.load(self.path)

    def next_decision(self, eng):
        """The first awaited decision and the sides that still owe it an answer (in solo order)."""
        for dec in eng.awaiting:
            answers = eng.h["pending"].get(dec.id, {}).get("answers", {})
            owed = [s for s in dec.sides if "choice" not in answers.get(s, {})]
            return dec, owed
        return None, []

    # --- showing things -----------------------------------------------------------------------
    def show_decision(self, eng, dec, side: str, owed: list[str]) -> None:
        whose = f"[bold]{side}[/bold] to play"
        others = [s for s in owed if s != side]
        if len(dec.sides) > 1:
            whose += f" ({', '.join(others)} next)" if others else " (last of " + ", ".join(dec.sides) + ")"
        body = Text.assemble((f"{dec.prompt}", ""), (f"  [rule {dec.rule}]", "dim"))
        if dec.secret and len(dec.sides) > 1:
            body.append("\nsecret: the other sides must not look at the screen now", style="yellow")
        self.console.print(Panel(body, title=Text.from_markup(f"{dec.id} -- {whose}"),
                                 subtitle=f"game {eng.meta['game']}", expand=True))

    def show_map(self, eng, side: str, paged: bool = False) -> bool:
        """The side's map in the terminal (``paged``: through the pager at a terminal, so that it
        does not scroll away); False when the system or scenario has none."""
        from ..referee.engine import map_view
        from ..report.mapterm import render_terminal

        try:
            mv = map_view(self.path, side)
            m = mv.load()
        except HxrefError:
            return False
        title = f"{m.title or m.id}: what {side} sees"
        shown = render_terminal(m, mv.units, max_width=max(40, self.console.width - 2), title=title)
        self.page(shown) if paged else self.console.print(shown)
        return True

    def show_report(self, eng, side: str) -> None:
        from ..report import turn

        self.page(turn.renderables(turn.build(eng, side)))

    def page(self, renderable: Any) -> None:
        """``renderable`` through the pager (``$PAGER``, else ``less``) at a terminal, where it would
        scroll away; printed as it is elsewhere (a pipe, a script)."""
        if not self.keys.editing:
            self.console.print(renderable)
            return
        import click

        with self.console.capture() as cap:
            self.console.print(renderable)
        click.echo_via_pager(cap.get())

    def notes_and_skeleton(self, eng, dec, side: str) -> tuple[list[str], dict]:
        view = eng.system.view(eng.state, side, eng.mode)
        try:
            tpl = eng.system.template(view, dec, side)
        except HxrefError:
            return [], dict(dec.example)
        # a system whose template has no notes (the protocol's default): the units orders may name
        return (tpl.notes or self._unit_notes(side)), tpl.choice

    def _unit_notes(self, side: str) -> list[str]:
        """Without notes from the system's ``template``: the side's units on the map (their ids are
        what orders name)."""
        from ..referee.engine import map_view

        try:
            units = map_view(self.path, side).units
        except HxrefError:
            return []
        mine = [u for u in units if u.get("side") == side and u.get("id")]
        if not mine:
            return []
        return ["Your units (id: name, kind):"] + [
            f"  {u['id']}: {u.get('label', '')}, {u.get('kind', '')}".rstrip(", ") for u in mine]

    def show_help(self, dec, notes: list[str], skeleton: dict, menu: _Menu | None) -> None:
        lines = [f"{dec.id}: {dec.prompt} [rule {dec.rule}]", ""]
        for key, spec in dec.schema.items():
            extra = []
            if spec.choices:
                extra.append("one of " + ", ".join(map(str, spec.choices)))
            if spec.minimum is not None:
                extra.append(f"min {spec.minimum}")
            if spec.maximum is not None:
                extra.append(f"max {spec.maximum}")
            lines.append(f"  {key} ({spec.type}{', optional' if spec.optional else ''}): {spec.help}"
                         + (f" [{'; '.join(extra)}]" if extra else ""))
        if notes:
            lines += [""] + notes
        if menu is None:
            lines += ["", "Type or paste the answer as YAML, ended by an empty line, e.g.:", ""]
            lines += ["  " + line for line in _yaml(skeleton).splitlines()]
            lines += ["", "or @FILE to read it from a file."]
        else:
            lines += ["", f"Type the {menu.key}."]
        lines += ["", "Commands: " + "; ".join(f"{k} {v}" for k, v in COMMANDS.items())]
        self.page(Panel(Text("\n".join(lines)), title="help", expand=True))

    def show_resolutions(self, done, sides) -> None:
        """What the last answers did: each decision resolved, its dice and its events (``sides``: the
        game's, in its order)."""
        from ..report.turn import event_line

        for r in done:
            self.console.print(Text(f"resolved {r.decision}", style="bold green"))
            for roll_ in r.rolls:
                self.console.print(Text(f"  die: {roll_['purpose']} by {roll_.get('by') or '-'}: "
                                        f"{' '.join(map(str, roll_['faces']))}"))
            for ev in r.events:
                self.console.print(Text("  " + event_line({"data": ev}, "umpire", "open", sides)))

    def error(self, exc: HxrefError) -> None:
        if exc.where.file == "--choice":     # the engine's name for an answer given on the command line
            exc.where.file = None
        self.console.print(Text(f"refused: {exc.render()}", style="bold red"))

    # --- asking ---------------------------------------------------------------------------------
    def ask_answer(self, eng, dec, side: str, check: Callable[[dict], None]) -> dict:
        """Ask ``side`` until it gives an answer ``check`` accepts; commands are handled here."""
        from ..referee import orders

        notes, skeleton = self.notes_and_skeleton(eng, dec, side)
        menu = _probe(eng, dec, side, menu_for(dec))
        self.keys.sit(side)
        brief = situation(notes)
        if brief:
            self.console.print(Text("\n".join(brief), style="dim"))
        if len(brief) < len(notes):
            self.console.print(Text("? lists every key of an answer and what it means", style="dim"))
        # last, just above the prompt: what the previous answers did (a screen of 24 lines keeps it)
        self.show_resolutions(self.last, eng.system.sides)
        if self.last:
            self.console.print(Text(f"next: {eng.waiting_text()}", style="bold"))
        again = False           # a refused answer is being offered again for correction
        while True:
            if menu is not None:
                values = [str(v) for v in menu.values] if menu.values is not None else None
                rng = "" if values else " (" + "..".join(
                    "" if x is None else str(x) for x in (menu.minimum, menu.maximum)) + ")"
                text = self.keys.ask(f"{side}: {menu.key}{rng}",
                                     choices=(values + list(COMMANDS)) if values else None)
            else:
                if not again:           # after a refusal the hint and the offered answer follow it
                    self.console.print(Text(_wrapped(f"{side}: your answer as YAML, ended by an empty line "
                                                     "(? help, m map, r report, q quit); e.g. " + _flow(skeleton),
                                                     self.console.width), style="cyan"), overflow="ignore")
                text = self.read_yaml()
            self.keys.withdraw()
            again = False
            if text in COMMANDS:
                if text == "q":
                    raise Quit()
                if text == "?":
                    self.show_help(dec, notes, skeleton, menu)
                elif text == "m":
                    if not self.show_map(eng, side, paged=True):
                        self.console.print("this game has no map")
                elif text == "r":
                    self.show_report(eng, side)
                continue
            if not text:
                continue
            try:
                choice = ({menu.key: menu.parse(text)} if menu is not None
                          else orders.parse_choice(text, "your answer"))
                check(choice)
            except HxrefError as exc:
                self.error(exc)
                again = self._offer_again(side, text, yaml=menu is None)
                continue
            return choice

    def _offer_again(self, side: str, text: str, yaml: bool) -> bool:
        """At a terminal the refused ``text`` comes back pre-filled, to correct rather than retype."""
        if not self.keys.editing:
            return False
        self.console.print(Text(f"{side}: your answer is offered again: correct it"
                                + (", end with an empty line" if yaml else "")
                                + " (Up/Down: your earlier lines; ? help)", style="cyan"))
        self.keys.offer(text)
        return True

    def read_yaml(self) -> str:
        lines: list[str] = []
        while True:
            line = self.keys.line("... " if lines else "> ")
            if not line.strip():
                if lines:
                    return "\n".join(lines)
                continue
            if not lines and (line.strip() in COMMANDS or line.strip().startswith("@")):
                return line.strip()
            lines.append(line.rstrip("\n"))

    # --- the loop ---------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game is over or the user quits; the number of decisions resolved."""
        from ..gamefile.game import locked

        eng = self.load()
        if eng.mode != "solo":
            raise InvalidInput(f"interactive play is for solo games; this is a {eng.mode} game: use answer, "
                               "submit and resolve (or give --choice)", code="E504", file=self.path)
        if self.keys.editing:
            from ..base.home import home

            self.keys.history_dir = home() / "history" / re.sub(r"[^A-Za-z0-9_.-]", "_", str(eng.meta["game"]))
        resolved = 0
        shown_map: set[tuple[str, str]] = set()
        try:
            while True:
                eng = self.load()
                if eng.finished:
                    self.show_resolutions(self.last, eng.system.sides)
                    self.console.print(Text(eng.waiting_text(), style="bold"))
                    return resolved
                dec, owed = self.next_decision(eng)
                if dec is None:
                    self.show_resolutions(self.last, eng.system.sides)
                    self.console.print(Text(f"nothing to play: {eng.waiting_text()}"))
                    return resolved
                answers: list[tuple[str, dict]] = []
                for side in owed:
                    if len(owed) > 1 and answers and dec.secret and self.console.is_terminal:
                        self.console.clear()     # hotseat: the next side must not see the sealed answer
                    self.show_decision(eng, dec, side, owed[len(answers):])
                    if (dec.id, side) not in shown_map and self.show_map(eng, side):
                        shown_map.add((dec.id, side))
                    choice = self.ask_answer(eng, dec, side, _checker(self.path, dec.id, side))
                    answers.append((side, choice))
                    if len(owed) > 1 and side != owed[-1]:
                        self.console.print(Text(f"{side}'s answer is kept (sealed until every side has "
                                                f"answered); pass the keyboard to {owed[len(answers)]}",
                                                style="green"))
                with locked(self.path):
                    eng = self.load()
                    for side, choice in answers:
                        eng.answer_solo(side, dec.id, choice)
                    done = eng.resolve() if eng.ready() else []
                    eng.save()
                resolved += len(done)
                self.last = done        # shown last, above the next prompt, so that it stays on the screen
        except Quit:
            self.console.print(Text("quit; the game file keeps every decision resolved so far "
                                    f"(resume with: hxref play {self.path})", style="yellow"))
            return resolved


def situation(notes: list[str]) -> list[str]:
    """The notes shown above the prompt: the position (forces, enemies, what may be done), without
    the reference of an answer's keys (``choice.KEY: ...`` lines), which ``?`` shows whole."""
    out: list[str] = []
    for line in notes:
        if line.startswith("choice.") or (not line.strip() and (not out or not out[-1].strip())):
            continue
        out.append(line)
    return out[:-1] if out and not out[-1].strip() else out


def _checker(path: str, decision_id: str, side: str) -> Callable[[dict], None]:
    """Check an answer with the rules (shape and the system's ``check``) on a throwaway copy of the game."""
    def check(choice: dict) -> None:
        from ..referee.engine import Engine

        Engine.load(path).answer_solo(side, decision_id, choice)    # raises; the copy is never saved
    return check


def _yaml(data: dict) -> str:
    from ..base.yamlio import dump_fast

    return dump_fast(data)


def _flow(data: dict) -> str:
    """The example answer on one logical line (flow YAML; JSON is YAML), whole."""
    import json

    return json.dumps(data, ensure_ascii=False)


def _wrapped(text: str, width: int | None = None) -> str:
    """``text`` folded at spaces to the terminal's width, never cut (a long word is split, not lost)."""
    width = width or shutil.get_terminal_size().columns
    return textwrap.fill(text, width=max(20, width - 1), subsequent_indent="  ", break_on_hyphens=False)


def play_loop(game_path: str | Path, console: Console | None = None,
              input_fn: Callable[[str], str] | None = None) -> int:
    """Play the solo game at ``game_path`` interactively; returns the number of decisions resolved."""
    return Session(game_path, console, input_fn).run()


def main(argv: list[str] | None = None) -> int:
    """``python -m hxref.cli.solo GAME``: the same loop as ``hxref play GAME``."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m hxref.cli.solo GAME", file=sys.stderr)
        return 2
    try:
        play_loop(args[0])
    except HxrefError as exc:
        print(f"hxref: error: {exc.render()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hxref: interrupted; nothing half-done was saved", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
