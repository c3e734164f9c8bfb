import type { ChildMock } from './childMocks.ts';
import type { StepPlan } from './closureSequences.ts';
import type { StandIn } from './functionValues.ts';
import type { ErrorRef, Outcome } from './outcomes.ts';
import type { TestPlan } from './planCalls.ts';
import type { ClassRef } from './programIndex.ts';
import { propertyAccess, renderJson, renderValue, type RenderNames } from './renderSnapshot.ts';
import { holdsUniqueSymbol, type ReplayValue } from './replayValue.ts';
import type { HELPERS } from './testFileHelpers.ts';

/** How a test names an error class it expects: `error(Class, "message")` or `new TypeError("message")`. */
export type ErrorOf = (ref: ErrorRef, message: string | undefined) => string;
type UsesHelper = (helper: keyof typeof HELPERS) => void;

export function identifierFrom(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  return /^[A-Za-z_$]/.test(name) ? name : `_${name}`;
}

/** How a test calls the plan's function: the stand-ins, module state and receiver it sets up, and the call expression. */
export function renderInvocation(plan: StepPlan, names: RenderNames, errorOf: ErrorOf, usesHelper: UsesHelper): { setup: string[]; invoke: string } {
  const { target } = plan;
  const args = plan.args.map((arg, index) =>
    plan.spreadLast && index === plan.args.length - 1 && arg.kind === 'json' ? (arg.value as unknown[]).map(renderJson).join(', ') : renderValue(arg, names),
  );
  const argList = args.filter((arg) => arg !== '').join(', ');
  const setup: string[] = plan.standIns.map((s) => {
    usesHelper('standIn');
    return `const ${s.variable} = standIn(${JSON.stringify(s.qualname)}, [${s.outcomes.map((outcome) => mockOutcome(outcome, s.async, names, errorOf)).join(', ')}]);`;
  });
  // The module state the call started with, set through its module's reach() (a setter per state variable).
  setup.push(...(plan.state ?? []).map(([name, value]) => `${names.reached(plan.call.module, name)} = ${renderValue(value, names)};`));
  let invoke: string;
  if (target.kind === 'function') invoke = `${names.reached(target.module, target.name)}(${argList})`;
  else if (target.kind === 'construct') invoke = constructInvocation(target.class, argList, names);
  else if (target.kind === 'path') invoke = pathInvocation(target.module, target.path, argList, names);
  // A closure, at its path in what the sequence's maker call returned.
  else if (target.kind === 'made') invoke = `made${target.path.map(propertyAccess).join('')}(${argList})`;
  else {
    const owner = names.reached(target.class.module, target.class.name);
    const key = JSON.stringify(target.member);
    if (target.static) {
      const member = `${owner}${propertyAccess(target.member)}`;
      invoke = target.access === 'get' ? member : target.access === 'set' ? `${member} = ${args[0] ?? 'undefined'}` : `${member}(${argList})`;
    } else {
      setup.push(`const self = ${renderValue(plan.receiver as ReplayValue, names)};`);
      if (target.access === 'get') invoke = `Reflect.get(${owner}.prototype, ${key}, self)`;
      else if (target.access === 'set') invoke = `Reflect.set(${owner}.prototype, ${key}, ${args[0] ?? 'undefined'}, self)`;
      else invoke = `${owner}.prototype${propertyAccess(target.member)}.call(self${argList ? `, ${argList}` : ''})`;
    }
  }
  return { setup, invoke };
}

/** `new Class(args)`, the class reached from its module. */
function constructInvocation(ref: ClassRef, argList: string, names: RenderNames): string {
  return `new ${names.reached(ref.module, ref.name)}(${argList})`;
}

/** `api.get(args)` on the live object (its `this`), or `(0, exported)(args)` for a function that is a module's exports itself (no `this`). */
function pathInvocation(module: string, path: readonly string[], argList: string, names: RenderNames): string {
  const [head = '', ...rest] = path;
  const callee = `${names.reached(module, head)}${rest.map(propertyAccess).join('')}`;
  return rest.length === 0 ? `(0, ${callee})(${argList})` : `${callee}(${argList})`;
}

/** One test: the plan's call and what it must give; a closure's call after the calls of its sequence, each in a block of its own. */
export function renderTest(plan: TestPlan, names: RenderNames, errorOf: ErrorOf, usesHelper: UsesHelper): string {
  const { call, sequence } = plan;
  const standIns = plan.standIns.map((s) => {
    usesHelper('standIn');
    return `const ${s.variable} = standIn(${JSON.stringify(s.qualname)}, [${s.outcomes.map((outcome) => mockOutcome(outcome, s.async, names, errorOf)).join(', ')}]);`;
  });
  const tested = renderStep({ ...plan, standIns: [] }, 'tested', plan.standIns, names, errorOf, usesHelper);
  const steps = sequence === undefined ? [] : [sequence.maker, ...sequence.before];
  const block = (lines: readonly string[]): string[] => ['{', ...indent(lines, 1), '}'];
  const inner = sequence === undefined
    ? [...standIns, ...tested]
    : [...standIns, 'let made;', ...block(renderStep(sequence.maker, 'maker', [], names, errorOf, usesHelper)), ...sequence.before.flatMap((step) => block(renderStep(step, 'before', [], names, errorOf, usesHelper))), ...block(tested)];
  const title = JSON.stringify(`${call.qualname} (call ${call.callId})`);
  const async = plan.async || steps.some((step) => step.async);
  return [`test(${title}, ${async ? 'async ' : ''}() => {`, ...indent(inner, 1), '});'].join('\n');
}

