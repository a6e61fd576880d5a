// Table Companion live page, common part: follows /api/stream, draws the header, prompts and
// announcements, and the host's shell (login, undo, simulated table, new game, history, box).
// Each game's own board and controls come from its renderer in static/games/<game>.js, which
// registers itself with registerGame(). No framework, no CDN: works offline.
"use strict";

const TEXTS = JSON.parse(document.getElementById("texts").textContent);
const BOOT = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);

/** Put ``html`` in ``el`` unless the page last put exactly that there: most redraws (a
 * reconnect, the host check, a poll of the box, an update to another part of the page) change
 * nothing, and replacing a button by its twin loses a tap that lands in between (it did, in a
 * browser test) as well as focus and an unfolded detail. */
const drawn = new WeakMap();
function draw(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}
const STALE_AFTER = 40000;
const GAMES = {};
const SECTIONS = ["helper", "board", "heroes", "reserve"];

const app = {
  lang: localStorage.getItem("companion-lang") || BOOT.lang,
  pic: null, version: -1, log: [], logVersion: 0, es: null, lastMessage: 0,
  host: false, csrf: null, pinSet: null, simulate: BOOT.simulate, hostOpen: false,
  busy: Promise.resolve(), catalogs: {}, frames: null, sensors: false,
  setupGame: null, role: null, sessions: null, sessionsOpen: false,
  box: {status: null, seen: "", checks: null, open: false},
  pick: {mode: null, mover: null, targets: [], dice: [], grey: null, reroll: false,
    search: "", whites: []},
  refusal: null,  // the last refusal of a request (its message shown in the form that sent it)
  waiting: new Set(),  // checks run when a new version arrives (see shown())
  unfolded: {},  // a folded section (details[data-details]) the host opened, kept across redraws
};

/** A game's renderer: {top, board, setupForm, host, forms, actions, ...} (see docs/web.md). */
function registerGame(id, renderer) { GAMES[id] = renderer; }
const gameOf = (view) => GAMES[view && view.game] || null;

// -- texts ---------------------------------------------------------------------------------------

/** French words elided before a vowel: ``{hero:de}`` is "de Gary" or "d'Anna" (as
 * companion/i18n does for the server's messages). */
const ELIDED = {de: "d'", que: "qu'", le: "l'", la: "l'", ne: "n'", se: "s'", je: "j'",
  ce: "c'", jusque: "jusqu'", lorsque: "lorsqu'", puisque: "puisqu'"};

/** One field of a text: ``{n:one=card|other=cards}`` the form the language's plural rules
 * (the browser's CLDR data, Intl.PluralRules) give for the value, ``{hero:de}`` elided. */
function field(value, spec) {
  if (spec && spec.includes("=")) {
    const forms = Object.fromEntries(spec.split("|").map((f) => [f.slice(0, f.indexOf("=")),
      f.slice(f.indexOf("=") + 1)]));
    return forms[new Intl.PluralRules(app.lang).select(Math.abs(Number(value)))] ?? forms.other;
  }
  const shown = String(value ?? "—");
  if (spec && ELIDED[spec]) {
    return /^[aeiouyàâäéèêëîïôöùûüœæ]/i.test(shown) ? ELIDED[spec] + shown : `${spec} ${shown}`;
  }
  return shown;
}

function t(key, params) {
  const text = TEXTS[app.lang][key] ?? TEXTS.en[key] ?? key;
  return params ? text.replace(/\{(\w+)(?::([^}]*))?\}/g, (_, k, spec) => field(params[k], spec))
    : text;
}

/** Each game's own names, for a game set up after the page loaded (TEXTS holds every game's
 * names merged, those of the game on the table then last, with its players). */
const NAMES = JSON.parse(document.getElementById("names").textContent);

/** An id's display name in the page's language, as the game on the table names it. */
const name = (id) => {
  const game = app.pic && app.pic.view.game;
  const own = game && game !== BOOT.game && NAMES[game] ? NAMES[game][app.lang]["name." + id]
    : undefined;
  return own ?? TEXTS[app.lang]["name." + id] ?? String(id);
};

const both = (texts) => (texts ? texts[app.lang] ?? texts.en : "");

