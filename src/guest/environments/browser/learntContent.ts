/**
 * A page element carries the text and the attributes its usage implies: the text of an empty
 * queried element (`textContent`, `innerText`, jQuery's `.text()`) and its data-*, aria-*, href,
 * src, title and alt attributes when absent (`getAttribute`, `dataset`, jQuery's `.attr` and
 * `.data`) are learnt from how the snippet uses them (host.valueOf), else empty as before. A learnt
 * text becomes the element's text node and a learnt attribute its attribute, so every later read
 * agrees. Only the page's elements that have an expression, only reads of the snippet or of a
 * library it called (never the DOM library's own), and only once per element and name.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { callerOf } from './callerKind.ts';
import { ownerOf } from './memberOwner.ts';
import { expressionOf, isPage } from './pageElements.ts';
import { creationOn } from './queryWrappers.ts';

/** Attributes a page's markup would carry that no selector named: learnt when read. */
const LEARNT_ATTRIBUTE = /^(data-[\w.:-]+|aria-[a-z]+|href|src|title|alt)$/;
/** Elements whose text is not what the snippet reads of them (a control's value, code). */
const NO_TEXT = new Set(['input', 'select', 'textarea', 'option', 'script', 'style', 'template']);

/**
 * A learnt value where the DOM holds a string (a text, an attribute, a control's value): strings as
 * they are, numbers and booleans as text; an object (the usage showed a value, truthy, but no text
 * of it) is the value generator's own default string, 'example', never "[object Object]";
 * undefined or null: nothing learnt.
 */
export function learntString(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'object' || typeof v === 'function' ? 'example' : String(v);
}

const hyphenated = (key: string) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Learns the text and attributes of page elements (see the module comment). */
export function learnContent(host: EnvironmentHost, document: Document): void {
  const asked = new WeakMap<object, Set<string>>();
  /** Whether `member` (on the stack) was called by the snippet or a library it called, not by the DOM library. */
  const fromUsage = (member: (...args: never[]) => unknown) => {
    const caller = callerOf(member);
    return caller === 'snippet' || caller === 'library';
  };
  /** Whether `name` of `element` is still to be learnt now (and marks it asked); `member`: the caller is still to be checked. */
  const learnable = (element: unknown, name: string, member?: (...args: never[]) => unknown): boolean => {
    if (!creationOn() || !isPage(element) || expressionOf(element) === undefined) return false;
    let names = asked.get(element);
    if (names?.has(name)) return false;
    if (member && !fromUsage(member)) return false;
    if (!names) asked.set(element, (names = new Set()));
    names.add(name);
    return true;
  };
  /** The learnt value of `element`'s `what`: a probe while learning, a string, or undefined when none was learnt. */
  const learnt = (element: Element, what: string): unknown => {
    const id = `${expressionOf(element) ?? 'element'}.${what}`;
    const v = host.valueOf(id, `${id} is empty`);
    return host.isProbe(v) ? v : learntString(v);
  };
  const probes = new WeakMap<object, Map<string, unknown>>();
  const keepProbe = (element: object, name: string, v: unknown) => {
    let map = probes.get(element);
    if (!map) probes.set(element, (map = new Map()));
    map.set(name, v);
    return v;
  };
  const probeOf = (element: object, name: string) => probes.get(element)?.get(name);

  const sample = document.createElement('div');
  for (const key of ['textContent', 'innerText']) {
    const found = ownerOf(sample, key);
    const get = found?.[1].get;
    if (!found || !get) continue;
    const read = function (this: Element): unknown {
      const probe = probeOf(this, 'text');
      if (probe !== undefined && this.firstChild === null) return probe; // still learning: the same probe for every read
      if (this.firstChild === null && !NO_TEXT.has(this.localName) && learnable(this, 'text', read)) {
        const v = learnt(this, 'textContent');
        if (host.isProbe(v)) return keepProbe(this, 'text', v);
        if (typeof v === 'string' && v !== '') this.append(this.ownerDocument.createTextNode(v));
      }
      return get.call(this);
    };
    Object.defineProperty(found[0], key, { ...found[1], get: read });
  }

  const attribute = ownerOf(sample, 'getAttribute');
  const originalGetAttribute = attribute?.[1].value as ((this: Element, name: string) => string | null) | undefined;
  /** The attribute `name` learnt for `element` (set on it), a probe while learning, or null. */
  const learnAttribute = (element: Element, name: string): unknown => {
    const v = learnt(element, `getAttribute(${JSON.stringify(name)})`);
    if (host.isProbe(v)) return keepProbe(element, name, v);
    if (typeof v !== 'string') return null;
    element.setAttribute(name, v);
    return v;
  };
  if (attribute && typeof originalGetAttribute === 'function') {
    const wrapped = function getAttribute(this: Element, name: string): unknown {
      const found = originalGetAttribute.call(this, name);
      if (found !== null || arguments.length === 0) return found;
      const key = String(name).toLowerCase();
      if (!LEARNT_ATTRIBUTE.test(key)) return found;
      const probe = probeOf(this, key);
      if (probe !== undefined) return probe;
      return learnable(this, `@${key}`, wrapped) ? learnAttribute(this, key) : found;
    };
    Object.defineProperty(attribute[0], 'getAttribute', { ...attribute[1], value: wrapped });
  }

  const dataset = ownerOf(sample, 'dataset');
  const getDataset = dataset?.[1].get;
  if (dataset && getDataset) {
    const read = function (this: Element): unknown {
      const map = getDataset.call(this) as Record<string, unknown>;
      if (!isPage(this) || expressionOf(this) === undefined || !fromUsage(read)) return map;
      const element = this;
      return new Proxy(map, {
        get(target, key, receiver) {
          if (typeof key !== 'string' || key in target) return Reflect.get(target, key, receiver) as unknown;
          const name = hyphenated(key);
          const probe = probeOf(element, name);
          if (probe !== undefined) return probe;
          if (!learnable(element, `@${name}`)) return element.getAttribute(name) ?? undefined; // the caller was checked when the map was read
          const v = learnAttribute(element, name);
          return v === null ? undefined : v;
        },
      });
    };
    Object.defineProperty(dataset[0], 'dataset', { ...dataset[1], get: read });
  }
}
