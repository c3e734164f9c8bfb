import * as legacy from 'url';

/**
 * `URL` and `URLSearchParams` for an isolate that has neither: WHATWG's interface over the `url`
 * package's parser. It covers what snippets do with them (parts, setters, search parameters,
 * relative resolution); it does not implement the standard's parser (IDNA, percent-encoding sets).
 */

const SPECIAL_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };

const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

type ParamsInit = string | Iterable<readonly [string, string]> | Record<string, string> | URLSearchParamsModel | undefined;

/** WHATWG URLSearchParams: ordered name/value pairs, serialised as application/x-www-form-urlencoded. */
export class URLSearchParamsModel {
  #pairs: [string, string][] = [];
  #onChange: (() => void) | undefined;

  constructor(init?: ParamsInit) {
    if (init === undefined || init === null) return;
    if (typeof init === 'string') this.#parse(init);
    else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const pair of init as Iterable<Iterable<unknown>>) {
        const items = [...pair];
        if (items.length !== 2) throw new TypeError('Each query pair must be an iterable [name, value] tuple');
        this.#pairs.push([String(items[0]), String(items[1])]);
      }
    } else for (const key of Object.keys(init)) this.#pairs.push([key, String((init as Record<string, unknown>)[key])]);
  }

  /** Links the parameters to a URL, whose search follows them. @internal */
  static link(params: URLSearchParamsModel, search: string, onChange: () => void): void {
    params.#pairs = [];
    params.#parse(search);
    params.#onChange = onChange;
  }

  #parse(text: string): void {
    for (const part of text.replace(/^\?/, '').split('&')) {
      if (part === '') continue;
      const at = part.indexOf('=');
      this.#pairs.push(at < 0 ? [decode(part), ''] : [decode(part.slice(0, at)), decode(part.slice(at + 1))]);
    }
  }

  #changed(): void {
    this.#onChange?.();
  }

  get size(): number { return this.#pairs.length; }
  append(name: string, value: string): void { this.#pairs.push([String(name), String(value)]); this.#changed(); }
  delete(name: string, value?: string): void {
    this.#pairs = this.#pairs.filter(([n, v]) => n !== String(name) || (value !== undefined && v !== String(value)));
    this.#changed();
  }
  get(name: string): string | null { return this.#pairs.find(([n]) => n === String(name))?.[1] ?? null; }
  getAll(name: string): string[] { return this.#pairs.filter(([n]) => n === String(name)).map(([, v]) => v); }
  has(name: string, value?: string): boolean { return this.#pairs.some(([n, v]) => n === String(name) && (value === undefined || v === String(value))); }
  set(name: string, value: string): void {
    const at = this.#pairs.findIndex(([n]) => n === String(name));
    if (at < 0) this.#pairs.push([String(name), String(value)]);
    else {
      this.#pairs[at] = [String(name), String(value)];
      this.#pairs = this.#pairs.filter(([n], i) => i <= at || n !== String(name));
    }
    this.#changed();
  }
  sort(): void { this.#pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); this.#changed(); }
  forEach(fn: (value: string, name: string, params: URLSearchParamsModel) => void, thisArg?: unknown): void {
    for (const [n, v] of [...this.#pairs]) fn.call(thisArg, v, n, this);
  }
  *entries(): IterableIterator<[string, string]> { for (const [n, v] of this.#pairs) yield [n, v]; }
  *keys(): IterableIterator<string> { for (const [n] of this.#pairs) yield n; }
  *values(): IterableIterator<string> { for (const [, v] of this.#pairs) yield v; }
  [Symbol.iterator](): IterableIterator<[string, string]> { return this.entries(); }
  toString(): string { return this.#pairs.map(([n, v]) => `${encode(n)}=${encode(v)}`).join('&'); }
  get [Symbol.toStringTag](): string { return 'URLSearchParams'; }
}

function invalid(input: string): TypeError {
  return Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL', input });
}

/** WHATWG URL over the legacy parser: parts are read and written as the standard names them. */
export class URLModel {
  protocol = '';
  username = '';
  password = '';
  hostname = '';
  #port = '';
  pathname = '';
  #search = '';
  #hash = '';
  readonly searchParams = new URLSearchParamsModel();

  constructor(input: string | URLModel, base?: string | URLModel) {
    let text = String(input).trim();
    if (base !== undefined) text = legacy.resolve(new URLModel(base).href, text);
    this.href = text;
  }

  static canParse(input: string, base?: string): boolean {
    try {
      new URLModel(input, base);
      return true;
    } catch {
      return false;
    }
  }

  static parse(input: string, base?: string): URLModel | null {
    try {
      return new URLModel(input, base);
    } catch {
      return null;
    }
  }

  get href(): string {
    const special = this.protocol in SPECIAL_PORTS;
    const auth = this.username || this.password ? `${this.username}${this.password ? `:${this.password}` : ''}@` : '';
    const authority = special || this.hostname ? `//${auth}${this.host}` : '';
    return `${this.protocol}${authority}${this.pathname}${this.search}${this.hash}`;
  }

  set href(text: string) {
    const parsed = legacy.parse(String(text));
    if (!parsed.protocol || !/^[a-z][a-z0-9+.-]*:$/i.test(parsed.protocol)) throw invalid(String(text));
    this.protocol = parsed.protocol.toLowerCase();
    const special = this.protocol in SPECIAL_PORTS;
    if (special && this.protocol !== 'file:' && !parsed.hostname) throw invalid(String(text));
    const [user = '', pass = ''] = (parsed.auth ?? '').split(/:(.*)/s);
    this.username = user;
    this.password = pass;
    this.hostname = special ? (parsed.hostname ?? '').toLowerCase() : parsed.hostname ?? '';
    this.port = parsed.port ?? '';
    this.pathname = parsed.pathname ?? (special ? '/' : '');
    this.search = parsed.search ?? '';
    this.hash = parsed.hash ?? '';
  }

  get port(): string { return this.#port; }
  set port(value: string) {
    const port = String(value);
    this.#port = SPECIAL_PORTS[this.protocol] === port ? '' : port;
  }
  get host(): string { return this.#port ? `${this.hostname}:${this.#port}` : this.hostname; }
  set host(value: string) {
    const [hostname = '', port = ''] = String(value).split(':');
    this.hostname = hostname;
    this.port = port;
  }
  get origin(): string { return this.protocol in SPECIAL_PORTS && this.protocol !== 'file:' ? `${this.protocol}//${this.host}` : 'null'; }
  get search(): string { return this.#search.length > 1 ? this.#search : ''; }
  set search(value: string) {
    const text = String(value);
    this.#search = text === '' ? '' : text.startsWith('?') ? text : `?${text}`;
    URLSearchParamsModel.link(this.searchParams, this.#search, () => {
      const serialised = this.searchParams.toString();
      this.#search = serialised ? `?${serialised}` : '';
    });
  }
  get hash(): string { return this.#hash.length > 1 ? this.#hash : ''; }
  set hash(value: string) {
    const text = String(value);
    this.#hash = text === '' ? '' : text.startsWith('#') ? text : `#${text}`;
  }
  toString(): string { return this.href; }
  toJSON(): string { return this.href; }
  get [Symbol.toStringTag](): string { return 'URL'; }
}

/** `url.fileURLToPath`: a `file:` URL's path, percent-decoded. */
export function fileURLToPath(u: string | URLModel): string {
  const parsed = typeof u === 'string' ? new URLModel(u) : u;
  if (parsed.protocol !== 'file:') throw Object.assign(new TypeError('The URL must be of scheme file'), { code: 'ERR_INVALID_URL_SCHEME' });
  return decodeURIComponent(parsed.pathname);
}

/** `url.pathToFileURL`: an absolute path (from /app when relative) as a `file:` URL. */
export function pathToFileURL(path: string, cwd: string): URLModel {
  const absolute = String(path).startsWith('/') ? String(path) : `${cwd}/${String(path)}`;
  return new URLModel(`file://${absolute.split('/').map(encodeURIComponent).join('/')}`);
}