const esc = (s) => String(s ?? "").replace(/[&<>"']/g,
  (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);

// -- the live stream -----------------------------------------------------------------------------

function alive() {
  app.lastMessage = Date.now();
  $("conn").className = "conn on";
  $("conn").textContent = t("ui.live");
  $("conn").dataset.version = Math.max(app.version, 0);  // for tests and tools, not for players
}

function connect() {
  if (app.es) app.es.close();
  const es = new EventSource("/api/stream");
  app.es = es;
  es.addEventListener("snapshot", (e) => {
    const data = JSON.parse(e.data);
    app.log = data.log;
    app.logVersion = data.log.length ? data.log[data.log.length - 1].version : 0;
    accept(data, true);
    if (app.host) hostStatus();  // a restarted server kept the login, not the CSRF token
  });
  es.addEventListener("update", (e) => {
    const data = JSON.parse(e.data);
    if (data.version > app.logVersion) {
      app.log.push({version: data.version, said: data.said, label: data.label});
      app.log = app.log.slice(-60);
      app.logVersion = data.version;
    }
    accept(data, false);
  });
  es.addEventListener("ping", (e) => {
    alive();
    if (JSON.parse(e.data).version > app.version) connect();  // something was missed
  });
  es.onopen = alive;
  es.onerror = () => {
    $("conn").className = "conn off";
    $("conn").textContent = t("ui.offline");
    if (es.readyState === EventSource.CLOSED) setTimeout(connect, 300);
  };
}

function accept(data, snapshot) {
  if (!snapshot && data.version <= app.version) { alive(); return; }
  const fresh = !app.pic || (data.view.game !== app.pic.view.game);
  if (snapshot || data.version !== app.version) app.pick = {...app.pick, targets: [], dice: [],
    grey: null, reroll: false, mode: null, mover: null, whites: []};
  app.pic = data;
  app.version = data.version;
  for (const check of [...app.waiting]) check();
  if (fresh || data.event === "setup" || data.event === "teach") app.catalogs = {};
  app.frames = null;
  alive();
  render();
  loadRole();
}

setInterval(() => {
  if (Date.now() - app.lastMessage > STALE_AFTER) connect();
}, 1000);
window.addEventListener("online", connect);

// -- host requests -------------------------------------------------------------------------------

async function hostStatus() {
  const data = await (await fetch("/api/host", {cache: "no-store"})).json();
  app.host = data.host;
  app.csrf = data.csrf || null;
  app.pinSet = data.pin_set;
  app.simulate = data.simulate;
  app.sensors = data.sensors;
  render();  // a board may offer the host more (e.g. Attack on Titan's "Teach it")
  if (app.host && app.sensors) loadBox();
}

/** POST JSON (or a form, with a file) as the host, one request after the other. ``body`` may be
 * a function, called when the request goes: an event's ``based_on`` is then the version the page shows by that time,
 * which includes what the host's previous events did (each accepted event is awaited on the
 * stream before the next request leaves, so two taps in a row are never refused as stale). */
function post(url, body) {
  app.busy = app.busy.then(async () => {
    const payload = typeof body === "function" ? body() : body;
    const form = payload instanceof FormData;  // a teach form sent with its photo
    const response = await fetch(url, {method: "POST", credentials: "same-origin",
      headers: {...(form ? {} : {"Content-Type": "application/json"}),
        "X-CSRF-Token": app.csrf || "", "X-Companion-Lang": app.lang},
      body: form ? payload : JSON.stringify(payload)});
    const next = response.headers.get("X-CSRF-Token");
    if (next) app.csrf = next;
    const data = await response.json().catch(() => ({}));
    app.refusal = response.ok ? null : data;
    if (response.ok) {
      if (typeof data.version === "number") {
        await shown(data.version);
        bringAwaited();
      }
      return data;
    }
    toast(data.message || String(response.status));
    Teach.refused(data, form ? JSON.parse(payload.get("event")) : payload.event);
    renderHost();  // a refusal that needs a card taught opens its form at the top
    const teach = $("teach-any") && $("teach-any").closest("#host") && $("teach-any");
    if (teach) bringAwaited(teach);
    if (response.status === 403) await hostStatus();
    return null;
  }).catch((error) => { toast(String(error)); return null; });
  return app.busy;
}

/** Scroll the control the table waits for into view, right under the sticky header, when it is
 * not on screen (after "Start the game" the page stayed where the form's button was, the Draw
 * button above it): ``target``, else the first control of the host's box. */
function bringAwaited(target) {
  if (!app.hostOpen || !app.host) return;
  const el = target || $("host").querySelector(".undone, button:not([disabled]), select, " +
    "input:not([type=hidden]), textarea");
  if (!el) return;
  const top = $("top").getBoundingClientRect().bottom;
  const box = el.getBoundingClientRect();
  if (box.top >= top && box.bottom <= window.innerHeight) return;
  window.scrollBy(0, box.top - top - 8);
}

/** Resolves once the page shows ``version`` (from the stream), or after 2 s regardless. */
function shown(version) {
  if (app.version >= version) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); app.waiting.delete(check); resolve(); };
    const check = () => { if (app.version >= version) done(); };
    const timer = setTimeout(done, 2000);
    app.waiting.add(check);
  });
}

