/**
 * How injected functions run the callbacks they are given. Shared by the recording proxies of a
 * learning run (sent to the isolate in the runtime config) and by synthesis, so a learning run
 * and the measured run treat callbacks alike.
 */
export const CALLBACK_CONVENTIONS = {
  /** Array-like methods: the callback runs at once, with an element as its first argument. */
  elementWise: ['forEach', 'map', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'flatMap', 'each'],
  /** Other methods whose callbacks run before they return; all others run on a later tick. */
  sync: ['reduce', 'reduceRight', 'sort', 'times', 'forIn', 'forOwn', 'mapValues', 'replace', 'call', 'apply', 'describe', 'it', 'test'],
  /** A callback parameter with such a name gets null: no error happened. */
  errorParam: '^(e|err|error|ex|exception|er)$',
} as const;

export type CallbackConventions = typeof CALLBACK_CONVENTIONS;
