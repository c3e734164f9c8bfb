import punycode from 'punycode/';
import { isSpecial, parseHost, parsePath, parseUrl, percentEncode, serializeAuthority, serializePath, serializeUrl, SPECIAL_PORTS, type UrlRecord } from './urlParser.ts';
import { URLSearchParamsModel } from './urlSearchParams.ts';

export { URLSearchParamsModel };

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * WHATWG `URL` for an isolate that has none, over urlParser.ts: parts read and written as the
 * standard names them, `searchParams` linked to the query, relative resolution against a base.
 * Its state is private: like Node's URL it has no own enumerable properties.
 */
export class URLModel {
  #record: UrlRecord;
  readonly #params = new URLSearchParamsModel();

  constructor(input: unknown, base?: unknown) {
    const baseRecord = base === undefined ? undefined : new URLModel(base).#record;
    this.#record = parseUrl(String(input), baseRecord);
    this.#linkParams();
  }

  static canParse(input: unknown, base?: unknown): boolean {
    return URLModel.parse(input, base) !== null;
  }

  static parse(input: unknown, base?: unknown): URLModel | null {
    try {
      return new URLModel(input, base);
    } catch {
      return null;
    }
  }

  #linkParams(): void {
    URLSearchParamsModel.link(this.#params, this.#record.query ?? '', () => {
      const serialised = this.#params.toString();
      this.#record.query = serialised === '' ? null : serialised;
    });
  }

  get href(): string { return serializeUrl(this.#record); }
  set href(value: string) {
    this.#record = parseUrl(String(value));
    this.#linkParams();
  }

  get origin(): string {
    const r = this.#record;
    if (r.scheme === 'blob') {
      const inner = URLModel.parse(serializePath(r));
      return inner !== null && (inner.protocol === 'http:' || inner.protocol === 'https:') ? inner.origin : 'null';
    }
    return isSpecial(r.scheme) && r.scheme !== 'file' ? `${r.scheme}:${serializeAuthority({ ...r, username: '', password: '' })}` : 'null';
  }

  get protocol(): string { return `${this.#record.scheme}:`; }
  set protocol(value: string) {
    const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*/.exec(String(value))?.[0]?.toLowerCase();
    // the standard keeps a URL special, or not, across a change of scheme
    if (scheme === undefined || isSpecial(scheme) !== isSpecial(this.#record.scheme)) return;
    this.#record.scheme = scheme;
    if (SPECIAL_PORTS[scheme] === this.#record.port) this.#record.port = '';
  }

  get username(): string { return this.#record.username; }
  set username(value: string) { if (this.#hasCredentials()) this.#record.username = percentEncode(String(value), 'userinfo'); }
  get password(): string { return this.#record.password; }
  set password(value: string) { if (this.#hasCredentials()) this.#record.password = percentEncode(String(value), 'userinfo'); }
  #hasCredentials(): boolean { return this.#record.host !== null && this.#record.host !== '' && this.#record.scheme !== 'file'; }

  get host(): string {
    const { host, port } = this.#record;
    return host === null ? '' : port !== '' ? `${host}:${port}` : host;
  }
  set host(value: string) {
    const text = String(value);
    const portAt = text.startsWith('[') ? text.indexOf(':', text.indexOf(']')) : text.lastIndexOf(':');
    this.hostname = portAt < 0 ? text : text.slice(0, portAt);
    if (portAt >= 0) this.port = text.slice(portAt + 1);
  }
  get hostname(): string { return this.#record.host ?? ''; }
  set hostname(value: string) {
    if (typeof this.#record.path === 'string') return;
    try {
      this.#record.host = parseHost(String(value).split(/[/?#]/)[0] ?? '', isSpecial(this.#record.scheme), String(value));
    } catch {
      // the standard ignores a host it cannot parse
    }
  }
  get port(): string { return this.#record.port; }
  set port(value: string) {
    const digits = /^\d*/.exec(String(value))?.[0] ?? '';
    if (this.#record.host === null || this.#record.host === '' || this.#record.scheme === 'file') return;
    if (digits === '') {
      if (String(value) === '') this.#record.port = '';
      return;
    }
    if (Number(digits) > 65535) return;
    const port = String(Number(digits));
    this.#record.port = SPECIAL_PORTS[this.#record.scheme] === port ? '' : port;
  }

  get pathname(): string {
    const path = this.#record.path;
    return typeof path === 'string' ? path : path.map((s) => `/${s}`).join('');
  }
  set pathname(value: string) {
    if (typeof this.#record.path === 'string') return;
    const special = isSpecial(this.#record.scheme);
    const path = parsePath(String(value), special);
    this.#record.path = special && path.length === 0 ? [''] : path;
  }

  get search(): string { return this.#record.query ? `?${this.#record.query}` : ''; }
  set search(value: string) {
    const text = String(value).replace(/^\?/, '');
    this.#record.query = text === '' ? null : percentEncode(text, isSpecial(this.#record.scheme) ? 'specialQuery' : 'query');
    this.#linkParams();
  }
  get searchParams(): URLSearchParamsModel { return this.#params; }

  get hash(): string { return this.#record.fragment ? `#${this.#record.fragment}` : ''; }
  set hash(value: string) {
    const text = String(value).replace(/^#/, '');
    this.#record.fragment = text === '' ? null : percentEncode(text, 'fragment');
  }

  toString(): string { return this.href; }
  toJSON(): string { return this.href; }
  get [Symbol.toStringTag](): string { return 'URL'; }

  /** util.inspect and console.log show the parts, as Node's URL does. */
  [INSPECT](): object {
    const view = new (class URL {})();
    return Object.assign(view, {
      href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password,
      host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search,
      searchParams: this.searchParams, hash: this.hash,
    });
  }
}

Object.defineProperty(URLModel, 'name', { value: 'URL' });

/** `url.fileURLToPath`: a `file:` URL's path, percent-decoded. */
export function fileURLToPath(u: string | URLModel): string {
  const parsed = typeof u === 'string' ? new URLModel(u) : u;
  if (parsed.protocol !== 'file:') throw Object.assign(new TypeError('The URL must be of scheme file'), { code: 'ERR_INVALID_URL_SCHEME' });
  return decodeURIComponent(parsed.pathname);
}

/** `url.pathToFileURL`: an absolute path (from /app when relative) as a `file:` URL. */
export function pathToFileURL(path: string, cwd: string): URLModel {
  const absolute = String(path).startsWith('/') ? String(path) : `${cwd}/${String(path)}`;
  return new URLModel(`file://${percentEncode(absolute.replace(/%/g, '%25'), 'path')}`);
}

/** `url.format(URL, options)`: the URL's href without the parts the options leave out (auth, search, fragment), as Node's. */
export function formatUrl(u: URLModel, options: { auth?: unknown; fragment?: unknown; search?: unknown; unicode?: unknown } = {}): string {
  const auth = options.auth !== false && (u.username !== '' || u.password !== '') ? `${u.username}${u.password !== '' ? `:${u.password}` : ''}@` : '';
  const hostname = options.unicode === true ? punycode.toUnicode(u.hostname) : u.hostname;
  const host = u.host === '' && !u.href.startsWith(`${u.protocol}//`) ? '' : `//${auth}${hostname}${u.port !== '' ? `:${u.port}` : ''}`;
  return `${u.protocol}${host}${u.pathname}${options.search !== false ? u.search : ''}${options.fragment !== false ? u.hash : ''}`;
}
