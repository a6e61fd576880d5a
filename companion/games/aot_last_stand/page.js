// Attack on Titan: The Last Stand's renderer: the step, the Titan's health track and zone (marked
// while assumed), citizens, cannons, each hero's hearts, level and dice (and a power still off,
// with "Teach it" for the host), the Titan's hand size, the face-up Action and the Tactic on top;
// the host's forms, the Correction of every count included. The Titan's own phone (role token)
// also sees the hand and hidden card, and makes the Titan's decisions: commit, abilities, giving
// the dice back, applying an Action nobody counters, its choices, what its printed text did.
"use strict";

(() => {
const FACES = ["titan", "combat", "tactic", "move", "cannon", "dodge"];
const SYMBOL = {titan: "☗", combat: "⚔", tactic: "✎", move: "➶", cannon: "✹", dodge: "↯"};
const TITANS = ["basic", "destroyer", "voracious", "deviant"];
const HEROES = ["eren", "sasha", "erwin", "mikasa", "levi", "conny", "armin", "hange"];
const LEVELS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const heroIds = (view) => Object.keys(view.heroes);
const face = (f) => `<span class="face-chip" title="${esc(name(f))}">${SYMBOL[f] || f}</span>`;

function top(view) {
  return {headline: `<span class="turn">${esc(t("ui.round", {n: view.round}))}</span> ` +
      `<span class="phase">${esc(t("ui.aot_step", {n: view.step}))}</span>`,
    sub: `${esc(t("ui.aot_health", {n: view.health.marker, length: view.health.length}))} · ` +
      `<strong>${esc(t("ui.aot_zone_" + view.health.zone))}</strong> · ` +
      `${esc(t("ui.aot_citizens", {n: view.citizens.left}))} · ` +
      `${esc(t("ui.aot_cannons", {n: view.cannons.left}))}`};
}

function board(view) {
  const h = view.health;
  const track = Array.from({length: h.length + 1}, (_, i) => `<span class="track-cell` +
    `${i === h.marker ? " marker" : ""}${i >= h.kill ? " kill" : i >= h.weak ? " weak" : ""}">` +
    `${i}</span>`).join("");
  const up = view.actions.filter((a) => a.face_up !== false).map((a) => name(a.card || a));
  const tactic = view.tactic;
  return `<h2>${esc(t("ui.aot_titan", {player: view.titan.player, card: name(view.titan.card)}))}` +
    `</h2>${h.assumed ? `<p class="hint">${esc(t("ui.aot_track_assumed"))}</p>` : ""}` +
    `<div class="track">${track}</div><p>${esc(t("ui.aot_hand", {n: view.titan.hand_size}))}` +
    ` · ${esc(t("ui.aot_titan_dice", {n: view.titan.titan_dice}))} · ` +
    `${esc(t("ui.aot_action_up", {card: up.join(", ") || "—"}))}</p>` +
    `<p>${esc(t("ui.aot_tactic", {card: tactic.top ? name(tactic.top) : "—", pile: tactic.pile,
      met: tactic.met.length, needed: tactic.needed}))}</p>`;
}

function heroes(view) {
  return `<h2>${esc(t("ui.heroes"))}</h2>` + Object.entries(view.heroes).map(([id, h]) =>
    `<article class="hero b-${esc(h.colour)}"><h3>${esc(h.player)} <small>${esc(h.name)}</small>` +
    `</h3><p><span class="life">${"♥".repeat(h.hearts) || "—"}</span> ` +
    `${esc(t("ui.aot_level", {n: h.level}))}</p>` + (h.power_off ? `<p class="warning">` +
      `${esc(t("ui.aot_power_off"))} ${app.host ? button("teach-hero", t("ui.aot_teach_this"),
        `data-hero="${esc(id)}"`) : ""}</p>` : "") + `<p class="kit">` +
    `${h.dice.map((d) => face(d.face || d)).join(" ") || esc(t("ui.aot_no_dice"))}</p></article>`)
    .join("");
}

const setupForm = () => `<form data-form="setup" data-game="aot-last-stand" class="setup">` +
  `<h3>${esc(t("ui.new_game"))}</h3><fieldset class="player"><legend>${esc(name("titan"))}` +
  `</legend><input name="titan-name" placeholder="${esc(t("ui.player_name"))}" required>` +
  `<select name="titan-card" aria-label="${esc(t("ui.field_titan"))}">${options(TITANS, "basic")}</select></fieldset>` +
  `<p class="hint">${esc(t("ui.aot_heroes_hint"))}</p>` + [0, 1, 2, 3].map((i) =>
    `<fieldset class="player"><legend>${esc(t("ui.player_n", {n: i + 1}))}</legend>` +
    `<input name="h${i}-name" placeholder="${esc(t("ui.player_name"))}">` +
    `<select name="h${i}-hero" aria-label="${esc(t("ui.field_hero"))}">${options(HEROES, HEROES[i])}</select>` +
    `<select name="h${i}-level" aria-label="${esc(t("ui.field_level"))}">${options([0, 3, 5], 0, String)}</select></fieldset>`).join("") +
  `<label>${esc(t("ui.field_tactics"))} <input name="tactics" placeholder="sauvetage, guerison">` +
  `</label><button>${esc(t("ui.start"))}</button></form>`;

function setup(d) {
  const heroes = [0, 1, 2, 3].filter((i) => d[`h${i}-name`].trim()).map((i) => ({
    name: d[`h${i}-name`].trim(), hero: d[`h${i}-hero`], level: Number(d[`h${i}-level`])}));
  const tactics = d.tactics.split(",").map((s) => s.trim()).filter(Boolean);
  return send({type: "setup", game: "aot-last-stand", titan: {name: d["titan-name"].trim(),
    card: d["titan-card"]}, heroes, ...(tactics.length ? {tactics} : {})});
}

const LISTED = ["dice", "hand", "set_aside", "pile"];  // corrections typed as "a, b, c"
const pay = (symbols) => ({name: "pay", kind: "pay", from: heroIds, symbols});
const hero = {name: "hero", kind: "choice", from: heroIds};
const DESCRIPTION = {
  commit: {fields: [{name: "up", kind: "text"}, {name: "down", kind: "text"}]},
  give: {fields: [{name: "gifts", kind: "text"}],
    build: (f) => ({gifts: Object.fromEntries(f.gifts.split(",").map((g) => g.split(":")
      .map((s) => s.trim())))})},
  // step 2 ends once every hero has rolled («Une fois que tous les Héros sont satisfaits»)
  next: {when: (v) => v.step !== 2 || Object.values(v.heroes).every((h) => h.rolled)},
  ability: {fields: [{name: "n", kind: "number", min: 1, max: 3}]},
  resolve: {fields: [pay(["tactic", "dodge"])]},
  choose: {fields: [{...hero, optional: true}, {name: "face", kind: "choice", from: () => FACES,
    optional: true}, {name: "card", kind: "text", optional: true}]},
  move: {fields: [hero, {name: "to", kind: "choice", from: () => LEVELS, numbers: true,
    label: String}]},
  melee: {fields: [hero, {name: "count", kind: "number", min: 1, max: 10}]},
  cannon: {fields: [hero, {name: "count", kind: "number", min: 1, max: 6}]},
  cycle: {fields: [{name: "pay", kind: "pay", from: heroIds, symbols: ["tactic"]}],
    build: (f) => ({pay: Object.fromEntries(Object.entries(f.pay).map(([h, s]) =>
      [h, s.tactic]))})},
  search: {fields: [hero, {name: "card", kind: "text"}]},
  provide: {fields: [{name: "condition", kind: "number", min: 1, max: 3},
    pay(["combat", "tactic", "move", "cannon", "dodge"])]},
  activate: {fields: [pay(["combat", "tactic", "move", "cannon", "dodge"])]},
  top: {fields: [{name: "card", kind: "text"}]},
  adjust: {fields: [{...hero, optional: true},
    {name: "hearts", kind: "number", min: 0, max: 3, optional: true},
    {name: "level", kind: "choice", from: () => LEVELS, numbers: true, label: String,
      optional: true},
    {name: "dice", kind: "text", optional: true, placeholder: "combat, move, move"},
    {name: "health", kind: "number", min: 0, max: 40, optional: true},
    {name: "devoured", kind: "number", min: 0, max: 12, optional: true},
    {name: "cannons", kind: "number", min: 0, max: 6, optional: true},
    ...["hand", "set_aside", "pile"].map((n) => ({name: n, kind: "text", optional: true})),
    {name: "top", kind: "text", optional: true},
    {name: "step", kind: "number", min: 1, max: 6, optional: true},
    {name: "note", kind: "text", optional: true}],
  build: (f) => ({...f, ...Object.fromEntries(LISTED.filter((n) => f[n] !== undefined)
    .map((n) => [n, f[n].split(",").map((s) => s.trim()).filter(Boolean)]))})},
};

/** The dice event of the first hero the table waits for: a first roll (step 2), or dice
 * given back rolled again (step 4, or step 3 where it says the Titan gave them back). */
function diceEvent(view, faces) {
  const first = view.expects.templates.find((e) => e.blank && e.blank.kind === "dice");
  return {type: first.type, ...first.fields, faces};
}

const controls = Controls.make({
  description: DESCRIPTION, faces: {"aot/hero": FACES}, symbol: (f) => SYMBOL[f],
  diceEvent: {handles: ["roll", "reroll"], build: diceEvent},
  optionEvent: (_view, o) => ({type: "choose", ...(typeof o === "object" ? o : {hero: o})}),
  optionLabel: (_view, o) => (typeof o === "object" ? Object.values(o).map(name).join(" ")
    : name(o)),
});

// -- the Titan's own phone (role link): the hand, the face-down card and the Titan's decisions --

const TITAN_TASKS = ["crush", "obstruct", "sudden_change", "frenzy", "mutilate"];
const DECLINABLE = ["sudden_change", "frenzy"];

/** Step 3: each ability of the Titan card (a cost to give for one not known yet), and giving
 * the dice back. */
function titanAbilities(view) {
  const dice = view.titan.titan_dice;
  const abilities = view.titan.abilities.map((a) => {
    if (a.cost == null) {
      return `<form data-form="titan-define" data-key="${a.n}" class="event">` +
        `<input type="hidden" name="n" value="${a.n}">` +
        `<label>${esc(t("ui.aot_ability_unknown", {n: a.n}))} ` +
        `<input type="number" name="cost" min="1" max="15" required></label>` +
        `<button${a.allowed ? "" : " disabled"}>${esc(t("ui.send"))}</button></form>`;
    }
    const open = a.allowed && a.cost <= dice;
    return button("titan-ability", t("ui.aot_ability", {n: a.n, cost: a.cost}),
      `data-n="${a.n}"${open ? "" : " disabled"}`) +
      (a.allowed ? "" : ` <small>${esc(t("ui.aot_third_locked"))}</small>`);
  });
  return `<h3>${esc(t("ui.aot_titan_dice", {n: dice}))}</h3><div class="row">` +
    abilities.join("") + "</div>" + button("titan-next", t("ui.aot_give_back"));
}

/** A choice of the Titan's (Crush, Obstruct, Sudden Change, Frenzy, Mutilation). */
function titanChoice(view, task) {
  const options = view.expects.options || [];
  let html = `<h3>${esc(t("ui.aot_your_choice", {choice: name(task)}))}</h3>`;
  if (task === "obstruct") {
    const faces = [...new Set(Object.values(view.heroes).flatMap((h) => h.dice))];
    return html + `<form data-form="titan-obstruct" class="event">` +
      Controls.field({name: "hero", kind: "choice", from: () => options}, view) +
      Controls.field({name: "face", kind: "choice", from: () => [...faces, "titan"]}, view) +
      `<button>${esc(t("ui.send"))}</button></form>`;
  }
  html += `<div class="row">` + options.map((o, i) => button("titan-option",
    typeof o === "object" ? `${name(o.replace)} → ${name(o.card)}` : name(o),
    `data-index="${i}"`)).join("") + "</div>";
  return html + (DECLINABLE.includes(task) ? button("titan-decline", t("ui.aot_decline")) : "");
}

/** What the Titan's printed ability or Action card did, in the effect vocabulary. */
const answer = {values: {}, sizes: {}};
const answerFields = Fields.make("titan-answer", answer, () => renderRole());
const effectsSpec = (game) => {
  const kinds = Teach.kinds(game);
  return kinds && kinds.ability.fields.find((f) => f.name === "effects");
};

function titanAnswer(pic, index) {
  const spec = effectsSpec(pic.view.game);
  return `<h3>${esc(both(pic.texts.prompts[index]))}</h3>` + (spec ? `<form ` +
    `data-form="titan-answer" class="event">${answerFields.labelled(spec, "effects")}` +
    `<button>${esc(t("ui.send"))}</button></form>` : "");
}

/** The Titan's own phone: the hand, the face-down card, and the Titan's decisions now. */
function role(pic) {
  const view = pic.view;
  const events = view.expects.events;
  const prompts = view.prompts || [];
  const task = prompts.find((p) => p.answer === "choose");
  let html = `<h2>${esc(t("ui.aot_titan_phone"))}</h2><p>${esc(t("ui.aot_hidden", {
    card: view.hidden ? name(view.hidden) : "—"}))}</p><p>${esc(t("ui.aot_hand_cards", {
    cards: view.hand.map(name).join(", ")}))}</p>`;
  if (events.includes("commit")) {
    html += `<form data-form="titan-commit" class="event">${Controls.field({name: "up",
      kind: "choice", from: () => view.hand}, view)}${Controls.field({name: "down",
      kind: "choice", from: () => view.hand}, view)}<button>${esc(t("ui.send"))}</button></form>`;
  }
  if (events.includes("ability")) html += titanAbilities(view);
  if (events.includes("choose") && task && TITAN_TASKS.includes(task.id)) {
    html += titanChoice(view, task.id);
  }
  if (events.includes("answer")) {
    html += titanAnswer(pic, prompts.findIndex((p) => p.id === "text"));
  }
  if (events.includes("resolve")) {
    const card = view.actions.find((a) => !a.resolved);
    html += button("titan-apply", t("ui.aot_apply", {card: name(card && card.card)}));
  }
  return html;
}

const asTitan = (event) => () => sendAsRole(event);
const titanForms = {
  "titan-commit": (d) => sendAsRole({type: "commit", up: d.up, down: d.down}),
  "titan-define": (d) => sendAsRole({type: "ability", n: Number(d.n),
    define: {cost: Number(d.cost)}}),
  "titan-obstruct": (d) => sendAsRole({type: "choose", hero: d.hero, face: d.face}),
  "titan-answer": () => sendAsRole({type: "answer", effects: answerFields.value(
    effectsSpec(app.role.pic.view.game), "effects") || []}).then((done) => {
    if (done) Object.assign(answer, {values: {}, sizes: {}});
  }),
};
const titanActions = {
  "titan-ability": (el) => sendAsRole({type: "ability", n: Number(el.dataset.n)}),
  "titan-next": asTitan({type: "next"}),
  "titan-apply": asTitan({type: "resolve"}),
  "titan-decline": asTitan({type: "choose"}),
  "titan-option": (el) => {
    const view = app.role.pic.view;
    const option = view.expects.options[el.dataset.index];
    const task = view.prompts.find((p) => p.answer === "choose").id;
    return sendAsRole({type: "choose", ...(typeof option === "object" ? option
      : {[task === "crush" ? "hero" : "card"]: option})});
  },
};

registerGame("aot-last-stand", {top, board, heroes, setupForm, host: controls.host, role,
  roles: ["titan"], forms: {setup, ...titanForms, ...controls.forms},
  actions: {...controls.actions, ...titanActions,
    "teach-hero": (el) => Teach.open("hero", el.dataset.hero)}, simulated: ["dice"]});
})();
