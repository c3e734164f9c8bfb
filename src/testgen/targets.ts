import type { CallRecord } from '../record/callTrace.ts';
import type { FunctionShape, MemberShape } from './moduleOutline.ts';
import type { ClassRef, ProgramIndex } from './programIndex.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/** What a test calls: a top-level function, a member of a top-level class, or such a class with `new`. */
export type Target =
  | { readonly kind: 'function'; readonly module: string; readonly name: string }
  | { readonly kind: 'construct'; readonly class: ClassRef }
  /** A function reached as a property path from the module's reach() object (moduleOutline's `paths`). */
  | { readonly kind: 'path'; readonly module: string; readonly path: readonly string[] }
  | { readonly kind: 'member'; readonly class: ClassRef; readonly member: string; readonly static: boolean; readonly access: 'method' | 'get' | 'set' }
  /** A closure, at a path in what the call that made it returned (closureSequences.ts: the test makes that call first). */
  | { readonly kind: 'made'; readonly path: readonly string[] };

/** The function a call ran, as a test reaches it, and its current declaration (or, reached through a path the recording found, its declaration then). */
export function resolveTarget(call: CallRecord, index: ProgramIndex): { readonly target: Target; readonly shape: FunctionShape } | SkipReason {
  const found = resolveDeclared(call, index);
  if (!isSkip(found) || found.kind !== 'unreachable' || call.kind === 'getter' || call.kind === 'setter' || call.kind === 'constructor') return found;
  // A closure of a text that made several: the one its maker call made (record/closureOrigins.ts), when a path reaches it.
  const reached = index.reached(call.module, call.qualname, call.made?.callId);
  if (reached === undefined) return found;
  return { target: { kind: 'path', module: reached.root, path: reached.path }, shape: { params: reached.params, async: reached.async, generator: reached.generator } };
}

function resolveDeclared(call: CallRecord, index: ProgramIndex): { readonly target: Target; readonly shape: FunctionShape } | SkipReason {
  const { module, qualname } = call;
  if (/[<@]/.test(qualname)) return skip('unreachable', `${qualname} is anonymous, so no test can reach it`);
  const outline = index.outline(module);
  if (isSkip(outline)) return outline;
  const [head = '', member, ...deeper] = qualname.split('.');
  const binding = outline.bindings.get(head);
  const byPath = outline.paths.get(qualname);
  // A call with a receiver of a function constructor's binding is a prototype method's, not a static one's of the same name.
  const onPrototype = binding?.kind === 'function' && call.this !== undefined;
  if (byPath !== undefined && binding?.kind !== 'class' && !onPrototype && call.kind !== 'getter' && call.kind !== 'setter') return { target: { kind: 'path', module, path: byPath.path }, shape: byPath.shape };
  if (member === undefined) {
    // A function constructor called with `new`: the test calls it with `new` too.
    if (binding?.kind === 'function' && call.kind === 'constructor' && binding.constructs !== undefined) return { target: { kind: 'construct', class: { module, name: head, shape: binding.constructs } }, shape: binding.shape };
    if (binding?.kind === 'function' && call.kind !== 'constructor') return { target: { kind: 'function', module, name: head }, shape: binding.shape };
    return skip('unreachable', `${module} has no top-level function ${head} now`);
  }
  if (binding?.kind === 'function' && binding.constructs !== undefined && deeper.length === 0) {
    // A method set on a function constructor's prototype (`Foo.prototype.m = function …`).
    const found = pickMember(binding.constructs.members, member, call);
    if (found !== undefined) return { target: { kind: 'member', class: { module, name: head, shape: binding.constructs }, member, static: false, access: 'method' }, shape: found };
  }
  if (binding?.kind === 'function') return skip('unreachable', `${qualname} is nested in function ${head}, which does not expose it`);
  if (binding?.kind !== 'class' || deeper.length > 0) return skip('unreachable', `${qualname} is not a function or method at the top level of ${module}`);
  if (member === 'constructor' && call.kind === 'constructor') {
    const built = call.returnSerialization === 'instance' ? (call.returnValue as { class?: string } | undefined)?.class : undefined;
    // Through super() from a subclass: `new` of this class alone would build another object.
    if (built !== undefined && built !== head) return skip('unreachable', `${qualname} ran through super() for a ${built}, which new ${head}() does not build`);
    const construct = binding.shape.construct ?? { params: [], async: false, generator: false };
    return { target: { kind: 'construct', class: { module, name: head, shape: binding.shape } }, shape: construct };
  }
  const found = pickMember(binding.shape.members, member, call);
  if (found === undefined) return skip('unreachable', `class ${head} has no ${call.kind === 'getter' ? 'getter' : call.kind === 'setter' ? 'setter' : 'method'} ${member} now`);
  const ref: ClassRef = { module, name: head, shape: binding.shape };
  return { target: { kind: 'member', class: ref, member, static: found.static, access: found.access }, shape: found };
}

function pickMember(members: readonly MemberShape[], name: string, call: CallRecord): MemberShape | undefined {
  const access = call.kind === 'getter' ? 'get' : call.kind === 'setter' ? 'set' : 'method';
  const candidates = members.filter((m) => m.name === name && m.access === access);
  if (candidates.length <= 1) return candidates[0];
  const wantStatic = call.kind === 'static' || call.this?.serialization !== 'instance';
  return candidates.find((m) => m.static === wantStatic) ?? candidates[0];
}

