/** WHATWG URLSearchParams for an isolate that has none (the node environment's `URL` links one to each URL). */

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

  /** Links the parameters to a URL: they are its query, and `onChange` tells it of each change. @internal */
  static link(params: URLSearchParamsModel, query: string, onChange: () => void): void {
    params.#pairs = [];
    params.#parse(query);
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

Object.defineProperty(URLSearchParamsModel, 'name', { value: 'URLSearchParams' });
