import { types } from 'node:util';
import type { CallRecord } from './callTrace.ts';
import { className, constructorOf } from './snapshotValue.ts';

/** What a call threw, as the trace keeps it: its class name, the program module defining that class, and its message unless it holds a secret. */
export function exceptionOf(error: unknown, classModules: WeakMap<object, string>, isSecret: (s: string) => boolean): NonNullable<CallRecord['exception']> {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
    if (types.isProxy(error)) return { name: 'Proxy' };
    const ctor = constructorOf(error);
    const module = typeof ctor === 'object' || typeof ctor === 'function' ? classModules.get(ctor as object) : undefined;
    const messageProp = Object.getOwnPropertyDescriptor(error, 'message');
    const message = messageProp && 'value' in messageProp && typeof messageProp.value === 'string' && !isSecret(messageProp.value) ? messageProp.value : undefined;
    return { name: className(error) ?? 'Object', ...(module !== undefined ? { module } : {}), ...(message !== undefined ? { message } : {}) };
  }
  const text = typeof error === 'symbol' ? undefined : String(error);
  return { name: typeof error, ...(text !== undefined && !isSecret(text) ? { message: text } : {}) };
}
