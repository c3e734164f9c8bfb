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
/** Source text with its `\\u` escapes (`\\u005f`, `\\u{5f}`) decoded as the parser would read them in a name. */
function decodeEscapes(code: string): string {
  if (apply(strIndexOf, code, ['\\u']) < 0) return code;
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
  return decoded;
}
/** Whether source text names the hook, escapes (`\\u005f`) decoded as the parser would. */
export function namesHook(code: string): boolean {
  return apply(strIndexOf, code, [config.hook]) >= 0 || apply(strIndexOf, decodeEscapes(code), [config.hook]) >= 0;
}
function isNameChar(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch === '_' || ch === '$' || ch > '\x7f');
}
/**
 * Whether source text may call eval by name (the word `eval`, not a member `.eval`), escapes decoded.
 * A direct eval's code is not instrumented, so an eval inside it could look up a name computed at
 * run time in the snippet's scope, where the hook is: such code is refused, not run.
 */
export function namesEval(code: string): boolean {
  const text = decodeEscapes(code);
  for (let at = apply(strIndexOf, text, ['eval']); at >= 0; at = apply(strIndexOf, text, ['eval', at + 4])) {
    const before = at > 0 ? text[at - 1] : undefined;
    if (!isNameChar(before) && before !== '.' && !isNameChar(text[at + 4])) return true;
  }
  return false;
}
