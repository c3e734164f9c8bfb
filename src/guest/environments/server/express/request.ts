/**
 * Express's request: an IncomingMessage with `params` from the route, and `query`, `body`,
 * `headers`, `cookies`, `session`, `user` shaped from how the handler reads them.
 */
import { IncomingMessage } from '../nodeHttp.ts';
import { defineLazy, headerOf, learntPart, learntRecord, rawBodyText, requestHeaders, typeIs } from '../requestParts.ts';
import { learnt } from '../serverHost.ts';

/** The request of one driven route: `label` names it in value ids (`GET /users/:id`). */
export class ExpressRequest extends IncomingMessage {
  params: Record<string, string> = {};
  baseUrl = '';
  originalUrl: string;
  signedCookies: Record<string, unknown> = {};
  route: unknown = undefined;
  app: unknown;
  res: unknown = undefined;
  declare query: Record<string, unknown>;
  declare body: unknown;
  declare cookies: Record<string, unknown>;

  constructor(app: unknown, method: string, url: string, label: string) {
    const parts: { body?: () => unknown } = {};
    super({ method, url, rawBody: rawBodyText(method, () => parts.body?.()) });
    parts.body = () => this.body;
    this.app = app;
    this.originalUrl = url;
    defineLazy(this, 'headers', () => requestHeaders(`${label} req.headers`, method));
    defineLazy(this, 'query', () => learntRecord(`${label} req.query`, `req.query of ${label}`));
    defineLazy(this, 'body', () => learntPart(`${label} req.body`, `req.body of ${label}`));
    defineLazy(this, 'cookies', () => learntRecord(`${label} req.cookies`, `req.cookies of ${label}`));
    defineLazy(this, 'session', () => learntPart(`${label} req.session`, `req.session of ${label}`));
    // Set by authentication middleware the snippet leaves out: undefined when nothing is known.
    defineLazy(this, 'user', () => learnt(`${label} req.user`, `req.user of ${label} is not known`));
  }

  get path(): string {
    const q = this.url.indexOf('?');
    return q < 0 ? this.url : this.url.slice(0, q);
  }

  get hostname(): string {
    return 'localhost';
  }

  get host(): string {
    return 'localhost:3000';
  }

  get ip(): string {
    return '127.0.0.1';
  }

  get ips(): string[] {
    return [];
  }

  get protocol(): string {
    return 'http';
  }

  get secure(): boolean {
    return false;
  }

  get xhr(): boolean {
    return false;
  }

  get fresh(): boolean {
    return false;
  }

  get stale(): boolean {
    return true;
  }

  get subdomains(): string[] {
    return [];
  }

  get(name: unknown): unknown {
    return headerOf(this.headers, name);
  }

  header(name: unknown): unknown {
    return this.get(name);
  }

  is(...types: unknown[]): string | false | null {
    return typeIs(this.get('content-type'), types);
  }

  accepts(...types: unknown[]): unknown {
    const list = types.flat();
    return list.length === 0 ? ['*/*'] : list[0];
  }

  acceptsLanguages(...langs: unknown[]): unknown {
    return langs.flat()[0] ?? 'en';
  }

  acceptsCharsets(...sets: unknown[]): unknown {
    return sets.flat()[0] ?? 'utf-8';
  }

  acceptsEncodings(...encodings: unknown[]): unknown {
    return encodings.flat()[0] ?? 'identity';
  }

  /** Express 4's deprecated lookup: params, then body, then query. */
  param(name: string, fallback?: unknown): unknown {
    const body = this.body as Record<string, unknown> | undefined;
    if (Object.prototype.hasOwnProperty.call(this.params, name)) return this.params[name];
    if (body && typeof body === 'object' && body[name] !== undefined) return body[name];
    if (this.query[name] !== undefined) return this.query[name];
    return fallback;
  }

  range(): undefined {
    return undefined;
  }
}
