/**
 * Route paths as Express (path-to-regexp 0.1 and 8), Koa-router and Fastify write them: matching a
 * request path, and writing a request path that a route matches, with plausible parameter values.
 */

/** A route or mount path: a string, a RegExp, or a list of them (Express accepts all three). */
export type PathSpec = string | RegExp | readonly (string | RegExp)[];

/** A compiled path: its RegExp and the names (or indices, for unnamed groups) of its parameters. */
export interface CompiledPath {
  readonly re: RegExp;
  readonly keys: readonly (string | number)[];
}

/** The result of matching: the matched prefix and the parameters by name. */
export interface PathMatch {
  readonly path: string;
  readonly params: Record<string, string>;
}

const SPECIAL = /[.+^$|[\]\\]/;

/** Compiles a path: `end` for a route (the whole path), not for a mount point (a prefix at a `/`). */
export function compilePath(spec: PathSpec, end: boolean): CompiledPath {
  const keys: (string | number)[] = [];
  const list = Array.isArray(spec) ? spec : [spec];
  // Not strict: a trailing slash is optional, and a mount point '/' is every path.
  const trim = (p: string) => (p.length > 1 || !end ? p.replace(/\/+$/, '') : p);
  const sources = list.map((one: string | RegExp) => (one instanceof RegExp ? regexSource(one, keys) : stringSource(trim(String(one)), keys)));
  const body = sources.length === 1 ? (sources[0] ?? '') : `(?:${sources.join('|')})`;
  const tail = end ? '\\/?$' : '\\/?(?=\\/|$)';
  return { re: new RegExp(`^${body}${tail}`, 'i'), keys };
}

