/**
 * Creates the elements a selector describes under the node it was queried on, so the query that
 * found nothing finds them: the longest prefix of the chain that already matches is reused, the
 * rest is built inside it (`html`, `head` and `body` are the document's own).
 */
import { markPage } from './pageElements.ts';
import { impliedTag, parseSelector, prefixSelector, type CompoundSpec } from './selectorSkeleton.ts';

/** A query root: the document, an element or a fragment. */
export type QueryRoot = Document | Element | DocumentFragment;

/** What materialize needs of linkedom: the query methods before they were wrapped. */
export interface RawQueries {
  querySelector(root: QueryRoot, selector: string): Element | null;
}

const isDocument = (n: QueryRoot): n is Document => n.nodeType === 9;

/** The document of a query root. */
export function documentOf(root: QueryRoot): Document {
  return isDocument(root) ? root : (root.ownerDocument as Document);
}

/** Where new elements go for a root: a document's body, else the root itself. */
function containerOf(root: QueryRoot): Element | DocumentFragment {
  if (!isDocument(root)) return root;
  if (!root.body) root.documentElement.append(root.createElement('body'));
  return root.body;
}

/** An element carrying what `spec` names. */
export function elementFor(document: Document, spec: CompoundSpec): Element {
  const element = document.createElement(impliedTag(spec));
  if (spec.id !== undefined) element.id = spec.id;
  for (const c of spec.classes) element.classList.add(c);
  for (const [name, value] of spec.attributes) element.setAttribute(name, value);
  return element;
}

/** The document's own element for a top-level `html`, `head` or `body` compound, if it is one. */
function ownElement(document: Document, spec: CompoundSpec): Element | undefined {
  if (spec.tag === 'html') return document.documentElement;
  if (spec.tag === 'head') return document.head ?? undefined;
  if (spec.tag === 'body') return document.body ?? undefined;
  return undefined;
}

/**
 * Creates the elements `selector` describes under `root` and returns the last one (the element the
 * query asks for). A selector that is not simple gives a `div`.
 */
export function materialize(root: QueryRoot, selector: string, raw: RawQueries): Element {
  const document = documentOf(root);
  const skeleton = parseSelector(selector);
  if (!skeleton) {
    const div = document.createElement('div');
    containerOf(root).append(div);
    markPage(div);
    return div;
  }
  const { compounds, combinators } = skeleton;
  let previous: Element | undefined;
  let start = 0;
  for (let k = compounds.length - 1; k >= 1; k--) {
    let found: Element | null = null;
    try {
      found = raw.querySelector(root, prefixSelector(skeleton, k));
    } catch {
      found = null; // a prefix the selector engine rejects: build from the start
    }
    if (found) {
      previous = found;
      start = k;
      break;
    }
  }
  for (let i = start; i < compounds.length; i++) {
    const spec = compounds[i] as CompoundSpec;
    const combinator = i > 0 ? combinators[i - 1] : ' ';
    const own = isDocument(root) && (previous === undefined || previous === document.documentElement) ? ownElement(document, spec) : undefined;
    const element = own ?? elementFor(document, spec);
    if (!own) {
      markPage(element);
      if ((combinator === '+' || combinator === '~') && previous) previous.after(element);
      else (previous ?? containerOf(root)).append(element);
    }
    previous = element;
  }
  return previous as Element;
}
