/**
 * `npm run bench:compare`: the experiment comparison webview with 1,000 examples × 3 experiments, in real
 * (headless) Chromium, through the component-test harness (test/webview/harness.ts) with a fake host at the
 * message level: the ready answer carries the summaries, the index of every example's scores and the contents
 * of the first BENCH_FIRST_ROWS rows; `compare/rows` answers the rest by id, as the extension host does.
 *
 *   first rows   from the start of the webview page's navigation (what VS Code does when the panel opens) to the
 *                first frame painted after a row with its contents is in the DOM: the bundle, React's first render,
 *                the ready request, the marks and counts over the index; each run in a fresh browser context;
 *                goal ≤ 1,000 ms
 *   requests     the requests the page made for the first screen and the summary (ready + compare/rows) until it
 *                has rested for a second; goal ≤ 20
 *   scroll       the grid scrolled from the top to the bottom in BENCH_SCROLL_MS, moved once per animation frame:
 *                the frame times (gaps between requestAnimationFrame callbacks) p50 and p95, the longest, frames
 *                per second, the frames that showed a row still loading, and the `compare/rows` requests it made;
 *                goal: 60 fps (frame time p95 ≤ 1.5 refreshes, 25 ms)
 *
 * The bundle measured is the production one (built first into dist/webviews, then the development build is put
 * back), unless --no-build (then whatever dist/webviews holds).
 *
 * Options: BENCH_RUNS=5 · BENCH_EXAMPLES=1000 · BENCH_EXPERIMENTS=3 · BENCH_FIRST_ROWS=50 · BENCH_SCROLL_MS=5000 ·
 *          BENCH_HOST_MS=0 (delay of the fake host's row answers) · BENCH_CPU_SLOWDOWN=1 · --no-build · --help
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CompareState, IndexRow, RowContent } from '../../src/protocol/compare';

/** What this uses of the component-test harness. It is loaded at run time: its types need the DOM library, which
 *  the project's own type check (where this file is) leaves out. */
interface Harness {
  launchBrowser(): Promise<Browser>;
  openApp(
    browser: Browser,
    app: string,
    options: { handlers: Record<string, (params: unknown) => unknown>; width?: number; height?: number },
  ): Promise<{ page: Page; requests(method: string): unknown[]; problems: string[]; close(): Promise<void> }>;
}
const HARNESS = '../webview/harness';

// The functions given to the page run in the browser; this file is type-checked without the DOM library.
declare const window: any, document: any, MutationObserver: any, performance: any, requestAnimationFrame: (callback: () => void) => number;

