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
/** A monster as the table reads it: the name its owner taught (a card taught after the page
 * loaded its names included), else the page's name for it. */
const monsterName = (id, printed) => (typeof printed === "string" ? printed
  : printed ? both(printed) : name(id));
const holderName = (view, hero) => (view.players.find((p) => p.hero === hero) || {}).name ||
  name(hero);
const slotLabel = (s) => `${name(s.split(".")[0])} ${t("ui.lh_" + s.split(".")[1])}`;

function top(view) {
  const active = view.players.find((p) => p.hero === view.active);
  return {headline: `<span class="turn">${esc(t("ui.lh_turn", {n: view.round,
    of: view.rounds}))}</span> ${esc(active ? active.name : "")} <span class="phase">` +
    `${esc(t("ui.lh_phase_" + view.phase))}</span>`,
  sub: view.ranking.map((r) => `${esc(name(r.hero))} <strong>${r.total}</strong>`).join(" · ")};
}

function board(view) {
  const cols = view.battlefield.map((col) => `<div class="column"><h3>${esc(t("ui.lh_column",
    {n: col.column}))}</h3><p class="artefact">✦ ${esc(name(col.artefact))}` +
    `${col.holder ? ` → ${esc(holderName(view, col.holder))}` : ""}</p>` + col.levels.slice()
    .reverse().map((l) => `<div class="level${l.breach || l.permanent_breach ? " breach" : ""}">` +
      `<small>${l.level}</small> ${esc(l.monster ? monsterName(l.monster, l.name) : "—")}` +
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
    `${p.monsters.map((m) => esc(monsterName(m.card, m.name))).join(", ") || "—"} · ✦ ` +
    `${p.artefacts.map((a) => esc(name(a))).join(", ") || "—"}</p></article>`).join("");
}

// -- the new-game form ---------------------------------------------------------------------------
// Each hero's column of monsters is picked by printed name, a level at a time: the sample cards
// the form starts with (MONSTERS, also those of older journals) and the monsters the companion
// knows printed with that level (or none). A card stands once on the battlefield: picking one
// that stands elsewhere swaps the two. The picks live here, not in the form (a redraw, a
// refusal keep them), until the table takes the game.

const picked = {};
const monsterAt = (i, l) => picked[`${i}-${l}`] ?? MONSTERS[i][l];

/** The monsters level ``l`` (0 to 2) of the battlefield may start with (a card printed with no
 * level, not once it stands on another level). */
function monstersFor(catalog, l) {
  const other = HEROES.flatMap((_, i) => [0, 1, 2].filter((k) => k !== l)
    .map((k) => monsterAt(i, k)));
  return [...new Set([...MONSTERS.map((column) => column[l]), ...Object.entries(
    catalog.monsters).filter(([card, m]) => m.level === l + 1 || (m.level == null &&
    !other.includes(card))).map(([card]) => card)])];
}

function setupForm() {
  // the samples at once, the cards known once loaded; not loaded again at each card taught
  // while the form waits folded under a game (its redraw would move the controls tapped)
  const waited = !app.pic.view.game || app.pic.view.status !== "playing";
  const catalog = (waited ? catalogFor("last-heroes") : app.catalogs["last-heroes"]) ||
    {monsters: {}};
  const label = (card) => monsterName(card, (catalog.monsters[card] || {}).name);
  return `<form data-form="setup" data-game="last-heroes" class="setup">` +
    `<h3>${esc(t("ui.new_game"))}</h3><p class="hint">${esc(t("ui.lh_players_hint"))}</p>` +
    HEROES.map((h, i) => `<fieldset class="player"><legend>${esc(name(h))}</legend><input ` +
      `name="name-${h}" placeholder="${esc(t("ui.player_name"))}"><select name="weapon-${i}" ` +
      `aria-label="${esc(t("ui.field_type"))}">${options(WEAPONS, WEAPONS[i])}</select>` +
      `<select name="artefact-${i}" aria-label="${esc(t("ui.field_power"))}">` +
      `${options(POWERS, POWERS[i])}</select>` + [0, 1, 2].map((l) => `<select ` +
      `data-monster="${i}-${l}" aria-label="${esc(t("ui.lh_level", {n: l + 1}))}">` +
      options(monstersFor(catalog, l), monsterAt(i, l), label) + "</select>").join("") +
      "</fieldset>").join("") +
    `<label>${esc(t("ui.first"))} <select name="first">${options(HEROES, "blind")}</select>` +
    `</label><button>${esc(t("ui.start"))}</button></form>`;
}

document.addEventListener("change", (e) => {  // a monster picked where another stood
  const at = e.target.dataset.monster;
  if (!at || !e.target.closest("form[data-form=setup][data-game=last-heroes]")) return;
  const [i, l] = at.split("-").map(Number);
  const was = monsterAt(i, l);
  const other = HEROES.findIndex((_, j) => j !== i && monsterAt(j, l) === e.target.value);
  if (other >= 0) picked[`${other}-${l}`] = was;
  picked[at] = e.target.value;
  renderHost();
});

async function setup(d) {
  const seats = HEROES.map((h, i) => [h, i]).filter(([h]) => d["name-" + h].trim());
  const done = await send({type: "setup", game: "last-heroes",
    players: seats.map(([h]) => ({name: d["name-" + h].trim(), hero: h})),
    weapons: seats.map(([, i]) => d["weapon-" + i]),
    first: seats.some(([h]) => h === d.first) || !seats.length ? d.first : seats[0][0],
    battlefield: seats.map(([, i]) => [0, 1, 2].map((l) => monsterAt(i, l))),
    artefacts: seats.map(([, i]) => d["artefact-" + i])});
  if (done) for (const k of Object.keys(picked)) delete picked[k];
  return done;
}

// -- the host's pickers: what is printed, filtered to what the rules take now --------------------
// A weapon card is pointed at by its face (type in its colour, Impact word, ammo as icons: the
// view's ``hand``), a monster by its name where it stands (the view's ``kills``), a charger slot
// by its hero and side. What was picked is kept in ``draft`` until the table takes the event: a
// redraw, a refusal or a card taught keeps it.

const COLOUR = {flamethrower: "red", crossbow: "green", pistol: "blue", gloves: "yellow",
  rifle: "black"};
const impact = (n) => name("impact_" + n);
const dots = (n) => (n == null ? "?" : n === 0 ? "0" : "●".repeat(n));
const VALUES = [1, 2, 3, 4];  // cost and ammo offered as icons (the teach form takes any)

const draft = {at: null};
const fresh = () => ({at: draft.at, card: null, as: null, slot: null, sources: null, jokers: 0,
  cost: null, ammo: null, monster: null, weapons: null, light: null, dark: null, power: null,
  discard: null, void: 0, name: ""});

/** Where the table stands: a new phase or hero starts a new draft. */
function aimed(view) {
  const at = `${view.phase}/${view.active}/${holderOf(view)}`;
  if (draft.at !== at) Object.assign(draft, fresh(), {at});
  return draft;
}

const holderOf = (view) => (view.expects.templates[0] || {fields: {}}).fields.hero || view.active;
const playerOf = (view, hero) => view.players.find((p) => p.hero === hero);
const faceOf = (view) => view.hand.find((f) => f.card === draft.card) || null;

const chip = (k, v, label, pressed, extra = "") => `<button type="button" data-act="lh" ` +
  `data-k="${k}" data-v="${esc(v)}" aria-pressed="${pressed ? "true" : "false"}" ${extra}>` +
  `${label}</button>`;
const sendButton = (label, ready) => `<div class="row">` + button("lh-send", label,
  `class="strong"${ready ? "" : " disabled"}`) + "</div>";

/** The cards a hero may put down, a row per weapon type: Impact word, cost → ammo icons. */
function faces(view) {
  const rows = view.weapons.map((type) => {
    const chips = view.hand.filter((f) => f.type === type).map((f) => chip("card", f.card,
      `${esc(impact(f.impact))} <small>${dots(f.cost)}→${dots(f.ammo)}</small>`,
      draft.card === f.card, `aria-label="${esc(name(type) + " " + impact(f.impact) + " · " +
      t("ui.lh_face_said", {cost: f.cost ?? "?", ammo: f.ammo ?? "?"}))}"`)).join("");
    return chips ? `<div class="row lh-type"><b class="c-${COLOUR[type]}">${esc(name(type))}` +
      `</b>${chips}</div>` : "";
  }).join("");
  return `<fieldset class="lh-cards"><legend>${esc(t("ui.lh_which_card"))} <small>` +
    `${esc(t("ui.lh_face_hint"))}</small></legend>${rows}</fieldset>`;
}

/** The values the chosen card prints that the event needs and nobody taught yet (cost,
 * ammo), asked as icons. */
function printed(view, needed) {
  const face = faceOf(view);
  if (!face) return "";
  return needed.filter((k) => face[k] == null).map((k) => `<fieldset><legend>` +
    `${esc(t("ui.lh_printed_" + k))}</legend><div class="row">` +
    VALUES.map((n) => chip(k, n, dots(n), draft[k] === n, `aria-label="${n}"`)).join("") +
    "</div></fieldset>").join("");
}

/** The values to teach with the event (``define``), and whether those it needs are given. */
function define(view, needed) {
  const face = faceOf(view);
  if (!face) return {ready: false};
  const given = Object.fromEntries(["cost", "ammo"].filter((k) => face[k] == null &&
    draft[k] != null).map((k) => [k, draft[k]]));
  const ready = needed.every((k) => face[k] != null || draft[k] != null);
  return {ready, fields: Object.keys(given).length ? {define: given} : {}};
}

const slotName = (view, hero, side) => {
  const entry = playerOf(view, hero).charger[side];
  return `${esc(name(hero))} ${esc(t("ui.lh_" + side))}` + (entry ? ` <small class="c-` +
    `${COLOUR[entry.type]}">${dots(entry.ammo)}</small>` : "");
};

/** The charger slots that may pay one ammo for a weapon of ``type``. */
const sourcesFor = (view, type) => view.players.flatMap((p) => ["left", "right"]
  .filter((s) => p.charger[s] && p.charger[s].type === type && p.charger[s].ammo > 0)
  .map((s) => `${p.hero}.${s}`));

/** The chosen card as a loaded weapon: its ammo slots (picked for the host when there is no
 * choice) and Jokers; whether the table holds enough for it. */
function payment(view) {
  const face = faceOf(view);
  const cost = face && (face.cost ?? draft.cost);
  const sources = face ? sourcesFor(view, face.type) : [];
  const jokers = playerOf(view, view.active).jokers;
  if (draft.sources === null && cost != null) {
    const used = sources.length <= cost ? sources : [];
    const rest = cost - used.length;
    if (used.length && rest <= jokers) Object.assign(draft, {sources: used, jokers: rest});
  }
  return {face, cost, sources, jokers, loadable: cost == null || sources.length + jokers >= cost};
}

function playForm(view) {
  const pay = payment(view);
  if (pay.face && !pay.loadable && draft.as !== "ammo") draft.as = "ammo";
  let html = faces(view);
  if (!pay.face) return html;
  html += `<div class="row">${chip("as", "ammo", esc(t("ui.lh_as_ammo")), draft.as === "ammo")}` +
    (pay.loadable ? chip("as", "weapon", esc(t("ui.lh_as_weapon")), draft.as === "weapon") : "") +
    "</div>";
  html += printed(view, draft.as === "weapon" ? ["cost"] : draft.as === "ammo" ? ["ammo"] : []);
  let ready = false;
  if (draft.as === "ammo") {
    html += `<div class="row">` + ["left", "right"].map((s) => chip("slot", s,
      slotName(view, view.active, s), draft.slot === s)).join("") + "</div>";
    ready = draft.slot !== null && define(view, ["ammo"]).ready;
  }
  if (draft.as === "weapon") {
    const picked = draft.sources || [];
    html += `<fieldset><legend>${esc(t("ui.field_ammo"))}</legend><div class="row">` +
      pay.sources.map((s) => chip("sources", s, slotName(view, ...s.split(".")),
        picked.includes(s))).join("") + "</div>" + (pay.jokers ? `<div class="row">` +
      Array.from({length: pay.jokers + 1}, (_, n) => chip("jokers", n, `🃏 ${n}`,
        draft.jokers === n)).join("") + "</div>" : "") + "</fieldset>";
    const cost = pay.face.cost ?? draft.cost;
    ready = cost != null && picked.length + draft.jokers === cost && define(view, ["cost"]).ready;
  }
  return html + sendButton(t("ui.lh_play"), ready);
}

function chargerForm(view) {
  const hero = holderOf(view);
  return `<h3>${esc(t("ui.lh_charger_for", {hero: name(hero)}))}</h3>` + faces(view) +
    printed(view, ["ammo"]) + sendButton(t("ui.lh_put"), define(view, ["ammo"]).ready);
}

const impacts = (list) => (list || []).map(impact).join(" ");

/** A monster the weakest loaded weapons kill, in one tap: its name, the impacts it needs and the
 * weapons it takes (the hero who would rather spend others picks them with the ⋯ chip). */
function killButton(view, k) {
  const loaded = playerOf(view, view.active).loaded;
  const spent = k.weapons.map((c) => loaded.find((w) => w.card === c)).filter(Boolean);
  return button("lh-kill", `✕ ${monsterName(k.monster, k.name)} · ${impacts(k.needed)}`,
    `data-monster="${esc(k.monster)}" class="strong" aria-label="${esc(t("ui.lh_kill_with", {
      monster: monsterName(k.monster, k.name), weapons: spent.map((w) => `${name(w.type)} ` +
        impact(w.impact)).join(", ")}))}"`) + (loaded.length > k.weapons.length ? chip(
    "monster", k.monster, "⋯", draft.monster === k.monster, `aria-label="${esc(
      t("ui.lh_kill_choose", {monster: monsterName(k.monster, k.name)}))}"`) : "");
}

/** Whether weapons of Impacts ``forces`` cover the impacts ``needed`` one to one, each by a
 * weapon at least as strong («Chaque Arme chargée doit fournir un Impact de Force égale ou
 * supérieure»): the strongest impact served first, by the weakest weapon strong enough. */
function covers(needed, forces) {
  const free = [...forces].sort((a, b) => a - b);
  return needed.length <= free.length && [...needed].sort((a, b) => b - a).every((n) => {
    const i = free.findIndex((f) => f >= n);
    return i >= 0 && free.splice(i, 1).length > 0;
  });
}

/** Whether the monster of a kill option stands in a breach (its dark impacts not required). */
const inBreach = (view, option) => {
  const at = view.battlefield[option.column - 1].levels[option.level - 1];
  return Boolean(at.breach || at.permanent_breach);
};

/** A monster to kill: those the loaded weapons cover, each with the weakest weapons that do
 * (one tap), or, its impacts not taught yet, chosen then its impacts tapped as printed: only
 * impacts the weapons picked can still cover are offered, and the kill is sent once there is
 * one weapon per impact («autant de cartes Arme chargées que d'Impacts sur le Monstre»). */
function killForm(view) {
  if (!view.kills.length) return "";
  const option = view.kills.find((k) => k.monster === draft.monster);
  let html = `<fieldset><legend>${esc(t("ui.lh_kill"))}</legend><div class="row">` +
    view.kills.map((k) => (k.needed && k.weapons ? killButton(view, k) : chip("monster",
      k.monster, `${esc(monsterName(k.monster, k.name))} <small>?</small>`, k === option)))
      .join("") + "</div>";
  if (!option) return html + "</fieldset>";
  const loaded = playerOf(view, view.active).loaded;
  if (draft.weapons === null) {  // the weakest that cover it, or the only one loaded
    draft.weapons = option.weapons ? [...option.weapons]
      : loaded.length === 1 ? [loaded[0].card] : [];
  }
  html += `<div class="row">` + loaded.map((w) => chip("weapons", w.card,
    `<span class="c-${COLOUR[w.type]}">${esc(name(w.type))}</span> ${esc(impact(w.impact))}`,
    draft.weapons.includes(w.card))).join("") + "</div>";
  const forces = draft.weapons.map((c) => loaded.find((w) => w.card === c).impact);
  let ready;
  if (option.needed) {
    ready = draft.weapons.length === option.needed.length && (covers(option.needed, forces) ||
      draft.weapons.every((c) => option.weapons.includes(c)));  // the Impact power's upgrade
  } else {
    // a level-1 monster, or one in a breach: its light impacts are all it takes
    const zones = option.level === 1 || inBreach(view, option) ? ["light"] : ["light", "dark"];
    const given = zones.flatMap((z) => draft[z] || []);
    html += zones.map((z) => impactPicker(z, (n) => given.length < forces.length &&
      covers([...given, n], forces))).join("");
    ready = Boolean(draft.light && draft.light.length) && zones.every((z) => draft[z] !== null) &&
      given.length === forces.length && covers(given, forces);
  }
  return html + sendButton(t("ui.lh_kill_send"), ready) + "</fieldset>";
}

/** A monster's impacts nobody taught yet, tapped as printed (HIT!, BAM!, POW!: those
 * ``addable``), or none. */
function impactPicker(zone, addable) {
  const list = draft[zone];
  return `<fieldset><legend>${esc(t("ui.lh_impacts_" + zone))}: ` +
    `${esc(list === null ? "?" : list.length ? impacts(list) : t("ui.lh_none"))}</legend>` +
    `<div class="row">${[1, 2, 3].filter(addable).map((n) => chip(zone, n,
      `+ ${esc(impact(n))}`, false)).join("")}${zone === "dark" ? chip(zone, "none",
      esc(t("ui.lh_none")), list !== null && !list.length) : list ? chip(zone, "clear", "✕",
      false, `aria-label="${esc(t("ui.lh_clear"))}"`) : ""}` +
    "</div></fieldset>";
}

function swapForm(view) {
  if (!view.swaps) return "";
  const slots = view.players.flatMap((p) => ["left", "right"].filter((s) => p.charger[s])
    .map((s) => `${p.hero}.${s}`));
  return `<details data-details="lh-swap"${draft.power === "swap" ? " open" : ""}><summary>` +
    `${esc(t("ui.event_swap"))}</summary>` + (draft.power === "swap" ? "" : chip("power",
    "swap", esc(t("ui.lh_swap_start")), false)) + (draft.power === "swap" ? faces(view) +
    printed(view, ["ammo"]) + `<div class="row">${slots.map((s) => chip("slot", s,
      slotName(view, ...s.split(".")), draft.slot === s)).join("")}</div>` +
    sendButton(t("ui.lh_swap"), Boolean(draft.card && draft.slot) &&
      define(view, ["ammo"]).ready) : "") + "</details>";
}

const MAX_JOKERS = 3;  // «max. 3» on the Joker wheel

/** Whether the hero's Joker tile would be spent for nothing: the wheel is already full (the
 * rules take it, the Joker is lost; the page says so before it is confirmed). */
const jokerLost = (me, p) => p === "joker" && me.jokers >= MAX_JOKERS;

/** The powers the active hero holds, one tap each (Reload: which slot; Exchange: which cards;
 * a Joker on a full wheel: a second tap, once the page has said that it is lost). */
function powers(view) {
  const me = playerOf(view, view.active);
  const held = me.powers;
  if (!held.length) return "";
  let html = `<div class="row">` + held.flatMap((p) => (p === "reload"
    ? ["left", "right"].filter((s) => me.charger[s]).map((s) => button("lh-power",
      `${name(p)} · ${t("ui.lh_" + s)}`, `data-power="${p}" data-slot="${s}"`))
    : [p === "exchange" || jokerLost(me, p) ? chip("power", p, esc(name(p)), draft.power === p)
      : button("lh-power", name(p), `data-power="${p}"`)])).join("") + "</div>";
  if (draft.power === "joker") {
    html += `<p class="warning" role="alert">${esc(t("ui.lh_joker_lost", {power: name("joker"),
      max: MAX_JOKERS}))}</p>` + sendButton(t("ui.confirm"), true);
  }
  if (draft.power === "exchange") {
    html += faces(view) + `<div class="row">${[...new Set(view.discard)].map((c) =>
      chip("discard", c, esc(name(c)), draft.discard === c)).join("")}</div>` +
      sendButton(t("ui.lh_exchange"), Boolean(draft.card && draft.discard));
  }
  return html;
}

/** A monster revealed into a void: one the owner taught for that level, or a new one by its
 * printed name. */
function revealForm(view) {
  const voids = view.expects.options || [];
  const at = voids[draft.void] || voids[0];
  if (!at) return "";
  const cards = view.monster_cards.filter((m) => m.level == null || m.level === at[1]);
  return (voids.length > 1 ? `<div class="row">` + voids.map((v, i) => chip("void", i,
    esc(t("ui.lh_void", {column: v[0], level: v[1]})), i === draft.void)).join("") + "</div>"
    : `<h3>${esc(t("ui.lh_void", {column: at[0], level: at[1]}))}</h3>`) +
    `<div class="row">${cards.map((m) => chip("monster", m.card, esc(monsterName(m.card, m.name)),
      draft.monster === m.card)).join("")}</div>` +
    `<label>${esc(t("ui.lh_new_monster"))} <input name="lh-name" value="${esc(draft.name)}">` +
    "</label>" + sendButton(t("ui.lh_reveal"), Boolean(draft.monster || draft.name.trim()));
}

function host(view) {
  aimed(view);
  const forms = {charger: chargerForm, play: (v) => playForm(v) + powers(v),
    act: (v) => killForm(v) + swapForm(v) + powers(v) + `<div class="row">` +
      button("event", t("ui.event_end_turn"), 'data-event="end_turn" class="strong"') + "</div>",
    refill: revealForm};
  return `<div class="lh-host">${(forms[view.phase] || (() => ""))(view)}</div>`;
}

/** The event the draft makes in this phase. */
function drafted(view) {
  const chosen = draft.card;
  if (draft.power === "exchange") {
    return {type: "power", power: "exchange", card: chosen, discard: draft.discard};
  }
  if (draft.power === "joker") return {type: "power", power: "joker"};
  if (draft.power === "swap") return {type: "swap", card: chosen, slot: draft.slot,
    ...define(view, []).fields};
  if (view.phase === "charger") {
    return {type: "charger", hero: holderOf(view), card: chosen, ...define(view, []).fields};
  }
  if (view.phase === "play") {
    return draft.as === "ammo"
      ? {type: "play", card: chosen, as: "ammo", slot: draft.slot, ...define(view, []).fields}
      : {type: "play", card: chosen, as: "weapon", ammo: draft.sources || [],
        ...(draft.jokers ? {jokers: draft.jokers} : {}), ...define(view, []).fields};
  }
  if (view.phase === "act") {
    const option = view.kills.find((k) => k.monster === draft.monster);
    return {type: "kill", monster: draft.monster, weapons: draft.weapons,
      ...(option && !option.needed ? {define: {light: draft.light || [],
        ...(draft.dark === null ? {} : {dark: draft.dark})}} : {})};
  }
  const at = (view.expects.options || [])[draft.void];
  const card = draft.monster || slug(draft.name);
  return {type: "reveal", card, ...(at ? {column: at[0], level: at[1]} : {}),
    ...(draft.monster ? {} : {define: {name: draft.name.trim(), level: at ? at[1] : undefined}})};
}

/** A new monster's id from its printed name ("Goule des cryptes" → ``goule-des-cryptes``). */
const slug = (text) => text.trim().toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
  .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** A tap on a picker chip: one value, a value more (ammo slots, weapons, impacts), or off. */
function pick(el) {
  const {k, v} = el.dataset;
  const number = Number(v);
  if (k === "sources" || k === "weapons") {
    const list = draft[k] || [];
    draft[k] = list.includes(v) ? list.filter((x) => x !== v) : [...list, v];
  } else if (k === "light" || k === "dark") {
    draft[k] = v === "clear" ? null : v === "none" ? [] : [...(draft[k] || []), number];
  } else if (k === "card") {
    Object.assign(draft, {card: v, cost: null, ammo: null, sources: null, jokers: 0,
      as: draft.power ? draft.as : null});
  } else if (k === "monster") {
    Object.assign(draft, {monster: draft.monster === v ? null : v, weapons: null, light: null,
      dark: null, name: ""});
  } else if (k === "power") {
    Object.assign(draft, {power: draft.power === v ? null : v, card: null, slot: null});
  } else {
    draft[k] = ["cost", "ammo", "jokers", "void"].includes(k) ? number : v;
  }
  renderHost();
  const next = document.querySelector("#host button[data-act=lh-send]");
  if (next) next.scrollIntoView({block: "nearest"});  // the control awaited next, on screen
}

/** Send an event; once the table has taken it, the draft is emptied and the page goes back
 * up to the host's controls, where the next decision is drawn. */
async function sending(event) {
  const done = await send(event);
  if (done) {
    Object.assign(draft, fresh());
    window.scrollTo(0, 0);
  }
  renderHost();
}

const sendDraft = () => sending(drafted(app.pic.view));

/** The weapons a correction may load: those loaded now, and the cards of the active hero's hand
 * (the shared view names no other hand's cards). */
const loadable = (view) => [...new Set([...view.players.flatMap((p) => p.loaded.map((w) =>
  w.card)), ...view.hand.map((f) => f.card)])];
/** A weapon as printed (type, Impact), and who holds it loaded. */
function weaponLabel(card) {
  const view = app.pic.view;
  const holder = view.players.find((p) => p.loaded.some((w) => w.card === card));
  const w = (holder ? holder.loaded : view.hand).find((x) => x.card === card) || {};
  return `${name(w.type)} ${impact(w.impact)}${holder ? ` (${holder.name})` : ""}`;
}
/** The battlefield's places that hold a monster ("column,level"), from ``lowest`` up. */
const places = (view, lowest = 1) => view.battlefield.flatMap((col) => col.levels
  .filter((l) => l.monster && l.level >= lowest).map((l) => `${col.column},${l.level}`));
function placeLabel(place) {
  if (place === "0") return t("ui.lh_pawn_home");
  const [column, level] = place.split(",").map(Number);
  const at = app.pic.view.battlefield.find((c) => c.column === column).levels
    .find((l) => l.level === level);
  return `${t("ui.lh_void", {column, level})} · ${monsterName(at.monster, at.name)}`;
}
const monsterLabel = (card) => {
  const m = app.pic.view.monster_cards.find((x) => x.card === card) || {};
  return monsterName(card, m.name) + (m.level ? ` · ${t("ui.lh_level", {n: m.level})}` : "");
};

const DESCRIPTION = {
  adjust: {fields: [{name: "hero", kind: "choice", from: heroIds, optional: true},
    {name: "jokers", kind: "number", min: 0, max: 3, optional: true},
    {name: "charisma", kind: "number", min: -99, max: 99, optional: true},
    {name: "loaded", kind: "multi", from: loadable, label: weaponLabel, optional: true},
    {name: "pawn", kind: "choice", from: (view) => ["0", ...places(view, 2)], label: placeLabel,
      optional: true},
    {name: "slot", kind: "choice", from: slots, label: slotLabel, optional: true},
    {name: "ammo", kind: "number", min: 0, max: 9, optional: true},
    {name: "column", kind: "choice", from: places, label: placeLabel, optional: true},
    {name: "monster", kind: "choice", from: (view) => view.monster_cards.map((m) => m.card),
      label: monsterLabel, optional: true},
    {name: "note", kind: "text", optional: true}],
  build: (f) => ({...f,
    ...(f.pawn === undefined ? {} : {pawn: f.pawn === "0" ? false : Controls.list(f.pawn, true)}),
    ...(f.column === undefined ? {} : {column: Number(f.column.split(",")[0]),
      level: Number(f.column.split(",")[1])}),
  })},
};

const more = (view) => Controls.eventForms(DESCRIPTION, view, ["adjust"]);

/** "Teach a card" for a weapon: its type, Impact and ammo tapped as printed; the card taught is
 * the next of that face nobody taught (the view's ``untaught``), so a pile goes card after
 * card. A weapon card prints no name. */
const teach = {weapon: {
  hidden: ["name"],
  get fields() {
    const icons = (k) => ({type: "choice", options: VALUES, labels: VALUES.map(dots),
      label: t("ui.lh_printed_" + k)});
    return {impact: {type: "choice", options: [1, 2, 3], labels: [1, 2, 3].map(impact)},
      cost: icons("cost"), ammo: icons("ammo")};
  },
  id: (taught, view) => (((view.untaught || {})[taught.type] || {})[taught.impact] || [])[0] ||
    null,
  /** What a card a refusal names prints, as far as the table knows (its type and Impact). */
  values: (card, view) => Object.entries(view.untaught || {}).flatMap(([type, by]) =>
    Object.entries(by).filter(([, cards]) => cards.includes(card))
      .map(([force]) => ({type, impact: force})))[0] || {},
}, monster: {
  /** The monsters on the battlefield, by their printed names (another one's id is typed). */
  ids: (view) => view.battlefield.flatMap((col) => col.levels.filter((l) => l.monster)
    .map((l) => [l.monster, monsterName(l.monster, l.name)])),
  // its impacts as printed (HIT!, BAM!, POW!) or none: «Impacts requis pour tuer le Monstre»
  get fields() {
    const printedImpacts = (field) => ({...field, choices: field.choices.map((shape) =>
      (shape.max === 0 ? shape : {...shape, item: {...shape.item, type: "choice",
        options: [1, 2, 3], labels: [1, 2, 3].map(impact)}}))});
    return {light: printedImpacts, dark: printedImpacts};
  },
}};

document.addEventListener("input", (e) => {  // a new monster's name: kept, not redrawn
  if (e.target.name !== "lh-name") return;
  draft.name = e.target.value;
  const reveal = document.querySelector("#host button[data-act=lh-send]");
  if (reveal) reveal.disabled = !(draft.monster || draft.name.trim());
});

registerGame("last-heroes", {top, board, heroes, setupForm, host, more, teach,
  forms: {setup, event: (_data, form) => send(Controls.eventFrom(DESCRIPTION, form,
    app.pic.view))},
  actions: {lh: pick, "lh-send": sendDraft, event: (el) => sending({type: el.dataset.event}),
    "lh-kill": (el) => sending({type: "kill", monster: el.dataset.monster,
      weapons: app.pic.view.kills.find((k) => k.monster === el.dataset.monster).weapons}),
    "lh-power": (el) => sending({type: "power", power: el.dataset.power,
      ...(el.dataset.slot ? {slot: el.dataset.slot} : {})})},
  simulated: ["card"]});
})();
