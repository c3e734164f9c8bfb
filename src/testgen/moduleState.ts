import { parse } from '@babel/parser';
import _traverse, { type NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallRecord } from '../record/callTrace.ts';
import { pluginsFor } from './moduleOutline.ts';
import { skip, type SkipReason } from './skipReasons.ts';

const traverse = ((_traverse as unknown as { default?: unknown }).default ?? _traverse) as typeof _traverse.default;

/**
 * Which functions of a module read module state: a top-level `let` or `var` that some function
 * assigns (json5's lexer keeps `pos`, `c`, `lexState` so). A call of such a function gives what
 * the earlier calls left there, which its test, run alone, does not have. A read does not count
 * when the function itself assigned the variable before it (in source order) and no function
 * outside it assigns it: that is the function's own scratch, set up on every call.
 */
export class ModuleState {
  readonly #programDir: string;
  readonly #modules = new Map<string, StateUse>();

  constructor(programDir: string) {
    this.#programDir = programDir;
  }

  /** The state variables the function starting on `line` of `module` reads, each with the start lines of the functions that assign it. */
  readsAt(module: string, line: number): readonly (readonly [string, readonly number[]])[] {
    const use = this.#use(module);
    return (use.readers.get(line) ?? []).map((name) => [name, use.writers.get(name) ?? []] as const);
  }

