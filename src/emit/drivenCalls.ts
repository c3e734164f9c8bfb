import * as t from '@babel/types';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import { constructorOf, DRIVE_REGISTRY } from './driveRegistry.ts';
import { failureSource } from '../values/failureSource.ts';
import { constructorArgumentElementId, receiverFieldElementId } from '../protocol/elementIds.ts';

/** Where the program keeps the instance each class's methods are called on. */
const MADE = '__snipexec_made';
/** The program's function that makes one driven call. */
const CALL = '__snipexec_drive_call';

/** The calls of a completed program that repeat the run's drive. */
export interface DrivenCalls {
  /** One statement per call, in the run's order. */
  readonly calls: readonly string[];
  /** Each call's expression, in the same order (what `calls` wraps so an error is printed and the next goes on). */
  readonly expressions: readonly string[];
  /**
   * The targets the run drove that the program's top level cannot reach (nested functions,
   * callbacks): the program registers them where they are made and calls them through its drive
   * registry (driveRegistry.ts).
   */
  readonly registered: ReadonlySet<number>;
}

/**
 * A driven call's arguments as source: each one's definition (its accessor), undefined when it has
 * none, and an error-first target's first as the run gave it (null, or the exploration's error); as
 * many as the call passed (the record's arity, when it passed fewer than `count`).
 */
export function drivenArguments(target: Pick<DriveTarget, 'name'>, count: number, accessors: ReadonlyMap<string, string>, record: DriveRecord | undefined): string[] {
  // A shorter call (driveArity) passes only its first arguments: the rest are absent, not undefined.
  return Array.from({ length: record?.arity !== undefined ? Math.min(count, record.arity) : count }, (_, i) => {
    if (i === 0 && record?.errorArg !== undefined) return record.errorArg === 'error' ? failureSource(`${target.name}#arg0`) : 'null';
    return accessors.get(`${target.name}#arg${i}`) ?? 'undefined';
  });
}

/** As drive makes it (instanceBelow): an instance of the outside class the owner extends, made with the learnt arguments, that inherits from the owner. */
const INSTANCE_BELOW = "((owner, args) => { for (let p = Object.getPrototypeOf(owner); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) { const C = Object.getOwnPropertyDescriptor(p, 'constructor')?.value; if (typeof C !== 'function' || C.prototype !== p) continue; try { const below = function () {}; below.prototype = owner; return Reflect.construct(C, args, below); } catch { break; } } return Object.create(owner); })";

/**
 * The object drive called a member of `owner` on (driveReceivers): one inheriting from the owner,
 * made as drive made it, with the fields of `this` learnt in the run (`Object.assign(Object.create(res), { app: … })`).
 */
function callersReceiver(target: Pick<DriveTarget, 'name'>, owner: string, record: DriveRecord, accessors: ReadonlyMap<string, string>): string {
  const set = (record.fields ?? []).flatMap((f) => {
    const value = accessors.get(receiverFieldElementId(target.name, f));
    return value === undefined ? [] : [`${t.isValidIdentifier(f, false) ? f : JSON.stringify(f)}: ${value}`];
  });
  const args = Array.from({ length: record.constructed ?? 0 }, (_, i) => accessors.get(constructorArgumentElementId(target.name, i)) ?? 'undefined');
  return `Object.assign(${record.constructed !== undefined ? `${INSTANCE_BELOW}(${owner}, [${args.join(', ')}])` : `Object.create(${owner})`}, { ${set.join(', ')} })`;
}

/**
 * The statements that call what the run's drive called, reached from the program's top level, with
 * the arguments' definitions (their accessors, `accessors`) as the run had them, and the others
 * through the program's drive registry. Each is wrapped so
 * that one that throws (or rejects) prints its error and the next goes on, as in the run. With
 * `inFinally` (a body that returns at its top level, whose calls go in a `finally`), targets reached
 * through a top-level `let`, `const` or class go through the registry too: the `finally` cannot see them.
 */
