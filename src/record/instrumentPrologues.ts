import type * as t from '@babel/types';
import { callKey, CALLS_SYMBOL, MOCKS_SYMBOL, REACH_SYMBOL } from './callTrace.ts';
import type { TextEdits } from './textEdits.ts';
import { isClassNode, isFunctionNode } from './walkAst.ts';

/**
 * What the instrumentation inserts besides the recorder's calls: the test-time prologue of a
 * function (its calls counted, and a mock set for it called instead), and the publication of a
 * module's top-level bindings for reach() (to the test hooks, or to the recorder).
 */

/** The function a prologue goes into: its node, qualname and module, and its depth in the AST. */
export interface PrologueTarget {
  readonly node: t.Function;
  readonly module: string;
  readonly qualname: string;
  readonly depth: number;
}

/** The offset where a block body's own statements start: after its directives (`'use strict'` must stay first). */
export function afterDirectives(body: t.BlockStatement): number {
  const last = body.directives.at(-1);
  return last?.end ?? (body.start ?? 0) + 1;
}

/** Where an arrow's expression body starts, before any parentheses around it. */
export function expressionStart(body: t.Expression): number {
  const extra = body.extra as { parenStart?: number } | undefined;
  return extra?.parenStart ?? body.start ?? 0;
}

/** The test-time prologue: `counted` counts the call in the CALLS_SYMBOL Map; `forward` (the arguments as the mock gets them), when it is mockable, then hands it to a mock set for its callKey. */
export function addTestPrologue(edits: TextEdits, source: string, f: PrologueTarget, names: { readonly mock: string; readonly count: string }, forward: string | undefined, counted: boolean): void {
  const key = JSON.stringify(callKey(f.module, f.qualname));
  const parts: string[] = [];
  if (counted) parts.push(`const ${names.count} = globalThis[Symbol.for(${JSON.stringify(CALLS_SYMBOL)})]; if (${names.count} !== undefined) ${names.count}.set(${key}, (${names.count}.get(${key}) ?? 0) + 1);`);
  if (forward !== undefined) {
    const args = forward;
    const call = args === 'arguments' ? `${names.mock}.apply(this, arguments)` : `${names.mock}.call(this${args ? `, ${args}` : ''})`;
    parts.push(`const ${names.mock} = globalThis[Symbol.for(${JSON.stringify(MOCKS_SYMBOL)})]?.get(${key}); if (${names.mock} !== undefined) return ${call};`);
  }
  const prologue = parts.join(' ');
  const body = f.node.body;
  if (body.type === 'BlockStatement') {
    edits.open(afterDirectives(body), f.depth, ` ${prologue}`);
  } else {
    edits.open(expressionStart(body), f.depth, `{ ${prologue} return (`);
    edits.close(f.node.end ?? source.length, f.depth, `); }`);
  }
}

/**
 * `commonJs`: the module's `module.exports` is published too, as `module.exports` (what `exports.f = …` and `module.exports = {…}` define).
 * `recorder`: published to the recorder (its `reach`) instead of the test-time REACH_SYMBOL Map.
 */
export function addReach(edits: TextEdits, program: t.Program, module: string, names: readonly string[], commonJs: boolean, recorder?: string, state?: { readonly names: readonly string[]; readonly value: string }): void {
  const first = program.body[0];
  const settable = new Set(state?.names ?? []);
  if ((names.length === 0 && settable.size === 0 && !commonJs) || !first) return;
  const at = program.directives.at(-1)?.end ?? first.start ?? 0;
  // A state variable has a setter too: a test sets the values its call started with (stateVariables.ts).
  const accessors = (n: string): string => `get ${n}() { return ${n}; }${settable.has(n) ? `, set ${n}(${state?.value ?? 'v'}) { ${n} = ${state?.value ?? 'v'}; }` : ''}`;
  const getters = [...new Set([...names, ...settable])].map(accessors).concat(commonJs ? ['get "module.exports"() { return module.exports; }'] : []).join(', ');
  const into = recorder === undefined ? `(globalThis[Symbol.for(${JSON.stringify(REACH_SYMBOL)})] ??= new Map()).set` : `${recorder}.reach`;
  edits.open(at, 0, `;${into}(${JSON.stringify(module)}, { ${getters} });`);
}

/**
 * The module's reader of its state variables, `function NAME(n) { switch (n) { case "pos": return pos; … } }`:
 * a declaration, so a hoisted function called before the module's body runs finds it; a variable
 * not yet initialized throws, which the recorder catches.
 */
export function addStateReader(edits: TextEdits, program: t.Program, names: readonly string[], reader: string): void {
  const first = program.body[0];
  if (!first) return;
  const at = program.directives.at(-1)?.end ?? first.start ?? 0;
  edits.open(at, 0, `;function ${reader}(n) { switch (n) { ${names.map((n) => `case ${JSON.stringify(n)}: return ${n};`).join(' ')} } }`);
}

/** Top-level function and class declarations, and `const/let/var` bindings of function and class expressions and of object literals (whose methods a test calls through them). */
export function topLevelBindings(program: t.Program): string[] {
  const names: string[] = [];
  for (const stmt of program.body) {
    const decl = stmt.type === 'ExportNamedDeclaration' || stmt.type === 'ExportDefaultDeclaration' ? stmt.declaration : stmt;
    if ((decl?.type === 'FunctionDeclaration' || decl?.type === 'ClassDeclaration') && decl.id && !decl.declare) names.push(decl.id.name);
    if (decl?.type === 'VariableDeclaration' && !decl.declare) {
      for (const d of decl.declarations) {
        if (d.id.type === 'Identifier' && (isFunctionNode(d.init) || isClassNode(d.init) || d.init?.type === 'ObjectExpression')) names.push(d.id.name);
      }
    }
  }
  return [...new Set(names)];
}

