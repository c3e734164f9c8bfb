import { jsString } from '../core/sourceText.ts';
import type { Proposal } from './types.ts';
import type { Category } from '../core/categories.ts';

/** Source of the helpers the dummy table uses; prepended to `--emit` output when referenced. */
export const HELPERS_SOURCE = `function __snipexec_dummy(label) {
  const cache = Object.create(null);
  const target = function () {};
  const inspect = Symbol.for('nodejs.util.inspect.custom');
  target[inspect] = () => '[Dummy: ' + label + ']';
  return new Proxy(target, {
    get(t, key) {
      if (key === inspect) return t[inspect];
      if (key === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
      if (key === Symbol.iterator) return function* () {};
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (key === 'toString' || key === 'valueOf' || key === 'toJSON') return () => '';
      if (key === 'length') return 0;
      if (!(key in cache)) cache[key] = __snipexec_dummy(label + '.' + String(key));
      return cache[key];
    },
    set(t, key, value) { cache[key] = value; return true; },
    has() { return true; },
    apply() { return __snipexec_dummy(label + '()'); },
    construct() { return __snipexec_dummy('new ' + label); },
  });
}
function __snipexec_element(tag) {
  const classes = new Set();
  const el = {
    tagName: String(tag).toUpperCase(), nodeType: 1, id: '', className: '', textContent: '', innerHTML: '', innerText: '',
    value: '', checked: false, disabled: false, style: {}, dataset: {}, attributes: {}, children: [], childNodes: [], parentNode: null,
    classList: {
      add(...c) { c.forEach((x) => classes.add(x)); }, remove(...c) { c.forEach((x) => classes.delete(x)); },
      toggle(c) { if (classes.has(c)) { classes.delete(c); return false; } classes.add(c); return true; },
      contains(c) { return classes.has(c); },
    },
    addEventListener() {}, removeEventListener() {}, dispatchEvent() { return true; },
    appendChild(c) { el.children.push(c); return c; }, append(...c) { el.children.push(...c); }, prepend() {},
    removeChild(c) { return c; }, remove() {}, insertBefore(c) { return c; }, replaceWith() {},
    setAttribute(k, v) { el.attributes[k] = String(v); }, getAttribute(k) { return k in el.attributes ? el.attributes[k] : null; },
    hasAttribute(k) { return k in el.attributes; }, removeAttribute(k) { delete el.attributes[k]; },
    querySelector() { return __snipexec_element('div'); }, querySelectorAll() { return [__snipexec_element('div')]; },
    getElementsByTagName() { return [__snipexec_element('div')]; }, getElementsByClassName() { return [__snipexec_element('div')]; },
    closest() { return __snipexec_element('div'); }, focus() {}, blur() {}, click() {},
    getBoundingClientRect() { return { top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 }; },
  };
  return el;
}`;

export const HELPER_NAMES = ['__snipexec_dummy', '__snipexec_element'] as const;

/** The helpers with each function on one line, so an emitted program has no helper line left uncovered. */
export const HELPERS_ONE_LINE = HELPERS_SOURCE.split(/\n(?=function )/).map((fn) => fn.split('\n').map((l) => l.trim()).join(' ')).join('\n');

/** A safe identifier from an element name, for function and class dummies. */
export function identifierFrom(name: string, fallback: string): string {
  const id = name.replace(/^.*[.\]]/, '').replace(/[^\w$]/g, '_');
  return /^[A-Za-z_$][\w$]*$/.test(id) && !RESERVED.has(id) ? id : fallback;
}
const RESERVED = new Set(['default', 'class', 'function', 'new', 'delete', 'return', 'this', 'var', 'let', 'const', 'if', 'else', 'for', 'while', 'switch', 'case', 'in', 'of', 'typeof', 'void', 'with', 'yield', 'await', 'import', 'export', 'super', 'null', 'true', 'false', 'enum', 'catch', 'try', 'finally', 'throw', 'do', 'break', 'continue', 'extends', 'instanceof', 'debugger', 'static', 'let', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'arguments', 'eval']);

/** The predefined dummy of each category, as source; parts of a value are named in `refs`. */
export function dummyFor(category: Category, element: string, name: string, tupleLength = 2): Proposal {
  const simple = (source: string): Proposal => ({ source, refs: [], category });
  switch (category) {
    case 'undefined': return simple('undefined');
    case 'null': return simple('null');
    case 'boolean': return simple('true');
    case 'number': return simple('1');
    case 'string': return simple(JSON.stringify('str'));
    case 'array': return { source: '[$0]', refs: [`${element}[0]`], category };
    case 'tuple': {
      const n = Math.max(1, Math.min(tupleLength, 16));
      return { source: `[${Array.from({ length: n }, (_, i) => `$${i}`).join(', ')}]`, refs: Array.from({ length: n }, (_, i) => `${element}[${i}]`), category };
    }
    case 'object': return simple('{}');
    case 'function': return simple(`function ${identifierFrom(name, 'injected')}() {}`);
    case 'class': return simple(`class ${identifierFrom(name, 'Injected')} {}`);
    case 'promise': return { source: 'Promise.resolve($0)', refs: [`await ${element}`], category };
    case 'Map': return simple('new Map()');
    case 'Set': return simple('new Set()');
    case 'Date': return simple('new Date("2024-01-01T00:00:00.000Z")');
    case 'RegExp': return simple('/(?:)/');
    // No stack frames: an injected error was raised nowhere, and frames would name the sandbox or the program's file.
    case 'Error': return simple('Object.assign(new Error("injected error"), { stack: "Error: injected error" })');
    case 'element': return simple('__snipexec_element("div")');
    case 'Dummy': return simple(`__snipexec_dummy(${jsString(name)})`);
  }
}
