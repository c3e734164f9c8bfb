const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML element content and for a quoted attribute value. Every string of a
 * report that came from the snippet, its output or its id goes through here: the snippet is hostile
 * (`</script>`, markup, quotes). Lone surrogates are replaced, so the page is valid UTF-8.
 */
export function escapeHtml(text: string): string {
  return text.toWellFormed().replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A tagged template whose interpolations are escaped, except those already marked as HTML with `raw`. */
export function html(strings: TemplateStringsArray, ...values: readonly (string | number | Html | readonly Html[])[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += (Array.isArray(v) ? v.map((h: Html) => h.html).join('') : typeof v === 'object' ? (v as Html).html : escapeHtml(String(v))) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Markup that is already safe: built by `html`, or one of the report's own constant fragments. */
export class Html {
  readonly html: string;
  constructor(markup: string) {
    this.html = markup;
  }
}

/** Marks the report's own constant markup (never text from the snippet) as HTML. */
export function raw(markup: string): Html {
  return new Html(markup);
}