  /**
   * The module's WeakMaps and WeakSets (`const producers = new WeakMap()`) the function starting on
   * `line` of `module` (or a function nested in it) uses: state keyed by the identity of objects,
   * which an object a test builds again is not (emittery keeps each emitter's listeners so).
   */
  identityKeyed(module: string, line: number): readonly string[] {
    return [...(this.#use(module).identityKeyed.get(line) ?? [])];
  }

  /** The state variables the function starting on `line` of `module` (or a function nested in it) assigns: a mock of it does not. */
  writesAt(module: string, line: number): readonly string[] {
    return [...(this.#use(module).assigns.get(line) ?? [])];
  }

  /**
   * The module objects the function starting on `line` of `writer` changes a member of (`P.s = …`)
   * and the function starting on `readerLine` of the same module reads: a mock of the writer gives
   * its result, not the change.
   */
  changedFor(module: string, writerLine: number, readerLine: number): readonly string[] {
    const use = this.#use(module);
    const read = use.memberReaders.get(readerLine);
    return read === undefined ? [] : [...(use.memberWriters.get(writerLine) ?? [])].filter((name) => read.has(name));
  }

  #use(module: string): StateUse {
    let use = this.#modules.get(module);
    if (use === undefined) {
      use = this.#analyse(module);
      this.#modules.set(module, use);
    }
    return use;
  }

  #analyse(module: string): StateUse {
    try {
      const path = join(this.#programDir, module);
      return stateUse(readFileSync(path, 'utf8'), module, (from, name) => exportsWeakCollection(join(dirname(path), from), name));
    } catch {
      return { readers: new Map(), writers: new Map(), assigns: new Map(), memberWriters: new Map(), memberReaders: new Map(), identityKeyed: new Map() }; // A module that cannot be read or parsed: gen-tests says so elsewhere.
    }
  }
}

/**
 * Whether a test can set up the module state its call read. The tests of a module's file run in
 * the trace's order, in one process, on the module freshly loaded, so the calls that assigned the
 * state before the tested one assign it again before its test when each is a test itself, ended
 * before the tested call started (not a call it ran in), and no other test runs it for real as well (a nested function, a recursion or a callback runs inside
 * its caller's test; a call of another function is replayed there by a mock, which assigns
 * nothing). A call reading state that a call before it assigned otherwise is skipped as
 * `module-state`. Calls are given in the trace's order: `check`, then `tested` when it became a test.
 */
export class StateSetUp {
  readonly #state: ModuleState;
  readonly #inline: (child: CallRecord, tested: CallRecord, parent: CallRecord | undefined) => boolean;
  /** By `line:module`, the calls of each function, in order. */
  readonly #callsOf = new Map<string, CallRecord[]>();
  readonly #byId = new Map<number, CallRecord>();
  readonly #tested = new Set<number>();
  readonly #inlineIn = new Map<number, string>();

  /** `inline(child, tested, parent)`: whether a call below a tested call, made by `parent`, runs for real in its test (planCalls' runsInline). */
  constructor(calls: readonly CallRecord[], state: ModuleState, inline: (child: CallRecord, tested: CallRecord, parent: CallRecord | undefined) => boolean) {
    this.#state = state;
    this.#inline = inline;
    for (const call of calls) {
      this.#byId.set(call.callId, call);
      const key = `${call.line}:${call.module}`;
      const list = this.#callsOf.get(key);
      if (list) list.push(call);
      else this.#callsOf.set(key, [call]);
    }
  }

  /** Why the call's test would not see the state it read, or undefined when it would. */
  check(call: CallRecord): SkipReason | undefined {
    for (const [name, writers] of this.#state.readsAt(call.module, call.line)) {
      for (const line of writers) {
        for (const writer of this.#callsOf.get(`${line}:${call.module}`) ?? []) {
          if (writer.callId >= call.callId) break;
          const why = !this.#tested.has(writer.callId) ? 'which is not a test itself' : this.#encloses(writer, call) ? 'in the call this one ran in (its test replays the whole call first)' : this.#alsoInline(writer);
          if (why !== undefined) return skip('module-state', `it reads ${name}, a module variable that ${writer.qualname} (call ${writer.callId}) assigned before it, ${why}`);
        }
      }
    }
    return undefined;
  }

  tested(call: CallRecord): void {
    this.#tested.add(call.callId);
  }

  /** Which tested call runs `call` for real besides its own test, said as a reason; undefined when none does. */
  #alsoInline(call: CallRecord): string | undefined {
    let why = this.#inlineIn.get(call.callId);
    if (why === undefined) {
      why = '';
      // Below a tested call, a call runs for real when every call on the way down to it does (planCalls' childMocks).
      const below = [call];
      for (let above = this.#parent(call); above !== undefined && why === ''; above = this.#parent(above)) {
        if (this.#tested.has(above.callId) && below.every((c) => this.#inline(c, above as CallRecord, this.#parent(c)))) why = `which the test of call ${above.callId} runs too`;
        below.push(above);
      }
      this.#inlineIn.set(call.callId, why);
    }
    return why === '' ? undefined : why;
  }

  /** Whether `outer` is `call` or one of the calls it ran in. */
  #encloses(outer: CallRecord, call: CallRecord): boolean {
    for (let c: CallRecord | undefined = call; c !== undefined; c = this.#parent(c)) if (c.callId === outer.callId) return true;
    return false;
  }

  #parent(call: CallRecord): CallRecord | undefined {
    return call.parentCallId === null ? undefined : this.#byId.get(call.parentCallId);
  }
}

/** A module's state variables: by a function's start line, those it (or a function nested in it) reads; by variable, the start lines of the functions that assign it. */
interface StateUse {
  readonly readers: ReadonlyMap<number, readonly string[]>;
  readonly writers: ReadonlyMap<string, readonly number[]>;
  /** By a function's start line, the state variables it (or a function nested in it) assigns. */
  readonly assigns: ReadonlyMap<number, ReadonlySet<string>>;
  /** By a function's start line, the top-level bindings whose members it assigns (`P["s"] = …`, `cache.x++`, `delete map.k`). */
  readonly memberWriters: ReadonlyMap<number, ReadonlySet<string>>;
  /** By a function's start line, those of them it (or a function nested in it) reads otherwise. */
  readonly memberReaders: ReadonlyMap<number, ReadonlySet<string>>;
  /** By a function's start line, the top-level WeakMaps and WeakSets (`new WeakMap()`) it (or a function nested in it) uses. */
  readonly identityKeyed: ReadonlyMap<number, ReadonlySet<string>>;
}

/** A declarator of a WeakMap or WeakSet (`const producers = new WeakMap()`): state keyed by the identity of objects. */
function keyedByIdentity(node: t.Node): boolean {
  if (node.type !== 'VariableDeclarator' || node.init?.type !== 'NewExpression' || node.init.callee.type !== 'Identifier') return false;
  return node.init.callee.name === 'WeakMap' || node.init.callee.name === 'WeakSet';
}

/** `import { producersMap } from './maps.js'` of a WeakMap or WeakSet that module declares (emittery's). */
function importedWeak(path: NodePath, weakImport: (source: string, name: string) => boolean): boolean {
  const { node, parent } = path;
  if (node.type !== 'ImportSpecifier' || parent?.type !== 'ImportDeclaration' || !parent.source.value.startsWith('.')) return false;
  return weakImport(parent.source.value, node.imported.type === 'Identifier' ? node.imported.name : node.imported.value);
}

/** Whether the module file at `path` declares `name` at its top level as a WeakMap or WeakSet. */
function exportsWeakCollection(path: string, name: string): boolean {
  try {
    const ast = parse(readFileSync(path, 'utf8'), { sourceType: 'unambiguous', plugins: pluginsFor(path) });
    return ast.program.body.some((statement) => {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      return declaration?.type === 'VariableDeclaration' && declaration.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name && keyedByIdentity(d));
    });
  } catch {
    return false; // not readable or not parseable: not known to be one
  }
}

/** Whether the reference is the object of a call of one of these methods (`producers.get(key)`). */
function collectionCall(ref: NodePath, methods: readonly string[]): boolean {
  const member = ref.parentPath;
  if (member === null || !member.isMemberExpression() || member.node.object !== ref.node || member.node.computed || member.node.property.type !== 'Identifier') return false;
  return methods.includes(member.node.property.name) && member.parentPath?.isCallExpression() === true && (member.parentPath.node as t.CallExpression).callee === member.node;
}

/** `weakImport(source, name)`: whether the module a relative import names declares `name` as a WeakMap or WeakSet. */
function stateUse(source: string, fileName: string, weakImport: (source: string, name: string) => boolean): StateUse {
  const ast = parse(source, { sourceType: 'unambiguous', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, plugins: pluginsFor(fileName) });
  const readers = new Map<number, Set<string>>();
  const writerLines = new Map<string, number[]>();
  const assigns = new Map<number, Set<string>>();
  const memberWriters = new Map<number, Set<string>>();
  const memberReaders = new Map<number, Set<string>>();
  const identityKeyed = new Map<number, Set<string>>();
  const add = (map: Map<number, Set<string>>, line: number | undefined, name: string) => {
    if (line === undefined) return;
    const names = map.get(line) ?? new Set<string>();
    names.add(name);
    map.set(line, names);
  };
  traverse(ast, {
    Program(path) {
      for (const [name, binding] of Object.entries(path.scope.bindings)) {
        if (keyedByIdentity(binding.path.node) || importedWeak(binding.path, weakImport)) {
          // A function storing into it too is a cache (immer's cachedCtorStrings): it computes what it misses.
          const stores = new Set(binding.referencePaths.filter((ref) => collectionCall(ref, ['set', 'add', 'delete'])).map((ref) => ref.getFunctionParent()?.node));
          for (const ref of binding.referencePaths) {
            if (!collectionCall(ref, ['get', 'has']) || stores.has(ref.getFunctionParent()?.node)) continue;
            for (let fn = ref.getFunctionParent(); fn !== null; fn = fn.parentPath.getFunctionParent()) add(identityKeyed, fn.node.loc?.start.line, name);
          }
        }
        const changed = binding.referencePaths.filter(changesMember);
        const changers = changed.map((w) => w.getFunctionParent()).filter((f): f is NodePath<t.Function> => f !== null);
        for (const fn of changers) add(memberWriters, fn.node.loc?.start.line, name);
        if (changers.length > 0) {
          for (const read of binding.referencePaths) {
            if (changed.includes(read)) continue;
            for (let fn = read.getFunctionParent(); fn !== null; fn = fn.parentPath.getFunctionParent()) add(memberReaders, fn.node.loc?.start.line, name);
          }
        }
        if (binding.kind !== 'let' && binding.kind !== 'var') continue;
        const writers = binding.constantViolations.map((w) => w.getFunctionParent()).filter((f): f is NodePath<t.Function> => f !== null);
        if (writers.length === 0) continue;
        writerLines.set(name, [...new Set(writers.map((w) => w.node.loc?.start.line ?? 0))]);
        for (const writer of writers) for (let fn: NodePath<t.Function> | null = writer; fn !== null; fn = fn.parentPath.getFunctionParent()) add(assigns, fn.node.loc?.start.line, name);
        for (const read of binding.referencePaths) {
          if (onlyUpdated(read)) continue;
          for (let fn = read.getFunctionParent(); fn !== null; fn = fn.parentPath.getFunctionParent()) {
            if (ownScratch(fn, read, binding.constantViolations, writers)) break;
            add(readers, fn.node.loc?.start.line, name);
          }
        }
      }
      path.stop();
    },
  });
  return { readers: new Map([...readers].map(([line, names]) => [line, [...names].sort()])), writers: writerLines, assigns, memberWriters, memberReaders, identityKeyed };
}

/** Whether the reference is the object of a member that is assigned, updated or deleted (`P["s"] = …`, `P.n++`, `delete P.d`). */
function changesMember(ref: NodePath): boolean {
  const member = ref.parentPath;
  if (member === null || !member.isMemberExpression() || member.node.object !== ref.node) return false;
  const user = member.parentPath;
  if (user === null) return false;
  if (user.isAssignmentExpression() && user.node.left === member.node) return true;
  if (user.isUpdateExpression()) return true;
  return user.isUnaryExpression() && user.node.operator === 'delete';
}

/** `line++`, `column += n` as a statement: the variable is read only to be assigned, so the function's result does not depend on it. */
function onlyUpdated(read: NodePath): boolean {
  const update = read.parentPath;
  if (update === null) return false;
  const updating = update.isUpdateExpression() || (update.isAssignmentExpression() && update.node.operator !== '=' && update.node.left === read.node);
  if (!updating) return false;
  const user = update.parentPath;
  return user !== null && (user.isExpressionStatement() || (user.isForStatement() && user.node.update === update.node));
}

/** Whether `fn` assigns the variable before `read` in its own body, and no function outside `fn` assigns it. */
function ownScratch(fn: NodePath<t.Function>, read: NodePath, violations: readonly NodePath[], writers: readonly NodePath<t.Function>[]): boolean {
  if (writers.some((w) => w.node !== fn.node && !w.isDescendant(fn))) return false;
  const at = read.node.start ?? 0;
  return violations.some((v) => v.getFunctionParent()?.node === fn.node && (v.node.end ?? Infinity) <= at);
}