const ROOT = path.resolve(__dirname, '../..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const EXAMPLES = Number(process.env['BENCH_EXAMPLES'] ?? 1000);
const EXPERIMENTS = Number(process.env['BENCH_EXPERIMENTS'] ?? 3);
const FIRST_ROWS = Number(process.env['BENCH_FIRST_ROWS'] ?? 50);
const SCROLL_MS = Number(process.env['BENCH_SCROLL_MS'] ?? 5000);
const HOST_MS = Number(process.env['BENCH_HOST_MS'] ?? 0);
const CPU_SLOWDOWN = Number(process.env['BENCH_CPU_SLOWDOWN'] ?? 1);
const GOALS = { firstRowsMs: 1000, requests: 20, p95FrameMs: 25 };

const log = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;
const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const KEYS = [
  { key: 'correctness', lowerIsBetter: false },
  { key: 'helpfulness', lowerIsBetter: false },
  { key: 'verbosity', lowerIsBetter: true },
];

function experimentId(e: number): string {
  return id(0xe000 + e);
}

function indexRow(r: number): IndexRow {
  const cells: IndexRow['cells'] = {};
  for (let e = 0; e < EXPERIMENTS; e++) {
    const v = (k: number) => ((r * 7 + e * 13 + k * 5 + ((r * e) % 7)) % 11) / 10;
    cells[experimentId(e)] = { runId: id(0x100000 + r * 16 + e), error: (r + e) % 41 === 7, scores: { correctness: Math.round(v(0)), helpfulness: v(1), verbosity: 1 + Math.round(v(2) * 4) } };
  }
  return { exampleId: id(0x10000 + r), cells };
}

function rowContent(r: number): RowContent {
  const row = indexRow(r);
  const cells: RowContent['cells'] = {};
  for (const [eid, c] of Object.entries(row.cells)) {
    cells[eid] = c && {
      runId: c.runId,
      output: `To change the billing address on invoice ${1000 + r}, open Billing → Addresses, edit the address and save; the next invoice uses it. (${eid.slice(-2)})`,
      truncated: false,
      error: c.error ? 'RateLimitError: 429 Too Many Requests' : null,
      latencyMs: 700 + ((r * 37) % 900),
      totalTokens: 250 + (r % 200),
      feedback: Object.fromEntries(Object.entries(c.scores).map(([k, s]) => [k, { score: s, value: null, comment: null }])),
    };
  }
  return {
    exampleId: row.exampleId,
    inputs: JSON.stringify({ question: `Customer question ${r}: how do I change the billing address on invoice ${1000 + r}?`, customer: `Acme ${r % 50}` }),
    reference: JSON.stringify({ answer: `Billing → Addresses → Edit (${r}).` }),
    cells,
  };
}

function state(): CompareState {
  const index = Array.from({ length: EXAMPLES }, (_, r) => indexRow(r));
  return {
    kind: 'compare',
    dataset: { id: id(1), name: `bench-${EXAMPLES}-examples`, url: null },
    experiments: Array.from({ length: EXPERIMENTS }, (_, e) => ({
      id: experimentId(e),
      name: `bench-experiment-${e}`,
      createdAt: 1_760_000_000_000 + e,
      runCount: EXAMPLES,
      errorRate: 0.02,
      latencyP50: 1.1,
      latencyP99: 3.2,
      totalTokens: 300 * EXAMPLES,
      totalCost: 0.0004 * EXAMPLES,
      feedback: Object.fromEntries(KEYS.map((k, i) => [k.key, { n: EXAMPLES, avg: 0.5 + (e + i) / 20 }])),
      source: `prompt bench-prompt:${e}abc123 · model gpt-4o-mini`,
      url: null,
    })),
    keys: KEYS,
    baselineId: experimentId(0),
    index,
    indexTruncated: false,
    rows: Array.from({ length: Math.min(FIRST_ROWS, EXAMPLES) }, (_, r) => rowContent(r)),
    mac: false,
  };
}

function handlers(s: CompareState) {
  const byId = new Map(Array.from({ length: EXAMPLES }, (_, r) => [id(0x10000 + r), r]));
  return {
    'compare/ready': () => ({ restore: { datasetId: id(1), experimentIds: [] }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s }),
    'compare/rows': async (raw: unknown) => {
      const p = raw as { exampleIds: string[] };
      if (HOST_MS) await new Promise((r) => setTimeout(r, HOST_MS));
      return { rows: p.exampleIds.flatMap((x) => (byId.has(x) ? [rowContent(byId.get(x)!)] : [])) };
    },
  };
}

/** Installed in every page before its scripts: notes when the first row with contents is in the DOM and painted. */
function watchFirstRows(): void {
  const w = window as { __firstRows?: { inDom: number; painted: number } };
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="row"] [data-testid="inputs"]')) return;
    observer.disconnect();
    const inDom = performance.now();
    requestAnimationFrame(() => setTimeout(() => (w.__firstRows = { inDom, painted: performance.now() })));
  });
  observer.observe(document, { childList: true, subtree: true });
}

function instrumented(browser: Browser): Browser {
  return {
    newContext: async (options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> => {
      const context = await browser.newContext(options);
      await context.addInitScript(watchFirstRows);
      if (CPU_SLOWDOWN > 1) {
        context.on('page', (page) => {
          void context.newCDPSession(page).then((cdp) => cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN }));
        });
      }
      return context;
    },
  } as Browser;
}

interface ScrollResult {
  frames: number;
  gaps: number[];
  loadingFrames: number;
  bottomShownAfter: number;
}

