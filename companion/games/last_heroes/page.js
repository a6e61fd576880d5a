// Last Heroes' renderer: each player's charger (ammo still up), Jokers, Charisma, loaded weapons,
// monsters taken and artefacts; the battlefield with breaches and pawns; the turn count. A hand
// is only a number. Host controls are generated from the events the game accepts now.
"use strict";

(() => {
const HEROES = ["blind", "echo", "ace", "silent", "tank"];
const WEAPONS = ["flamethrower", "crossbow", "pistol", "gloves", "rifle"];
const POWERS = ["joker", "exchange", "impact", "immunity", "reload", "adrenaline"];
const MONSTERS = [["rat", "spider", "dragon"], ["bat", "wolf", "snake"], ["imp", "ghoul", "hydra"],
  ["mole", "crow", "golem"], ["shrew", "owl", "wyrm"]];
const heroIds = (view) => view.players.map((p) => p.hero);
const slots = (view) => view.players.flatMap((p) => [`${p.hero}.left`, `${p.hero}.right`]);
const slotLabel = (s) => `${name(s.split(".")[0])} ${t("ui.lh_" + s.split(".")[1])}`;

function top(view) {
  return {headline: `<span class="turn">${esc(t("ui.lh_turn", {n: view.round,
    of: view.rounds}))}</span> ${esc(view.active ? name(view.active) : "")} <span class="phase">` +
    `${esc(t("ui.lh_phase_" + view.phase))}</span>`,
  sub: view.ranking.map((r) => `${esc(name(r.hero))} <strong>${r.total}</strong>`).join(" · ")};
}

function board(view) {
  const cols = view.battlefield.map((col) => `<div class="column"><h3>${esc(t("ui.lh_column",
    {n: col.column}))}</h3><p class="artefact">✦ ${esc(name(col.artefact))}` +
    `${col.holder ? ` → ${esc(name(col.holder))}` : ""}</p>` + col.levels.slice().reverse()
    .map((l) => `<div class="level${l.breach || l.permanent_breach ? " breach" : ""}">` +
      `<small>${l.level}</small> ${esc(l.monster ? name(l.monster) : "—")}` +
      `${l.breach || l.permanent_breach ? ` <b>${esc(t("ui.lh_breach"))}</b>` : ""}` +
      `${l.pawn ? ` <span class="fig">${esc(name(l.pawn).slice(0, 2))}</span>` : ""}</div>`)
    .join("") + "</div>").join("");
  return `<h2>${esc(t("ui.lh_battlefield"))}</h2><div class="columns">${cols}</div>`;
}

function charger(slot) {
  if (!slot) return "—";
  return `${esc(name(slot.card))} ${"●".repeat(slot.ammo ?? 0)}${"○".repeat(Math.max(0,
    (slot.printed ?? 0) - (slot.ammo ?? 0)))}`;
}

function heroes(view) {
  return `<h2>${esc(t("ui.lh_players"))}</h2>` + view.players.map((p) => `<article class="hero` +
    `${p.hero === view.active ? " active" : ""}"><h3>${esc(p.name)} <small>${esc(name(p.hero))}` +
    ` · ${esc(t("ui.lh_hand", {n: p.hand}))}</small> <strong>${p.score.total}</strong></h3>` +
    `<p>${esc(t("ui.lh_charger"))}: ${charger(p.charger.left)} | ${charger(p.charger.right)}</p>` +
    `<p>🃏 ${esc(t("ui.lh_jokers", {n: p.jokers}))} · ★ ${esc(t("ui.lh_charisma",
      {n: p.charisma}))}</p><p>${esc(t("ui.lh_loaded"))}: ${p.loaded.map((w) =>
      esc(name(w.card))).join(", ") || "—"}</p><p>${esc(t("ui.lh_monsters"))}: ` +
    `${p.monsters.map((m) => esc(name(m.card))).join(", ") || "—"} · ✦ ` +
    `${p.artefacts.map((a) => esc(name(a))).join(", ") || "—"}</p></article>`).join("");
}

const setupForm = () => `<form data-form="setup" data-game="last-heroes" class="setup">` +
  `<h3>${esc(t("ui.new_game"))}</h3><p class="hint">${esc(t("ui.lh_players_hint"))}</p>` +
  HEROES.map((h, i) => `<fieldset class="player"><legend>${esc(name(h))}</legend><input ` +
    `name="name-${h}" placeholder="${esc(t("ui.player_name"))}"><select name="weapon-${i}">` +
    `${options(WEAPONS, WEAPONS[i])}</select><select name="artefact-${i}">` +
    `${options(POWERS, POWERS[i])}</select>` + [0, 1, 2].map((l) => `<input name="m-${i}-${l}"` +
    ` value="${MONSTERS[i][l]}" aria-label="${esc(t("ui.lh_level", {n: l + 1}))}">`).join("") +
    "</fieldset>").join("") +
  `<label>${esc(t("ui.first"))} <select name="first">${options(HEROES, "blind")}</select></label>` +
  `<button>${esc(t("ui.start"))}</button></form>`;

function setup(d) {
  const seats = HEROES.map((h, i) => [h, i]).filter(([h]) => d["name-" + h].trim());
  return send({type: "setup", game: "last-heroes",
    players: seats.map(([h]) => ({name: d["name-" + h].trim(), hero: h})),
    weapons: seats.map(([, i]) => d["weapon-" + i]),
    first: seats.some(([h]) => h === d.first) ? d.first : seats[0][0],
    battlefield: seats.map(([, i]) => [0, 1, 2].map((l) => d[`m-${i}-${l}`].trim())),
    artefacts: seats.map(([, i]) => d["artefact-" + i])});
}

// The Joker tile on a full wheel is taken, its Joker lost: the choice says so before it is sent.
const MAX_JOKERS = 3;
function powerLabel(power) {
  const view = app.pic.view;
  const active = view.players.find((p) => p.hero === view.active);
  return power === "joker" && active && active.jokers >= MAX_JOKERS
    ? t("ui.lh_joker_lost", {power: name(power), max: MAX_JOKERS}) : name(power);
}

const card = (optional = false) => ({name: "card", kind: "text", optional, from: () =>
  ((catalogFor("last-heroes") || {ids: {}}).ids.weapon || [])});
const DESCRIPTION = {
  charger: {fields: [{name: "hero", kind: "choice", from: heroIds}, card()]},
  play: {fields: [card(), {name: "as", kind: "choice", chips: true, value: "ammo",
    from: () => ["ammo", "weapon"]},
    {name: "slot", kind: "choice", from: () => ["left", "right"], optional: true},
    {name: "ammo", kind: "multi", from: slots, label: slotLabel, optional: true},
    {name: "jokers", kind: "number", min: 0, max: 3, optional: true}]},
  kill: {fields: [{name: "monster", kind: "text"}, {name: "weapons", kind: "multi", from: (v) =>
    (v.players.find((p) => p.hero === v.active) || {loaded: []}).loaded.map((w) => w.card)}]},
  swap: {fields: [card(), {name: "slot", kind: "choice", from: slots, label: slotLabel}]},
  power: {fields: [{name: "power", kind: "choice", from: () => POWERS, label: powerLabel},
    card(true), {name: "discard", kind: "text", optional: true},
    {name: "slot", kind: "choice", from: () => ["left", "right"], optional: true}]},
  end_turn: {},
  reveal: {fields: [{name: "card", kind: "text"},
    {name: "column", kind: "number", min: 1, max: 5, optional: true},
    {name: "level", kind: "number", min: 1, max: 3, optional: true}]},
  adjust: {fields: [{name: "hero", kind: "choice", from: heroIds, optional: true},
    {name: "jokers", kind: "number", min: 0, max: 3, optional: true},
    {name: "charisma", kind: "number", min: -99, max: 99, optional: true},
    {name: "loaded", kind: "text", optional: true, placeholder: "pistol-3, crossbow-6"},
    {name: "pawn", kind: "text", optional: true, placeholder: t("ui.lh_pawn_hint")},
    {name: "slot", kind: "choice", from: slots, label: slotLabel, optional: true},
    {name: "ammo", kind: "number", min: 0, max: 9, optional: true},
    {name: "column", kind: "number", min: 1, max: 5, optional: true},
    {name: "level", kind: "number", min: 1, max: 3, optional: true},
    {name: "monster", kind: "text", optional: true},
    {name: "note", kind: "text", optional: true}],
  build: (f) => ({...f,
    ...(f.loaded === undefined ? {} : {loaded: Controls.list(f.loaded)}),
    ...(f.pawn === undefined ? {} : {pawn: f.pawn === "0" ? false : Controls.list(f.pawn, true)}),
  })},
};

const controls = Controls.make({
  description: DESCRIPTION, faces: {}, symbol: String, diceEvent: {handles: []},
  optionEvent: null, optionLabel: String,
});

registerGame("last-heroes", {top, board, heroes, setupForm, host: controls.host,
  forms: {setup, ...controls.forms}, actions: controls.actions, simulated: []});
})();
