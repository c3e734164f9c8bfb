/**
 * Node's own errors for a wrong call (`ERR_INVALID_ARG_TYPE`, `ENOENT` …) are the caller's fault:
 * Node raises them in its internals, never in the caller's code, and a demanding user expects the
 * snippet blamed for `fs.writeFile(p, data)` without a callback, as Node blames it. An environment
 * raises them in its own script, which the runtime would blame on the environment (the first stack
 * frame decides); their stack is taken again from where the snippet called the API.
 */

type Fn = (this: unknown, ...args: unknown[]) => unknown;

const captureStackTrace = (Error as unknown as { captureStackTrace?: (target: object, callee?: Function) => void }).captureStackTrace;

/** Whether e is one of Node's errors (it has Node's `code`: `ERR_…`, or a system error's `E…`). */
export function isNodeError(e: unknown): e is Error & { code: string } {
  const code: unknown = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(ERR_[A-Z_]+|E[A-Z]+)$/.test(code);
}

/** e with its stack taken from the caller of `callee` (the API function the snippet called). */
export function asCallerError<E extends object>(e: E, callee: Function): E {
  captureStackTrace?.(e, callee);
  return e;
}

/** Node's `ERR_INVALID_ARG_TYPE` for a value that should have been a function, raised at the caller of `callee`. */
export function invalidCallback(name: string, value: unknown, callee: Function): TypeError {
  const received = value === undefined || value === null ? String(value) : typeof value === 'object' ? `an instance of ${(value as object).constructor?.name ?? 'Object'}` : `type ${typeof value} (${String(value).slice(0, 25)})`;
  const e = Object.assign(new TypeError(`The "${name}" argument must be of type function. Received ${received}`), { code: 'ERR_INVALID_ARG_TYPE' });
  return asCallerError(e, callee);
}

/** Errors a modelled library raises for a wrong call, as the real one does (Express's "requires a callback function"). */
const callersFaults = new WeakSet<object>();

/** Marks e as the caller's fault: blamingCaller raises it at the caller of the API. */
export function callersFault<E extends object>(e: E): E {
  callersFaults.add(e);
  return e;
}

/**
 * `fn` with Node's own errors (isNodeError) and those marked callersFault raised at its caller
 * (see asCallerError); other errors stay the environment's. Named as fn is, `this` passed on.
 */
export function blamingCaller<F extends Fn>(fn: F): F {
  const wrapped = { [fn.name](this: unknown, ...args: unknown[]) {
    try {
      return fn.apply(this, args);
    } catch (e) {
      throw isNodeError(e) || (typeof e === 'object' && e !== null && callersFaults.has(e)) ? asCallerError(e, wrapped) : e;
    }
  } }[fn.name] as F;
  return wrapped;
}