function regexSource(re: RegExp, keys: (string | number)[]): string {
  const groups = re.source.match(/\((?!\?)/g)?.length ?? 0;
  for (let i = 0; i < groups; i++) keys.push(keys.filter((k) => typeof k === 'number').length);
  return re.source.replace(/^\^/, '').replace(/\$$/, '');
}

function stringSource(path: string, keys: (string | number)[]): string {
  let out = '';
  let i = 0;
  const unnamed = () => keys.filter((k) => typeof k === 'number').length;
  while (i < path.length) {
    const c = path[i] ?? '';
    if (c === '\\') { out += `\\${path[i + 1] ?? ''}`; i += 2; continue; }
    if (c === ':' && /[A-Za-z_$]/.test(path[i + 1] ?? '')) {
      const name = /^[\w$]+/.exec(path.slice(i + 1))?.[0] ?? '';
      i += 1 + name.length;
      let group = '[^\\/]+?';
      if (path[i] === '(') { const g = balanced(path, i); group = g.inner; i = g.end; }
      keys.push(name);
      const mod = path[i];
      if (mod === '?' || mod === '*' || mod === '+') i++;
      if (mod === '?' && out.endsWith('\\/')) out = `${out.slice(0, -2)}(?:\\/(${group}))?`;
      else if (mod === '?') out += `(${group})?`;
      else if (mod === '*' || mod === '+') out += `((?:${group})(?:\\/(?:${group}))*)${mod === '*' ? '?' : ''}`;
      else out += `(${group})`;
      continue;
    }
    if (c === '*') {
      const name = /^[A-Za-z_$][\w$]*/.exec(path.slice(i + 1))?.[0];
      i += 1 + (name?.length ?? 0);
      keys.push(name ?? unnamed());
      out += '(.*)';
      continue;
    }
    if (c === '(') { const g = balanced(path, i); keys.push(unnamed()); out += `(${g.inner})`; i = g.end; continue; }
    if (c === '{') { out += '(?:'; i++; continue; }
    if (c === '}') { out += ')?'; i++; continue; }
    if (c === '/') { out += '\\/'; i++; continue; }
    out += SPECIAL.test(c) ? `\\${c}` : c;
    i++;
  }
  return out;
}

function balanced(path: string, start: number): { inner: string; end: number } {
  let depth = 0;
  for (let i = start; i < path.length; i++) {
    if (path[i] === '\\') { i++; continue; }
    if (path[i] === '(') depth++;
    else if (path[i] === ')' && --depth === 0) return { inner: path.slice(start + 1, i), end: i + 1 };
  }
  return { inner: path.slice(start + 1), end: path.length };
}

/** Matches a request path against a compiled path: undefined when it does not match. */
export function matchPath(compiled: CompiledPath, path: string): PathMatch | undefined {
  const m = compiled.re.exec(path);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  compiled.keys.forEach((key, i) => {
    const v = m[i + 1];
    if (v !== undefined) params[String(key)] = safeDecode(v);
  });
  return { path: m[0], params };
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

const NUMERIC_NAME = /(?:^|_)(?:id|page|limit|offset|count|num|number|year|month|day|index|idx|version|port|size|qty|quantity|n|no)$|Id$|ID$|Num$|Index$/;
const NAMED: Readonly<Record<string, string>> = {
  slug: 'hello-world', name: 'alice', username: 'alice', user: 'alice', email: 'alice@example.com', lang: 'en', locale: 'en',
  filename: 'report.txt', file: 'report.txt', format: 'json', type: 'book', category: 'books', tag: 'news', token: 'abc123',
  code: 'abc123', key: 'key1', status: 'active', q: 'search', query: 'search', path: 'docs', title: 'hello-world', date: '2024-01-15',
};

/** A plausible value for a route parameter: `:id`-like names get a numeric string ('1'), others a word. */
export function paramValue(name: string | number, constraint?: string): string {
  const n = String(name);
  const candidates = [NUMERIC_NAME.test(n) ? '1' : (NAMED[n.toLowerCase()] ?? (typeof name === 'number' ? 'example' : n.toLowerCase())), '1', 'example', 'a'];
  if (constraint === undefined) return candidates[0] ?? '1';
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${constraint})$`);
  } catch {
    return candidates[0] ?? '1';
  }
  return candidates.find((c) => re.test(c)) ?? candidates[0] ?? '1';
}

/** A request path the path matches: each parameter given its plausible value, optional parts kept. */
export function examplePath(spec: PathSpec): string {
  const one = Array.isArray(spec) ? spec[0] : spec;
  if (one === undefined || one instanceof RegExp) return '/';
  const path = String(one);
  let out = '';
  let i = 0;
  let unnamed = 0;
  while (i < path.length) {
    const c = path[i] ?? '';
    if (c === '\\') { out += path[i + 1] ?? ''; i += 2; continue; }
    if (c === ':' && /[A-Za-z_$]/.test(path[i + 1] ?? '')) {
      const name = /^[\w$]+/.exec(path.slice(i + 1))?.[0] ?? '';
      i += 1 + name.length;
      let constraint: string | undefined;
      if (path[i] === '(') { const g = balanced(path, i); constraint = g.inner; i = g.end; }
      if (path[i] === '?' || path[i] === '*' || path[i] === '+') i++;
      out += paramValue(name, constraint);
      continue;
    }
    if (c === '*') {
      const name = /^[A-Za-z_$][\w$]*/.exec(path.slice(i + 1))?.[0];
      i += 1 + (name?.length ?? 0);
      unnamed++;
      out += out.endsWith('/') || out === '' ? 'example' : '';
      continue;
    }
    if (c === '(') { const g = balanced(path, i); out += paramValue(unnamed++, g.inner); i = g.end; continue; }
    if (c === '{' || c === '}') { i++; continue; }
    out += c;
    i++;
  }
  out = out.replace(/\/{2,}/g, '/');
  return out.startsWith('/') ? out : `/${out}`;
}

/** Joins a mount prefix and a path as a request path: `/api` + `/users` is `/api/users`, `/api` + `/` is `/api`. */
export function joinPaths(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return joined === '' ? '/' : joined;
}
