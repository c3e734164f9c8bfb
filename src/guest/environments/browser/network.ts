/**
 * `fetch`, `Response`, `Request`, `Headers`, `XMLHttpRequest` and `AbortController` with no
 * network: every request succeeds (200) and its body is the value the snippet's usage implies for
 * `fetch("<url>").json()` / `fetch("<url>").text()` (host.valueOf), else `{}` / `''`.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { linkedom } from './dom.ts';
import { ProgressEvent } from './eventClasses.ts';
import { defineHandlerProperties } from './handlerProperties.ts';

/** A DOMException-like error with the browser's name (AbortError, InvalidStateError). */
export function domException(message: string, name: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** Case-insensitive header lists. */
export class Headers {
  readonly #map = new Map<string, string>();
  constructor(init?: unknown) {
    if (init === undefined || init === null) return;
    const pairs = typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function' ? [...(init as Iterable<[string, string]>)] : Object.entries(init as Record<string, string>);
    for (const [k, v] of pairs) this.append(k, v);
  }
  append(name: string, value: unknown): void {
    const k = String(name).toLowerCase();
    const old = this.#map.get(k);
    this.#map.set(k, old === undefined ? String(value) : `${old}, ${String(value)}`);
  }
  set(name: string, value: unknown): void { this.#map.set(String(name).toLowerCase(), String(value)); }
  get(name: string): string | null { return this.#map.get(String(name).toLowerCase()) ?? null; }
  has(name: string): boolean { return this.#map.has(String(name).toLowerCase()); }
  delete(name: string): void { this.#map.delete(String(name).toLowerCase()); }
  forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void { for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this); }
  entries(): IterableIterator<[string, string]> { return [...this.#map].sort(([a], [b]) => (a < b ? -1 : 1))[Symbol.iterator](); }
  keys(): IterableIterator<string> { return [...this.entries()].map(([k]) => k)[Symbol.iterator](); }
  values(): IterableIterator<string> { return [...this.entries()].map(([, v]) => v)[Symbol.iterator](); }
  [Symbol.iterator](): IterableIterator<[string, string]> { return this.entries(); }
  get [Symbol.toStringTag](): string { return 'Headers'; }
}

/** Where a body comes from: text the code gave, or the values learnt for a URL. */
interface BodySource {
  text(): unknown;
  json(): unknown;
}

const textSource = (body: unknown): BodySource => {
  const text = body === undefined || body === null ? '' : typeof body === 'string' ? body : String(body);
  return { text: () => text, json: () => JSON.parse(text) as unknown };
};

/** The mixin of Request and Response: a body read once. */
class Body {
  #source: BodySource;
  #used = false;
  constructor(source: BodySource) {
    this.#source = source;
  }
  get bodyUsed(): boolean { return this.#used; }
  get body(): null { return null; }
  #read<T>(method: string, read: (s: BodySource) => T): Promise<T> {
    if (this.#used) return Promise.reject(new TypeError(`Failed to execute '${method}' on '${this.constructor.name}': body stream already read`));
    this.#used = true;
    try {
      return Promise.resolve(read(this.#source));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  json(): Promise<unknown> { return this.#read('json', (s) => s.json()); }
  text(): Promise<unknown> { return this.#read('text', (s) => s.text()); }
  arrayBuffer(): Promise<ArrayBuffer> { return this.#read('arrayBuffer', () => new ArrayBuffer(0)); }
  blob(): Promise<unknown> { return this.#read('blob', (s) => ({ size: String(s.text()).length, type: '', text: () => Promise.resolve(s.text()) })); }
  formData(): Promise<unknown> { return this.#read('formData', () => ({})); }
  /** @internal the source, for clone() */
  static sourceOf(b: Body): BodySource { return b.#source; }
}

export class Response extends Body {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type: string;
  constructor(body?: unknown, init: { status?: number; statusText?: string; headers?: unknown } = {}, url = '', source?: BodySource) {
    super(source ?? textSource(body));
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? (this.status === 200 ? 'OK' : '');
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.url = url;
    this.type = url ? 'basic' : 'default';
  }
  get ok(): boolean { return this.status >= 200 && this.status < 300; }
  clone(): Response { return new Response(undefined, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) }, this.url, Body.sourceOf(this)); }
  static json(data: unknown, init: { status?: number; headers?: unknown } = {}): Response {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(data), { ...init, headers });
  }
  static error(): Response { return new Response(null, { status: 0, statusText: '' }); }
  get [Symbol.toStringTag](): string { return 'Response'; }
}

export class Request extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: unknown;
  constructor(input: unknown, init: { method?: string; headers?: unknown; body?: unknown; signal?: unknown } = {}) {
    super(textSource(init.body ?? (input instanceof Request ? Body.sourceOf(input).text() : undefined)));
    this.url = input instanceof Request ? input.url : String(input);
    this.method = String(init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    this.headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    this.signal = init.signal ?? null;
  }
  clone(): Request { return new Request(this); }
  get [Symbol.toStringTag](): string { return 'Request'; }
}

export interface Network {
  readonly globals: Readonly<Record<string, unknown>>;
}

/** The network globals of the page, answering from `host`'s learnt values. */
export function createNetwork(host: EnvironmentHost, later: (fn: () => void) => void): Network {
  const learnt = (url: string, kind: 'json' | 'text'): BodySource => {
    const ask = (k: 'json' | 'text') => host.valueOf(`fetch(${JSON.stringify(url)}).${k}()`, `the ${k === 'json' ? 'JSON' : 'text'} of ${url} is empty`);
    return {
      json: () => {
        const v = ask('json');
        return v === undefined ? {} : v;
      },
      text: () => {
        const v = ask(kind === 'json' ? 'json' : 'text');
        return host.isProbe(v) || typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
      },
    };
  };
  const EventTarget = linkedom.EventTarget as unknown as new () => EventTarget;

  const fetch = function fetch(input?: unknown, init: { signal?: { aborted?: boolean } } = {}): Promise<Response> {
    if (arguments.length === 0) return Promise.reject(new TypeError("Failed to execute 'fetch' on 'Window': 1 argument required, but only 0 present."));
    const url = input instanceof Request ? input.url : String(input);
    const signal = init?.signal ?? (input instanceof Request ? (input.signal as { aborted?: boolean } | null) : null);
    if (signal?.aborted) return Promise.reject(domException('signal is aborted without reason', 'AbortError'));
    return Promise.resolve(new Response(undefined, { status: 200, headers: { 'content-type': 'application/json' } }, url, learnt(url, 'text')));
  };

  const UNSENT = 0, OPENED = 1, HEADERS_RECEIVED = 2, LOADING = 3, DONE = 4;
  class XMLHttpRequest extends EventTarget {
    static readonly UNSENT = UNSENT;
    static readonly OPENED = OPENED;
    static readonly HEADERS_RECEIVED = HEADERS_RECEIVED;
    static readonly LOADING = LOADING;
    static readonly DONE = DONE;
    readyState = UNSENT;
    status = 0;
    statusText = '';
    responseType = '';
    responseURL = '';
    timeout = 0;
    withCredentials = false;
    readonly upload = new EventTarget();
    #method = 'GET';
    #url = '';
    #body: BodySource | undefined;
    open(method: string, url: unknown): void {
      this.#method = String(method).toUpperCase();
      this.#url = String(url);
      this.#set(OPENED);
    }
    setRequestHeader(): void {}
    getResponseHeader(name: string): string | null { return this.readyState >= HEADERS_RECEIVED && String(name).toLowerCase() === 'content-type' ? 'application/json' : null; }
    getAllResponseHeaders(): string { return this.readyState >= HEADERS_RECEIVED ? 'content-type: application/json\r\n' : ''; }
    overrideMimeType(): void {}
    abort(): void {
      this.readyState = UNSENT;
    }
    send(): void {
      if (this.readyState !== OPENED) throw domException("Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.", 'InvalidStateError');
      later(() => {
        this.#body = learnt(this.#url, this.responseType === 'json' ? 'json' : 'text');
        this.status = 200;
        this.statusText = 'OK';
        this.responseURL = this.#url;
        this.#set(HEADERS_RECEIVED);
        this.#set(DONE);
        for (const type of ['load', 'loadend']) this.dispatchEvent(new ProgressEvent(type, { lengthComputable: false }));
      });
    }
    get responseText(): unknown { return this.readyState === DONE && this.#body ? this.#body.text() : ''; }
    get response(): unknown {
      if (this.readyState !== DONE || !this.#body) return this.responseType === 'json' ? null : '';
      return this.responseType === 'json' ? this.#body.json() : this.#body.text();
    }
    get responseXML(): null { return null; }
    get method(): string { return this.#method; }
    #set(state: number): void {
      this.readyState = state;
      this.dispatchEvent(new linkedom.Event('readystatechange') as unknown as Event);
    }
  }
  defineHandlerProperties(XMLHttpRequest.prototype, ['readystatechange', 'load', 'loadend', 'loadstart', 'progress', 'error', 'abort', 'timeout'], (self) => self as EventTarget);

  class AbortSignal extends EventTarget {
    aborted = false;
    reason: unknown = undefined;
    throwIfAborted(): void { if (this.aborted) throw this.reason; }
    static abort(reason?: unknown): AbortSignal { const c = new AbortController(); c.abort(reason); return c.signal; }
    static timeout(): AbortSignal { return new AbortSignal(); }
  }
  defineHandlerProperties(AbortSignal.prototype, ['abort'], (self) => self as EventTarget);
  class AbortController {
    readonly signal = new AbortSignal();
    abort(reason?: unknown): void {
      if (this.signal.aborted) return;
      this.signal.aborted = true;
      this.signal.reason = reason ?? domException('signal is aborted without reason', 'AbortError');
      this.signal.dispatchEvent(new linkedom.Event('abort') as unknown as Event);
    }
  }
  return { globals: { fetch, Headers, Request, Response, XMLHttpRequest, AbortController, AbortSignal } };
}
