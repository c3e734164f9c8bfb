/**
 * Two things of linkedom React depends on and a browser does otherwise. They belong with the
 * browser environment's element fixes; each is applied only where the DOM still lacks it.
 * - `input.type` is "text" when the element has no type attribute (linkedom gives null). React
 *   decides from it whether an `input` event is a text input's change: without it no onChange of
 *   a plain `<input value={…}>` would ever run.
 * - `option.selected = …` and `select.value` look for `option[selected]` with querySelector; the
 *   browser environment makes such a query create the option it looks for, so React's selecting
 *   an option would add an empty one. They run with query-creation off.
 */

/** Runs library code with the browser environment's query-creation off (its BrowserInternals.withoutCreating). */
export type Quietly = <T>(fn: () => T) => T;

/** The descriptor of `name` on the prototype chain of `element`, with the prototype that holds it. */
function ownerOf(element: object, name: string): { proto: object; descriptor: PropertyDescriptor } | undefined {
  for (let proto = Object.getPrototypeOf(element) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor) return { proto, descriptor };
  }
  return undefined;
}

function defaultInputType(document: Document): void {
  const input = document.createElement('input');
  if (typeof input.type === 'string') return;
  const found = ownerOf(input, 'type');
  const get = found?.descriptor.get;
  if (!found || !get) return;
  Object.defineProperty(found.proto, 'type', {
    ...found.descriptor,
    get(this: Element) {
      const type: unknown = get.call(this);
      return typeof type === 'string' && type !== '' ? type.toLowerCase() : 'text';
    },
  });
}

/** Whether selecting an option makes the DOM create another (a query-creating querySelector inside linkedom's setter). */
function selectingCreates(document: Document): boolean {
  const select = document.createElement('select');
  const only = document.createElement('option');
  select.appendChild(only);
  (only as HTMLOptionElement).selected = true;
  return select.children.length > 1;
}

function quietSelection(document: Document, quietly: Quietly): void {
  if (!selectingCreates(document)) return;
  const option = ownerOf(document.createElement('option'), 'selected');
  const set = option?.descriptor.set;
  if (option && set) {
    Object.defineProperty(option.proto, 'selected', {
      ...option.descriptor,
      set(this: Element, value: unknown) {
        quietly(() => set.call(this, value));
      },
    });
  }
  const select = ownerOf(document.createElement('select'), 'value');
  const get = select?.descriptor.get;
  if (select && get) {
    Object.defineProperty(select.proto, 'value', {
      ...select.descriptor,
      get(this: Element) {
        return quietly(() => get.call(this));
      },
    });
  }
}

export function fixDom(document: Document, quietly: Quietly): void {
  defaultInputType(document);
  quietSelection(document, quietly);
}