export function drivenCalls(targets: readonly DriveTarget[], drives: readonly DriveRecord[], accessors: ReadonlyMap<string, string>, inFinally: boolean): DrivenCalls {
  const expressions: string[] = [];
  const registered = new Set<number>();
  let record: DriveRecord | undefined;
  // A constructor called to make an instance is not the record's target: only the target's own arguments follow the record.
  const args = (target: DriveTarget, count: number) => drivenArguments(target, count, accessors, target === targets[record?.k ?? -1] ? record : undefined).join(', ');
  // One instance per class, as in the run: the constructor's drive makes it, else the first method that needs it.
  const made = (C: string) => `${MADE}[${JSON.stringify(C)}]`;
  const instance = (C: string, receiver: DriveRecord['receiver']) => {
    if (receiver === 'create') return `(${made(C)} ??= Object.create(${C}.prototype))`;
    const ctor = targets.find((t) => t.owner === C && (t.kind === 'constructor' || (t.kind === 'function' && t.topLevel)));
    return `(${made(C)} ??= new ${C}(${ctor ? args(ctor, ctor.params) : ''}))`;
  };
  const member = (on: string, key: string) => (t.isValidIdentifier(key, false) ? `${on}.${key}` : `${on}[${JSON.stringify(key)}]`);
  for (record of drives) {
    const target = targets[record.k];
    if (!target) continue;
    if (target.owner === undefined || (inFinally && target.ownerBlockScoped) || record.detached) {
      registered.add(record.k);
      const count = target.kind === 'getter' ? 0 : target.kind === 'setter' ? 1 : target.params;
      const ctor = constructorOf(targets, record.k);
      const spec = JSON.stringify({ kind: target.kind, ...(target.memberOf ? { memberOf: target.memberOf } : {}), ...(target.key !== undefined ? { key: target.key } : {}), ...(target.static ? { static: true } : {}) });
      expressions.push(`${DRIVE_REGISTRY}.call(${record.k}, ${spec}, [${args(target, count)}], [${ctor ? args(ctor, ctor.params) : ''}], ${JSON.stringify(record.receiver ?? 'new')})`);
      continue;
    }
    const owner = target.owner;
    const key = target.key ?? '';
    let expression: string;
    if (target.kind === 'function') expression = `${owner}(${args(target, target.params)})`;
    else if (target.kind === 'constructor') expression = `(${made(owner)} = new ${owner}(${args(target, target.params)}))`;
    else if (target.kind === 'static') expression = `${member(owner, key)}(${args(target, target.params)})`;
    else {
      const on = target.memberOf === 'class' && !target.static ? instance(owner, record.receiver) : target.memberOf === 'prototype' ? instance(owner.replace(/\.prototype$/, ''), record.receiver) : record.receiver === 'inherit' ? callersReceiver(target, owner, record, accessors) : owner;
      if (target.kind === 'getter') expression = member(on, key);
      else if (target.kind === 'setter') expression = `(${member(on, key)} = ${args(target, 1)})`;
      else if (target.memberOf === 'prototype') expression = `${member(owner, key)}.call(${[on, args(target, target.params)].filter((a) => a !== '').join(', ')})`;
      else expression = `${member(on, key)}(${args(target, target.params)})`;
    }
    expressions.push(expression);
  }
  const calls = expressions.map((expression) => `${CALL}(() => ${expression});`);
  // Each call prints what it throws or rejects with and the next goes on, as in the run (no global
  // Promise is read: the snippet may have bound the name); exit() in one ends that call only, as drive's does.
  const helper = `function ${CALL}(call) { const exited = {}; const exit = typeof process === 'object' && process !== null ? process.exit : undefined; if (typeof exit === 'function') process.exit = () => { throw exited; }; try { const r = call(); if (r !== null && (typeof r === 'object' || typeof r === 'function') && typeof r.then === 'function') r.then(undefined, (error) => console.error(error)); } catch (error) { if (error !== exited) console.error(error); } finally { if (typeof exit === 'function') process.exit = exit; } }`;
  return { calls: calls.length > 0 ? [`const ${MADE} = {};`, helper, ...calls] : calls, expressions, registered };
}
