// The controller's error messages in the page's language, their detail kept and the seats by name: the terminal's
// rule (shooter/i18n, Messages.detail) on the same templates (GET /i18n/details.json). A message is recognised by
// its English template (the most specific first) and written again in the page's language with its values.
"use strict";
window.shooterDetails = (() => {
  const FIELD = /\{([a-z_]+)\}/g;
  let doc = null;
  let patterns = [];
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  function pattern(template) {
    let source = "";
    let pos = 0;
    const seen = [];
    for (const m of template.matchAll(FIELD)) {
      source += escape(template.slice(pos, m.index));
      const name = m[1];
      if (seen.includes(name)) source += `\\k<${name}>`;   // a field twice: the same text twice
      else source += doc.seat_fields.includes(name) ? `[Ss]eat (?<${name}>[0-9]+)` : `(?<${name}>[\\s\\S]+?)`;
      seen.push(name);
      pos = m.index + m[0].length;
    }
    return new RegExp(`^(?:${source}${escape(template.slice(pos))})$`);
  }

  const ready = fetch("/i18n/details.json").then((r) => r.json()).then((d) => {
    doc = d;
    const literal = (t) => t.replace(FIELD, "").length;
    patterns = Object.entries(d.catalogues[d.source]).filter(([key]) => key.startsWith("detail."))
      .sort((a, b) => literal(b[1]) - literal(a[1])).map(([key, template]) => [key, pattern(template)]);
  }).catch(() => {});   // without them a refusal is said as before

  // `message` (an error reply's or a refused press's) in `lang`, or null where no template fits (or none is loaded)
  function say(lang, message, seatName) {
    const own = doc && doc.catalogues[lang];
    if (!own || typeof message !== "string") return null;
    for (const [key, re] of patterns) {
      const m = re.exec(message);
      if (!m) continue;
      const values = {...m.groups};
      for (const [name, value] of Object.entries(values)) {
        const prefix = doc.word_fields[name];
        if (doc.seat_fields.includes(name)) values[name] = seatName(Number(value));
        else if (prefix && own[prefix + value] !== undefined) values[name] = own[prefix + value];
      }
      const text = own[key].replace(FIELD, (all, name) => (name in values ? String(values[name]) : all));
      return /^[A-Z]/.test(message) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    }
    return null;
  }
  return {say, ready};
})();
