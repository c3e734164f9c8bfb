import _generate from '@babel/generator';
import { parse } from '@babel/parser';
import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import { stripTypes, traverse } from '../../parse/stripTypes.ts';
import type { Category } from '../types.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

const MAX_CODE_CHARS = 20_000;
const TARGET = 'ELEMENT';

export type Extraction =
  | { readonly ok: true; readonly source: string; readonly refs: readonly string[]; readonly category: Category }
  | { readonly ok: false; readonly error: string; readonly code: string };

/** The reply's code block: the last one that assigns ELEMENT, else the first. */
export function codeBlockOf(reply: string): string | undefined {
  const blocks = [...reply.matchAll(/^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/gm)].map((m) => m[2] ?? '');
  if (blocks.length === 0) return undefined;
  return [...blocks].reverse().find((b) => /\bELEMENT\b/.test(b)) ?? blocks[0];
}

/**
 * Turns an LLM reply into a proposal the isolate can evaluate, without running any of it here:
 * the code block is parsed (JavaScript, else TypeScript with its types erased), `require('m')` and
 * `import … from 'm'` become refs to the module elements, and the three steps are wrapped in a
 * function that returns ELEMENT. A plain `ELEMENT = expr` stays just `expr`, readable in --emit.
 */
export function extractDefinition(reply: string): Extraction {
  const code = codeBlockOf(reply);
  if (code === undefined) return { ok: false, error: 'the reply has no fenced code block; reply with exactly one ```js block', code: reply.slice(0, 500) };
  if (code.length > MAX_CODE_CHARS) return { ok: false, error: `the code block is ${code.length} characters long; keep it under ${MAX_CODE_CHARS}`, code: code.slice(0, 500) };
  let ast: t.File;
  try {
    ast = parseDefinition(code);
  } catch (error) {
    return { ok: false, error: `SyntaxError: ${error instanceof Error ? error.message : String(error)}`, code };
  }
  const refs: string[] = [];
  const refFor = (spec: string): t.Identifier => {
    const id = `require(${JSON.stringify(spec)})`;
    let i = refs.indexOf(id);
    if (i < 0) i = refs.push(id) - 1;
    return t.identifier(`$${i}`);
  };
  let declared = false;
  let assigned = false;
  let awaits = false;
  traverse(ast, {
    ImportDeclaration(path) {
      const module = refFor(path.node.source.value);
      const decls = path.node.specifiers.map((s) => {
        if (t.isImportNamespaceSpecifier(s)) return t.variableDeclarator(s.local, t.cloneNode(module));
        if (t.isImportDefaultSpecifier(s)) return t.variableDeclarator(s.local, defaultOf(module));
        const imported = t.isIdentifier(s.imported) ? s.imported.name : s.imported.value;
        return t.variableDeclarator(s.local, t.memberExpression(t.cloneNode(module), t.stringLiteral(imported), true));
      });
      if (decls.length === 0) path.remove();
      else path.replaceWith(t.variableDeclaration('const', decls));
    },
    ExportNamedDeclaration(path) {
      if (path.node.declaration) path.replaceWith(path.node.declaration);
      else path.remove();
    },
    ExportDefaultDeclaration(path) {
      const d = path.node.declaration;
      path.replaceWith(t.isExpression(d) ? t.expressionStatement(t.assignmentExpression('=', t.identifier(TARGET), d)) : d);
    },
    CallExpression(path) {
      const { callee, arguments: args } = path.node;
      if (t.isIdentifier(callee, { name: 'require' }) && !path.scope.hasBinding('require') && args.length === 1 && t.isStringLiteral(args[0])) {
        path.replaceWith(refFor(args[0].value));
      }
    },
    AwaitExpression(path) {
      if (!path.getFunctionParent()) awaits = true;
    },
    ForOfStatement(path) {
      if (path.node.await && !path.getFunctionParent()) awaits = true;
    },
    AssignmentExpression(path) {
      if (t.isIdentifier(path.node.left, { name: TARGET })) assigned = true;
    },
    Identifier(path: NodePath<t.Identifier>) {
      if (path.node.name === TARGET && path.isBindingIdentifier() && path.scope.getBinding(TARGET)?.scope === path.scope.getProgramParent()) declared = true;
    },
  });
  if (awaits) return { ok: false, error: 'the definition uses top-level await; it must run synchronously (the element may still be a promise)', code };
  if (!assigned && !declared) return { ok: false, error: 'the code never assigns ELEMENT; end it with `ELEMENT = …;`', code };
  const body = ast.program.body;
  const only = body.length === 1 ? body[0] : undefined;
  if (only && t.isExpressionStatement(only) && t.isAssignmentExpression(only.expression, { operator: '=' }) && t.isIdentifier(only.expression.left, { name: TARGET }) && !mentionsTarget(only.expression.right)) {
    const expr = only.expression.right;
    return { ok: true, source: print(expr), refs, category: categoryOf(expr) };
  }
  const statements = [...body];
  if (!declared) statements.unshift(t.variableDeclaration('let', [t.variableDeclarator(t.identifier(TARGET))]));
  statements.push(t.returnStatement(t.identifier(TARGET)));
  const iife = t.callExpression(t.arrowFunctionExpression([], t.blockStatement(statements)), []);
  return { ok: true, source: print(iife), refs, category: categoryOf(finalValue(body)) };
}

function parseDefinition(code: string): t.File {
  const options = { sourceType: 'module' as const, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, errorRecovery: false };
  try {
    return parse(code, { ...options, plugins: ['jsx'] });
  } catch (jsError) {
    try {
      const ast = parse(code, { ...options, plugins: ['typescript'] });
      stripTypes(ast);
      return ast;
    } catch {
      throw jsError;
    }
  }
}

/** `import x from 'm'`: the module's default export when it has one, else the module itself. */
function defaultOf(module: t.Identifier): t.Expression {
  const m = () => t.cloneNode(module);
  return t.conditionalExpression(
    t.logicalExpression('&&', m(), t.binaryExpression('!==', t.memberExpression(m(), t.identifier('default')), t.identifier('undefined'))),
    t.memberExpression(m(), t.identifier('default')),
    m(),
  );
}

function mentionsTarget(node: t.Node): boolean {
  let found = false;
  t.traverseFast(node, (n) => { if (t.isIdentifier(n, { name: TARGET })) found = true; });
  return found;
}

/** The expression last assigned to ELEMENT at the top level, for the category. */
function finalValue(body: readonly t.Statement[]): t.Node | undefined {
  for (let i = body.length - 1; i >= 0; i--) {
    const s = body[i];
    if (t.isExpressionStatement(s) && t.isAssignmentExpression(s.expression) && t.isIdentifier(s.expression.left, { name: TARGET })) return s.expression.right;
    if ((t.isFunctionDeclaration(s) || t.isClassDeclaration(s)) && s.id?.name === TARGET) return s;
  }
  return undefined;
}

/** What kind of value a definition gives, read off its syntax; `object` when it cannot tell. */
function categoryOf(node: t.Node | undefined): Category {
  if (!node) return 'object';
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

function print(node: t.Node): string {
  return generate(node, { comments: false, jsescOption: { minimal: true } }).code;
}
