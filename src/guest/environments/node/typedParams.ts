/**
 * The parameter types of the node environment's functions that take strings, paths and callbacks
 * (path, Buffer, util, events, querystring, url, process.nextTick), so that a recording proxy passed
 * to them is used, and learnt, as what they take (see shared/probeArgs.ts): `Buffer.from(chunk,
 * encoding)` learns chunk as a string instead of letting the buffer package read the proxy's
 * `length` and allocate until the memory limit, and `util.promisify(db.get)` learns db.get as a function.
 */
import { asCallerError } from '../shared/callerErrors.ts';
import { typeParams, type ParamKind } from '../shared/probeArgs.ts';

type IsProbe = (v: unknown) => boolean;
type Fn = (this: unknown, ...args: unknown[]) => unknown;

const S: ParamKind = 'string';
const F: ParamKind = 'function';
const O: ParamKind = 'option';
const A: ParamKind = 'any';

/** path's functions: every argument a path, but `format`'s object. */
const PATH: Readonly<Record<string, readonly ParamKind[]>> = {
  join: [], resolve: [], normalize: [S], isAbsolute: [S], relative: [S, S], dirname: [S], basename: [S, S], extname: [S], parse: [S], toNamespacedPath: [S],
};
const BUFFER: Readonly<Record<string, readonly ParamKind[]>> = { from: [S, O, A], byteLength: [S, O], alloc: [A, A, O], allocUnsafe: [A] };
const BUFFER_PROTO: Readonly<Record<string, readonly ParamKind[]>> = { toString: [O, A, A], write: [S, A, A, O], fill: [A, A, A, O], includes: [A, A, O], indexOf: [A, A, O] };
const UTIL: Readonly<Record<string, readonly ParamKind[]>> = { promisify: [F], callbackify: [F], inherits: [F, F], deprecate: [F, S] };
const EMITTER: Readonly<Record<string, readonly ParamKind[]>> = {
  on: [A, F], addListener: [A, F], once: [A, F], prependListener: [A, F], prependOnceListener: [A, F], off: [A, F], removeListener: [A, F],
};
const QUERYSTRING: Readonly<Record<string, readonly ParamKind[]>> = { parse: [S, O, O], decode: [S, O, O], escape: [S], unescape: [S] };
const URL_MODULE: Readonly<Record<string, readonly ParamKind[]>> = { parse: [S], resolve: [S, S] };

/**
 * path-browserify's "Path must be a string. Received {}" is Node's ERR_INVALID_ARG_TYPE, raised
 * at the snippet's call as Node raises it (the snippet passed the wrong value, not the environment).
 */
function nodePathErrors(path: Record<string, unknown>): void {
  for (const name of [...Object.keys(PATH), 'format']) {
    const fn = path[name] as Fn;
    const wrapped = { [name](this: unknown, ...args: unknown[]): unknown {
      try {
        return fn.apply(this, args);
      } catch (e) {
        if (!(e instanceof TypeError) || !e.message.startsWith('Path must be a string')) throw e;
        const bad = args.find((a) => typeof a !== 'string');
        const received = bad === null || bad === undefined ? String(bad) : typeof bad === 'object' ? `an instance of ${(bad as object).constructor?.name ?? 'Object'}` : `type ${typeof bad} (${String(bad)})`;
        const error = Object.assign(new TypeError(`The "${name === 'format' ? 'pathObject' : 'path'}" argument must be of type ${name === 'format' ? 'object' : 'string'}. Received ${received}`), { code: 'ERR_INVALID_ARG_TYPE' });
        throw asCallerError(error, wrapped);
      }
    } }[name];
    path[name] = wrapped;
  }
}

export interface TypedModules {
  readonly path: Record<string, unknown>;
  readonly Buffer: object & { prototype: object };
  readonly util: Record<string, unknown>;
  readonly EventEmitter: { prototype: object };
  readonly querystring: Record<string, unknown>;
  readonly url: Record<string, unknown>;
  readonly process: Record<string, unknown>;
}

/** Gives the modules' functions their parameter types (in place). */
export function typeNodeParams(isProbe: IsProbe, m: TypedModules): void {
  typeParams(isProbe, m.path, PATH, S);
  nodePathErrors(m.path); // outermost: the error is raised at the snippet's call

  typeParams(isProbe, m.Buffer, BUFFER);
  typeParams(isProbe, m.Buffer.prototype, BUFFER_PROTO);
  typeParams(isProbe, m.util, UTIL);
  typeParams(isProbe, m.EventEmitter.prototype, EMITTER);
  typeParams(isProbe, m.querystring, QUERYSTRING);
  typeParams(isProbe, m.url, URL_MODULE);
  typeParams(isProbe, m.process, { nextTick: [F] });
}
