/**
 * The second half of the React environment's driver: fire the event handlers (`onClick`,
 * `onChange`, `onSubmit`, …) of the elements React shows, each once, in document order, with the
 * native event React listens for, dispatched at the element so React's own event system runs the
 * handler with a SyntheticEvent: typing first, then clicks, submitting last (phaseOf). Each
 * dispatch is flushed (flushSync): a state setter's re-render is on the page before the next one.
 * Handlers that re-renders reveal are fired in a later round.
 */
import { flushSync } from 'react-dom';
import type { Quietly } from './domFixes.ts';

const MAX_DISPATCHES = 200;
const MAX_ROUNDS = 5;

/** React props whose DOM event is not the lower-cased name. */
const DOM_TYPE: Readonly<Record<string, string>> = {
  DoubleClick: 'dblclick',
  Focus: 'focusin',
  Blur: 'focusout',
  MouseEnter: 'mouseover',
  MouseLeave: 'mouseout',
  PointerEnter: 'pointerover',
  PointerLeave: 'pointerout',
};
const NOT_BUBBLING = /^(scroll|scrollend|load|error|abort|play|pause|ended|toggle|cancel|close|invalid)$/;

type EventClass = new (type: string, init: Record<string, unknown>) => Event;

/** The React props of a DOM node React rendered (react-dom keeps them under `__reactProps$<id>`). */
function reactPropsOf(node: Element): Record<string, unknown> | undefined {
  for (const key of Object.keys(node)) if (key.startsWith('__reactProps$')) return (node as unknown as Record<string, Record<string, unknown>>)[key];
  return undefined;
}

function isToggle(element: Element): boolean {
  const type = element.getAttribute('type');
  return element.localName === 'input' && (type === 'checkbox' || type === 'radio');
}

/** The native event type React turns into `prop`, on `element`. */
export function domEventType(prop: string, element: Element): string | undefined {
  const match = /^on([A-Z][A-Za-z]*?)(Capture)?$/.exec(prop);
  if (!match) return undefined;
  const name = match[1] as string;
  if (name === 'Change') return isToggle(element) ? 'click' : element.localName === 'input' || element.localName === 'textarea' ? 'input' : 'change';
  return DOM_TYPE[name] ?? name.toLowerCase();
}

/** The setter of `name` on the element's prototype chain: past the own property React's value tracker puts on the element. */
function protoSetter(element: Element, name: string): ((v: unknown) => void) | undefined {
  for (let proto = Object.getPrototypeOf(element) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
    const set = Object.getOwnPropertyDescriptor(proto, name)?.set;
    if (set) return set;
  }
  return undefined;
}

/**
 * What the user does to a control before its event, as a browser does it, past React's value
 * tracker (which would otherwise hide the change from onChange): a text field gets text, a number
 * field a number, a select its other option, a checkbox is toggled and a radio checked. Returns
 * how to undo a toggle the event's handler cancels. `quietly` runs DOM reads without making the
 * browser environment create the elements they look for.
 */
function changeControl(element: Element, eventType: string, quietly: Quietly): (() => void) | undefined {
  const input = element as HTMLInputElement;
  if (eventType === 'click' && isToggle(element)) {
    const before = Boolean(input.checked);
    const set = protoSetter(element, 'checked');
    const put = (v: boolean) => (set ? set.call(element, v) : (input.checked = v));
    put(element.getAttribute('type') === 'radio' ? true : !before);
    return () => put(before);
  }
  if (element.localName === 'select' && eventType === 'change') {
    quietly(() => {
      const options = [...element.querySelectorAll('option')] as HTMLOptionElement[];
      const current = options.findIndex((o) => o.selected);
      const next = options.findIndex((o, i) => i !== current && !o.disabled);
      if (next >= 0) options.forEach((o, i) => (o.selected = i === next));
    });
    return undefined;
  }
  if (eventType !== 'input' && !(eventType === 'change' && (element.localName === 'input' || element.localName === 'textarea'))) return undefined;
  const current = String(input.value ?? '');
  const kind = element.getAttribute('type');
  const next = kind === 'number' || kind === 'range' ? String((Number(current) || 0) + 1) : kind === 'email' ? 'user@example.com' : current ? `${current}a` : 'text';
  const set = protoSetter(element, 'value');
  if (set) set.call(element, next);
  else element.setAttribute('value', next);
  return undefined;
}

/** A native event of the class a browser uses for `type`. */
function eventOf(window: Record<string, unknown>, type: string): Event {
  const pick = (...names: string[]) => (names.map((n) => window[n]).find((c) => typeof c === 'function') ?? window.Event) as EventClass;
  const init = { bubbles: !NOT_BUBBLING.test(type), cancelable: true, composed: true };
  if (/^key/.test(type)) return new (pick('KeyboardEvent'))(type, { ...init, key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
  if (/^(click|dblclick|auxclick|contextmenu|mouse)/.test(type)) return new (pick('MouseEvent'))(type, { ...init, button: 0 });
  if (/^pointer/.test(type)) return new (pick('PointerEvent', 'MouseEvent'))(type, init);
  if (/^focus/.test(type)) return new (pick('FocusEvent'))(type, init);
  if (/^(before)?input$/.test(type)) return new (pick('InputEvent'))(type, init);
  if (type === 'submit') return new (pick('SubmitEvent'))(type, init);
  return new (pick('Event'))(type, init);
}

/** Elements under `root` in document order. */
function elementsUnder(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (node: Element) => {
    out.push(node);
    for (const child of [...node.children]) walk(child);
  };
  walk(root);
  return out;
}

/**
 * The order a user acts in: what is typed or chosen (and focus) comes first, then clicks and the
 * rest, submitting last, so a form's submit handler sees the values its fields' handlers stored.
 */
function phaseOf(prop: string): number {
  if (/^on(Change|Input|BeforeInput|Key|Focus|Blur)/.test(prop)) return 0;
  return prop === 'onSubmit' || prop === 'onSubmitCapture' ? 2 : 1;
}

/** Fires, once each, the handlers React attached to the page's elements; how many it dispatched. */
export function fireReactHandlers(document: Document, window: Record<string, unknown>, quietly: Quietly): number {
  const fired = new WeakMap<Element, Set<string>>();
  let dispatches = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due: { element: Element; eventType: string; phase: number }[] = [];
    for (const element of elementsUnder(document.documentElement)) {
      const props = reactPropsOf(element);
      if (!props) continue;
      for (const [prop, handler] of Object.entries(props)) {
        const eventType = typeof handler === 'function' ? domEventType(prop, element) : undefined;
        if (!eventType || fired.get(element)?.has(eventType)) continue;
        const same = due.find((d) => d.element === element && d.eventType === eventType);
        if (same) same.phase = Math.min(same.phase, phaseOf(prop));
        else due.push({ element, eventType, phase: phaseOf(prop) });
      }
    }
    due.sort((a, b) => a.phase - b.phase); // stable: document order within a phase
    let thisRound = 0;
    for (const { element, eventType } of due) {
      if (dispatches >= MAX_DISPATCHES) return dispatches;
      if (!element.isConnected) continue; // an earlier handler's re-render removed it
      let done = fired.get(element);
      if (!done) fired.set(element, (done = new Set()));
      done.add(eventType);
      dispatches++;
      thisRound++;
      const undo = changeControl(element, eventType, quietly);
      const event = eventOf(window, eventType);
      flushSync(() => element.dispatchEvent(event));
      if (undo && event.defaultPrevented) undo();
    }
    if (thisRound === 0) break;
  }
  return dispatches;
}
