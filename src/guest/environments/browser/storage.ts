/**
 * `localStorage` and `sessionStorage`: in-memory Storage, empty at the start of a run, with the
 * Web Storage interface and named-property access (`localStorage.theme = 'dark'`).
 */

const stores = new WeakMap<object, Map<string, string>>();
const storeOf = (s: object): Map<string, string> => {
  const store = stores.get(s);
  if (!store) throw new TypeError('Illegal invocation');
  return store;
};

/** The Storage interface; its instances are proxies so named properties read and write items. */
export class Storage {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get length(): number { return storeOf(this).size; }
  key(index: number): string | null { return [...storeOf(this).keys()][Number(index)] ?? null; }
  getItem(key: string): string | null { return storeOf(this).get(String(key)) ?? null; }
  setItem(key: string, value: unknown): void {
    if (arguments.length < 2) throw new TypeError(`Failed to execute 'setItem' on 'Storage': 2 arguments required, but only ${arguments.length} present.`);
    storeOf(this).set(String(key), String(value));
  }
  removeItem(key: string): void { storeOf(this).delete(String(key)); }
  clear(): void { storeOf(this).clear(); }
  get [Symbol.toStringTag](): string { return 'Storage'; }
}

/** A new, empty Storage. */
export function createStorage(): Storage {
  const target = Object.create(Storage.prototype) as Storage;
  const store = new Map<string, string>();
  const own = (key: string | symbol): key is string => typeof key === 'string' && !(key in Storage.prototype) && store.has(key);
  const proxy = new Proxy(target, {
    get: (t, key, receiver) => (own(key) ? store.get(key) : Reflect.get(t, key, receiver)),
    set: (t, key, value) => {
      if (typeof key === 'symbol' || key in Storage.prototype) return Reflect.set(t, key, value);
      store.set(key, String(value));
      return true;
    },
    has: (t, key) => own(key) || Reflect.has(t, key),
    deleteProperty: (t, key) => (own(key) ? store.delete(key) : Reflect.deleteProperty(t, key)),
    ownKeys: (t) => [...store.keys(), ...Reflect.ownKeys(t)],
    getOwnPropertyDescriptor: (t, key) => (own(key) ? { value: store.get(key), writable: true, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, key)),
    defineProperty: (t, key, d) => {
      if (typeof key === 'symbol') return Reflect.defineProperty(t, key, d);
      store.set(key, String(d.value));
      return true;
    },
  });
  stores.set(target, store);
  stores.set(proxy, store);
  return proxy;
}
