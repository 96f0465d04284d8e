"""Reports: built from per-side views (never from the full state, except the
umpire's), rendered for the terminal (rich), plain text, Markdown, HTML and
JSON; map pictures in :mod:`.mapsvg` and :mod:`.mapterm`."""
