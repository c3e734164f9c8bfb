import type { DriveTarget } from '../instrument/driveTargets.ts';
import { HOOKS } from '../protocol/hooks.ts';

/**
 * The completed program's drive registry, for the targets drive called that its top level cannot
 * reach (nested functions, callbacks nothing invoked, members of objects and classes made inside
 * functions): the snippet's code registers them where they are made, as the sandbox's does
 * (markDriveTargets with only these), and the calls after the snippet go through it. It calls as
 * src/guest/runtime/drive.ts does: a function plainly; a member on its object, on an instance of
 * its class or prototype (one per class, made with the constructor's learnt arguments, or by
 * Object.create where the run's threw), or on the class itself (static).
 */
export const DRIVE_REGISTRY = '__snipexec_drive';

/** On one line, as the clock's preamble is: the program's lines after it are the snippet's, and a run of it (its lines measured) covers this one whatever it calls. */
export function driveRegistrySource(): string {
  return `${REGISTRY_SOURCE.replace(/\n\s*/g, ' ').trim()}\n`;
}

const REGISTRY_SOURCE = `var ${DRIVE_REGISTRY} = (function () {
  var fns = [], owners = [], values = [], made = new Map();
  function isObject(v) { return (typeof v === 'object' && v !== null) || typeof v === 'function'; }
  function owner(k) { return values[k] ? owners[k] : typeof owners[k] === 'function' ? owners[k]() : undefined; }
  function instance(C, proto, ctorArgs, create) {
    if (made.has(C)) return made.get(C);
    var v;
    if (create) v = Object.create(proto);
    else { try { v = Reflect.construct(C, ctorArgs); } catch (e) { v = Object.create(proto); } }
    made.set(C, v);
    return v;
  }
  return {
    ${HOOKS.entryRegister}: function (k, fn, o) { if (typeof fn === 'function') fns[k] = fn; if (typeof o === 'function') owners[k] = o; return fn; },
    ${HOOKS.methodRegister}: function (k, o) { owners[k] = o; },
    ${HOOKS.objectRegister}: function (obj) { for (var i = 1; i < arguments.length; i++) { owners[arguments[i]] = obj; values[arguments[i]] = true; } return obj; },
    call: function (k, t, args, ctorArgs, receiver) {
      if (fns[k] === undefined && owners[k] === undefined) return undefined;
      if (t.kind === 'function') return fns[k].apply(undefined, args);
      var o = owner(k);
      if (t.kind === 'constructor') { var C = fns[k] || o; made.set(C, Reflect.construct(C, args)); return undefined; }
      if (t.kind === 'static') return Reflect.apply(Object.getOwnPropertyDescriptor(o, t.key).value, o, args);
      var recv = o, holder = o;
      if (t.memberOf === 'class' && !t.static) { recv = instance(o, o.prototype, ctorArgs, receiver === 'create'); holder = o.prototype; }
      else if (t.memberOf === 'prototype') {
        var c = isObject(o) ? Object.getOwnPropertyDescriptor(o, 'constructor') : undefined, P = c && c.value;
        recv = typeof P === 'function' && P.prototype === o ? instance(P, o, ctorArgs, receiver === 'create') : isObject(o) ? Object.create(o) : {};
      }
      var d = isObject(holder) ? Object.getOwnPropertyDescriptor(holder, t.key) : undefined;
      if (t.kind === 'getter') return d.get.call(recv);
      if (t.kind === 'setter') return d.set.call(recv, args[0]);
      return (fns[k] || (d && d.value)).apply(recv, args);
    },
  };
})();`;

/** The constructor target of a member's class or prototype (the last one defined before it, by name), when there is one. */
export function constructorOf(targets: readonly DriveTarget[], k: number): DriveTarget | undefined {
  const target = targets[k];
  if (!target?.key || (target.memberOf !== 'class' && target.memberOf !== 'prototype')) return undefined;
  const base = target.name.slice(0, -(target.key.length + 1)).replace(/\.prototype$/, '');
  for (let i = k - 1; i >= 0; i--) {
    const c = targets[i]!;
    if ((c.kind === 'constructor' || c.kind === 'function') && (c.name === base || c.name.endsWith(`.${base}`))) return c;
  }
  return undefined;
}
