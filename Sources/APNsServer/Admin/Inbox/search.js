// The search box and the filter widgets, in step: the box holds the query as the admin API reads
// it (`q`: words AND-ed, "quoted phrases", -exclusions, field:value), and each widget stands for
// one field of it. Choosing Status = rejected writes status:rejected; typing it sets the widget.

/// The fields the widgets stand for, by the widget's name.
const fields = ["status", "outcome", "interface", "environment", "token", "topic"];

/// The box's terms, split as the server splits them: at spaces outside double quotes.
function terms(text) {
  const found = [];
  let term = "";
  let quoted = false;
  for (const character of text) {
    if (character === '"') quoted = !quoted;
    if (!quoted && /\s/.test(character)) {
      if (term) found.push(term);
      term = "";
    } else {
      term += character;
    }
  }
  if (term) found.push(term);
  return found;
}

/// The widget's field a term sets (`status:rejected`), or null (a word, an exclusion, another field).
function fieldOf(term) {
  const colon = term.indexOf(":");
  if (colon < 1) return null;
  const name = term.slice(0, colon).toLowerCase();
  if (!fields.includes(name)) return null;
  return { name, value: term.slice(colon + 1).replace(/^"(.*)"$/, "$1") };
}

export const Search = {
  fields,

  /// The box's text with `name`'s term replaced by `name:value` (or taken out when `value` is empty).
  set(text, name, value) {
    const kept = terms(text).filter((term) => fieldOf(term)?.name !== name);
    if (value) kept.push(`${name}:${/\s/.test(value) ? `"${value}"` : value}`);
    return kept.join(" ");
  },

  /// What each widget shows for the box's text: its field's value, or "" (any).
  widgets(text) {
    const values = Object.fromEntries(fields.map((name) => [name, ""]));
    for (const term of terms(text)) {
      const field = fieldOf(term);
      if (field) values[field.name] = field.value;
    }
    return values;
  },

  /// Sets the widgets from the box (a widget without the value among its options shows "any").
  showIn(form) {
    const values = this.widgets(form.elements.q.value);
    for (const name of fields) {
      const widget = form.elements[name];
      if (!widget) continue;
      const known = widget.tagName !== "SELECT" || Array.from(widget.options).some((option) => option.value === values[name]);
      widget.value = known ? values[name] : "";
    }
    // On a phone the widgets are folded: their button says how many are set.
    const active = fields.filter((name) => values[name]).length;
    const toggle = form.querySelector("#filters-toggle");
    if (toggle) toggle.textContent = active ? `Filters (${active})` : "Filters";
  },

  /// A widget changed: its field in the box follows.
  follow(form, widget) {
    form.elements.q.value = this.set(form.elements.q.value, widget.name, widget.value.trim());
    this.showIn(form);
  },
};
