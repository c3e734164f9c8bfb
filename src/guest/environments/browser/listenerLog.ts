/**
 * The listeners a snippet registers, in registration order, recorded by wrapping linkedom's
 * EventTarget.prototype.addEventListener/removeEventListener (`on<event>` properties of elements go
 * through them too). A listener counts as fired once any dispatch reaches its target for its type.
 */

/** One `target.addEventListener(type, listener)`. */
export interface Registration {
  readonly target: EventTarget;
  readonly type: string;
  readonly listener: unknown;
  fired: boolean;
  removed: boolean;
}

export class ListenerLog {
  readonly entries: Registration[] = [];
  readonly #live = new WeakMap<object, Map<string, Map<unknown, Registration>>>();

  add(target: EventTarget, type: string, listener: unknown): void {
    let byType = this.#live.get(target);
    if (!byType) this.#live.set(target, (byType = new Map()));
    let byListener = byType.get(type);
    if (!byListener) byType.set(type, (byListener = new Map()));
    if (byListener.has(listener)) return; // the DOM ignores a second registration of the same listener
    const entry: Registration = { target, type, listener, fired: false, removed: false };
    byListener.set(listener, entry);
    this.entries.push(entry);
  }

  remove(target: EventTarget, type: string, listener: unknown): void {
    const byListener = this.#live.get(target)?.get(type);
    const entry = byListener?.get(listener);
    if (!entry || !byListener) return;
    entry.removed = true;
    byListener.delete(listener);
  }

  /** Whether `target` has a listener for `type` that no dispatch reached yet. */
  hasUnfired(target: unknown, type: string): boolean {
    const byListener = typeof target === 'object' && target !== null ? this.#live.get(target)?.get(type) : undefined;
    if (byListener) for (const entry of byListener.values()) if (!entry.fired) return true;
    return false;
  }

  /** A dispatch of `type` reached `target`'s listeners. */
  markFired(target: object, type: string): void {
    const byListener = this.#live.get(target)?.get(type);
    if (byListener) for (const entry of byListener.values()) entry.fired = true;
  }
}

/**
 * Wraps EventTarget.prototype's add/removeEventListener so `log` sees every registration, and
 * Event.prototype's target/currentTarget so a dispatch marks what it reached, and so the window's
 * stand-in EventTarget reads as the window itself (`event.target === window`).
 */
export function recordListeners(EventTargetClass: { prototype: EventTarget }, EventClass: { prototype: Event }, log: ListenerLog, windowTarget: EventTarget, window: object, onAdd: (target: EventTarget, type: string) => void): void {
  const proto = EventTargetClass.prototype;
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  const dispatch = proto.dispatchEvent;
  Object.defineProperty(proto, 'addEventListener', {
    value: function addEventListener(this: EventTarget, type: string, listener: unknown, options?: unknown): void {
      if (arguments.length < 2) throw new TypeError(`Failed to execute 'addEventListener' on 'EventTarget': 2 arguments required, but only ${arguments.length} present.`);
      if (listener === null || listener === undefined) return;
      if (typeof listener !== 'function' && typeof listener !== 'object') throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': parameter 2 is not of type 'Object'.");
      log.add(this, String(type), listener);
      onAdd(this, String(type));
      add.call(this, String(type), listener as EventListener, options as AddEventListenerOptions);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(proto, 'removeEventListener', {
    value: function removeEventListener(this: EventTarget, type: string, listener: unknown, options?: unknown): void {
      log.remove(this, String(type), listener);
      remove.call(this, String(type), listener as EventListener, options as EventListenerOptions);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(proto, 'dispatchEvent', {
    value: function dispatchEvent(this: EventTarget, event: Event): boolean {
      if (!(event instanceof (EventClass as unknown as typeof Event))) throw new TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'.");
      try {
        return dispatch.call(this, event);
      } finally {
        slot(event).currentTarget = null; // as in the DOM: currentTarget is null once dispatch is over
      }
    },
    writable: true,
    configurable: true,
  });

  const slots = new WeakMap<object, { target: unknown; currentTarget: unknown }>();
  const slot = (event: object) => {
    let s = slots.get(event);
    if (!s) slots.set(event, (s = { target: null, currentTarget: null }));
    return s;
  };
  const shown = (v: unknown) => (v === windowTarget ? window : v);
  for (const key of ['target', 'currentTarget', 'srcElement'] as const) {
    const field = key === 'currentTarget' ? 'currentTarget' : 'target';
    Object.defineProperty(EventClass.prototype, key, {
      get(this: object) {
        return shown(slot(this)[field]);
      },
      set(this: Event, value: unknown) {
        slot(this)[field] = value;
        if (key === 'currentTarget' && value !== null && typeof value === 'object') log.markFired(value, this.type);
      },
      configurable: true,
      enumerable: true,
    });
  }
}
