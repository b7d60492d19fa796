/**
 * `npm run bench:diff`: the dataset version diff webview with 10,000 modified examples, in real (headless) Chromium,
 * through the component-test harness (test/webview/harness.ts) with a fake host that serves the rows a page at
 * a time, as the extension host does (a row: a preview, two changed values before and after, the example id).
 *
 *   first rows   from the start of the webview page's navigation (what VS Code does when the panel opens) to
 *                the first frame painted after the first row with content is in the DOM: loading the bundle,
 *                React's first render, the ready request, the first page request and its rows; each run in a
 *                fresh browser context (nothing cached); goal ≤ 1,000 ms
 *   scroll       the list scrolled from the top to the bottom (10,000 rows) in BENCH_SCROLL_MS, moved once per
 *                animation frame: the frames the page drew (requestAnimationFrame callbacks), the longest gap
 *                between two of them and the 95th percentile, frames drawn with rows still loading (a fling this
 *                fast outruns any paging: rows load where it stops), and the time from the end of the scroll to
 *                the bottom rows shown; goal: longest gap ≤ 50 ms (no frame lost for more than a couple of
 *                refreshes). Before it, a steady scroll at a brisk wheel pace (5,000 px/s, ~50 rows/s, 3 s):
 *                its longest gap, and how many frames showed a row still loading (paging keeping up).
 *
 * The bundle measured is the production one (built first into dist/webviews, then the development build is put
 * back), unless --no-build (then whatever dist/webviews holds).
 *
 * Options: BENCH_RUNS=5 · BENCH_ROWS=10000 · BENCH_SCROLL_MS=4000 · BENCH_HOST_MS=0 (delay of the fake host's
 *          page answers) · BENCH_CPU_SLOWDOWN=1 (Chromium CPU throttling, 4 = a slow laptop) · --no-build · --help
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import type { DatasetDiffState, DiffRow } from '../../src/protocol/datasetDiff';
import { launchBrowser, openApp } from '../webview/harness';

// The functions given to the page run in the browser; this file is type-checked without the DOM library.
declare const window: any, document: any, MutationObserver: any, requestAnimationFrame: (callback: () => void) => number;

const ROOT = path.resolve(__dirname, '../..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const ROWS = Number(process.env['BENCH_ROWS'] ?? 10_000);
const SCROLL_MS = Number(process.env['BENCH_SCROLL_MS'] ?? 4000);
const HOST_MS = Number(process.env['BENCH_HOST_MS'] ?? 0);
const CPU_SLOWDOWN = Number(process.env['BENCH_CPU_SLOWDOWN'] ?? 1);
const GOALS = { firstRowsMs: 1000, longestGapMs: 50 };
/** A brisk mouse-wheel pace: about 50 rows a second. */
const STEADY = { seconds: 3, pxPerSecond: 5000 };