const send = (event) => post("/api/events", () => ({event, based_on: app.version}));

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

/** The picker data of a game (``/api/catalog?game=``), loaded once; null while it loads. */
function catalogFor(game) {
  if (app.catalogs[game] === undefined) {
    app.catalogs[game] = null;
    fetch("/api/catalog?game=" + encodeURIComponent(game)).then((r) => r.json())
      .then((data) => { app.catalogs[game] = data; renderHost(); });
  }
  return app.catalogs[game];
}

async function loadBox() {
  const response = await fetch("/api/box", {cache: "no-store",
    headers: {"X-Companion-Lang": app.lang}});
  if (response.ok) showBox(await response.json());
}

function showBox(status) {
  const pending = status.pending_tag;
  const seen = JSON.stringify({...status, pending_tag: pending && pending.uid});
  app.box.status = status;
  if (seen === app.box.seen) return;
  app.box.seen = seen;
  renderHost();
}

async function loadDoctor() {
  app.box.checks = [];
  app.box.lang = app.lang;
  const response = await fetch("/api/doctor", {cache: "no-store",
    headers: {"X-Companion-Lang": app.lang}});
  const data = await response.json();
  if (!response.ok) { toast(data.message); app.box.checks = null; return; }
  app.box.checks = data.checks;
  app.box.seen = "";
  showBox(data.box);
}

setInterval(() => {
  if (app.host && app.hostOpen && app.sensors) loadBox();
}, 2000);

async function loadFrames() {
  const data = await (await fetch("/api/history")).json();
  const current = data.games.find((g) => g.id === data.current);
  app.frames = current ? current.frames : [];
  renderHost();
}

// -- rendering -----------------------------------------------------------------------------------

/** The language the switch goes to: the next one of the server's languages, round. */
function nextLanguage() {
  return BOOT.languages[(BOOT.languages.indexOf(app.lang) + 1) % BOOT.languages.length];
}

function render() {
  document.documentElement.lang = app.lang;
  const next = nextLanguage();
  $("lang-switch").textContent = next.toUpperCase();
  $("lang-switch").setAttribute("aria-label", TEXTS[next]["ui.language"]);
  $("lang-switch").lang = next;
  $("history-link").textContent = t("ui.history");
  $("host-toggle").textContent = app.hostOpen ? t("ui.close") : t("ui.host");
  const conn = $("conn");  // the link's state, said again in the language just chosen
  if (conn.classList.contains("on") || conn.classList.contains("off")) {
    conn.textContent = t(conn.classList.contains("on") ? "ui.live" : "ui.offline");
  }
  if (!app.pic) return;
  const game = gameOf(app.pic.view);
  renderTop(game);
  renderPrompts();
  for (const section of SECTIONS) {
    const html = game && game[section] ? game[section](app.pic.view) : "";
    draw($(section), html);
    $(section).hidden = !html;
  }
  renderLog();
  renderHost();
  renderRole();
}

function renderTop(game) {
  const {view, texts} = app.pic;
  $("awaited").textContent = both(texts.expects) || "";
  if (!game) {
    $("headline").textContent = view.game ? name(view.game) : t("ui.no_game");
    $("deck").textContent = "";
    return;
  }
  const top = game.top(view);
  const score = view.score == null || typeof view.score === "object" ? ""
    : ` · ${esc(t("ui.score", {n: view.score}))}`;
  const over = view.reason ? t("ui.game_over_why", {result: name(view.status),
    reason: name(view.reason)}) : t("ui.game_over", {result: name(view.status)});
  draw($("headline"), view.status === "playing" ? top.headline
    : `<span class="over ${esc(view.status)}">${esc(over)}</span>${score}`);
  draw($("deck"), top.sub);
}

function renderPrompts() {
  const prompts = app.pic.texts.prompts || [];
  const warnings = (app.pic.texts.warnings || []).map((w) => `<p class="warning">⚠ ` +
    `${esc(both(w))}</p>`).join("");
  $("prompts").hidden = !prompts.length && !warnings;
  draw($("prompts"), warnings + (prompts.length ? `<h2>${esc(t("ui.prompts"))}</h2>` : "") +
    prompts.map((p) => `<p class="prompt">${esc(both(p))}</p>`).join(""));
}

/** The announcements, newest version first; each version's lines together, in the order they
 * were said. */
