import type { EnvironmentHost } from '../../../protocol/environment.ts';

/**
 * `process.env`: a variable the snippet reads that nobody set is asked of the value generator
 * (`process.env.NAME`), once; what it gives becomes a string, as every real variable is. A
 * recording proxy (trace mode's learning run) is kept as it is, so its use is learnt.
 */
export function createEnv(host: EnvironmentHost, initial: Readonly<Record<string, string>>): Record<string, string | undefined> {
  const known: Record<string, unknown> = Object.create(null);
  const asked = new Set<string>();
  Object.assign(known, initial);
  const ask = (name: string): void => {
    if (asked.has(name) || name in known) return;
    asked.add(name);
    const v = host.valueOf(`process.env.${name}`, `process.env.${name} is undefined`);
    if (v === undefined || v === null) return;
    known[name] = host.isProbe(v) || typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  return new Proxy(known, {
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      ask(key);
      return target[key];
    },
    has(target, key) {
      if (typeof key !== 'string') return false;
      ask(key);
      return key in target;
    },
    set(target, key, value) {
      if (typeof key === 'string') target[key] = String(value); // Node stores every variable as a string
      return true;
    },
    deleteProperty(target, key) {
      if (typeof key === 'string') {
        asked.add(key); // deleted on purpose: not asked for again
        delete target[key];
      }
      return true;
    },
    ownKeys(target) {
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key !== 'string' || !(key in target)) return undefined;
      return { value: target[key], writable: true, enumerable: true, configurable: true };
    },
  }) as Record<string, string | undefined>;
}
