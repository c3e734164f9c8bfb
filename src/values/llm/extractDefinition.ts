import _generate from '@babel/generator';
import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import { ISOLATE_GLOBALS } from '../../instrument/visitor.ts';
import { traverse } from '../../parse/stripTypes.ts';
import type { Category } from '../../core/categories.ts';
import { parseCode, replyCode, unfencedCode, type CodeBlock } from './codeBlocks.ts';
import { categoryOf, valueNode } from './definitionCategory.ts';
import { ELEMENT, ELEMENT_ONLY, howToDefine, shapeOf, withoutNodePrefix, type ElementPath, type ExtractTarget, type TargetShape } from './definitionTarget.ts';
import { declaredNames, isExportsAssignment, keptStatements, mentions, pathMatch, sameReference, walk } from './keepDefinition.ts';

export type { ExtractTarget } from './definitionTarget.ts';

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

const MAX_CODE_CHARS = 20_000;

/**
 * How the chosen code defines the element, best first within a block:
 * `ELEMENT` (the prompt's `ELEMENT = …;`), `exports` (`module.exports =`, `export default`),
 * `path` (`app.get = …` for `app.get`), `declaration` (`function splitPair`, `const fs =`),
 * `members` (`this.x = …`, `app.get = …` for `app`), `holder` (`const app = { get() {…} }` for `app.get`),
 * `named-exports` (`export function a`), `value` (a lone expression).
 */
export type DefinitionForm = 'ELEMENT' | 'exports' | 'path' | 'declaration' | 'members' | 'holder' | 'named-exports' | 'value';

/** A module is defined by its exports before anything else; any other element by its path, then its name. */
const RANKS: Record<'module' | 'other', readonly DefinitionForm[]> = {
  module: ['ELEMENT', 'exports', 'declaration', 'path', 'members', 'holder', 'named-exports', 'value'],
  other: ['ELEMENT', 'path', 'declaration', 'exports', 'members', 'holder', 'named-exports', 'value'],
};

/**
 * An extraction keeps `code`, the block it chose as the model wrote it (what was tried), whether it
 * succeeded or not: `''` when the reply holds no code at all.
 */
export type Extraction =
  | { readonly ok: true; readonly source: string; readonly refs: readonly string[]; readonly category: Category; readonly code: string; readonly form: DefinitionForm }
  | { readonly ok: false; readonly error: string; readonly code: string };

interface Analysed {
  readonly block: CodeBlock;
  readonly ast?: t.File;
  readonly error?: string;
  readonly form?: DefinitionForm;
  /** How the code spells the path's root where it assigns it (`app`, `this`, `fs` for `require("fs")`). */
  readonly root?: string;
}

/**
 * Turns an LLM reply into a proposal the isolate can evaluate, without running any of it here.
 * The reply's code is found first: reasoning sections (`<think>`) are dropped, then the fenced
 * blocks in a JavaScript-like language are taken (a fence left open runs to the end), else the
 * unfenced text that parses. Of these, the block that defines `target` in the best way wins
 * (DefinitionForm), the last of equals among fenced blocks (a model's corrected version comes after),
 * the first, longest, of unfenced pieces. A block that only uses the element ("example usage") defines
 * nothing and is never chosen.
 * The chosen code is parsed (JavaScript, else TypeScript with its types erased), `require('m')`
 * and `import … from 'm'` become refs to the module elements, statements that only show the element
 * in use (console output, calls of the element, statements unrelated to it) are dropped, and what is
 * left is wrapped in a function that returns the element. A lone definition stays an expression
 * (`ELEMENT = expr` or `const splitPair = expr` is `expr`, `function splitPair…` a function
 * expression), readable in --emit. Without `target`, only ELEMENT defines the element.
 */
