/**
 * `on<event>` properties (window.onload, document.onclick, xhr.onload) for objects linkedom gives
 * none: assigning one registers it as a listener, so the driver fires it like any other.
 */

const handlers = new WeakMap<object, Map<string, unknown>>();

/** Defines accessors `on<type>` on `target` for each type; `eventTarget` is where the listener goes. */
export function defineHandlerProperties(target: object, types: readonly string[], eventTarget: (self: object) => EventTarget): void {
  for (const type of types) {
    Object.defineProperty(target, `on${type}`, {
      get(this: object) {
        return handlers.get(eventTarget(this))?.get(type) ?? null;
      },
      set(this: object, value: unknown) {
        const et = eventTarget(this);
        let own = handlers.get(et);
        if (!own) handlers.set(et, (own = new Map()));
        const old = own.get(type);
        if (typeof old === 'function') et.removeEventListener(type, old as EventListener);
        if (typeof value === 'function') {
          own.set(type, value);
          et.addEventListener(type, value as EventListener);
        } else own.delete(type);
      },
      configurable: true,
      enumerable: true,
    });
  }
}

/** The handler properties a window has (those the driver fires). */
export const WINDOW_HANDLERS = ['load', 'unload', 'beforeunload', 'pageshow', 'pagehide', 'resize', 'scroll', 'hashchange', 'popstate', 'message', 'storage', 'online', 'offline', 'focus', 'blur', 'click', 'dblclick', 'keydown', 'keyup', 'keypress', 'mousedown', 'mouseup', 'mousemove', 'wheel', 'touchstart', 'touchend', 'touchmove', 'input', 'change', 'submit', 'contextmenu'] as const;
/** The handler properties a document has. */
export const DOCUMENT_HANDLERS = ['readystatechange', 'visibilitychange', 'click', 'dblclick', 'keydown', 'keyup', 'keypress', 'mousedown', 'mouseup', 'mousemove', 'wheel', 'scroll', 'touchstart', 'touchend', 'touchmove', 'input', 'change', 'submit', 'contextmenu', 'selectionchange'] as const;
