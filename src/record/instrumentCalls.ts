import { parse, type ParserPlugin } from '@babel/parser';
import type * as t from '@babel/types';
import { RECORDER_GLOBAL } from './functionIds.ts';
import { closureMakers, type NestedFunction } from './closureMakers.ts';
import { describeFunction, isInstrumentable, type FunctionInfo } from './functionNames.ts';
import { addReach, addStateReader, addTestPrologue, afterDirectives, expressionStart, topLevelBindings } from './instrumentPrologues.ts';
import { stateVariables, type StateVariables } from './stateVariables.ts';
import { TextEdits } from './textEdits.ts';
import { functionParent, isFunctionNode, walkAst, type AstPath } from './walkAst.ts';


/**
 * - `test`: each mockable function gets the mock prologue of the test-time contract (callTrace.ts),
 *   and the module publishes its top-level functions and classes for `reach`.
 * - `record`: each function reports its calls to the recorder; `define` gives a function its id.
 */
export type InstrumentMode =
  | { readonly kind: 'test' }
  | { readonly kind: 'record'; readonly define: (fn: FunctionInfo) => number };

/** Node's module formats this instrumenter reads (the `-typescript` ones are kept TypeScript for Node to strip). */
export type ModuleFormat = 'module' | 'commonjs' | 'module-typescript' | 'commonjs-typescript';

export interface AnalysedFunction extends FunctionInfo {
  /** The function has the mock prologue: a generated test may set its callKey in the mocks Map. */
  readonly mockable: boolean;
  /** No other function of its module has its qualname: a call or a function value naming it names this one. */
  readonly unique: boolean;
  /** Anonymous or nested in another function: no test calls it by name, so the test hooks count its calls (CALLS_SYMBOL) for the test that runs it inside its parent. */
  readonly counted: boolean;
}

export interface InstrumentedModule {
  /** The source with the instrumentation inserted; no line moves. */
  readonly code: string;
  readonly functions: readonly AnalysedFunction[];
  /** Top-level function and class bindings, published for `reach` in test mode. */
  readonly reachable: readonly string[];
}

export interface InstrumentOptions {
  /** Append an inline source map naming this file (a file URL): with source maps on, stack columns and error excerpts are the original's. */
  readonly sourceMapFile?: string;
}

/** A function found, with its node, info and enclosing function (NestedFunction). */
interface FoundFunction extends NestedFunction {
  readonly depth: number;
  /** Inside another function. */
  readonly nested: boolean;
}

interface Owned<N extends t.Node> {
  readonly node: N;
  readonly owner: t.Function;
  readonly depth: number;
}

interface Found {
  functions: FoundFunction[];
  readonly returns: Owned<t.ReturnStatement>[];
  readonly awaits: Owned<t.AwaitExpression>[];
  readonly yields: Owned<t.YieldExpression>[];
  /** Finalizers: an async function resumes in one after a rejected await. */
  readonly finalizers: Owned<t.BlockStatement>[];
  /** Every catch clause, also at the top level (owner null): it tells the recorder what the calls it unwound threw. */
  readonly catches: { readonly node: t.CatchClause; readonly owner: t.Function | null; readonly depth: number }[];
  /** `for await` loops, with where the loop starts with its labels (`outer: for await …`) and that statement's depth. */
  readonly forAwaits: (Owned<t.ForOfStatement> & { readonly outerStart: number; readonly outerDepth: number })[];
  readonly classBodies: { readonly node: t.ClassBody; readonly depth: number }[];
}

/**
 * Parses one of the program's modules and inserts the calls of `mode`. Text is only inserted,
 * never moved, so every line keeps its number. Throws what Babel throws on a syntax error: the
 * caller then hands Node the original text, which reports the error as plain `node` would.
 */
