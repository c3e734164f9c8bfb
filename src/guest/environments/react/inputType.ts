/**
 * `input.type` is "text" when the element has no type attribute, as in a browser; linkedom gives
 * null. React decides from it whether an `input` event is a text input's change (its onChange of
 * `<input value={…}>`), so without it no onChange of a plain text input would ever run. Applied
 * only where the DOM lacks it; it belongs with the browser environment's element fixes.
 */
export function defaultInputType(document: Document): void {
  const probe = document.createElement('input');
  if (typeof probe.type === 'string') return;
  for (let proto = Object.getPrototypeOf(probe) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
    const own = Object.getOwnPropertyDescriptor(proto, 'type');
    if (!own || !own.get) continue;
    const get = own.get;
    Object.defineProperty(proto, 'type', {
      get(this: Element) {
        const type: unknown = get.call(this);
        return typeof type === 'string' && type !== '' ? type.toLowerCase() : 'text';
      },
      set: own.set,
      configurable: true,
      enumerable: own.enumerable ?? false,
    });
    return;
  }
}
