/**
 * The selectors of jQuery's delegated handlers (`$(list).on('click', 'li .remove', h)`), read from
 * jQuery's own event data, for the browser environment's driver: it fires at an element matching
 * each under the list, so the delegated handler runs with `this` at that element.
 */

interface HandleObject {
  readonly selector?: string;
}

type JQueryData = (owner: object, key: string) => Record<string, (HandleObject[] & { delegateCount?: number }) | undefined> | undefined;

/** The delegated selectors of the handlers jQuery bound on `target` for `type`, in binding order. */
export function delegatedSelectors($: { _data?: JQueryData }): (target: object, type: string) => readonly string[] {
  return (target, type) => {
    const handlers = typeof $._data === 'function' ? $._data(target, 'events')?.[type] : undefined;
    if (!handlers) return [];
    const out: string[] = [];
    for (let i = 0; i < (handlers.delegateCount ?? 0); i++) {
      const selector = handlers[i]?.selector;
      if (typeof selector === 'string' && selector !== '' && !out.includes(selector)) out.push(selector);
    }
    return out;
  };
}
