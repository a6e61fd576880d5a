// The café page: every table's game, phase and time since its last event, live (SSE).
"use strict";
(() => {
  const words = JSON.parse(document.getElementById("words").textContent);
  // in the server's order: the switch goes round them
  const languages = document.getElementById("lang-switch").dataset.languages.split(" ");
  let lang = document.documentElement.lang;
  const tables = new Map();  // id -> the latest picture of the table
  const body = document.querySelector("#tables tbody");
  const say = (key, n) => (words[lang][key] || key).replace("{n}", n);

  function since(at) {
    if (!at) return say("cafe.never");
    const s = Math.max(0, Math.round(Date.now() / 1000 - at));
    if (s < 120) return say("cafe.seconds", s);
    if (s < 7200) return say("cafe.minutes", Math.floor(s / 60));
    return say("cafe.hours", Math.floor(s / 3600));
  }

  function cells(t) {
    const game = t.game ? (t.game_name && t.game_name[lang]) || t.game : say("cafe.no_game");
    const state = t.online === false ? say("cafe.offline")
      : t.status && t.status !== "playing" ? say("cafe.over") : "";
    return [[`name`, t.name || t.id], [`game`, state ? `${game} (${state})` : game],
            [`phase`, t.phase ?? ""], [`round`, t.round ?? ""],
            [`waiting`, (t.waiting && t.waiting[lang]) || ""], [`since`, since(t.at)]];
  }

  function row(t) {
    let tr = body.querySelector(`tr[data-id="${CSS.escape(t.id)}"]`);
    if (!tr) {
      tr = document.createElement("tr");
      tr.dataset.id = t.id;
      for (const [name] of cells(t)) {
        const td = document.createElement("td");
        td.className = name;
        tr.append(td);
      }
    }
    cells(t).forEach(([, text], i) => { tr.children[i].textContent = text; });
    tr.classList.toggle("offline", t.online === false);
    tr.dataset.version = t.version ?? "";
    return tr;
  }

  function render() {
    document.documentElement.lang = lang;
    document.title = words[lang]["cafe.title"];
    document.getElementById("heading").textContent = words[lang]["cafe.heading"];
    const next = languages[(languages.indexOf(lang) + 1) % languages.length];
    document.getElementById("lang-switch").textContent = words[next]["cafe.language"];
    document.getElementById("lang-switch").lang = next;
    document.querySelectorAll("[data-word]").forEach(el => {
      el.textContent = words[lang][el.dataset.word];
    });
    const none = document.getElementById("none");
    none.textContent = words[lang]["cafe.none"];
    none.hidden = tables.size > 0;
    const sorted = [...tables.values()].sort(
      (a, b) => (a.name || a.id).localeCompare(b.name || b.id, lang, {numeric: true}));
    sorted.forEach(t => body.append(row(t)));
  }

  function flash(id) {
    const tr = body.querySelector(`tr[data-id="${CSS.escape(id)}"]`);
    if (!tr) return;
    tr.classList.add("fresh");
    setTimeout(() => tr.classList.remove("fresh"), 1500);
  }

  const conn = document.getElementById("conn");
  function connect() {
    const stream = new EventSource("/api/stream");
    stream.addEventListener("snapshot", e => {
      tables.clear();
      for (const t of JSON.parse(e.data)) tables.set(t.id, t);
      body.replaceChildren();
      render();
    });
    stream.addEventListener("table", e => {
      const t = JSON.parse(e.data);
      tables.set(t.id, t);
      render();
      flash(t.id);
    });
    stream.addEventListener("gone", e => {  // silent for hours: forgotten by the café
      const {id} = JSON.parse(e.data);
      tables.delete(id);
      body.querySelector(`tr[data-id="${CSS.escape(id)}"]`)?.remove();
      render();
    });
    stream.onopen = () => { conn.textContent = say("cafe.live"); conn.className = ""; };
    stream.onerror = () => { conn.textContent = say("cafe.reconnecting"); conn.className = "lost"; };
  }

  document.getElementById("lang-switch").addEventListener("click", () => {
    lang = languages[(languages.indexOf(lang) + 1) % languages.length];
    render();
  });
  setInterval(() => body.querySelectorAll("tr").forEach(tr => {
    const t = tables.get(tr.dataset.id);
    if (t) tr.querySelector("td.since").textContent = since(t.at);
  }), 1000);
  render();
  connect();
})();
