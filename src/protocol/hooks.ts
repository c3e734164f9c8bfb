/**
 * The hook object the instrumented snippet calls, shared by the instrumenter (src/instrument),
 * which writes `hook.<name>(…)` calls, and the guest runtime (src/guest/runtime/hooks.ts), which
 * implements them. Names are short because every statement and expression of the snippet calls
 * one. Imported by both sides; holds no code that needs either.
 */
export const HOOKS = {
  // ---- coverage ----
  /** `c(sid)`: statement sid ran. */
  statement: 'c',
  /** `t(sid, v)`: the head of an `if`/`switch` (statement sid) evaluated to v; returns v. */
  test: 't',
  /** `r(sid, v)`: a `return`/`throw` (statement sid) evaluated its operand v; returns v. */
  returned: 'r',
  /** `rl(sid, v, loops)`: a `return` that leaves the loops `loops` (statement ids), which count too; returns v. */
  returnedFromLoops: 'rl',
  /** `b(bid, i)`: outcome i of branch bid was taken. */
  branch: 'b',
  /** `lg(bid, v, op)`: the left operand v of a logical `op` (`&&`, `||`, `??`); counts the short-circuit outcome; returns v. */
  logical: 'lg',
  /** `l0(bid)`: a loop is entered (before its first test). */
  loopEnter: 'l0',
  /** `l1(bid)`: the loop's body runs. */
  loopBody: 'l1',
  /** `l2(bid)`: the loop is left; its "body never ran" outcome counts when l1 never came. */
  loopExit: 'l2',
  /** `lt(bid, v)`: a loop's test v; false once recording proxies kept the loop going long enough. */
  loopTest: 'lt',
  /** `wp(sid, o)`: `with (o)` (statement sid); returns o wrapped so that it cannot answer for the hook's name. */
  withObject: 'wp',

  // ---- values (injection, recording proxies) ----
  /** `g(site, name)`: reads a free name: the global, else an injected value; a ReferenceError when none. */
  global: 'g',
  /** `gt(site, name)`: `typeof name` of an undeclared name: read as g is, but undefined instead of a ReferenceError. */
  globalTypeof: 'gt',
  /** `th(site, this)`: the snippet's top-level `this`, injected on first use. */
  receiver: 'th',
  /** `m(site, obj, key, lostThis?)`: `obj[key]`; a missing member of an injected value is injected. */
  member: 'm',
  /** `mc(site, obj, key, args, lostThis?)`: `obj[key](...args)`. */
  methodCall: 'mc',
  /** `call(site, fn, args)`: `fn(...args)`. */
  call: 'call',
  /** `nw(site, C, args)`: `new C(...args)`. */
  construct: 'nw',
  /** `req(site, specifier)`: `require(specifier)`: an environment's module, the context's require, else an injected module. */
  require: 'req',
  /** `ds(site, v, shape)`: v is destructured; shape is an array pattern's length, or an object pattern's keys. */
  destructure: 'ds',
  /** `it(site, v, isAsync)`: v is iterated (`for…of`, spread). */
  iterable: 'it',
  /** `aw(site, v)`: v is awaited. */
  await: 'aw',
  /** `op(site, op, a, b)`: a binary operator, `typeof`, a `switch` discriminant or a tested value, answered for recording proxies. */
  operator: 'op',
  /** `tw(site, v)`: v is thrown (`throw v`); a value that is no Error is placed at the throw. Returns v. */
  thrown: 'tw',
  /** `ev(code)`: the code of a direct eval; refused when it names the hook. */
  directEval: 'ev',

  // ---- the snippet's run ----
  /** `main(fn)`: runs the snippet's body (a function); its completion or rejection ends the top level. */
  main: 'main',
  /** `fr(k, fn, owner?)`: registers drive target k (src/instrument/driveTargets.ts), with a thunk of its owner for a member assigned to one; returns fn. */
  entryRegister: 'fr',
  /** `fm(k, () => C)`: registers drive target k, a member of class C. */
  methodRegister: 'fm',
  /** `fo(obj, k…)`: registers the drive targets that are members of an object literal; returns obj. */
  objectRegister: 'fo',
  /** `fe(k)`: drive target k was entered. */
  entryEnter: 'fe',
  /** `ct(e)`: a `catch` of the snippet caught e. */
  caught: 'ct',
} as const;

export type HookRole = keyof typeof HOOKS;
/** A method name of the hook object. */
export type HookName = (typeof HOOKS)[HookRole];

/** The hooks whose first argument is a hook site id (the instrumenter's HookSite, src/instrument/coverageModel.ts). */
export const SITE_HOOKS: ReadonlySet<string> = new Set<HookName>([
  HOOKS.global, HOOKS.globalTypeof, HOOKS.receiver, HOOKS.member, HOOKS.methodCall, HOOKS.call,
  HOOKS.construct, HOOKS.require, HOOKS.destructure, HOOKS.iterable, HOOKS.await, HOOKS.operator, HOOKS.thrown,
]);
