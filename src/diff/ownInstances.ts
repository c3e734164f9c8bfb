import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { Definition } from '../engine/definition.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import { ownInstanceSource, ownInstancesIn } from '../protocol/ownInstance.ts';
import type { EdgeValue } from './edgeValues.ts';

/** Per class or constructor function the file defines (by name), the members its prototype chain holds, and the class it extends. */
export type ClassMembers = ReadonlyMap<string, { readonly members: ReadonlySet<string>; readonly parent?: string }>;

/** Own-class edges per changed file, at most: each costs a run of both versions. */
export const OWN_INSTANCE_EDGES = 3;

/**
 * The classes of a version of the file and their prototype members: a class body's methods and
 * accessors, `C.prototype.m = …` (each name of a chain `C.prototype.a = C.prototype.b = fn`), the
 * keys of `C.prototype = {…}`; `class C extends B`, `C.prototype = Object.create(B.prototype)` and
 * `inherits(C, B)` give the parent. Read from the BASE version: a member the change removes counts.
 */
export function classMembers(parsed: ParsedSnippet): ClassMembers {
  const out = new Map<string, { members: Set<string>; parent?: string }>();
  const of = (name: string) => out.get(name) ?? (out.set(name, { members: new Set() }), out.get(name)!);
  const keyName = (key: t.Node, computed: boolean): string | undefined => (!computed && t.isIdentifier(key) ? key.name : t.isStringLiteral(key) ? key.value : undefined);
  /** `C.prototype` → `C`. */
  const prototypeOf = (node: t.Node): string | undefined => (t.isMemberExpression(node) && !node.computed && t.isIdentifier(node.property, { name: 'prototype' }) && t.isIdentifier(node.object) ? node.object.name : undefined);
  traverse(parsed.ast, {
    Class(path: NodePath<t.Class>) {
      const name = path.node.id?.name ?? (t.isVariableDeclarator(path.parent) && t.isIdentifier(path.parent.id) ? path.parent.id.name : undefined);
      if (name === undefined) return;
      const entry = of(name);
      if (t.isIdentifier(path.node.superClass)) entry.parent = path.node.superClass.name;
      for (const m of path.node.body.body) {
        if ((t.isClassMethod(m) || t.isClassProperty(m)) && !m.static && !(t.isClassMethod(m) && m.kind === 'constructor')) {
          const key = keyName(m.key, m.computed);
          if (key !== undefined) entry.members.add(key);
        }
      }
    },
    AssignmentExpression(path: NodePath<t.AssignmentExpression>) {
      const { left, right } = path.node;
      if (!t.isMemberExpression(left)) return;
      const owner = prototypeOf(left.object);
      const key = keyName(left.property, left.computed);
      if (owner !== undefined && key !== undefined) of(owner).members.add(key);
      const whole = prototypeOf(left);
      if (whole === undefined) return;
      if (t.isObjectExpression(right)) {
        for (const p of right.properties) {
          const k = (t.isObjectProperty(p) || t.isObjectMethod(p)) ? keyName(p.key, p.computed) : undefined;
          if (k !== undefined) of(whole).members.add(k);
        }
      } else if (t.isCallExpression(right) && t.isMemberExpression(right.callee) && t.isIdentifier(right.callee.property, { name: 'create' }) && right.arguments[0]) {
        const parent = prototypeOf(right.arguments[0]);
        if (parent !== undefined) of(whole).parent = parent;
      }
    },
    CallExpression(path: NodePath<t.CallExpression>) {
      const { callee, arguments: args } = path.node;
      const name = t.isIdentifier(callee) ? callee.name : t.isMemberExpression(callee) && t.isIdentifier(callee.property) ? callee.property.name : undefined;
      if (name === 'inherits' && t.isIdentifier(args[0]) && t.isIdentifier(args[1])) of(args[0].name).parent = args[1].name;
    },
  });
  return out;
}

/** The members of `name`'s prototype chain (its own, then its parents', as far as the file defines them). */
function chainMembers(classes: ClassMembers, name: string): Set<string> {
  const all = new Set<string>();
  for (let at: string | undefined = name, seen = 0; at !== undefined && seen < 10; seen++) {
    const entry = classes.get(at);
    if (!entry) break;
    for (const m of entry.members) all.add(m);
    at = entry.parent;
  }
  return all;
}

/** The drive target of the changed version a class is reached by: its constructor, else one of its methods. */
function targetOf(targets: readonly DriveTarget[], name: string): string | undefined {
  const last = (n: string) => n.slice(n.lastIndexOf('.') + 1);
  const ctor = targets.find((d) => (d.kind === 'constructor' || d.kind === 'function') && last(d.name) === name && (d.kind === 'constructor' || d.owner === name || d.name.endsWith(`.${name}`) || d.name === name));
  if (ctor && (ctor.kind === 'constructor' || targets.some((d) => d.owner === `${name}.prototype`))) return ctor.name;
  const method = targets.find((d) => (d.memberOf === 'class' && d.owner === name && !d.static) || (d.memberOf === 'prototype' && d.owner === `${name}.prototype`));
  return method?.name;
}

/**
 * Own-class edges: a learnt object among `inputs` (a driven function's argument, a member below
 * it, an outside call's result) given an instance of one of the file's own classes whose
 * prototype chain (in the base version, `classes`) holds members the code read of the object
 * (its learnt members): real callers pass the module's own objects (`{ renderer: new
 * TextRenderer() }`), and a member the change removes from the class shows only on one. The
 * classes that hold most of the read members first; at most `cap` in all.
 */
export function ownInstanceEdges(defs: ReadonlyMap<string, Definition>, inputs: readonly string[], classes: ClassMembers, targets: readonly DriveTarget[], cap = OWN_INSTANCE_EDGES): EdgeValue[] {
  const candidates: { edge: EdgeValue; score: number }[] = [];
  const reachable = [...classes.keys()].flatMap((name) => { const target = targetOf(targets, name); return target ? [{ name, target, members: chainMembers(classes, name) }] : []; });
  for (const id of inputs) {
    const d = defs.get(id);
    if (!d || d.proposal.probe || d.proposal.category !== 'object') continue;
    // Its learnt methods (`renderer.text`, a part of its literal or a member read later), by key:
    // a prototype holds methods; a member used as a value (an option's flag) is no sign of a class.
    const read = new Set([...defs.values()].flatMap((c) => { const key = c.parent === id && c.proposal.category === 'function' && c.id.startsWith(`${id}.`) ? c.id.slice(id.length + 1) : ''; return /^[A-Za-z_$][\w$]*$/.test(key) ? [key] : []; }));
    if (read.size === 0) continue;
    for (const cls of reachable) {
      const score = [...read].filter((m) => cls.members.has(m)).length;
      if (score > 0) candidates.push({ edge: { element: id, source: ownInstanceSource(cls.target, cls.name), category: 'object' }, score });
    }
  }
  return candidates.sort((a, b) => b.score - a.score).slice(0, cap).map((c) => c.edge);
}

/** Whether the edge is an instance of one of the file's own classes (ownInstanceEdges). */
export function isOwnInstance(edge: EdgeValue | undefined): boolean {
  return edge !== undefined && ownInstancesIn(edge.source).length > 0;
}
