/**
 * The browser environment's driver: after the snippet, fire the listeners it registered, in
 * registration order, each once, with a real event of the class the browser would use. Listeners
 * registered while firing are fired too, also those registered later by promises and timers
 * (another round after them), within bounds.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { linkedom } from './dom.ts';
import * as events from './eventClasses.ts';
import type { ListenerLog, Registration } from './listenerLog.ts';
import { schedule } from './timers.ts';

const MAX_DISPATCHES = 500;
const MAX_ROUNDS = 10;

type EventClass = new (type: string, init?: Record<string, unknown>) => Event;

const CLASS_OF: readonly [RegExp, unknown][] = [
  [/^(click|dblclick|auxclick|contextmenu|mouse(down|up|move|over|out|enter|leave))$/, events.MouseEvent],
  [/^(pointer|gotpointercapture|lostpointercapture)/, events.PointerEvent],
  [/^wheel$/, events.WheelEvent],
  [/^(drag|drop)/, events.DragEvent],
  [/^key(down|up|press)$/, events.KeyboardEvent],
  [/^(focus|blur|focusin|focusout)$/, events.FocusEvent],
  [/^touch/, events.TouchEvent],
  [/^composition/, events.CompositionEvent],
  [/^(before)?input$/, linkedom.InputEvent],
  [/^submit$/, events.SubmitEvent],
  [/^hashchange$/, events.HashChangeEvent],
  [/^popstate$/, events.PopStateEvent],
  [/^message(error)?$/, events.MessageEvent],
  [/^storage$/, events.StorageEvent],
  [/^(progress|loadstart|loadend|timeout)$/, events.ProgressEvent],
  [/^animation/, events.AnimationEvent],
  [/^transition/, events.TransitionEvent],
  [/^(DOMContentLoaded|load|unload|beforeunload|pagehide|pageshow|resize|scroll|scrollend|change|select|reset|invalid|error|abort|readystatechange|visibilitychange|online|offline|copy|cut|paste|play|playing|pause|ended|timeupdate|canplay|canplaythrough|loadeddata|loadedmetadata|volumechange|seeked|seeking|toggle|close|cancel|open|success|fullscreenchange|orientationchange|selectionchange|languagechange)$/, linkedom.Event],
];

/** Events a user causes on an element: registered on document or window, they are fired at an element so `e.target.matches` works. */
const ELEMENT_EVENT = /^(click|dblclick|auxclick|contextmenu|mouse|pointer|wheel|drag|drop|key|focusin|focusout|touch|composition|beforeinput|input|change|submit|reset|invalid|copy|cut|paste)/;
const NOT_BUBBLING = /^(load|unload|focus|blur|mouseenter|mouseleave|pointerenter|pointerleave|resize|scroll|error|abort|play|pause|ended|toggle|close|cancel)$/;

/**
 * The selectors a library's listener on `target` delegates `type` events to (jQuery's
 * `.on(type, selector, handler)`): the driver fires at an element matching each, made to exist
 * under the target, so the delegated handler runs. `target` is the window itself for the window's listeners.
 */
export type DelegatedSelectors = (target: object, type: string) => readonly string[];

export interface DriverScope {
  readonly host: EnvironmentHost;
  readonly log: ListenerLog;
  readonly document: Document;
  readonly windowTarget: EventTarget;
  /** Filled by the environments built on this one (BrowserInternals.addDelegation). */
  readonly delegations: readonly DelegatedSelectors[];
  /** Runs once before the first round: the document is then loaded (readyState "complete"). */
  readonly beforeFirstRound: () => void;
}

/** The value the snippet's usage implies for `id`, else `fallback` (a probe while its shape is learnt). */
function learnt(host: EnvironmentHost, id: string, reason: string, fallback: unknown, accept: (v: unknown) => boolean): unknown {
  const v = host.valueOf(id, reason);
  return host.isProbe(v) || accept(v) ? v : fallback;
}

