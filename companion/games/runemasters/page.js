// Runemasters' renderer: the four paths of five spaces with their monsters (wounds, weak points),
// the guardians (Life, Mana, Ultimate, path, Shield, Poison), the temple, the Event in force; and
// the host's controls generated from the events the game accepts now.
"use strict";

(() => {
const RUNES = ["red", "blue", "green", "yellow", "violet", "white"];
const SYMBOL = {red: "▲", blue: "●", green: "♣", yellow: "★", violet: "◆", white: "✚"};
const PATHS = ["red", "blue", "yellow", "green"];
const DIFFICULTY = ["initiation", "novice", "guardian", "hero", "legend"];
const GUARDIANS = ["ismoros", "kyreas", "kulak", "neltai"];
const rune = (r) => (r ? `<span class="chip c-${r}" title="${esc(name(r))}"><b aria-hidden="true">` +
  `${SYMBOL[r] || "?"}</b>${esc(name(r))}</span>` : "");
const dieIndexes = (view) => view.dice.filter((d) => !d.used).map((d) => d.index);
const guardians = (view) => Object.keys(view.guardians);
/** The dice whose rune hits a weak point of the monster in contact (the rules asked first,
 * ``view.taps``): the hit form offers only those. */
const hitDice = (view) => (view.taps || []).filter((e) => e.type === "hit").map((e) => e.die);
const die = (field, kind = "choice", extra = {}) => ({name: field, kind, from: dieIndexes,
  numbers: true, label: (i) => t("ui.die_n", {n: i + 1}), ...extra});

function top(view) {
  const who = view.active ? `${name(view.active)} · ` : "";
  return {headline: `<span class="turn">${esc(t("ui.round", {n: view.round}))}</span> ` +
      `${esc(who)}<span class="phase">${esc(name(view.difficulty))}</span>`,
    sub: `${esc(t("ui.rm_temple", {n: view.temple.life, max: view.temple.max}))} · ` +
      `${esc(t("ui.rm_event", {event: view.event ? name(view.event) : "—"}))} · ` +
      `${esc(t("ui.rm_before_dawn", {n: view.deck.before_dawn}))}`};
}

function monster(m) {
  if (!m) return '<div class="space empty"></div>';
  const weak = (m.weak_points || []).map((w) => `<span>${SYMBOL[w] || "?"}</span>`).join("") ||
    "?";
  return `<div class="space card c-${esc(m.colour)}"><span class="cname">${esc(both(m.name))}` +
    `</span><span class="wounds">✖ ${m.wounds.length}</span><span class="weak" title="` +
    `${esc(t("ui.rm_weak"))}">${weak}</span></div>`;
}

function board(view) {
  const rows = PATHS.filter((p) => view.paths[p]).map((p) => {
    const path = view.paths[p];
    return `<div class="path b-${p}"><span class="pname">${rune(p)}${path.blocked ? " ⛔" : ""}` +
      `<br><small>${esc(path.guardian ? name(path.guardian) : t("ui.rm_unguarded"))}</small></span>` +
      path.spaces.map(monster).join("") + "</div>";
  }).join("");
  return `<h2>${esc(t("ui.rm_paths"))}</h2><div class="paths">${rows}</div>`;
}

function heroes(view) {
  return `<h2>${esc(t("ui.rm_guardians"))}</h2>` + Object.entries(view.guardians).map(([id, g]) =>
    `<article class="hero b-${g.path}${id === view.active ? " active" : ""}${g.alive ? ""
      : " s-dead"}"><h3>${esc(g.player || g.name)} <small>${esc(g.name)} · ${rune(g.path)}</small>` +
    `</h3><p><span class="life">♥ ${g.life}</span> <span class="mana">✦ ${g.mana}</span> ` +
    `<span>${esc(t("ui.rm_ultimate", {n: g.ultimate.track, left: g.ultimate.uses_left}))}</span>` +
    `${g.shield ? ` <span>🛡 ${esc(t("ui.rm_shield"))}</span>` : ""}` +
    `${g.poison ? ` <span>☠ ${esc(t("ui.rm_poison"))}</span>` : ""}` +
    `${g.angel ? ` <span>✧ ${esc(name("guardian_angel"))}</span>` : ""}</p></article>`).join("");
}

function reserve(view) {
  const dice = view.dice.map((d) => `${d.index + 1}: ${rune(d.face)}${d.used ? " ✓" : ""}`)
    .join(" ") || "—";
  return `<h2>${esc(t("ui.rm_dice"))}</h2><p>${dice}</p>`;
}

const setupForm = () => `<form data-form="setup" data-game="runemasters" class="setup">` +
  `<h3>${esc(t("ui.new_game"))}</h3><label>${esc(t("ui.field_difficulty"))} ` +
  `<select name="difficulty">${options(DIFFICULTY, "novice")}</select></label>` +
  `<p class="hint">${esc(t("ui.rm_guardians_hint"))}</p>` + GUARDIANS.map((g, i) =>
    `<fieldset class="player"><legend><label><input type="checkbox" name="use-${g}"` +
    `${i < 2 ? " checked" : ""}> ${esc(name(g))}</label></legend><input name="player-${g}" ` +
    `placeholder="${esc(t("ui.player_name"))}"><select name="path-${g}">` +
    `${options(PATHS, PATHS[i])}</select></fieldset>`).join("") +
  `<label>${esc(t("ui.field_elder"))} <select name="elder">${options(GUARDIANS, "ismoros")}` +
  `</select></label><button>${esc(t("ui.start"))}</button></form>`;

function setup(d) {
  const chosen = GUARDIANS.filter((g) => d["use-" + g]);
  if (chosen.length < 2) {  // said in the player's words before anything is sent
    toast(t("ui.rm_guardians_count"));
    return null;
  }
  return send({type: "setup", game: "runemasters", difficulty: d.difficulty,
    guardians: chosen.map((g) => ({guardian: g, path: d["path-" + g],
      ...(d["player-" + g].trim() ? {player: d["player-" + g].trim()} : {})})),
    elder: chosen.includes(d.elder) ? d.elder : chosen[0]});
}

// The correction form points at a path's space by its colour and number (and the monster on
// it), at a monster card by its printed name: no id is typed.

/** Every space of the paths in play, ``<path>.<n>`` (space 1 touches the guardian). */
const spaces = (view) => PATHS.filter((p) => view.paths[p]).flatMap((p) =>
  view.paths[p].spaces.map((_, i) => `${p}.${i + 1}`));
function spaceLabel(space) {
  const [path, n] = space.split(".");
  const m = app.pic.view.paths[path].spaces[Number(n) - 1];
  return `${name(path)} ${n}${m ? ` · ${both(m.name)}` : ""}`;
}
/** A space picked by its path's colour and number and the monster on it, among ``from(view)``
 * (``<path>.<n>``): the correction's spaces, and the space a hit or a Mark takes. */
const spacePicker = (from, field = "space") => ({name: field, kind: "choice", from,
  label: spaceLabel, optional: true});
/** The spaces a hit or the active guardian's Mark point at now, as the rules name them. */
const targetSpaces = (kind) => (view) => view.target_spaces[kind];
/** The event's fields with the space picked as ``<path>.<n>`` sent as the rules take it: its
 * number, and (``withPath``: Neltaï's Échange) the path it is on as ``from``. */
function atSpace(fields, withPath = false) {
  if (!fields.space) return fields;
  const [path, n] = fields.space.split(".");
  return {...fields, space: Number(n), ...(withPath ? {from: path} : {})};
}
/** The monster cards the table knows that stand on no space. */
function offCards(view) {
  const catalog = catalogFor("runemasters");
  const standing = PATHS.filter((p) => view.paths[p]).flatMap((p) => view.paths[p].spaces)
    .filter(Boolean).map((m) => m.card);
  return ((catalog && catalog.ids.monster) || []).filter((c) => !standing.includes(c));
}
const cardName = (card) => name(card);
/** The weak points a monster on the board may have wounded, by their place on its card (as
 * many as the monster with the most known weak points has). */
function weakPoints(view) {
  const most = Math.max(0, ...PATHS.filter((p) => view.paths[p]).flatMap((p) =>
    view.paths[p].spaces).filter(Boolean).map((m) => (m.weak_points || []).length));
  return Array.from({length: most}, (_, i) => i);
}

const DESCRIPTION = {
  angel: {fields: [{name: "guardian", kind: "choice", from: guardians}]},
  hit: {when: (view) => hitDice(view).length > 0, fields: [die("die", "choice", {from: hitDice}),
    spacePicker(targetSpaces("hit")), {name: "as_life", kind: "check"}], build: (f) => atSpace(f)},
  move: {when: (view) => (view.free_moves || []).length > 0,  // with a die: its one-tap rows
    fields: [{name: "to", kind: "choice", chips: true, from: (view) => view.free_moves}]},
  block: {when: (view) => dieIndexes(view).length >= 2,
    fields: [die("dice", "multi", {min: 2})]},
  charge: {fields: [die("dice", "multi", {min: 1})]},
  reroll: {fields: [die("dice", "multi", {min: 1})]},
  mark: {fields: [die("die"),
    {name: "target", kind: "choice", from: guardians, optional: true},
    {name: "rune", kind: "choice", from: () => RUNES, optional: true},
    spacePicker(targetSpaces("mark")),
    {name: "to", kind: "choice", from: () => PATHS, optional: true}],
  build: (f, view) => atSpace(f, view.active === "neltai")},
  ultimate: {fields: [{name: "target", kind: "choice", from: guardians, optional: true},
    {name: "to", kind: "choice", from: () => PATHS, optional: true}]},
  end_turn: {},
  adjust: {fields: [{name: "guardian", kind: "choice", from: guardians, optional: true},
    ...["life", "mana", "ultimate"].map((n) => ({name: n, kind: "number", min: 0, max: 4,
      optional: true})),
    {name: "path", kind: "choice", from: () => PATHS, optional: true},
    {name: "shield", kind: "yesno"}, {name: "poison", kind: "yesno"},
    {name: "temple", kind: "number", min: 0, max: 12, optional: true},
    spacePicker(spaces),
    {name: "card", kind: "choice", from: offCards, label: cardName, optional: true},
    {name: "wounds", kind: "multi", numbers: true, optional: true, from: weakPoints,
      label: (i) => `#${i + 1}`},
    spacePicker(spaces, "to"),
    {name: "remove", kind: "check"},
    {name: "note", kind: "text", optional: true}]},
};

/** The card revealed, picked by its printed name among those the rules take now
 * (``view.cards``: the round's Event, else a monster of this pile or Dawn), each tinted with its
 * path's colour; one tap sends it. */
function cardPicker(view) {
  if (!view.cards || !view.cards.length) return "";
  return `<div class="card-pick">` + view.cards.map((c) => `<button type="button" ` +
    `data-act="reveal" data-id="${esc(c.id)}"${c.colour ? ` class="c-${esc(c.colour)}"` : ""}>` +
    `${c.colour ? `<b aria-hidden="true">${SYMBOL[c.colour]}</b> ` : ""}${esc(both(c.name))}` +
    "</button>").join("") + "</div>";
}

/** Each unused die on a line, its rune then what it may do in one tap (``view.taps``, what the
 * rules take now): hit the monster in contact, go to a path, charge the Ultimate; Release the
 * Mana when it would be taken. */
function taps(view) {
  const path = view.paths[view.guardians[view.active].path];
  const first = path.spaces.find(Boolean);
  const monster = first ? both(first.name) : "";
  const entries = view.taps.map((event, i) => [event, i]);
  const line = (index) => {
    const face = view.dice[index].face;
    const die = `${t("ui.die_n", {n: index + 1})} ${name(face)}`;
    const buttons = entries.filter(([e]) => (e.die ?? (e.dice || [])[0]) === index)
      .map(([e, i]) => {
        const [label, said] = e.type === "hit" ? [t("ui.rm_tap_hit", {monster}),
          t("ui.rm_tap_hit_said", {die, monster})]
          : e.type === "move" ? [`→ ${name(e.to)}`, t("ui.rm_tap_move_said", {die, path: name(e.to)})]
            : [t("ui.rm_tap_charge"), t("ui.rm_tap_charge_said", {die})];
        return Controls.tapButton(i, label, said);
      });
    return buttons.length ? `<div class="row die-taps">${rune(face)}${buttons.join("")}</div>`
      : "";
  };
  const release = entries.filter(([e]) => e.type === "release").map(([, i]) =>
    Controls.tapButton(i, t("ui.event_release"), t("ui.event_release"))).join("");
  return view.dice.map((d) => line(d.index)).join("") +
    (release ? `<div class="row">${release}</div>` : "");
}

const controls = Controls.make({
  taps, extra: (view) => cardPicker(view),
  description: DESCRIPTION, faces: {"runemasters/rune": RUNES}, symbol: (f) => SYMBOL[f],
  diceEvent: {handles: ["dice"], build: (_view, faces) => ({type: "dice", faces})},
  optionEvent: (view, o) => ({type: view.expects.events[0], guardian: o}),
  optionLabel: (_view, o) => name(o),
});

registerGame("runemasters", {top, board, heroes, reserve, setupForm, host: controls.host,
  forms: {setup, ...controls.forms},
  actions: {...controls.actions, reveal: (el) => send({type: "card", id: el.dataset.id})},
  simulated: ["dice", "card"]});
})();