function renderLog() {
  const versions = app.log.slice().reverse().filter((entry) => entry.said.length).map((entry) =>
    `<li><div>${entry.said.map((said) => `<p>${esc(both(said))}</p>`).join("")}</div></li>`);
  // the list scrolls (at most 40% of the screen): focusable, so a keyboard can scroll it too
  draw($("log"), `<h2 id="log-title">${esc(t("ui.log"))}</h2><ol class="log" ` +
    `tabindex="0" aria-labelledby="log-title">${versions.join("")}</ol>`);
}

// -- host controls -------------------------------------------------------------------------------

const button = (action, label, extra = "") =>
  `<button type="button" data-act="${action}" ${extra}>${esc(label)}</button>`;

function options(values, selected, label = name) {
  return values.map((v) => `<option value="${esc(v)}"${v === selected ? " selected" : ""}>` +
    `${esc(label(v))}</option>`).join("");
}

/** The host's controls in two places: the decision the table waits for (with Undo and the
 * simulated table's buttons) at the top, right above the board it may need tapped; everything
 * else (corrections, teaching, history, the box, a new game, logging out) at the end of the page,
 * so that the decision and its buttons fit the first screen of a phone. */
function renderHost() {
  const box = $("host");
  const more = $("host-more");
  box.hidden = !app.hostOpen;
  more.hidden = true;
  $("host-toggle").textContent = app.hostOpen ? t("ui.close") : t("ui.host");
  document.body.classList.toggle("hosting", app.hostOpen && app.host);
  const undoable = app.pic && app.pic.undoable !== 0;  // nothing to undo right after a setup
  draw($("undo-slot"), app.hostOpen && app.host && undoable ? button("undo", t("ui.undo")) : "");
  if (!app.hostOpen || !app.pic) return;
  if (!app.host && app.pinSet === null) { draw(box, "<p>…</p>"); return; }
  if (!app.host) {
    const first = !app.pinSet;
    draw(box, `<h2>${esc(t(first ? "ui.pin_choose" : "ui.login"))}</h2>` +
      `<form data-form="${first ? "pin" : "login"}">` + (first ? `<input name="code" ` +
      `inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required ` +
      `aria-label="${esc(t("ui.setup_code"))}" placeholder="${esc(t("ui.setup_code"))}">` : "") +
      `<input name="pin" type="password" ` +
      `inputmode="numeric" autocomplete="current-password" pattern="[0-9]{4,12}" required ` +
      `aria-label="${esc(t("ui.pin"))}" placeholder="${esc(t("ui.pin"))}">` +
      `<button>${esc(t(first ? "ui.pin_set" : "ui.login_button"))}</button></form>`);
    return;
  }
  const view = app.pic.view;
  const expects = view.expects;
  const game = gameOf(view);
  const simulated = (game && game.simulated) || [];
  const tools = (app.simulate && expects.kind === "dice" && simulated.includes("dice")
    ? button("roll", t("ui.roll"), 'class="strong"') : "") +
    (app.simulate && expects.kind === "card" && simulated.includes("card")
      ? button("draw", t("ui.draw"), 'class="strong"') : "");
  let html = undone() + (tools ? `<div class="row tools">${tools}</div>` : "");
  if (expects.kind === "setup") html += newGame();
  else if (game && expects.kind !== "nothing") html += game.host(view, expects);
  // the teach form, open when a prompt or a refusal names a card to teach, is drawn with the
  // decision: it is what the table needs next (it was four screens down)
  const teach = view.game && expects.kind !== "setup" ? Teach.section(view) : "";
  const teachNow = teach.includes('data-details="teach-any" open');
  draw(box, `<h2 class="sr-only">${esc(t("ui.host"))}</h2>` + html + (teachNow ? teach : ""));
  let extra = game && game.more && expects.kind !== "setup" ? game.more(view) : "";
  if (!teachNow) extra += teach;
  if (game && game.roles) extra += roleLinks(game.roles);
  if (view.game) extra += boxFile(view.game);
  extra += historyJump() + boxSection() + sessionsSection();
  if (view.game && expects.kind !== "setup") {
    extra += `<details><summary>${esc(t("ui.new_game"))}</summary>${newGame()}</details>`;
  }
  draw(more, `<h2>${esc(t("ui.host_more"))}</h2>` + extra +
    `<div class="row">${button("logout", t("ui.logout"), 'class="quiet"')}</div>`);
  more.hidden = false;
  Typed.restore(box);
  Typed.restore(more);
  keepBoxFile(more);
  const search = box.querySelector("input[name=search]");
  if (search && app.pick.focusSearch) { search.focus(); search.setSelectionRange(99, 99); }
}

