/**
 * How injected functions run the callbacks they are given. Shared by the recording proxies of a
 * learning run (the guest runtime imports them: src/guest/runtime/probeCallbacks.ts) and by synthesis, so a learning run
 * and the measured run treat callbacks alike. Whether a callback is error-first is decided once, by
 * the recording proxy that first runs it (`errorFirst` in src/guest/runtime/probeCallbacks.ts), and recorded with
 * it; synthesis gives the measured run the same arguments.
 */
export const CALLBACK_CONVENTIONS = {
  /** Array-like methods: the callback runs at once, with an element as its first argument. */
  elementWise: ['forEach', 'map', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'flatMap', 'each'],
  /** Other methods whose callbacks run before they return; all others run on a later tick. */
  sync: ['reduce', 'reduceRight', 'sort', 'times', 'forIn', 'forOwn', 'mapValues', 'replace', 'call', 'apply', 'describe', 'it', 'test'],
  /**
   * Error-first callbacks (`(err, data) => …`): the first parameter gets null, no error happened.
   * A callback of two or more parameters is error-first when its first has such a name…
   */
  errorFirst: '^(err|error|e|ex|er|exception)$',
  /** …and a callback of one parameter when it has such a name: `(err) => …`, but one `e` is an event. */
  errorOnly: '^(err|error)$',
  /**
   * Events that report a failure (`db.on('error', …)`): a listener registered for one runs only in
   * an exploration scenario that asks for the failure (outcome `error`), with an error; a real
   * emitter emits none when nothing failed.
   */
  errorEvent: '^(error|fail|failure|failed|reject|rejected|uncaughtException|unhandledRejection)$',
  /** Methods that register event handlers: their callbacks get event objects, never an error. */
  eventMethods: [
    'on', 'once', 'one', 'off', 'bind', 'live', 'delegate', 'addEventListener', 'removeEventListener', 'addListener', 'prependListener', 'prependOnceListener',
    'click', 'dblclick', 'change', 'submit', 'input', 'keyup', 'keydown', 'keypress', 'focus', 'blur', 'hover', 'scroll', 'resize',
    'mouseenter', 'mouseleave', 'mouseover', 'mouseout', 'mousedown', 'mouseup', 'mousemove', 'touchstart', 'touchend', 'contextmenu',
  ],
} as const;

export type CallbackConventions = typeof CALLBACK_CONVENTIONS;
