// "Teach the dice" in the host controls: pick a die profile, roll, take a photo; each die found
// is shown cut out of the photo, and the host taps its face (or "Not a die"); Apply learns exactly
// the dice named. Below, the faces taught for the profile, with a few of their cut-outs, Remove
// (one face) and Reset (back to the shipped defaults), each confirmed on the page.
"use strict";

const Dice = (() => {
  const state = {open: false, data: null, loading: false, profile: null, photo: null,
    names: {}, busy: false, confirm: null, said: ""};
  let drawn = "";

  async function load() {
    state.loading = true;
    const response = await fetch("/api/dice", {cache: "no-store"});
    state.data = response.ok ? await response.json() : null;
    state.loading = false;
    const names = state.data ? state.data.profiles.map((p) => p.profile) : [];
    if (!names.includes(state.profile)) state.profile = names[0] || null;
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
    section.hidden = !shown || (state.data !== null && !state.data.profiles.length);
    if (section.hidden) return;
    const inner = state.open ? html() : "";
    const key = app.lang + inner;
    if (key === drawn) return;
    drawn = key;
    const focused = section.contains(document.activeElement) ? document.activeElement : null;
    section.innerHTML = `<details data-details="dice"${state.open ? " open" : ""}>` +
      `<summary>${esc(t("ui.dice_teach"))}</summary>${inner}</details>`;
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
  }, true);
  setInterval(redraw, 1000);
  return {redraw};
})();
