/**
 * Every element the snippet queries exists: querySelector, querySelectorAll, getElementById,
 * getElementsByClassName, getElementsByTagName and getElementsByName (on the document, elements and
 * fragments) are wrapped so that a query that finds nothing creates what it asks for (see
 * materialize.ts) and answers again. The created element is handed to `onCreated` with the
 * expression that queried it (`document.querySelector("#name")`), which names its learnt values.
 */
import { linkedom } from './dom.ts';
import { elementFor, materialize, type QueryRoot, type RawQueries } from './materialize.ts';
import { markPage } from './pageElements.ts';

type Query = (this: QueryRoot, arg: string) => unknown;

/** What a created element is, for onCreated: its expression, and whether its tag was only guessed. */
export interface CreatedElement {
  readonly element: Element;
  readonly expression: string;
  readonly guessedTag: boolean;
}

export interface QueryWrapping {
  /** The queries as linkedom answers them, without creating anything. */
  readonly raw: RawQueries;
}

let creating = true;

/** Whether queries (and reads of page elements' relatives) create what they look for now. */
export function creationOn(): boolean {
  return creating;
}

/** Runs `fn` with creation off: the environment's own queries, a library's feature tests, see the DOM as it is. */
export function withoutCreating<T>(fn: () => T): T {
  const was = creating;
  creating = false;
  try {
    return fn();
  } finally {
    creating = was;
  }
}

const METHODS = ['querySelector', 'querySelectorAll', 'getElementById', 'getElementsByClassName', 'getElementsByTagName', 'getElementsByName'] as const;
type Method = (typeof METHODS)[number];

const isEmpty = (answer: unknown) => answer === null || answer === undefined || (typeof answer === 'object' && (answer as ArrayLike<unknown>).length === 0);

/** Wraps the query methods of the prototypes linkedom gives `document`, its elements and fragments. */
export function wrapQueries(document: Document, onCreated: (created: CreatedElement) => void): QueryWrapping {
  const documentProto = Object.getPrototypeOf(document) as Document;
  if (!('getElementsByName' in documentProto)) {
    Object.defineProperty(documentProto, 'getElementsByName', {
      value: function getElementsByName(this: Document, name: unknown) {
        return withoutCreating(() => this.querySelectorAll(`[name="${String(name).replace(/["\\]/g, '\\$&')}"]`));
      },
      writable: true,
      configurable: true,
    });
  }
  const originals = new Map<object, Map<Method, Query>>();
  const original = (root: QueryRoot, method: Method): Query | undefined => {
    for (let p: object | null = Object.getPrototypeOf(root); p; p = Object.getPrototypeOf(p)) {
      const found = originals.get(p)?.get(method);
      if (found) return found;
    }
    return undefined;
  };
  const raw: RawQueries = {
    querySelector: (root, selector) => (original(root, 'querySelector') as Query).call(root, selector) as Element | null,
  };
  const create = (root: QueryRoot, method: Method, arg: string): Element => {
    const doc = root.nodeType === 9 ? (root as Document) : (root.ownerDocument as Document);
    const container = root.nodeType === 9 ? doc.body : root;
    const spec = (fields: { tag?: string; id?: string; classes?: string[]; attributes?: [string, string][] }) => ({ tag: fields.tag, id: fields.id, classes: fields.classes ?? [], attributes: fields.attributes ?? [], text: '' });
    const append = (element: Element) => (container.append(element), markPage(element), element);
    switch (method) {
      case 'querySelector':
      case 'querySelectorAll':
        return materialize(root, arg, raw);
      case 'getElementById':
        return append(elementFor(doc, spec({ id: arg })));
      case 'getElementsByClassName':
        return append(elementFor(doc, spec({ classes: arg.split(/\s+/).filter(Boolean) })));
      case 'getElementsByTagName':
        return append(doc.createElement(arg === '*' ? 'div' : arg));
      case 'getElementsByName':
        return append(elementFor(doc, spec({ tag: 'input', attributes: [['name', arg]] })));
    }
  };
  const guessed = (method: Method, arg: string) => {
    if (method === 'getElementById' || method === 'getElementsByClassName') return true;
    if (method !== 'querySelector' && method !== 'querySelectorAll') return false;
    const last = arg.trim().split(/\s*[\s>+~]\s*/).pop() ?? '';
    return !/^[A-Za-z*]/.test(last);
  };
  const wrap = (owner: object, method: Method, query: Query) => {
    let own = originals.get(owner);
    if (!own) originals.set(owner, (own = new Map()));
    if (own.has(method)) return;
    own.set(method, query);
    const wrapped = {
      [method](this: QueryRoot, ...args: unknown[]) {
        const answer = query.apply(this, args as [string]);
        // linkedom's document calls its parent class's query with a stand-in `this`: only real nodes create.
        if (!creating || !isEmpty(answer) || args.length === 0 || typeof (this as Node | undefined)?.nodeType !== 'number' || (method === 'getElementsByClassName' && String(args[0]).trim() === '')) return answer;
        const arg = String(args[0]);
        const element = create(this, method, arg);
        const where = this.nodeType === 9 ? 'document' : 'element';
        const expression = `${where}.${method}(${JSON.stringify(arg)})`;
        markPage(element, expression);
        onCreated({ element, expression, guessedTag: guessed(method, arg) });
        const again = query.apply(this, args as [string]);
        if (!isEmpty(again)) return again;
        if (method !== 'querySelectorAll') return element; // the selector asks for more than a new element can carry (`:nth-child(3)`)
        const list = new linkedom.NodeList();
        list.push(element);
        return list;
      },
    }[method];
    Object.defineProperty(owner, method, { value: wrapped, writable: true, configurable: true });
  };
  for (const root of [document, document.createElement('div'), document.createDocumentFragment()]) {
    for (const method of METHODS) {
      for (let p: object | null = Object.getPrototypeOf(root); p; p = Object.getPrototypeOf(p)) {
        const d = Object.getOwnPropertyDescriptor(p, method);
        if (d && typeof d.value === 'function') {
          wrap(p, method, d.value as Query);
          break;
        }
      }
    }
  }
  return { raw };
}