const log = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${Math.round(x)} ms`;

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function row(i: number): DiffRow {
  return {
    id: id(i),
    kind: 'modified',
    summary: `Customer question ${i}: how do I change the billing address on invoice ${1000 + i}?`,
    changes: [
      { path: 'outputs.answer', op: 'changed', before: `Go to Billing → Addresses and edit the address (${i}).`, after: `Billing → Addresses → Edit; the next invoice uses it (${i}, reviewed).` },
      { path: 'metadata.difficulty', op: 'changed', before: 'easy', after: 'medium' },
    ],
    moreChanges: 0,
  };
}

function handlers() {
  const state: DatasetDiffState = {
    dataset: { id: id(0), name: 'bench-10k-modified' },
    from: { asOf: '2024-05-01T10:00:00.000Z', label: 'v1' },
    to: { asOf: '2024-05-02T10:00:00.000Z', label: 'v2' },
    counts: { added: 0, removed: 0, modified: ROWS },
  };
  return {
    'datasetDiff/ready': () => ({ restore: { datasetId: id(0) }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state }),
    'datasetDiff/page': async (raw: unknown) => {
      const p = raw as { offset: number; limit: number; kinds: string[] };
      if (HOST_MS) await new Promise((r) => setTimeout(r, HOST_MS));
      const total = p.kinds.includes('modified') ? ROWS : 0;
      const rows: DiffRow[] = [];
      for (let i = p.offset; i < Math.min(total, p.offset + p.limit); i++) rows.push(row(i));
      return { offset: p.offset, total, rows };
    },
  };
}

/** Installed in every page before its scripts: notes when the first row with content is in the DOM and painted. */
function watchFirstRows(): void {
  const w = window as unknown as { __firstRows?: { inDom: number; painted: number } };
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="diff-row"]')) return;
    observer.disconnect();
    const inDom = performance.now();
    // The frame that shows it: after the next animation frame's rendering, a task runs.
    requestAnimationFrame(() => setTimeout(() => (w.__firstRows = { inDom, painted: performance.now() })));
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** The harness makes its own browser context; this one adds the watcher (and CPU throttling) to it first. */
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
  longestGap: number;
  p95Gap: number;
  over50: number;
  loadingFrames: number;
  bottomShownAfter: number;
}

/**
 * Scrolls the list, moving it once per animation frame, and records every frame: `fling` goes from the top to
 * the bottom in `duration`; `steady` moves at `pxPerSecond` for `duration` from where the list is. Then it waits
 * for the rows in view to show (the last row, for a fling). In-page code is given as text: tsx compiles named
 * functions with a helper that the page does not have.
 */
async function scroll(page: import('playwright-core').Page, how: { mode: 'fling' | 'steady'; duration: number; pxPerSecond?: number }): Promise<ScrollResult> {
  const script = `new Promise((resolve) => {
    const how = ${JSON.stringify(how)}, lastId = ${JSON.stringify(id(ROWS - 1))};
    const list = document.querySelector('.dd-list');
    const loading = () => list.querySelector('[data-testid="diff-row-pending"]') !== null;
    const stamps = [];
    let loadingFrames = 0, start = 0, ended = 0, from = list.scrollTop;
    const settle = () => {
      if (how.mode === 'fling') list.scrollTop = list.scrollHeight; // measured heights move the end
      const done = !loading() && (how.mode !== 'fling' || document.querySelector('[data-id="' + lastId + '"]'));
      if (!done) return requestAnimationFrame(settle);
      const gaps = stamps.slice(1).map((s, i) => s - stamps[i]);
      const sorted = [...gaps].sort((a, b) => a - b);
      resolve({
        frames: stamps.length,
        longestGap: sorted[sorted.length - 1] ?? 0,
        p95Gap: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
        over50: gaps.filter((g) => g > 50).length,
        loadingFrames,
        bottomShownAfter: performance.now() - ended,
      });
    };
    const step = (t) => {
      if (!start) start = t;
      stamps.push(t);
      if (loading()) loadingFrames++;
      const p = Math.min(1, (t - start) / how.duration);
      list.scrollTop = how.mode === 'fling' ? p * (list.scrollHeight - list.clientHeight) : from + (how.pxPerSecond * (t - start)) / 1000;
      if (p < 1) return requestAnimationFrame(step);
      ended = performance.now();
      requestAnimationFrame(settle);
    };
    requestAnimationFrame(step);
  })`;
  return (await page.evaluate(script)) as ScrollResult;
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  const build = !process.argv.includes('--no-build');
  if (build) execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=webviews'], { cwd: ROOT, stdio: 'inherit' });
  const bundle = path.join(ROOT, 'dist/webviews/datasetDiff.js');
  const production = !fs.readFileSync(bundle, 'utf8').includes('sourceMappingURL');
  const browser = await launchBrowser();
  const firstRows: { inDom: number; painted: number }[] = [];
  const scrolls: ScrollResult[] = [];
  const steadies: ScrollResult[] = [];
  try {
    log(`dataset diff webview: ${ROWS.toLocaleString('en')} modified rows, ${RUNS} runs, ${production ? 'production' : 'development'} bundle (${(fs.statSync(bundle).size / 1000).toFixed(1)} KB), ` +
      `Chromium ${browser.version()}, host answers after ${HOST_MS} ms, CPU slowdown ${CPU_SLOWDOWN}×`);
    for (let run = 0; run < RUNS; run++) {
      const app = await openApp(instrumented(browser), 'datasetDiff', { handlers: handlers(), width: 900, height: 800 });
      try {
        await app.page.waitForFunction(() => (window as unknown as { __firstRows?: unknown }).__firstRows !== undefined, undefined, { timeout: 30_000 });
        const first = await app.page.evaluate(() => (window as unknown as { __firstRows: { inDom: number; painted: number } }).__firstRows);
        firstRows.push(first);
        await app.page.waitForTimeout(300); // let the first screen settle before scrolling
        const steady = await scroll(app.page, { mode: 'steady', duration: STEADY.seconds * 1000, pxPerSecond: STEADY.pxPerSecond });
        steadies.push(steady);
        await app.page.evaluate('document.querySelector(".dd-list").scrollTop = 0');
        await app.page.waitForTimeout(300);
        const fling = await scroll(app.page, { mode: 'fling', duration: SCROLL_MS });
        scrolls.push(fling);
        if (app.problems.length) throw new Error(`the page reported: ${app.problems.join('; ')}`);
        log(`  run ${run + 1}: first rows in the DOM ${ms(first.inDom)}, painted ${ms(first.painted)}`);
        log(`    steady scroll: ${steady.frames} frames, longest gap ${ms(steady.longestGap)}, ${steady.loadingFrames} frames showed a row still loading`);
        log(`    top to bottom: ${fling.frames} frames, longest gap ${ms(fling.longestGap)}, p95 ${ms(fling.p95Gap)}, ${fling.over50} gaps > 50 ms, ` +
          `${fling.loadingFrames} frames showed a row still loading, bottom rows shown ${ms(fling.bottomShownAfter)} after the scroll`);
      } finally {
        await app.close();
      }
    }
  } finally {
    await browser.close();
    if (build) execFileSync(process.execPath, ['esbuild.mjs', '--only=webviews'], { cwd: ROOT, stdio: 'inherit' });
  }
  const painted = firstRows.map((f) => f.painted);
  const gaps = scrolls.map((s) => s.longestGap);
  const fps = scrolls.map((s) => (s.frames - 1) / (SCROLL_MS / 1000));
  log('');
  log(`| What | Median | Worst | Goal |`);
  log(`|---|---|---|---|`);
  log(`| First rows painted after the panel's page starts loading | ${ms(median(painted))} | ${ms(Math.max(...painted))} | ≤ ${GOALS.firstRowsMs} ms ${Math.max(...painted) <= GOALS.firstRowsMs ? '✓' : '✗'} |`);
  log(`| Frames during a ${SCROLL_MS / 1000} s scroll over ${ROWS.toLocaleString('en')} rows | ${median(scrolls.map((s) => s.frames))} (${median(fps).toFixed(0)} fps) | ${Math.min(...scrolls.map((s) => s.frames))} | — |`);
  log(`| Longest gap between two frames while scrolling | ${ms(median(gaps))} | ${ms(Math.max(...gaps))} | ≤ ${GOALS.longestGapMs} ms ${Math.max(...gaps) <= GOALS.longestGapMs ? '✓' : '✗'} |`);
  log(`| 95th percentile gap | ${ms(median(scrolls.map((s) => s.p95Gap)))} | ${ms(Math.max(...scrolls.map((s) => s.p95Gap)))} | — |`);
  log(`| Bottom rows shown after the scroll ends | ${ms(median(scrolls.map((s) => s.bottomShownAfter)))} | ${ms(Math.max(...scrolls.map((s) => s.bottomShownAfter)))} | — |`);
  log(`| Steady scroll (${STEADY.pxPerSecond} px/s for ${STEADY.seconds} s): longest gap | ${ms(median(steadies.map((s) => s.longestGap)))} | ${ms(Math.max(...steadies.map((s) => s.longestGap)))} | ≤ ${GOALS.longestGapMs} ms |`);
  log(`| Steady scroll: frames that showed a row still loading | ${median(steadies.map((s) => s.loadingFrames))} of ${median(steadies.map((s) => s.frames))} | ${Math.max(...steadies.map((s) => s.loadingFrames))} | — |`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
