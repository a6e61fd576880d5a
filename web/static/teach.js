// "Teach a card" for every game: a form drawn from /api/definitions?game= (each kind's fields,
// drawn by fields.js), sending a `teach` event. What was typed is kept in `Teach` (not in the DOM,
// which each render replaces), so a refusal loses nothing; a prompt or a refusal naming a card
// the game cannot use yet opens the form pre-filled with it.
"use strict";

const Teach = (() => {
  const draft = {game: null, kind: null, id: "", values: {}, sizes: {}, error: "",
    open: false, deck: false, taught: 0, photo: null, camera: false};
  const described = {};

  /** The card a prompt asks to teach, as [kind, id] (by the prompt's key). */
  const PROMPTS = {
    "prompt.teach_card": (p) => ["monster", p.card],
    "prompt.monster_points": (p) => ["monster", p.monsters[0]],
  };
  /** The card a refusal says is not known enough yet, as [kind, id] (by the error key). */
  const REFUSALS = {
    "card.incomplete": (p) => [p.kind, p.card],
    "ability.unknown": (p) => ["ability", `${p.titan}.${p.n}`],
    "tactic.conditions_unknown": (p) => ["tactic", p.card],
  };

  /** A game's kinds and fields (by kind), loaded once; null while they load. A game's own forms
   * and a secret role's may draw them too (the host controls and the role's box are redrawn once
   * they are in). */
  function kindsOf(game) {
    if (described[game] === undefined) {
      described[game] = null;
      fetch("/api/definitions?game=" + encodeURIComponent(game)).then((r) => r.json())
        .then((data) => {
          described[game] = Object.fromEntries(data.kinds.map((k) => [k.kind, k]));
          renderHost();  // this form, and a game's own forms drawn from the same description
          renderRole();
        });
    }
    return described[game];
  }

  /** Point the draft at one card (keeping what was typed when it is the same card); a game
   * that names its cards from what they print fills in what it knows of this one. */
  function aim(game, kind, id, error = "") {
    if (draft.game !== game || draft.kind !== kind || draft.id !== id) {
      Object.assign(draft, {values: {}, sizes: {}});
      const own = ((GAMES[game] || {}).teach || {})[kind];
      if (own && own.values && app.pic) {
        for (const [field, value] of Object.entries(own.values(id, app.pic.view))) {
          draft.values[field] = String(value);
        }
      }
    }
    Object.assign(draft, {game, kind, id, error, open: true});
  }

  const label = (name) => t("ui.field_" + name);
  const fields = Fields.make("teach-any", draft, picked);

  /** Something was picked: the form is redrawn and its button, awaited next, kept on screen. */
  function picked() {
    redraw();
    const next = document.querySelector("form[data-form=teach-any] > button:last-of-type");
    if (next) next.scrollIntoView({block: "nearest"});
  }

  /** A game's own way to teach a kind (its renderer's ``teach[kind]``): ``fields``, name ->
   * how to draw that field instead (its printed words, icons; or a function of the field),
   * ``hidden``, fields it never prints, ``values(id, view)``, what it knows a card prints, and
   * ``id(definition, view)``, the card named by what was picked (so no id is typed; null when
   * every card of that face is taught). With an ``id``, a pile may be taught card after card:
   * the values stay from one card to the next, only what differs is tapped. */
  const ownWay = () => ((GAMES[draft.game] || {}).teach || {})[draft.kind] || null;

  /** The fields of the kind being taught, as the game draws them. */
  function shown(spec) {
    const own = ownWay() || {};
    const over = own.fields || {};
    return spec.fields.filter((f) => !(own.hidden || []).includes(f.name))
      .map((f) => (typeof over[f.name] === "function" ? over[f.name](f)
        : {...f, ...(over[f.name] || {})}));
  }

  /** The definition the form holds now. */
  const definitionOf = (specs) => Object.fromEntries(specs
    .map((f) => [f.name, fields.value(f, f.name)]).filter(([, v]) => v !== undefined));

  /** The card the form teaches: the one the game names from what was picked, else the id
   * typed. */
  function target(specs, view) {
    const own = ownWay();
    return own && own.id ? own.id(definitionOf(specs), view) : draft.id;
  }

  /** The id to type, unless the game names the card from what is picked; a game may offer the
   * cards on its table by their printed names (``ids(view)``: [id, name] pairs), one tap each,
   * an id typed only for a card elsewhere. */
  function typedId(view) {
    const own = ownWay() || {};
    if (own.id) return "";
    const ids = own.ids ? own.ids(view) : [];
    const picked = ids.some(([id]) => id === draft.id);
    const chips = ids.length ? `<fieldset><legend>${esc(t("ui.field_id"))}</legend>` +
      `<span class="chips">${ids.map(([id, shown]) => `<label class="pick"><input type="radio" ` +
        `name="teach-id" value="${esc(id)}"${id === draft.id ? " checked" : ""}><span>` +
        `${esc(shown)}</span></label>`).join("")}</span></fieldset>` : "";
    return chips + `<label><span>${esc(t(ids.length ? "ui.teach_other_id" : "ui.field_id"))}` +
      `${ids.length ? "" : " *"}</span> <input name="teach-id"${ids.length ? "" : " required"}` +
      ` value="${esc(picked ? "" : draft.id)}"></label>`;
  }

  /** For a game that names the card: which one is taught (the next of its face), how many
   * this pile has taught, and the choice to go on card after card. */
  function named(specs, view) {
    if (!(ownWay() || {}).id) return "";
    const card = target(specs, view);
    return `<p class="hint" role="status">${card ? esc(t("ui.teach_next", {card: name(card)}))
      : ""}${draft.taught ? " · " + esc(t("ui.teach_deck_count", {n: draft.taught})) : ""}</p>` +
      `<label class="pick"><input type="checkbox" name="teach-deck"` +
      `${draft.deck ? " checked" : ""}><span>${esc(t("ui.teach_deck"))}</span></label> `;
  }

  /** The card's photo, from the phone's camera or its files, or taken by the table's camera
   * when the box runs one (the card camera will know the card by it); kept in the draft, as a
   * file chosen cannot be put back in a redrawn form. */
  const photoField = () => `<label><span>${esc(t("ui.teach_photo"))}</span> <input ` +
    `type="file" name="teach-photo" accept="image/*" capture="environment"></label>` +
    (draft.photo ? `<p class="hint">${esc(t("ui.teach_photo_chosen", {name: draft.photo.name}))}` +
      "</p>" : "") +
    (app.sensors ? `<label class="pick"><input type="checkbox" name="teach-camera"` +
      `${draft.camera ? " checked" : ""}><span>${esc(t("ui.teach_photo_camera"))}</span></label> `
      : "");

  /** The folded "Teach a card" form for the game on the table (empty while its fields load). */
  function body(view) {
    const kinds = kindsOf(view.game);
    if (!kinds) return "";
    if (draft.game !== view.game) {
      Object.assign(draft, {game: view.game, kind: null, id: "", values: {}, sizes: {},
        error: ""});
    }
    for (const p of view.prompts || []) {
      const target = PROMPTS[p.key] && PROMPTS[p.key](p.params);
      if (target && !draft.id) aim(view.game, ...target);
    }
    if (!kinds[draft.kind]) draft.kind = Object.keys(kinds)[0];
    const spec = kinds[draft.kind];
    const specs = shown(spec);
    const skipped = spec.skipped.length ? `<p class="hint">${esc(t("ui.teach_skipped",
      {fields: spec.skipped.map(label).join(", ")}))}</p>` : "";
    return `<details data-details="teach-any"${draft.open ? " open" : ""}><summary>` +
      `${esc(t("ui.teach_any"))}</summary><form data-form="teach-any" class="event teach-any">` +
      `<label><span>${esc(t("ui.teach_kind"))}</span> <select name="teach-kind">` +
      options(Object.keys(kinds), draft.kind, (k) => t("ui.kind_" + k)) + "</select></label>" +
      typedId(view) + specs.map((f) => fields.labelled(f, f.name)).join("") + skipped +
      (ownWay() ? "" : `<p class="hint">${esc(t("ui.teach_required"))}</p>`) +
      (draft.error ? `<p class="warning" role="alert">${esc(draft.error)}</p>` : "") +
      named(specs, view) + photoField() +
      `<button>${esc(t(draft.deck ? "ui.teach_deck_next" : "ui.teach"))}</button></form>` +
      "</details>";
  }

  /** The section of the host controls, in a box of its own: it is redrawn alone, without
   * losing what is typed in the other forms. */
  const section = (view) => `<div id="teach-any">${body(view)}</div>`;

  function redraw() {
    const box = document.getElementById("teach-any");
    if (box && app.pic) draw(box, body(app.pic.view));
  }

  /** Keep the kind and id typed in the form (the page redraws the host controls often); say
   * whether the target was one of them (the other fields are kept by ``Fields.keep``). */
  function keep(target) {
    const form = target.closest && target.closest("form[data-form=teach-any]");
    if (!form || !["teach-kind", "teach-id", "teach-deck", "teach-photo", "teach-camera"]
      .includes(target.name)) {
      return false;
    }
    if (target.name === "teach-kind") { draft.kind = target.value; redraw(); }
    else if (target.name === "teach-photo") {
      Object.assign(draft, {photo: target.files[0] || null, camera: false});
      redraw();
    } else if (target.name === "teach-camera") {
      Object.assign(draft, {camera: target.checked, photo: null});
      redraw();
    }
    else if (target.name === "teach-deck") {
      Object.assign(draft, {deck: target.checked, taught: 0});
      redraw();
    } else {
      draft.id = target.value.trim();
      if (target.type === "radio") redraw();  // the id typed for another card is emptied
    }
    return true;
  }

  /** The `teach` event with the card's photo (or the table camera's), as the form posts it. */
  function withPhoto(event) {
    const form = new FormData();
    form.append("event", JSON.stringify(event));
    form.append("based_on", String(app.version));
    if (draft.photo) form.append("photo", draft.photo, draft.photo.name);
    else form.append("camera", "1");
    return form;
  }

  /** Send the draft as a `teach` event (with the card's photo when one was chosen); on success
   * the draft is emptied, or, teaching a pile, kept for the next card. */
  async function submit() {
    const specs = shown(described[draft.game][draft.kind]);
    const missing = specs.flatMap((f) => fields.missing(f, f.name, false));
    const id = target(specs, app.pic.view);
    if (missing.length || !id) {  // said in the form before anything is sent
      draft.error = missing.length ? t("ui.fields_missing", {fields: missing.join(", ")})
        : t("ui.teach_pick_face");
      redraw();
      return;
    }
    const event = {type: "teach", kind: draft.kind, id, definition: definitionOf(specs)};
    const photo = draft.photo || draft.camera;
    const done = await (photo ? post("/api/definitions/photo", () => withPhoto(event))
      : send(event));
    if (done && done.alike && done.alike.length) {
      toast(t("ui.teach_photo_alike", {cards: done.alike.join(", ")}));
    }
    if (done && draft.deck) Object.assign(draft, {error: "", taught: draft.taught + 1, photo: null});
    else if (done) {
      Object.assign(draft, {id: "", values: {}, sizes: {}, error: "", open: false, photo: null,
        camera: false});
    }
    if (draft.deck) picked();  // the next card of the pile
    else redraw();
  }

  /** A refusal: shown in the form when it refused the teach, or the form is opened on the card
   * a refused event needs taught. */
  function refused(error, event) {
    const target = REFUSALS[error.error] && REFUSALS[error.error](error.params || {});
    if (event && event.type === "teach") {
      draft.error = error.message;
      if (error.error === "teach.photo_refused") draft.photo = null;  // another one is chosen
    }
    else if (target && app.pic) aim(app.pic.view.game, ...target, error.message);
    else return;
    app.hostOpen = true;
    render();
    reveal();  // where it is needed: on screen, under the header, not three screens down
  }

  /** The form's top just under the page's sticky header. */
  function reveal() {
    const box = document.getElementById("teach-any");
    const header = document.getElementById("top");
    if (box) window.scrollBy(0, box.getBoundingClientRect().top - (header ?
      header.getBoundingClientRect().bottom : 0));
  }

  /** Remember whether the host folded the form; unfolded, it comes up to the screen's top. */
  const fold = (open) => {
    if (open && !draft.open) requestAnimationFrame(reveal);
    draft.open = open;
  };

  /** Open the host's form on one definition of the game on the table (e.g. a hero whose power
   * waits for its symbols). */
  function open(kind, id) {
    aim(app.pic.view.game, kind, id);
    app.hostOpen = true;
    render();
    reveal();
  }

  return {section, keep, submit, refused, fold, open, kinds: kindsOf};
})();
