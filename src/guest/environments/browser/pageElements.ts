/**
 * The elements that stand for the page around the snippet: those the environment created because
 * the snippet queried them, and the relatives their usage implied (derived), as opposed to the
 * elements the snippet built itself, which keep plain DOM semantics. Each has the expression that
 * names its learnt values (`document.querySelector("#name")`), when it has one.
 */

interface PageEntry {
  expression: string | undefined;
  /** Created as a relative of another page element: it grows no relatives of its own. */
  readonly derived: boolean;
}

const page = new WeakMap<object, PageEntry>();

/** Marks `element` as the page's, named by `expression` (kept when it already has one). */
export function markPage(element: Element, expression?: string, derived = false): void {
  const entry = page.get(element);
  if (!entry) page.set(element, { expression, derived });
  else if (entry.expression === undefined) entry.expression = expression;
}

/** Whether `value` is an element of the page (not one the snippet created). */
export function isPage(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && page.has(value);
}

/** Whether the page element `value` was queried (not derived from another): its missing relatives may be created. */
export function growsRelatives(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && page.get(value)?.derived === false;
}

/** The expression naming a page element's learnt values, if it has one. */
export function expressionOf(element: Element): string | undefined {
  return page.get(element)?.expression;
}
