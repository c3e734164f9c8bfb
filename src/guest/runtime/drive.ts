/**
 * Drive: after the snippet, its timers and the environments' drivers, calls each function the
 * snippet defines and nothing called, once, in source order (outermost first: calling an outer
 * function makes the inner ones, which a later pass reaches). Arguments are injected values the
 * generator learns from how the function uses them. A plain function is called with no receiver
 * (a lost `this` still shows); a method on its object; a method of a class or a prototype on an
 * instance made with learnt constructor arguments; in diff, a member of an object the file names on
 * the object its callers make (callersReceiver). A call that throws is recorded, with
 * `drive: k` on its error, and the next one goes on.
 */
import { constructorArgumentElementId, receiverFieldElementId } from '../../protocol/elementIds.ts';
import type { DriveRecord, GuestDriveTarget } from '../../protocol/runtime.ts';
import { entered, functions, ownerIsValue, owners } from './driveTargets.ts';
import { outputBy } from './console.ts';
import { recordError } from './errorAttribution.ts';
import { inject, NONE } from './injection.ts';
import { isPromise, settle } from './native.ts';
import { isObjectLike, list, push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, construct, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, ObjectCtor, ObjectCreate, TypeErrorCtor, WM, wmGet, wmSet } from './primordials.ts';
import { injectedFailure, isProbe, outcomeOf } from './probes.ts';
import { config, EXIT, run } from './run.ts';
import { macrotask } from './ticks.ts';

/** The calls made, in order. */
export const drives = list<DriveRecord>();
const driven = list<boolean>();
/** Per class or constructor function, the instance its methods are called on. */
const instances: WeakMap<object, { value: object; receiver: 'new' | 'create' }> = new WM();

/** The targets the program's own load called, before drive's first pass (driveEntered). */
const atLoad = list<boolean>();
let loadSeen = false;

/** One pass: calls each target that exists now and that nothing called yet. How many it called. */
export function drivePass(): number {
  let count = 0;
  const targets = config.driveTargets;
  const only = config.driveOnly;
  if (!loadSeen) {
    loadSeen = true;
    for (let k = 0; k < targets.length; k++) atLoad[k] = entered[k] === true;
  }
  for (let k = 0; k < targets.length; k++) {
    if (run.stopped) break;
    const calledByLoadOnly = config.driveEntered === true && only !== undefined && atLoad[k] === true;
    if (driven[k] || (entered[k] && !calledByLoadOnly) || !registered(k)) continue;
    if (only !== undefined && !includes(only, k)) continue;
    driven[k] = true;
    count++;
    driveOne(k, targets[k]!);
  }
  return count;
}

function includes(list: readonly number[], k: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === k) return true;
  return false;
}

function registered(k: number): boolean {
  return functions[k] !== undefined || owners[k] !== undefined;
}

/** The call being made: where an error-first target's first argument is recorded. */
let current: DriveRecord | undefined;

function argumentsOf(target: GuestDriveTarget, count = target.params): unknown[] {
  const args = list<unknown>();
  for (let i = 0; i < count; i++) {
    if (i === 0 && target.errorFirst) {
      // Node's convention: null when nothing failed; an error when the scenario asks for the failure.
      const failed = outcomeOf(`${target.name}#arg0`) === 'error';
      if (current !== undefined) current.errorArg = failed ? 'error' : 'null';
      push(args, failed ? injectedFailure(`${target.name}#arg0`) : null);
      continue;
    }
    const v = inject(rec({ id: `${target.name}#arg${i}`, kind: 'argument', sid: -1, key: `arg${i}`, message: `argument ${i} of ${target.name}, which the snippet never calls` }));
    push(args, v === NONE ? undefined : v);
  }
  return args;
}

/** The owner: the object literal, or what its thunk gives now. */
function ownerOf(k: number): Dyn {
  const owner = owners[k];
  if (ownerIsValue[k]) return owner as Dyn;
  return typeof owner === 'function' ? (owner as () => Dyn)() : undefined;
}

/** The target that constructs C: its class's constructor, or the function C itself. */
function constructorTarget(C: object): number {
  const targets = config.driveTargets;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    if (functions[k] === C && (t.kind === 'function' || t.kind === 'constructor')) return k;
    if (t.kind === 'constructor' && owners[k] !== undefined && !ownerIsValue[k]) {
      try {
        if (ownerOf(k) === C) return k;
      } catch {}
    }
  }
  return -1;
}

/** The instance of C the methods are called on: `new C(learnt arguments)`, else (it threw) Object.create(C.prototype). */
function instanceOf(C: Dyn, proto?: object): { value: object; receiver: 'new' | 'create' } {
  const known = wmGet(instances, C);
  if (known) return known;
  const made = makeInstance(C, proto);
  wmSet(instances, C, made);
  return made;
}

