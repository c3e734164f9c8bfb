/**
 * A page that has the element the snippet queried has the structure around it too: when the
 * snippet itself reads a relative of a page element (pageElements.ts) that the DOM lacks, the
 * relative is created where it would be, so the read finds it: `nextElementSibling`,
 * `previousElementSibling`, `firstElementChild`, `lastElementChild`, `children[i]` and
 * `closest(selector)` (an ancestor matching it, wrapped around the element). Parents need nothing:
 * page elements are always in the page. Only the snippet's own reads count (callerKind.ts): the DOM
 * library's and jQuery's traversal see the page as it is. Elements the snippet created keep plain
 * DOM semantics, and relatives created here make no relatives of their own (a walk along siblings ends).
 */
import { callerOf } from './callerKind.ts';
import { ownerOf } from './memberOwner.ts';
import { elementFor } from './materialize.ts';
import { expressionOf, growsRelatives, markPage } from './pageElements.ts';
import { creationOn } from './queryWrappers.ts';
import { parseSelector } from './selectorSkeleton.ts';

/** Children (and so siblings) a list-like parent holds. */
const CHILD_OF: Readonly<Record<string, string>> = { ul: 'li', ol: 'li', menu: 'li', table: 'tbody', thead: 'tr', tbody: 'tr', tfoot: 'tr', tr: 'td', select: 'option', datalist: 'option', optgroup: 'option', dl: 'dt' };
/** The tag of an element's next sibling, by its own tag (`label` is followed by its control). */
const NEXT_OF: Readonly<Record<string, string>> = { li: 'li', tr: 'tr', td: 'td', th: 'th', option: 'option', dt: 'dd', dd: 'dt', label: 'input', summary: 'div' };
/** The tag of an element's previous sibling, by its own tag (a control is preceded by its label). */
const PREVIOUS_OF: Readonly<Record<string, string>> = { li: 'li', tr: 'tr', td: 'td', th: 'th', option: 'option', dt: 'dd', dd: 'dt', input: 'label', select: 'label', textarea: 'label' };
/** The most children a read of `children[i]` creates. */
const MAX_CHILDREN = 32;

/** Whether a relative of `element` may be created now: it is the page's, and the snippet itself asked. */
function mayCreate(element: unknown, member: (...args: never[]) => unknown): element is Element {
  return creationOn() && growsRelatives(element) && (element as Element).isConnected && callerOf(member) === 'snippet';
}

/** A new `tag` element standing for `of`'s relative `path` (named after it, for its learnt values). */
function relative(of: Element, tag: string, path: string): Element {
  const element = of.ownerDocument.createElement(tag);
  const base = expressionOf(of);
  markPage(element, base === undefined ? undefined : `${base}.${path}`, true);
  return element;
}

/** Replaces the getter of `key` with one that answers `create(element)` where the DOM answers `empty`. */
function wrapGetter(instance: object, key: string, missing: (answer: unknown) => boolean, create: (element: Element, answer: unknown) => unknown): void {
  const found = ownerOf(instance, key);
  const get = found?.[1].get;
  if (!found || !get) return;
  const wrapped = function (this: Element): unknown {
    const answer: unknown = get.call(this);
    return missing(answer) && mayCreate(this, wrapped) ? create(this, answer) : answer;
  };
  Object.defineProperty(found[0], key, { ...found[1], get: wrapped });
}

/** `children` whose index past the end creates children up to it. */
function growingChildren(element: Element, list: Element[]): Element[] {
  return new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key)) {
        const index = Number(key);
        if (index >= target.length && index < MAX_CHILDREN && creationOn()) {
          const tag = CHILD_OF[element.localName] ?? 'div';
          while (target.length <= index) {
            const child = relative(element, tag, `children[${target.length}]`);
            element.append(child);
            target.push(child);
          }
        }
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** The ancestor `closest(selector)` asks for, wrapped around `element` (its chain, for a selector of descendants). */
function wrapInAncestor(element: Element, selector: string): Element | undefined {
  const skeleton = parseSelector(selector);
  const parent = element.parentNode;
  if (!skeleton || !parent) return undefined;
  let inner: Element = element;
  let nearest: Element | undefined;
  for (let i = skeleton.compounds.length - 1; i >= 0; i--) {
    const combinator = i < skeleton.compounds.length - 1 ? skeleton.combinators[i] : ' ';
    if (combinator !== ' ' && combinator !== '>') break;
    const spec = skeleton.compounds[i];
    if (!spec) break;
    const ancestor = elementFor(element.ownerDocument, spec);
    const base = expressionOf(element);
    markPage(ancestor, nearest === undefined && base !== undefined ? `${base}.closest(${JSON.stringify(selector)})` : undefined, true);
    inner.replaceWith(ancestor);
    ancestor.append(inner);
    nearest ??= ancestor;
    inner = ancestor;
  }
  return nearest;
}

/** Makes the relatives of page elements exist when the snippet reads them (see the module comment). */
export function giveRelatives(document: Document): void {
  const sample = document.createElement('div');
  const isNull = (answer: unknown) => answer === null || answer === undefined;
  wrapGetter(sample, 'nextElementSibling', isNull, (element) => {
    const sibling = relative(element, NEXT_OF[element.localName] ?? 'div', 'nextElementSibling');
    element.after(sibling);
    return sibling;
  });
  wrapGetter(sample, 'previousElementSibling', isNull, (element) => {
    const sibling = relative(element, PREVIOUS_OF[element.localName] ?? 'div', 'previousElementSibling');
    element.before(sibling);
    return sibling;
  });
  const child = (path: string) => (element: Element) => {
    const made = relative(element, CHILD_OF[element.localName] ?? 'div', path);
    element.append(made);
    return made;
  };
  wrapGetter(sample, 'firstElementChild', isNull, child('firstElementChild'));
  wrapGetter(sample, 'lastElementChild', isNull, child('lastElementChild'));
  wrapGetter(sample, 'children', () => true, (element, answer) => growingChildren(element, answer as Element[]));

  const closest = ownerOf(sample, 'closest');
  const original = closest?.[1].value as ((this: Element, selector: string) => Element | null) | undefined;
  if (closest && typeof original === 'function') {
    const wrapped = function closest(this: Element, selector: string): Element | null {
      const found = original.call(this, selector);
      if (found || arguments.length === 0 || !mayCreate(this, wrapped)) return found;
      const ancestor = wrapInAncestor(this, String(selector));
      return original.call(this, selector) ?? ancestor ?? null;
    };
    Object.defineProperty(closest[0], 'closest', { ...closest[1], value: wrapped });
  }
}
