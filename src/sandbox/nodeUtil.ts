import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type ivm from 'isolated-vm';
import { NODE_UTIL_GLOBAL } from '../protocol/runtime.ts';

/**
 * Node's util.inspect (node-inspect-extracted, one self-contained webpack bundle), which the console
 * prints with: evaluating it takes 10-20 ms, so it is evaluated once, into the startup snapshot, and
 * the runtime takes it off the global object before any other code runs. It reads a global URL (to
 * print URL objects, which an isolate has none of): it gets a class of its own.
 */
export function nodeUtilScript(): ivm.SnapshotScriptInfo {
  source ??= withoutUnreadPrimordials(readFileSync(createRequire(import.meta.url).resolve('node-inspect-extracted'), 'utf8'));
  const code = `globalThis.${NODE_UTIL_GLOBAL} = (function () { const URL = class URL {}, module = { exports: {} }, exports = module.exports;\n${source}\n;return module.exports; })();`;
  return { code, filename: 'snipexec:node-util' };
}
let source: string | undefined;

/**
 * The end of the bundle's primordials module (Node's lib/internal/per_context/primordials.js),
 * minified: `ObjectSetPrototypeOf(primordials, null), ObjectFreeze(primordials), module.exports = primordials`.
 */
const PRIMORDIALS_END = /(?<setPrototypeOf>[\w$]+)\((?<primordials>[\w$]+),null\),(?<freeze>[\w$]+)\(\k<primordials>\),(?<module>[\w$]+)\.exports=\k<primordials>\}/g;

/**
 * The bundle with the primordials nothing in it reads left out. The primordials module makes one
 * bound function or copy per method of every built-in (about 800), and the bundle's modules read
 * about 150 of them, each by its name written out (`const { ArrayPrototypeMap: o } = r`): names made
 * at run time exist only inside the primordials module. Every primordial whose name is no word of
 * the bundle is deleted from the object before it is frozen (those defined non-configurable stay),
 * so the startup snapshot's context, which each run deserialises, holds about 40 KB less. The
 * source comes back unchanged when the bundle does not end its primordials module as expected
 * (another version of the package): the console then prints the same, from a larger context.
 */
export function withoutUnreadPrimordials(bundle: string): string {
  const ends = [...bundle.matchAll(PRIMORDIALS_END)];
  if (ends.length !== 1) return bundle;
  const end = ends[0] as RegExpExecArray;
  const primordials = end.groups?.primordials as string;
  const words = [...new Set(bundle.match(/[A-Za-z_$][\w$]*/g))];
  // Runs while the snapshot is made, before any other code: Reflect is the built-in.
  const trim = `(k=>{for(const n of Reflect.ownKeys(${primordials}))typeof n!=="string"||k.has(n)||Reflect.deleteProperty(${primordials},n)})(new Set(${JSON.stringify(words)})),`;
  return bundle.slice(0, end.index) + trim + bundle.slice(end.index);
}
