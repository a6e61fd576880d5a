// The host's dice screen, two parts of the host controls.
// "Read a roll": pick a die profile (the awaited one first), read the tray; the camera's frame is
// shown with a box round each die found and its face, the doubtful ones marked "?"; tapping a die
// (on the frame or in the list below it) offers its faces (or "Not a die") to correct it; Confirm
// keeps every die as an example of this table and gives the roll to the game when it waits for
// it. Below, the table's examples, each with its cut-out, forgotten one by one or all at once.
// "Teach the dice": pick a die profile, roll, take a photo; each die found is shown cut out of
// the photo, and the host taps its face (or "Not a die"); Apply learns exactly the dice named.
// Below, the faces taught for the profile, with a few of their cut-outs, Remove (one face) and
// Reset (back to the shipped defaults), each confirmed on the page.
"use strict";

const Dice = (() => {
  const state = {open: false, data: null, loading: false, profile: null, photo: null,
    names: {}, busy: false, confirm: null, said: "",
    rollOpen: false, rollProfile: null, roll: null, fixes: {}, picked: null, table: null,
    rollSaid: ""};
  let drawn = "";

  async function load() {
    state.loading = true;
    const response = await fetch("/api/dice", {cache: "no-store"});
    state.data = response.ok ? await response.json() : null;
    state.loading = false;
    const names = state.data ? state.data.profiles.map((p) => p.profile) : [];
    if (!names.includes(state.profile)) state.profile = names[0] || null;
    const rolls = state.data ? state.data.rolls : [];
    if (!rolls.includes(state.rollProfile)) state.rollProfile = rolls[0] || null;
    redraw();
  }

  // -- reading a roll --------------------------------------------------------------------------

  async function loadTable() {
    const name = state.rollProfile;
    if (!name) return;
    const response = await fetch(`/api/dice/table?profile=${encodeURIComponent(name)}`,
      {cache: "no-store"});
    if (response.ok && name === state.rollProfile) state.table = await response.json();
    redraw();
  }

  /** The face the host gave die ``i`` (a correction), else the one read; "" for "Not a die". */
  const faceOf = (die) => (die.index in state.fixes ? state.fixes[die.index] : die.face);
  /** A doubtful die the host has not named yet. */
  const unsure = (die) => die.uncertain && !(die.index in state.fixes);

  function dieLabel(die) {
    const face = faceOf(die);
    if (face === "") return `${t("ui.dice_die", {n: die.index + 1})}: ${t("ui.dice_not_die")}`;
    return t(unsure(die) ? "ui.dice_doubt" : "ui.dice_on_die",
      {n: die.index + 1, face: name(face)});
  }

  /** The frame with a box round each die (tapped, it picks the die: the list below is the same
   * control for keyboards and screen readers, so the boxes are hidden from them). */
  function view(roll) {
    const boxes = roll.dice.map((die) => {
      const face = faceOf(die);
      const classes = ["dice-box", unsure(die) ? "doubt" : "", face === "" ? "gone" : "",
        die.index in state.fixes ? "fixed" : "", state.picked === die.index ? "picked" : ""];
      return `<span class="${classes.filter(Boolean).join(" ")}" data-dice-act="pick" ` +
        `data-value="${die.index}" data-box="${die.box.join(",")}" aria-hidden="true">` +
        `${esc(face === "" ? "×" : name(face))}${unsure(die) ? "?" : ""}</span>`;
    }).join("");
    return `<div class="dice-view" data-size="${roll.width},${roll.height}">` +
      `<img src="/api/dice/roll/${encodeURIComponent(roll.roll)}.jpg" alt="${esc(t(
        "ui.dice_view", {count: roll.dice.length}))}">${boxes}</div>`;
  }

  function rolled(roll) {
    if (!roll.dice.length) return `<p role="status">${esc(t("ui.dice_none_read"))}</p>`;
    let html = view(roll) + `<ol class="dice-read">`;
    for (const die of roll.dice) {
      const label = t("ui.dice_face_of", {n: die.index + 1});
      html += `<li>${chip("pick", die.index, dieLabel(die), state.picked === die.index,
        unsure(die) ? ' class="doubt"' : "")}`;
      if (state.picked === die.index) {
        html += `<div class="row" role="group" aria-label="${esc(label)}">` +
          roll.faces.map((f) => chip("fix", f, name(f), faceOf(die) === f,
            ` data-die="${die.index}"`)).join("") +
          chip("fix", "", t("ui.dice_not_die"), faceOf(die) === "", ` data-die="${die.index}"`) +
          "</div>";
      }
      html += "</li>";
    }
    const doubts = roll.dice.filter(unsure).length;
    const kept = roll.dice.some((die) => faceOf(die) !== "");
    html += "</ol>";
    if (doubts) html += `<p role="status">${esc(t("ui.dice_to_name", {count: doubts}))}</p>`;
    return html + `<button type="button" class="strong" data-dice-act="keep"` +
      `${!doubts && kept && !state.busy ? "" : " disabled"}>` +
      `${esc(t("ui.dice_confirm_roll"))}</button>`;
  }

  /** The table's examples of the profile: cut-out, face, what the reader had read, Forget. */
  function examples() {
    let html = `<h3>${esc(t("ui.dice_table"))}</h3>`;
    const table = state.table;
    if (!table || table.profile !== state.rollProfile) return html;
    if (!table.examples.length) return html + `<p>${esc(t("ui.dice_table_none"))}</p>`;
    html += `<ul class="dice-table">`;
    for (const e of table.examples) {
      const note = e.read === null ? t("ui.dice_missed")
        : e.corrected ? t("ui.dice_corrected", {face: name(e.read)}) : "";
      html += `<li data-example="${esc(e.id)}"><img src="/api/dice/table/example.jpg?profile=` +
        `${encodeURIComponent(table.profile)}&amp;id=${encodeURIComponent(e.id)}" alt="" ` +
        `width="48" height="48"><div><strong>${esc(name(e.face))}</strong> ` +
        `<small>${esc(note)}</small>` + confirmable("forget", e.id, t("ui.dice_forget"),
          t("ui.dice_confirm_forget")) + "</div></li>";
    }
    return html + "</ul>" + confirmable("forget-all", "", t("ui.dice_forget_all"),
      t("ui.dice_confirm_forget_all", {profile: table.profile}));
  }

  function rollHtml() {
    const rolls = state.data ? state.data.rolls : [];
    let body = `<p>${esc(t("ui.dice_roll_hint"))}</p>`;
    if (!state.data) return body + `<p>${esc(t("ui.dice_loading"))}</p>`;
    body += `<h3>${esc(t("ui.dice_profile"))}</h3><div class="row">` + rolls.map((p) =>
      chip("roll-profile", p, p === state.data.awaited ? `${p} (${t("ui.dice_awaited")})` : p,
        p === state.rollProfile)).join("") + "</div>" +
      `<div class="row"><button type="button" class="strong" data-dice-act="read"` +
      `${state.busy ? " disabled" : ""}>${esc(t("ui.dice_read_tray"))}</button></div>`;
    if (state.rollSaid) body += `<p role="status" class="dice-said">${esc(state.rollSaid)}</p>`;
    if (state.roll && state.roll.profile === state.rollProfile) body += rolled(state.roll);
    return body + examples();
  }

  /** Place each box over its die, in shares of the frame (styles through the CSSOM: the
   * page's Content-Security-Policy refuses inline style attributes). */
  function place(section) {
    for (const frame of section.querySelectorAll(".dice-view")) {
      const [w, h] = frame.dataset.size.split(",").map(Number);
      frame.style.aspectRatio = `${w} / ${h}`;
      for (const box of frame.querySelectorAll(".dice-box")) {
        const [x0, y0, x1, y1] = box.dataset.box.split(",").map(Number);
        Object.assign(box.style, {left: `${100 * x0 / w}%`, top: `${100 * y0 / h}%`,
          width: `${100 * (x1 - x0) / w}%`, height: `${100 * (y1 - y0) / h}%`});
      }
    }
  }

  async function readTray() {
    state.busy = true;
    state.rollSaid = t("ui.dice_reading");
    redraw();
    const data = await post("/api/dice/roll", {profile: state.rollProfile});
    state.busy = false;
    state.rollSaid = "";
    if (data) Object.assign(state, {roll: data, fixes: {}, picked: null});
    redraw();
  }

  async function keep() {
    const dice = state.roll.dice.filter((die) => faceOf(die) !== "")
      .map((die) => ({box: die.box, face: faceOf(die)}));
    state.busy = true;
    redraw();
    const data = await post("/api/dice/roll/confirm", {roll: state.roll.roll, dice});
    state.busy = false;
    if (data) {
      Object.assign(state, {roll: null, fixes: {}, picked: null});
      state.rollSaid = t("ui.dice_kept", {count: data.kept.added,
        corrected: data.kept.corrected}) + (data.given ? ` ${t("ui.dice_given")}` : "");
      await loadTable();
    }
    redraw();
  }

  async function forgetExample(id) {
    state.confirm = null;
    const data = await post("/api/dice/table/forget", id ? {profile: state.rollProfile, id}
      : {profile: state.rollProfile});
    if (data) {
      state.rollSaid = t("ui.dice_forgot", {count: data.forgot});
      state.table = {profile: data.profile, examples: data.examples};
    }
    redraw();
  }

  const profile = () => state.data && state.data.profiles.find((p) => p.profile === state.profile);

  function chip(act, value, label, pressed, extra = "") {
    return `<button type="button" data-dice-act="${act}" data-value="${esc(value)}"` +
      `${pressed ? ' aria-pressed="true"' : ""}${extra}>${esc(label)}</button>`;
  }

  /** The die profiles to pick from, the one the game waits for marked. */
  function chooser() {
    return `<h3>${esc(t("ui.dice_profile"))}</h3><div class="row">` +
      state.data.profiles.map((p) => chip("profile", p.profile,
        p.profile === state.data.awaited ? `${p.profile} (${t("ui.dice_awaited")})` : p.profile,
        p.profile === state.profile)).join("") + "</div>";
  }

  /** The photo's dice, each cut out, with its reading and the chips that name it. */
  function photo(faces) {
    const dice = state.photo.dice;
    if (!dice.length) return `<p role="status">${esc(t("ui.dice_none_found"))}</p>`;
    const named = Object.values(state.names);
    const ready = named.length === dice.length && named.some((f) => f !== "");
    let html = `<p role="status">${esc(t("ui.dice_found", {count: dice.length}))}</p>` +
      `<ol class="dice-crops">`;
    for (const die of dice) {
      const label = t("ui.dice_die", {n: die.index + 1});
      const read = die.reading ? t("ui.dice_read", {face: name(die.reading)}) :
        t("ui.dice_unread");
      html += `<li><img src="/api/dice/photo/${encodeURIComponent(state.photo.photo)}/` +
        `${die.index}.jpg" alt="${esc(label)}" width="112" height="112">` +
        `<div><strong>${esc(label)}</strong> <small>${esc(read)}</small>` +
        `<div class="row" role="group" aria-label="${esc(label)}">` +
        faces.map((f) => chip("name", f, name(f), state.names[die.index] === f,
          ` data-die="${die.index}"`)).join("") +
        chip("name", "", t("ui.dice_not_die"), state.names[die.index] === "",
          ` data-die="${die.index}"`) + "</div></div></li>";
    }
    const count = named.filter((f) => f !== "").length;
    return html + `</ol><p>${esc(t("ui.dice_named", {n: count, count: dice.length}))}</p>` +
      `<button type="button" class="strong" data-dice-act="apply"` +
      `${ready && !state.busy ? "" : " disabled"}>${esc(t("ui.dice_apply"))}</button>`;
  }

  /** The faces taught for the profile: examples, a few cut-outs, Remove; then Reset. */
  function taught(p) {
    const faces = Object.keys(p.taught);
    let html = `<h3>${esc(t("ui.dice_taught"))}</h3>`;
    if (p.problem) return html + `<p role="alert">${esc(both(p.problem))}</p>`;
    if (!faces.length) return html + `<p>${esc(t("ui.dice_taught_none"))}</p>`;
    html += `<ul class="dice-taught">`;
    for (const face of faces) {
      const shots = Array.from({length: p.examples[face] || 0}, (_, i) =>
        `<img src="/api/dice/example.jpg?profile=${encodeURIComponent(p.profile)}&amp;face=` +
        `${encodeURIComponent(face)}&amp;n=${i}" alt="${esc(t("ui.dice_example",
          {face: name(face), n: i + 1}))}" width="56" height="56">`).join("");
      html += `<li data-face="${esc(face)}"><strong>${esc(name(face))}</strong> ` +
        `<small>${esc(t("ui.dice_examples", {count: p.taught[face]}))}</small>` +
        `<div class="shots">${shots}</div>` + confirmable("remove", face,
          t("ui.dice_remove"), t("ui.dice_confirm_remove", {face: name(face)})) + "</li>";
    }
    return html + "</ul>" + confirmable("reset", "", t("ui.dice_reset"),
      t("ui.dice_confirm_reset", {profile: p.profile}));
  }

  /** A button that asks first: tapped, it is replaced by the question, "Yes" and "Cancel". */
  function confirmable(act, value, label, question) {
    const asking = state.confirm && state.confirm.act === act && state.confirm.value === value;
    if (!asking) return `<div class="row">${chip("ask", value, label, false,
      ` data-ask="${act}"`)}</div>`;
    return `<div class="row confirm" role="group"><p>${esc(question)}</p>` +
      chip(act, value, t("ui.dice_yes"), false, ' class="strong"') +
      chip("cancel", value, t("ui.dice_cancel"), false) + "</div>";
  }

  function html() {
    let body = `<p>${esc(t("ui.dice_hint"))}</p>`;
    if (!state.data) return body + `<p>${esc(t("ui.dice_loading"))}</p>`;
    const p = profile();
    if (!p) return body;
    body += chooser() + `<div class="row">` +
      `<button type="button" class="strong" data-dice-act="photo"${state.busy ? " disabled" : ""}>` +
      `${esc(t("ui.dice_photo"))}</button></div>`;
    if (state.said) body += `<p role="status" class="dice-said">${esc(state.said)}</p>`;
    if (state.photo && state.photo.profile === p.profile) body += photo(p.faces);
    return body + taught(p);
  }

  function redraw() {
    const section = $("dice");
    const shown = app.host && app.hostOpen;
    if (shown && !state.data && !state.loading) load();
    const teaches = state.data === null || state.data.profiles.length > 0;
    const reads = state.data === null || state.data.rolls.length > 0;
    section.hidden = !shown || (!teaches && !reads);
    if (section.hidden) return;
    const inner = (reads ? `<details data-details="dice-roll"${state.rollOpen ? " open" : ""}>` +
      `<summary>${esc(t("ui.dice_roll"))}</summary>${state.rollOpen ? rollHtml() : ""}` +
      "</details>" : "") +
      (teaches ? `<details data-details="dice"${state.open ? " open" : ""}>` +
      `<summary>${esc(t("ui.dice_teach"))}</summary>${state.open ? html() : ""}</details>` : "");
    const key = app.lang + inner;
    if (key === drawn) return;
    drawn = key;
    const focused = section.contains(document.activeElement) ? document.activeElement : null;
    section.innerHTML = inner;
    place(section);
    if (focused && focused.dataset.diceAct) refocus(section, focused.dataset);
  }

  /** Give the focus back to the control that had it before a redraw replaced it (a keyboard
   * user naming dice one after the other keeps their place). */
  function refocus(section, was) {
    const same = [...section.querySelectorAll("[data-dice-act]")].find((el) =>
      el.dataset.diceAct === was.diceAct && el.dataset.value === was.value &&
      el.dataset.die === was.die);
    if (same) same.focus();
  }

  async function takePhoto() {
    state.busy = true;
    state.said = t("ui.dice_taking");
    redraw();
    const data = await post("/api/dice/photo", {profile: state.profile});
    state.busy = false;
    state.said = "";
    if (data) Object.assign(state, {photo: data, names: {}});
    redraw();
  }

  async function apply() {
    const dice = Object.entries(state.names).filter(([, face]) => face !== "")
      .map(([die, face]) => ({die: Number(die), face}));
    state.busy = true;
    redraw();
    const data = await post("/api/dice/teach", {photo: state.photo.photo, dice});
    state.busy = false;
    if (data) {
      state.photo = null;
      state.names = {};
      state.said = t("ui.dice_learned", {faces: Object.entries(data.learned).map(
        ([face, n]) => `${name(face)} × ${n}`).join(", ")});
      await load();
    }
    redraw();
  }

  async function forget(face) {
    state.confirm = null;
    const data = await post("/api/dice/forget", face ? {profile: state.profile, face}
      : {profile: state.profile});
    if (data) {
      state.said = t("ui.dice_forgot", {count: data.forgot});
      await load();
    }
    redraw();
  }

  const ACTIONS = {
    profile: (el) => Object.assign(state, {profile: el.dataset.value, confirm: null, said: ""}),
    photo: () => takePhoto(),
    name: (el) => { state.names[el.dataset.die] = el.dataset.value; },
    apply: () => apply(),
    ask: (el) => { state.confirm = {act: el.dataset.ask, value: el.dataset.value}; },
    cancel: () => { state.confirm = null; },
    remove: (el) => forget(el.dataset.value),
    reset: () => forget(null),
    "roll-profile": (el) => {
      Object.assign(state, {rollProfile: el.dataset.value, confirm: null, rollSaid: "",
        table: null});
      loadTable();
    },
    read: () => readTray(),
    pick: (el) => {
      const die = Number(el.dataset.value);
      state.picked = state.picked === die ? null : die;
    },
    fix: (el) => {
      state.fixes[el.dataset.die] = el.dataset.value;
      state.picked = null;
    },
    keep: () => keep(),
    forget: (el) => forgetExample(el.dataset.value),
    "forget-all": () => forgetExample(null),
  };

  document.addEventListener("click", (event) => {
    const el = event.target.closest("[data-dice-act]");
    if (!el || el.disabled) return;
    ACTIONS[el.dataset.diceAct](el);
    redraw();
  });
  document.addEventListener("toggle", (event) => {
    if (event.target.dataset && event.target.dataset.details === "dice" &&
        event.target.open !== state.open) {  // a redraw's new <details> toggles too
      state.open = event.target.open;
      if (state.open) load();
      redraw();
    }
    if (event.target.dataset && event.target.dataset.details === "dice-roll" &&
        event.target.open !== state.rollOpen) {
      state.rollOpen = event.target.open;
      if (state.rollOpen) load().then(loadTable);
      redraw();
    }
  }, true);
  setInterval(redraw, 1000);
  return {redraw};
})();
