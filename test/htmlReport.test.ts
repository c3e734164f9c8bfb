import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { runSnippet } from '../src/index.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { HtmlBatchWriter, htmlPageName, indexRowOf, renderBatchIndex, renderRunHtml } from '../src/report/htmlReport.ts';

/** Debian's chromium (`apt-get install -y --no-install-recommends chromium`); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `chromium is not installed at ${CHROMIUM}: the browser tests are skipped (apt-get install -y --no-install-recommends chromium)`;
const SCREENSHOT = fileURLToPath(new URL('../eval/results/html-report.png', import.meta.url));

const work = mkdtempSync(join(tmpdir(), 'snipexec-html-'));
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const { chromium } = await import('playwright-core');
  browser ??= await chromium.launch({ executablePath: CHROMIUM, timeout: 120_000 });
  const page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
  page.setDefaultTimeout(60_000);
  return page;
}

/** Hostile text: each would run script, or show markup, if a report let it through unescaped. */
const HOSTILE = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b>\'"&amp;';

// `prices` is injected on line 1; line 4 never runs; line 6 is a comment (not measured); line 8 throws.
const SNIPPET = [
  'const total = prices.reduce((a, b) => a + b, 0);',
  `console.log(${JSON.stringify(HOSTILE)}, total);`,
  'if (total < 0) {',
  "  console.log('negative');",
  '}',
  `// ${HOSTILE}`,
  'const config = undefined;',
  'console.log(config.port);',
  '',
].join('\n');

/** A real run's result with the hostile text in every string field the page shows. */
function hostileResult(r: RunResult): RunResult {
  return {
    ...r, stdout: `${HOSTILE}\n`, repairs: [HOSTILE], types: HOSTILE, program: HOSTILE, degraded: 'llm-unavailable',
    injections: r.injections.map((i) => ({ ...i, element: `${i.element}${HOSTILE}`, source: HOSTILE })),
    errors: r.errors.map((e) => ({ ...e, type: HOSTILE, message: HOSTILE })),
    environments: { loaded: [HOSTILE], failed: [{ name: HOSTILE, message: HOSTILE }] },
  };
}

/** The page holds only its own script and no markup of the snippet's. */
function assertEscaped(page: string): void {
  assert.equal(page.match(/<script/gi)?.length, 1, 'one script element: the report\'s own');
  assert.equal(page.match(/<\/script/gi)?.length, 1);
  assert.doesNotMatch(page, /<img|<b>bold|window\.__pwned = 1<\/script>/i);
  assert.match(page, /&lt;\/script&gt;&lt;script&gt;window\.__pwned = 1&lt;\/script&gt;&lt;img src=x onerror=&quot;window\.__pwned = 2&quot;&gt;/);
}

test('html report: every string of a hostile result is escaped, in the run page and the batch index', async () => {
  const r = await runSnippet(SNIPPET, {});
  assert.equal(r.status, 'stopped');
  const page = renderRunHtml(hostileResult(r), SNIPPET, { title: HOSTILE, back: { href: `x"${HOSTILE}`, label: HOSTILE } });
  assertEscaped(page);
  const index = renderBatchIndex([indexRowOf(HOSTILE, HOSTILE, r, `${HOSTILE}.html`)], { title: HOSTILE });
  assertEscaped(index);
  // A page name is a plain file name whatever the id: no separator, no markup, never index.html.
  for (const id of [HOSTILE, '../../etc/passwd', 'a/b', 'a_b', 'index', '', '.hidden']) {
    assert.match(htmlPageName(id), /^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{10}\.html$/, id);
  }
  assert.notEqual(htmlPageName('a/b'), htmlPageName('a_b'));
});

