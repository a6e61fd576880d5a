// Definition fields drawn from their description (GET /api/definitions: text, number, choice,
// yes/no, list, object, an effect of a game's vocabulary: its op, then that op's fields, and
// "either": one of several shapes, e.g. a card's printed text or its effects).
// Pickers, not typing: a short choice is a row of chips (colours in their colour), a number a
// stepper (− value +); a field needed only when another has a value (``needed_when``, e.g. an
// Equipment token's colour) is shown then, as required. ``missing`` lists what is required and
// empty, so the form says it before anything is sent.
// What is typed is kept in a store of the caller's ({values, sizes}), not in the DOM, which the
// page redraws at every change of the table. A list without a maximum (e.g. a card's effects)
// grows one item at a time with its "+" button. Used by "Teach a card" (teach.js), Last Bastion's
// answer to a printed text, and a game's own forms (e.g. the Titan's phone).
"use strict";

const Fields = (() => {
  const forms = {};  // a form's data-form -> the fields drawn in it

  /** A field's label; a name used with several types may have one per type
   * (``ui.field_effects_list``: effects, where another game takes their printed text). */
  function labelOf(spec) {
    if (spec.label) return spec.label;  // as a game's own form names it
    const keys = spec.name ? [`ui.field_${spec.name}_${spec.type}`, `ui.field_${spec.name}`]
      : [`ui.field_${spec.type}`, "ui.field_item"];  // an item of a list has no name of its own
    const key = keys.find((k) => k in TEXTS.en);
    return key ? t(key) : name(spec.name);  // e.g. a symbol of a count per symbol
  }

  const optionLabel = (v) => (typeof v === "number" ? String(v) : name(v));

  /** An op of a game's vocabulary, as a verb where the page has one ("Gain tokens"). */
  const opLabel = (op) => (`ui.op_${op}` in TEXTS.en ? t(`ui.op_${op}`) : name(op));

  const CHIPS = 8;
  const COLOURED = ["red", "green", "blue", "yellow", "black", "white"];  // chips in their colour  // a choice with at most this many options is a row of chips

  /** Whether a field shows: always, or when its sibling has the value it is needed for. */
  const shows = (spec, store, parent) => !spec.needed_when ||
    store.values[`${parent}.${spec.needed_when.field}`] === String(spec.needed_when.value);

  const parentOf = (path) => path.slice(0, Math.max(0, path.lastIndexOf(".")));

  /** The fields of the form ``form`` (its data-form), typed values kept in ``store``, and
   * ``redraw`` called when the form must change shape (another op, one more item). */
  function make(form, store, redraw) {
    const shown = {};  // path -> items drawn, for lists without a maximum

    /** How many items a list shows: its maximum, else as many as were asked for. */
    const slots = (spec, path) => spec.max ?? store.sizes[path] ?? Math.max(1, spec.min);

    /** The op chosen for an effect, and that op's description. */
    const chosenOp = (spec, path) => spec.ops.find((o) => o.op === store.values[`${path}.op`]);

    /** The shape chosen for an "either" field (the first until the owner picks another). */
    const chosenShape = (spec, path) =>
      spec.choices.find((c) => c.as === store.values[`${path}.as`]) || spec.choices[0];

    /** One field, named by its path in the definition (``rewards.mana``, ``effects.0.op``). */
    function input(spec, path) {
      const value = store.values[path] ?? "";
      if (spec.type === "list" || spec.type === "object") {
        const parts = spec.type === "list"
          ? Array.from({length: slots(spec, path)}, (_, i) => input(spec.item, `${path}.${i}`))
          : spec.fields.map((f) => labelled(f, `${path}.${f.name}`));
        const open = spec.type === "list" && spec.max == null;
        if (open) shown[path] = parts.length;
        const more = open ? button("more-items", t("ui.teach_more"), `data-path="${esc(path)}"`)
          : "";
        return `<div class="parts">${parts.join("")}${more}</div>`;
      }
      if (spec.type === "either") {
        const shape = chosenShape(spec, path);
        return `<div class="parts"><select name="${path}.as" data-redraw="1" ` +
          `aria-label="${esc(labelOf(spec))}">` + spec.choices.map((c) => `<option ` +
          `value="${esc(c.as)}"${c === shape ? " selected" : ""}>${esc(t("ui.teach_as_" + c.as))}` +
          "</option>").join("") + "</select>" + input(shape, path) + "</div>";
      }
      if (spec.type === "effect") {
        const op = chosenOp(spec, path);
        return `<div class="parts effect"><select name="${path}.op" data-redraw="1" ` +
          `aria-label="${esc(t("ui.field_op"))}"><option value="">—</option>` +
          spec.ops.map((o) => `<option value="${esc(o.op)}"${op === o ? " selected" : ""}>` +
          `${esc(opLabel(o.op))}</option>`).join("") + "</select>" +
          (op ? op.fields.map((f) => labelled(f, `${path}.${f.name}`)).join("") : "") +
          "</div>";
      }
      if ((spec.type === "choice" && spec.options.length <= CHIPS) || spec.type === "yes_no") {
        return chips(spec, path, value);
      }
      if (spec.type === "choice") {
        const values = spec.type === "choice" ? spec.options.map(String) : ["yes", "no"];
        const labels = spec.type === "choice" ? spec.options.map(optionLabel)
          : [t("ui.yes"), t("ui.no")];
        return `<select name="${path}"><option value="">—</option>` + values.map((v, i) =>
          `<option value="${esc(v)}"${v === value ? " selected" : ""}>${esc(labels[i])}` +
          "</option>").join("") + "</select>";
      }
      if (spec.type === "number") {
        const step = (by, sign) => `<button type="button" class="step" data-act="step" ` +
          `data-by="${by}" aria-label="${esc(t(by > 0 ? "ui.more" : "ui.less"))}">${sign}</button>`;
        return `<span class="stepper">${step(-1, "−")}<input type="number" inputmode="numeric" ` +
          `name="${path}" min="${spec.min ?? ""}" max="${spec.max ?? ""}" value="${esc(value)}" ` +
          `aria-label="${esc(labelOf(spec))}">${step(1, "+")}</span>`;
      }
      return `<input type="text" name="${path}" value="${esc(value)}" ` +
        `aria-label="${esc(labelOf(spec))}">`;
    }

    /** A short choice (or yes/no) as chips: one radio per option, colours in their colour. */
    function chips(spec, path, value) {
      const values = spec.type === "choice" ? spec.options.map(String) : ["yes", "no"];
      const labels = spec.type === "choice" ? spec.labels || spec.options.map(optionLabel)
        : [t("ui.yes"), t("ui.no")];  // ``labels``: as a game prints them (HIT!, ●●)
      return `<span class="chips">` + values.map((v, i) => `<label class="pick` +
        `${COLOURED.includes(v) ? " c-" + v : ""}">` +
        `<input type="radio" name="${path}" value="${esc(v)}" data-redraw="1"` +
        `${v === value ? " checked" : ""}><span>${esc(labels[i])}</span></label>`).join("") +
        "</span>";
    }

    /** A field with its label (a fieldset for lists, objects and effects). */
    function labelled(spec, path) {
      if (!shows(spec, store, parentOf(path))) return "";
      const mark = spec.required || spec.needed_when ? " *" : "";
      const grouped = ["list", "object", "effect", "either", "yes_no"].includes(spec.type) ||
        (spec.type === "choice" && spec.options.length <= CHIPS);
      const wrap = grouped ? "fieldset" : spec.type === "number" ? "div" : "label";
      const head = wrap === "fieldset" ? `<legend>${esc(labelOf(spec) + mark)}</legend>`
        : `<span>${esc(labelOf(spec) + mark)}</span> `;  // a stepper's input has its own label
      return `<${wrap}>${head}${input(spec, path)}</${wrap}>`;
    }

    /** The value of one field from the store (undefined: left out). */
    function value(spec, path) {
      if (spec.type === "list") {
        const items = Array.from({length: slots(spec, path)}, (_, i) =>
          value(spec.item, `${path}.${i}`)).filter((v) => v !== undefined);
        return items.length || spec.max === 0 ? items : undefined;  // max 0: "does nothing"
      }
      if (spec.type === "effect") {
        const op = chosenOp(spec, path);
        return op && {op: op.op, ...value({type: "object", fields: op.fields}, path)};
      }
      if (spec.type === "either") return value(chosenShape(spec, path), path);
      if (spec.type === "object") {
        const entries = spec.fields.filter((f) => shows(f, store, path))
          .map((f) => [f.name, value(f, `${path}.${f.name}`)])
          .filter(([, v]) => v !== undefined);
        return entries.length ? Object.fromEntries(entries) : undefined;
      }
      const raw = String(store.values[path] ?? "").trim();
      if (raw === "") return undefined;
      if (spec.type === "yes_no") return raw === "yes";
      if (spec.type === "number") return Number(raw);
      if (spec.type === "choice") return spec.options.find((o) => String(o) === raw);
      return raw;
    }

    /** The labels of the fields that are required and still empty (``required``: whether
     * this field itself must be given); an optional group left empty asks for nothing. */
    function missing(spec, path, required = spec.required) {
      if (spec.type === "list") {
        const items = Array.from({length: slots(spec, path)}, (_, i) => `${path}.${i}`);
        const given = items.filter((p) => value(spec.item, p) !== undefined);
        const inner = given.flatMap((p) => missing(spec.item, p, true).map((what) =>
          `${labelOf(spec)} ${Number(p.slice(path.length + 1)) + 1}: ${what}`));
        return inner.length || !required || given.length >= Math.max(1, spec.min) ? inner
          : [labelOf(spec)];
      }
      if (spec.type === "either") {  // the shape is named as its field ("Effects 1: Amount")
        return missing({...chosenShape(spec, path), name: spec.name}, path, required);
      }
      if (spec.type === "effect") {
        const op = chosenOp(spec, path);
        if (!op) return required ? [t("ui.field_op")] : [];
        return missing({type: "object", fields: op.fields}, path, true);
      }
      if (spec.type === "object") {
        if (!required && value(spec, path) === undefined) return [];
        return spec.fields.filter((f) => shows(f, store, path)).flatMap((f) =>
          missing(f, `${path}.${f.name}`, f.required || Boolean(f.needed_when)));
      }
      return required && value(spec, path) === undefined ? [labelOf(spec)] : [];
    }

    /** Keep what was typed in one of the fields. */
    function keep(target) {
      store.values[target.name] = target.value;
      if (target.dataset.redraw) redraw();
    }

    /** One more item in a list without a maximum (e.g. another effect). */
    function more(path) {
      store.sizes[path] = (shown[path] ?? 1) + 1;
      redraw();
    }

    /** A stepper's − or +: the number moves by one within its bounds. */
    function step(el) {
      const field = el.parentElement.querySelector("input");
      const low = field.min === "" ? -Infinity : Number(field.min);
      const high = field.max === "" ? Infinity : Number(field.max);
      const now = field.value === "" ? 0 : Number(field.value);  // an empty stepper is at 0
      const next = Math.min(high, Math.max(low, now + Number(el.dataset.by)));
      field.value = String(next);
      keep(field);
    }

    forms[form] = {keep, more, step};
    return {labelled, value, missing};
  }

  const owner = (el) => {
    const form = el.closest && el.closest("form[data-form]");
    return form && forms[form.dataset.form];
  };

  /** Keep what is typed in a form whose fields ``make`` drew (input and change events); say
   * whether the target was one of them. */
  function keep(target) {
    const fields = owner(target);
    if (!fields || !target.name) return false;
    fields.keep(target);
    return true;
  }

  /** The "+" button of a list without a maximum. */
  function more(el) {
    const fields = owner(el);
    if (fields) fields.more(el.dataset.path);
  }

  /** A stepper's − or + button. */
  function step(el) {
    const fields = owner(el);
    if (fields) fields.step(el);
  }

  return {make, keep, more, step, opLabel};
})();
