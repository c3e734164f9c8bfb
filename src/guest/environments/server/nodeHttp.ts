/**
 * Node's `http` server side without a socket: an IncomingMessage whose body flows as 'data' and
 * 'end' events once the handler listens, a ServerResponse that records what it was sent, and a
 * Server whose `listen` calls back and listens nowhere.
 */
import { Buffer } from 'buffer';
import { EventEmitter } from 'events';
import { exchanges, isProbe, raiseLater, soon, type ExchangeRecord } from './serverHost.ts';

/** Node's error for headers set after the response started. */
export class HeadersSentError extends Error {
  readonly code = 'ERR_HTTP_HEADERS_SENT';
  constructor(action: 'set' | 'write') {
    super(`Cannot ${action} headers after they are sent to the client`);
    this.name = 'Error';
  }
}

/** The reason phrases of the status codes, as `http.STATUS_CODES`. */
export const STATUS_CODES: Readonly<Record<number, string>> = {
  100: 'Continue', 101: 'Switching Protocols', 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 206: 'Partial Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export const METHODS: readonly string[] = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

const STREAM_EVENTS = new Set(['data', 'end', 'readable', 'close']);

/** What a request is made of; `headers` and `body` may be filled lazily by the framework. */
export interface RequestInit {
  readonly method: string;
  readonly url: string;
  /** The raw body text the stream delivers (JSON text for a JSON body). */
  readonly rawBody?: () => string;
}

/** A request as Node's `http.IncomingMessage`: its body is read through events or async iteration. */
export class IncomingMessage extends EventEmitter {
  method: string;
  url: string;
  httpVersion = '1.1';
  httpVersionMajor = 1;
  httpVersionMinor = 1;
  complete = false;
  aborted = false;
  readable = true;
  rawHeaders: string[] = [];
  trailers: Record<string, string> = {};
  socket = { remoteAddress: '127.0.0.1', remotePort: 52000, encrypted: false, setTimeout() { return this; }, destroy() {} };
  connection = this.socket;
  private encoding: string | undefined;
  private flowing = false;
  private readonly rawBody: () => string;
  declare headers: Record<string, unknown>;

  constructor(init: RequestInit) {
    super();
    this.method = init.method;
    this.url = init.url;
    this.rawBody = init.rawBody ?? (() => '');
  }

  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    super.on(event, listener);
    if (typeof event === 'string' && STREAM_EVENTS.has(event)) this.flow();
    return this;
  }

  override addListener(event: string | symbol, listener: (...args: any[]) => void): this {
    return this.on(event, listener);
  }

  setEncoding(encoding: string): this {
    this.encoding = encoding;
    return this;
  }

  setTimeout(): this {
    return this;
  }

  resume(): this {
    this.flow();
    return this;
  }

  pause(): this {
    return this;
  }

  destroy(): this {
    return this;
  }

  pipe<T extends { write?: (c: unknown) => unknown; end?: (c?: unknown) => unknown }>(dest: T): T {
    soon(() => {
      const body = this.rawBody();
      if (body !== '') dest.write?.(this.chunk(body));
      dest.end?.();
    });
    return dest;
  }

  /** The body, once: a Buffer (or a string after setEncoding), then the end. */
  async *[Symbol.asyncIterator](): AsyncGenerator<unknown> {
    const body = this.rawBody();
    this.complete = true;
    if (body !== '') yield this.chunk(body);
  }

  private chunk(body: string): unknown {
    return this.encoding ? body : Buffer.from(body);
  }

  // The body flows once someone listens, after the handler that listens has returned.
  private flow(): void {
    if (this.flowing) return;
    this.flowing = true;
    soon(() => {
      const body = this.rawBody();
      if (body !== '') this.emit('data', this.chunk(body));
      this.complete = true;
      this.readable = false;
      this.emit('end');
      this.emit('close');
    });
  }
}

