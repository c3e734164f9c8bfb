/**
 * Generated snippets of a given number of lines, in shapes that stress the host passes (parse,
 * repair, instrumentation, usage analysis, rendering): used by the benchmark's host-work row and by
 * the scaling test, which must see every host pass grow linearly with the snippet.
 */
export const HOST_SHAPES = {
  /** `if (a) {}` on every line: a path preference per `if`, each followed by the rest of the block. */
  ifs: (n: number) => lines(n, () => 'if (a) {}'),
  /** Ordinary statements: declarations, calls, member reads, arithmetic, a guard now and then. */
  ordinary: (n: number) => ordinary(n),
  /** Functions inside functions: a function of three lines per four lines, each with an inner arrow. */
  nestedFunctions: (n: number) =>
    lines(n, (i) => [`function f${i}(x) {`, `  const g = (y) => { if (y > x) return y; return helper(y); };`, `  return g(x + 1);`, `}`][i % 4] as string, (i) => (i % 4 === 3 ? undefined : '}')),
  /** Call chains of 40 links, one link a line: `api\n  .m0(0)\n  .m1(1)…;`. */
  memberChain: (n: number) => lines(n, (i) => (i % 40 === 0 ? `const r${i} = api${i}` : `  .m${i % 40}(${i})${i % 40 === 39 ? ';' : ''}`), (i) => (i % 40 === 39 ? undefined : ';')),
  /** A different member of one undeclared object on every line, compared with a different value. */
  manyMembers: (n: number) => lines(n, (i) => `if (cfg.p${i} === 'v${i}') log(cfg.p${i});`),
  /** One undeclared name compared with a different value on every line. */
  manyComparisons: (n: number) => lines(n, (i) => `if (mode === 'v${i}') run(${i});`),
  /** A different undeclared name on every line. */
  freeNames: (n: number) => lines(n, (i) => `use(x${i});`),
  /** The ordinary statements, all on one line. */
  oneLine: (n: number): string => ordinary(n).replace(/\n/g, ' ') + '\n',
} as const satisfies Record<string, (n: number) => string>;

export type HostShape = keyof typeof HOST_SHAPES;

function ordinary(n: number): string {
  return lines(n, (i) => {
    const v = `v${i - (i % 5)}`;
    return [
      `const ${v} = input.items[${i}] + ${i};`,
      `console.log(${v}, cfg.name);`,
      `total += ${v} * 2;`,
      `if (!${v}) throw new Error('none');`,
      `obj.list.push({ id: ${v}, at: Date.now() });`,
    ][i % 5] as string;
  });
}

/** `n` lines made by `line`; `close` gives what closes an open construct when the count cuts it off. */
function lines(n: number, line: (i: number) => string, close?: (i: number) => string | undefined): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(line(i));
  const closer = close?.(n - 1);
  if (closer !== undefined) out.push(closer);
  return out.join('\n') + '\n';
}
