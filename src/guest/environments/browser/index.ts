/**
 * The `browser` environment: a real DOM (linkedom) in the isolate, with the window around it.
 * The global object acts as the window (`window === globalThis`); `document` is an empty HTML
 * page in which every element the snippet queries exists; storage, location, history, navigator
 * and the network are modelled in memory; after the snippet, the listeners it registered are
 * fired with real events (fireListeners.ts). Nothing here reaches the host.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { atob, btoa } from './base64.ts';
import { CANVAS_GLOBALS, extendCanvas } from './canvas.ts';
import { linkedom } from './dom.ts';
import { extendDocument, extendElements, extendFragments, readiness } from './documentExtras.ts';
import { giveTagsTheirClasses } from './elementClasses.ts';
import { guessedTags } from './guessedTags.ts';
import { EVENT_CLASSES } from './eventClasses.ts';
import { listenerDriver, type DelegatedSelectors } from './fireListeners.ts';
import { extendFormControls, FormData, giveLearntValues } from './formControls.ts';
import { defineHandlerProperties, DOCUMENT_HANDLERS, WINDOW_HANDLERS } from './handlerProperties.ts';
import { learnContent } from './learntContent.ts';
import { ListenerLog, recordListeners } from './listenerLog.ts';
import { createLocation } from './locationModel.ts';
import { createNetwork } from './network.ts';
import { expressionOf } from './pageElements.ts';
import { withoutCreating, wrapQueries, type CreatedElement } from './queryWrappers.ts';
import { giveRelatives } from './relatives.ts';
import { createStorage, Storage } from './storage.ts';
import { extendTables } from './tables.ts';
import { schedule } from './timers.ts';
import { scroll, windowExtras } from './windowExtras.ts';

const PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title></head><body></body></html>';

/**
 * What other environments built on this one (jquery, react) may use, on
 * `document[Symbol.for('snipexec.browser')]`: run library code with query-creation off; tell the
 * driver the selectors a listener delegates to (see fireListeners.ts).
 */
export interface BrowserInternals {
  withoutCreating<T>(fn: () => T): T;
  addDelegation(selectorsOf: DelegatedSelectors): void;
}

export function setup(host: EnvironmentHost): void {
  const G = host.global as unknown as Record<string, unknown>;
  const later = (fn: () => void) => void schedule(G, fn, 0);
  const define = (name: string, value: unknown) => host.defineGlobal(name, value);
  const defineMissing = (name: string, value: unknown) => {
    if (!(name in G)) define(name, value);
  };

  // The page, and the window's EventTarget: events on the document bubble to it.
  const page = linkedom.parseHTML(PAGE) as unknown as Record<string | symbol, unknown> & { document: Document };
  const document = page.document;
  const EventTarget = linkedom.EventTarget as unknown as { new (): EventTarget; prototype: EventTarget };
  const log = new ListenerLog();
  const windowTarget = new EventTarget();
  // A submit listener says what an element of a guessed tag (`#signup`) is: a form.
  const onAdd = (target: EventTarget, type: string) => {
    if (type === 'submit') guesses.become(target, 'form');
  };
  recordListeners(EventTarget, linkedom.Event as unknown as { prototype: Event }, log, windowTarget, G, onAdd);
  void page.addEventListener; // makes linkedom create the document's window EventTarget, whose key we replace
  const eventTargetKey = Object.getOwnPropertySymbols(document).find((s) => s.description === 'EventTarget');
  if (eventTargetKey) (document as unknown as Record<symbol, unknown>)[eventTargetKey] = windowTarget;

  const { location, history } = createLocation('http://localhost/', {
    later,
    fire: (type, init) => windowTarget.dispatchEvent(new (EVENT_CLASSES[type === 'hashchange' ? 'HashChangeEvent' : 'PopStateEvent'] as new (t: string, i: object) => Event)(type, init)),
  });
  extendDocument(document, G, location as { href: string });

  // Classes of the DOM, read from linkedom's window so they are the ones its document uses.
  const classNames = [...Object.keys(linkedom).filter((k) => /^[A-Z]/.test(k) && !/^(DOMParser|Document)$/.test(k))];
  const classes: Record<string, unknown> = {};
  for (const name of classNames) classes[name] = (linkedom as unknown as Record<string, unknown>)[name];
  for (const name of ['MutationObserver', 'customElements', 'Image', 'DOMParser']) classes[name] = page[name];
  classes.Document = linkedom.Document;
  classes.HTMLDocument = linkedom.Document;
  extendTables(classes);
  extendCanvas(classes.HTMLCanvasElement);
  giveTagsTheirClasses(document, classes);

  const guesses = guessedTags(document, (element) => giveLearntValues(host, { element, expression: expressionOf(element) ?? 'element', guessedTag: false }));
  const onCreated = (created: CreatedElement) => {
    if (created.guessedTag) guesses.watch(created.element);
    giveLearntValues(host, created);
  };
  wrapQueries(document, onCreated);
  giveRelatives(document);
  learnContent(host, document);
  extendFormControls(classes as Parameters<typeof extendFormControls>[0], onCreated);
  extendElements(classes.HTMLElement as { prototype: object });
  extendFragments(classes.DocumentFragment as { prototype: object });
  const delegations: DelegatedSelectors[] = [];
  const addDelegation = (selectorsOf: DelegatedSelectors) => void delegations.push(selectorsOf);
  Object.defineProperty(document, Symbol.for('snipexec.browser'), { value: Object.freeze({ withoutCreating, addDelegation } satisfies BrowserInternals) });

  for (const [name, value] of Object.entries(classes)) define(name, value);
  for (const [name, value] of Object.entries(EVENT_CLASSES)) define(name, value);
  for (const [name, value] of Object.entries(CANVAS_GLOBALS)) define(name, value);
  for (const [name, value] of Object.entries(windowExtras(host))) define(name, value);
  for (const [name, value] of Object.entries(createNetwork(host, later).globals)) define(name, value);
  define('document', document);
  define('location', location);
  define('history', history);
  define('localStorage', createStorage());
  define('sessionStorage', createStorage());
  define('Storage', Storage);
  define('FormData', FormData);
  define('addEventListener', (type: string, listener: unknown, options?: unknown) => windowTarget.addEventListener(type, listener as EventListener, options as AddEventListenerOptions));
  define('removeEventListener', (type: string, listener: unknown, options?: unknown) => windowTarget.removeEventListener(type, listener as EventListener, options as EventListenerOptions));
  define('dispatchEvent', (event: Event) => windowTarget.dispatchEvent(event));
  defineMissing('atob', atob);
  defineMissing('btoa', btoa);
  for (const [name, axis] of [['scrollX', 'x'], ['scrollY', 'y'], ['pageXOffset', 'x'], ['pageYOffset', 'y']] as const) {
    Object.defineProperty(G, name, { get: () => scroll[axis], set: () => undefined, configurable: true, enumerable: false });
  }
  defineHandlerProperties(G, WINDOW_HANDLERS, () => windowTarget);
  defineHandlerProperties(document, DOCUMENT_HANDLERS, () => document);

  host.afterSnippet('browser events', listenerDriver({ host, log, document, windowTarget, delegations, beforeFirstRound: () => (readiness.state = 'complete') }));
}