/** A new instance of C: `new C(learnt arguments)`, else (it threw) Object.create(C.prototype). */
function makeInstance(C: Dyn, proto?: object): { value: object; receiver: 'new' | 'create' } {
  const k = constructorTarget(C);
  try {
    return rec({ value: construct(C, k >= 0 ? argumentsOf(config.driveTargets[k]!) : list()) as object, receiver: 'new' as const });
  } catch {
    return rec({ value: ObjectCreate(proto ?? (C as Dyn).prototype ?? null) as object, receiver: 'create' as const });
  }
}

/**
 * An instance of the class the drive target `name` belongs to (its constructor function, a
 * class's constructor, or a method of a class or a prototype), made as drive makes receivers: an
 * own-class edge value (protocol/ownInstance.ts). Throws while the module has not defined it yet.
 */
export function ownInstance(name: unknown): object {
  const targets = config.driveTargets;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    if (t.name !== name || !registered(k)) continue;
    const owner = functions[k] === undefined || t.kind !== 'function' ? ownerOf(k) : undefined;
    const C: Dyn = t.kind === 'function' || (t.kind === 'constructor' && functions[k] !== undefined) ? functions[k]
      : t.kind === 'constructor' || t.memberOf === 'class' ? owner
      : t.memberOf === 'prototype' && isObjectLike(owner) ? getOwnPropertyDescriptor(owner, 'constructor')?.value : undefined;
    if (typeof C === 'function') return makeInstance(C).value;
  }
  throw new TypeErrorCtor(`snipexec: no class of ${str(name)} is defined yet`);
}

/** The instance a method of this prototype is called on: one of its constructor, when the prototype is that constructor's. */
function instanceOfPrototype(proto: Dyn): { value: object; receiver: 'new' | 'create' } {
  // The owner's name was bound again to what has no prototype object: a plain object stands in.
  if (!isObjectLike(proto)) return rec({ value: {} as object, receiver: 'create' as const });
  const C = getOwnPropertyDescriptor(proto, 'constructor')?.value as Dyn;
  if (typeof C === 'function' && getOwnPropertyDescriptor(C, 'prototype')?.value === proto) return instanceOf(C, proto);
  return rec({ value: ObjectCreate(proto) as object, receiver: 'create' as const });
}

/**
 * The object callers call a method of `owner` on (express's `Object.create(res)` with `app` and
 * `req` set): it inherits from the owner, so the owner's members stay real, and each field of
 * `this` the callers set that the owner's chain lacks is learnt as `target#this.field` when first
 * read (a field no call reads is not learnt, so not tried with edge values); one written first holds what was written.
 */
function callersReceiver(target: GuestDriveTarget, owner: object, fields: readonly string[], record: DriveRecord): object {
  const receiver = instanceBelow(target, owner, record);
  const learnt = list<string>();
  record.receiver = 'inherit';
  record.fields = learnt;
  const place = (field: string, value: unknown) => defineProperty(receiver, field, rec({ value, writable: true, enumerable: true, configurable: true }));
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    // The owner's own chain has it; or the constructor that made the receiver set it.
    if (field in owner || getOwnPropertyDescriptor(receiver, field)?.value !== undefined) continue;
    defineProperty(receiver, field, rec({
      configurable: true,
      enumerable: true,
      get() {
        const id = receiverFieldElementId(target.name, field);
        const v = inject(rec({ id, kind: 'argument', sid: -1, key: field, message: `this.${field} of ${target.name}, which its callers set` }));
        place(field, v === NONE ? undefined : v);
        if (v !== NONE) push(learnt, field);
        return v === NONE ? undefined : v;
      },
      set(v: unknown) {
        place(field, v);
      },
    }));
  }
  return receiver;
}

/** Learnt arguments of the outside constructor that makes a receiver, at most: it declares how many it takes (its length). */
const MAX_CONSTRUCTOR_ARGUMENTS = 4;

/**
 * An object inheriting from `owner`: made by the constructor of the outside class the owner extends
 * (`{ __proto__: http.ServerResponse.prototype }`: callers make a response, then give it the
 * owner's members), with learnt arguments (`res.json#this.constructor#arg0`, as many as it
 * declares), so the members it inherits find the state it sets up; Object.create(owner) when it
 * extends none, or that constructor throws.
 */