export function instrumentModule(source: string, module: string, format: ModuleFormat, mode: InstrumentMode, options: InstrumentOptions = {}): InstrumentedModule {
  const ast = parse(source, {
    sourceType: format.startsWith('module') ? 'module' : 'unambiguous',
    allowReturnOutsideFunction: format.startsWith('commonjs'),
    plugins: (format.endsWith('typescript') ? ['typescript', 'explicitResourceManagement'] : ['explicitResourceManagement']) as ParserPlugin[],
  });
  const found = findFunctions(ast, module);
  const counts = new Map<string, number>();
  for (const f of found.functions) counts.set(f.info.qualname, (counts.get(f.info.qualname) ?? 0) + 1);
  const functions = found.functions.map((f) => ({ ...f.info, mockable: counts.get(f.info.qualname) === 1 && forwarding(f.info) !== undefined, unique: counts.get(f.info.qualname) === 1, counted: f.nested || /[<@]/.test(f.info.qualname) }));
  const reachable = topLevelBindings(ast.program);
  const edits = new TextEdits();
  const names = uniqueNames(source);
  const state = stateVariables(ast.program);
  if (mode.kind === 'test') {
    found.functions.forEach((f, i) => {
      const analysed = functions[i];
      if (analysed?.mockable || analysed?.counted) addTestPrologue(edits, source, { node: f.node, module: f.info.module, qualname: f.info.qualname, depth: f.depth }, names, analysed.mockable ? forwarding(f.info) : undefined, analysed.counted);
    });
    addReach(edits, ast.program, module, reachable, ast.program.sourceType === 'script' && format.startsWith('commonjs'), undefined, { names: state.names, value: names.value });
  } else {
    addRecording(edits, source, found, module, mode.define, names, state);
    if (state.readBy.size > 0) addStateReader(edits, ast.program, state.names, names.state);
    // The recorder learns what a test's reach() will give, to find the functions reachable through it at exit (reachPaths.ts).
    addReach(edits, ast.program, module, reachable, ast.program.sourceType === 'script' && format.startsWith('commonjs'), RECORDER_GLOBAL);
  }
  if (edits.size === 0) return { code: source, functions, reachable };
  const code = edits.apply(source);
  if (options.sourceMapFile === undefined) return { code, functions, reachable };
  // The last sourceMappingURL comment wins: this one, even in a file that names its own map.
  const map = Buffer.from(edits.sourceMap(source, options.sourceMapFile)).toString('base64');
  return { code: `${code}\n//# sourceMappingURL=data:application/json;base64,${map}\n`, functions, reachable };
}

function findFunctions(ast: t.File, module: string): Found {
  const found: Found = { functions: [], returns: [], awaits: [], yields: [], finalizers: [], catches: [], forAwaits: [], classBodies: [] };
  const owned = <N extends t.Node>(path: AstPath, into: Owned<N>[]): void => {
    const owner = functionParent(path);
    if (owner) into.push({ node: path.node as N, owner: owner.node as t.Function, depth: path.depth });
  };
  // Functions that declare a binding named `arguments` of their own (sloppy mode only): theirs is not the call's.
  const rebinds = new WeakSet<t.Node>();
  const functions: AstPath[] = [];
  walkAst(ast, (path) => {
    const { node } = path;
    if (isFunctionNode(node)) {
      if (isInstrumentable(node)) functions.push(path);
      return;
    }
    switch (node.type) {
      case 'ReturnStatement': return owned(path, found.returns);
      case 'AwaitExpression': return owned(path, found.awaits);
      case 'YieldExpression': return owned(path, found.yields);
      case 'CatchClause':
        found.catches.push({ node, owner: (functionParent(path)?.node as t.Function | undefined) ?? null, depth: path.depth });
        return;
      case 'BlockStatement':
        if (path.key === 'finalizer') owned(path, found.finalizers);
        return;
      case 'ForOfStatement': {
        const owner = functionParent(path);
        if (!node.await || !owner) return;
        let outer = path;
        while (outer.parent?.node.type === 'LabeledStatement') outer = outer.parent;
        found.forAwaits.push({ node, owner: owner.node as t.Function, depth: path.depth, outerStart: outer.node.start ?? 0, outerDepth: outer.depth });
        return;
      }
      case 'ClassBody':
        found.classBodies.push({ node, depth: path.depth });
        return;
      case 'Identifier': {
        const binding = path.key === 'id' && (path.parent?.node.type === 'VariableDeclarator' || path.parent?.node.type === 'FunctionDeclaration');
        if (node.name === 'arguments' && binding) {
          const owner = functionParent(path.parent?.node.type === 'FunctionDeclaration' ? path.parent : path);
          if (owner) rebinds.add(owner.node);
        }
        return;
      }
    }
  });
  for (const path of functions) {
    const node = path.node as t.Function;
    const parent = functionParent(path)?.node as t.Function | undefined;
    const inBody = parent !== undefined && (node.start ?? 0) >= (parent.body.start ?? 0) && (node.end ?? 0) <= (parent.body.end ?? 0);
    found.functions.push({ node, info: describeFunction(path, module, rebinds.has(path.node)), depth: path.depth, nested: parent !== undefined, enclosing: inBody ? parent : undefined });
  }
  // Anonymous functions sharing a line (minified code) are told apart by their column: `<anonymous>@1:2048`.
  const perLine = new Map<string, number>();
  for (const f of found.functions) if (f.info.qualname.startsWith('<anonymous>@')) perLine.set(f.info.qualname, (perLine.get(f.info.qualname) ?? 0) + 1);
  found.functions.forEach((f, i) => {
    if ((perLine.get(f.info.qualname) ?? 0) < 2) return;
    found.functions[i] = { ...f, info: { ...f.info, qualname: `${f.info.qualname}:${(f.node.loc?.start.column ?? 0) + 1}` } };
  });
  return found;
}

