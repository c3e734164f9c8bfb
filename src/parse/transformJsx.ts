import type { Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { traverse } from './stripTypes.ts';

/**
 * Lowers JSX to `React.createElement` calls (the classic runtime). The generated callee keeps the
 * element's location, so `React` is a missing element like any other and gets injected.
 */
export function transformJsx(ast: t.File): void {
  traverse(ast, TRANSFORM_JSX);
}

/** transformJsx's visitor, made (and exploded by Babel) once. */
const TRANSFORM_JSX: Visitor = {
  exit(path) {
    const node = path.node;
    if (t.isJSXElement(node)) path.replaceWith(createElement(node, tagOf(node.openingElement.name), attributes(node.openingElement.attributes), node.children));
    else if (t.isJSXFragment(node)) path.replaceWith(createElement(node, reactMember(node, 'Fragment'), t.nullLiteral(), node.children));
  },
};

function reactMember(at: t.Node, name: string): t.MemberExpression {
  const react = t.identifier('React');
  react.loc = at.loc;
  const member = t.memberExpression(react, t.identifier(name));
  member.loc = at.loc;
  return member;
}

function createElement(at: t.Node, tag: t.Expression, props: t.Expression, children: t.Node[]): t.CallExpression {
  const call = t.callExpression(reactMember(at, 'createElement'), [tag, props, ...children.flatMap(child)]);
  call.loc = at.loc;
  return call;
}

function tagOf(name: t.JSXIdentifier | t.JSXMemberExpression | t.JSXNamespacedName): t.Expression {
  if (t.isJSXIdentifier(name)) {
    if (/^[a-z]/.test(name.name) || name.name.includes('-')) return t.stringLiteral(name.name);
    const id = t.identifier(name.name);
    id.loc = name.loc;
    return id;
  }
  if (t.isJSXMemberExpression(name)) {
    const member = t.memberExpression(tagOf(name.object), t.identifier(name.property.name));
    member.loc = name.loc;
    return member;
  }
  return t.stringLiteral(`${name.namespace.name}:${name.name.name}`);
}

function attributes(attrs: (t.JSXAttribute | t.JSXSpreadAttribute)[]): t.Expression {
  if (attrs.length === 0) return t.nullLiteral();
  return t.objectExpression(
    attrs.map((a) => {
      if (t.isJSXSpreadAttribute(a)) return t.spreadElement(a.argument);
      const key = t.isJSXIdentifier(a.name) ? a.name.name : `${a.name.namespace.name}:${a.name.name.name}`;
      let value: t.Expression = t.booleanLiteral(true);
      if (t.isStringLiteral(a.value)) value = a.value;
      else if (t.isJSXExpressionContainer(a.value) && !t.isJSXEmptyExpression(a.value.expression)) value = a.value.expression;
      else if (a.value && (t.isJSXElement(a.value) || t.isJSXFragment(a.value))) value = a.value as unknown as t.Expression;
      return t.objectProperty(t.stringLiteral(key), value);
    }),
  );
}

function child(node: t.Node): t.Expression[] {
  if (t.isJSXText(node)) {
    const text = node.value.replace(/\s*\n\s*/g, ' ').replace(/^\s+$/, '');
    return text === '' ? [] : [t.stringLiteral(text)];
  }
  if (t.isJSXExpressionContainer(node)) return t.isJSXEmptyExpression(node.expression) ? [] : [node.expression];
  if (t.isJSXSpreadChild(node)) return [t.spreadElement(node.expression) as unknown as t.Expression];
  return [node as t.Expression];
}
