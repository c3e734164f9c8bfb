/**
 * Express's response: chainable `status`, `set`, `json`, `send`, `redirect`, `render`, `cookie` …
 * on a ServerResponse that records what it got. As in Express, sending twice throws
 * "Cannot set headers after they are sent to the client", and an invalid status code throws.
 */
import { HeadersSentError, STATUS_CODES, ServerResponse, type IncomingMessage } from '../nodeHttp.ts';
import { soon } from '../serverHost.ts';

const MIME: Readonly<Record<string, string>> = {
  json: 'application/json', html: 'text/html', htm: 'text/html', text: 'text/plain', txt: 'text/plain', xml: 'application/xml',
  js: 'text/javascript', css: 'text/css', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml',
  pdf: 'application/pdf', csv: 'text/csv', bin: 'application/octet-stream', form: 'application/x-www-form-urlencoded', urlencoded: 'application/x-www-form-urlencoded',
};

/** A content type from a short name (`json`, `.html`) or a full type. */
export function mimeOf(type: unknown): string {
  const t = String(type);
  if (t.includes('/')) return t;
  return MIME[t.replace(/^\./, '').toLowerCase()] ?? 'application/octet-stream';
}

/** An Express response; `app` and `req` are the app and request it belongs to. */
export class ExpressResponse extends ServerResponse {
  locals: Record<string, unknown> = {};
  app: unknown;

  constructor(app: unknown, req: IncomingMessage, label: string) {
    super(req, label);
    this.app = app;
  }

  status(code: unknown): this {
    this.statusCode = code as number;
    return this;
  }

  sendStatus(code: number): this {
    this.status(code);
    this.type('text');
    return this.send(STATUS_CODES[code] ?? String(code));
  }

  set(field: unknown, value?: unknown): this {
    if (typeof field === 'object' && field !== null) {
      for (const [k, v] of Object.entries(field)) this.set(k, v);
      return this;
    }
    let v = Array.isArray(value) ? value.map(String) : String(value);
    if (String(field).toLowerCase() === 'content-type' && typeof v === 'string') v = mimeOf(v);
    this.setHeader(String(field), v);
    return this;
  }

  header(field: unknown, value?: unknown): this {
    return this.set(field, value);
  }

  get(field: string): unknown {
    return this.getHeader(field);
  }

  append(field: string, value: unknown): this {
    const prev = this.getHeader(field);
    const next = prev === undefined ? value : ([] as unknown[]).concat(prev, value);
    return this.set(field, next);
  }

  type(type: unknown): this {
    return this.set('Content-Type', mimeOf(type));
  }

  contentType(type: unknown): this {
    return this.type(type);
  }

  location(url: unknown): this {
    return this.set('Location', url === 'back' ? '/' : url);
  }

  links(links: Record<string, string>): this {
    return this.set('Link', Object.entries(links).map(([rel, url]) => `<${url}>; rel="${rel}"`).join(', '));
  }

  vary(field: string): this {
    return this.append('Vary', field);
  }

  attachment(filename?: string): this {
    return this.set('Content-Disposition', filename ? `attachment; filename="${filename}"` : 'attachment');
  }

  cookie(name: string, value: unknown, _options?: unknown): this {
    const text = typeof value === 'object' && value !== null ? `j:${JSON.stringify(value)}` : String(value);
    return this.append('Set-Cookie', `${name}=${encodeURIComponent(text)}; Path=/`);
  }

  clearCookie(name: string, _options?: unknown): this {
    return this.append('Set-Cookie', `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
  }

  /** Sends a body: an object as JSON, a string as HTML (unless a type is set), nothing for undefined. */
  send(body?: unknown): this {
    if (typeof body === 'object' && body !== null && !(body instanceof Uint8Array)) return this.json(body);
    if (typeof body === 'number' && arguments.length === 1 && !this.headersSent) return this.sendStatus(body);
    if (body !== undefined && body !== null) {
      if (this.getHeader('content-type') === undefined) this.type(body instanceof Uint8Array ? 'bin' : 'html');
      this.setHeader('Content-Length', String(body instanceof Uint8Array ? body.length : String(body).length));
    }
    this.end(body instanceof Uint8Array ? body : body === undefined || body === null ? undefined : String(body));
    if (body !== undefined) this.record.body = body;
    return this;
  }

  /** Sends a value as JSON; the recorded body is the value itself (the report needs no text). */
  json(body?: unknown): this {
    if (this.headersSent) throw new HeadersSentError('set');
    if (this.getHeader('content-type') === undefined) this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.end();
    this.record.body = body;
    return this;
  }

  jsonp(body?: unknown): this {
    return this.json(body);
  }

  redirect(a: unknown, b?: unknown): this {
    const [status, url] = typeof a === 'number' ? [a, b] : [typeof b === 'number' ? b : 302, a];
    this.location(url);
    this.statusCode = status;
    this.record.redirect = String(url);
    this.end(`Redirecting to ${String(url)}`);
    return this;
  }

  /** Records the view; the callback gets an HTML stand-in, else it is sent. */
  render(view: string, options?: unknown, callback?: unknown): this {
    const cb = typeof options === 'function' ? options : callback;
    const html = `<html><body>${String(view)}</body></html>`;
    this.record.view = String(view);
    if (typeof cb === 'function') cb(null, html);
    else this.send(html);
    return this;
  }

  sendFile(path: unknown, options?: unknown, callback?: unknown): this {
    const cb = typeof options === 'function' ? options : callback;
    if (this.headersSent) throw new HeadersSentError('set');
    this.record.body = `file ${String(path)}`;
    this.end();
    if (typeof cb === 'function') soon(() => cb());
    return this;
  }

  download(path: unknown, filename?: unknown, ...rest: unknown[]): this {
    this.attachment(typeof filename === 'string' ? filename : String(path).split('/').pop());
    const cb = [filename, ...rest].find((a) => typeof a === 'function');
    return this.sendFile(path, cb);
  }

  /** Runs the handler for the first type listed (a client that accepts anything). */
  format(handlers: Record<string, unknown>): this {
    const key = Object.keys(handlers).find((k) => k !== 'default') ?? 'default';
    const fn = handlers[key];
    if (key !== 'default') this.type(key);
    if (typeof fn === 'function') fn.call(handlers, this.req, this);
    return this;
  }
}
