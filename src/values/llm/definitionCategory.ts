import * as t from '@babel/types';
import type { Category } from '../../core/categories.ts';
import type { DefinitionForm } from './extractDefinition.ts';
import { sameReference } from './keepDefinition.ts';

/** The node that gives the element's value, for its category: the last top-level assignment of the result, or its declaration. */
export function valueNode(form: DefinitionForm, result: t.Expression, body: readonly t.Statement[]): t.Node | undefined {
  if (form === 'members' || form === 'named-exports') return t.objectExpression([]);
  for (let i = body.length - 1; i >= 0; i--) {
    const s = body[i];
    if (t.isExpressionStatement(s) && t.isAssignmentExpression(s.expression, { operator: '=' }) && sameReference(s.expression.left, result)) return s.expression.right;
  }
  return t.isIdentifier(result) ? declarationOf(result.name, body) : undefined;
}

function declarationOf(name: string, body: readonly t.Statement[]): t.Node | undefined {
  for (const s of body) {
    if ((t.isFunctionDeclaration(s) || t.isClassDeclaration(s)) && s.id?.name === name) return s;
    if (t.isVariableDeclaration(s)) for (const d of s.declarations) if (t.isIdentifier(d.id, { name })) return d.init ?? undefined;
  }
  return undefined;
}

/** What kind of value a definition gives, read off its syntax (through one top-level name); `object` when it cannot tell. */
export function categoryOf(node: t.Node | undefined, body: readonly t.Statement[], depth = 0): Category {
  if (!node) return 'object';
  if (t.isIdentifier(node) && depth === 0) return categoryOf(declarationOf(node.name, body), body, 1);
  if (t.isFunction(node)) return 'function';
  if (t.isClass(node)) return 'class';
  if (t.isArrayExpression(node)) return 'array';
  if (t.isStringLiteral(node) || t.isTemplateLiteral(node)) return 'string';
  if (t.isNumericLiteral(node)) return 'number';
  if (t.isBooleanLiteral(node)) return 'boolean';
  if (t.isNullLiteral(node)) return 'null';
  if (t.isRegExpLiteral(node)) return 'RegExp';
  if (t.isNewExpression(node) && t.isIdentifier(node.callee)) {
    const byCtor: Record<string, Category> = { Map: 'Map', Set: 'Set', Date: 'Date', RegExp: 'RegExp', Error: 'Error', TypeError: 'Error', Promise: 'promise', Array: 'array' };
    return byCtor[node.callee.name] ?? 'object';
  }
  if (t.isCallExpression(node) && t.isMemberExpression(node.callee) && t.isIdentifier(node.callee.object, { name: 'Promise' })) return 'promise';
  return 'object';
}
