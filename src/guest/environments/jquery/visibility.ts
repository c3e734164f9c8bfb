/**
 * jQuery's `:visible` asks the layout (offsetWidth, getClientRects), which a DOM without CSS
 * layout cannot answer: every element would read as hidden. Here an element is visible when it is
 * in the document and neither it nor an ancestor is `display: none` (its style, as the browser
 * environment computes it) or carries the `hidden` attribute. `:hidden` is its negation, as in jQuery.
 */

/** Whether `element` would be rendered, judged from styles and attributes alone. */
export function isRendered(element: Element, window: Window): boolean {
  if (!element.isConnected) return false;
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (node.hasAttribute('hidden')) return false;
    const inline = (node as HTMLElement).style?.getPropertyValue?.('display');
    const computed = typeof window.getComputedStyle === 'function' ? window.getComputedStyle(node).getPropertyValue('display') : '';
    if (inline === 'none' || computed === 'none') return false;
  }
  return true;
}

/** Replaces jQuery's layout-based `:visible` (and so `:hidden`, `.is(':visible')`) on `$`. */
export function defineVisibility($: JQueryStaticLike, window: Window): void {
  $.expr.pseudos.visible = (element: Element) => isRendered(element, window);
}