export function extractDefinition(reply: string, target: ExtractTarget = ELEMENT_ONLY): Extraction {
  const shape = shapeOf(target);
  const { blocks, rest, reasoned } = replyCode(reply);
  const candidates: CodeBlock[] = blocks.length > 0 ? [...blocks] : unfencedCode(rest).map((code) => ({ code, lang: '', fenced: false }));
  const what = target.element === ELEMENT ? 'assigns ELEMENT' : `defines \`${target.element}\``;
  if (candidates.length === 0) {
    const where = reasoned ? 'outside its <think> section' : 'and its text is not code';
    return { ok: false, error: `the reply has no fenced code block ${where}; reply with one \`\`\`js block that ${what}`, code: '' };
  }
  const analysed = candidates.map((block) => analyse(block, shape));
  const ranks = RANKS[target.kind === 'module' ? 'module' : 'other'];
  let chosen: Analysed | undefined;
  for (const a of analysed) {
    if (a.form === undefined) continue;
    const better = chosen?.form === undefined || ranks.indexOf(a.form) < ranks.indexOf(chosen.form) || (a.block.fenced && a.form === chosen.form);
    if (better) chosen = a;
  }
  if (chosen?.ast && chosen.form) return build(chosen.ast, chosen.block.code, shape, chosen.form, chosen.root);
  const failed = analysed.find((a) => a.error !== undefined);
  if (failed?.error !== undefined) return { ok: false, error: failed.error, code: shown(failed.block.code) };
  // Nothing defines the element: the code shown back is the block that names it, else the first.
  const names = [ELEMENT, ...shape.names, ...(shape.callee === undefined ? [] : [shape.callee])];
  const named = [...analysed].reverse().find((a) => names.some((n) => new RegExp(`(?<![\\w$])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(a.block.code))) ?? analysed[0];
  const code = named?.block.code ?? '';
  const callee = shape.callee;
  if (callee !== undefined && named?.ast && t.isValidIdentifier(callee) && declaredNames(named.ast.program.body).has(callee)) {
    return { ok: false, error: `the code defines the function \`${callee}\`, but the element is the value \`${target.element}\` returns; end with \`ELEMENT = …;\` giving that value`, code };
  }
  return { ok: false, error: howToDefine(shape), code };
}

function shown(code: string): string {
  return code.length > MAX_CODE_CHARS ? code.slice(0, 500) : code;
}

/** Parses a block and says how, if at all, it defines the element. */
function analyse(block: CodeBlock, shape: TargetShape): Analysed {
  if (block.code.length > MAX_CODE_CHARS) return { block, error: `the code block is ${block.code.length} characters long; keep it under ${MAX_CODE_CHARS}` };
  let ast: t.File;
  try {
    ast = parseCode(block.code, block.lang);
  } catch (error) {
    // `{ a: 1 }` alone is a block statement to a parser; as a lone value it is an object.
    try {
      ast = parseCode(`(${block.code}\n)`, block.lang);
      if (ast.program.body.length !== 1) throw error;
    } catch {
      return { block, error: `SyntaxError: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const forms = new Set<DefinitionForm>();
  const rootBy = new Map<DefinitionForm, string>();
  const path = shape.path;
  traverse(ast, {
    Program(p) {
      if (p.scope.getOwnBinding(ELEMENT)) forms.add('ELEMENT');
      if (shape.names.some((n) => p.scope.getOwnBinding(n))) forms.add('declaration');
      const holder = path && path.keys.length > 0 ? path.roots.find((r) => holds(p.scope.getOwnBinding(r)?.path.node, path.keys[0] ?? '')) : undefined;
      if (holder !== undefined) {
        forms.add('holder');
        rootBy.set('holder', holder);
      }
    },
    AssignmentExpression(p) {
      if (p.node.operator !== '=') return;
      const left = p.node.left;
      if (t.isIdentifier(left, { name: ELEMENT })) {
        if (p.scope.getBinding(ELEMENT)?.scope.path.isProgram() ?? true) forms.add('ELEMENT');
        return;
      }
      if (p.findParent((q) => q.isFunction() || q.isClass())) return;
      if (isExportsAssignment(left, (n) => p.scope.hasBinding(n))) forms.add('exports');
      if (!path) return;
      const match = pathMatch(left, path);
      if (match === undefined) return;
      const form = match.extra === 0 ? 'path' : 'members';
      forms.add(form);
      if (!rootBy.has(form)) rootBy.set(form, match.root);
    },
    ExportDefaultDeclaration() {
      forms.add('exports');
    },
    ExportNamedDeclaration(p) {
      if (!p.node.source) forms.add('named-exports');
    },
  });
  if (isLoneValue(ast, shape)) forms.add('value');
  const ranks = RANKS[shape.target.kind === 'module' ? 'module' : 'other'];
  const form = ranks.find((f) => forms.has(f));
  return { block, ast, form, root: form === undefined ? undefined : rootBy.get(form) };
}

/** `const app = { get() {…} }`: a declaration of the path's root as an object literal with its first key. */
function holds(declarator: t.Node | undefined, key: string): boolean {
  if (!t.isVariableDeclarator(declarator) || !t.isObjectExpression(declarator.init)) return false;
  return declarator.init.properties.some((p) => (t.isObjectProperty(p) || t.isObjectMethod(p)) && !p.computed && (t.isIdentifier(p.key, { name: key }) || t.isStringLiteral(p.key, { value: key })));
}

/** A block that is one expression giving a value: not a name, nor a call of anything but a built-in, nor a use of the element. */
function isLoneValue(ast: t.File, shape: TargetShape): boolean {
  const { body, directives } = ast.program;
  if (body.length === 0) return directives.length === 1;
  const only = body.length === 1 ? body[0] : undefined;
  if (!t.isExpressionStatement(only)) return false;
  const e = only.expression;
  if (t.isAssignmentExpression(e) || t.isSequenceExpression(e) || t.isAwaitExpression(e) || t.isIdentifier(e) || t.isMemberExpression(e) || t.isThisExpression(e)) return false;
  if ((t.isCallExpression(e) || t.isNewExpression(e)) && !calleeIsBuiltin(e.callee)) return false;
  return !mentions(e, new Set([ELEMENT, ...shape.names, ...(shape.path?.roots ?? [])]));
}

function calleeIsBuiltin(callee: t.Node): boolean {
  let root = callee;
  while (t.isMemberExpression(root)) root = root.object;
  return t.isIdentifier(root) && root.name !== 'console' && ISOLATE_GLOBALS.has(root.name);
}

/** The chosen block, rewritten into one expression the isolate evaluates. */
function build(ast: t.File, code: string, shape: TargetShape, form: DefinitionForm, root: string | undefined): Extraction {
  const refs: string[] = [];
  const refFor = (spec: string): t.Identifier => {
    const id = `require(${JSON.stringify(spec)})`;
    let i = refs.indexOf(id);
    if (i < 0) i = refs.push(id) - 1;
    return t.identifier(`$${i}`);
  };
  const awaiting = new Set<t.Node>();
  const exported = new Map<string, string>();
  const usesThis = (form === 'path' || form === 'members') && root === 'this';
  let rootId: t.Identifier | undefined = root === undefined || root === 'this' ? undefined : t.identifier(root);
  const markAwait = (p: NodePath) => {
    const top = p.find((q) => q.parentPath?.isProgram() === true);
    if (top) awaiting.add(top.node);
  };
  traverse(ast, {
    Program(p) {
      if (usesThis) rootId = p.scope.generateUidIdentifier('this');
    },
    Scopable(p) {
      // The refs are parameters `$0`, `$1`…: a binding of the model's own by that name would hide one.
      for (const name of Object.keys(p.scope.bindings)) if (/^\$\d+$/.test(name)) p.scope.rename(name);
    },
    ThisExpression(p) {
      if (usesThis && rootId && !p.findParent((q) => (q.isFunction() && !q.isArrowFunctionExpression()) || q.isClass())) p.replaceWith(t.cloneNode(rootId));
    },
    ImportDeclaration(p) {
      const module = refFor(p.node.source.value);
      const decls = p.node.specifiers.map((s) => {
        if (t.isImportNamespaceSpecifier(s)) return t.variableDeclarator(s.local, t.cloneNode(module));
        if (t.isImportDefaultSpecifier(s)) return t.variableDeclarator(s.local, defaultOf(module));
        const imported = t.isIdentifier(s.imported) ? s.imported.name : s.imported.value;
        return t.variableDeclarator(s.local, t.memberExpression(t.cloneNode(module), t.stringLiteral(imported), true));
      });
      if (decls.length === 0) p.remove();
      else p.replaceWith(t.variableDeclaration('const', decls));
    },
    ExportNamedDeclaration(p) {
      const { declaration, specifiers, source } = p.node;
      if (source) return void p.remove();
      if (declaration) {
        for (const name of Object.keys(t.getBindingIdentifiers(declaration))) exported.set(name, name);
        return void p.replaceWith(declaration);
      }
      for (const s of specifiers) if (t.isExportSpecifier(s)) exported.set(t.isIdentifier(s.exported) ? s.exported.name : s.exported.value, s.local.name);
      p.remove();
    },
    ExportDefaultDeclaration(p) {
      const d = p.node.declaration;
      const assign = (e: t.Expression) => t.expressionStatement(t.assignmentExpression('=', moduleExports(), e));
      if (t.isExpression(d)) p.replaceWith(assign(d));
      else if ((t.isFunctionDeclaration(d) || t.isClassDeclaration(d)) && d.id) p.replaceWithMultiple([d, assign(t.cloneNode(d.id))]);
      else if (t.isFunctionDeclaration(d)) p.replaceWith(assign(t.functionExpression(null, d.params, d.body, d.generator, d.async)));
      else if (t.isClassDeclaration(d)) p.replaceWith(assign(t.classExpression(null, d.superClass, d.body, d.decorators)));
      else p.remove();
    },
    CallExpression(p) {
      const { callee, arguments: args } = p.node;
      if (t.isIdentifier(callee, { name: 'require' }) && !p.scope.hasBinding('require') && args.length === 1 && t.isStringLiteral(args[0])) {
        p.replaceWith(refFor(args[0].value));
      }
    },
    AwaitExpression(p) {
      if (!p.getFunctionParent()) markAwait(p);
    },
    ForOfStatement(p) {
      if (p.node.await && !p.getFunctionParent()) markAwait(p);
    },
  });

  const path = shape.path;
  const result = resultOf(form, shape, rootId, path, exported, ast);
  const roots = new Set<string>(rootsOf(form, shape, exported, rootId));
  const body = form === 'value' ? ast.program.body : keptStatements(ast.program.body, { roots, exports: form === 'exports', element: (callee) => callsElement(callee, shape, rootId) });
  if (body.some((s) => awaiting.has(s))) return { ok: false, error: 'the definition uses top-level await; it must run synchronously (the element may still be a promise)', code };
  const used = renumberRefs(body, result);
  const ownRefs = used.map((i) => refs[i] ?? '');
  const self = shape.module === undefined ? undefined : ownRefs.find((r) => withoutNodePrefix(String(JSON.parse(r.slice(8, -1)))) === shape.module);
  if (self !== undefined) {
    return { ok: false, error: `the code requires \`${shape.module}\`, the module it is asked to define; write that module's code yourself and end with \`module.exports = …;\``, code };
  }
  // `function splitPair…; ELEMENT = splitPair;` (the prompt's own format): the element is that name, read without ELEMENT.
  const alias = form === 'ELEMENT' ? elementAlias(body) : undefined;
  const how: DefinitionForm = alias ? 'declaration' : form;
  const value = alias ? t.identifier(alias.name) : result;
  const kept = alias ? body.filter((s) => s !== alias.statement) : body;
  const declared = declaredNames(kept);
  const fast = how === 'value' ? value : kept.length === 1 ? loneValue(kept[0], how, value, alias ? new Set([alias.name]) : roots) : undefined;
  if (fast) return { ok: true, source: print(fast), refs: ownRefs, category: categoryOf(fast, kept), code, form };
  const prelude: t.Statement[] = [];
  if (how === 'ELEMENT' && !declared.has(ELEMENT)) prelude.push(t.variableDeclaration('let', [t.variableDeclarator(t.identifier(ELEMENT))]));
  if (rootId && path && !declared.has(rootId.name)) prelude.push(t.variableDeclaration('const', [t.variableDeclarator(t.cloneNode(rootId), standIn(path.keys.slice(0, how === 'path' ? -1 : undefined)))]));
  const needsExports = !declared.has('exports') && kept.some((s) => mentions(s, new Set(['exports'])));
  if (!declared.has('module') && (how === 'exports' || needsExports || kept.some((s) => mentions(s, new Set(['module']))))) {
    prelude.push(t.variableDeclaration('const', [t.variableDeclarator(t.identifier('module'), t.objectExpression([t.objectProperty(t.identifier('exports'), t.objectExpression([]))]))]));
  }
  if (needsExports) prelude.push(t.variableDeclaration('let', [t.variableDeclarator(t.identifier('exports'), moduleExports())]));
  const iife = t.callExpression(t.arrowFunctionExpression([], t.blockStatement([...prelude, ...kept, t.returnStatement(value)])), []);
  return { ok: true, source: print(iife), refs: ownRefs, category: categoryOf(valueNode(how, value, kept), kept), code, form };
}

/** The one statement that mentions ELEMENT, when it is `ELEMENT = name;` of a name the code declares. */
function elementAlias(body: readonly t.Statement[]): { statement: t.Statement; name: string } | undefined {
  const uses = body.filter((s) => mentions(s, new Set([ELEMENT])));
  const only = uses.length === 1 ? uses[0] : undefined;
  if (!t.isExpressionStatement(only) || !t.isAssignmentExpression(only.expression, { operator: '=' })) return undefined;
  const { left, right } = only.expression;
  if (!t.isIdentifier(left, { name: ELEMENT }) || !t.isIdentifier(right) || right.name === ELEMENT || !declaredNames(body).has(right.name)) return undefined;
  return { statement: only, name: right.name };
}

/** The names the element's value is read from. */
function rootsOf(form: DefinitionForm, shape: TargetShape, exported: ReadonlyMap<string, string>, rootId: t.Identifier | undefined): Iterable<string> {
  switch (form) {
    case 'ELEMENT': return [ELEMENT];
    case 'declaration': return shape.names;
    case 'exports': return ['module', 'exports'];
    case 'named-exports': return exported.values();
    case 'value': return [];
    default: return rootId ? [rootId.name] : [];
  }
}

function resultOf(form: DefinitionForm, shape: TargetShape, rootId: t.Identifier | undefined, path: ElementPath | undefined, exported: ReadonlyMap<string, string>, ast: t.File): t.Expression {
  switch (form) {
    case 'ELEMENT': return t.identifier(ELEMENT);
    case 'declaration': {
      const declared = declaredNames(ast.program.body);
      return t.identifier(shape.names.find((n) => declared.has(n)) ?? shape.names[0] ?? ELEMENT);
    }
    case 'exports': return moduleExports();
    case 'named-exports': return t.objectExpression([...exported].map(([name, local]) => t.objectProperty(t.isValidIdentifier(name) ? t.identifier(name) : t.stringLiteral(name), t.identifier(local), false, name === local)));
    case 'value': {
      const only = ast.program.body[0];
      if (t.isExpressionStatement(only)) return only.expression;
      return t.stringLiteral(ast.program.directives[0]?.value.value ?? '');
    }
    default: return (path?.keys ?? []).reduce<t.Expression>((o, k) => memberOf(o, k), rootId ? t.cloneNode(rootId) : t.identifier(ELEMENT));
  }
}

/** A block of one statement that gives the element's value without needing its own name: that value alone. */
function loneValue(s: t.Statement | undefined, form: DefinitionForm, result: t.Expression, roots: ReadonlySet<string>): t.Expression | undefined {
  if (t.isExpressionStatement(s) && t.isAssignmentExpression(s.expression, { operator: '=' }) && sameReference(s.expression.left, result)) {
    return mentions(s.expression.right, roots) ? undefined : s.expression.right;
  }
  if (form !== 'declaration' || !t.isIdentifier(result)) return undefined;
  // A named function or class expression binds its own name, so it may use it.
  if (t.isFunctionDeclaration(s) && s.id?.name === result.name) return t.functionExpression(s.id, s.params, s.body, s.generator, s.async);
  if (t.isClassDeclaration(s) && s.id?.name === result.name) return t.classExpression(s.id, s.superClass, s.body, s.decorators);
  const d = t.isVariableDeclaration(s) && s.declarations.length === 1 ? s.declarations[0] : undefined;
  if (d?.init && t.isIdentifier(d.id, { name: result.name }) && !mentions(d.init, roots)) return d.init;
  return undefined;
}

function callsElement(callee: t.Node, shape: TargetShape, rootId: t.Identifier | undefined): boolean {
  if (t.isIdentifier(callee) && (callee.name === ELEMENT || shape.names.includes(callee.name))) return true;
  const path = shape.path;
  if (!path || path.keys.length === 0) return false;
  const match = pathMatch(callee, rootId ? { roots: [...path.roots, rootId.name], keys: path.keys } : path);
  return match?.extra === 0;
}

/** `$i` refs in the kept statements, numbered again from 0 in order: refs only dropped statements used are gone. Returns the old indices kept. */
function renumberRefs(body: readonly t.Statement[], result: t.Expression): number[] {
  const nodes = new Set<t.Identifier>();
  for (const n of [...body, result]) walk(n, (node) => { if (t.isIdentifier(node) && /^\$\d+$/.test(node.name)) nodes.add(node); });
  const used = [...new Set([...nodes].map((n) => Number(n.name.slice(1))))].sort((a, b) => a - b);
  for (const n of nodes) n.name = `$${used.indexOf(Number(n.name.slice(1)))}`;
  return used;
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

function moduleExports(): t.MemberExpression {
  return t.memberExpression(t.identifier('module'), t.identifier('exports'));
}

function memberOf(object: t.Expression, key: string): t.MemberExpression {
  return t.isValidIdentifier(key) ? t.memberExpression(object, t.identifier(key)) : t.memberExpression(object, t.stringLiteral(key), true);
}

/** The stand-in for an undeclared root whose path the code assigns: `{ b: {} }` for `a.b.c = …`. */
function standIn(keys: readonly string[]): t.ObjectExpression {
  return keys.reduceRight<t.ObjectExpression>((inner, k) => t.objectExpression([t.objectProperty(t.isValidIdentifier(k) ? t.identifier(k) : t.stringLiteral(k), inner)]), t.objectExpression([]));
}

function print(node: t.Node): string {
  return generate(node, { comments: false, jsescOption: { minimal: true } }).code;
}
