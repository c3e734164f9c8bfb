/**
 * Insertions into source text, applied without moving any line: the program's own text is kept
 * byte for byte, so stack traces, error excerpts and line numbers stay true.
 */
export interface Insertion {
  readonly at: number;
  readonly text: string;
  /** `open` text starts a wrapper (outer nodes first), `close` text ends one (inner nodes first). */
  readonly side: 'open' | 'close';
  /** The depth of the node the wrapper belongs to, to order insertions at one offset. */
  readonly depth: number;
}

export class TextEdits {
  private readonly insertions: Insertion[] = [];

  open(at: number, depth: number, text: string): void {
    this.insertions.push({ at, text, side: 'open', depth });
  }

  close(at: number, depth: number, text: string): void {
    this.insertions.push({ at, text, side: 'close', depth });
  }

  /** Text around a range; an empty range gets both in one insertion, opening text first. */
  wrap(from: number, to: number, depth: number, openText: string, closeText: string): void {
    if (from === to) return this.open(from, depth, openText + closeText);
    this.open(from, depth, openText);
    this.close(to, depth, closeText);
  }

  get size(): number {
    return this.insertions.length;
  }

  /** The text with every insertion in place; inserted text must hold no line break. */
  apply(source: string): string {
    const out: string[] = [];
    let last = 0;
    for (const ins of this.sorted()) {
      out.push(source.slice(last, ins.at), ins.text);
      last = ins.at;
    }
    out.push(source.slice(last));
    return out.join('');
  }

  /**
   * A source map (v3) from the edited text back to `source`, for the lines that have insertions
   * only: there a segment at each token-like start maps back to its own column, and inserted text
   * to the column it was inserted at. Every other line gets an unmapped segment, so Node formats
   * its stack frames and error excerpts exactly as it would without the map (the text is the same there).
   */
  sourceMap(source: string, file: string): string {
    const lineStarts = [0];
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    const byLine = new Map<number, Insertion[]>();
    for (const ins of this.sorted()) {
      const line = lineOf(lineStarts, ins.at);
      const list = byLine.get(line) ?? [];
      list.push(ins);
      byLine.set(line, list);
    }
    const vlq = new VlqState();
    const lines: string[] = [];
    for (let line = 0; line < lineStarts.length; line++) {
      vlq.newLine();
      const inserted = byLine.get(line);
      if (!inserted) {
        lines.push(vlq.unmapped(0));
        continue;
      }
      const start = lineStarts[line] ?? 0;
      const text = source.slice(start, (lineStarts[line + 1] ?? source.length + 1) - 1);
      const segments: string[] = [];
      let shift = 0;
      let next = 0;
      const upTo = (col: number): void => {
        for (; next < col; next++) if (tokenStart(text, next)) segments.push(vlq.segment(next + shift, line, next));
      };
      for (const ins of inserted) {
        const col = ins.at - start;
        upTo(col);
        segments.push(vlq.segment(col + shift, line, col));
        shift += ins.text.length;
      }
      upTo(text.length);
      lines.push(segments.join(','));
    }
    return JSON.stringify({ version: 3, file, sources: [file], sourcesContent: [source], names: [], mappings: lines.join(';') });
  }

  private sorted(): Insertion[] {
    return [...this.insertions].sort((a, b) => a.at - b.at || order(a) - order(b));
  }
}

/** Where a token may start: Node maps a stack position to the nearest segment at or before it, without adding the distance. */
function tokenStart(text: string, i: number): boolean {
  const c = text[i] ?? ' ';
  if (/\s/.test(c)) return false;
  const prev = text[i - 1];
  return prev === undefined || /[^\w$]/.test(prev) || /[^\w$]/.test(c);
}

function lineOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/** Source map segments are relative to the previous one: generated column per line, the rest across lines. */
class VlqState {
  private genCol = 0;
  private srcLine = 0;
  private srcCol = 0;

  newLine(): void {
    this.genCol = 0;
  }

  /** A segment with a generated column only: no original position, so Node formats the frame as it is. */
  unmapped(genCol: number): string {
    const s = vlq(genCol - this.genCol);
    this.genCol = genCol;
    return s;
  }

  segment(genCol: number, srcLine: number, srcCol: number): string {
    const s = vlq(genCol - this.genCol) + vlq(0) + vlq(srcLine - this.srcLine) + vlq(srcCol - this.srcCol);
    this.genCol = genCol;
    this.srcLine = srcLine;
    this.srcCol = srcCol;
    return s;
  }
}

/** At one offset: closing text first (innermost first), then opening text (outermost first). */
function order(ins: Insertion): number {
  return ins.side === 'close' ? -1e6 - ins.depth : ins.depth;
}