test('html report: in headless Chromium, the marks, the panel, the errors and the console of a real run', { skip: NO_CHROMIUM, timeout: 300_000 }, async () => {
  const r = await runSnippet(SNIPPET, {});
  assert.equal(r.status, 'stopped');
  assert.ok(r.injections.some((i) => i.element === 'prices' && i.line === 1), 'prices is injected at line 1');
  const error = r.errors.find((e) => e.type === 'TypeError');
  assert.equal(error?.line, 8);
  const file = join(work, 'run.html');
  writeFileSync(file, renderRunHtml(r, SNIPPET, { title: 'snipexec run: prices.js' }));
  const page = await newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(pathToFileURL(file).href);

  // The marks: the lines the result measured, covered or not, and the comment line unmeasured.
  const classes = await page.locator('.source .line').evaluateAll((rows) => rows.map((row) => [Number((row as HTMLElement).dataset.line), row.className]));
  assert.equal(classes.length, 8);
  for (const [n, className] of classes as [number, string][]) {
    const expected = expectedState(r, n);
    assert.ok(className.split(' ').includes(expected), `line ${n}: ${className}, expected ${expected}`);
  }
  assert.match(await page.getAttribute('#L1', 'class') ?? '', /\bcovered\b/);
  assert.match(await page.getAttribute('#L4', 'class') ?? '', /\buncovered\b/);
  assert.match(await page.getAttribute('#L6', 'class') ?? '', /\bunmeasured\b/);
  assert.match(await page.getAttribute('#L8', 'class') ?? '', /\bthrew\b/, 'the line that raised the error threw; it is not "not covered"');
  assert.equal(await page.locator('#L4 .mark').innerText(), '✗');
  assert.equal(await page.locator('#L1 .mark').innerText(), '✓');
  assert.equal(await page.locator('#L8 .mark').innerText(), '!');

  // Inline: the injected value at line 1, the error at line 8.
  // (the chips follow the definitions' dependency order: a part of prices before prices)
  assert.ok((await page.locator('#L1 .chip.injection').allInnerTexts()).some((t) => t.startsWith('prices = ')));
  assert.match(await page.locator('#L8 .chip.error').innerText(), /^TypeError: Cannot read properties of undefined \(reading 'port'\)/);

  // The panel: hovering line 1 shows prices' definition; a click on line 8 pins its error.
  assert.ok(await page.locator('#panel-hint').isVisible());
  await page.hover('#L1');
  const detail1 = page.locator('#panel .detail[data-line="1"]');
  assert.ok(await detail1.isVisible(), 'line 1\'s details are shown on hover');
  const prices = r.injections.find((i) => i.element === 'prices');
  assert.ok(prices);
  assert.match(await detail1.innerText(), /prices/);
  assert.ok((await detail1.innerText()).includes(prices.source), 'the injected value, in full');
  assert.equal(await page.locator('#panel-hint').isVisible(), false);
  await page.click('#L8');
  const detail8 = page.locator('#panel .detail[data-line="8"]');
  assert.ok(await detail8.isVisible());
  assert.match(await detail8.innerText(), /TypeError: Cannot read properties of undefined/);
  assert.equal(await detail1.isVisible(), false);
  await page.hover('#L1');
  assert.ok(await detail8.isVisible(), 'a clicked line stays in the panel while another is hovered');

  // The errors table links the line; the console shows the output as text, markup and all.
  assert.equal(await page.locator('#errors + table a[href="#L8"]').innerText(), '8:20');
  assert.equal(await page.locator('pre.console').textContent(), r.stdout);
  assert.ok(r.stdout.includes(HOSTILE));
  assert.equal(await page.locator('#L6 .text').textContent(), `// ${HOSTILE}`);
  assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined, 'no snippet text ran');
  assert.deepEqual(problems, [], 'no script error and no content-security-policy violation');

  // The screenshot docs/guide/coverage-reports.md shows: line 1 pinned, so the panel shows its value.
  await page.click('#L8');
  await page.click('#L1');
  mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(readFileSync(SCREENSHOT).subarray(1, 4).toString() === 'PNG');
  await page.close();
});

