import * as t from '@babel/types';
import type { Definition } from '../engine/definition.ts';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import type { EdgeValue } from './edgeValues.ts';

/**
 * What a package's export may be where its authors test it: `false` (supports-color without a
 * colour terminal), `null`, `undefined` (an optional dependency's stand-in). Learning gives a
 * module the object its uses ask for; these are the values a caller's environment gives instead.
 */
const FALSY_EXPORTS: readonly Pick<EdgeValue, 'source' | 'category'>[] = [
  { source: 'false', category: 'boolean' },
  { source: 'null', category: 'null' },
  { source: 'undefined', category: 'undefined' },
];

/**
 * The module elements the base version tests for truthiness or absence (`supportsColor ? ... : 0`
 * of `const supportsColor = require('supports-color')`, or `if (fs.promises)`): a name bound to a
 * `require('x')` call (or a member of one) at the top level, read as a belief of the base
 * (nullishBeliefs), as the element of the run (`require("supports-color")`, `require("fs").promises`).
 * Edge values do not vary module values otherwise: only where the base admits they may be absent.
 */
export function testedModuleValues(base: ParsedSnippet, beliefs: ReadonlySet<string>): string[] {
  const bound = new Map<string, string>();
  for (const s of base.ast.program.body) {
    if (!t.isVariableDeclaration(s)) continue;
    for (const d of s.declarations) {
      const element = t.isIdentifier(d.id) ? requiredElement(d.init) : undefined;
      if (element !== undefined && t.isIdentifier(d.id)) bound.set(d.id.name, element);
    }
  }
  const out = new Set<string>();
  for (const path of beliefs) {
    const [name, ...members] = path.split('.');
    const element = bound.get(name!);
    if (element !== undefined) out.add([element, ...members].join('.'));
  }
  return [...out];
}

/** `require("x")` of `require('x')`, `require("x").a.b` of `require('x').a.b`; undefined for anything else. */
function requiredElement(node: t.Node | null | undefined): string | undefined {
  if (t.isCallExpression(node) && t.isIdentifier(node.callee, { name: 'require' }) && node.arguments.length === 1 && t.isStringLiteral(node.arguments[0])) return `require(${JSON.stringify(node.arguments[0].value)})`;
  if (t.isMemberExpression(node) && !node.computed && t.isIdentifier(node.property)) {
    const object = requiredElement(node.object);
    return object === undefined ? undefined : `${object}.${node.property.name}`;
  }
  return undefined;
}

/**
 * The edge values of the tested module elements the run learnt: `false`, `null` and `undefined`
 * each (they count, as other edge values, where the base version took another branch for them).
 */
export function moduleEdges(defs: ReadonlyMap<string, Definition>, tested: readonly string[]): EdgeValue[] {
  return tested.filter((element) => defs.has(element)).flatMap((element) => FALSY_EXPORTS
    .filter((v) => defs.get(element)?.proposal.source !== v.source)
    .map((v) => ({ element, ...v })));
}
