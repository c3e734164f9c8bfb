/**
 * Form controls carry what usage implies: a queried input or textarea has a `value`, a checkbox a
 * `checked`, a select the option its value names, each learnt from how the snippet uses it
 * (host.valueOf), else empty. A form has its fields (`form.elements.email` exists); FormData reads
 * them. Also what linkedom leaves out of controls: `checked`, validity, submit/reset, `click()`
 * with a MouseEvent that checks a checkbox and submits a form.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { linkedom } from './dom.ts';
import { MouseEvent, SubmitEvent } from './eventClasses.ts';
import { learntString } from './learntContent.ts';
import { markPage } from './pageElements.ts';
import { withoutCreating, type CreatedElement } from './queryWrappers.ts';

/** An own property read lazily: `read` runs on the first get that no set came before. */
function lazyProperty(target: object, key: string, read: () => unknown, convert: (v: unknown) => unknown): void {
  let value: unknown;
  let known = false;
  Object.defineProperty(target, key, {
    get: () => (known ? value : ((known = true), (value = read()))),
    set: (v: unknown) => ((known = true), (value = convert(v))),
    configurable: true,
    enumerable: true,
  });
}

const asString = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** A learnt value as a control's value (learntString; '' when nothing was learnt). */
const fromLearnt = (v: unknown) => learntString(v) ?? '';

/** Gives a created element the learnt values its kind has. */
export function giveLearntValues(host: EnvironmentHost, created: CreatedElement): void {
  const { element, expression } = created;
  const tag = element.localName;
  const learnt = (key: string, empty: unknown, convert: (v: unknown) => unknown) => () => {
    const v = host.valueOf(`${expression}.${key}`, `${expression}.${key} is empty`);
    return host.isProbe(v) ? v : v === undefined ? empty : convert(v);
  };
  const type = (element.getAttribute('type') ?? '').toLowerCase();
  if (tag === 'input' && (type === 'checkbox' || type === 'radio')) lazyProperty(element, 'checked', learnt('checked', element.hasAttribute('checked'), Boolean), Boolean);
  else if (tag === 'select') {
    const read = learnt('value', '', fromLearnt);
    lazyProperty(element, 'value', () => {
      const v = read();
      if (typeof v === 'string' && v !== '' && !withoutCreating(() => element.querySelector(`option[value="${v.replace(/["\\]/g, '\\$&')}"]`))) {
        const option = element.ownerDocument.createElement('option');
        option.setAttribute('value', v);
        option.setAttribute('selected', '');
        option.textContent = v;
        element.append(option);
      }
      return v;
    }, asString);
  } else if (tag === 'input' || tag === 'textarea' || created.guessedTag) lazyProperty(element, 'value', learnt('value', element.getAttribute('value') ?? '', fromLearnt), asString);
}

const CONTROLS = 'input, select, textarea, button, fieldset, output';
/** Names that libraries probe on any object: never fields. */
const NOT_FIELDS = new Set(['then', 'toJSON', 'constructor', 'prototype', 'nodeType', 'nodeName', 'window', 'jquery', 'length', 'item', 'namedItem', 'valueOf', 'toString', 'asymmetricMatch', '$$typeof', 'inspect']);

/** `form.elements`: its controls, by index and by name, a field the snippet names created on first use. */
function formElements(form: HTMLFormElement, onCreated: (created: CreatedElement) => void): unknown {
  const list = new linkedom.NodeList() as unknown as Element[] & { namedItem?: (name: string) => Element | null };
  for (const control of withoutCreating(() => form.querySelectorAll(CONTROLS))) list.push(control);
  const named = (name: string) => list.find((c) => c.getAttribute('name') === name || c.id === name) ?? null;
  Object.defineProperty(list, 'namedItem', { value: named });
  return new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || key in target || /^\d+$/.test(key) || NOT_FIELDS.has(key) || !/^[A-Za-z_$][\w$-]*$/.test(key)) return Reflect.get(target, key, receiver);
      const found = named(key);
      if (found) return found;
      const input = form.ownerDocument.createElement('input');
      input.setAttribute('name', key);
      form.append(input);
      target.push(input);
      markPage(input, `form.elements.${key}`);
      onCreated({ element: input, expression: `form.elements.${key}`, guessedTag: false });
      return input;
    },
  });
}