/** Scrolls the grid from top to bottom in SCROLL_MS, once per animation frame; then waits for the last rows. */
async function scroll(page: Page): Promise<ScrollResult> {
  const script = `new Promise((resolve) => {
    const duration = ${SCROLL_MS};
    const grid = document.querySelector('[data-testid="grid"]');
    const loading = () => grid.querySelector('[data-testid="inputs-pending"]') !== null;
    const stamps = [];
    let loadingFrames = 0, start = 0, ended = 0;
    const settle = () => {
      grid.scrollTop = grid.scrollHeight;
      if (loading() || !grid.querySelector('[data-row="${EXAMPLES - 1}"]')) return requestAnimationFrame(settle);
      resolve({ frames: stamps.length, gaps: stamps.slice(1).map((s, i) => s - stamps[i]), loadingFrames, bottomShownAfter: performance.now() - ended });
    };
    const step = (t) => {
      if (!start) start = t;
      stamps.push(t);
      if (loading()) loadingFrames++;
      const p = Math.min(1, (t - start) / duration);
      grid.scrollTop = p * (grid.scrollHeight - grid.clientHeight);
      if (p < 1) return requestAnimationFrame(step);
      ended = performance.now();
      requestAnimationFrame(settle);
    };
    requestAnimationFrame(step);
  })`;
  return (await page.evaluate(script)) as ScrollResult;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
};

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  const build = !process.argv.includes('--no-build');
  if (build) execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=webviews'], { cwd: ROOT, stdio: 'inherit' });
  const bundle = path.join(ROOT, 'dist/webviews/compare.js');
  const production = !fs.readFileSync(bundle, 'utf8').includes('sourceMappingURL');
  const s = state();
  const { launchBrowser, openApp } = (await import(HARNESS)) as Harness;
  const browser = await launchBrowser();
  const firstRows: number[] = [];
  const firstRequests: number[] = [];
  const scrolls: (ScrollResult & { asks: number })[] = [];
  try {
    log(`comparison webview: ${EXAMPLES.toLocaleString('en')} examples × ${EXPERIMENTS} experiments, ${KEYS.length} keys, first ${FIRST_ROWS} rows with the state, ${RUNS} runs, ` +
      `${production ? 'production' : 'development'} bundle (${(fs.statSync(bundle).size / 1000).toFixed(1)} KB), Chromium ${browser.version()}, ` +
      `host answers after ${HOST_MS} ms, CPU slowdown ${CPU_SLOWDOWN}×`);
    for (let run = 0; run < RUNS; run++) {
      const app = await openApp(instrumented(browser), 'compare', { handlers: handlers(s), width: 1200, height: 900 });
      try {
        await app.page.waitForFunction(() => window.__firstRows !== undefined, undefined, { timeout: 30_000 });
        const first = (await app.page.evaluate(() => window.__firstRows)) as { inDom: number; painted: number };
        firstRows.push(first.painted);
        await app.page.waitForTimeout(1000); // the first screen at rest
        const requests = app.requests('compare/ready').length + app.requests('compare/rows').length;
        firstRequests.push(requests);
        const before = app.requests('compare/rows').length;
        const result = await scroll(app.page);
        scrolls.push({ ...result, asks: app.requests('compare/rows').length - before });
        if (app.problems.length) throw new Error(`the page reported: ${app.problems.join('; ')}`);
        log(`  run ${run + 1}: first rows in the DOM ${ms(first.inDom)}, painted ${ms(first.painted)}; ${requests} requests for the first screen; ` +
          `scroll: ${result.frames} frames, frame time p50 ${ms(percentile(result.gaps, 0.5))} p95 ${ms(percentile(result.gaps, 0.95))} max ${ms(Math.max(...result.gaps))}, ` +
          `${result.loadingFrames} frames with a row loading, ${app.requests('compare/rows').length - before} row requests, bottom rows shown ${ms(result.bottomShownAfter)} after`);
      } finally {
        await app.close();
      }
    }
  } finally {
    await browser.close();
    if (build) execFileSync(process.execPath, ['esbuild.mjs', '--only=webviews'], { cwd: ROOT, stdio: 'inherit' });
  }
  const gaps = scrolls.flatMap((x) => x.gaps);
  const p50 = percentile(gaps, 0.5);
  const p95 = percentile(gaps, 0.95);
  const fps = median(scrolls.map((x) => (x.frames - 1) / (SCROLL_MS / 1000)));
  log('');
  log(`| What | Median | Worst | Goal |`);
  log(`|---|---|---|---|`);
  log(`| First rows painted after the panel's page starts loading (${EXAMPLES.toLocaleString('en')} × ${EXPERIMENTS}) | ${ms(median(firstRows))} | ${ms(Math.max(...firstRows))} | ≤ ${GOALS.firstRowsMs} ms ${Math.max(...firstRows) <= GOALS.firstRowsMs ? '✓' : '✗'} |`);
  log(`| Requests for the first screen and summary (ready + compare/rows) | ${median(firstRequests)} | ${Math.max(...firstRequests)} | ≤ ${GOALS.requests} ${Math.max(...firstRequests) <= GOALS.requests ? '✓' : '✗'} |`);
  log(`| Frames during a ${SCROLL_MS / 1000} s scroll top to bottom | ${median(scrolls.map((x) => x.frames))} (${fps.toFixed(0)} fps) | ${Math.min(...scrolls.map((x) => x.frames))} | 60 fps |`);
  log(`| Frame time while scrolling, p50 / p95 (all runs) | ${ms(p50)} / ${ms(p95)} | max ${ms(Math.max(...gaps))} | p95 ≤ ${GOALS.p95FrameMs} ms ${p95 <= GOALS.p95FrameMs ? '✓' : '✗'} |`);
  log(`| Frames that showed a row still loading | ${median(scrolls.map((x) => x.loadingFrames))} of ${median(scrolls.map((x) => x.frames))} | ${Math.max(...scrolls.map((x) => x.loadingFrames))} | — |`);
  log(`| compare/rows requests during the scroll | ${median(scrolls.map((x) => x.asks))} | ${Math.max(...scrolls.map((x) => x.asks))} | — |`);
  log(`| Bottom rows shown after the scroll ends | ${ms(median(scrolls.map((x) => x.bottomShownAfter)))} | ${ms(Math.max(...scrolls.map((x) => x.bottomShownAfter)))} | — |`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
