/**
 * A root's container stays the element it was. React listens for every event at the container,
 * `submit` included, and the browser environment takes a submit listener on an element whose tag
 * it guessed (`document.getElementById('root')`) as a sign that the element is a form; React's
 * listener is no such sign, so what that guess changed (prototype, tag, own value) is put back.
 */

export function keepingElementKind<T>(container: unknown, createRoot: () => T): T {
  if (container === null || typeof container !== 'object') return createRoot();
  const element = container as { localName?: unknown };
  const proto = Object.getPrototypeOf(element) as object | null;
  const localName = Object.getOwnPropertyDescriptor(element, 'localName');
  const value = Object.getOwnPropertyDescriptor(element, 'value');
  const before = element.localName;
  try {
    return createRoot();
  } finally {
    if (element.localName !== before) {
      Object.setPrototypeOf(element, proto);
      if (localName) Object.defineProperty(element, 'localName', localName);
      else delete element.localName;
      if (value) Object.defineProperty(element, 'value', value);
    }
  }
}
