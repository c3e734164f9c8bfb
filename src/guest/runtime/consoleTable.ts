/**
 * console.table as Node 24 prints it, on top of Node's util.inspect: a port of
 * lib/internal/console/constructor.js (table) and lib/internal/cli_table.js. Maps and Sets are
 * recognised by the built-ins' brand checks and read with the captured iterators; rows are written
 * by defining indexes: nothing the snippet patches takes part.
 */
import { put } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, arrJoin, getOwnPropertyDescriptor, getPrototypeOf, isArray, mapEntries, MathMax, ObjectCreate, objectKeys, objHasOwn, setValues, strCodePointAt, strRepeat } from './primordials.ts';

export type Inspect = (value: unknown, options: object) => string;

const mapSize = (getOwnPropertyDescriptor(Map.prototype, 'size') as PropertyDescriptor).get as () => number;
const setSize = (getOwnPropertyDescriptor(Set.prototype, 'size') as PropertyDescriptor).get as () => number;
const mapIteratorNext = (getPrototypeOf(new Map().entries()) as Dyn).next as () => IteratorResult<[unknown, unknown]>;
const setIteratorNext = (getPrototypeOf(new Set().values()) as Dyn).next as () => IteratorResult<unknown>;
const push = <T>(a: T[], v: T): void => {
  put(a, a.length, v);
};
/** Whether v is a Map (a Set): by the built-in's brand check, which Symbol.hasInstance cannot change. */
const isMap = (v: unknown): boolean => {
  try {
    apply(mapSize, v, []);
    return true;
  } catch {
    return false;
  }
};
const isSet = (v: unknown): boolean => {
  try {
    apply(setSize, v, []);
    return true;
  } catch {
    return false;
  }
};

// Node's getStringWidth without ICU (lib/internal/util/inspect.js).
function isFullWidth(code: number): boolean {
  return code >= 0x1100 && (code <= 0x115f || code === 0x2329 || code === 0x232a || (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
    (code >= 0x3250 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0xa4c6) || (code >= 0xa960 && code <= 0xa97c) ||
    (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe10 && code <= 0xfe19) ||
    (code >= 0xfe30 && code <= 0xfe6b) || (code >= 0xff01 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1b000 && code <= 0x1b001) || (code >= 0x1f200 && code <= 0x1f251) || (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x20000 && code <= 0x3fffd));
}
function isZeroWidth(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x20d0 && code <= 0x20ff) || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xfe20 && code <= 0xfe2f) || (code >= 0xe0100 && code <= 0xe01ef);
}
function width(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const code = apply(strCodePointAt, s, [i]) as number;
    if (code > 0xffff) i++;
    w += isFullWidth(code) ? 2 : isZeroWidth(code) ? 0 : 1;
  }
  return w;
}
const spaces = (n: number): string => apply(strRepeat, ' ', [n]);
const line = (n: number): string => apply(strRepeat, '─', [n]);

function renderRow(row: readonly string[], widths: readonly number[]): string {
  let out = '│ ';
  for (let i = 0; i < row.length; i++) {
    out += row[i] + spaces(widths[i] - width(row[i]));
    if (i !== row.length - 1) out += ' │ ';
  }
  return out + ' │';
}
function render(head: readonly string[], columns: readonly string[][]): string {
  const rows: string[][] = [];
  const widths: number[] = [];
  for (let i = 0; i < head.length; i++) put(widths, i, width(head[i]));
  let longest = 0;
  for (let i = 0; i < columns.length; i++) longest = MathMax(longest, columns[i].length);
  for (let i = 0; i < head.length; i++) {
    const column = columns[i];
    for (let j = 0; j < longest; j++) {
      if (!apply(objHasOwn, rows, [j])) put(rows, j, []);
      const value = apply(objHasOwn, column, [j]) ? column[j] : '';
      put(rows[j], i, value);
      put(widths, i, MathMax(widths[i] || 0, width(value)));
    }
  }
  const divider: string[] = [];
  for (let i = 0; i < widths.length; i++) push(divider, line(widths[i] + 2));
  let out = `┌${apply(arrJoin, divider, ['┬'])}┐\n${renderRow(head, widths)}\n├${apply(arrJoin, divider, ['┼'])}┤\n`;
  for (let j = 0; j < rows.length; j++) out += `${renderRow(rows[j], widths)}\n`;
  return out + `└${apply(arrJoin, divider, ['┴'])}┘`;
}

/** console.table's renderer: the table it prints for the data, or undefined when Node prints the data as console.log does. */
export function createConsoleTable(inspect: Inspect): (data: unknown, properties?: unknown) => string | undefined {
  const cell = (v: Dyn): string => {
    const depth = v !== null && typeof v === 'object' && !isArray(v) && objectKeys(v).length > 2 ? -1 : 0;
    return inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
  };
  const indexes = (n: number): string[] => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) push(out, cell(i));
    return out;
  };
  return function table(data: Dyn, properties?: Dyn): string | undefined {
    if (data === null || typeof data !== 'object') return undefined;
    if (!isArray(properties)) properties = undefined;
    if (isMap(data)) {
      const keys: string[] = [];
      const values: string[] = [];
      const it = apply(mapEntries, data, []);
      for (let e = apply(mapIteratorNext, it, []); !e.done; e = apply(mapIteratorNext, it, [])) {
        push(keys, cell(e.value[0]));
        push(values, cell(e.value[1]));
      }
      return render(['(iteration index)', 'Key', 'Values'], [indexes(keys.length), keys, values]);
    }
    if (isSet(data)) {
      const values: string[] = [];
      const it = apply(setValues, data, []);
      for (let e = apply(setIteratorNext, it, []); !e.done; e = apply(setIteratorNext, it, [])) push(values, cell(e.value));
      return render(['(iteration index)', 'Values'], [indexes(values.length), values]);
    }
    const map: Record<string, string[]> = ObjectCreate(null);
    let hasPrimitives = false;
    const valuesColumn: string[] = [];
    const indexColumn = objectKeys(data);
    for (let i = 0; i < indexColumn.length; i++) {
      const item = data[indexColumn[i]];
      const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
      if (properties === undefined && primitive) {
        hasPrimitives = true;
        put(valuesColumn, i, cell(item));
      } else {
        const keys = properties || objectKeys(item);
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k];
          if (map[key] === undefined) map[key] = [];
          put(map[key], i, (primitive && properties) || !apply(objHasOwn, item, [key]) ? '' : cell(item[key]));
        }
      }
    }
    const head = objectKeys(map);
    const heads = ['(index)'];
    const columns = [indexColumn];
    for (let i = 0; i < head.length; i++) {
      push(heads, head[i]);
      push(columns, map[head[i]]);
    }
    if (hasPrimitives) {
      push(heads, 'Values');
      push(columns, valuesColumn);
    }
    return render(heads, columns);
  };
}
