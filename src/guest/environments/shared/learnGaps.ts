/**
 * A modelled platform object whose real counterpart has members the model lacks: such a member is
 * not undefined (the real one exists), it is the value learnt from how the snippet uses it, asked of
 * the value generator under the id `owner.member` (`require("crypto").createCipheriv`). A member the
 * real object does not have either stays undefined, so the snippet's error is still its own.
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { realMembers } from './realMembers.ts';

type ValueOf = EnvironmentHost['valueOf'];

/**
 * `model` behind a Proxy that answers a read of a string key absent from it (own or inherited) and
 * present in the real object's names (`realName`, see realMembers.ts) with the learnt value, asked
 * once per key. `owner` is how the snippet reaches the object, for the id.
 */
export function withLearntGaps<T extends object>(model: T, owner: string, realName: string, valueOf: ValueOf): T {
  const real = realMembers(realName);
  const learnt = new Map<string, unknown>();
  return new Proxy(model, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || key in target || !real.has(key)) return Reflect.get(target, key, receiver);
      if (!learnt.has(key)) learnt.set(key, valueOf(`${owner}.${key}`, `${owner}.${key} is not modelled`));
      return learnt.get(key);
    },
  });
}

/**
 * Makes `instance` answer as withLearntGaps does, keeping its identity (handlers pass it on; the
 * environment keys its state by it): a Proxy is put between it and its prototype, and a read that
 * reaches that Proxy (a key on neither the instance nor its prototypes) of a real member name is
 * answered with the learnt value, asked once. `instanceof` still holds: the Proxy's prototype is
 * the instance's former one.
 */
export function learnGapsOf<T extends object>(instance: T, owner: string, realName: string, valueOf: ValueOf): T {
  const real = realMembers(realName);
  const learnt = new Map<string, unknown>();
  const below = Object.create(Object.getPrototypeOf(instance) as object | null) as object;
  Object.setPrototypeOf(instance, new Proxy(below, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || key in target || !real.has(key)) return Reflect.get(target, key, receiver);
      if (!learnt.has(key)) learnt.set(key, valueOf(`${owner}.${key}`, `${owner}.${key} is not modelled`));
      return learnt.get(key);
    },
  }));
  return instance;
}
