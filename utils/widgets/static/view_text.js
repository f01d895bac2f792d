// The words a view writes, in the notebook's language: the Python side sends the table `view_text`
// ({English: translation}, utils/widgets/view_text.py); a missing entry shows the English.
// `{name}` fields are filled from `fields`, as utils.i18n.text.tr does with str.format.
function lmSay(model, english, fields = {}) {
  const table = model.get("view_text") || {};
  const text = Object.prototype.hasOwnProperty.call(table, english) ? table[english] : english;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// The same for a view that writes HTML: the translation is escaped, then its fields take the given HTML.
function lmSayHtml(model, english, htmlFields = {}) {
  const escaped = lmSay(model, english).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return escaped.replace(/\{(\w+)\}/g, (whole, name) => (name in htmlFields ? String(htmlFields[name]) : whole));
}
