/** The name a typo most likely meant, for "did you mean": case, `-` and `_` ignored, then at most two edits, as commander suggests flags. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const plain = normal(word);
  const same = candidates.find((c) => normal(c) === plain);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(plain, normal(candidate));
    // Like commander: at most two edits, and the words share more than they differ.
    if (d <= 2 && d < bestDistance && (Math.max(plain.length, candidate.length) - d) / Math.max(plain.length, candidate.length) > 0.4) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function normal(word: string): string {
  return word.toLowerCase().replace(/[-_\s]/g, '');
}

/** Damerau–Levenshtein distance (optimal string alignment): an insertion, deletion, substitution or swap of neighbours is one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const up = d[i - 1]!;
      row[j] = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
