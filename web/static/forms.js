// Host controls generated from a small per-game description of its events: a form per event
// the game accepts now (fields: choice (a list, or with ``chips`` a row of one-tap chips),
// multi (chips to tick), number, text with an optional placeholder, check,
// yesno, pay; an event without fields is one button; ``when(view)`` leaves out an event the
// rules would refuse now), dice faces to tap for the expected
// profile, the options of a choice and the prompts' answers as buttons, and first the game's
// one-tap actions (``view.taps``, events its rules take now).
"use strict";

const Controls = (() => {
  const label = (spec) => t("ui.field_" + spec.name);
  const show = (spec, v) => (spec.label ? spec.label(v) : name(v));

  /** One field of an event form. */
  function field(spec, view) {
    const head = `<span>${esc(label(spec))}${spec.optional ? " <small>(" +
      esc(t("ui.optional")) + ")</small>" : ""}</span> `;
    const values = spec.from ? spec.from(view) : [];
    const value = spec.value === undefined ? undefined
      : (typeof spec.value === "function" ? spec.value(view) : spec.value);
    const pick = (type, v, checked) => `<label class="pick"><input type="${type}" ` +
      `name="${spec.name}" value="${esc(v)}"${checked ? " checked" : ""}><span>` +
      `${esc(show(spec, v))}</span></label>`;
    if (spec.kind === "choice" && spec.chips) {  // a few short options: one tap each
      return `<fieldset><legend>${head}</legend><span class="chips">` +
        values.map((v) => pick("radio", v, v === value)).join("") + "</span></fieldset>";
    }
    if (spec.kind === "choice") {
      return `<label>${head}<select name="${spec.name}">` +
        (spec.optional ? '<option value="">—</option>' : "") +
        values.map((v) => `<option value="${esc(v)}"${v === value ? " selected" : ""}>` +
          `${esc(show(spec, v))}</option>`).join("") + "</select></label>";
    }
    if (spec.kind === "multi") {
      return `<fieldset><legend>${head}</legend><span class="chips">` +
        values.map((v) => pick("checkbox", v, false)).join("") + "</span></fieldset>";
    }
    if (spec.kind === "check") {
      return `<label><input type="checkbox" name="${spec.name}"> ${esc(label(spec))}</label>`;
    }
    if (spec.kind === "yesno") {  // true, false or left out: a correction may set either
      return `<label>${head}<select name="${spec.name}"><option value="">—</option>` +
        ["true", "false"].map((v) => `<option value="${v}">${esc(name(v))}</option>`).join("") +
        "</select></label>";
    }
    if (spec.kind === "pay") {
      return `<fieldset><legend>${head}</legend>` + values.map((who) => `<p>${esc(name(who))} ` +
        spec.symbols.map((s) => `<label>${esc(name(s))} <input type="number" min="0" max="9" ` +
          `name="${spec.name}.${who}.${s}" value="0"></label>`).join(" ") + "</p>").join("") +
        "</fieldset>";
    }
    const type = spec.kind === "number" ? `type="number" min="${spec.min ?? 0}" ` +
      `max="${spec.max ?? 99}"` : 'type="text"';
    const list = values.length ? ` list="list-${spec.name}"` : "";
    const placeholder = typeof spec.placeholder === "function" ? spec.placeholder()
      : spec.placeholder;  // a function: in the page's language at each drawing
    const hint = placeholder ? ` placeholder="${esc(placeholder)}"` : "";
    return `<label>${head}<input ${type} name="${spec.name}"${list}${hint}` +
      `${value === undefined ? "" : ` value="${esc(value)}"`}${spec.optional ? "" : " required"}>` +
      (list ? `<datalist id="list-${spec.name}">${values.map((v) => `<option value="${esc(v)}">` +
        `${esc(show(spec, v))}</option>`).join("")}</datalist>` : "") + "</label>";
  }

  /** "a, b, c" typed in a text field as a list (numbers with ``numbers``). */
  function list(text, numbers = false) {
    const items = text.split(",").map((v) => v.trim()).filter(Boolean);
    return numbers ? items.map(Number) : items;
  }

  /** The value of one field read from its form (undefined: left out). */
  function read(spec, form) {
    const data = new FormData(form);
    if (spec.kind === "multi") {
      const all = data.getAll(spec.name);
      return all.length || !spec.optional ? all.map((v) => (spec.numbers ? Number(v) : v))
        : undefined;
    }
    if (spec.kind === "check") return data.has(spec.name) || undefined;
    if (spec.kind === "yesno") return {true: true, false: false}[data.get(spec.name)];
    if (spec.kind === "pay") {
      const pay = {};
      for (const [key, value] of data.entries()) {
        const [head, who, symbol] = key.split(".");
        if (head !== spec.name || !Number(value)) continue;
        pay[who] = {...(pay[who] || {}), [symbol]: Number(value)};
      }
      return pay;
    }
    const raw = (data.get(spec.name) ?? "").trim();
    if (raw === "") return undefined;
    return spec.kind === "number" || spec.numbers ? Number(raw) : raw;
  }

  /** Whether the host unfolded (true) or folded (false) an event's form; the page redraws the
   * host controls at every change of the table, and a form stays as the host left it. */
  const unfolded = {};

  /** A form per event of ``events`` the description knows, folded (the first one open unless
   * ``folded``: corrections wait to be asked for); an event without fields (end the turn) is a
   * button of its own, one tap. */
  function eventForms(description, view, events, folded = false) {
    const offered = (type) => description[type] && (!description[type].when ||
      description[type].when(view));  // ``when``: the rules would take it now
    events = events.filter(offered);
    const bare = events.filter((type) => !description[type].fields);
    const row = bare.length ? `<div class="row">` + bare.map((type) => button("event",
      t("ui.event_" + type), `data-event="${type}"`)).join("") + "</div>" : "";
    return row + events.filter((type) => description[type].fields)
      .map((type, i) => {
      const fields = description[type].fields || [];
      const open = unfolded[type] ?? (!folded && i === 0);
      return `<details data-details="event-${type}"${open ? " open" : ""}><summary>` +
        `${esc(t("ui.event_" + type))}</summary>` +
        `<form data-form="event" data-event="${type}" class="event">` +
        fields.map((spec) => field(spec, view)).join("") +
        `<button>${esc(t("ui.send"))}</button></form></details>`;
    }).join("");
  }

  /** What a form still lacks before its event can be taken: a multi field with fewer ticks
   * than its ``min`` (e.g. a Block takes two dice), said in words; "" when nothing. */
  function tooFew(spec, form) {
    const short = (spec.fields || []).find((f) => f.kind === "multi" && f.min &&
      new FormData(form).getAll(f.name).length < f.min);
    return short ? t("ui.choose_at_least", {n: short.min, field: label(short)}) : "";
  }

  /** The event a generated form describes (its ``build`` may reshape the fields). */
  function eventFrom(description, form, view) {
    const type = form.dataset.event;
    const spec = description[type];
    const fields = {};
    for (const f of spec.fields || []) {
      const value = read(f, form);
      if (value !== undefined) fields[f.name] = value;
    }
    return {type, ...(spec.build ? spec.build(fields, view) : fields)};
  }

  /** Dice faces to tap for ``count`` dice of a profile; ``send-faces`` hands them to the game. */
  function diceTapper(faces, count, symbol) {
    let html = `<h3>${esc(t("ui.tap_faces"))}</h3>`;
    for (let i = 0; i < count; i++) {
      html += `<div class="dice">${esc(t("ui.die_n", {n: i + 1}))} ` + faces.map((f) =>
        `<button type="button" class="face c-${f}" data-act="face" data-die="${i}" ` +
        `data-face="${f}" aria-label="${esc(name(f))}"` +
        `${app.pick.dice[i] === f ? ' aria-pressed="true"' : ""}>${symbol(f)}</button>`)
        .join("") + "</div>";
    }
    const ready = app.pick.dice.slice(0, count).filter(Boolean).length === count;
    return html + button("send-faces", t("ui.send"), ready ? "" : "disabled");
  }

  /** The options of a choice, each a button sending ``event`` with the option in ``field``. */
  function optionButtons(options, label) {
    return `<div class="row">` + options.map((o, i) => button("option", label(o),
      `data-index="${i}"`)).join("") + "</div>";
  }

  /** One of the game's one-tap actions (``view.taps[index]``, an event its rules take now):
   * a short label, and the whole sentence for a screen reader. */
  const tapButton = (index, label, said) => button("tap", label,
    `data-index="${index}" aria-label="${esc(said)}"`);

  /** Everything generated for a game: host controls, and the forms and actions they use;
   * ``taps(view)`` draws the game's one-tap actions first (with :func:`tapButton`). */
  function make({description, faces, symbol, diceEvent, optionEvent, optionLabel, extra, taps}) {
    const host = (view, expects) => {
      let html = taps && view.taps && view.taps.length ? taps(view) : "";
      if (expects.kind === "dice" && faces[expects.profile]) {
        html += diceTapper(faces[expects.profile], expects.count || 1, symbol);
      }
      if (expects.options && expects.options.length && optionEvent) {
        html += `<h3>${esc(both(app.pic.texts.expects))}</h3>` +
          optionButtons(expects.options, (o) => optionLabel(view, o));
      }
      html += eventForms(description, view, expects.events.filter((e) => !(
        expects.kind === "dice" && diceEvent.handles.includes(e))));
      return html + (extra ? extra(view, expects) : "") + eventForms(description, view,
        ["adjust", "teach"].filter((e) => !expects.events.includes(e)), true);
    };
    const forms = {event: (_data, form) => {
      const short = tooFew(description[form.dataset.event], form);
      if (short) { toast(short); return null; }  // said before anything is sent
      return send(eventFrom(description, form, app.pic.view));
    }};
    const actions = {
      face: (el) => { app.pick.dice[el.dataset.die] = el.dataset.face; renderHost(); },
      "send-faces": () => send(diceEvent.build(app.pic.view,
        app.pick.dice.slice(0, app.pic.view.expects.count || 1))),
      option: (el) => send(optionEvent(app.pic.view, app.pic.view.expects.options[
        el.dataset.index])),
      tap: (el) => send(app.pic.view.taps[el.dataset.index]),
      event: (el) => send({type: el.dataset.event}),
    };
    return {host, forms, actions};
  }

  /** Remember that the host folded or unfolded an event's form. */
  const fold = (type, open) => { unfolded[type] = open; };

  return {make, field, read, list, eventForms, eventFrom, fold, tapButton};
})();
