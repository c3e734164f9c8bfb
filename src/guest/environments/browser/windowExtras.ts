/**
 * The rest of a window a snippet reaches for: dialogs (print nothing to the host; confirm is
 * true, prompt gives the learnt answer or ''), animation frames on the runtime's timers,
 * `performance`, `matchMedia`, `getComputedStyle`, observers that report each observed element
 * once, scrolling and sizes of a 1280×720 viewport, `navigator` and `screen`.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { schedule, unschedule } from './timers.ts';


const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** An observer class whose callback gets one entry per observed element, on the next task. */
function observerClass(name: string, entry: (target: Element) => Record<string, unknown>, global: object): unknown {
  const C = class {
    readonly #callback: (entries: unknown[], observer: unknown) => void;
    readonly #targets = new Set<Element>();
    constructor(callback: (entries: unknown[], observer: unknown) => void) {
      if (typeof callback !== 'function') throw new TypeError(`Failed to construct '${name}': parameter 1 is not of type 'Function'.`);
      this.#callback = callback;
    }
    observe(target: Element): void {
      if (this.#targets.has(target)) return;
      this.#targets.add(target);
      schedule(global, () => {
        if (this.#targets.has(target)) this.#callback.call(this, [{ target, ...entry(target) }], this);
      }, 0);
    }
    unobserve(target: Element): void { this.#targets.delete(target); }
    disconnect(): void { this.#targets.clear(); }
    takeRecords(): unknown[] { return []; }
  };
  Object.defineProperty(C, 'name', { value: name });
  return C;
}

const rect = (width = 0, height = 0) => ({ x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON() { return { ...this }; } });

/** The scroll position, read by the window's scrollX/scrollY/pageXOffset/pageYOffset. */
export const scroll = { x: 0, y: 0 };

/** The globals of this module, by name. */
export function windowExtras(host: EnvironmentHost): Record<string, unknown> {
  const G = host.global as unknown as Record<string, unknown>;
  const start = Date.now();
  const now = () => Date.now() - start;
  const scrollTo = (a?: unknown, b?: unknown) => {
    const o = typeof a === 'object' && a !== null ? (a as { left?: number; top?: number }) : { left: Number(a) || 0, top: Number(b) || 0 };
    scroll.x = Number(o.left ?? scroll.x) || 0;
    scroll.y = Number(o.top ?? scroll.y) || 0;
  };
  const prompt = (message?: unknown, fallback?: unknown) => {
    const v = host.valueOf(`prompt(${JSON.stringify(String(message ?? ''))})`, 'the answer to a prompt is empty');
    return host.isProbe(v) || typeof v === 'string' ? v : v === undefined || v === null ? (fallback === undefined ? '' : String(fallback)) : String(v);
  };
  return {
    alert: () => undefined,
    confirm: () => true,
    prompt,
    print: () => undefined,
    open: () => null,
    close: () => undefined,
    focus: () => undefined,
    blur: () => undefined,
    stop: () => undefined,
    postMessage: () => undefined,
    requestAnimationFrame: (callback: (time: number) => void) => {
      if (typeof callback !== 'function') throw new TypeError("Failed to execute 'requestAnimationFrame' on 'Window': The callback provided as parameter 1 is not a function.");
      return schedule(G, () => callback(now()), 16);
    },
    cancelAnimationFrame: (id: unknown) => unschedule(G, id),
    requestIdleCallback: (callback: (deadline: unknown) => void) => schedule(G, () => callback({ didTimeout: false, timeRemaining: () => 50 }), 1),
    cancelIdleCallback: (id: unknown) => unschedule(G, id),
    performance: { now, timeOrigin: start, mark: () => undefined, measure: () => undefined, getEntriesByName: () => [], getEntriesByType: () => [], clearMarks: () => undefined, clearMeasures: () => undefined },
    matchMedia: (media: unknown) => ({ matches: false, media: String(media), onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => true }),
    getComputedStyle: (element: Element) => {
      const style = (element as HTMLElement).style;
      return new Proxy(style, { get: (t, k, r) => (typeof k === 'string' && !(k in t) && !/^(then|toJSON)$/.test(k) ? '' : Reflect.get(t, k, r)) });
    },
    getSelection: () => ({ toString: () => '', rangeCount: 0, removeAllRanges: () => undefined, addRange: () => undefined, getRangeAt: () => null }),
    IntersectionObserver: observerClass('IntersectionObserver', (t) => ({ isIntersecting: true, intersectionRatio: 1, boundingClientRect: rect(), intersectionRect: rect(), rootBounds: rect(1280, 720), time: now(), target: t }), G),
    ResizeObserver: observerClass('ResizeObserver', () => ({ contentRect: rect(), borderBoxSize: [{ inlineSize: 0, blockSize: 0 }], contentBoxSize: [{ inlineSize: 0, blockSize: 0 }] }), G),
    scrollTo,
    scroll: scrollTo,
    scrollBy: (a?: unknown, b?: unknown) => {
      const o = typeof a === 'object' && a !== null ? (a as { left?: number; top?: number }) : { left: Number(a) || 0, top: Number(b) || 0 };
      scrollTo({ left: scroll.x + (Number(o.left) || 0), top: scroll.y + (Number(o.top) || 0) });
    },
    innerWidth: 1280,
    innerHeight: 720,
    outerWidth: 1280,
    outerHeight: 800,
    devicePixelRatio: 1,
    screenX: 0,
    screenY: 0,
    screen: { width: 1280, height: 800, availWidth: 1280, availHeight: 760, colorDepth: 24, pixelDepth: 24, orientation: { type: 'landscape-primary', angle: 0 } },
    navigator: {
      userAgent: USER_AGENT, appName: 'Netscape', appVersion: USER_AGENT.slice(8), platform: 'Linux x86_64', vendor: 'Google Inc.', language: 'en-US', languages: ['en-US', 'en'],
      onLine: true, cookieEnabled: true, hardwareConcurrency: 4, maxTouchPoints: 0, doNotTrack: null, webdriver: false,
      clipboard: { writeText: () => Promise.resolve(), readText: () => Promise.resolve(''), write: () => Promise.resolve(), read: () => Promise.resolve([]) },
      geolocation: {
        getCurrentPosition: (success: (p: unknown) => void) => void schedule(G, () => success({ coords: { latitude: 0, longitude: 0, accuracy: 10, altitude: null, heading: null, speed: null }, timestamp: Date.now() }), 0),
        watchPosition: () => 1,
        clearWatch: () => undefined,
      },
      serviceWorker: { register: () => Promise.resolve({ scope: '/' }), ready: new Promise(() => undefined), controller: null },
      sendBeacon: () => true,
      vibrate: () => true,
      share: () => Promise.resolve(),
    },
    frames: G,
    parent: G,
    top: G,
    self: G,
    window: G,
    opener: null,
    closed: false,
    name: '',
    isSecureContext: true,
    origin: 'http://localhost',
  };
}
