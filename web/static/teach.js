// "Teach a card" for every game: a form drawn from /api/definitions?game= (each kind's fields,
// drawn by fields.js), sending a `teach` event. What was typed is kept in `Teach` (not in the DOM,
// which each render replaces), so a refusal loses nothing; a prompt or a refusal naming a card
// the game cannot use yet opens the form pre-filled with it.
"use strict";

const Teach = (() => {
  const draft = {game: null, kind: null, id: "", values: {}, sizes: {}, error: "",
    open: false};
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

  /** Point the draft at one card (keeping what was typed when it is the same card). */
  function aim(game, kind, id, error = "") {
    if (draft.game !== game || draft.kind !== kind || draft.id !== id) {
      Object.assign(draft, {values: {}, sizes: {}});
    }
    Object.assign(draft, {game, kind, id, error, open: true});
  }

  const label = (name) => t("ui.field_" + name);
  const fields = Fields.make("teach-any", draft, redraw);

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
    const skipped = spec.skipped.length ? `<p class="hint">${esc(t("ui.teach_skipped",
      {fields: spec.skipped.map(label).join(", ")}))}</p>` : "";
    return `<details data-details="teach-any"${draft.open ? " open" : ""}><summary>` +
      `${esc(t("ui.teach_any"))}</summary><form data-form="teach-any" class="event teach-any">` +
      `<label><span>${esc(t("ui.teach_kind"))}</span> <select name="teach-kind">` +
      options(Object.keys(kinds), draft.kind, (k) => t("ui.kind_" + k)) + "</select></label>" +
      `<label><span>${esc(t("ui.field_id"))} *</span> <input name="teach-id" required ` +
      `value="${esc(draft.id)}"></label>` +
      spec.fields.map((f) => fields.labelled(f, f.name)).join("") + skipped +
      `<p class="hint">${esc(t("ui.teach_required"))}</p>` +
      (draft.error ? `<p class="warning" role="alert">${esc(draft.error)}</p>` : "") +
      `<button>${esc(t("ui.teach"))}</button></form></details>`;
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
    if (!form || !["teach-kind", "teach-id"].includes(target.name)) return false;
    if (target.name === "teach-kind") { draft.kind = target.value; redraw(); }
    else draft.id = target.value.trim();
    return true;
  }

  /** Send the draft as a `teach` event; on success the draft is emptied. */
  async function submit() {
    const spec = described[draft.game][draft.kind];
    const missing = spec.fields.flatMap((f) => fields.missing(f, f.name, false));
    if (missing.length) {  // said in the form before anything is sent
      draft.error = t("ui.fields_missing", {fields: missing.join(", ")});
      redraw();
      return;
    }
    const definition = Object.fromEntries(spec.fields
      .map((f) => [f.name, fields.value(f, f.name)]).filter(([, v]) => v !== undefined));
    const done = await send({type: "teach", kind: draft.kind, id: draft.id, definition});
    if (done) Object.assign(draft, {id: "", values: {}, sizes: {}, error: "", open: false});
    redraw();
  }

  /** A refusal: shown in the form when it refused the teach, or the form is opened on the card
   * a refused event needs taught. */
  function refused(error, event) {
    const target = REFUSALS[error.error] && REFUSALS[error.error](error.params || {});
    if (event && event.type === "teach") draft.error = error.message;
    else if (target && app.pic) aim(app.pic.view.game, ...target, error.message);
    else return;
    redraw();
  }

  /** Remember whether the host folded the form. */
  const fold = (open) => { draft.open = open; };

  /** Open the host's form on one definition of the game on the table (e.g. a hero whose power
   * waits for its symbols). */
  function open(kind, id) {
    aim(app.pic.view.game, kind, id);
    app.hostOpen = true;
    render();
    const box = document.getElementById("teach-any");
    if (box) box.scrollIntoView();
  }

  return {section, keep, submit, refused, fold, open, kinds: kindsOf};
})();
