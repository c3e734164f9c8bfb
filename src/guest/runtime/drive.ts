/**
 * Drive: after the snippet, its timers and the environments' drivers, calls each function the
 * snippet defines and nothing called, once, in source order (outermost first: calling an outer
 * function makes the inner ones, which a later pass reaches). Arguments are injected values the
 * generator learns from how the function uses them. A plain function is called with no receiver
 * (a lost `this` still shows); a method on its object; a method of a class or a prototype on an
 * instance made with learnt constructor arguments. A call that throws is recorded, with
 * `drive: k` on its error, and the next one goes on.
 */
import type { DriveRecord, GuestDriveTarget } from '../../protocol/runtime.ts';
import { entered, functions, ownerIsValue, owners } from './driveTargets.ts';
import { recordError } from './errorAttribution.ts';
import { inject, NONE } from './injection.ts';
import { isPromise, settle } from './native.ts';
import { isObjectLike, list, push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, construct, getOwnPropertyDescriptor, ObjectCreate, TypeErrorCtor, WM, wmGet, wmSet } from './primordials.ts';
import { injectedFailure, outcomeOf } from './probes.ts';
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
      try {
        return call(k, target, record);
      } finally {
        current = undefined;
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
  run.exited = false;
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
  }
  const descriptor = isObjectLike(holder) ? getOwnPropertyDescriptor(holder, key) : undefined;
  // A member assigned to its owner that the owner no longer holds (the name was bound again): a
  // completed program cannot reach it through the owner, and calls it through its registry.
  if (functions[k] !== undefined && descriptor?.value !== functions[k]) record.detached = true;
  if (target.kind === 'getter') return apply(descriptor?.get as Dyn, receiver, []);
  if (target.kind === 'setter') return apply(descriptor?.set as Dyn, receiver, argumentsOf(target, 1));
  const fn = functions[k] ?? descriptor?.value;
  return apply(fn as Dyn, receiver, argumentsOf(target, count));
}