/** Which card an unknown tag is, for a game whose renderer does not ask it itself: every id
 * the game knows, by kind. */
function tagQuestion(pending) {
  const known = catalogFor(app.pic.view.game);
  const ids = known ? Object.entries(known.ids || {}) : [];
  return `<form data-form="enroll" class="tag-question"><h3>` +
    `${esc(t("ui.tag_question", {uid: pending.uid}))} ` +
    `<small>${esc(t("ui.tag_left", {n: pending.seconds_left}))}</small></h3>` +
    `<select name="card" required>${ids.map(([kind, items]) =>
      `<optgroup label="${esc(name(kind))}">${items.map((id) =>
        `<option value="${esc(id)}">${esc(name(id))}</option>`).join("")}</optgroup>`).join("")}` +
    `</select> <button>${esc(t("ui.tag_name_it"))}</button></form>`;
}

/** The new-game form: which game (every installed one), then that game's own setup form. */
function newGame() {
  const chosen = app.setupGame || (app.pic.view.game in GAMES ? app.pic.view.game : BOOT.games[0]);
  const game = GAMES[chosen];
  return `<label class="game-choice">${esc(t("ui.game"))} <select name="game-choice">` +
    options(BOOT.games, chosen) + "</select></label>" +
    (game ? game.setupForm() : `<p>${esc(t("ui.no_renderer"))}</p>`);
}

/** Links a host hands to a secret role's phone (e.g. the Titan), each with a fresh token. */
function roleLinks(roles) {
  const links = roles.map((role) => button("role-link", t("ui.role_link", {role: name(role)}),
    `data-role="${esc(role)}"`)).join("");
  const shown = app.roleLink ? `<div class="qr">${app.roleLink.qr}</div><p class="role-link">` +
    `<a href="${esc(app.roleLink.link)}" target="_blank">` +
    `${esc(location.origin + app.roleLink.link)}</a></p>` : "";
  return `<details data-details="roles"${app.unfolded.roles ? " open" : ""}><summary>` +
    `${esc(t("ui.roles"))}</summary><p>${esc(t("ui.roles_hint"))}</p>` +
    `<div class="row">${links}</div>${shown}</details>`;
}

const cardLabel = (id) => {
  const catalog = app.pic && app.pic.view.game && catalogFor(app.pic.view.game);
  return (catalog && catalog.cards && catalog.cards[id] && catalog.cards[id].name) || name(id);
};

const clock = (at) => new Date(at * 1000).toLocaleTimeString(app.lang);

function boxSection() {
  const box = app.box.status;
  const game = gameOf(app.pic && app.pic.view);
  const asked = box && box.pending_tag && !(game && game.asksTags);
  let html = (asked ? tagQuestion(box.pending_tag) : "") + `<details data-details="box"${app.box.open ? " open" : ""}><summary>` +
    `${esc(t("ui.box"))}</summary>`;
  if (!box) return html + "<p>…</p></details>";
  const failing = Object.entries(box.problems);
  html += `<p>${esc(t(!box.running ? "ui.box_off" : failing.length ? "ui.box_failing"
    : "ui.box_ok"))}</p>`;
  if (failing.length) {
    html += `<ul class="problems">${failing.map(([device, problem]) =>
      `<li><b>${esc(device)}</b>: ${esc(problem)}</li>`).join("")}</ul>`;
  }
  const tag = box.last_tag;
  html += `<p>${tag ? esc(t("ui.box_last_tag", {uid: tag.uid, time: clock(tag.at),
    reader: tag.reader})) + " · " + esc(tag.card ? t("ui.box_tag_card", {card: cardLabel(tag.card)})
    : t("ui.box_tag_unknown")) : esc(t("ui.box_no_tag"))}</p>`;
  if (box.events.length) {
    html += `<h4>${esc(t("ui.box_changes"))}</h4><ol class="changes">` +
      box.events.slice().reverse().map((e) => `<li>${esc(clock(e.at))} ` +
        `${esc(t(e.problem ? "ui.box_missing" : "ui.box_back", {device: e.device}))}</li>`)
        .join("") + "</ol>";
  }
  const mark = {true: "✓", false: "✗", null: "–"};
  const checks = (app.box.checks || []).map((c) => `<li class="check-${c.ok}">` +
    `<b>${mark[c.ok]} ${esc(c.name)}</b> ` +
    `${esc(c.detail)}${c.fix ? `<br><small>${esc(t("ui.box_fix"))} ${esc(c.fix)}</small>` : ""}` +
    "</li>").join("");
  return html + button("doctor", t("ui.box_check")) +
    (checks ? `<ul class="checks">${checks}</ul>` : "") + "</details>";
}

