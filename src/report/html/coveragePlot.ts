import { html, type Html } from './escapeHtml.ts';

/** The bins of a coverage histogram: 0–9 %, 10–19 %, …, 90–99 %, and 100 % on its own. */
const BINS = ['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100'] as const;

/** Which bin a line-coverage ratio falls in: its tens, with 100 % alone in the last one. */
export function coverageBin(ratio: number): number {
  return ratio >= 1 ? 10 : Math.max(0, Math.min(9, Math.floor(ratio * 10 + 1e-9)));
}

/**
 * An inline SVG histogram: how many snippets reached each line coverage. Bars are plain `<rect>`s
 * with their count in a `<title>`; nothing is loaded.
 */
export function coverageHistogram(ratios: readonly number[], label: string): Html {
  const counts: number[] = BINS.map(() => 0);
  for (const r of ratios) counts[coverageBin(r)] = (counts[coverageBin(r)] ?? 0) + 1;
  const max = Math.max(1, ...counts);
  const bar = 26, gap = 6, height = 120, top = 16, left = 30;
  const width = left + BINS.length * (bar + gap);
  const bars = counts.map((count, i) => {
    const h = Math.round((count / max) * height);
    const x = left + i * (bar + gap);
    const y = top + height - h;
    const range = i === 10 ? '100 %' : `${BINS[i]}–${Number(BINS[i]) + 9} %`;
    return html`<g><rect class="bar${i === 10 ? ' full' : ''}" data-bin="${i}" data-count="${count}" x="${x}" y="${y}" width="${bar}" height="${Math.max(h, count > 0 ? 1 : 0)}"><title>${range}: ${count} snippet(s)</title></rect>${count > 0 ? html`<text x="${x + bar / 2}" y="${y - 3}" text-anchor="middle">${count}</text>` : ''}<text x="${x + bar / 2}" y="${top + height + 14}" text-anchor="middle">${BINS[i] ?? ''}</text></g>`;
  });
  return html`<svg role="img" aria-label="${label}" width="${width}" height="${top + height + 32}" viewBox="0 0 ${width} ${top + height + 32}">
<line x1="${left - 4}" y1="${top + height}" x2="${width}" y2="${top + height}" stroke="#dadce0"></line>
<text x="0" y="${top + 8}">${max}</text><text x="0" y="${top + height}">0</text>
${bars}
<text x="${width / 2}" y="${top + height + 30}" text-anchor="middle">line coverage (%)</text>
</svg>`;
}
