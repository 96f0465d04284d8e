"""E-mail in and out, with the standard library's ``email`` package: the names of the mail modules.

The work is done in one module per concept; this module re-exports their public names (and the
few private ones other modules use), so ``from hxref import mail`` / ``mail.run_inbox(...)`` and
``from hxref.mail import ...`` keep working:

* :mod:`hxref.mail.read` -- reading one message: the order files it carries, attached, pasted or
  forwarded (:func:`find_orders`), and the repairs of what a mail client did to a signed file
  (:func:`repaired`, :func:`best_reading`).
* :mod:`hxref.mail.inbox` -- the inbox (:func:`run_inbox`): the messages of a Maildir, an mbox file
  or ``.eml`` files that carry hxref files, each taken whole or not at all into its games, remembered
  as processed (:class:`Processed`), a refusal answered to who signed or sent it (:func:`refusal_for`).
* :mod:`hxref.mail.addresses` -- the game's address book (``GAME.addresses.yaml``,
  :func:`load_address_book`) and the recipients' time zones (:func:`local_time`).
* :mod:`hxref.mail.remind` -- who owes what: the deadline and owed lines of a mail, and the
  ``--remind`` mails (:func:`reminder_messages`).
* :mod:`hxref.mail.outbox` -- the outbox (:func:`outbox_messages`): receipts since the last mail,
  the reports, templates; written as ``.eml`` files (:func:`write_outbox`) or sent by SMTP
  (:func:`send`).
* :mod:`hxref.referee.bundle` -- what an open game's mail carries so that each player's copy travels.
"""
from __future__ import annotations

from ..report.owed import local_time
from .addresses import AddressBook, address_book_path, load_address_book
from .inbox import (REWRAPPED, EmlSource, Games, Inbox, Item, MaildirSource, MboxSource, Outcome, Processed,
                         Refusal, Result, Source, game_id_of, looks_rewrapped, message_digest, process_message,
                         refusal_for, refusal_name, run_inbox)
from .outbox import (compose, last_mail_event, outbox_messages, outbox_name,
                          parse_smtp, pending_receipts, recent_receipts, send, subject, templates_for,
                          umpired_templates, write_outbox)
from .read import (GAME_MARK, MAX_DEPTH, ORDER_SUFFIXES, YAML_SUFFIXES, YAML_TYPES, Found, best_reading,
                        extract, find_orders, html_to_text, is_hxref_mail, read_message, repaired, unflow)
from ..report.owed import deadline_lines, owed_lines
from .remind import reminder_messages

__all__ = [
    "AddressBook", "address_book_path", "load_address_book", "local_time",
    "REWRAPPED", "EmlSource", "Games", "Inbox", "Item", "MaildirSource", "MboxSource", "Outcome", "Processed",
    "Refusal", "Result", "Source", "game_id_of", "looks_rewrapped", "message_digest", "process_message",
    "refusal_for", "refusal_name", "run_inbox",
    "compose", "last_mail_event", "outbox_messages", "outbox_name", "parse_smtp",
    "pending_receipts", "recent_receipts", "send", "subject", "templates_for", "umpired_templates",
    "write_outbox",
    "GAME_MARK", "MAX_DEPTH", "ORDER_SUFFIXES", "YAML_SUFFIXES", "YAML_TYPES", "Found", "best_reading",
    "extract", "find_orders", "html_to_text", "is_hxref_mail", "read_message", "repaired", "unflow",
    "deadline_lines", "owed_lines", "reminder_messages",
]
