// Runs INSIDE the isolate, in its startup snapshot, after Node's util.inspect
// (node-inspect-extracted, `globalThis.__snipexec_nodeUtil`); see src/sandbox/runInIsolate.ts.
// console.table as Node 24 prints it: a port of lib/internal/console/constructor.js (table) and
// lib/internal/cli_table.js. The runtime takes it off the global object before the snippet runs.
globalThis.__snipexec_consoleTable = (function (inspect) {
  'use strict';
  // Captured here, in the snapshot, before any snippet: nothing the snippet patches takes part.
  const { apply, defineProperty, getPrototypeOf } = Reflect;
  const isArray = Array.isArray, objectKeys = Object.keys, hasOwn = Object.prototype.hasOwnProperty;
  const mathMax = Math.max, codePointAt = String.prototype.codePointAt, repeat = String.prototype.repeat;
  const arrJoin = Array.prototype.join;
  const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
  const mapSize = Reflect.getOwnPropertyDescriptor(Map.prototype, 'size').get, setSize = Reflect.getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const mapIteratorNext = getPrototypeOf(new Map().entries()).next, setIteratorNext = getPrototypeOf(new Set().values()).next;
  /** Sets a[k] by defining it: no setter on Array.prototype takes part (as push would let it). */
  const put = (a, k, v) => { defineProperty(a, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true }); };
  const push = (a, v) => put(a, a.length, v);
  /** Whether v is a Map (a Set): by the built-in's brand check, which Symbol.hasInstance cannot change. */
  const isMap = (v) => { try { apply(mapSize, v, []); return true; } catch { return false; } };
  const isSet = (v) => { try { apply(setSize, v, []); return true; } catch { return false; } };

  // Node's getStringWidth without ICU (lib/internal/util/inspect.js).
  function isFullWidth(code) {
    return code >= 0x1100 && (code <= 0x115f || code === 0x2329 || code === 0x232a || (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0xa4c6) || (code >= 0xa960 && code <= 0xa97c) ||
      (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) || (code >= 0xff01 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1b000 && code <= 0x1b001) || (code >= 0x1f200 && code <= 0x1f251) || (code >= 0x1f300 && code <= 0x1f64f) ||
      (code >= 0x20000 && code <= 0x3fffd));
  }
  function isZeroWidth(code) {
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x20d0 && code <= 0x20ff) || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xfe20 && code <= 0xfe2f) || (code >= 0xe0100 && code <= 0xe01ef);
  }
  function width(s) {
    let w = 0;
    for (let i = 0; i < s.length; i++) {
      const code = apply(codePointAt, s, [i]);
      if (code > 0xffff) i++;
      w += isFullWidth(code) ? 2 : isZeroWidth(code) ? 0 : 1;
    }
    return w;
  }
  const spaces = (n) => apply(repeat, ' ', [n]);
  const line = (n) => apply(repeat, '─', [n]);

  function renderRow(row, widths) {
    let out = '│ ';
    for (let i = 0; i < row.length; i++) {
      out += row[i] + spaces(widths[i] - width(row[i]));
      if (i !== row.length - 1) out += ' │ ';
    }
    return out + ' │';
  }
  function render(head, columns) {
    const rows = [];
    const widths = [];
    for (let i = 0; i < head.length; i++) put(widths, i, width(head[i]));
    let longest = 0;
    for (let i = 0; i < columns.length; i++) longest = mathMax(longest, columns[i].length);
    for (let i = 0; i < head.length; i++) {
      const column = columns[i];
      for (let j = 0; j < longest; j++) {
        if (!apply(hasOwn, rows, [j])) put(rows, j, []);
        const value = apply(hasOwn, column, [j]) ? column[j] : '';
        put(rows[j], i, value);
        put(widths, i, mathMax(widths[i] || 0, width(value)));
      }
    }
    const divider = [];
    for (let i = 0; i < widths.length; i++) push(divider, line(widths[i] + 2));
    let out = `┌${apply(arrJoin, divider, ['┬'])}┐\n${renderRow(head, widths)}\n├${apply(arrJoin, divider, ['┼'])}┤\n`;
    for (let j = 0; j < rows.length; j++) out += `${renderRow(rows[j], widths)}\n`;
    return out + `└${apply(arrJoin, divider, ['┴'])}┘`;
  }
  const cell = (v) => {
    const depth = v !== null && typeof v === 'object' && !isArray(v) && objectKeys(v).length > 2 ? -1 : 0;
    return inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
  };
  const indexes = (n) => {
    const out = [];
    for (let i = 0; i < n; i++) push(out, cell(i));
    return out;
  };

  /** The table console.table prints for the data, or undefined when Node prints the data as console.log does. */
  return function table(data, properties) {
    if (data === null || typeof data !== 'object') return undefined;
    if (!isArray(properties)) properties = undefined;
    if (isMap(data)) {
      const keys = [], values = [];
      const it = apply(mapEntries, data, []);
      for (let e = apply(mapIteratorNext, it, []); !e.done; e = apply(mapIteratorNext, it, [])) { push(keys, cell(e.value[0])); push(values, cell(e.value[1])); }
      return render(['(iteration index)', 'Key', 'Values'], [indexes(keys.length), keys, values]);
    }
    if (isSet(data)) {
      const values = [];
      const it = apply(setValues, data, []);
      for (let e = apply(setIteratorNext, it, []); !e.done; e = apply(setIteratorNext, it, [])) push(values, cell(e.value));
      return render(['(iteration index)', 'Values'], [indexes(values.length), values]);
    }
    const map = { __proto__: null };
    let hasPrimitives = false;
    const valuesColumn = [];
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
          put(map[key], i, (primitive && properties) || !apply(hasOwn, item, [key]) ? '' : cell(item[key]));
        }
      }
    }
    const head = objectKeys(map);
    const heads = ['(index)'];
    const columns = [indexColumn];
    for (let i = 0; i < head.length; i++) { push(heads, head[i]); push(columns, map[head[i]]); }
    if (hasPrimitives) { push(heads, 'Values'); push(columns, valuesColumn); }
    return render(heads, columns);
  };
})(globalThis.__snipexec_nodeUtil.inspect);
