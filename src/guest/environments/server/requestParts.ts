/**
 * The parts of a request shaped from usage (query, body, headers, cookies …): asked of the value
 * generator only when the handler first reads them, under an id that names the route
 * (`GET /users/:id req.body`), so each route's parts are learnt on their own.
 */
import { isProbe, learnt, probeText } from './serverHost.ts';

/** Defines `name` on obj as a value computed on first read; the handler may assign it. */
export function defineLazy(obj: object, name: string, compute: () => unknown): void {
  let known = false;
  let value: unknown;
  Object.defineProperty(obj, name, {
    configurable: true,
    enumerable: true,
    get() {
      if (!known) {
        value = compute();
        known = true;
      }
      return value;
    },
    set(v: unknown) {
      known = true;
      value = v;
    },
  });
}

/** Whether a request of this method carries a body. */
export function hasBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** The learnt value of a request part, `{}` when nothing is known (a probe as it is). */
export function learntPart(id: string, what: string): unknown {
  const v = learnt(id, `${what} is not known`);
  return v === undefined || v === null ? {} : v;
}

/** An object part (query, params-like): a learnt non-object is replaced by `{}`. */
export function learntRecord(id: string, what: string): Record<string, unknown> {
  const v = learntPart(id, what);
  return typeof v === 'object' || typeof v === 'function' ? (v as Record<string, unknown>) : {};
}

/**
 * The request headers: the learnt ones (names lower-cased, as Node gives them) over the headers
 * every client sends. A recording proxy is returned as it is, so reading a header records it.
 */
export function requestHeaders(id: string, method: string): Record<string, unknown> {
  const v = learnt(id, 'the request headers are not known');
  if (isProbe(v)) return v as Record<string, unknown>;
  const headers: Record<string, unknown> = { host: 'localhost:3000', 'user-agent': 'Mozilla/5.0', accept: '*/*', connection: 'keep-alive' };
  if (hasBody(method)) headers['content-type'] = 'application/json';
  if (typeof v === 'object' && v !== null) for (const k of Object.keys(v)) headers[k.toLowerCase()] = (v as Record<string, unknown>)[k];
  return headers;
}

/** A header by name, as `req.get`: case-insensitive, `referer` and `referrer` alike. */
export function headerOf(headers: Record<string, unknown>, name: unknown): unknown {
  const key = String(name).toLowerCase();
  if (key === 'referer' || key === 'referrer') return headers.referer ?? headers.referrer;
  return headers[key];
}

/**
 * The raw body text of a request's stream: JSON text of a plain learnt body, `{}` when unknown; for
 * a body that is a recording proxy, the text standing for it when `id` names it (probeText), so a
 * body the handler JSON.parses is learnt as JSON.
 */
export function rawBodyText(method: string, body: () => unknown, id?: string): () => string {
  return () => {
    if (!hasBody(method)) return '';
    const v = body();
    if (typeof v === 'string') return v;
    if (isProbe(v) && id !== undefined) return probeText(v, id);
    if (isProbe(v) || typeof v !== 'object' || v === null) return '{}';
    try {
      return JSON.stringify(v) ?? '{}';
    } catch {
      return '{}';
    }
  };
}

/** `type` matched against a content type, as `req.is`: the type, or false. */
export function typeIs(contentType: unknown, types: readonly unknown[]): string | false | null {
  if (typeof contentType !== 'string' || contentType === '') return null;
  const actual = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (types.length === 0) return actual;
  for (const t of types.flat()) {
    const want = String(t).toLowerCase();
    const full = want.includes('/') ? want : want === 'json' ? 'application/json' : want === 'urlencoded' ? 'application/x-www-form-urlencoded' : want === 'html' || want === 'text' ? `text/${want}` : `*/${want}`;
    const [wt, ws] = full.split('/');
    const [at, as] = actual.split('/');
    if ((wt === '*' || wt === at) && (ws === '*' || ws === as || (ws === 'json' && as?.endsWith('+json')))) return String(t);
  }
  return false;
}
