import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import { drivenArguments } from '../emit/drivenCalls.ts';

/** `<anonymous>@8.makeDate`: a function an unnamed function (an IIFE) declares in its body. */
const IIFE_MEMBER = /^<anonymous>@\d+\.([A-Za-z_$][\w$]*)$/;

/**
 * Whether a definition is an argument learnt for another driven function than `called` (an IIFE
 * member's reproduction makes its one call; the file calls the IIFE itself with its real
 * arguments): left out of the reproduction, where a learnt string holding a learnt member
 * (`"example".match = …`) cannot be written in strict mode.
 */
export function otherCallsArgument(id: string, called: string, driven: ReadonlySet<string>): boolean {
  if (!IIFE_MEMBER.test(called)) return false;
  const at = id.indexOf('#arg');
  const root = at < 0 ? undefined : id.slice(0, at);
  return root !== undefined && root !== called && driven.has(root);
}

/** How a reproduction reaches a function only its IIFE's body can name. */
export interface DeclaredCall {
  /** An expression of a function that takes the file's text and returns it with the function handed out. */
  readonly expose: string;
  /** The call, on what was handed out. */
  readonly call: string;
}

/**
 * A call of a function declared in an IIFE's body that the file does not export (moment's
 * `function makeDateFromStringAndFormat(…)` inside `(function (Date) {…})(Date)`): the
 * reproduction loads the file with `made.NAME = NAME;` put before the declaration, on its line (the
 * declaration is hoisted, so it is defined there; line numbers hold), `made` being a parameter of
 * the module function the file is compiled in; loading it runs the IIFE, which hands the function
 * out. The declaration is found in the text of the version loaded (changed or base) as a line that
 * starts with `function NAME(`; the test fails with a message when there is not exactly one.
 * Undefined for another target.
 */
export function throughDeclaration(target: DriveTarget | undefined, record: DriveRecord, accessors: ReadonlyMap<string, string>, made: string): DeclaredCall | undefined {
  const name = target && target.kind === 'function' && target.memberOf === undefined ? IIFE_MEMBER.exec(target.name)?.[1] : undefined;
  if (!target || name === undefined) return undefined;
  const args = drivenArguments(target, target.params, accessors, record).join(', ');
  const declaration = `^([ \\t]*)(function[ \\t]+${name.replace(/\$/g, '\\$')}[ \\t]*\\()`;
  const expose = `((text) => { const found = [...text.matchAll(new RegExp(${JSON.stringify(declaration)}, 'gm'))]; if (found.length !== 1) throw new Error(${JSON.stringify(`snipexec: ${name} is not declared once at the start of a line`)}); const at = found[0].index + found[0][1].length; return text.slice(0, at) + ${JSON.stringify(`${made}.${name} = ${name}; `)} + text.slice(at); })`;
  return { expose, call: `${made}.${name}(${args})` };
}