/** A line's state as the JSON result says it: `explored` and `threw` are among `uncovered`; a line no statement decides is unmeasured. */
function expectedState(r: RunResult, n: number): string {
  const json = JSON.parse(JSON.stringify(r)) as RunResult;
  if (!json.lines.measured.includes(n)) return 'unmeasured';
  if (!json.lines.uncovered.includes(n)) return 'covered';
  return json.lines.threw?.includes(n) ? 'threw' : json.lines.explored?.includes(n) ? 'explored' : 'uncovered';
}

// The first execution takes one side of line 1 (exploration the other); drive calls check(), which prints, then throws at line 9, so line 10 is not covered.
const VIEWS_SNIPPET = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('guest');\n}\nfunction check() {\n  console.log('checking');\n  const config = null;\n  const port = config.port;\n  console.log('never', port);\n}\n// end\n";

test('html report: in headless Chromium, each line shows the state the JSON result gives it (covered, explored, threw, not covered), and drive\'s output is labelled', { skip: NO_CHROMIUM, timeout: 300_000 }, async () => {
  const r = await runSnippet(VIEWS_SNIPPET, { mode: 'trace' });
  const json = JSON.parse(JSON.stringify(r)) as RunResult;
  assert.ok((json.lines.explored ?? []).length > 0, `an explored line: ${JSON.stringify(json.lines)}`);
  assert.deepEqual(json.lines.threw, [9]);
  assert.ok(json.scenarioOutput && json.scenarioOutput.length > 0, 'drive printed');
  const file = join(work, 'views.html');
  writeFileSync(file, renderRunHtml(r, VIEWS_SNIPPET, { title: 'snipexec run: views.js' }));
  const page = await newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(pathToFileURL(file).href);

  const MARK: Record<string, string> = { covered: '✓', explored: '+', threw: '!', uncovered: '✗', unmeasured: '' };
  const LABEL: Record<string, string> = { covered: 'covered', explored: 'covered by an explored scenario only', threw: 'threw', uncovered: 'not covered', unmeasured: '' };
  const rows = await page.locator('.source .line').evaluateAll((els) => els.map((el) => {
    const mark = el.querySelector('.mark') as HTMLElement;
    return { n: Number((el as HTMLElement).dataset.line), classes: el.className.split(' '), mark: mark.innerText, title: mark.title, background: getComputedStyle(el).backgroundColor };
  }));
  assert.equal(rows.length, 12);
  const background = new Map<string, string>();
  for (const row of rows) {
    const state = expectedState(r, row.n);
    assert.ok(row.classes.includes(state), `line ${row.n}: ${row.classes.join(' ')}, the JSON result says ${state}`);
    assert.equal(row.mark, MARK[state], `line ${row.n}'s mark`);
    assert.equal(row.title, LABEL[state], `line ${row.n}'s label`);
    if (background.has(state)) assert.equal(row.background, background.get(state), `every ${state} line looks the same`);
    background.set(state, row.background);
  }
  assert.deepEqual([...background.keys()].sort(), ['covered', 'explored', 'threw', 'uncovered', 'unmeasured'], 'a line in each state');
  assert.equal(new Set(background.values()).size, background.size, `each state has its own colour: ${JSON.stringify(Object.fromEntries(background))}`);
  assert.deepEqual(await page.locator('.legend .key').allInnerTexts(), legendFor(json).map((s) => `${MARK[s]} ${LABEL[s]}`));

  // The console: the program's own output, then what drive's call of check() printed, labelled as snipexec's scenario.
  const start = json.scenarioOutput![0]!.start;
  assert.equal(await page.locator('pre.console.program').textContent(), json.stdout.slice(0, start));
  const part = page.locator('figure.console-part[data-by="drive"]');
  assert.equal(await part.locator('figcaption').innerText(), "snipexec's scenario: drive called check");
  assert.equal(await part.locator('pre.console.scenario').textContent(), json.stdout.slice(start));
  assert.equal((await page.locator('.console-listing pre.console').allTextContents()).join(''), json.stdout, 'the listing is the whole stdout, in order');
  assert.deepEqual(problems, []);
  await page.close();
});

