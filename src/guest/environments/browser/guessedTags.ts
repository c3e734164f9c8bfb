/**
 * An element the snippet queried by id or class only (`#users`, `.chart`) is created as a `div`, its
 * tag a guess; its usage then says what it is. A member only one kind of element has, read or set
 * on it (`insertRow`, `getContext`, `checked`, `elements`), or a submit listener added to it, makes
 * it that element: the element takes the tag's class and name, then answers as one. Elements of a
 * known tag, and those the snippet created, are left as they are.
 */

/** What each member says a guessed element is: its tag, and the type attribute of an input. */
const KIND_OF_MEMBER: Readonly<Record<string, readonly [string, string?]>> = {
  ...Object.fromEntries(['insertRow', 'deleteRow', 'rows', 'tBodies', 'tHead', 'tFoot', 'caption', 'createTHead', 'createTBody', 'createTFoot', 'createCaption', 'deleteTHead', 'deleteTFoot', 'deleteCaption'].map((k) => [k, ['table']])),
  ...Object.fromEntries(['insertCell', 'deleteCell', 'cells', 'rowIndex', 'sectionRowIndex'].map((k) => [k, ['tr']])),
  ...Object.fromEntries(['getContext', 'toDataURL'].map((k) => [k, ['canvas']])),
  ...Object.fromEntries(['elements', 'submit', 'requestSubmit', 'reset'].map((k) => [k, ['form']])),
  checked: ['input', 'checkbox'],
  files: ['input', 'file'],
};

export interface GuessedTags {
  /** Watches a created element whose tag was guessed: the members above make it what they say. */
  watch(element: Element): void;
  /** Makes a watched element a `tag` element (an `input` of `type`); elements not watched are left alone. */
  become(element: object, tag: string, type?: string): void;
}

/**
 * The guessed-tag watcher of `document`. `onBecome` runs after an element took its tag (the
 * learnt values of its new kind are given there).
 */
export function guessedTags(document: Document, onBecome: (element: Element) => void): GuessedTags {
  const watched = new WeakSet<object>();
  const become = (element: object, tag: string, type?: string) => {
    if (!watched.has(element)) return;
    watched.delete(element);
    const target = element as Element;
    // the tag's own prototype replaces the watching one (and the guessed tag's, under it)
    Object.setPrototypeOf(target, Object.getPrototypeOf(document.createElement(tag)) as object);
    (target as unknown as { localName: string }).localName = tag; // linkedom keeps the name on the instance
    delete (target as unknown as { value?: unknown }).value; // the learnt value of a guessed element: its new kind has its own
    if (type !== undefined) target.setAttribute('type', type);
    onBecome(target);
  };
  // The members watch from a prototype of the element's own, put between it and its class: they are
  // not the element's own properties, which code that inspects an object (the runtime recording a
  // call's arguments) reads without the snippet having asked for them.
  const watch = (element: Element) => {
    watched.add(element);
    const watching = Object.create(Object.getPrototypeOf(element) as object) as object;
    for (const [key, [tag, type]] of Object.entries(KIND_OF_MEMBER)) {
      Object.defineProperty(watching, key, {
        get(this: Element) {
          become(element, tag, type);
          return Reflect.get(element, key, this) as unknown;
        },
        set(this: Element, v: unknown) {
          become(element, tag, type);
          Reflect.set(element, key, v, this);
        },
        configurable: true,
        enumerable: false,
      });
    }
    Object.setPrototypeOf(element, watching);
  };
  return { watch, become };
}
