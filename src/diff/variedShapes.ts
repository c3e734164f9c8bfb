import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import { memberText } from './findFragments.ts';

/** The access paths a file reads by name (`res.setHeader`, `options.index`): what its code requires of its inputs. */
export function memberPaths(parsed: ParsedSnippet): Set<string> {
  const out = new Set<string>();
  const note = (path: NodePath<t.MemberExpression | t.OptionalMemberExpression>) => {
    const text = memberText(path.node);
    if (text !== undefined) out.add(text);
  };
  traverse(parsed.ast, { MemberExpression: note, OptionalMemberExpression: note });
  return out;
}

/**
 * Whether `path` (`res.getHeader`) is a member the base version never read, of an object one of
 * whose other members it tests for presence (`if (res.send) … else res.end(…)`): its authors
 * believe callers pass objects of more than one shape (another framework's response), so a
 * member the change newly requires may be missing as well. A member of an object the base never
 * tested that way is a new requirement of the change, as a new parameter is: no finding.
 */
export function newMemberOfVariedObject(path: string, baseMembers: ReadonlySet<string>, baseBeliefs: ReadonlySet<string>): boolean {
  const dot = path.lastIndexOf('.');
  if (dot <= 0 || baseMembers.has(path)) return false;
  const parent = path.slice(0, dot + 1);
  return [...baseBeliefs].some((b) => b !== path && b.startsWith(parent) && !b.slice(parent.length).includes('.'));
}