/** The states the legend explains: covered and not covered always, explored and threw when a line is. */
function legendFor(r: RunResult): string[] {
  return ['covered', ...((r.lines.explored ?? []).length > 0 ? ['explored'] : []), ...((r.lines.threw ?? []).length > 0 ? ['threw'] : []), 'uncovered'];
}

test('html report: a batch directory, its index sorting and filtering snippets, and per-mode plots, in headless Chromium', { skip: NO_CHROMIUM, timeout: 300_000 }, async () => {
  const dir = join(work, 'batch');
  const items = [
    { id: 'full', code: 'console.log(1);\n' },
    { id: `../${HOSTILE}`, code: SNIPPET },
    { id: 'broken', code: 'const = ;\n' },
  ];
  const results: RunResult[] = [];
  const writer = new HtmlBatchWriter(dir, 'trace');
  for (const item of items.slice(0, 2)) {
    const r = await runSnippet(item.code, {});
    results.push(r);
    writer.add(item.id, r, item.code);
  }
  // Resumed: a second writer keeps the first one's rows.
  const broken = await runSnippet(items[2]!.code, {});
  assert.equal(broken.status, 'syntax-error');
  results.push(broken);
  new HtmlBatchWriter(dir, 'trace', { resume: true }).add('broken', broken, items[2]!.code);
  const index = writer.finish();
  assert.deepEqual(readdirSync(dir).sort(), ['index.html', 'index.jsonl', ...items.map((i) => htmlPageName(i.id))].sort());

  const page = await newPage();
  await page.goto(pathToFileURL(index).href);
  const ids = () => page.locator('#snippets tbody tr:not([hidden])').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id));
  assert.deepEqual(await ids(), items.map((i) => i.id));
  // Sorted by line coverage: lowest first, the snippet that did not parse last; again: highest first.
  await page.click('th button[data-key="line"]');
  assert.deepEqual(await ids(), [items[1]!.id, 'full', 'broken']);
  await page.click('th button[data-key="line"]');
  assert.deepEqual(await ids(), ['full', items[1]!.id, 'broken']);
  await page.selectOption('#filter-status', 'stopped');
  assert.deepEqual(await ids(), [items[1]!.id]);
  assert.equal(await page.locator('#shown').innerText(), '1 of 3 shown');
  await page.selectOption('#filter-status', '');
  await page.fill('#filter-min', '100');
  assert.deepEqual(await ids(), ['full']);
  // The plot: one snippet at 100 %, one between 60 and 69 % (4 of 6 lines), the syntax error left out.
  const bins = await page.locator('figure[data-mode="trace"] rect').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-count'))));
  assert.deepEqual(bins, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.match(await page.locator('figure[data-mode="trace"] .meta').innerText(), /fully executed 1\/3; left out: 1 that did not parse/);
  // A snippet's link opens its page, which links back.
  await page.click(`a[href="${htmlPageName('full')}"]`);
  assert.match(await page.locator('h1').innerText(), /snipexec: full/);
  await page.click('a.back');
  assert.ok(page.url().endsWith('/index.html'));

  // Several modes: a plot each.
  const two = join(work, 'modes.html');
  writeFileSync(two, renderBatchIndex([
    ...results.map((r, i) => indexRowOf(items[i]!.id, 'trace', r)),
    ...results.map((r, i) => indexRowOf(items[i]!.id, 'none', { ...r, lineCoverage: 0, lines: { ...r.lines, covered: 0 } })),
  ]));
  await page.goto(pathToFileURL(two).href);
  assert.deepEqual(await page.locator('figure.plot h3').allInnerTexts(), ['trace', 'none']);
  await page.selectOption('#filter-mode', 'none');
  assert.equal((await ids()).length, 3);
  await page.close();
});