/** The value a control contributes to a form's data, or undefined when it contributes none. */
export function controlValue(control: Element): string | undefined {
  const c = control as HTMLInputElement;
  if (!c.getAttribute('name') || c.hasAttribute('disabled')) return undefined;
  const type = (c.getAttribute('type') ?? '').toLowerCase();
  if (c.localName === 'button' || type === 'submit' || type === 'button' || type === 'reset' || type === 'file' || type === 'image') return undefined;
  if ((type === 'checkbox' || type === 'radio') && !c.checked) return undefined;
  if (type === 'checkbox' || type === 'radio') return c.getAttribute('value') ?? 'on';
  return asString(c.value);
}

/** Adds to linkedom's form-control prototypes what a browser has and linkedom lacks. */
export function extendFormControls(window: { HTMLElement: unknown; HTMLFormElement: unknown; HTMLInputElement: unknown; HTMLSelectElement: unknown; HTMLTextAreaElement: unknown; HTMLButtonElement: unknown }, onCreated: (created: CreatedElement) => void): void {
  const proto = (C: unknown) => (C as { prototype: object }).prototype;
  const define = (target: object, members: Record<string, PropertyDescriptor>) => {
    for (const [key, d] of Object.entries(members)) Object.defineProperty(target, key, { configurable: true, ...d });
  };
  const checkedState = new WeakMap<object, boolean>();
  const validity = { valid: true, valueMissing: false, typeMismatch: false, patternMismatch: false, tooLong: false, tooShort: false, rangeUnderflow: false, rangeOverflow: false, stepMismatch: false, badInput: false, customError: false };
  const validation: Record<string, PropertyDescriptor> = {
    checkValidity: { value: () => true, writable: true },
    reportValidity: { value: () => true, writable: true },
    setCustomValidity: { value: () => undefined, writable: true },
    validity: { get: () => ({ ...validity }) },
    validationMessage: { get: () => '' },
    willValidate: { get: () => true },
  };
  for (const C of [window.HTMLInputElement, window.HTMLSelectElement, window.HTMLTextAreaElement, window.HTMLButtonElement, window.HTMLFormElement]) define(proto(C), validation);
  define(proto(window.HTMLInputElement), {
    checked: {
      get(this: Element) {
        return checkedState.get(this) ?? this.hasAttribute('checked');
      },
      set(this: Element, v: unknown) {
        checkedState.set(this, Boolean(v));
      },
    },
    defaultValue: { get(this: Element) { return this.getAttribute('value') ?? ''; }, set(this: Element, v: unknown) { this.setAttribute('value', asString(v)); } },
    valueAsNumber: { get(this: HTMLInputElement) { const s = asString(this.value); return s.trim() === '' ? NaN : Number(s); }, set(this: HTMLInputElement, v: unknown) { this.value = String(v); } },
    files: { get: () => Object.assign(new linkedom.NodeList(), { item: () => null }) },
    select: { value: () => undefined, writable: true },
    setSelectionRange: { value: () => undefined, writable: true },
    selectionStart: { get: () => 0, set: () => undefined },
    selectionEnd: { get: () => 0, set: () => undefined },
  });
  const textarea = proto(window.HTMLTextAreaElement);
  if (!('value' in textarea)) define(textarea, { value: { get(this: Element) { return this.textContent ?? ''; }, set(this: Element, v: unknown) { this.textContent = asString(v); } } });
  const select = proto(window.HTMLSelectElement);
  define(select, {
    selectedIndex: {
      get(this: HTMLSelectElement) {
        const options = [...this.options];
        const v = this.value;
        const i = options.findIndex((o) => o.value === v);
        return i >= 0 ? i : options.length > 0 ? 0 : -1;
      },
      set: () => undefined,
    },
    selectedOptions: { get(this: HTMLSelectElement) { const o = this.options[this.selectedIndex]; const list = new linkedom.NodeList(); if (o) list.push(o); return list; } },
  });
  const form = proto(window.HTMLFormElement);
  define(form, {
    elements: { get(this: HTMLFormElement) { return formElements(this, onCreated); } },
    length: { get(this: HTMLFormElement) { return withoutCreating(() => this.querySelectorAll(CONTROLS)).length; } },
    submit: { value: () => undefined, writable: true }, // navigation is not modelled
    reset: {
      value(this: HTMLFormElement) {
        if (this.dispatchEvent(new linkedom.Event('reset', { bubbles: true, cancelable: true }) as unknown as Event)) for (const c of withoutCreating(() => this.querySelectorAll('input, textarea'))) (c as HTMLInputElement).value = c.getAttribute('value') ?? '';
      },
      writable: true,
    },
    requestSubmit: {
      value(this: HTMLFormElement, submitter?: unknown) {
        this.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter: submitter ?? null }));
      },
      writable: true,
    },
    action: { get(this: Element) { return this.getAttribute('action') ?? ''; }, set(this: Element, v: unknown) { this.setAttribute('action', asString(v)); } },
    method: { get(this: Element) { return (this.getAttribute('method') ?? 'get').toLowerCase(); }, set(this: Element, v: unknown) { this.setAttribute('method', asString(v)); } },
  });
  define(proto(window.HTMLElement), {
    click: {
      value(this: HTMLElement) {
        const input = this as unknown as HTMLInputElement;
        const type = (this.getAttribute('type') ?? '').toLowerCase();
        const toggles = this.localName === 'input' && (type === 'checkbox' || type === 'radio');
        const before = toggles ? input.checked : false;
        if (toggles) input.checked = type === 'radio' ? true : !before;
        const allowed = this.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, detail: 1 }));
        if (!allowed && toggles) input.checked = before;
        const submits = (this.localName === 'button' && (type === '' || type === 'submit')) || (this.localName === 'input' && type === 'submit');
        const owner = submits ? this.closest('form') : null;
        if (allowed && owner) (owner as HTMLFormElement).requestSubmit(this);
      },
      writable: true,
    },
  });
}

