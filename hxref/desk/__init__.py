"""The order desk: a page on the loopback where a player orders on his side's map and in a form
made from the decision's schema, sees the rules' verdict as he goes, and saves the signed file
(``hxref orders``).  :mod:`.session` is what one side of one game may ask and save;
:mod:`.server` serves it to the browser, safely; ``page.html``, ``page.js`` and ``page.css`` are
the page (plain HTML and JavaScript on the map the reports draw: no rule is written twice, the
page asks hxref)."""
