/**
 * No function's text gives the hook's name away. The snippet's functions are instrumented, so their
 * source names the hook; Function.prototype.toString shows the name derived from the source alone
 * (config.shownHook) in its place. The real name is salted per run by the host: with it unknown,
 * code built at run time (a direct eval's, in the scope where the hook is a parameter) cannot name it.
 */
import { native } from './native.ts';
import { rec } from './ownData.ts';
import { apply, defineProperty, fnToString, getOwnPropertyDescriptor, strIndexOf, strSlice } from './primordials.ts';

/** text with every occurrence of `name` replaced by `shown`. */
function replaceAll(text: string, name: string, shown: string): string {
  let out = '';
  let from = 0;
  for (let at = apply(strIndexOf, text, [name]); at >= 0; at = apply(strIndexOf, text, [name, from])) {
    out += apply(strSlice, text, [from, at]) + shown;
    from = at + name.length;
  }
  return from === 0 ? text : out + apply(strSlice, text, [from]);
}

/** Replaces Function.prototype.toString with one that shows `shown` for `hook`; it shows `[native code]` itself, as the built-in does. */
export function maskHookName(hook: string, shown: string): void {
  if (hook === shown) return;
  const proto = Function.prototype;
  const own = getOwnPropertyDescriptor(proto, 'toString');
  const masked = native(
    {
      toString(this: unknown): string {
        return replaceAll(apply(fnToString, this, []) as string, hook, shown);
      },
    }.toString,
    'toString',
  );
  defineProperty(proto, 'toString', rec({ value: masked, writable: own?.writable ?? true, enumerable: false, configurable: own?.configurable ?? true }));
}
