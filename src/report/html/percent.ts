/** A ratio as the reports print it: `66.7 %`. */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}
