/**
 * `location` and `history` of a page at http://localhost/: URLs resolve against the current one;
 * pushState/replaceState change the location without an event, as in a browser; setting the hash
 * queues a hashchange, back/forward a popstate. Nothing is loaded: navigation is not modelled.
 */

/** The parts of an absolute http(s) URL. */
interface Parts {
  protocol: string;
  host: string;
  pathname: string;
  search: string;
  hash: string;
}

const ABSOLUTE = /^([a-zA-Z][\w+.-]*:)\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;

/** Resolves `ref` against `base`, as a browser does for a link (no percent-encoding, no IDNA). */
export function resolveUrl(ref: string, base: Parts): Parts {
  const s = String(ref).trim();
  const abs = ABSOLUTE.exec(s) ?? (s.startsWith('//') ? ABSOLUTE.exec(base.protocol + s) : null);
  if (abs) return { protocol: (abs[1] as string).toLowerCase(), host: (abs[2] as string).toLowerCase(), pathname: normalize(abs[3] || '/'), search: abs[4] === '?' ? '' : (abs[4] ?? ''), hash: abs[5] === '#' ? '' : (abs[5] ?? '') };
  const m = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(s) as RegExpExecArray;
  const [path, search, hash] = [m[1] ?? '', m[2], m[3]];
  if (path === '' && search === undefined) return { ...base, hash: hash === '#' || hash === undefined ? '' : hash };
  const pathname = path === '' ? base.pathname : path.startsWith('/') ? normalize(path) : normalize(base.pathname.replace(/[^/]*$/, '') + path);
  return { ...base, pathname, search: search === undefined || search === '?' ? '' : search, hash: hash === undefined || hash === '#' ? '' : hash };
}

function normalize(path: string): string {
  const out: string[] = [];
  const segments = path.split('/');
  for (const [i, seg] of segments.entries()) {
    if (seg === '..') out.length > 1 ? out.pop() : undefined;
    else if (seg !== '.') out.push(seg);
    if ((seg === '..' || seg === '.') && i === segments.length - 1) out.push('');
  }
  const joined = out.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}

const href = (p: Parts) => `${p.protocol}//${p.host}${p.pathname}${p.search}${p.hash}`;

export interface LocationHooks {
  /** Queues a task (the runtime's setTimeout), for the events navigation fires. */
  later(fn: () => void): void;
  /** Fires an event at the window. */
  fire(type: 'hashchange' | 'popstate', init: Record<string, unknown>): void;
}

/** Creates the page's `location` and `history`, at `start`. */
export function createLocation(start: string, hooks: LocationHooks): { location: object; history: object } {
  let current = resolveUrl(start, { protocol: 'http:', host: 'localhost', pathname: '/', search: '', hash: '' });
  const entries: { url: Parts; state: unknown }[] = [{ url: current, state: null }];
  let index = 0;
  const go = (next: Parts, replace: boolean) => {
    const old = href(current);
    const hashOnly = next.protocol === current.protocol && next.host === current.host && next.pathname === current.pathname && next.search === current.search;
    current = next;
    if (replace) entries[index] = { url: next, state: null };
    else entries.splice(++index, entries.length, { url: next, state: null });
    if (hashOnly && old !== href(next)) hooks.later(() => hooks.fire('hashchange', { oldURL: old, newURL: href(next) }));
  };
  const part = (key: keyof Parts, prefix = '') => ({
    get: () => current[key],
    set: (v: unknown) => {
      let s = String(v);
      if (prefix && s !== '' && !s.startsWith(prefix)) s = prefix + s;
      go({ ...current, [key]: key === 'protocol' ? s.replace(/:?$/, ':') : s }, false);
    },
    enumerable: true,
  });
  const hostname = () => current.host.replace(/:\d+$/, '');
  const port = () => /:(\d+)$/.exec(current.host)?.[1] ?? '';
  const location = Object.create(
    { [Symbol.toStringTag]: 'Location' },
    {
      href: { get: () => href(current), set: (v: unknown) => go(resolveUrl(String(v), current), false), enumerable: true },
      origin: { get: () => `${current.protocol}//${current.host}`, enumerable: true },
      protocol: part('protocol'),
      host: part('host'),
      hostname: { get: hostname, set: (v: unknown) => go({ ...current, host: String(v) + (port() ? `:${port()}` : '') }, false), enumerable: true },
      port: { get: port, set: (v: unknown) => go({ ...current, host: hostname() + (String(v) ? `:${String(v)}` : '') }, false), enumerable: true },
      pathname: part('pathname', '/'),
      search: part('search', '?'),
      hash: part('hash', '#'),
      ancestorOrigins: { value: [], enumerable: true },
      assign: { value: (url: unknown) => go(resolveUrl(String(url), current), false) },
      replace: { value: (url: unknown) => go(resolveUrl(String(url), current), true) },
      reload: { value: () => undefined },
      toString: { value: () => href(current) },
      valueOf: { value() { return location; } },
    },
  ) as object;
  const move = (delta: number) => {
    const target = index + delta;
    if (target < 0 || target >= entries.length || delta === 0) return;
    hooks.later(() => {
      index = target;
      const entry = entries[index] as { url: Parts; state: unknown };
      current = entry.url;
      hooks.fire('popstate', { state: entry.state });
    });
  };
  const history = Object.create(
    { [Symbol.toStringTag]: 'History' },
    {
      length: { get: () => entries.length, enumerable: true },
      state: { get: () => entries[index]?.state ?? null, enumerable: true },
      scrollRestoration: { value: 'auto', writable: true, enumerable: true },
      pushState: { value: (state: unknown, _title: unknown, url?: unknown) => {
        current = url === undefined || url === null ? current : resolveUrl(String(url), current);
        entries.splice(++index, entries.length, { url: current, state: state ?? null });
      } },
      replaceState: { value: (state: unknown, _title: unknown, url?: unknown) => {
        current = url === undefined || url === null ? current : resolveUrl(String(url), current);
        entries[index] = { url: current, state: state ?? null };
      } },
      back: { value: () => move(-1) },
      forward: { value: () => move(1) },
      go: { value: (delta?: unknown) => move(Number(delta) || 0) },
    },
  ) as object;
  return { location, history };
}
