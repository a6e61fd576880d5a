// Last Bastion's renderer: the Bastion with the four Horde boards, heroes, reserve, combat helper,
// and the host controls of its turns (card picker, dice, Hero-phase actions, corrections).
"use strict";

(() => {
const COLOURS = ["red", "green", "blue", "yellow", "black"];

const FACES = [...COLOURS, "white"];

const SYMBOL = {red: "▲", green: "♣", blue: "●", yellow: "★", black: "◆", white: "✚"};

const ITEM = {grip: "☠", enchantment: "✧", net: "#", trap: "⊓", standard: "⚑"};

const SIDES = ["N", "E", "S", "W"];

const MODES = ["novice", "normal", "difficult", "heroic"];

const DEFAULT_TILES = [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
  ["standard", "tower", "dispensary"]];

const POWERS = {mylfaar: "enchant", teagaan: "cleanse"};  // powers used as their own action

const chip = (colour, n) => `<span class="chip c-${colour}" title="${esc(name(colour))}">` +
  `<b aria-hidden="true">${SYMBOL[colour] || ""}</b>${esc(name(colour))}` +
  `${n == null ? "" : ` <strong>${n}</strong>`}</span>`;

const percent = (p) => `<strong>${Math.round(p.p * 1000) / 10}%</strong>` +
  ` <small>(${p.num}/${p.den})</small>`;

const slotName = (slot) => name(slot);  // "blue 2", as the messages say it (name.blue.1)

/** A hero's printed name: one string, or one per language (a hero not known yet). */
const printed = (text) => (typeof text === "object" && text ? both(text) : text);

const heroName = (view, id) => {
  const hero = view.heroes[id];
  return hero ? `${hero.player} (${printed(hero.name)})` : id;
};

function helper() {
  const help = app.pic.helper;
  if (!help) return "";
  const view = app.pic.view;
  let html = `<h2>${esc(t(help.kind === "market" ? "ui.market_helper" : "ui.combat_helper"))}` +
    ` <small>${esc(heroName(view, help.fighter))} · ${esc(t("ui.dice_count", {n: help.dice}))}` +
    `</small></h2>`;
  if (help.kind === "market") {
    html += `<p>${esc(t("ui.market_odds"))}</p><ul class="odds">` + COLOURS.map((c) =>
      `<li>${chip(c)} ${percent(help.odds.colour[c])}</li>`).join("") + "</ul>";
  } else {
    html += "<ul class=\"targets\">" + help.targets.map((card) => `<li>${chip(card.colour)} ` +
      `<b>${esc(card.name)}</b> ${esc(t("ui.resistance"))} <strong>${card.resistance}</strong>` +
      (card.resistance !== card.printed ? ` <small>(${esc(t("ui.printed", {n: card.printed}))}` +
        `${card.modifier ? ", " + esc(t("ui.modifier", {n: card.modifier})) : ""}` +
        `${card.enchanted ? ", " + esc(t("ui.enchanted")) : ""})</small>` : "") +
      (help.odds ? ` · ${percent(help.odds.each[card.slot])}` : "") + "</li>").join("") + "</ul>";
    const kit = Object.entries(help.equipment).map(([hero, colours]) =>
      `${esc(view.heroes[hero].player)}: ${Object.entries(colours).map(([c, n]) => chip(c, n))
        .join(" ") || "—"}`).join(" · ");
    html += `<p>${esc(t("ui.equipment_usable"))} ${kit}</p>`;
    if (help.odds) {
      html += `<p class="big">${esc(t("ui.odds_all"))} ${percent(help.odds.all)}</p>`;
      if (help.targets.length > 1) html += `<p>${esc(t("ui.odds_any"))} ${percent(help.odds.any)}</p>`;
    } else {
      html += `<p>${esc(t("ui.rolled"))} ${help.faces.map((f) => chip(f)).join(" ")}</p>`;
      html += `<p class="big">${adviceText(help)}</p>`;
    }
  }
  return html;
}

function adviceText(help) {
  const {advice} = help;
  const cardName = (slot) => help.targets.find((c) => c.slot === slot).name;
  if (!advice.falls.length) {
    return esc(t("ui.cannot_win")) + " " + Object.entries(advice.short).map(([slot, n]) =>
      esc(t("ui.short", {card: cardName(slot), n}))).join(" · ");
  }
  const spend = Object.entries(advice.spend).flatMap(([hero, colours]) =>
    Object.entries(colours).map(([c, n]) => `${esc(app.pic.view.heroes[hero].player)} ${chip(c, n)}`));
  return esc(t("ui.cheapest_win", {cards: advice.falls.map(cardName).join(", ")})) + " " +
    (spend.length ? spend.join(" ") : esc(t("ui.no_equipment_needed")));
}

function slotCell(view, colour, k) {
  const card = view.boards[colour][k];
  const slot = `${colour}.${k}`;
  const legal = app.host && view.expects.events.includes("place") &&
    (view.expects.options || []).includes(slot);
  const picked = app.pick.targets.includes(slot) || legal ? " picked"
    : offeredSlot(view, slot) ? " reach" : "";
  if (!card) return `<div class="slot empty b-${colour}${picked}" data-slot="${slot}">` +
    `<span class="slot-no">${k + 1}</span></div>`;
  const items = card.items.map((i) => `<span title="${esc(t("ui.item_" + i))}">${ITEM[i] || i}</span>`).join("");
  return `<div class="slot card b-${colour} c-${card.colour}${picked}" data-slot="${slot}">` +
    `<span class="sym" aria-hidden="true">${SYMBOL[card.colour]}</span>` +
    `<span class="res" title="${esc(t("ui.resistance"))}">${card.resistance}</span>` +
    `<span class="cname">${card.type === "warlord" ? "♛ " : ""}${esc(card.name)}</span>` +
    `<span class="ccol">${esc(name(card.colour))}${card.resistance !== card.printed_resistance
      ? ` · ${esc(t("ui.printed", {n: card.printed_resistance}))}` : ""}</span>` +
    `<span class="items">${items}</span></div>`;
}

/** Whether tapping this tile now does something the rules take (shown to the host). */
function offeredTile(view, r, c) {
  if (!app.host || view.expects.kind !== "action") return false;
  const offers = offersOf(view);
  if (app.pick.mode === "cta") return offers.cta.includes(view.tiles[r][c].id);
  if (app.pick.mode === "power") return offers.power.tiles.includes(`${r},${c}`);
  const movers = moversOf(view);
  const mover = movers.includes(app.pick.mover) ? app.pick.mover : movers[0];
  return Boolean(mover) && offers.move[mover].includes(`${r},${c}`);
}

/** Whether tapping this slot now fights its card (or uses a power on it). */
function offeredSlot(view, slot) {
  if (!app.host || view.expects.kind !== "action") return false;
  const offers = offersOf(view);
  return app.pick.mode === "power" ? offers.power.slots.includes(slot)
    : offers.fight.includes(slot);
}

function tileCell(view, r, c) {
  const tile = view.tiles[r][c];
  const heroes = Object.entries(view.heroes).filter(([, h]) => h.tile && h.tile[0] === r &&
    h.tile[1] === c);
  const figures = heroes.map(([id, h]) => `<span class="fig c-${h.colour}` +
    `${id === view.active_hero ? " active" : ""}" title="${esc(h.player)} (${esc(printed(h.name))})">` +
    `${esc(h.player.slice(0, 2))}</span>`).join("");
  const items = tile.items.map((i) => `<span title="${esc(t("ui.item_" + i))}">${ITEM[i] || i}</span>`).join("");
  const reach = offeredTile(view, r, c) ? " reach" : "";
  return `<div class="tile${tile.grip ? " gripped" : ""}${reach}" data-tile="${r},${c}">` +
    `<span class="tname">${esc(name(tile.id))}</span>` +
    (tile.grip ? `<span class="grip">☠ ${esc(t("ui.item_grip"))}</span>` : "") +
    `<span class="items">${items}</span><span class="figs">${figures}</span></div>`;
}

function board() {
  const view = app.pic.view;
  const cells = Array.from({length: 5}, () => Array(5).fill(""));
  const s = view.sides;
  for (let k = 0; k < 3; k++) {
    cells[0][k + 1] = slotCell(view, s.N, k);
    cells[k + 1][4] = slotCell(view, s.E, k);
    cells[4][3 - k] = slotCell(view, s.S, k);
    cells[3 - k][0] = slotCell(view, s.W, k);
  }
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cells[r + 1][c + 1] = tileCell(view, r, c);
  const corner = (side) => `<div class="corner">${esc(name(side))}<br>${chip(s[side])}</div>`;
  cells[0][0] = corner("N"); cells[0][4] = corner("E"); cells[4][4] = corner("S");
  cells[4][0] = corner("W");
  return `<h2>${esc(t("ui.bastion"))}</h2><div class="grid">${cells.flat().join("")}</div>`;
}

function heroes() {
  const view = app.pic.view;
  return `<h2>${esc(t("ui.heroes"))}</h2>` +
    Object.entries(view.heroes).map(([id, h]) => `<article class="hero b-${h.colour}` +
      `${id === view.active_hero ? " active" : ""} s-${h.state}">` +
      `<h3>${esc(h.player)} <small>${esc(printed(h.name))} · ${esc(name(h.side))}</small></h3>` +
      `<p><span class="life">♥ ${h.life}</span> <span class="cta">⚑ ${h.call_to_arms}</span>` +
      ` <span class="state">${esc(name(h.state))}</span>` +
      `${h.grip ? ` <span class="grip">☠ ${esc(t("ui.item_grip"))}</span>` : ""}` +
      ` <small>${esc(t(h.power ? "ui.power_on" : "ui.power_off"))}</small></p>` +
      `<p class="kit">${COLOURS.filter((c) => h.equipment[c]).map((c) => chip(c, h.equipment[c]))
        .join(" ") || esc(t("ui.no_equipment"))}</p></article>`).join("");
}

function reserve() {
  const view = app.pic.view;
  const r = view.reserve;
  return `<h2>${esc(t("ui.reserve"))}</h2><p>♥ ${r.life} · ⚑ ${r.call_to_arms}` +
    ` · ☠ ${r.grip} · ${COLOURS.map((c) => chip(c, r.equipment[c])).join(" ")}` +
    `${r.items.length ? " · " + r.items.map((i) => ITEM[i] || i).join(" ") : ""}</p>` +
    `<p><small>${esc(t("ui.discard", {n: view.discard.length}))}</small></p>`;
}

function setupForm() {
  const catalog = catalogFor("last-bastion");
  if (!catalog) return "<p>…</p>";
  const heroes = Object.keys(catalog.heroes);
  const tiles = Object.keys(catalog.tiles);
  const players = [0, 1, 2, 3].map((i) => `<fieldset class="player"><legend>` +
    `${esc(t("ui.player_n", {n: i + 1}))}</legend><input name="p${i}-name" ` +
    `placeholder="${esc(t("ui.player_name"))}" value="${i === 0 ? "Gary" : ""}">` +
    `<select name="p${i}-hero" aria-label="${esc(t("ui.field_hero"))}">${options(heroes, heroes[i], (h) => printed(catalog.heroes[h]))}</select>` +
    `<select name="p${i}-side" aria-label="${esc(t("ui.field_side"))}">${options(SIDES, ["S", "N", "E", "W"][i])}</select></fieldset>`).join("");
  const boards = SIDES.map((side, i) => `<label>${esc(name(side))} <select name="board-${side}">` +
    options(["red", "blue", "yellow", "green"], ["red", "blue", "yellow", "green"][i]) +
    "</select></label>").join(" ");
  const layout = DEFAULT_TILES.map((row, r) => row.map((tile, c) =>
    `<select name="tile-${r}-${c}" aria-label="${esc(t("ui.tile_at", {row: r + 1, column: c + 1}))}">${options(tiles, tile)}</select>`).join("")).join("");
  return `<form data-form="setup" data-game="last-bastion" class="setup"><h3>${esc(t("ui.new_game"))}</h3>` +
    `<label>${esc(t("ui.mode"))} <select name="mode">${options(MODES, "normal")}</select></label>` +
    `<p class="hint">${esc(t("ui.players_hint"))}</p>${players}` +
    `<p>${esc(t("ui.boards"))} ${boards}</p><p>${esc(t("ui.tiles"))}</p>` +
    `<div class="tiles3">${layout}</div>` +
    `<label>${esc(t("ui.first"))} <select name="first">${options(SIDES, "S")}</select></label>` +
    `<button>${esc(t("ui.start"))}</button></form>`;
}

const awaitedType = () => (app.pic.view.deck.next_warlord_in === 1 ? "warlord" : "monster");

// The cards to pick from: those the deck may give now (``awaited``), else every known card;
// tapping one runs the action ``act`` (give the card, or name an unknown tag).

function cardList(act, awaited) {
  const catalog = catalogFor("last-bastion");
  if (!catalog) return "<p>…</p>";
  const type = awaitedType();
  const query = app.pick.search.toLowerCase();
  const seen = app.pic.view.deck.seen || catalog.seen;  // the view's: the catalog is loaded once
  const cards = Object.entries(catalog.cards).filter(([id, c]) => (!awaited ||
    (!seen.includes(id) && c.type === type)) &&
    (!query || c.name.toLowerCase().includes(query) || id.includes(query)));
  const list = cards.slice(0, 30).map(([id, c]) => `<li><button type="button" data-act="${act}" ` +
    `data-id="${esc(id)}">${c.colour ? chip(c.colour) : "?"} ${esc(c.name)} ` +
    `<strong>${c.resistance ?? "?"}</strong></button></li>`).join("");
  return `<input name="search" type="search" value="${esc(app.pick.search)}" ` +
    `placeholder="${esc(t("ui.card_search"))}" aria-label="${esc(t("ui.card_search"))}">` +
    `<ul class="picker">${list || `<li>${esc(t("ui.no_card"))}</li>`}</ul>`;
}

function cardPicker() {
  const type = awaitedType();
  return `<h3>${esc(t("ui.pick_card", {type: name(type)}))}</h3>${cardList("card", true)}` +
    `<details data-details="new-card"${app.unfolded["new-card"] ? " open" : ""}><summary>` +
    `${esc(t("ui.new_card"))}</summary>${newCardForm(type)}</details>`;
}

function tagQuestion(pending, awaited) {
  return `<div class="tag-question"><h3>${esc(t("ui.tag_question", {uid: pending.uid}))} ` +
    `<small>${esc(t("ui.tag_left", {n: pending.seconds_left}))}</small></h3>` +
    cardList("enroll", awaited) + "</div>";
}

// A card drawn that the game does not know: taught on the spot from the game's own description
// of a card (name, type and colour as chips, resistance as a stepper, each timing as printed text
// or effects) and drawn at once (a `card` event with `define`). What is missing is said first.

const newCard = {id: null, values: {}, sizes: {}, error: ""};
const newCardFields = Fields.make("new-card", newCard, () => renderHost());

function newCardForm(type) {
  const kinds = Teach.kinds("last-bastion");
  if (!kinds) return "<p>…</p>";
  newCard.values.type ??= type;
  newCard.values.complete ??= "yes";  // a card taught whole: no question about its timings
  return `<form data-form="new-card" class="event">` +
    kinds.card.fields.map((f) => newCardFields.labelled(f, f.name)).join("") +
    (newCard.error ? `<p class="warning" role="alert">${esc(said(newCard.error))}</p>` : "") +
    `<button class="strong">${esc(t("ui.teach_and_draw"))}</button></form>`;
}

/** A card the game names but cannot play yet (a field missing): the form opens on it, with
 * what is known filled in, and draws it once completed. */
function completeCard(id, known) {
  const values = {name: known.name, type: known.type, complete: "yes"};
  if (known.colour) values.colour = known.colour;
  Object.assign(newCard, {id, values, sizes: {}, error: ""});
  app.unfolded["new-card"] = true;
  renderHost();
  const form = document.querySelector("form[data-form=new-card]");
  if (form) form.scrollIntoView({block: "nearest"});
}

/** A form's error: a refusal's message, or what is missing said in the page's language now
 * (a function: the host may switch languages while it shows). */
const said = (error) => (typeof error === "function" ? error() : error);

async function drawNewCard() {
  const spec = Teach.kinds("last-bastion").card;
  const missing = spec.fields.flatMap((f) => newCardFields.missing(f, f.name));
  const define = Object.fromEntries(spec.fields.map((f) => [f.name, newCardFields.value(f,
    f.name)]).filter(([, v]) => v !== undefined));
  const id = newCard.id || slug(define.name || "");
  if (missing.length || !id) {
    newCard.error = () => t("ui.fields_missing", {fields: spec.fields.flatMap((f) =>
      newCardFields.missing(f, f.name)).join(", ") || t("ui.field_name")});
    return renderHost();
  }
  const done = await send({type: "card", id, define});
  if (done) {
    Object.assign(newCard, {id: null, values: {}, sizes: {}, error: ""});
    app.unfolded["new-card"] = false;
  }
  else newCard.error = (app.refusal && app.refusal.message) || "";
  renderHost();
}

/** A face was tapped: once every die has one, the faces go without a "Send" tap. */
function diceTapped() {
  const view = app.pic.view;
  const expects = view.expects;
  const reroll = app.pick.reroll;
  const count = reroll ? rerollCount(view) : expects.count || 1;
  const grey = view.combat && view.combat.grey_die && (reroll || expects.kind === "dice") &&
    !(expects.profile === "last-bastion/corruption");
  const ready = app.pick.dice.slice(0, count).filter(Boolean).length === count &&
    (!grey || app.pick.grey);
  if (!ready) return renderHost();
  return ACTIONS[reroll ? "send-reroll" : "send-dice"]();
}

/** How many dice a reroll gives again: the Corruption die, the Market's two, a fight's three. */
const rerollCount = (view) => (!view.combat ? 1 : view.combat.kind === "market" ? 2 : 3);

function diceTapper(expects) {
  const corruption = expects.profile === "last-bastion/corruption";
  const faces = corruption ? [1, 2, 3, 4, 5, 6].map((n) => `corruption-${n}`) : FACES;
  const count = expects.count || 1;
  const grey = !corruption && app.pic.view.combat && app.pic.view.combat.grey_die;
  return diceRows(faces, count, grey, corruption, false);
}

function diceRows(faces, count, grey, corruption, reroll) {
  const face = (f, attrs) => `<button type="button" class="face ${corruption ? "" : "c-" + f}" ` +
    `${attrs} aria-label="${esc(name(f))}">${corruption ? f.split("-")[1]
      : SYMBOL[f]}</button>`;
  let html = `<h3>${esc(t(reroll ? "ui.reroll" : "ui.tap_faces"))}</h3>`;
  for (let i = 0; i < count; i++) {
    html += `<div class="dice">${esc(t("ui.die_n", {n: i + 1}))} ` + faces.map((f) =>
      face(f, `data-act="face" data-die="${i}" data-face="${f}"` +
        (app.pick.dice[i] === f ? ' aria-pressed="true"' : ""))).join("") + "</div>";
  }
  if (grey) {
    html += `<div class="dice grey">${esc(t("ui.grey_die"))} ` + faces.map((f) =>
      face(f, `data-act="grey" data-face="${f}"` + (app.pick.grey === f ? ' aria-pressed="true"'
        : ""))).join("") + "</div>";
  }
  const ready = app.pick.dice.filter(Boolean).length === count && (!grey || app.pick.grey);
  return html + button(reroll ? "send-reroll" : "send-dice", t("ui.send"), ready ? "" : "disabled");
}

/** The Hero phase: what the hero may do, as one grid of buttons. A tile tapped without a mode
 * moves the hero there, a card tapped fights it; the modes are for the rest (a fight against two
 * cards, a Call to Arms, a power, Elmer moving someone else). Only what the rules still allow is
 * offered (``view.allowed``: who may move). */
function actions(view) {
  const active = view.active_hero;
  const hero = view.heroes[active];
  const movers = moversOf(view);
  const offers = offersOf(view);
  const mode = app.pick.mode;
  const pressed = (m) => (mode === m ? 'aria-pressed="true"' : "");
  const power = offers.power.tiles.length || offers.power.slots.length;
  let html = `<div class="actions">` +
    (movers.length ? button("mode-move", t("ui.move"), pressed("move")) : "") +
    (offers.fight.length ? button("mode-fight", t("ui.fight"), pressed("fight")) : "") +
    (offers.activate ? button("activate", t("ui.activate")) : "") +
    (hero && hero.call_to_arms && offers.cta.length ? button("mode-cta", t("ui.activate_cta"),
      pressed("cta")) : "") +
    (POWERS[active] && hero && hero.power && power ? button("mode-power", t("ui.power"),
      pressed("power")) : "") +
    button("end_turn", t("ui.end_turn"), 'class="strong"') + "</div>";
  if (mode === "move" && movers.length > 1) {
    html += `<p><label>${esc(t("ui.hint_move"))} <select name="mover">${options(movers,
      app.pick.mover || movers[0], (h) => heroName(view, h))}</select></label></p>`;
  } else if (mode === "fight") {
    html += `<p>${esc(t("ui.hint_fight"))} ${esc(app.pick.targets.map(slotName).join(", "))}</p>` +
      button("fight", t("ui.fight"), app.pick.targets.length ? "" : "disabled");
  } else if (mode === "cta") {
    html += `<p>${esc(t("ui.hint_cta", {n: hero ? hero.call_to_arms : 0}))}</p>`;
  } else if (mode === "power") {
    html += `<p>${esc(t("ui.hint_power"))}</p>`;
  } else {
    html += `<p class="hint">${esc(t(movers.length ? "ui.hint_tap" : "ui.hint_tap_fight"))}</p>`;
  }
  return html;
}

/** The colour each white die takes at the Market, chosen by the player (the rulebook lets
 * them: a white face is any colour). */
function marketColours(view) {
  const faces = view.combat.faces || [];
  const whites = faces.map((f, i) => (f === "white" ? i : -1)).filter((i) => i >= 0);
  return whites.map((i) => `<fieldset class="white-die"><legend>${esc(t("ui.white_die", {n: i + 1}))}` +
    `</legend><span class="chips">${COLOURS.map((c) => `<label class="pick c-${c}"><input ` +
    `type="radio" name="white-${i}" value="${c}" data-act="white" data-die="${i}"` +
    `${app.pick.whites[i] === c ? " checked" : ""}><span>${esc(name(c))}</span></label>`)
      .join("")}</span></fieldset>`).join("");
}

/** The Equipment a Market roll gives: each face, a white one as the colour chosen for it. */
const marketGains = (view) => view.combat.faces.map((f, i) => (f === "white"
  ? app.pick.whites[i] : f));

function choice(view, expects) {
  const events = expects.events;
  if (events.includes("place")) {
    return `<h3>${esc(both(app.pic.texts.expects))}</h3><div class="row">` + expects.options.map((slot) =>
      button("place", slotName(slot), `data-slot="${esc(slot)}"`)).join("") + "</div>";
  }
  if (events.includes("assign")) {
    return `<div class="row">` + expects.options.map((h) => button("assign", heroName(view, h),
      `data-hero="${esc(h)}"`)).join("") + "</div>";
  }
  if (events.includes("resolve")) {
    const help = app.pic.helper;  // a win is declined only when there is one to decline
    const fight = view.combat && view.combat.kind === "fight" && help && help.advice &&
      help.advice.falls.length > 0;
    const market = view.combat && view.combat.kind === "market";
    const ready = !market || marketGains(view).every(Boolean);
    const reroll = (view.allowed || {}).reroll;
    let html = (market ? marketColours(view) : "") +
      `<div class="row">${button("resolve", t("ui.confirm"),
        `class="strong"${ready ? "" : " disabled"}`)}` +
      (fight ? button("decline", t("ui.decline")) : "") +
      (reroll ? button("mode-reroll", t("ui.reroll_button", {hero: heroName(view,
        view.active_hero)})) : "") + "</div>";
    if (app.pick.reroll && reroll) {
      const corruption = !view.combat;
      const faces = corruption ? [1, 2, 3, 4, 5, 6].map((n) => `corruption-${n}`) : FACES;
      const count = rerollCount(view);
      html += diceRows(faces, count, !corruption && view.combat.grey_die, corruption, true);
    }
    return html;
  }
  const prompt = (view.prompts || [])[0];
  if (expects.options && expects.options.length) {
    return `<div class="row">` + expects.options.map((o, i) => button("answer", optionLabel(view, o),
      `data-index="${i}"`)).join("") + "</div>";
  }
  const learnt = rememberable(view);
  return `<p>${esc(prompt ? both(app.pic.texts.prompts[0]) : "")}</p>` +
    (learnt ? `<label class="remember"><input type="checkbox" data-act="remember"` +
      `${app.pick.forget ? "" : " checked"}> ${esc(t("ui.remember", {card: learnt.name}))}` +
      "</label>" : "") +
    `<div class="row">${button("answer-none", t("ui.nothing_changed"))}</div>` + answerForm();
}

const TIMINGS = ["arrival", "recurring", "permanent", "exit"];

/** The card and timing of a question about an effect the companion does not know (no printed
 * text taught): the answer may be taught with it, so that the card's effect is not asked about
 * again (the prompt says «then teach it once»). Null for any other question. */
function rememberable(view) {
  const prompt = (view.prompts || [])[0];
  const catalog = catalogFor("last-bastion");
  if (!prompt || prompt.key !== "prompt.unknown_effect" || !catalog ||
      !TIMINGS.includes(prompt.params.timing)) return null;
  const id = Object.keys(catalog.cards).find((c) => catalog.cards[c].name === prompt.params.source);
  return id ? {id, name: prompt.params.source, timing: prompt.params.timing} : null;
}

/** Answer the question with the effects the table applied (none: nothing changed), and teach
 * them as the card's effect when the host keeps "Remember" ticked. */
async function answerWith(effects) {
  const learnt = app.pick.forget ? null : rememberable(app.pic.view);
  const done = await send(effects ? {type: "answer", effects} : {type: "answer"});
  if (done && learnt) {
    await post("/api/events", {event: {type: "teach", kind: "card", id: learnt.id,
      definition: {[learnt.timing]: effects || []}}});
  }
  return done;
}

// The effects a printed text had, built from the game's vocabulary (GET /api/definitions):
// each op shows exactly its fields, and what is missing is said before anything is sent.

const answer = {values: {}, sizes: {}, error: ""};
const answerFields = Fields.make("answer-effects", answer, () => renderHost());

/** The description of a list of effects (a card timing given as effects); null while it loads. */
function effectsSpec() {
  const kinds = Teach.kinds("last-bastion");
  const timing = kinds && kinds.card.fields.find((f) => f.name === "arrival");
  return timing ? timing.choices.find((c) => c.as === "effects") : null;
}

function answerForm() {
  const spec = effectsSpec();
  if (!spec) return "<p>…</p>";
  return `<form data-form="answer-effects" class="event answer">` +
    answerFields.labelled({...spec, name: "effects"}, "effects") +
    (answer.error ? `<p class="warning" role="alert">${esc(said(answer.error))}</p>` : "") +
    `<button class="strong">${esc(t("ui.apply_effects"))}</button></form>`;
}

async function sendAnswer() {
  const spec = effectsSpec();
  const missing = answerFields.missing(spec, "effects", true);
  if (missing.length) {
    answer.error = () => t("ui.fields_missing", {fields: answerFields.missing(spec, "effects",
      true).join(", ")});
    return renderHost();
  }
  const done = await answerWith(answerFields.value(spec, "effects"));
  if (done) Object.assign(answer, {values: {}, sizes: {}, error: ""});
  else answer.error = (app.refusal && app.refusal.message) || "";
  renderHost();
}

function optionLabel(view, option) {
  if (Array.isArray(option)) return name(view.tiles[option[0]][option[1]].id);
  if (view.heroes[option]) return heroName(view, option);
  return name(option);
}

function corrections(view) {
  const heroes = Object.keys(view.heroes);
  const hero = view.heroes[app.pick.fixHero || heroes[0]] || view.heroes[heroes[0]];
  const id = app.pick.fixHero || heroes[0];
  const numbers = [["life", hero.life], ["call_to_arms", hero.call_to_arms]]
    .map(([k, v]) => `<label>${esc(name(k))} <input type="number" min="0" max="99" name="${k}" ` +
      `value="${v}"></label>`).join("") + COLOURS.map((c) => `<label>${chip(c)} <input ` +
      `type="number" min="0" max="99" name="eq-${c}" value="${hero.equipment[c]}"></label>`).join("");
  const slots = Object.entries(view.boards).flatMap(([colour, list]) => list.map((card, k) =>
    card ? `${colour}.${k}` : null)).filter(Boolean);
  return `<details><summary>${esc(t("ui.corrections"))}</summary>` +
    `<form data-form="fix-hero" class="fix"><select name="hero" aria-label="${esc(t("ui.field_hero"))}">${options(heroes, id,
      (h) => heroName(view, h))}</select>${numbers}<select name="state" aria-label="${esc(t("ui.field_state"))}">` +
    `${options(["healthy", "wounded", "knocked_out", "dead"], hero.state)}</select>` +
    `<button>${esc(t("ui.apply"))}</button></form>` +
    `<form data-form="fix-tile" class="fix">${esc(t("ui.tile_grip"))} <select name="tile" aria-label="${esc(t("ui.tile_grip"))}">` +
    view.tiles.flatMap((row, r) => row.map((tile, c) => `<option value="${r},${c}">` +
      `${esc(name(tile.id))}${tile.grip ? " ☠" : ""}</option>`)).join("") +
    `</select><select name="grip" aria-label="${esc(t("ui.field_grip"))}">${options(["true", "false"], "true", (v) => name(v))}</select>` +
    `<button>${esc(t("ui.apply"))}</button></form>` +
    (slots.length ? `<form data-form="fix-slot" class="fix">${esc(t("ui.card_fix"))} ` +
      `<select name="slot" aria-label="${esc(t("ui.field_slot"))}">${options(slots, slots[0], slotName)}</select>` +
      `<label>${esc(t("ui.modifier_label"))} <input type="number" name="modifier" min="-9" max="9" ` +
      `value="0"></label><label><input type="checkbox" name="remove"> ${esc(t("ui.remove"))}` +
      `</label><button>${esc(t("ui.apply"))}</button></form>` : "") +
    "</details>";
}

const slug = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
  .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

function setMode(mode) {
  app.pick.mode = app.pick.mode === mode ? null : mode;
  app.pick.targets = [];
  render();
}

/** What the Hero phase offers on the board (``view.offers``, each tried by the rules). */
const offersOf = (view) => view.offers || {fight: [], move: {}, cta: [], activate: false,
  power: {tiles: [], slots: []}};

/** The heroes who may move now, each to at least one tile. */
const moversOf = (view) => ((view.allowed || {}).movers || []).filter((h) =>
  (offersOf(view).move[h] || []).length);

/** A tile tapped: a Call to Arms or a power in their mode, else a move there; only what the
 * rules take (a far tile does nothing). */
function tapTile(r, c) {
  const view = app.pic.view;
  const mode = app.pick.mode;
  const offers = offersOf(view);
  const movers = moversOf(view);
  const tile = view.tiles[r][c].id;
  if (view.expects.kind !== "action") return;
  if (mode === "cta") {
    if (offers.cta.includes(tile)) send({type: "activate", tile, call_to_arms: true});
  } else if (mode === "power") {
    if (offers.power.tiles.includes(`${r},${c}`)) {
      send({type: "power", hero: view.active_hero, tile: [r, c]});
    }
  } else if (movers.length) {  // a tile tapped is where to move
    const mover = movers.includes(app.pick.mover) ? app.pick.mover : movers[0];
    if (offers.move[mover].includes(`${r},${c}`)) send({type: "move", hero: mover, to: [r, c]});
  }
}

function tapSlot(slot) {
  const view = app.pic.view;
  const mode = app.pick.mode;
  if (view.expects.events.includes("place")) {
    if ((view.expects.options || []).includes(slot)) send({type: "place", slot});
  } else if (view.expects.kind !== "action") {
    return;
  } else if (mode === "fight") {
    if (!offersOf(view).fight.includes(slot)) return;
    const targets = app.pick.targets;
    app.pick.targets = targets.includes(slot) ? targets.filter((s) => s !== slot)
      : [...targets, slot].slice(-2);
    render();
  } else if (mode === "power") {
    if (offersOf(view).power.slots.includes(slot)) {
      send({type: "power", hero: view.active_hero, slot});
    }
  } else if (offersOf(view).fight.includes(slot)) {  // a card tapped is a fight against it
    send({type: "fight", targets: [slot]});
  }
}

const slotCard = (view, slot) => view.boards[slot.split(".")[0]][Number(slot.split(".")[1])];

/** The outcome of the roll waiting for Confirm, said in the header: who falls and whose
 * Equipment it spends, or that the fight is lost; the Market's gains. */
function result(view) {
  const help = app.pic.helper;
  if (!help || !help.advice || !view.expects.events.includes("resolve")) return "";
  const list = (items) => new Intl.ListFormat(app.lang, {type: "conjunction"}).format(items);
  const {advice} = help;
  const card = (slot) => help.targets.find((c) => c.slot === slot).name;
  if (!advice.falls.length) {
    return `<span class="result lost">${esc(t("ui.result_lost", {cards: list(help.targets
      .map((c) => c.name)), n: help.targets.length}))}</span>`;
  }
  const spends = Object.entries(advice.spend).map(([hero, colours]) => t("ui.spends", {
    player: view.heroes[hero].player, what: list(Object.entries(colours).map(([c, n]) =>
      (n > 1 ? `${n} ${name(c)}` : name(c))))}));
  return `<span class="result won">${esc(t("ui.result_won", {cards: list(advice.falls.map(card)),
    n: advice.falls.length, spend: spends.length ? list(spends) : t("ui.no_spend")}))}</span>`;
}

function top(view) {
  const who = view.active_hero ? heroName(view, view.active_hero)
    : t("ui.neutral_board", {board: name(view.sides[view.active])});
  const deck = view.deck;
  const warlord = deck.next_warlord_in == null ? t("ui.no_warlord")
    : deck.next_warlord_in === 1 ? t("ui.warlord_next")
      : t("ui.warlord_in", {n: deck.next_warlord_in});
  return {
    headline: `<span class="turn">${esc(t("ui.round", {n: view.round}))}</span> ${esc(who)}` +
      ` <span class="phase">${esc(t("ui.phase_" + view.phase))}</span>${result(view)}`,
    sub: `${esc(t("ui.deck", {remaining: deck.remaining, size: deck.size}))}` +
      ` · <strong>${esc(warlord)}</strong> · ${esc(name(view.mode))}`};
}

function host(view, expects) {
  const pending = app.box.status && app.box.status.pending_tag;
  let html = pending ? tagQuestion(pending, expects.kind === "card") : "";
  if (expects.kind === "card" && !pending) html += cardPicker();
  else if (expects.kind === "dice") html += diceTapper(expects);
  else if (expects.kind === "action") html += actions(view);
  else if (expects.kind === "choice") html += choice(view, expects);
  return html;
}

const FORMS = {
  setup: (d) => {
    const players = [0, 1, 2, 3].filter((i) => d[`p${i}-name`].trim()).map((i) => ({
      name: d[`p${i}-name`].trim(), hero: d[`p${i}-hero`], side: d[`p${i}-side`]}));
    const boards = Object.fromEntries(SIDES.map((s) => [s, d[`board-${s}`]]));
    const tiles = [0, 1, 2].map((r) => [0, 1, 2].map((c) => d[`tile-${r}-${c}`]));
    return send({type: "setup", game: "last-bastion", mode: d.mode, boards, players, tiles,
      first: d.first});
  },
  "new-card": () => drawNewCard(),
  "answer-effects": () => sendAnswer(),
  "fix-hero": (d) => send({type: "adjust", hero: d.hero, life: Number(d.life),
    call_to_arms: Number(d.call_to_arms), state: d.state, equipment: Object.fromEntries(
      COLOURS.map((c) => [c, Number(d[`eq-${c}`])]))}),
  "fix-tile": (d) => send({type: "adjust", tile: d.tile.split(",").map(Number),
    grip: d.grip === "true"}),
  "fix-slot": (d) => send(d.remove ? {type: "adjust", slot: d.slot, remove: true}
    : {type: "adjust", slot: d.slot, modifier: Number(d.modifier)}),
};

const ACTIONS = {
  card: (el) => {
    const known = catalogFor("last-bastion").cards[el.dataset.id];
    if (known.colour && known.resistance != null) return send({type: "card", id: el.dataset.id});
    return completeCard(el.dataset.id, known);  // e.g. the Boucher: its resistance is not known
  },
  enroll: (el) => post("/api/box/enroll", {card: el.dataset.id}).then((r) => r && loadBox()),
  place: (el) => send({type: "place", slot: el.dataset.slot}),
  assign: (el) => send({type: "assign", hero: el.dataset.hero}),
  answer: (el) => send({type: "answer", choice: app.pic.view.expects.options[el.dataset.index]}),
  "answer-none": () => answerWith(null),
  remember: (el) => { app.pick.forget = !el.checked; },
  resolve: () => {
    const view = app.pic.view;
    return send(view.combat && view.combat.kind === "market"
      ? {type: "resolve", gains: marketGains(view)} : {type: "resolve"});
  },
  white: (el) => { app.pick.whites[el.dataset.die] = el.value; renderHost(); },
  decline: () => send({type: "resolve", falls: []}),
  face: (el) => { app.pick.dice[el.dataset.die] = el.dataset.face; diceTapped(); },
  grey: (el) => { app.pick.grey = el.dataset.face; diceTapped(); },
  "send-dice": () => send({type: "dice", faces: app.pick.dice.slice(),
    ...(app.pick.grey ? {grey: app.pick.grey} : {})}),
  "send-reroll": () => send({type: "dice", faces: app.pick.dice.slice(), reroll: true,
    ...(app.pick.grey ? {grey: app.pick.grey} : {})}),
  "mode-reroll": () => { app.pick.reroll = !app.pick.reroll; app.pick.dice = []; renderHost(); },
  "mode-move": () => setMode("move"),
  "mode-fight": () => setMode("fight"),
  "mode-cta": () => setMode("cta"),
  "mode-power": () => setMode("power"),
  activate: () => {
    const view = app.pic.view;
    const [r, c] = view.heroes[view.active_hero].tile;
    return send({type: "activate", tile: view.tiles[r][c].id});
  },
  fight: () => send({type: "fight", targets: app.pick.targets}),
  end_turn: () => send({type: "end_turn"}),
};

function tap(target) {
  if (target.dataset.tile) tapTile(...target.dataset.tile.split(",").map(Number));
  else if (target.dataset.slot) tapSlot(target.dataset.slot);
}

registerGame("last-bastion", {top, helper, board, heroes, reserve, setupForm, host, tap,
  more: corrections,
  forms: FORMS, actions: ACTIONS, simulated: ["dice", "card"], asksTags: true});
})();