function instanceBelow(target: GuestDriveTarget, owner: object, record: DriveRecord): object {
  for (let p: Dyn = getPrototypeOf(owner); isObjectLike(p) && !isProbe(p); p = getPrototypeOf(p)) {
    const C = getOwnPropertyDescriptor(p, 'constructor')?.value as Dyn;
    if (typeof C !== 'function' || C === ObjectCtor || getOwnPropertyDescriptor(C, 'prototype')?.value !== p) continue;
    try {
      const below = function () {} as Dyn;
      below.prototype = owner;
      const count = getOwnPropertyDescriptor(C, 'length')?.value as unknown;
      const args = list<unknown>();
      for (let i = 0; i < (typeof count === 'number' ? count : 0) && i < MAX_CONSTRUCTOR_ARGUMENTS; i++) {
        const id = constructorArgumentElementId(target.name, i);
        const v = inject(rec({ id, kind: 'argument', sid: -1, key: `arg${i}`, message: `argument ${i} of the constructor of ${target.name}'s receiver` }));
        push(args, v === NONE ? undefined : v);
      }
      const made = construct(C, args, below) as object;
      record.constructed = args.length;
      return made;
    } catch {
      break;
    }
  }
  return ObjectCreate(owner) as object;
}

function driveOne(k: number, target: GuestDriveTarget): void {
  const record: DriveRecord = rec({ k, outcome: 'pending' as DriveRecord['outcome'] });
  push(drives, record);
  const threw = (e: unknown) => {
    record.outcome = 'threw';
    let type = 'Error';
    let message = '';
    try {
      type = str(e && (e as Dyn).name) || 'Error';
      message = str(e && (e as Dyn).message !== undefined ? (e as Dyn).message : e);
    } catch {
      message = '[unprintable error]';
    }
    record.error = rec({ type, message });
    recordError(e, k);
  };
  try {
    const r: Dyn = macrotask(() => {
      current = record;
      outputBy('drive', '', k);
      try {
        return call(k, target, record);
      } finally {
        current = undefined;
        outputBy('drive');
      }
    });
    if (isPromise(r)) settle(r, () => { record.outcome = 'returned'; }, threw);
    else record.outcome = 'returned';
  } catch (e) {
    if (e === EXIT) exited(record);
    else threw(e);
  }
}

/**
 * exit() inside a driven call ends that call, as it would end the process of the caller that made
 * it: each driven call stands for a caller of its own, so drive goes on to the next target (a
 * `self.exit` driven on its own would otherwise end the run before the changed function is reached).
 */
function exited(record: DriveRecord): void {
  record.outcome = 'exited';
  run.unwind = undefined;
  run.stopped = false;
}

/** How many arguments drive's own call of target k passes: its parameters, or fewer where the config asks (driveArity), recorded on the call. */
function countFor(k: number, target: GuestDriveTarget, record: DriveRecord): number {
  const arity = config.driveArity?.[k];
  if (arity === undefined || arity >= target.params) return target.params;
  record.arity = arity;
  return arity;
}

function call(k: number, target: GuestDriveTarget, record: DriveRecord): unknown {
  const count = countFor(k, target, record);
  if (target.kind === 'function') return apply(functions[k] as Dyn, undefined, argumentsOf(target, count));
  const owner = ownerOf(k);
  const key = target.key ?? '';
  if (target.kind === 'constructor') {
    // A class's constructor (its owner), or a function whose prototype gets methods.
    const C = functions[k] ?? owner;
    wmSet(instances, C, rec({ value: construct(C, argumentsOf(target, count)) as object, receiver: 'new' as const }));
    return undefined;
  }
  if (target.kind === 'static') return apply(getOwnPropertyDescriptor(owner, key)?.value as Dyn, owner, argumentsOf(target, count));
  // A method, getter or setter: on the object, on a class's instance (or the class, static), on a prototype's instance.
  let receiver: Dyn = owner;
  let holder: Dyn = owner;
  if (target.memberOf === 'class' && !target.static) {
    const made = instanceOf(owner);
    record.receiver = made.receiver;
    receiver = made.value;
    holder = owner.prototype;
  } else if (target.memberOf === 'prototype') {
    const made = instanceOfPrototype(owner);
    record.receiver = made.receiver;
    receiver = made.value;
  } else if (target.memberOf === 'object' && config.driveReceivers?.[k] !== undefined && isObjectLike(owner)) {
    receiver = callersReceiver(target, owner, config.driveReceivers[k]!, record);
  }
  const descriptor = isObjectLike(holder) ? getOwnPropertyDescriptor(holder, key) : undefined;
  // A member assigned to its owner that the owner no longer holds (the name was bound again): a
  // completed program cannot reach it through the owner, and calls it through its registry.
  const held = target.kind === 'getter' ? descriptor?.get : target.kind === 'setter' ? descriptor?.set : descriptor?.value;
  if (functions[k] !== undefined && held !== functions[k]) record.detached = true;
  if (target.kind === 'getter') return apply(descriptor?.get as Dyn, receiver, []);
  if (target.kind === 'setter') return apply(descriptor?.set as Dyn, receiver, argumentsOf(target, 1));
  const fn = functions[k] ?? descriptor?.value;
  return apply(fn as Dyn, receiver, argumentsOf(target, count));
}
