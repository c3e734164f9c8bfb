import { pageScript } from './page.ts';

/**
 * The run page's behaviour, run in the browser: hovering or focusing a line with details shows
 * them in the side panel; a click pins them (a second click unpins); `#L7` in the address pins line 7.
 * Only the report's own markup is read: the details are rendered, escaped, by the host.
 */
function runPage(): void {
  const panel = document.getElementById('panel');
  const hint = document.getElementById('panel-hint');
  if (!panel || !hint) return;
  const details = [...panel.querySelectorAll<HTMLElement>('.detail')];
  const rows = [...document.querySelectorAll<HTMLElement>('.line.detailed')];
  let pinned: string | undefined;
  const show = (line: string | undefined): void => {
    for (const d of details) d.hidden = d.dataset.line !== line;
    hint.hidden = line !== undefined;
    panel.dataset.line = line ?? '';
    for (const r of rows) r.classList.toggle('selected', pinned !== undefined && r.dataset.line === pinned);
  };
  for (const row of rows) {
    const line = row.dataset.line;
    row.addEventListener('mouseenter', () => { if (pinned === undefined) show(line); });
    row.addEventListener('focus', () => { if (pinned === undefined) show(line); });
    row.addEventListener('click', () => {
      pinned = pinned === line ? undefined : line;
      show(line);
    });
    row.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      row.click();
    });
  }
  const fromHash = (): void => {
    const line = /^#L(\d+)$/.exec(location.hash)?.[1];
    if (line === undefined || !rows.some((r) => r.dataset.line === line)) return;
    pinned = line;
    show(line);
  };
  window.addEventListener('hashchange', fromHash);
  fromHash();
}

export const RUN_SCRIPT = pageScript(runPage);
