import { pageScript } from './page.ts';

/**
 * The batch index's behaviour, run in the browser: a column's button sorts the table by it (again:
 * the other way); the filters hide the rows whose status, mode, line coverage or id do not match.
 * It reads the rows' `data-` attributes, which the host wrote escaped.
 */
function indexPage(): void {
  const body = document.querySelector<HTMLTableSectionElement>('#snippets tbody');
  if (!body) return;
  const rows = [...body.querySelectorAll<HTMLTableRowElement>('tr')];
  const input = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
  const shown = document.getElementById('shown');
  const filter = (): void => {
    const status = input('filter-status')?.value ?? '';
    const mode = input('filter-mode')?.value ?? '';
    const min = Number(input('filter-min')?.value || 0) / 100;
    const max = Number(input('filter-max')?.value || 100) / 100;
    const id = (input('filter-id')?.value ?? '').toLowerCase();
    let count = 0;
    for (const row of rows) {
      const line = row.dataset.line ?? '';
      // A snippet that did not parse has no coverage: only the full range keeps it.
      const inRange = line === '' ? min <= 0 && max >= 1 : Number(line) >= min - 1e-9 && Number(line) <= max + 1e-9;
      const keep = (status === '' || row.dataset.status === status) && (mode === '' || row.dataset.mode === mode) && inRange && (row.dataset.id ?? '').toLowerCase().includes(id);
      row.hidden = !keep;
      if (keep) count++;
    }
    if (shown) shown.textContent = `${count} of ${rows.length} shown`;
  };
  let sortKey = '';
  let ascending = true;
  for (const button of document.querySelectorAll<HTMLButtonElement>('#snippets th button')) {
    button.addEventListener('click', () => {
      const key = button.dataset.key ?? '';
      ascending = key === sortKey ? !ascending : true;
      sortKey = key;
      const numeric = button.dataset.numeric !== undefined;
      const value = (row: HTMLTableRowElement) => row.dataset[key] ?? '';
      rows.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        // Rows without a figure (syntax errors) go last either way.
        if (numeric && (x === '' || y === '')) return (x === '' ? 1 : 0) - (y === '' ? 1 : 0);
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return ascending ? order : -order;
      });
      for (const row of rows) body.appendChild(row);
      for (const th of document.querySelectorAll('#snippets th')) th.removeAttribute('aria-sort');
      button.parentElement?.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    });
  }
  document.getElementById('filters')?.addEventListener('input', filter);
  document.getElementById('filters')?.addEventListener('submit', (event) => event.preventDefault());
  filter();
}

export const INDEX_SCRIPT = pageScript(indexPage);