/** Identifiers the inserted code declares, chosen so they appear nowhere in the source. */
interface Names {
  readonly call: string;
  readonly error: string;
  readonly mock: string;
  readonly count: string;
  /** The module's reader of its state variables (stateVariables.ts), a function declaration. */
  readonly state: string;
  /** A setter's parameter. */
  readonly value: string;
  /** Prefix of the id of an enclosing function's call, by nesting level (`__snx_p0`): the closures it makes name it as their maker. */
  readonly maker: string;
}

function uniqueNames(source: string): Names {
  let prefix = '__snx';
  for (let i = 1; source.includes(prefix); i++) prefix = `__snx${i}`;
  return { call: `${prefix}_c`, error: `${prefix}_e`, mock: `${prefix}_m`, count: `${prefix}_n`, state: `${prefix}_s`, value: `${prefix}_v`, maker: `${prefix}_p` };
}

/** How a mock is handed the call's arguments, or undefined when they cannot be forwarded (never mockable). */
function forwarding(info: FunctionInfo): string | undefined {
  // A mock cannot stand in for `new` (and `this` is not bound before `super()`).
  if (info.isGenerator || info.kind === 'constructor') return undefined;
  if (info.ownArguments) return 'arguments';
  if (info.params.some((p) => p.form === 'pattern')) return undefined;
  return info.params.map((p) => (p.form === 'rest' ? `...${p.name}` : p.name)).join(', ');
}

