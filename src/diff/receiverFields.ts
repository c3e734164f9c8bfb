import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { ThisFields } from './thisFields.ts';

/**
 * Per driven method, getter or setter of an object the file names at its top level (`res.jsonp`
 * of `var res = module.exports = {…}`), the fields of `this` its callers must set on the object
 * they call it on: those it reads that no function of the file writes (`this.app`, `this.req`;
 * not `this.statusCode`, which `res.status` sets). Another file makes the receiver (express's app
 * calls `Object.create(res)` with `app` and `req` set), so drive learns them (driveReceivers); the
 * owner's own members (`this.set`) stay real, the guest skipping any field the owner's chain has.
 *
 * `baseReads`: the fields of `this` the base version's file reads, for the changed version. A field
 * only the changed version reads stays unset: learning it would hide a typo the change makes
 * (`this.ap` for `this.app`). The base version learns its own (no `baseReads`).
 * Keyed by target name: the two versions number their targets apart.
 */
export function receiverFields(targets: readonly DriveTarget[], driven: readonly number[], fields: readonly ThisFields[], baseReads: ReadonlySet<string> | undefined): Map<string, string[]> {
  const written = new Set(fields.flatMap((f) => [...f.writes]));
  const out = new Map<string, string[]>();
  for (const k of driven) {
    const t = targets[k];
    if (!t || t.memberOf !== 'object' || t.owner === undefined || (t.kind !== 'method' && t.kind !== 'getter' && t.kind !== 'setter')) continue;
    const wanted = [...ownerReads(t, targets, fields)].filter((x) => !written.has(x) && (baseReads === undefined || baseReads.has(x)));
    if (wanted.length > 0) out.set(t.name, wanted);
  }
  return out;
}

/**
 * The fields of `this` the owner's members read: the member's own, and those of the members it
 * reaches through `this` on the same receiver (`req.host` calls `this.get`, which reads
 * `this.headers`). All of them, not only those reached: a member may be reached by another name
 * (`req.get = req.header = function …`), and a field no call reads is never learnt. Not a method it
 * calls (`this.listeners(type)`): one the owner lacks makes it a mixin of a class callers have,
 * whose method a learnt function cannot stand for (drive leaves it missing: diffFile's MIXIN_CALL).
 */
function ownerReads(target: DriveTarget, targets: readonly DriveTarget[], fields: readonly ThisFields[]): Set<string> {
  const lines = new Set(targets.filter((t) => t.owner === target.owner && t.memberOf === 'object').map((t) => t.line));
  const keys = new Set(targets.filter((t) => t.owner === target.owner && t.key !== undefined).map((t) => t.key!));
  const own = fields.filter((f) => lines.has(f.start));
  const called = new Set(own.flatMap((f) => [...f.calls]));
  return new Set(own.flatMap((f) => [...f.reads]).filter((x) => !keys.has(x) && !called.has(x)));
}

/** The same fields by the target indices of one version (driveReceivers). */
export function receiversByIndex(targets: readonly DriveTarget[], byName: ReadonlyMap<string, readonly string[]>): Record<number, readonly string[]> {
  const out: Record<number, readonly string[]> = {};
  targets.forEach((t, k) => {
    const f = byName.get(t.name);
    if (f) out[k] = f;
  });
  return out;
}
