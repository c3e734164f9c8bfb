/**
 * The snippet's console, printed as Node's console prints to a pipe: by Node's own util.format and
 * util.inspect (node-inspect-extracted, evaluated into the isolate's startup snapshot, so it holds
 * its own primordials; src/sandbox/runtimeBundle.ts), with no colours. error, warn, trace and assert
 * (Node's stderr) go to the same captured output, in order; the capture is capped at maxConsoleBytes.
 */
import { NODE_UTIL_GLOBAL, type StdoutPart } from '../../protocol/runtime.ts';
import { createConsoleTable, type Inspect } from './consoleTable.ts';
import { native } from './native.ts';
import { joinWith, list, push, put, rec, splitOn, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, G, INSPECT_CUSTOM, ObjectCreate, ownKeys, strSlice } from './primordials.ts';
import { isProbe, leafName, probeId } from './probes.ts';
import { config, EXIT, run } from './run.ts';

interface NodeUtil {
  formatWithOptions(options: object, ...args: unknown[]): string;
  inspect: Inspect;
}

let nodeUtil: NodeUtil;
let consoleTable: (data: unknown, properties?: unknown) => string | undefined;

/** What the snippet printed, up to maxConsoleBytes, and how much more it printed. */
export const output = rec({ stdout: '', dropped: 0 });
/** Where the output of snipexec's own calls begins (StdoutPart): what the host labels as its scenario, not the program's. */
export const outputParts = list<StdoutPart>();
/** Who is calling now: '' for the snippet's own code (its top level, its timers), else the driver or drive. */
const caller = rec({ by: '' as '' | StdoutPart['by'], name: '', k: -1 });

/** From now on, what prints is printed by snipexec's call: an environment's driver (its name), drive's call of target k, or what drive's calls left queued (k -1). */
export function outputBy(by: StdoutPart['by'], name = '', k = -1): void {
  caller.by = by;
  caller.name = name;
  caller.k = k;
}

/** A part starts where the caller changed since the last one. */
function markPart(): void {
  if (caller.by === '') return;
  const last = outputParts.length > 0 ? outputParts[outputParts.length - 1] : undefined;
  if (last !== undefined && last.by === caller.by && (last.name ?? '') === caller.name && (last.k ?? -1) === caller.k) return;
  push(outputParts, rec({ at: output.stdout.length, by: caller.by, ...(caller.name !== '' ? { name: caller.name } : {}), ...(caller.k >= 0 ? { k: caller.k } : {}) }));
}
let groupIndent = '';
const counts: Record<string, number> = ObjectCreate(null);

/** Takes Node's util off the global object, where the startup snapshot left it. */
export function takeNodeUtil(): void {
  nodeUtil = G[NODE_UTIL_GLOBAL];
  delete G[NODE_UTIL_GLOBAL];
  consoleTable = createConsoleTable(nodeUtil.inspect);
}

/** A recording proxy prints as its name: inspecting it would record what the printing reads. */
function printable(v: unknown): unknown {
  if (!isProbe(v)) return v;
  const name = `[${leafName(probeId(v))}]`;
  return rec({ [INSPECT_CUSTOM]: () => name });
}
function format(args: readonly unknown[]): string {
  const shown: unknown[] = [{}];
  for (let i = 0; i < args.length; i++) push(shown, printable(args[i]));
  try {
    return apply(nodeUtil.formatWithOptions, undefined, shown);
  } catch (e) {
    return `[snipexec: console could not print a value: ${str(e && (e as Dyn).message)}]`;
  }
}
function write(text: string): void {
  if (run.unwind === EXIT) return; // nothing prints after exit()
  let out = text;
  if (groupIndent !== '') out = groupIndent + joinWith(splitOn(out, '\n'), `\n${groupIndent}`);
  const line = out + '\n';
  const room = config.maxConsoleBytes - output.stdout.length;
  if (room <= 0) {
    output.dropped += line.length;
    return;
  }
  markPart();
  if (line.length > room) {
    output.stdout += apply(strSlice, line, [0, room]);
    output.dropped += line.length - room;
  } else output.stdout += line;
}
const consoleUnshift = (args: unknown[], v: unknown): void => {
  for (let i = args.length; i > 0; i--) put(args, i, args[i - 1]);
  put(args, 0, v);
};

/** The console object the snippet gets as its global `console`: each method an arrow behind native(). */
export function createConsole(): Record<string, (...args: Dyn[]) => void> {
  const consoleObject: Record<string, (...args: Dyn[]) => void> = {};
  for (const name of ['log', 'info', 'debug', 'dirxml', 'error', 'warn']) {
    consoleObject[name] = (...args: unknown[]) => {
      write(format(args));
    };
  }
  consoleObject.table = (data: unknown, properties: unknown) => {
    let table;
    try {
      table = consoleTable(data, properties);
    } catch {
      table = undefined;
    }
    write(table === undefined ? format([data]) : table);
  };
  consoleObject.dir = (v: unknown, options: object) => {
    try {
      write(apply(nodeUtil.inspect, undefined, [printable(v), { customInspect: false, ...options }]));
    } catch {
      write(format([v]));
    }
  };
  consoleObject.trace = (...args: unknown[]) => {
    write(`Trace${args.length > 0 ? ': ' : ''}${format(args)}`);
  };
  consoleObject.assert = (cond: unknown, ...args: unknown[]) => {
    if (cond) return;
    if (args.length > 0 && typeof args[0] === 'string') put(args, 0, `Assertion failed: ${args[0]}`);
    else consoleUnshift(args, 'Assertion failed');
    write(format(args));
  };
  consoleObject.count = (label: unknown = 'default') => {
    const key = `${label}`;
    counts[key] = (counts[key] || 0) + 1;
    write(`${key}: ${counts[key]}`);
  };
  consoleObject.countReset = (label: unknown = 'default') => {
    delete counts[`${label}`];
  };
  consoleObject.group = consoleObject.groupCollapsed = (...args: unknown[]) => {
    if (args.length > 0) write(format(args));
    groupIndent += '  ';
  };
  consoleObject.groupEnd = () => {
    groupIndent = apply(strSlice, groupIndent, [0, groupIndent.length - 2]);
  };
  consoleObject.time = consoleObject.timeEnd = consoleObject.timeLog = () => {};
  return consoleObject;
}

/** Puts each of the console's methods behind native() (their source is not shown). */
export function hideConsoleSources(consoleObject: Record<string, (...args: Dyn[]) => void>): void {
  const names = ownKeys(consoleObject);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    consoleObject[name] = native(consoleObject[name], name);
  }
}
