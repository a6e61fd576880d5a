// Attack on Titan: The Last Stand's renderer: the step, the Titan's health track and zone (marked
// while assumed), citizens, cannons, each hero's hearts, level and dice (and a power still off,
// with "Teach it" for the host), the Titan's hand size, the face-up Action and the Tactic on top;
// the host's controls: one tap per move the rules take now (``view.taps``, tried on a copy of the
// state by the rules), pickers of printed names for the rest (the Titan's cards, Eren's gifts,
// what a printed effect did) and the Correction of every count (chips, steppers, lists of
// printed names: nothing typed but its note). The Titan's own phone (role
// token) also sees the hand and hidden card, and makes the Titan's decisions by the same taps:
// commit, abilities, giving the dice back, applying an Action nobody counters, its choices.
"use strict";

(() => {
const FACES = ["titan", "combat", "tactic", "move", "cannon", "dodge"];
const SYMBOL = {titan: "☗", combat: "⚔", tactic: "✎", move: "➶", cannon: "✹", dodge: "↯"};
const TITANS = ["basic", "destroyer", "voracious", "deviant"];
const TACTICS = ["sauvetage", "guerison", "tir-aveuglant", "mutilation", "chute-raide",
  "decapitation", "eradication"];  // the pile lies face up: its top card is seen at set-up
const DECKS = {"basic": ["pietinement", "frenesie", "basic-3", "basic-4", "basic-5", "basic-6", "basic-7"], "destroyer": ["destroyer-1", "destroyer-2", "destroyer-3", "destroyer-4", "destroyer-5", "destroyer-6", "destroyer-7"], "voracious": ["voracious-1", "voracious-2", "voracious-3", "voracious-4", "voracious-5", "voracious-6", "voracious-7"], "deviant": ["deviant-1", "deviant-2", "deviant-3", "deviant-4", "deviant-5", "deviant-6", "deviant-7"]};  // each Titan's seven Action cards (catalog.json)
const HEROES = ["eren", "sasha", "erwin", "mikasa", "levi", "conny", "armin", "hange"];
const LEVELS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const heroIds = (view) => Object.keys(view.heroes);
const face = (f) => `<span class="face-chip" title="${esc(name(f))}">${SYMBOL[f] || f}</span>`;

function top(view) {
  return {headline: `<span class="turn">${esc(t("ui.aot_round", {n: view.round}))}</span> ` +
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
  `</legend><input name="titan-name" placeholder="${esc(t("ui.aot_titan_name"))}" required>` +
  `<select name="titan-card" aria-label="${esc(t("ui.field_titan"))}">${options(TITANS, "basic")}</select></fieldset>` +
  `<p class="hint">${esc(t("ui.aot_heroes_hint"))}</p>` + [0, 1, 2, 3].map((i) =>
    `<fieldset class="player"><legend>${esc(t("ui.player_n", {n: i + 1}))}</legend>` +
    `<input name="h${i}-name" placeholder="${esc(t("ui.player_name"))}">` +
    `<select name="h${i}-hero" aria-label="${esc(t("ui.field_hero"))}">${options(HEROES, HEROES[i])}</select>` +
    `<select name="h${i}-level" aria-label="${esc(t("ui.field_level"))}">${options([0, 3, 5], 0, String)}</select></fieldset>`).join("") +
  `<div class="event">${Controls.field({name: "tactic_top", kind: "choice", chips: true,
    optional: true, from: () => TACTICS}, null)}</div>` +
  `<button>${esc(t("ui.start"))}</button></form>`;

function setup(d) {
  const heroes = [0, 1, 2, 3].filter((i) => d[`h${i}-name`].trim()).map((i) => ({
    name: d[`h${i}-name`].trim(), hero: d[`h${i}-hero`], level: Number(d[`h${i}-level`])}));
  return send({type: "setup", game: "aot-last-stand", titan: {name: d["titan-name"].trim(),
    card: d["titan-card"]}, heroes, ...(d.tactic_top ? {tactics: [d.tactic_top]} : {})});
}

const DESCRIPTION = {};  // the Correction is the page's own picker form (fix* below)

// -- the Correction (``adjust``), folded till asked: every value is picked, none typed ---------

/** What the host changed in the Correction (``fixTouched``: a field's value as a string,
 * ``fixLists``: a list's chosen items); a field not touched shows the table's value and is not
 * sent, so the event says only what was corrected (as the typed form did). */
const fixTouched = {};
const fixLists = {};
let fixOpen = false;
const HERO_FIXES = ["hearts", "level"];
const fixHero = () => fixTouched.hero;

/** The table's values the Correction starts from (strings, as its fields keep them). */
function fixCurrent(view) {
  const h = view.heroes[fixHero()];
  return {hearts: h ? String(h.hearts) : "", level: h ? String(h.level) : "",
    health: String(view.health.marker), devoured: String(view.citizens.devoured),
    cannons: String(view.cannons.left), top: view.tactic.top || "", step: String(view.step)};
}
const fixStore = {sizes: {}, values: new Proxy(fixTouched, {
  get: (touched, k) => (k in touched ? touched[k] : fixCurrent(app.pic.view)[k]),
  set: (touched, k, v) => {
    if (k === "hero" && touched.hero !== v) {  // another hero: their own values
      for (const f of HERO_FIXES) delete touched[f];
      delete fixLists.dice;
    }
    touched[k] = v;
    return true;
  }})};
const fixFields = Fields.make("aot-adjust", fixStore, () => renderHost());

/** The Correction's single-value fields: chips, a list for the level, steppers for counts. */
const fixSpecs = (view) => [
  {name: "hero", type: "choice", options: heroIds(view), labels: heroIds(view)
    .map((id) => player(view, id))},
  ...(fixHero() ? [{name: "hearts", type: "choice", options: [0, 1, 2, 3]},
    {name: "level", type: "choice", options: LEVELS}] : []),
  {name: "health", type: "number", min: 0, max: view.health.length},
  {name: "devoured", type: "number", min: 0,
    max: view.citizens.left + view.citizens.devoured},
  {name: "cannons", type: "number", min: 0, max: 6},
  {name: "top", type: "choice", options: inPile(view), labels: inPile(view).map(name)},
  {name: "step", type: "choice", options: [1, 2, 3, 4, 5, 6]}];
const NOTE = {name: "note", type: "text"};
const inPile = (view) => TACTICS.filter((c) => !view.tactic.used.includes(c));

/** The Correction's lists: each a chosen list (a chip taken off by a tap) and what may be
 * added to it, filtered as the rules take it: a hero's dice (a Titan face only for the hero
 * who keeps it, at most five), the Titan's cards (its deck less the cards in play, removed or
 * on the other list), the Tactic pile (each card still in it, once). ``now``: the table's
 * list, shown until the host changes it. */
function fixListSpecs(view) {
  const h = view.heroes[fixHero()];
  const deck = (DECKS[view.titan.card] || []).filter((c) => !view.titan.removed.includes(c) &&
    !view.actions.some((a) => a.card === c));
  const hand = fixLists.hand ?? view.titan.committable;
  const aside = fixLists.set_aside ?? view.titan.set_aside;
  return [
    ...(h ? [{name: "dice", now: h.dice, most: 5, repeats: true, show: (f) =>
      `${SYMBOL[f]} ${name(f)}`, from: FACES.filter((f) => f !== "titan" || (fixHero() === "levi" && !h.power_off))}]
      : []),
    {name: "hand", now: view.titan.committable, from: deck.filter((c) => !aside.includes(c))},
    {name: "set_aside", now: view.titan.set_aside, from: deck.filter((c) => !hand.includes(c))},
    {name: "pile", now: [], from: inPile(view)}];
}

/** One list of the Correction: its chosen items (a tap takes one off), then what may be added. */
function fixList(spec) {
  const chosen = fixLists[spec.name] ?? spec.now;
  const show = spec.show || name;
  const free = spec.from.filter((v) => spec.repeats || !chosen.includes(v));
  return `<fieldset><legend>${esc(t("ui.field_" + spec.name))}</legend><div class="chips">` +
    (chosen.length ? chosen.map((v, i) => button("fix-drop", `${show(v)} ×`, `data-list=` +
      `"${spec.name}" data-index="${i}" aria-pressed="true"`)).join("") : "—") + "</div>" +
    (chosen.length < (spec.most ?? Infinity) && free.length ? `<div class="chips">` +
      free.map((v) => button("fix-add", `+ ${show(v)}`, `data-list="${spec.name}" ` +
        `data-value="${esc(v)}"`)).join("") + "</div>" : "") + "</fieldset>";
}

/** The Correction form: the hero and their counts and dice, the table's counts, the Titan's
 * cards, the Tactic pile, the step, a note. */
function fixForm(view) {
  const specs = fixSpecs(view);
  const lists = fixListSpecs(view);
  return `<details data-details="event-adjust"${fixOpen ? " open" : ""}><summary>` +
    `${esc(t("ui.event_adjust"))}</summary><form data-form="aot-adjust" class="event">` +
    specs.slice(0, fixHero() ? 3 : 1).map((s) => fixFields.labelled(s, s.name)).join("") +
    lists.filter((l) => l.name === "dice").map(fixList).join("") +
    specs.slice(fixHero() ? 3 : 1).map((s) => fixFields.labelled(s, s.name)).join("") +
    lists.filter((l) => l.name !== "dice").map(fixList).join("") +
    fixFields.labelled(NOTE, "note") + `<button>${esc(t("ui.send"))}</button></form></details>`;
}

/** The ``adjust`` event of what the host changed (the same event the typed form sent). */
function fixEvent(view) {
  const now = fixCurrent(view);
  const changed = fixSpecs(view).filter((s) => s.name !== "hero" && s.name in fixTouched &&
    String(fixTouched[s.name]) !== now[s.name]).map((s) => [s.name, fixFields.value(s, s.name)]);
  const lists = fixListSpecs(view).filter((s) => s.name in fixLists)
    .map((s) => [s.name, [...fixLists[s.name]]]);
  const note = fixFields.value(NOTE, "note");
  return {type: "adjust", ...(fixHero() ? {hero: fixHero()} : {}),
    ...Object.fromEntries([...changed, ...lists]), ...(note ? {note} : {})};
}

/** Once the table took the correction, the form starts afresh from the table's values. */
function fixClear(done) {
  if (done) {
    for (const k of Object.keys(fixTouched)) delete fixTouched[k];
    for (const k of Object.keys(fixLists)) delete fixLists[k];
  }
  return done;
}
const fixActions = {
  "fix-add": (el) => {
    const spec = fixListSpecs(app.pic.view).find((s) => s.name === el.dataset.list);
    fixLists[spec.name] = [...(fixLists[spec.name] ?? spec.now), el.dataset.value];
    renderHost();
  },
  "fix-drop": (el) => {
    const spec = fixListSpecs(app.pic.view).find((s) => s.name === el.dataset.list);
    const chosen = [...(fixLists[spec.name] ?? spec.now)];
    chosen.splice(Number(el.dataset.index), 1);
    fixLists[spec.name] = chosen;
    renderHost();
  },
};
document.addEventListener("toggle", (e) => {  // the host folds or unfolds it: kept so
  if (e.target.dataset && e.target.dataset.details === "event-adjust" &&
      e.target.querySelector("form[data-form=aot-adjust]")) fixOpen = e.target.open;
}, true);

/** Eren's gifts (end of step 2, «Eren peut donner un dé à chacun de ses coéquipiers»): for
 * each teammate a chip per face of Eren's dice still free (a die goes to one teammate only);
 * a second tap on a chip takes the gift back. */
const gifts = {};
function giftFields(view) {
  const dice = view.heroes.eren.dice;
  const free = (h) => dice.filter((f, i) => dice.indexOf(f) === i &&
    dice.filter((d) => d === f).length > Object.entries(gifts)
      .filter(([who, g]) => who !== h && g === f).length);
  return heroIds(view).filter((h) => h !== "eren").map((h) => `<fieldset><legend>` +
    `${esc(player(view, h))}</legend><div class="row">` + free(h).map((f) => button("gift",
    `${SYMBOL[f]} ${name(f)}`, `data-hero="${esc(h)}" data-face="${esc(f)}" aria-pressed=` +
    `"${gifts[h] === f}"`)).join("") + "</div></fieldset>").join("");
}

/** The dice event of the first hero the table waits for: a first roll (step 2), or dice
 * given back rolled again (step 4, or step 3 where it says the Titan gave them back). */
function diceEvent(view, faces) {
  const first = view.expects.templates.find((e) => e.blank && e.blank.kind === "dice");
  return {type: first.type, ...first.fields, faces};
}

const player = (view, id) => (view.heroes[id] ? view.heroes[id].player : name(id));
const paid = (view, pay) => Object.entries(pay).map(([who, symbols]) => `${player(view, who)} ` +
  Object.entries(typeof symbols === "object" ? symbols : {tactic: symbols})
    .map(([s, n]) => `${SYMBOL[s] || name(s)}${n > 1 ? "×" + n : ""}`).join(" ")).join(" · ");
const current = (view) => view.actions.find((a) => !a.resolved);

/** Who pays the next Tactic (two heroes may each pay it: each their own tap, told apart). */
const payers = (view, e) => Object.keys(e.pay || {}).map((id) => player(view, id)).join(", ");

/** What one of the one-tap events (``view.taps``) does, in words: [label, sentence]; in a
 * hero's line (``inLine``) without what the line says: a move as the level reached, a search
 * as the card put on top, the next Tactic as the symbol it costs (as a shot is shown). */
function tapLabel(view, e, inLine = false) {
  const card = current(view) ? name(current(view).card) : "";
  const hero = e.hero ? player(view, e.hero) : "";
  const who = inLine ? "" : `${hero} `;
  switch (e.type) {
    case "next": return [t(view.step === 6 ? "ui.aot_end_round" : "ui.aot_end_step",
      {n: view.step})];
    case "resolve": return e.pay ? [t("ui.aot_counter", {pay: paid(view, e.pay)})]
      : e.cancelled ? [t("ui.aot_countered", {card})] : [t("ui.aot_suffer", {card})];
    case "move": return [inLine ? String(e.to) : `${who}→ ${t("ui.aot_level", {n: e.to})}`,
      `${hero} → ${t("ui.aot_level", {n: e.to})}`];
    case "melee": case "cannon": return [`${who}${SYMBOL[e.type === "melee" ? "combat"
      : "cannon"]}×${e.count}`, t("ui.aot_shoot_" + e.type, {hero, n: e.count})];
    case "cycle": return [inLine ? `${SYMBOL.tactic}×1` : `${SYMBOL.tactic} ${t("ui.aot_cycle")}`,
      `${payers(view, e)} ${SYMBOL.tactic} ${t("ui.aot_cycle")}`];
    case "search": return [inLine ? name(e.card) : t("ui.aot_search", {hero, card: name(e.card)}),
      t("ui.aot_search", {hero, card: name(e.card)})];
    case "provide": return [t("ui.aot_provide", {n: e.condition, pay: paid(view, e.pay)})];
    case "activate": return [t("ui.aot_activate", {card: name(view.tactic.top)})];
    case "top": return [t("ui.aot_top_is", {card: name(e.card)})];
    case "ability": return [t("ui.aot_ability", {n: e.n, cost: view.titan.abilities[e.n - 1].cost})];
    default: return [chosen(view, e)];
  }
}

/** An answer of a waiting choice in words: a hero (and the die Obstruct takes), a card, a
 * card replaced by another, or declining. */
function chosen(view, e) {
  if (e.replace) return `${name(e.replace)} → ${name(e.card)}`;
  if (e.hero) return player(view, e.hero) + (e.face ? ` ${SYMBOL[e.face]} ${name(e.face)}` : "");
  return e.card ? name(e.card) : t("ui.aot_decline");
}

/** The hero a one-tap event is of: who moves, shoots or searches, or pays the next Tactic. */
const heroOf = (e) => e.hero || (e.type === "cycle" ? Object.keys(e.pay)[0] : null);

/** The one-tap events of this moment (what the rules take now, ``view.taps``): the others
 * first (the end of the step, the control awaited once the heroes are done), then each hero's
 * two lines led by the hero's name: their shots and next Tactic as the symbols they cost
 * ("✹×1 ✎×1"), Armin's search folded (a card of the pile put on top: six names, seldom
 * wanted), then their moves as the levels they reach ("➶ 0 1 2 3 4 6 7 8": eight narrow
 * digits fill a line), so that step 6's taps of four heroes, the most the rules allow, fit
 * the first screen of a 360 × 740 phone (issue 39, item 3); a waiting choice under its
 * question. */
function taps(view) {
  const entries = view.taps.map((e, i) => [e, i]);
  const tapOf = ([e, i], inLine = false) => {
    const [label, said] = tapLabel(view, e, inLine);
    return Controls.tapButton(i, label, said || label);
  };
  const inLine = (list) => list.map((entry) => tapOf(entry, true)).join("");
  const question = view.prompts.find((p) => p.answer === "choose");
  const head = question ? `<h3>${esc(both(app.pic.texts.prompts[view.prompts
    .indexOf(question)]))}</h3>` : "";
  const own = (id) => entries.filter(([e]) => heroOf(e) === id && e.type !== "choose");
  const ofType = (list, type) => list.filter(([e]) => e.type === type);
  const search = (id) => (ofType(own(id), "search").length ? `<details data-details="aot-search-` +
    `${id}"${app.unfolded["aot-search-" + id] ? " open" : ""}><summary>` +
    `${SYMBOL.tactic} ${esc(t("ui.aot_search_open"))}</summary><div class="row">` +
    `${inLine(ofType(own(id), "search"))}</div></details>` : "");
  const moves = (id) => (ofType(own(id), "move").length ? `<div class="moves"><span ` +
    `aria-hidden="true">${SYMBOL.move}</span>${inLine(ofType(own(id), "move"))}</div>` : "");
  const lines = heroIds(view).filter((id) => own(id).length).map((id) =>
    `<div class="row hero-taps"><strong>${esc(player(view, id))}</strong>` +
    inLine(own(id).filter(([e]) => e.type !== "move" && e.type !== "search")) + search(id) +
    moves(id) + "</div>");
  const rest = entries.filter(([e]) => !heroOf(e) || e.type === "choose");
  return head + (rest.length ? `<div class="row">${rest.map((entry) => tapOf(entry))
    .join("")}</div>` : "") + lines.join("");
}

/** What a printed ability or Action card did, in the effect vocabulary (the host's page and the
 * Titan's phone: whoever applies the card first says it). */
function answerForm(pic, formName, fields) {
  const spec = effectsSpec(pic.view.game);
  const index = pic.view.prompts.findIndex((p) => p.id === "text");
  return `<h3>${esc(both(pic.texts.prompts[index]))}</h3>` + (spec ? `<form ` +
    `data-form="${formName}" class="event">${fields.labelled(spec, "effects")}` +
    `<button>${esc(t("ui.send"))}</button></form>` : "");
}
const effectsSpec = (game) => {
  const kinds = Teach.kinds(game);
  return kinds && kinds.ability.fields.find((f) => f.name === "effects");
};
const hostAnswer = {values: {}, sizes: {}};
const hostAnswerFields = Fields.make("answer", hostAnswer, () => renderHost());
const answered = (store) => (done) => {
  if (done) Object.assign(store, {values: {}, sizes: {}});
};

/** The host's part: the one-tap events first, then the pickers of what has too many answers
 * for buttons (the Titan's cards, Eren's gifts, a printed effect), the dice to tap. */
function extra(view, expects) {
  let html = view.step === 1 && expects.events.includes("commit")
    ? commitPicker(view.titan.committable, view.titan.blind, "commit-down") : "";
  if (expects.events.includes("answer")) html += answerForm(app.pic, "answer", hostAnswerFields);
  if (expects.events.includes("give") && view.heroes.eren && !view.gift_given &&
      Object.values(view.heroes).every((h) => h.rolled)) {
    html += `<details data-details="event-give"><summary>${esc(t("ui.event_give"))}</summary>` +
      `<form data-form="aot-give" class="event">${giftFields(view)}` +
      `<button>${esc(t("ui.send"))}</button></form></details>`;
  }
  return html + fixForm(view);
}

const controls = Controls.make({
  taps, extra,
  description: DESCRIPTION, faces: {"aot/hero": FACES}, symbol: (f) => SYMBOL[f],
  diceEvent: {handles: ["roll", "reroll"], build: diceEvent},
});

// -- the Titan's own phone (role link): the hand, the face-down card and the Titan's decisions --

/** Step 1 in two taps: the face-up card, then the second card (face down, or face up after
 * Blinding Shot), which sends both (``act``: the second tap's action, the Titan's phone's or
 * the table's). ``cards``: the hand (a card set aside last round is not in it: «aucune carte
 * ne peut être jouée deux tours consécutifs»). */
const commitPick = {up: null};
function commitPicker(cards, blind, act) {
  const up = cards.includes(commitPick.up) ? commitPick.up : null;
  const chip = (c) => `<label class="pick"><input type="radio" name="up" value="${esc(c)}" ` +
    `data-act="commit-up"${c === up ? " checked" : ""}><span>${esc(name(c))}</span></label>`;
  return `<fieldset><legend>${esc(t("ui.field_up"))}</legend><span class="chips">` +
    cards.map(chip).join("") + "</span></fieldset>" + (up ? `<h3>${esc(t(blind
    ? "ui.aot_second_up" : "ui.aot_then_down"))}</h3><div class="row">` + cards
    .filter((c) => c !== up).map((c) => button(act, name(c), `data-card="${esc(c)}"`))
    .join("") + "</div>" : "");
}
const commitOf = (el) => ({type: "commit", up: commitPick.up, down: el.dataset.card});
/** Once the table took the two cards, the pick is cleared and shown cleared at once (its
 * buttons would otherwise send a second commit without its face-up card). */
const committed = (done) => {
  if (!done) return;
  commitPick.up = null;
  renderRole();
  renderHost();
};

/** Step 3: an ability whose cost is not known yet is taught on the spot and used (a stepper up
 * to the Titan faces it has: a dearer one cannot be used this round). */
const defineStores = {};
function titanDefine(view) {
  return view.titan.abilities.filter((a) => a.cost == null && a.allowed).map((a) => {
    const store = defineStores[a.n] || (defineStores[a.n] = {values: {}, sizes: {}});
    const fields = Fields.make(`titan-define-${a.n}`, store, () => renderRole());
    return `<form data-form="titan-define-${a.n}" class="event">` +
      `<h3>${esc(t("ui.aot_ability_unknown", {n: a.n}))}</h3>` +
      fields.labelled({name: "cost", type: "number", min: 1, max: view.titan.titan_dice,
        required: true}, "cost") +
      `<button>${esc(t("ui.send"))}</button></form>`;
  }).join("");
}

/** What the Titan's printed ability or Action card did, in the effect vocabulary. */
const answer = {values: {}, sizes: {}};
const answerFields = Fields.make("titan-answer", answer, () => renderRole());

/** The Titan's taps (``view.taps``: what the rules take from its phone now), in words. */
function titanTaps(view) {
  const question = view.prompts.find((p) => p.answer === "choose");
  const head = question && view.taps.some((e) => e.type === "choose")
    ? `<h3>${esc(t("ui.aot_your_choice", {choice: name(question.id)}))}</h3>` : "";
  return head + `<div class="row">` + view.taps.map((e, i) => {
    const label = e.type === "next" ? t("ui.aot_give_back") : e.type === "resolve"
      ? t("ui.aot_apply", {card: name(current(view) && current(view).card)})
      : tapLabel(view, e)[0];
    return button("titan-tap", label, `data-index="${i}"`);
  }).join("") + "</div>";
}

/** The Titan's own phone: the hand, the face-down card, and the Titan's decisions now. */
function role(pic) {
  const view = pic.view;
  const events = view.expects.events;
  let html = `<h2>${esc(t("ui.aot_titan_phone"))}</h2><p>${esc(t("ui.aot_hidden", {
    card: view.hidden ? name(view.hidden) : "—"}))}</p><p>${esc(t("ui.aot_hand_cards", {
    cards: view.hand.map(name).join(", ")}))}</p>`;
  if (events.includes("commit")) html += commitPicker(view.hand, view.titan.blind, "titan-down");
  if (events.includes("ability")) {
    html += `<h3>${esc(t("ui.aot_titan_dice", {n: view.titan.titan_dice}))}</h3>` +
      titanDefine(view);
  }
  if (view.taps.length) html += titanTaps(view);
  if (events.includes("answer")) html += answerForm(pic, "titan-answer", answerFields);
  return html;
}

const titanForms = {
  ...Object.fromEntries([1, 2, 3].map((n) => [`titan-define-${n}`, () => sendAsRole({
    type: "ability", n, define: {cost: Number(defineStores[n].values.cost)}})
    .then(answered(defineStores[n]))])),
  "titan-answer": () => sendAsRole({type: "answer", effects: answerFields.value(
    effectsSpec(app.role.pic.view.game), "effects") || []}).then(answered(answer)),
};
const pickActions = {
  "commit-up": (el) => { commitPick.up = el.value; renderRole(); renderHost(); },
  "titan-down": (el) => sendAsRole(commitOf(el)).then(committed),
  "commit-down": (el) => send(commitOf(el)).then(committed),
  gift: (el) => {
    const {hero: h, face} = el.dataset;
    if (gifts[h] === face) delete gifts[h];
    else gifts[h] = face;
    renderHost();
  },
  "titan-tap": (el) => sendAsRole(app.role.pic.view.taps[el.dataset.index]),
};
const hostForms = {
  answer: () => send({type: "answer", effects: hostAnswerFields.value(
    effectsSpec(app.pic.view.game), "effects") || []}).then(answered(hostAnswer)),
  "aot-adjust": () => send(fixEvent(app.pic.view)).then(fixClear),
  "aot-give": () => send({type: "give", gifts: {...gifts}}).then((done) => {
    if (done) for (const h of Object.keys(gifts)) delete gifts[h];
  }),
};

registerGame("aot-last-stand", {top, board, heroes, setupForm, host: controls.host, role,
  roles: ["titan"], forms: {setup, ...titanForms, ...hostForms, ...controls.forms},
  actions: {...controls.actions, ...pickActions, ...fixActions,
    "teach-hero": (el) => Teach.open("hero", el.dataset.hero)}, simulated: ["dice"]});
})();