/** The host sessions (this phone and the others logged in), each revocable, and "log out
 * everywhere". */
function sessionsSection() {
  const list = app.sessions;
  const when = (s) => new Date(s.expires * 1000).toLocaleTimeString(app.lang,
    {hour: "2-digit", minute: "2-digit"});
  const rows = list ? list.map((s) => `<li>${esc(s.agent.slice(0, 60) || s.id)} · ` +
    `${esc(t("ui.session_until", {time: when(s)}))}` +
    (s.current ? ` <b>(${esc(t("ui.session_this"))})</b>` : " " +
      button("revoke", t("ui.revoke"), `data-id="${esc(s.id)}" class="quiet"`)) +
    "</li>").join("") : "<li>…</li>";
  return `<details data-details="sessions"${app.sessionsOpen ? " open" : ""}><summary>` +
    `${esc(t("ui.sessions"))}</summary><ul class="sessions">${rows}</ul>` +
    button("logout-all", t("ui.logout_all"), 'class="quiet"') + "</details>";
}

async function loadSessions() {
  const response = await fetch("/api/sessions", {cache: "no-store"});
  if (response.ok) { app.sessions = (await response.json()).sessions; renderHost(); }
}

/** "A box in one file": download every definition and tag taught for the game, or import a
 * file, checked whole first; its report says what each entry did (docs/cards.md). */
function boxFile(game) {
  const report = app.boxReport;
  const lines = report ? `<p role="status"><strong>${esc(report.message)}</strong></p>` +
    `<ul class="report">${report.entries.map((e) => `<li class="o-${esc(e.outcome)}">` +
      `${esc(e.line)}${e.reason ? " — " + esc(e.reason) : ""}</li>`).join("")}</ul>` : "";
  return `<details data-details="box-file"${app.unfolded["box-file"] ? " open" : ""}>` +
    `<summary>${esc(t("ui.box_file"))}</summary><p>${esc(t("ui.box_file_hint"))}</p>` +
    `<p><a href="/api/definitions/export?game=${encodeURIComponent(game)}" ` +
    `download="${esc(game)}-box.json">${esc(t("ui.box_export"))}</a></p>` +
    `<form data-form="box-import" class="event"><label><span>${esc(t("ui.box_import_file"))}` +
    `</span> <input type="file" name="file" accept=".json,application/json" required></label>` +
    `<label><input type="checkbox" name="replace"> ${esc(t("ui.box_replace"))}</label>` +
    `<button>${esc(t("ui.box_import"))}</button></form>${lines}</details>`;
}

/** Put the chosen box file back in its field after a redraw (the report of a refused import
 * redraws the form): "Replace mine" ticked then Import sends the same file again. */
function keepBoxFile(box) {
  const input = box.querySelector("form[data-form=box-import] input[name=file]");
  if (!input || !app.boxFile || input.files.length) return;
  const chosen = new DataTransfer();
  chosen.items.add(app.boxFile);
  input.files = chosen.files;
}

/** Read the chosen box file and send it; the report is shown either way. */
async function importBox(form) {
  const file = form.querySelector("input[name=file]").files[0];
  if (!file) return;
  let box;
  try { box = JSON.parse(await file.text()); } catch (error) {
    app.boxReport = {message: t("ui.box_not_json", {detail: error.message}), entries: []};
    return renderHost();
  }
  const done = await post("/api/definitions/import", {box,
    replace: form.querySelector("input[name=replace]").checked});
  app.boxReport = done || (app.refusal && app.refusal.entries ? app.refusal
    : {message: (app.refusal && app.refusal.message) || "", entries: []});
  renderHost();
}

/** The points of the history to go back to, newest first, each with how many steps back it
 * is; going back several steps asks a second tap on the same button (it undoes a lot). */
function historyJump() {
  const frames = app.frames;
  // every point but the last (the table as it is now), newest first: i + 1 steps back
  const list = frames ? frames.slice(0, -1).reverse().map((f, i) => {
    const steps = i + 1;
    const asked = app.confirmBack === f.seq;
    return `<li><span>${esc(both(f.label) || f.type)}</span> ` + button("back-to",
      asked ? t("ui.back_confirm", {n: steps}) : t("ui.back_here"),
      `data-seq="${f.seq}" data-steps="${steps}"${asked ? ' class="strong"' : ""}`) + "</li>";
  }).join("") : "";
  return `<details data-details="history"${frames ? " open" : ""}><summary>` +
    `${esc(t("ui.history_jump"))}</summary>` + (frames ? `<ul class="jump">${list}</ul>`
    : button("load-history", t("ui.show_history"))) + "</details>";
}