function addRecording(edits: TextEdits, source: string, found: Found, module: string, define: (fn: FunctionInfo) => number, names: Names, state: StateVariables): void {
  const R = RECORDER_GLOBAL;
  const C = names.call;
  const wrapped = new Set<t.Function>();
  const asyncWrapped = new Set<t.Function>();
  const generators = new Set<t.Function>();
  // A function with closures in its body gives them its call's id, in a variable named by its nesting level.
  const { makers, levels } = closureMakers(found.functions);
  for (const f of found.functions) {
    const reads = f.info.isGenerator ? undefined : state.readBy.get(f.node);
    const encloses = makers.has(f.node);
    const id = define({ ...f.info, ...(reads !== undefined ? { state: reads } : {}), ...(encloses ? { encloses: true as const } : {}) });
    const level = levels.get(f.node) ?? 0;
    // Its maker: the enclosing call's id, for a closure of a function that gives it (never a generator: its body starts later).
    const maker = f.enclosing !== undefined && makers.has(f.enclosing) && !f.info.isGenerator ? `${names.maker}${level - 1}` : undefined;
    const alias = encloses ? `, ${names.maker}${level} = ${C}.callId` : '';
    // A plain function may be a constructor: `new.target` says whether `new` called it, and `this` is then the object it builds.
    const constructible = (f.node.type === 'FunctionDeclaration' || f.node.type === 'FunctionExpression') && !f.info.isAsync && !f.info.isGenerator;
    const self = f.info.hasThis || constructible ? 'this' : 'void 0';
    const args = f.info.params.map((p, i) => (p.form !== 'pattern' ? p.name : f.info.ownArguments ? `arguments[${i}]` : 'void 0')).join(', ');
    // The module's state reader, for a function naming state variables: the recorder reads them as the call starts.
    const extras = [constructible ? 'new.target' : 'void 0', reads !== undefined ? names.state : 'void 0', maker ?? 'void 0'];
    while (extras.at(-1) === 'void 0') extras.pop();
    const enter = `${R}.${f.info.isGenerator ? 'gen' : 'enter'}(${id}, ${self}, [${args}]${extras.map((e) => `, ${e}`).join('')})`;
    const body = f.node.body;
    if (f.info.isGenerator && (f.info.isAsync || body.type !== 'BlockStatement')) {
      // An async generator's body runs at its first next(): it is recorded then, and not wrapped.
      if (body.type === 'BlockStatement') edits.open(afterDirectives(body), f.depth, ` ${enter};`);
      continue;
    }
    if (f.info.isGenerator && body.type === 'BlockStatement') {
      // A generator's body runs at its first next(): its call starts then; what it yields is kept
      // until it returns (its values are its result), or it ends otherwise (finally: no values).
      generators.add(f.node);
      edits.wrap(afterDirectives(body), (body.end ?? 0) - 1, f.depth, ` const ${C} = ${enter}${alias}; try {`, `;${R}.genDone(${C}); } finally { ${R}.genEnd(${C}); }`);
      continue;
    }
    wrapped.add(f.node);
    if (f.info.isAsync) asyncWrapped.add(f.node);
    // A sync function has no catch: rethrowing would move the place Node reports an uncaught error
    // at. It completes normally only through a return or `done`; the catch clause that stops its
    // exception tells the recorder what it was. An async function's rejection keeps its own place.
    const epilogue = f.info.isAsync
      ? `} catch (${names.error}) { ${R}.threw(${C}, ${names.error}); throw ${names.error}; } finally { ${R}.exit(${C}); }`
      : `} finally { ${R}.exit(${C}); }`;
    // A constructor that reaches its end built `this` (bound by then: a derived one called super()).
    const done = f.info.kind === 'constructor' ? `${R}.built(${C}, this)` : `${R}.done(${C})`;
    if (body.type === 'BlockStatement') {
      edits.wrap(afterDirectives(body), (body.end ?? 0) - 1, f.depth, ` const ${C} = ${enter}${alias}; try {`, `;${done}; ${epilogue}`);
    } else {
      edits.open(expressionStart(body), f.depth, `{ const ${C} = ${enter}${alias}; try { return ${R}.ret(${C}, `);
      edits.close(f.node.end ?? source.length, f.depth, `); ${epilogue} }`);
    }
  }
  for (const y of found.yields) {
    if (!generators.has(y.owner)) continue;
    const arg = y.node.argument;
    // `yield* it`: the recorder sees the values a generator gives through it (any other iterable: none).
    const seen = y.node.delegate ? 'genDelegates' : 'yielded';
    // The generator leaves the stack at each yield (yielded, genDelegates) and comes back to it (resume), as an async call at an await.
    edits.open(y.node.start ?? 0, y.depth, `${R}.resume(${C}, `);
    edits.close(y.node.end ?? 0, y.depth, `)`);
    if (arg) {
      edits.open(arg.start ?? 0, y.depth + 0.5, ` ${R}.${seen}(${C}, (`);
      edits.close(arg.end ?? 0, y.depth + 0.5, `))`);
    } else {
      edits.open((y.node.start ?? 0) + 'yield'.length, y.depth, ` ${R}.yielded(${C}, void 0)`);
    }
  }
  for (const r of found.returns) {
    if (generators.has(r.owner)) {
      // A generator's return ends it: done, before its finally.
      edits.open(r.node.start ?? 0, r.depth, `{ ${R}.genDone(${C}); `);
      edits.close(r.node.end ?? 0, r.depth, ` }`);
      continue;
    }
    if (!wrapped.has(r.owner)) continue;
    const arg = r.node.argument;
    if (arg) {
      // Half a level: between the return and its argument, which may be an await wrapped at its own depth.
      // Parenthesised: `return a++, b` is one argument (a sequence), not two; spaced: minified `return{…}` has no space.
      edits.open(arg.start ?? 0, r.depth + 0.5, ` ${R}.ret(${C}, (`);
      edits.close(arg.end ?? 0, r.depth + 0.5, `))`);
    } else {
      edits.open((r.node.start ?? 0) + 'return'.length, r.depth, ` ${R}.ret(${C}, void 0)`);
    }
  }
  // An async call leaves the stack at each await and comes back to it: the recorder keeps track of
  // which call is running, so a child started after an await names the right parent.
  for (const a of found.awaits) {
    if (!asyncWrapped.has(a.owner)) continue;
    edits.open(a.node.start ?? 0, a.depth, `${R}.resume(${C}, `);
    edits.close(a.node.end ?? 0, a.depth, `)`);
    edits.open(a.node.argument.start ?? 0, a.depth + 0.5, ` ${R}.suspend(${C}, (`);
    edits.close(a.node.argument.end ?? 0, a.depth + 0.5, `))`);
  }
  // A suspended call resumes in a catch or finally when an await rejects, or when its generator is thrown into or returned.
  const resumable = (owner: t.Function | null): boolean => owner !== null && (asyncWrapped.has(owner) || generators.has(owner));
  for (const b of found.finalizers) {
    if (resumable(b.owner)) edits.open((b.node.start ?? 0) + 1, b.depth, ` ${R}.at(${C});`);
  }
  for (const c of found.catches) {
    const param = c.node.param;
    const resume = resumable(c.owner) ? ` ${R}.at(${C});` : '';
    let caught = '';
    if (!param) {
      edits.open((c.node.start ?? 0) + 'catch'.length, c.depth, ` (${names.error})`);
      caught = ` ${R}.caught(${names.error});`;
    } else if (param.type === 'Identifier') {
      caught = ` ${R}.caught(${param.name});`;
    }
    if (resume || caught) edits.open((c.node.body.start ?? 0) + 1, c.depth, `${resume}${caught}`);
  }
  for (const loop of found.forAwaits) {
    if (!asyncWrapped.has(loop.owner)) continue;
    const { node, depth } = loop;
    edits.open(node.right.start ?? 0, depth + 0.5, ` ${R}.suspend(${C}, (`);
    edits.close(node.right.end ?? 0, depth + 0.5, `))`);
    const step = `} finally { ${R}.suspend(${C}, 0); }`;
    if (node.body.type === 'BlockStatement') {
      edits.wrap((node.body.start ?? 0) + 1, (node.body.end ?? 0) - 1, depth + 0.5, ` ${R}.at(${C}); try {`, step);
    } else {
      edits.open(node.body.start ?? 0, depth + 0.5, `{ ${R}.at(${C}); try { `);
      edits.close(node.body.end ?? 0, depth + 0.5, ` ${step} }`);
    }
    // After the loop (also after a break, which awaits the iterator's return()); labels stay inside, so `break outer` still names the loop.
    edits.open(loop.outerStart, loop.outerDepth - 0.5, '{ ');
    edits.close(node.end ?? 0, loop.outerDepth - 0.5, ` ${R}.at(${C}); }`);
  }
  // Each class tells the recorder its module when it is defined, so a thrown program error names it.
  for (const c of found.classBodies) edits.open((c.node.start ?? 0) + 1, c.depth, ` static { ${R}.cls(this, ${JSON.stringify(module)}); }`);
}