/** A real event of the class a browser gives listeners of `type`, with what usage implies of its data. */
export function eventFor(host: EnvironmentHost, type: string): Event {
  const Class = (CLASS_OF.find(([re]) => re.test(type))?.[1] ?? linkedom.CustomEvent) as EventClass;
  const event = new Class(type, { bubbles: !NOT_BUBBLING.test(type), cancelable: true, composed: true });
  const lazy = (key: string, read: () => unknown) => {
    let value: unknown;
    let known = false;
    Object.defineProperty(event, key, {
      get: () => (known ? value : ((known = true), (value = read()))),
      set: (v: unknown) => ((known = true), (value = v)),
      configurable: true,
      enumerable: true,
    });
  };
  if (Class === events.KeyboardEvent) {
    lazy('key', () => learnt(host, `${type} event.key`, `the key of a ${type} event is ''`, 'Enter', (v) => typeof v === 'string' && v !== ''));
    Object.assign(event, { code: 'Enter', keyCode: 13, which: 13 });
  } else if (Class === events.MessageEvent) lazy('data', () => learnt(host, `${type} event.data`, `the data of a ${type} event is null`, {}, (v) => v !== undefined));
  else if (Class === (linkedom.CustomEvent as unknown)) lazy('detail', () => learnt(host, `CustomEvent(${JSON.stringify(type)}).detail`, `the detail of a ${type} event is undefined`, {}, (v) => v !== undefined));
  return event;
}

/**
 * Each listener fires once: the event still bubbles, but past the targets `keep` names (where it is
 * fired, whose listener is being fired, and those with listeners not yet fired). linkedom builds
 * the propagation path by pushing onto `event._path`; if that ever changes, ancestors' listeners
 * merely fire again.
 */
function keepPathTo(event: Event, keep: (target: unknown) => boolean): void {
  const path: { currentTarget: unknown }[] = [];
  Object.defineProperty(path, 'push', {
    value: (...entries: { currentTarget: unknown }[]) => {
      for (const entry of entries) if (keep(entry.currentTarget)) Array.prototype.push.call(path, entry);
      return path.length;
    },
  });
  (event as unknown as { _path: unknown })._path = path;
}

/** The driver `host.afterSnippet` runs: fires every registered listener not fired yet. */
export function listenerDriver(scope: DriverScope): () => void {
  const { host, log, document, windowTarget } = scope;
  let rounds = 0;
  let dispatches = 0;
  const dispatchNode = (r: Registration): EventTarget => {
    if (r.target !== windowTarget && r.target !== (document as EventTarget)) return r.target;
    if (/^(DOMContentLoaded|readystatechange|visibilitychange)$/.test(r.type)) return document;
    if (!ELEMENT_EVENT.test(r.type)) return r.target;
    if (r.type === 'submit' || r.type === 'reset') return document.querySelector('form') ?? document.body;
    if (r.type === 'input' || r.type === 'change') return document.querySelector('input') ?? document.body;
    return document.body;
  };
  /** The elements under `node` (created when missing) that the listener's delegated selectors name. */
  const delegatedNodes = (r: Registration): EventTarget[] => {
    const owner = r.target === windowTarget ? host.global : r.target;
    const root = (r.target === windowTarget ? document : r.target) as unknown as ParentNode;
    const out: EventTarget[] = [];
    for (const selectorsOf of scope.delegations) {
      for (const selector of selectorsOf(owner, r.type)) {
        let found: Element | null = null;
        try {
          found = root.querySelector(selector); // creates what it names: the page has what the handler waits for
        } catch {
          found = null; // a library's own selector syntax (`:first`): fire at the target itself
        }
        if (found && !out.includes(found)) out.push(found);
      }
    }
    return out;
  };
  const fire = (r: Registration, node: EventTarget) => {
    const event = eventFor(host, r.type);
    keepPathTo(event, (t) => t === node || t === r.target || log.hasUnfired(t, r.type));
    node.dispatchEvent(event);
  };
  const round = () => {
    if (rounds === 0) scope.beforeFirstRound();
    rounds++;
    let fired = 0;
    for (const r of log.entries) { // its iterator sees entries added while firing
      if (dispatches >= MAX_DISPATCHES) break;
      if (r.fired || r.removed) continue;
      r.fired = true; // before dispatch: a listener that throws is not fired again
      fired++;
      dispatches++;
      const node = dispatchNode(r);
      const delegated = ELEMENT_EVENT.test(r.type) ? delegatedNodes(r) : [];
      // one event per delegated selector (each a click a user could make), else one at the target
      for (const at of delegated.length > 0 ? delegated : [node]) fire(r, at);
    }
    // Listeners that promises or timers of these ones register get a round of their own.
    if (fired > 0 && rounds < MAX_ROUNDS && dispatches < MAX_DISPATCHES) schedule(host.global, round, 0);
  };
  return round;
}