/** Going back to a point of the history: at once for one step, after a second tap for more. */
function backTo(el) {
  const seq = Number(el.dataset.seq);
  if (Number(el.dataset.steps) > 1 && app.confirmBack !== seq) {
    app.confirmBack = seq;
    return renderHost();
  }
  app.confirmBack = null;
  return send({type: "undo", to: seq});
}

/** What an undo just did, said at the top of the host's controls (the announcements are far
 * down the page). */
function undone() {
  if (app.pic.event !== "undo") return "";
  const entry = app.log.find((e) => e.version === app.version);
  return entry ? entry.said.map((said) => `<p class="undone" role="status">↶ ${esc(both(said))}` +
    "</p>").join("") : "";
}

// -- a secret role's own view (e.g. the Titan's hand and face-down card) ---------------------------

async function loadRole() {
  if (!app.role) return;
  const response = await fetch("/api/role", {cache: "no-store",
    headers: {"X-Role-Token": app.role.token}});
  const pic = response.ok ? await response.json() : null;
  // two events in a row fetch twice: the older answer may come last, and must not hide the newer
  if (pic && app.role.pic && pic.version < app.role.pic.version) return;
  app.role.pic = pic;
  renderRole();
}

function renderRole() {
  const box = $("role");
  const pic = app.role && app.role.pic;
  const game = pic && gameOf(pic.view);
  box.hidden = !(game && game.role);
  if (!box.hidden) {
    draw(box, game.role(pic));
    Typed.restore(box);
  }
}

/** Submit one of the role's own events from its phone; resolves to whether it was accepted
 * (a refusal is shown). */
function sendAsRole(event) {
  return fetch("/api/role/events", {method: "POST", headers: {"Content-Type": "application/json",
    "X-Role-Token": app.role.token, "X-Companion-Lang": app.lang},
  body: JSON.stringify({event, based_on: app.version})}).then(async (response) => {
    if (!response.ok) toast((await response.json()).message);
    return response.ok;
  });
}

// -- host events from the controls -----------------------------------------------------------------

/** What the host (or a secret role's player) typed in a form and has not sent yet survives
 * redraws: an event from the table (a button, a tag, the camera, another phone) redraws the
 * controls while someone types; forms drawn several times tell themselves apart by data-key. Only
 * fields the host changed are put back, so a form prefilled from the state follows the state. */
const Typed = (() => {
  const values = new Map();
  const formKey = (form) => `${form.dataset.form}/${form.dataset.game || ""}/` +
    `${form.dataset.event || ""}/${form.dataset.key || ""}/`;
  const key = (el) => {
    if (el.type === "file") return null;  // a chosen file cannot be put back
    const form = el.closest(
      "#host form[data-form], #host-more form[data-form], #role form[data-form]");
    return form && el.name ? formKey(form) + el.name +
      (el.type === "radio" || el.type === "checkbox" ? "=" + el.value : "") : null;
  };
  const checkable = (el) => el.type === "checkbox" || el.type === "radio";

  return {
    keep(el) {
      const k = key(el);
      if (k) values.set(k, checkable(el) ? el.checked : el.value);
    },
    restore(box) {
      for (const el of box.querySelectorAll("form[data-form] [name]")) {
        const k = key(el);
        if (!values.has(k)) continue;
        if (checkable(el)) el.checked = values.get(k);
        else el.value = values.get(k);
      }
    },
    forget(form) {
      const prefix = formKey(form);
      for (const k of [...values.keys()]) if (k.startsWith(prefix)) values.delete(k);
    },
  };
})();

function formData(form) { return Object.fromEntries(new FormData(form).entries()); }

const FORMS = {
  pin: (d) => post("/api/pin", {pin: d.pin, code: d.code}).then((r) => r && hostStatus()),
  login: (d) => post("/api/login", {pin: d.pin}).then((r) => r && hostStatus()),
  "teach-any": () => Teach.submit(),
  enroll: (d) => post("/api/box/enroll", {card: d.card}).then((r) => r && loadBox()),
  "box-import": (_data, form) => importBox(form),
};

const ACTIONS = {
  undo: () => send({type: "undo"}),
  roll: () => post("/api/simulate/roll", {}),
  draw: () => post("/api/simulate/draw", {}),
  logout: () => post("/api/logout", {}).then(hostStatus),
  "logout-all": () => post("/api/logout", {all: true}).then(hostStatus),
  revoke: (el) => post("/api/sessions/revoke", {id: el.dataset.id}).then((r) => {
    if (r) { app.sessions = r.sessions; renderHost(); }
  }),
  doctor: () => loadDoctor(),
  "load-history": () => loadFrames(),
  "back-to": backTo,
  "more-items": (el) => Fields.more(el),
  step: (el) => Fields.step(el),
  "role-link": (el) => post("/api/role/" + el.dataset.role, {}).then((r) => {
    if (r) { app.roleLink = r; renderHost(); }
  }),
};

