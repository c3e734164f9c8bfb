/** What every report prints for a share of nothing (0 of 0 lines, branches or snippets): neither 0 % nor 100 %. */
export const NO_SHARE = '–';

/** A ratio as the reports print it: `66.7 %`. */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** `part` of `whole` as a percentage (`66.7 %`), or `–` when the whole is 0: the one way every report shows a share. */
export function share(part: number, whole: number): string {
  return whole === 0 ? NO_SHARE : percent(part / whole);
}
