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

  get size(): number {
    return this.insertions.length;
  }

  /** The text with every insertion in place; inserted text must hold no line break. */
  apply(source: string): string {
    const sorted = [...this.insertions].sort((a, b) => a.at - b.at || order(a) - order(b));
    const out: string[] = [];
    let last = 0;
    for (const ins of sorted) {
      out.push(source.slice(last, ins.at), ins.text);
      last = ins.at;
    }
    out.push(source.slice(last));
    return out.join('');
  }
}

/** At one offset: closing text first (innermost first), then opening text (outermost first). */
function order(ins: Insertion): number {
  return ins.side === 'close' ? -1e6 - ins.depth : ins.depth;
}