/** A form or action of the page itself, else of the game being set up or played. */
function handler(kind, key, form) {
  const own = kind === "forms" ? FORMS : ACTIONS;
  if (own[key]) return own[key];
  const setup = form && form.closest("#host, #host-more") && key === "setup";
  const game = setup ? GAMES[form.dataset.game] : gameOf(app.pic && app.pic.view);
  return game && game[kind] && game[kind][key];
}

document.addEventListener("click", (e) => {
  const summary = e.target.closest("details[data-details] > summary");
  if (summary) {  // the host folds or unfolds a section: it stays so across redraws, one
    // drawn before the toggle event comes too (it comes later, from the browser's queue)
    const details = summary.parentElement;
    const name = details.dataset.details;
    app.unfolded[name] = !details.open;
    if (name.startsWith("event-")) Controls.fold(name.slice("event-".length), !details.open);
  }
  const target = e.target.closest("[data-act],[data-tile],[data-slot]");
  if (!target) return;
  if (target.dataset.act) {
    const act = handler("actions", target.dataset.act, target);
    if (act) act(target);
    return;
  }
  const game = gameOf(app.pic && app.pic.view);
  if (app.host && app.hostOpen && game && game.tap) game.tap(target);
});

document.addEventListener("submit", (e) => {
  const form = e.target.closest("form[data-form]");
  if (!form) return;
  e.preventDefault();
  const submit = handler("forms", form.dataset.form, form);
  if (!submit) return;
  // what was typed is forgotten once it is accepted (and the form redrawn afresh), kept when
  // it is refused, to be corrected rather than typed again
  Promise.resolve(submit(formData(form), form)).then((done) => {
    if (!done) return;
    Typed.forget(form);
    const container = form.closest("#host, #host-more, #role");
    if (container) drawn.delete(container);
    render();
  });
});

document.addEventListener("input", (e) => {
  if (!Teach.keep(e.target) && !Fields.keep(e.target)) Typed.keep(e.target);
  if (e.target.name === "search") {
    app.pick.search = e.target.value;
    app.pick.focusSearch = true;
    renderHost();
  }
});

document.addEventListener("change", (e) => {
  if (!Teach.keep(e.target) && !Fields.keep(e.target)) Typed.keep(e.target);
  if (e.target.name === "game-choice") { app.setupGame = e.target.value; renderHost(); }
  if (e.target.type === "file" && e.target.closest("form[data-form=box-import]")) {
    app.boxFile = e.target.files[0] || null;
  }
  if (e.target.name === "mover") app.pick.mover = e.target.value;
  if (e.target.name === "hero" && e.target.closest("form[data-form=fix-hero]")) {
    app.pick.fixHero = e.target.value;
    renderHost();
  }
});

document.addEventListener("toggle", (e) => {  // toggle does not bubble: caught on the way down
  if (e.target.dataset && e.target.dataset.details === "box") {
    app.box.open = e.target.open;
    if (app.box.open && !app.box.checks) loadDoctor();
  }
  if (e.target.dataset && e.target.dataset.details === "teach-any") Teach.fold(e.target.open);
  if (e.target.dataset && e.target.dataset.details === "sessions") {
    app.sessionsOpen = e.target.open;
    if (app.sessionsOpen && !app.sessions) loadSessions();
  }
  if (e.target.dataset && e.target.dataset.details) {
    app.unfolded[e.target.dataset.details] = e.target.open;
  }

}, true);

$("lang-switch").addEventListener("click", () => {
  app.lang = nextLanguage();
  localStorage.setItem("companion-lang", app.lang);
  if (app.box.checks && app.box.lang !== app.lang) loadDoctor();  // its words, in this language
  $("toast").hidden = true;  // said in the other language
  render();
  for (const part of [Link.draw, Preview.draw, Dice.redraw]) part();  // at once, not in 1 s
});

$("host-toggle").addEventListener("click", () => {
  app.hostOpen = !app.hostOpen;
  render();
});

document.addEventListener("DOMContentLoaded", () => {  // after every game's renderer
  const token = new URLSearchParams(location.hash.slice(1)).get("role");
  if (token) app.role = {token, pic: null};
  render();
  hostStatus();
  connect();
});
