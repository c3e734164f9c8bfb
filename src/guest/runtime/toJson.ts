import { apply, getOwnPropertyDescriptor, isArray, objHasOwn, ownKeys, StringCtor, stringify } from './primordials.ts';

/**
 * JSON text of the runtime's own plain data, for the host. JSON.stringify would call a `toJSON`
 * the snippet put on Object.prototype or Array.prototype and run its getters; this reads own data
 * properties only, with index loops, so nothing the snippet changed takes part.
 */
export function toJson(v: unknown, depth = 0): string {
  if (depth > 64) return 'null';
  if (typeof v === 'string') return stringify(v);
  if (typeof v === 'number') return v === v && v !== 1 / 0 && v !== -1 / 0 ? StringCtor(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || typeof v !== 'object') return 'null';
  let out = '';
  if (isArray(v)) {
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + toJson(ownValue(v, i), depth + 1);
    return `[${out}]`;
  }
  const keys = ownKeys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (typeof k !== 'string') continue;
    const value = ownValue(v, k);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out += (out === '' ? '' : ',') + stringify(k) + ':' + toJson(value, depth + 1);
  }
  return `{${out}}`;
}

function ownValue(o: object, k: string | number): unknown {
  const d = getOwnPropertyDescriptor(o, k);
  return d !== undefined && apply(objHasOwn, d, ['value']) ? d.value : undefined;
}
