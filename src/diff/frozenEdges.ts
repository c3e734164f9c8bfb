import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { Definition } from '../engine/definitionBook.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { EdgeValue } from './edgeValues.ts';

const FREEZE = 'Object.freeze(';

/**
 * Per function of the file (by its first line), the positions of the parameters whose members a
 * changed line deletes or writes (`delete argv['--']`, `opts.x = 1`, `opts.n++`): a caller's
 * object may be frozen (a handler that keeps its argv, a shared default), which the base version
 * may have coped with (a try around the delete).
 */
export function mutatedParameters(parsed: ParsedSnippet, changed: ReadonlySet<number>): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  const note = (path: NodePath, object: t.Node) => {
    if (!t.isIdentifier(object) || !path.node.loc || !changed.has(path.node.loc.start.line)) return;
    const binding = path.scope.getBinding(object.name);
    const fn = binding?.kind === 'param' ? binding.scope.path : undefined;
    if (!fn?.isFunction() || !fn.node.loc) return;
    const i = fn.node.params.findIndex((p) => t.isIdentifier(p, { name: object.name }) || (t.isAssignmentPattern(p) && t.isIdentifier(p.left, { name: object.name })));
    if (i < 0) return;
    const line = fn.node.loc.start.line;
    out.set(line, new Set([...(out.get(line) ?? []), i]));
  };
  traverse(parsed.ast, {
    UnaryExpression(path: NodePath<t.UnaryExpression>) {
      if (path.node.operator === 'delete' && t.isMemberExpression(path.node.argument)) note(path, path.node.argument.object);
    },
    AssignmentExpression(path: NodePath<t.AssignmentExpression>) {
      if (t.isMemberExpression(path.node.left)) note(path, path.node.left.object);
    },
    UpdateExpression(path: NodePath<t.UpdateExpression>) {
      if (t.isMemberExpression(path.node.argument)) note(path, path.node.argument.object);
    },
  });
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
