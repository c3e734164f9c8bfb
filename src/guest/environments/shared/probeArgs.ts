/**
 * A recording proxy (trace mode's probe) handed to a real API is used the way that API's types say
 * its parameter is used, so it is learnt as what the API takes: a path or a chunk as a string, a
 * handler as a function. Without this the API's own checks read the proxy as an object (memfs asks
 * for `href` and `protocol`, the buffer package for `length`), the value is learnt as `{}`, and the
 * measured run ends in the environment with "must be of type string".
 */

/** What a parameter takes, as the real API's types say. */
export type ParamKind =
  | 'string' //   a string (or a path): a probe is used as a string and replaced by the text it stands for
  | 'function' // a callback or handler: a probe stays (it is callable) and is learnt as a function
  | 'option' //   a value the API reads as an option (an encoding, flags): a probe is left out, the API's default applies
  | 'any';

type IsProbe = (v: unknown) => boolean;
type Fn = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Uses a probe as a string: a method only strings have is called on it (what trace mode learns a
 * string from), and the text it converts to is returned. `isWellFormed` takes no argument, so it
 * constrains nothing about the string learnt.
 */
export function probeAsString(probe: unknown): string {
  (probe as { isWellFormed(): unknown }).isWellFormed();
  return String(probe);
}

/**
 * Uses a probe as a function that is not called yet: its `prototype` is read, as registering a
 * handler or `class X extends probe` would, which trace mode learns a callable from (a class when
 * nothing calls it in the learning run, a function once something does).
 */
export function probeAsFunction<T>(probe: T): T {
  void (probe as { prototype?: unknown }).prototype;
  return probe;
}

/** One argument as its parameter takes it: a probe used per `kind`, any other value as it is. */
export function argAs(isProbe: IsProbe, kind: ParamKind, v: unknown): unknown {
  if (!isProbe(v)) return v;
  switch (kind) {
    case 'string': return probeAsString(v);
    case 'function': return probeAsFunction(v);
    case 'option': return undefined;
    case 'any': return v;
  }
}

/** Arguments as the parameters `kinds` take them; arguments past the list take `rest`. */
export function argsAs(isProbe: IsProbe, kinds: readonly ParamKind[], args: readonly unknown[], rest: ParamKind = 'any'): unknown[] {
  return args.map((a, i) => argAs(isProbe, kinds[i] ?? rest, a));
}

/** `fn` with its arguments taken as `kinds` say (see argsAs); named as fn is, `this` passed on. */
export function withParams<F extends Fn>(isProbe: IsProbe, fn: F, kinds: readonly ParamKind[], rest: ParamKind = 'any'): F {
  const name = fn.name;
  const wrapped = { [name](this: unknown, ...args: unknown[]) { return fn.apply(this, argsAs(isProbe, kinds, args, rest)); } }[name] as F;
  for (const key of Object.keys(fn)) (wrapped as unknown as Record<string, unknown>)[key] = (fn as unknown as Record<string, unknown>)[key];
  return wrapped;
}

/** Replaces each method `name` of `holder` by withParams over it (`kinds` per method), keeping its property attributes. */
export function typeParams(isProbe: IsProbe, holder: object, table: Readonly<Record<string, readonly ParamKind[]>>, rest: ParamKind = 'any'): void {
  for (const [name, kinds] of Object.entries(table)) {
    const d = Object.getOwnPropertyDescriptor(holder, name);
    if (!d || typeof d.value !== 'function') continue;
    Object.defineProperty(holder, name, { ...d, value: withParams(isProbe, d.value as Fn, kinds, rest) });
  }
}