const indent = (lines: readonly string[], depth: number): string[] => lines.map((line) => `${'  '.repeat(depth)}${line}`);

/**
 * One call of a test and its assertions: `tested`, the call the test is for; `maker`, the call that
 * made the closures a sequence calls (its result is `made`); `before`, an earlier call of them.
 * A call whose outcome a test cannot give (a step's) is made and not compared. `counted`: the
 * stand-ins whose calls it asserts the number of.
 */
function renderStep(plan: StepPlan, role: 'tested' | 'maker' | 'before', counted: readonly StandIn[], names: RenderNames, errorOf: ErrorOf, usesHelper: UsesHelper): string[] {
  const { target, outcome } = plan;
  const { setup, invoke } = renderInvocation(plan, names, errorOf, usesHelper);
  const wait = plan.async ? 'await ' : '';
  const body: string[] = [];
  if (role === 'maker') {
    body.push(`made = ${wait}${invoke};`);
    if (outcome?.kind === 'return') body.push(`assert.deepStrictEqual(made, ${renderValue(outcome.value, names)});`);
  } else if (outcome === undefined || (target.kind === 'member' && target.access === 'set')) {
    body.push(`${plan.iterate ? `[...${invoke}]` : `${wait}${invoke}`};`);
  } else if (outcome.kind === 'throw') {
    const { error, message } = outcome;
    const type = error.kind === 'program' ? names.reached(error.class.module, error.class.name) : error.name;
    const check = message === undefined ? type : `(error) => error instanceof ${type} && error.message === ${JSON.stringify(message)}`;
    body.push(plan.async ? `await assert.rejects(async () => ${invoke}, ${check});` : `assert.throws(() => ${invoke}, ${check});`);
  } else {
    const expected = renderValue(outcome.value, names);
    // A unique symbol in the result: the test's Symbol("x") is another symbol, so both sides are compared with each one as its description.
    const compared = holdsUniqueSymbol(outcome.value) ? (usesHelper('bySymbolDescription'), `bySymbolDescription(result), bySymbolDescription(${expected})`) : `result, ${expected}`;
    const result = plan.iterate ? `[...${invoke}]` : `${wait}${invoke}`;
    // The maker's result given back: the same object, not an equal one.
    body.push(`const result = ${result};`, outcome.value.kind === 'made' ? 'assert.strictEqual(result, made);' : `assert.deepStrictEqual(${compared});`);
  }
  const mockNames = new Map<ChildMock, string>();
  for (const child of plan.mocks) {
    const base = `${identifierFrom(child.qualname)}Mock`;
    let name = base;
    for (let n = 2; [...mockNames.values()].includes(name); n++) name = `${base}${n}`;
    mockNames.set(child, name);
    usesHelper('replay');
    const outcomes = child.outcomes.map((o) => mockOutcome(o, child.async, names, errorOf));
    setup.push(`const ${name} = replay(${JSON.stringify(child.key)}, [${outcomes.join(', ')}]);`);
    body.push(`assert.strictEqual(${name}.mock.callCount(), ${child.outcomes.length}, ${JSON.stringify(`calls of ${child.qualname}`)});`);
  }
  for (const s of counted) body.push(`assert.strictEqual(${s.variable}.mock.callCount(), ${s.outcomes.length}, ${JSON.stringify(`calls of ${s.qualname}, a function value it was given`)});`);
  if (plan.ran.length > 0) {
    // The anonymous and nested functions the call runs: they ran as often as when recorded.
    usesHelper('ran');
    const keys = `[${plan.ran.map((r) => JSON.stringify(r.key)).join(', ')}]`;
    setup.push(`const ranBefore = ran(${keys});`);
    body.push(`assert.deepStrictEqual(ran(${keys}, ranBefore), { ${plan.ran.map((r) => `${JSON.stringify(r.key)}: ${r.callIds.length}`).join(', ')} }, "calls of the anonymous and nested functions it runs");`);
  }
  if (plan.mocks.length === 0) return [...setup, ...body];
  return [...setup, 'try {', ...indent(body, 1), '} finally {', ...indent(plan.mocks.map((m) => `mocks().delete(${JSON.stringify(m.key)});`), 1), '}'];
}

function mockOutcome(outcome: Outcome, async: boolean, names: RenderNames, errorOf: ErrorOf): string {
  const head = async ? 'async () =>' : '() =>';
  if (outcome.kind === 'throw') return `${head} { throw ${errorOf(outcome.error, outcome.message)}; }`;
  const value = renderValue(outcome.value, names);
  return `${head} ${value.startsWith('{') ? `(${value})` : value}`;
}
