/**
 * The client side of `http` and `https`: `request(options | url, [options], [callback])` and
 * `get(…)`. Nothing is sent. Once the request ends, its callback (and 'response' listeners) get an
 * IncomingMessage whose status, headers and body are learnt from how the snippet uses them, under
 * ids that name the module (`http response.statusCode`, `https response.body`); the body streams
 * as 'data' then 'end' on the virtual clock.
 */
import { EventEmitter } from 'events';
import { IncomingMessage } from './nodeHttp.ts';
import { isProbe, learnt, later, probeText } from './serverHost.ts';

/**
 * The response's body text: a learnt string as it is, a learnt plain value as JSON, '' when
 * nothing is known; in a learning run, the text standing for the body's probe (probeText).
 */
function bodyText(id: string): string {
  const v = learnt(id, 'the response body is not known');
  if (typeof v === 'string') return v;
  if (isProbe(v)) return probeText(v, id);
  if (v === undefined || v === null) return '';
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

function responseFor(scheme: string, method: string, path: string): IncomingMessage {
  const prefix = `${scheme} response`;
  const res = new IncomingMessage({ method, url: path, rawBody: () => bodyText(`${prefix}.body`) });
  const status = learnt(`${prefix}.statusCode`, 'the response status is not known');
  const statusCode = typeof status === 'number' && Number.isInteger(status) && status >= 100 && status < 600 ? status : 200;
  const headers = learnt(`${prefix}.headers`, 'the response headers are not known');
  Object.assign(res, {
    statusCode,
    statusMessage: statusCode === 200 ? 'OK' : '',
    headers: typeof headers === 'object' && headers !== null ? headers : { 'content-type': 'application/json' },
  });
  return res;
}

/** Where a request goes, from `request(url | options, [options])`. */
function target(a: unknown, b: unknown): { method: string; path: string } {
  const urlLike = typeof a === 'object' && a !== null && typeof (a as { href?: unknown }).href === 'string';
  const options = (typeof a === 'object' && a !== null && !urlLike ? a : typeof b === 'object' && b !== null ? b : {}) as { method?: unknown; path?: unknown };
  let path = typeof options.path === 'string' ? options.path : '/';
  if (typeof a === 'string' || urlLike) {
    const m = /^[a-z]+:\/\/[^/?#]*([^#]*)/i.exec(urlLike ? String((a as { href: string }).href) : String(a));
    path = m?.[1] || '/';
  }
  return { method: typeof options.method === 'string' ? options.method.toUpperCase() : 'GET', path };
}

/** Node's `http.ClientRequest`: an EventEmitter that records what is written and answers once ended. */
export class ClientRequest extends EventEmitter {
  method: string;
  path: string;
  host = 'localhost';
  protocol: string;
  finished = false;
  writableEnded = false;
  aborted = false;
  destroyed = false;
  readonly #headers: Record<string, unknown> = {};
  readonly #scheme: string;

  constructor(scheme: string, a: unknown, b: unknown, callback: unknown) {
    super();
    const { method, path } = target(a, b);
    this.method = method;
    this.path = path;
    this.#scheme = scheme;
    this.protocol = `${scheme}:`;
    if (typeof callback === 'function') this.once('response', callback as (res: IncomingMessage) => void);
  }
  setHeader(name: string, value: unknown): this {
    this.#headers[String(name).toLowerCase()] = value;
    return this;
  }
  getHeader(name: string): unknown {
    return this.#headers[String(name).toLowerCase()];
  }
  removeHeader(name: string): void {
    delete this.#headers[String(name).toLowerCase()];
  }
  write(_chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') later(cb as () => void);
    return true;
  }
  end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined && typeof chunk !== 'function') this.write(chunk);
    this.writableEnded = this.finished = true;
    const cb = [chunk, encoding, callback].find((x) => typeof x === 'function') as (() => void) | undefined;
    later(() => {
      if (this.aborted || this.destroyed) return;
      cb?.();
      this.emit('finish');
      const res = responseFor(this.#scheme, this.method, this.path);
      this.emit('response', res);
      // a response nobody reads still ends, as Node's does once it is consumed
      if (res.listenerCount('data') === 0 && res.listenerCount('end') === 0 && res.listenerCount('readable') === 0) res.resume();
      this.emit('close');
    });
    return this;
  }
  abort(): void {
    this.aborted = true;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
  setTimeout(_ms: unknown, callback?: unknown): this {
    return this;
  }
  setNoDelay(): void {}
  setSocketKeepAlive(): void {}
  flushHeaders(): void {}
}

/** `request` and `get` of one module (`http` or `https`). */
export function clientOf(scheme: string): { request: (...a: unknown[]) => ClientRequest; get: (...a: unknown[]) => ClientRequest } {
  const make = (a: unknown, b?: unknown, c?: unknown) => new ClientRequest(scheme, a, typeof b === 'function' ? undefined : b, typeof b === 'function' ? b : c);
  return {
    request: make,
    get: (a: unknown, b?: unknown, c?: unknown) => make(a, b, c).end(),
  };
}
