import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { Definition } from '../engine/definition.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { EdgeValue } from './edgeValues.ts';

const FREEZE = 'Object.freeze(';

/** One write of a parameter's member: the function (its first line, and a name both versions share), the parameter's position, the member. */
interface MemberWrite {
  readonly line: number;
  readonly key: string;
  readonly at: number;
}

/** Each deletion, assignment or update of a parameter's member (`delete argv['--']`, `opts.x = 1`, `opts.n++`), on the lines `on` (all when absent). */
function memberWrites(parsed: ParsedSnippet, on?: ReadonlySet<number>): MemberWrite[] {
  const out: MemberWrite[] = [];
  const note = (path: NodePath, target: t.MemberExpression) => {
    const object = target.object;
    if (!t.isIdentifier(object) || !path.node.loc || (on && !on.has(path.node.loc.start.line))) return;
    const binding = path.scope.getBinding(object.name);
    const fn = binding?.kind === 'param' ? binding.scope.path : undefined;
    if (!fn?.isFunction() || !fn.node.loc) return;
    const i = fn.node.params.findIndex((p) => t.isIdentifier(p, { name: object.name }) || (t.isAssignmentPattern(p) && t.isIdentifier(p.left, { name: object.name })));
    const member = t.isStringLiteral(target.property) ? target.property.value : !target.computed && t.isIdentifier(target.property) ? target.property.name : t.isIdentifier(target.property) ? `[${target.property.name}]` : undefined;
    if (i < 0 || member === undefined) return;
    out.push({ line: fn.node.loc.start.line, at: i, key: `${functionName(fn)}#${i}.${member}` });
  };
  traverse(parsed.ast, {
    UnaryExpression(path: NodePath<t.UnaryExpression>) {
      if (path.node.operator === 'delete' && t.isMemberExpression(path.node.argument)) note(path, path.node.argument);
    },
    AssignmentExpression(path: NodePath<t.AssignmentExpression>) {
      if (t.isMemberExpression(path.node.left)) note(path, path.node.left);
    },
    UpdateExpression(path: NodePath<t.UpdateExpression>) {
      if (t.isMemberExpression(path.node.argument)) note(path, path.node.argument);
    },
  });
  return out;
}

/** `function f`, `var f = function`, `self.f = function`, `{ f() {} }`: the name a function is known by in both versions. */
function functionName(fn: NodePath): string {
  const { node, parent } = fn;
  if ((t.isFunctionDeclaration(node) || t.isFunctionExpression(node)) && node.id) return node.id.name;
  if (t.isVariableDeclarator(parent) && t.isIdentifier(parent.id)) return parent.id.name;
  if (t.isAssignmentExpression(parent) && t.isMemberExpression(parent.left) && !parent.left.computed && t.isIdentifier(parent.left.property)) return parent.left.property.name;
  if ((t.isObjectMethod(node) || t.isClassMethod(node)) && t.isIdentifier(node.key)) return node.key.name;
  if (t.isObjectProperty(parent) && t.isIdentifier(parent.key)) return parent.key.name;
  return `@${node.loc?.start.line ?? 0}`;
}

/**
 * Per function of the file (by its first line), the positions of the parameters whose members a
 * changed line deletes or writes, where the base version's function wrote the same member
 * (`base`): a caller's object may be frozen (a handler that keeps its argv), which the base
 * version met too and may have coped with (a try around the delete). A write the change adds is a
 * new requirement of the callers, not a change in handling.
 */
export function mutatedParameters(parsed: ParsedSnippet, changed: ReadonlySet<number>, base: ParsedSnippet): Map<number, Set<number>> {
  const before = new Set(memberWrites(base).map((w) => w.key));
  const out = new Map<number, Set<number>>();
  for (const w of memberWrites(parsed, changed)) if (before.has(w.key)) out.set(w.line, new Set([...(out.get(w.line) ?? []), w.at]));
  return out;
}

/**
 * Frozen-object edges: each learnt object a driven function takes in a parameter whose members a
 * changed line deletes or writes (mutatedParameters), frozen with its learnt members
 * (`Object.freeze({ _: $0, '--': $1 })`): the change that drops a guard around the write shows.
 */
export function frozenEdges(defs: ReadonlyMap<string, Definition>, targets: readonly DriveTarget[], driven: readonly string[], mutated: ReadonlyMap<number, ReadonlySet<number>>): EdgeValue[] {
  const out: EdgeValue[] = [];
  for (const target of targets) {
    if (!driven.includes(target.name)) continue;
    for (const i of mutated.get(target.line) ?? []) {
      const d = defs.get(`${target.name}#arg${i}`);
      if (!d || d.proposal.probe || d.proposal.category !== 'object' || isFrozen(d.proposal.source)) continue;
      out.push({ element: d.id, source: `${FREEZE}${d.proposal.source})`, category: 'object', keepsParts: true });
    }
  }
  return out;
}

/** Whether the edge is a frozen learnt object (frozenEdges). */
export function isFrozen(source: string): boolean {
  return source.startsWith(FREEZE) && source.endsWith(')');
}
