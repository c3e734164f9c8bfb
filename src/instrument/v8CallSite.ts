import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';

/**
 * How V8 names an expression in a TypeError ("x.y is not a function"), so a hook that throws in
 * place of V8 says what Node would say of the original code. A port of V8's CallPrinter
 * (src/ast/prettyprinter.cc) in the mode it prints a found expression in, over Babel's AST, with
 * the parser's own rewrites: folded number literals (`-1`, `1 + 2`), n-ary chains of one operator
 * (`(a + b + c)`), `a['b']` printed as `a.b`, a call as `f(...)`, a `new` as "(intermediate value)".
 */

const INTERMEDIATE = '(intermediate value)';
/** V8 prints no limit; messages are cut at 1,000 characters anyway, and the cap keeps this linear. */
const MAX = 1000;
const NARY = new Set(['+', '-', '*', '/', '%', '|', '&', '^', '<<', '>>', '>>>', '||', '&&', '??']);
const FOLDED = new Set(['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
const REGEXP_FLAGS = 'dgilmsuvy';

/** Nodes rendered or folded so far, and characters built: the work is linear in the tree (tests count it). */
export const callSiteWork = { steps: 0, chars: 0 };

type Memo = WeakMap<t.Node, string>;
const memos: { plain: Memo; iterator: Memo } = { plain: new WeakMap(), iterator: new WeakMap() };

/**
 * The text of an expression as V8 prints it once it found the failing one. `iterator`: the error
 * is about iterating (for-of, spread, array pattern), where V8 prints calls without `(...)`.
 */
export function callSiteText(node: t.Node, iterator = false): string {
  const s = print(node, iterator, false);
  return s === '' ? INTERMEDIATE : s;
}

/** Nodes whose text is their own (no child, no context): printed each time they are asked for, without the memo. */
const LEAVES = new Set(['Identifier', 'ThisExpression', 'StringLiteral', 'NumericLiteral', 'BooleanLiteral', 'NullLiteral']);

function print(node: t.Node, it: boolean, inChain: boolean): string {
  if (LEAVES.has(node.type)) {
    const s = render(node, it, inChain);
    callSiteWork.steps++;
    callSiteWork.chars += s.length;
    return s.length > MAX ? s.slice(0, MAX) : s;
  }
  const memo = it ? memos.iterator : memos.plain;
  if (!inChain) {
    const known = memo.get(node);
    if (known !== undefined) return known;
  }
  let s = render(node, it, inChain);
  callSiteWork.steps++;
  callSiteWork.chars += s.length;
  if (s.length > MAX) s = s.slice(0, MAX);
  if (!inChain) memo.set(node, s);
  return s;
}

/** V8's Find(node, true): the node's text, or "(intermediate value)" when it prints nothing. */
function find(node: t.Node, it: boolean, inChain = false): string {
  return print(node, it, inChain) || INTERMEDIATE;
}

function isOptional(node: t.Node): boolean {
  return t.isOptionalMemberExpression(node) || t.isOptionalCallExpression(node);
}

const NOT_FOLDED = Symbol('not folded');
const numbers = new WeakMap<t.Node, number | typeof NOT_FOLDED>();
const strings = new WeakMap<t.Node, string | typeof NOT_FOLDED>();

/** Number literals the parser folds: `-1`, `+1`, `1 + 2`; undefined for anything else. Memoised: linear over a chain. */
function foldedNumber(node: t.Node): number | undefined {
  // Only these fold: any other node is answered without the memo (most nodes, asked once each as they are printed).
  if (node.type !== 'NumericLiteral' && node.type !== 'UnaryExpression' && node.type !== 'BinaryExpression') return undefined;
  let v = numbers.get(node);
  if (v === undefined) {
    v = foldNumber(node) ?? NOT_FOLDED;
    numbers.set(node, v);
  }
  return v === NOT_FOLDED ? undefined : v;
}

function foldNumber(node: t.Node): number | undefined {
  callSiteWork.steps++;
  if (t.isNumericLiteral(node)) return node.value;
  if (t.isUnaryExpression(node) && (node.operator === '-' || node.operator === '+' || node.operator === '~')) {
    const v = foldedNumber(node.argument);
    if (v === undefined) return undefined;
    return node.operator === '-' ? -v : node.operator === '+' ? v : ~v;
  }
  if (t.isBinaryExpression(node) && FOLDED.has(node.operator) && !t.isPrivateName(node.left)) {
    const a = foldedNumber(node.left);
    const b = a === undefined ? undefined : foldedNumber(node.right);
    if (a === undefined || b === undefined) return undefined;
    return arithmetic(node.operator, a, b);
  }
  return undefined;
}

function arithmetic(op: string, a: number, b: number): number {
  switch (op) {
    case '+': return a + b; case '-': return a - b; case '*': return a * b; case '/': return a / b; case '%': return a % b;
    case '**': return a ** b; case '|': return a | b; case '&': return a & b; case '^': return a ^ b;
    case '<<': return a << b; case '>>': return a >> b; default: return a >>> b;
  }
}

/** String literals the parser folds: `'a' + 'b'`. Memoised, and cut as texts are. */
function foldedString(node: t.Node): string | undefined {
  if (node.type !== 'StringLiteral' && node.type !== 'TemplateLiteral' && node.type !== 'BinaryExpression') return undefined;
  let v = strings.get(node);
  if (v === undefined) {
    const s = foldString(node);
    v = s === undefined ? NOT_FOLDED : s.slice(0, MAX);
    strings.set(node, v);
  }
  return v === NOT_FOLDED ? undefined : v;
}

function foldString(node: t.Node): string | undefined {
  callSiteWork.steps++;
  if (t.isStringLiteral(node)) return node.value;
  if (t.isTemplateLiteral(node) && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  if (t.isBinaryExpression(node) && node.operator === '+' && !t.isPrivateName(node.left)) {
    const a = foldedString(node.left);
    const b = a === undefined ? undefined : foldedString(node.right);
    return a === undefined || b === undefined ? undefined : a + b;
  }
  return undefined;
}

/**
 * `(a + b + c)`: a chain of one operator is one n-ary node for V8's parser. Built from the left
 * operand's own (memoised) text, so a chain of n operands costs O(n), not O(n²).
 */
function binaryText(node: t.BinaryExpression | t.LogicalExpression, it: boolean): string {
  const left = node.left as t.Node;
  const right = find(node.right, it);
  const chained = NARY.has(node.operator) && (t.isBinaryExpression(left) || t.isLogicalExpression(left)) && left.operator === node.operator &&
    foldedNumber(left) === undefined && foldedString(left) === undefined;
  if (!chained) return `(${find(left, it)} ${node.operator} ${right})`;
  const l = print(left, it, false);
  return l.length >= MAX ? l : `${l.slice(0, -1)} ${node.operator} ${right})`;
}

function functionBody(node: t.Function): string {
  // V8 parses a parenthesised function eagerly and prints each statement of its body; any other
  // function is parsed lazily and prints nothing.
  if (!node.extra?.parenthesized) return '';
  if (!t.isBlockStatement(node.body)) return INTERMEDIATE;
  return INTERMEDIATE.repeat(Math.min(node.body.body.length + node.body.directives.length, MAX / INTERMEDIATE.length + 1));
}

function memberText(node: t.MemberExpression | t.OptionalMemberExpression, it: boolean, inChain: boolean): string {
  const obj = find(node.object, it, inChain || t.isOptionalMemberExpression(node));
  const q = node.optional ? '?' : '';
  const p = node.property;
  if (!node.computed) return `${obj}${q}.${t.isPrivateName(p) ? `#${p.id.name}` : t.isIdentifier(p) ? p.name : ''}`;
  if (t.isStringLiteral(p) || (t.isTemplateLiteral(p) && p.expressions.length === 0)) return `${obj}${q}.${foldedString(p) ?? ''}`;
  const folded = foldedString(p);
  if (folded !== undefined) return `${obj}${q ? '?.' : ''}["${folded}"]`; // a folded string is not internalized
  return `${obj}${q ? '?.' : ''}[${find(p, it)}]`;
}

function render(node: t.Node, it: boolean, inChain: boolean): string {
  // An optional chain met from outside is one node that prints nothing of itself.
  if (isOptional(node) && !inChain) return INTERMEDIATE;
  const n = foldedNumber(node);
  if (n !== undefined) return String(n);
  if (t.isBinaryExpression(node) && node.operator === '+' && !t.isPrivateName(node.left)) {
    const s = foldedString(node);
    if (s !== undefined) return `"${s}"`;
  }
  switch (node.type) {
    case 'Identifier': return node.name;
    case 'ThisExpression': return 'this';
    case 'StringLiteral': return `"${node.value}"`;
    case 'BooleanLiteral': return String(node.value);
    case 'NullLiteral': return 'null';
    case 'RegExpLiteral': return `/${node.pattern}/${[...REGEXP_FLAGS].filter((f) => node.flags.includes(f)).join('')}`;
    case 'TemplateLiteral':
      if (node.expressions.length === 0) return `"${node.quasis[0]?.value.cooked ?? ''}"`;
      return node.expressions.map((e) => find(e, it)).join('');
    case 'ObjectExpression':
    case 'ObjectPattern':
      return `{${INTERMEDIATE.repeat(Math.min(node.properties.length, MAX / INTERMEDIATE.length + 1))}}`;
    case 'ArrayExpression':
    case 'ArrayPattern':
      return `[${node.elements.map((e) => (e === null ? INTERMEDIATE : t.isSpreadElement(e) || t.isRestElement(e) ? `(...${find(t.isSpreadElement(e) ? e.argument : e.argument, it)})` : find(e, it))).join(',')}]`;
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return functionBody(node);
    case 'ConditionalExpression': return INTERMEDIATE.repeat(3);
    case 'AssignmentExpression': return find(node.left, it);
    case 'UnaryExpression': {
      if (node.operator === '!' && foldedNumber(node.argument) !== undefined) return String(!foldedNumber(node.argument));
      const space = node.operator === 'typeof' || node.operator === 'void' || node.operator === 'delete' ? ' ' : '';
      return `(${node.operator}${space}${find(node.argument, it)})`;
    }
    case 'UpdateExpression':
      return node.prefix ? `(${node.operator}${find(node.argument, it)})` : `(${find(node.argument, it)}${node.operator})`;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return t.isPrivateName(node.left) ? '' : binaryText(node, it);
    case 'SequenceExpression': {
      const flat: t.Node[] = [];
      const add = (e: t.Node) => (t.isSequenceExpression(e) ? e.expressions.forEach(add) : flat.push(e));
      node.expressions.forEach((e, i) => (i === 0 ? add(e) : flat.push(e)));
      return `(${flat.map((e) => find(e, it)).join(' , ')})`;
    }
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return memberText(node, it, inChain);
    case 'CallExpression':
    case 'OptionalCallExpression': {
      if (t.isImport(node.callee)) return `import(${node.arguments[0] ? find(node.arguments[0], it) : ''})`;
      const callee = t.isSuper(node.callee) ? 'super' : find(node.callee, it, inChain || t.isOptionalCallExpression(node));
      return it ? callee : `${callee}(...)`;
    }
    case 'TaggedTemplateExpression': {
      const tag = find(node.tag, it);
      return it ? tag : `${tag}(...)`;
    }
    case 'NewExpression': return it ? find(node.callee, it) : INTERMEDIATE;
    case 'SpreadElement': return `(...${find(node.argument, it)})`;
    case 'ParenthesizedExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'TSTypeAssertion':
      return print(node.expression, it, inChain);
    case 'AwaitExpression':
    case 'YieldExpression':
    case 'ClassExpression':
      return INTERMEDIATE;
    default:
      return '';
  }
}

/** The value V8 names when it finds no expression to print: its type, and the value of a primitive. */
export const DEFAULT_CALL_SITE = '%d';
/** Stands for the value itself (`undefined`, `null`) in a message. */
export const VALUE = '%v';

/** The messages V8 gives an operation on a value: when it is null or undefined, and otherwise. */
export type SiteMessages = readonly [nullish: string, other: string];

function both(message: string): SiteMessages {
  return [message, message];
}

function isCall(node: t.Node): node is t.CallExpression | t.NewExpression | t.TaggedTemplateExpression {
  return t.isCallExpression(node) || t.isNewExpression(node) || t.isTaggedTemplateExpression(node);
}

/**
 * `x is not iterable`, or, when x is a call, `f is not a function or its return value is not iterable`.
 * V8 prints a sync iteration's subject without `(...)` on calls, an async one with them.
 */
function notIterable(subject: t.Node, what: 'iterable' | 'async iterable'): string {
  const sync = what === 'iterable';
  if (isCall(subject) && !isOptional(subject)) {
    const callee = t.isTaggedTemplateExpression(subject) ? subject.tag : subject.callee;
    const text = !sync ? callSiteText(subject) : t.isImport(callee) || t.isSuper(callee) ? INTERMEDIATE : callSiteText(callee, true);
    return `${text} is not a function or its return value is not ${what}`;
  }
  return `${callSiteText(subject, sync)} is not ${what}`;
}

const NOT_FOUND = both(`${DEFAULT_CALL_SITE} is not iterable (cannot read property Symbol(Symbol.iterator))`);

/** Whether V8's parser places the expression at its first character (an array pattern's value is found there). */
function startsAtItsPosition(node: t.Node): boolean {
  if (node.extra?.parenthesized || isOptional(node)) return false;
  if (t.isCallExpression(node)) return t.isIdentifier(node.callee);
  return !(t.isMemberExpression(node) || t.isBinaryExpression(node) || t.isLogicalExpression(node) || t.isSequenceExpression(node) ||
    t.isAssignmentExpression(node) || t.isTaggedTemplateExpression(node) || t.isUpdateExpression(node) && !node.prefix);
}

/** The messages of a destructuring: `pattern = value` in a declaration or an assignment. */
export function destructureMessages(pattern: t.Node, value: t.Node, declaration: boolean): SiteMessages {
  if (t.isArrayPattern(pattern)) {
    if (!declaration || !startsAtItsPosition(value)) return NOT_FOUND;
    return both(notIterable(value, 'iterable'));
  }
  const first = t.isObjectPattern(pattern) ? pattern.properties[0] : undefined;
  const key = t.isObjectProperty(first) && !first.computed ? propertyName(first.key) : undefined;
  if (key !== undefined && t.isAssignmentPattern((first as t.ObjectProperty).value)) return both(`Cannot read properties of ${VALUE} (reading '${key}')`);
  const text = callSiteText(value);
  return both(key !== undefined ? `Cannot destructure property '${key}' of '${text}' as it is ${VALUE}.` : `Cannot destructure '${text}' as it is ${VALUE}.`);
}

function propertyName(key: t.Node): string | undefined {
  if (t.isIdentifier(key)) return key.name;
  if (t.isStringLiteral(key)) return key.value;
  if (t.isNumericLiteral(key)) return String(key.value);
  return undefined;
}

/** The messages of `for (… of subject)`. */
export function forOfMessages(subject: t.Node, isAwait: boolean): SiteMessages {
  const shortCircuit = t.isLogicalExpression(subject) && subject.operator !== '??';
  if (isAwait) {
    const other = shortCircuit || isOptional(subject) ? `${DEFAULT_CALL_SITE} is not async iterable` : notIterable(subject, 'async iterable');
    return [`Cannot read properties of ${VALUE} (reading 'Symbol(Symbol.asyncIterator)')`, other];
  }
  if (shortCircuit || isOptional(subject)) return NOT_FOUND;
  return both(notIterable(subject, 'iterable'));
}

/** The messages of `...x` in an array literal, or in the arguments of a call or `new`. */
export function spreadMessages(path: NodePath<t.SpreadElement>): SiteMessages {
  const parent = path.parent;
  const subject = path.node.argument;
  if (t.isArrayExpression(parent)) return both(notIterable(subject, 'iterable'));
  const args = t.isCallExpression(parent) || t.isNewExpression(parent) || t.isOptionalCallExpression(parent) ? parent.arguments : [];
  if (args[args.length - 1] !== path.node) return NOT_FOUND;
  return [`${callSiteText(subject)} is not iterable (cannot read property ${VALUE})`, 'Spread syntax requires ...iterable[Symbol.iterator] to be a function'];
}

/** The message of calling a callee that is not a function. */
export function callMessages(callee: t.Node): SiteMessages {
  return both(`${callSiteText(callee)} is not a function`);
}

/** The message of `new` on a callee that is not a constructor. */
export function newMessages(callee: t.Node): SiteMessages {
  return both(`${callSiteText(callee)} is not a constructor`);
}
