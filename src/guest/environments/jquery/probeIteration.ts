/**
 * jQuery's iteration helpers handed a value whose shape trace mode is still learning (a recording
 * probe, say the `items` of a learnt `$.ajax` response): jQuery would read its `length` and its
 * keys, and iterate nothing, so the callback never ran and nothing was learnt of the elements.
 * Here `$.each`, `$.map` and `$.grep` hand such a value to the array method that does the same
 * (`forEach`, `map`, `filter`), which the probe records and runs the callback with an element, as
 * jQuery would with each element of the array the usage then shapes. Other values go to jQuery's own.
 */

type Callback = (this: unknown, ...args: unknown[]) => unknown;
interface ArrayLike {
  forEach(fn: (value: unknown, index: number) => void): void;
  map(fn: (value: unknown, index: number) => unknown): unknown;
  filter(fn: (value: unknown, index: number) => unknown): unknown;
}

/** Replaces `$.each`, `$.map` and `$.grep` with versions that iterate a probe through its array methods. */
export function iterateProbes($: Record<string, unknown>, isProbe: (v: unknown) => boolean): void {
  const each = $.each as (obj: unknown, callback: Callback) => unknown;
  const map = $.map as (obj: unknown, callback: Callback, arg?: unknown) => unknown;
  const grep = $.grep as (obj: unknown, callback: Callback, invert?: boolean) => unknown;
  $.each = function (this: unknown, obj: unknown, callback: Callback): unknown {
    if (!isProbe(obj) || typeof callback !== 'function') return each.call(this, obj, callback);
    (obj as ArrayLike).forEach((value, index) => void callback.call(value, index, value));
    return obj;
  };
  $.map = function (this: unknown, obj: unknown, callback: Callback, arg?: unknown): unknown {
    if (!isProbe(obj) || typeof callback !== 'function') return map.call(this, obj, callback, arg);
    return (obj as ArrayLike).map((value, index) => callback.call(undefined, value, index, arg));
  };
  $.grep = function (this: unknown, obj: unknown, callback: Callback, invert?: boolean): unknown {
    if (!isProbe(obj) || typeof callback !== 'function') return grep.call(this, obj, callback, invert);
    return (obj as ArrayLike).filter((value, index) => !callback.call(undefined, value, index) !== !invert);
  };
}
