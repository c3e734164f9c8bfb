import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';

/** The fields of `this` one function reads and writes (through `this.x`, or `self.x` after `var self = this`). */
export interface ThisFields {
  readonly start: number;
  readonly end: number;
  readonly reads: ReadonlySet<string>;
  /** Assigned, updated or deleted. */
  readonly writes: ReadonlySet<string>;
  /** Read and called as a method (`this.listeners(type)`); also in reads. */
  readonly calls: ReadonlySet<string>;
}

/**
 * Per function of the file that has its own `this` (not an arrow), the fields of `this` it and
 * its arrows read and write. diff uses them to find the methods of the same object whose writes
 * the changed method reads (`cleanup` sets `this.state = null`, `endPacket` reads `this.state`),
 * to call them first on the same instance.
 */
export function thisFields(parsed: ParsedSnippet): ThisFields[] {
  const out = new Map<t.Node, { start: number; end: number; reads: Set<string>; writes: Set<string>; calls: Set<string> }>();
  traverse(parsed.ast, {
    MemberExpression(path: NodePath<t.MemberExpression>) {
      const { node } = path;
      if (node.computed || !t.isIdentifier(node.property)) return;
      const fn = thisOwner(path, node.object);
      if (!fn?.node.loc) return;
      let entry = out.get(fn.node);
      if (!entry) out.set(fn.node, (entry = { start: fn.node.loc.start.line, end: fn.node.loc.end.line, reads: new Set(), writes: new Set(), calls: new Set() }));
      const parent = path.parent;
      const written = (t.isAssignmentExpression(parent) && parent.left === node) || t.isUpdateExpression(parent) || t.isUnaryExpression(parent, { operator: 'delete' });
      (written ? entry.writes : entry.reads).add(node.property.name);
      if (t.isCallExpression(parent) && parent.callee === node) entry.calls.add(node.property.name);
    },
  });
  return [...out.values()];
}

/** The function whose `this` the object is: `this`'s own function (arrows see through), or the one that bound `var self = this`. */
function thisOwner(path: NodePath, object: t.Node): NodePath | null {
  const own = (p: NodePath) => p.findParent((q) => q.isFunction() && !q.isArrowFunctionExpression());
  if (t.isThisExpression(object)) return own(path);
  if (!t.isIdentifier(object)) return null;
  const binding = path.scope.getBinding(object.name);
  if (!binding || binding.constantViolations.length > 0 || !binding.path.isVariableDeclarator() || !t.isThisExpression(binding.path.node.init)) return null;
  return own(binding.path);
}