/** A response as Node's `http.ServerResponse`: headers, status and body are recorded, nothing is sent. */
export class ServerResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  finished = false;
  sendDate = true;
  readonly req: IncomingMessage;
  readonly record: ExchangeRecord;
  private readonly headerMap = new Map<string, { name: string; value: unknown }>();
  private chunks: string[] = [];

  constructor(req: IncomingMessage, label: string) {
    super();
    this.req = req;
    this.record = { request: label, status: 200, headers: {}, ended: false };
    exchanges.push(this.record);
  }

  setHeader(name: string, value: unknown): this {
    if (this.headersSent) throw new HeadersSentError('set');
    this.headerMap.set(String(name).toLowerCase(), { name: String(name), value });
    return this;
  }

  getHeader(name: string): unknown {
    return this.headerMap.get(String(name).toLowerCase())?.value;
  }

  getHeaders(): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of this.headerMap) out[k] = v.value;
    return out;
  }

  getHeaderNames(): string[] {
    return [...this.headerMap.keys()];
  }

  hasHeader(name: string): boolean {
    return this.headerMap.has(String(name).toLowerCase());
  }

  removeHeader(name: string): void {
    if (this.headersSent) throw new HeadersSentError('set');
    this.headerMap.delete(String(name).toLowerCase());
  }

  writeHead(status: number, message?: unknown, headers?: unknown): this {
    if (this.headersSent) throw new HeadersSentError('write');
    if (typeof message !== 'string') headers = message;
    else this.statusMessage = message;
    this.statusCode = Number(status);
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(String(headers[i]), headers[i + 1]);
    else if (typeof headers === 'object' && headers !== null) for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.sendHeaders();
    return this;
  }

  write(chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (this.writableEnded) {
      const error = Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' });
      soon(() => (this.listenerCount('error') > 0 ? this.emit('error', error) : raiseLater(error)));
      return false;
    }
    this.sendHeaders();
    if (chunk !== undefined && chunk !== null) this.chunks.push(String(chunk));
    this.record.body = this.chunks.join('');
    if (typeof done === 'function') soon(() => done());
    return true;
  }

  end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
    const done = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : cb;
    if (this.writableEnded) return this;
    if (typeof chunk !== 'function' && chunk !== undefined && chunk !== null) this.write(chunk);
    this.sendHeaders();
    this.writableEnded = true;
    this.finished = true;
    this.record.ended = true;
    if (this.chunks.length > 0) this.record.body = this.chunks.join('');
    soon(() => {
      this.writableFinished = true;
      this.emit('finish');
      this.emit('close');
      if (typeof done === 'function') done();
    });
    return this;
  }

  flushHeaders(): void {
    this.sendHeaders();
  }

  setTimeout(): this {
    return this;
  }

  addTrailers(): void {}

  cork(): void {}

  uncork(): void {}

  // The status line and headers go with the first byte of the body: later changes to them throw; the status must be valid.
  protected sendHeaders(): void {
    if (this.headersSent) return;
    const code = this.statusCode as unknown;
    if (typeof code !== 'number' || !Number.isInteger(code) || code < 100 || code > 999) {
      throw Object.assign(new RangeError(`Invalid status code: ${String(code)}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' });
    }
    this.headersSent = true;
    this.record.status = this.statusCode;
    for (const [k, v] of this.headerMap) this.record.headers[k] = v.value;
  }
}

/** Node's `http.Server`: `listen` calls back once, and nothing listens. */
export class Server extends EventEmitter {
  listening = false;
  timeout = 0;
  keepAliveTimeout = 5000;
  headersTimeout = 60000;
  requestTimeout = 300000;
  maxHeadersCount: number | null = null;
  private port = 3000;

  constructor(handler?: unknown) {
    super();
    if (typeof handler === 'function') this.on('request', handler as (...args: unknown[]) => void);
  }

  listen(...args: unknown[]): this {
    // Node takes the callback from the last argument (listen(port, host, cb)); a port that is a
    // recording proxy (typeof 'function') is not a callback.
    const last = args[args.length - 1];
    const cb = typeof last === 'function' && (args.length > 1 || !isProbe(last)) ? last : undefined;
    const first = args[0];
    const port = typeof first === 'object' && first !== null ? (first as { port?: unknown }).port : first;
    if (typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port))) this.port = Number(port);
    if (typeof cb === 'function') this.once('listening', cb as () => void);
    this.listening = true;
    soon(() => this.emit('listening'));
    return this;
  }

  close(cb?: unknown): this {
    this.listening = false;
    soon(() => {
      this.emit('close');
      if (typeof cb === 'function') cb();
    });
    return this;
  }

  address(): { address: string; family: string; port: number } {
    return { address: '::', family: 'IPv6', port: this.port };
  }

  setTimeout(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  closeAllConnections(): void {}

  closeIdleConnections(): void {}

  getConnections(cb?: unknown): void {
    if (typeof cb === 'function') soon(() => cb(null, 0));
  }
}
