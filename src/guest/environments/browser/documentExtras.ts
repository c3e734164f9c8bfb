/**
 * What linkedom's document and elements lack that snippets read: the document's window, location,
 * cookies, ready state and focus; elements' layout boxes (all zero: nothing is laid out) and
 * scrolling.
 */

/** The document's load state, advanced by the driver. */
export const readiness = { state: 'loading' as DocumentReadyState };

/** Defines the document's own properties that tie it to this window. */
export function extendDocument(document: Document, window: object, location: { href: string }): void {
  const cookies = new Map<string, string>();
  const define = (key: string, d: PropertyDescriptor) => Object.defineProperty(document, key, { configurable: true, enumerable: true, ...d });
  define('defaultView', { get: () => window });
  define('location', { get: () => location, set: (v: unknown) => void (location.href = String(v)) });
  define('URL', { get: () => location.href });
  define('documentURI', { get: () => location.href });
  define('baseURI', { get: () => location.href });
  define('referrer', { value: '' });
  define('domain', { value: 'localhost', writable: true });
  define('readyState', { get: () => readiness.state });
  define('visibilityState', { value: 'visible' });
  define('hidden', { value: false });
  define('hasFocus', { value: () => true, writable: true });
  define('activeElement', { get: () => document.body });
  define('execCommand', { value: () => false, writable: true });
  define('cookie', {
    get: () => [...cookies].map(([k, v]) => (k === '' ? v : `${k}=${v}`)).join('; '),
    set: (v: unknown) => {
      const [pair = ''] = String(v).split(';');
      const at = pair.indexOf('=');
      const [name, value] = at < 0 ? ['', pair.trim()] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      const attrs = String(v).toLowerCase();
      const expired = /max-age=\s*(-\d+|0)\b/.test(attrs) || (/expires=([^;]+)/.exec(attrs) !== null && Date.parse(/expires=([^;]+)/.exec(attrs)?.[1] ?? '') < Date.now());
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    },
  });
}

/** Layout members of HTMLElement.prototype: zero boxes, and a scroll offset that keeps what is set. */
export function extendElements(HTMLElement: { prototype: object }): void {
  const proto = HTMLElement.prototype;
  const scrolls = new WeakMap<object, { top: number; left: number }>();
  const scrollOf = (el: object) => {
    let s = scrolls.get(el);
    if (!s) scrolls.set(el, (s = { top: 0, left: 0 }));
    return s;
  };
  const zero = { get: () => 0, configurable: true };
  for (const key of ['offsetWidth', 'offsetHeight', 'offsetTop', 'offsetLeft', 'clientWidth', 'clientHeight', 'clientTop', 'clientLeft', 'scrollWidth', 'scrollHeight']) {
    if (!(key in proto)) Object.defineProperty(proto, key, zero);
  }
  const members: Record<string, PropertyDescriptor> = {
    offsetParent: { get(this: Element) { return this.parentElement; } },
    scrollTop: { get(this: object) { return scrollOf(this).top; }, set(this: object, v: unknown) { scrollOf(this).top = Number(v) || 0; } },
    scrollLeft: { get(this: object) { return scrollOf(this).left; }, set(this: object, v: unknown) { scrollOf(this).left = Number(v) || 0; } },
    scrollIntoView: { value: () => undefined, writable: true },
    scrollTo: { value(this: object, a?: unknown, b?: unknown) { const o = typeof a === 'object' && a !== null ? (a as { top?: number; left?: number }) : { left: Number(a) || 0, top: Number(b) || 0 }; Object.assign(scrollOf(this), { top: Number(o.top) || 0, left: Number(o.left) || 0 }); }, writable: true },
    getClientRects: { value: () => [], writable: true },
    animate: { value: () => ({ finished: Promise.resolve(), cancel: () => undefined, play: () => undefined, pause: () => undefined, onfinish: null }), writable: true },
  };
  for (const [key, d] of Object.entries(members)) if (!(key in proto)) Object.defineProperty(proto, key, { configurable: true, ...d });
}

/**
 * DocumentFragment's textContent as the DOM defines it (linkedom leaves Node's: null, and a setter
 * that does nothing): the text of its descendants, and setting it replaces its children with one
 * text node. jQuery empties its parsing fragment this way, so `$('<p>a</p><b>b</b>')` has two elements.
 */
export function extendFragments(DocumentFragment: { prototype: object }): void {
  const proto = DocumentFragment.prototype as { childNodes: ArrayLike<{ textContent: string | null; nodeType: number }> } & Node;
  Object.defineProperty(proto, 'textContent', {
    configurable: true,
    enumerable: true,
    get(this: typeof proto) {
      let text = '';
      for (const child of Array.from(this.childNodes)) if (child.nodeType !== 8 && child.nodeType !== 7) text += child.textContent ?? '';
      return text;
    },
    set(this: ParentNode & Node, value: unknown) {
      this.replaceChildren();
      if (value != null && value !== '') this.appendChild((this.ownerDocument as Document).createTextNode(String(value)));
    },
  });
}
