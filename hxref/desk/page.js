// The order page: the side's map and a form made from the decision's schema.  No rule is
// written here: every verdict, every reachable hex and every save is asked of hxref.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const token = document.body.dataset.token;
const $ = (id) => document.getElementById(id);

let page = null;          // what the server gave at the start
let choice = {};          // the choice being written
let active = null;        // {list, index}: the map item being built
let reach = {};           // hex -> cost for the active item's piece
let targetMode = false;
let checkSeq = 0;

async function api(name, body) {
  const res = await fetch("/api/" + name, {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-Hxref-Token": token},
    body: JSON.stringify(body || {}),
    cache: "no-store",
  });
  const data = await res.json().catch(() => ({error: "the server answered " + res.status}));
  if (!res.ok) throw new Error(data.error || ("the server answered " + res.status));
  return data;
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------------------------- the map

let svg = null, layer = null;

function drawMap() {
  if (!page.map || page.lists.length === 0) return;
  $("board").hidden = false;
  const doc = new DOMParser().parseFromString(page.map.svg, "image/svg+xml");
  svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("id", "the-map");
  layer = svgEl("g", {id: "desk-layer"});
  svg.append(layer);
  $("map").append(svg);
  svg.addEventListener("click", onMapClick);
  window.deskHexes = page.map.hexes;       // where each hex is drawn, for whoever drives the page
}

function hexAt(evt) {
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let best = null, bestD = Infinity;
  for (const [label, [x, y]] of Object.entries(page.map.hexes)) {
    const d = (x - p.x) ** 2 + (y - p.y) ** 2;
    if (d < bestD) { best = label; bestD = d; }
  }
  return bestD <= (page.map.size ** 2) ? best : null;
}

function hexPoints(label, shrink) {
  const [x, y] = page.map.hexes[label];
  const s = page.map.size * (shrink || 1);
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i);
    pts.push((x + s * Math.cos(a)).toFixed(1) + "," + (y + s * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}

function centre(label) { return page.map.hexes[label]; }

function redrawLayer(problems) {
  if (!layer) return;
  layer.replaceChildren();
  for (const [hex, cost] of Object.entries(reach)) {
    if (!centre(hex)) continue;
    layer.append(svgEl("polygon", {points: hexPoints(hex, 0.92), class: "desk-reach"}));
    const [x, y] = centre(hex);
    layer.append(svgEl("text", {x: x, y: y + page.map.size * 0.62, "text-anchor": "middle", class: "desk-cost"},
                       Number.isInteger(cost) ? String(cost) : cost.toFixed(1)));
  }
  for (const ml of page.lists) {
    (choice[ml.key] || []).forEach((item, i) => {
      const isActive = active && active.list === ml.key && active.index === i;
      const start = pieceHex(ml, item[ml.piece]);
      const hexes = [start, ...((ml.path && item[ml.path]) || [])].filter((h) => centre(h));
      if (hexes.length > 1) {
        const points = hexes.map((h) => centre(h).join(",")).join(" ");
        layer.append(svgEl("polyline", {points: points, class: "desk-halo"}));
        layer.append(svgEl("polyline", {points: points, class: "desk-path" + (isActive ? " active" : "")}));
        for (const h of hexes.slice(1)) layer.append(svgEl("circle", {cx: centre(h)[0], cy: centre(h)[1], r: 5, class: "desk-step"}));
      }
      if (ml.target && item[ml.target] && centre(item[ml.target])) {
        layer.append(svgEl("polygon", {points: hexPoints(item[ml.target], 0.8), class: "desk-target"}));
        const from = centre(hexes[hexes.length - 1] || start), to = centre(item[ml.target]);
        if (from) layer.append(svgEl("line", {x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "desk-target"}));
      }
      if (isActive && centre(start)) layer.append(svgEl("polygon", {points: hexPoints(start, 0.7), class: "desk-piece"}));
    });
  }
  for (const p of problems || []) {
    if (!p.hex || !centre(p.hex)) continue;
    const mark = svgEl("polygon", {points: hexPoints(p.hex, 0.85), class: "desk-problem"});
    mark.append(svgEl("title", {}, p.line));
    layer.append(mark);
    const [x, y] = centre(p.hex);
    layer.append(svgEl("text", {x: x + page.map.size * 0.35, y: y - page.map.size * 0.35, class: "desk-problem-mark"}, "!"));
  }
}

function pieceHex(ml, id) {
  const p = ml.pieces.find((q) => q.id === id);
  return p ? p.hex : null;
}

function piecesIn(hex) {
  const out = [];
  for (const ml of page.lists) for (const p of ml.pieces) if (p.hex === hex) out.push([ml, p]);
  return out;
}

async function startItem(ml, piece) {
  const items = choice[ml.key] = choice[ml.key] || [];
  let index = items.findIndex((it) => it[ml.piece] === piece.id);
  if (index < 0) {
    const item = {[ml.piece]: piece.id};
    if (ml.path) item[ml.path] = [];
    items.push(item);
    index = items.length - 1;
  }
  active = {list: ml.key, index: index};
  targetMode = !ml.path && !!ml.target;
  reach = {};
  changed();
  try {
    const r = await api("reach", {choice: choice, list: ml.key, piece: piece.id});
    if (active && active.list === ml.key && active.index === index) { reach = r.reach; redrawLayer(lastProblems); }
  } catch (e) { say(e.message, true); }
}

function activeItem() {
  if (!active) return [null, null];
  const ml = page.lists.find((m) => m.key === active.list);
  return [ml, (choice[active.list] || [])[active.index]];
}

function endItem() {
  active = null; reach = {}; targetMode = false;
  changed();
}

function onMapClick(evt) {
  const hex = hexAt(evt);
  if (!hex) return;
  const [ml, item] = activeItem();
  if (!item) {
    const found = piecesIn(hex);
    if (found.length) startItem(found[0][0], found[0][1]);
    return;
  }
  if ((evt.shiftKey || evt.altKey || targetMode) && ml.target) {
    item[ml.target] = hex;
    endItem();
    return;
  }
  if (!ml.path) return;
  const path = item[ml.path];
  const last = path.length ? path[path.length - 1] : null;
  if (hex === last) { endItem(); return; }
  if (!path.length && hex === pieceHex(ml, item[ml.piece])) { endItem(); return; }
  path.push(hex);
  changed();
}

function undoStep() {
  const [ml, item] = activeItem();
  if (!item) return;
  if (ml.target && item[ml.target]) delete item[ml.target];
  else if (ml.path && item[ml.path] && item[ml.path].length) item[ml.path].pop();
  changed();
}

// ------------------------------------------------------------------------- the map lists

function drawLists() {
  const box = $("lists");
  box.replaceChildren();
  for (const ml of page.lists) {
    const sec = el("section", {class: "list", id: "list-" + ml.key});
    sec.append(el("h2", {}, el("span", {text: ml.label}), el("span", {class: "rule", text: ml.rule ? "rule " + ml.rule : ""})));
    const pieces = el("div", {class: "pieces"});
    for (const p of ml.pieces) {
      const b = el("button", {type: "button", "data-piece": p.id, title: p.id + " in " + p.hex, text: p.label + " (" + p.hex + ")"});
      if (active && active.list === ml.key && (choice[ml.key] || [])[active.index]?.[ml.piece] === p.id) b.classList.add("active");
      b.addEventListener("click", () => startItem(ml, p));
      pieces.append(b);
    }
    sec.append(pieces);
    const ul = el("ul", {class: "items"});
    (choice[ml.key] || []).forEach((item, i) => {
      const words = [pieceName(ml, item[ml.piece])];
      if (ml.path && item[ml.path] && item[ml.path].length) words.push("> " + item[ml.path].join(" > "));
      if (ml.target && item[ml.target]) words.push("attacks " + item[ml.target]);
      const li = el("li", {"data-index": String(i)}, el("span", {text: words.join(" ")}));
      const edit = el("button", {type: "button", text: "edit", title: "go on with this one on the map"});
      edit.addEventListener("click", () => { const p = ml.pieces.find((q) => q.id === item[ml.piece]); if (p) startItem(ml, p); });
      const rm = el("button", {type: "button", class: "remove", text: "remove", title: "take this item out"});
      rm.addEventListener("click", () => { choice[ml.key].splice(i, 1); active = null; reach = {}; changed(); });
      li.append(edit, rm);
      ul.append(li);
    });
    if (!(choice[ml.key] || []).length) ul.append(el("li", {}, el("span", {text: "none yet"})));
    sec.append(ul);
    box.append(sec);
  }
  const [ml, item] = activeItem();
  $("end-path").disabled = !item || !ml.path;
  $("undo-step").disabled = !item || !((ml.path && item[ml.path] && item[ml.path].length) || (ml.target && item[ml.target]));
  $("target").disabled = !item || !ml.target;
  $("cancel").disabled = !item;
  for (const id of ["undo-step", "end-path", "target", "cancel"]) $(id).hidden = !item;   // no piece in hand: no tools
  $("mode").textContent = !item ? "Click one of your pieces on the map, or in the list." :
    targetMode ? "Click the hex to attack." :
    "Click hexes for " + pieceName(ml, item[ml.piece]) + "'s path; the last one again (or End path) ends it" +
    (ml.target ? "; Shift-click or Target for a hex to attack." : ".");
}

function pieceName(ml, id) {
  const p = ml.pieces.find((q) => q.id === id);
  return p ? p.label : String(id);
}

// ---------------------------------------------------------------------------------- the form

function mapKeys() { return new Set(page.lists.map((ml) => ml.key)); }

function drawForm() {
  const form = $("form");
  form.replaceChildren();
  const keys = Object.keys(page.decision.schema).filter((k) => !mapKeys().has(k));
  if (!keys.length) { $("form-box").hidden = true; return; }
  const spec = page.decision.schema;
  const shown = keys.filter((k) => !spec[k].optional || getAt([k]) !== undefined);
  const more = keys.filter((k) => !shown.includes(k));
  for (const k of shown) form.append(fieldInput(spec[k], [k], k));
  if (more.length) {
    // the optional parts a choice seldom needs, folded away until asked for
    const box = el("details", {id: "more"}, el("summary", {text: "More (optional): " + more.join(", ")}));
    for (const k of more) box.append(fieldInput(spec[k], [k], k));
    form.append(box);
  }
  if (!shown.length && page.lists.length) $("form-title").textContent = "More of the choice";
}

function getAt(path) {
  let v = choice;
  for (const s of path) { if (v === null || typeof v !== "object") return undefined; v = v[s]; }
  return v;
}

function setAt(path, value) {
  let v = choice;
  for (const s of path.slice(0, -1)) { if (typeof v[s] !== "object" || v[s] === null) v[s] = {}; v = v[s]; }
  const last = path[path.length - 1];
  if (value === undefined) delete v[last]; else v[last] = value;
  changed();
}

function fieldInput(spec, path, name) {
  const id = "f-" + path.join("-");
  const help = spec.help ? el("span", {class: "help", text: spec.help + (spec.optional ? " (optional)" : "")}) : "";
  if (spec.type === "dict" && spec.fields) {
    const fs = el("fieldset", {"data-path": path.join(".")}, el("legend", {text: name}));
    if (help) fs.append(help);
    for (const [k, sub] of Object.entries(spec.fields)) fs.append(fieldInput(sub, [...path, k], k));
    return fs;
  }
  const cur = getAt(path);
  let input;
  if (spec.choices && spec.choices.length) {
    input = el("select", {id: id});
    if (spec.optional || cur === undefined) input.append(el("option", {value: "", text: "—"}));
    for (const c of spec.choices) {
      const o = el("option", {value: JSON.stringify(c), text: String(c)});
      if (JSON.stringify(c) === JSON.stringify(cur)) o.selected = true;
      input.append(o);
    }
    input.addEventListener("change", () => setAt(path, input.value === "" ? undefined : JSON.parse(input.value)));
  } else if (spec.type === "int" || spec.type === "number") {
    input = el("input", {id: id, type: "number", step: spec.type === "int" ? "1" : "any",
                         min: spec.minimum, max: spec.maximum, value: cur === undefined || cur === null ? "" : String(cur)});
    input.addEventListener("input", () => {
      const t = input.value.trim();
      const n = Number(t);
      setAt(path, t === "" ? (spec.optional ? undefined : null) : (Number.isFinite(n) ? n : t));
    });
  } else if (spec.type === "bool") {
    input = el("input", {id: id, type: "checkbox"});
    input.checked = cur === true;
    input.addEventListener("change", () => setAt(path, input.checked));
  } else if (spec.type === "str") {
    input = el("input", {id: id, type: "text", value: cur === undefined || cur === null ? "" : String(cur)});
    input.addEventListener("input", () => setAt(path, input.value === "" && spec.optional ? undefined : input.value));
  } else {
    // a list, a dict of values or anything: written as JSON (e.g. [{"unit": "x", "steps": 1}])
    input = el("textarea", {id: id, rows: "3", cols: "36"});
    input.value = cur === undefined ? "" : JSON.stringify(cur);
    input.addEventListener("input", () => {
      const t = input.value.trim();
      if (t === "") { setAt(path, spec.optional ? undefined : (spec.type === "list" ? [] : {})); return; }
      try { setAt(path, JSON.parse(t)); input.classList.remove("bad"); } catch (e) { input.classList.add("bad"); }
    });
  }
  input.dataset.path = "choice." + path.join(".");
  input.setAttribute("name", path.join("."));
  return el("label", {for: id}, el("span", {class: "name", text: name}), input, help);
}

// ------------------------------------------------------------------------------ the verdict

let lastProblems = [];

function changed() {
  drawLists();
  redrawLayer(lastProblems);
  check();
}

async function check() {
  const seq = ++checkSeq;
  let r;
  try { r = await api("check", {choice: choice}); } catch (e) { say(e.message, true); return; }
  if (seq !== checkSeq) return;
  showProblems(r.problems);
}

function showProblems(problems) {
  lastProblems = problems;
  const ul = $("problems");
  ul.replaceChildren();
  document.querySelectorAll("form .bad").forEach((e) => e.classList.remove("bad"));
  if (!problems.length) {
    ul.append(el("li", {class: "ok", text: "The rules accept this choice: Save writes the signed file."}));
  }
  for (const p of problems) {
    const li = el("li", {class: "problem"});
    li.append(el("span", {class: "rule", text: p.rule ? "[rule " + p.rule + "] " : ""}), p.message,
              p.at ? el("span", {class: "code", text: " (at " + p.at + ")"}) : "",
              p.hex ? el("span", {class: "code", text: " on the map at " + p.hex}) : "",
              el("span", {class: "code", text: " " + p.code}));
    li.title = p.line;
    ul.append(li);
    for (const inp of document.querySelectorAll("form [data-path]")) {
      if (p.at && (p.at === inp.dataset.path || p.at.startsWith(inp.dataset.path + ".") || p.at.startsWith(inp.dataset.path + "["))) inp.classList.add("bad");
    }
  }
  const badge = $("badge");
  badge.className = problems.length ? "bad" : "ok";
  badge.textContent = problems.length ? "✖ " + problems.length + " problem" + (problems.length > 1 ? "s" : "") : "✔ accepted";
  $("save").disabled = problems.length > 0;
  $("save-mail").disabled = problems.length > 0;
  redrawLayer(problems);
}

function say(text, bad) {
  const box = $("saved");
  box.className = bad ? "bad" : "";
  box.textContent = text;
}

async function save(mail) {
  $("save").disabled = true;
  let r;
  try { r = await api("save", {choice: choice, mail: mail}); } catch (e) { say(e.message, true); $("save").disabled = false; return; }
  if (r.problems) { showProblems(r.problems); say("Not saved: the rules refuse the choice.", true); return; }
  const box = $("saved");
  box.className = "";
  box.replaceChildren("Saved ", el("strong", {id: "saved-name", text: r.files.join(" and ")}), " in " + r.folder + ". ");
  if (r.mailed) {
    const ul = el("ul", {id: "mailed"});
    for (const line of r.mailed) ul.append(el("li", {text: line}));
    box.append("Submitted, and the mail written to the outbox:", ul);
  } else {
    box.append("Send it: ", el("code", {text: r.send}));
  }
  $("save-mail").disabled = true;
}

// ------------------------------------------------------------------------------------ start

async function start() {
  try { page = await api("page"); } catch (e) { say(e.message, true); return; }
  document.title = "hxref orders: " + page.side + ", " + page.decision.id;
  $("title").textContent = page.title;
  $("who").textContent = page.side + " — " + page.decision.id + (page.decision.secret ? " (secret: saved as a sealed commitment)" : "");
  $("prompt").textContent = page.decision.prompt;
  $("rule").textContent = "rule " + page.decision.rule;
  for (const line of page.owed) $("owed").append(el("li", {text: line}));
  for (const line of page.notes) $("notes").append(el("li", {text: line}));
  choice = JSON.parse(JSON.stringify(page.choice || {}));
  for (const ml of page.lists) if (!Array.isArray(choice[ml.key])) choice[ml.key] = [];
  $("save-mail").hidden = !page.mail;
  drawMap();
  $("lists").hidden = page.lists.length === 0;
  if (page.lists.length === 0) $("form-title").textContent = "Your choice";
  drawForm();
  $("end-path").addEventListener("click", endItem);
  $("undo-step").addEventListener("click", undoStep);
  $("cancel").addEventListener("click", endItem);
  $("target").addEventListener("click", () => { targetMode = true; drawLists(); });
  $("save").addEventListener("click", () => save(false));
  $("save-mail").addEventListener("click", () => save(true));
  $("done").addEventListener("click", async () => {
    try { await api("done"); } catch (e) { /* the server is gone already */ }
    document.querySelector("main").replaceChildren(el("p", {id: "closed", text: "The order page is closed; you may close this tab."}));
  });
  changed();
}

start();
