/**
 * The built-ins the runtime uses, captured when the runtime's script is evaluated in a fresh
 * context, before any environment, prelude or snippet code runs: whatever the snippet later
 * replaces on a global or a prototype, the runtime keeps calling the originals. Methods are called
 * through `apply` (Reflect.apply as captured), never as `value.method(…)`.
 */

/**
 * A value of the snippet's, on which the runtime performs the snippet's own dynamic operations
 * (`obj[key]`, `a + b`) exactly as the instrumented code would have; typed loosely for that alone.
 */
export type Dyn = any;

export const G: Dyn = globalThis;
export const { apply, construct, defineProperty, getPrototypeOf, setPrototypeOf, ownKeys, getOwnPropertyDescriptor } = Reflect;
export const reflectHas = Reflect.has;
export const objHasOwn = Object.prototype.hasOwnProperty;
export const isArray = Array.isArray;
export const ArrayCtor = Array;
export const { stringify, parse } = JSON;
export const MathMax = Math.max;
export const MathMin = Math.min;
export const MathImul = Math.imul;
export const MathTrunc = Math.trunc;
export const ProxyCtor = Proxy;
export const PromiseCtor = Promise;
export const PromiseProto = Promise.prototype;
export const promiseThen = Promise.prototype.then;
export const promiseFinally = Promise.prototype.finally;
export const promiseResolve = Promise.resolve;
export const promiseReject = Promise.reject;
export const RegExpCtor = RegExp;
export const RangeErrorCtor = RangeError;
export const NumberCtor = Number;
export const BigIntCtor = BigInt;
export const ErrorProto = Error.prototype;
export const TypeErrorProto = TypeError.prototype;
export const ObjectFreeze = Object.freeze;
export const ObjectCreate = Object.create;
export const objectKeys = Object.keys;
export const WM = WeakMap;
export const WS = WeakSet;
export const RealDate = Date;
export const dateToString = Date.prototype.toString;
/**
 * A method as a function of (receiver, ...args), as Node's primordials make them: a bound
 * Function.prototype.call, which no later change to Function.prototype or to the method's
 * prototype reaches. Faster than `apply(method, receiver, [args])`, which makes an array per
 * call: the hooks ask the runtime's weak maps on every read.
 */
const uncurryThis = Function.prototype.bind.bind(Function.prototype.call) as <T, A extends unknown[], R>(fn: (this: T, ...args: A) => R) => (self: T, ...args: A) => R;
export const wmGet: <V>(map: WeakMap<object, V>, key: unknown) => V | undefined = uncurryThis(WeakMap.prototype.get) as never;
export const wmSet: <V>(map: WeakMap<object, V>, key: unknown, value: V) => WeakMap<object, V> = uncurryThis(WeakMap.prototype.set) as never;
export const wmHas: (map: WeakMap<object, unknown>, key: unknown) => boolean = uncurryThis(WeakMap.prototype.has) as never;
export const wsHas: (set: WeakSet<object>, key: unknown) => boolean = uncurryThis(WeakSet.prototype.has) as never;
/** RegExp.prototype.exec as it was, called as regexpExecOf(re, s): no array of arguments per call (the runtime's regular expressions run on every probe read). */
export const regexpExecOf: (re: RegExp, s: string) => RegExpExecArray | null = uncurryThis(RegExp.prototype.exec) as never;
export const wsAdd: (set: WeakSet<object>, key: unknown) => WeakSet<object> = uncurryThis(WeakSet.prototype.add) as never;
export const arrJoin = Array.prototype.join;
export const strSlice = String.prototype.slice;
export const strIndexOf = String.prototype.indexOf;
export const strTrim = String.prototype.trim;
export const strCodePointAt = String.prototype.codePointAt;
export const strRepeat = String.prototype.repeat;
export const mapEntries = Map.prototype.entries;
export const setValues = Set.prototype.values;
export const parseIntFn = parseInt;
export const fromCodePoint = String.fromCodePoint;
export const StringCtor = String;
export const ObjectCtor = Object;
export const ErrorCtor = Error;
export const TypeErrorCtor = TypeError;
export const ReferenceErrorCtor = ReferenceError;
export const EvalErrorCtor = EvalError;
export const fnToString = Function.prototype.toString;
export const symIterator: typeof Symbol.iterator = Symbol.iterator;
export const symAsyncIterator: typeof Symbol.asyncIterator = Symbol.asyncIterator;
export const symToPrimitive: typeof Symbol.toPrimitive = Symbol.toPrimitive;
export const symSpecies: typeof Symbol.species = Symbol.species;
/** The symbol Node's util.inspect looks for: a value carrying it prints as that method says. */
export const INSPECT_CUSTOM = Symbol.for('nodejs.util.inspect.custom');
export const indirectEval: (source: string) => unknown = eval;