/** FormData: name/value pairs, read from a form's controls when built from one. */
export class FormData {
  readonly #pairs: [string, unknown][] = [];
  readonly #form: HTMLFormElement | undefined;
  constructor(form?: HTMLFormElement) {
    if (form !== undefined && form !== null) {
      if (typeof form !== 'object' || typeof (form as { querySelectorAll?: unknown }).querySelectorAll !== 'function') throw new TypeError("Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement'.");
      this.#form = form;
      for (const control of withoutCreating(() => form.querySelectorAll(CONTROLS))) {
        const v = controlValue(control);
        if (v !== undefined) this.#pairs.push([control.getAttribute('name') as string, v]);
      }
    }
  }
  append(name: string, value: unknown): void { this.#pairs.push([String(name), typeof value === 'object' && value !== null ? value : String(value)]); }
  set(name: string, value: unknown): void { this.delete(name); this.append(name, value); }
  delete(name: string): void { for (let i = this.#pairs.length - 1; i >= 0; i--) if (this.#pairs[i]?.[0] === String(name)) this.#pairs.splice(i, 1); }
  has(name: string): boolean { return this.#pairs.some(([n]) => n === String(name)); }
  /** A field the form lacks is created in it (as `form.elements.x` would be), with its learnt value. */
  get(name: string): unknown {
    const found = this.#pairs.find(([n]) => n === String(name));
    if (found) return found[1];
    if (!this.#form) return null;
    const control = (this.#form.elements as unknown as Record<string, Element>)[String(name)];
    const v = control ? controlValue(control) : undefined;
    if (v === undefined) return null;
    this.#pairs.push([String(name), v]);
    return v;
  }
  getAll(name: string): unknown[] { return this.#pairs.filter(([n]) => n === String(name)).map(([, v]) => v); }
  forEach(fn: (value: unknown, key: string, parent: FormData) => void, thisArg?: unknown): void { for (const [k, v] of [...this.#pairs]) fn.call(thisArg, v, k, this); }
  *entries(): IterableIterator<[string, unknown]> { for (const [k, v] of this.#pairs) yield [k, v]; }
  *keys(): IterableIterator<string> { for (const [k] of this.#pairs) yield k; }
  *values(): IterableIterator<unknown> { for (const [, v] of this.#pairs) yield v; }
  [Symbol.iterator](): IterableIterator<[string, unknown]> { return this.entries(); }
  get [Symbol.toStringTag](): string { return 'FormData'; }
}
