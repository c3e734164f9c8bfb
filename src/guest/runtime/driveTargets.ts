/**
 * The functions the snippet defines (src/instrument/driveTargets.ts registers them with the
 * entryRegister, methodRegister and objectRegister hooks and marks their bodies with entryEnter):
 * environments see the top-level ones, and drive calls the ones nothing called (drive.ts).
 */
import { list } from './ownData.ts';
import type { Dyn } from './primordials.ts';

/** By target index: the function registered (`fr`; the last one made), undefined until its code ran. */
export const functions = list<Dyn | undefined>();
/** By target index: a thunk of its owner (`fr` of a member, `fm`), or the object literal it is a member of (`fo`). */
export const owners = list<unknown>();
/** By target index: whether its owner is the object itself (`fo`) rather than a thunk of it. */
export const ownerIsValue = list<boolean>();
/** By target index: whether its body was entered. */
export const entered = list<boolean>();
