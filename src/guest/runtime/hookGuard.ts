/**
 * The snippet cannot name the hook object: its name is derived from the snippet's source, and the
 * two ways code could still reach a name in the snippet's scope are closed here: `with (o)`, whose
 * o could answer for the hook's name, and a direct eval of code that names it.
 */
import { rec } from './ownData.ts';
import { apply, fromCodePoint, ObjectFreeze, parseIntFn, reflectHas, strIndexOf, strSlice } from './primordials.ts';
import { config } from './run.ts';

/** Whether a name is the hook's, or one the instrumenter derives from it (`<hook>_e`). */
function isHookName(k: PropertyKey): boolean {
  return typeof k === 'string' && apply(strSlice, k, [0, config.hook.length]) === config.hook;
}
/** The handler of the proxy `with (o)` gets instead of o: its has says false for the hook's names. */
export const WITH_HANDLER: ProxyHandler<object> = ObjectFreeze(
  rec<ProxyHandler<object>>({
    has(target: object, k: PropertyKey) {
      return isHookName(k) ? false : reflectHas(target, k);
    },
  }),
);
/** Whether source text names the hook, escapes (`\u005f`) decoded as the parser would. */
export function namesHook(code: string): boolean {
  if (apply(strIndexOf, code, [config.hook]) >= 0) return true;
  if (apply(strIndexOf, code, ['\\u']) < 0) return false;
  let decoded = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\\' && code[i + 1] === 'u') {
      const braced = code[i + 2] === '{';
      const end = braced ? apply(strIndexOf, code, ['}', i + 3]) : i + 6;
      const hex = apply(strSlice, code, [braced ? i + 3 : i + 2, end]);
      const n = parseIntFn(hex, 16);
      if (end > i && n === n) {
        decoded += fromCodePoint(n);
        i = braced ? end : end - 1;
        continue;
      }
    }
    decoded += ch;
  }
  return apply(strIndexOf, decoded, [config.hook]) >= 0;
}
