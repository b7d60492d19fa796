/**
 * `npm run bench:review`: annotation review in the real workbench (code-server + Chromium, the packaged
 * extension) against the local server with a queue of BENCH_ITEMS items.
 *
 * The local server (demo data) gets a project of BENCH_ITEMS root runs, two feedback configs and a queue
 * `bench-review` holding every run, with a rubric of a categorical key (required) and a continuous one. Then:
 *
 *   open     Review Queue from the palette, the queue picked: from the Enter in the picker to the first item's
 *            run name painted in the panel (goal ≤ 1,000 ms for 10,000 items)
 *   done     BENCH_ROUNDS reviews with the keyboard only (`1` on the categorical field, Ctrl+Enter): from the
 *            keydown of Ctrl+Enter to the frame after the next item's run name is shown (goal: median ≤ 150 ms),
 *            with the run's inputs there too (the trace is ready, not loading); measured inside the page
 *   list     the item list scrolled to its end: rows it holds before and after (it pages as it scrolls)
 *   server   the feedback and completed items counted on the server afterwards (every Done landed once)
 *
 * Options: BENCH_ITEMS=10000 · BENCH_ROUNDS=15 · --no-package · --write (record in docs/BENCHMARKS.md) · --help
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { LangSmithClient } from '../../src/client';
import { startLocalServer, type LocalServer } from '../harness/localServer';

const ROOT = path.resolve(__dirname, '../..');
const ITEMS = Number(process.env['BENCH_ITEMS'] ?? 10_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const GOALS = { openMs: 1000, doneMs: 150 };
const QUEUE = 'bench-review';

const log = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** What the measuring code uses of the page's globals (this file is type-checked without the DOM library). */
interface InPage {
  MutationObserver: new (callback: () => void) => { observe(node: unknown, options: object): void; disconnect(): void };
  requestAnimationFrame(callback: () => void): void;
  performance: { now(): number };
  document: { querySelector(s: string): { textContent: string | null } | null; body: unknown; addEventListener(t: string, f: (e: { key: string; ctrlKey: boolean; metaKey: boolean }) => void, o: object): void };
  lswNext?: Promise<number>;
}

async function fill(srv: LocalServer): Promise<string> {
  const t0 = Date.now();
  const client = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey, tracing: { manualFlush: true, projectName: 'bench-review-runs' } });
  const ids: string[] = [];
  for (let i = 0; i < ITEMS; i += 5_000) {
    for (let j = i; j < Math.min(i + 5_000, ITEMS); j++) {
      ids.push(client.tracing.startRun({ name: `bench-answer-${j}`, runType: 'chain', inputs: { question: `Bench question ${j}?` } }).post().end({ outputs: { answer: `Answer ${j}.` } }).patch().id);
    }
    await client.tracing.flush();
  }
  await client.feedbackConfigs.upsert({ key: 'bench-verdict', config: { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }] } });
  await client.feedbackConfigs.upsert({ key: 'bench-quality', config: { type: 'continuous', min: 0, max: 1 } });
  const queue = await client.annotationQueues.create({
    name: QUEUE,
    rubricInstructions: 'Is the answer right?',
    rubricItems: [{ feedback_key: 'bench-verdict', is_required: true }, { feedback_key: 'bench-quality' }],
  });
  for (let i = 0; i < ids.length; i += 1_000) await client.annotationQueues.items.addRuns(queue.id, ids.slice(i, i + 1_000).map((runId) => ({ runId })));
  log(`filled the local server: ${ITEMS} runs in a queue in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return queue.id;
}

/** The review page's frame once it shows `testId`. */
async function reviewFrame(page: Page, testId: string): Promise<Frame> {
  const { eventually, webviewFrame } = await import('../e2e/workbench');
  return eventually(async () => {
    const f = await webviewFrame(page).catch(() => null);
    return f && (await f.getByTestId(testId).count().catch(() => 0)) ? f : null;
  }, 60_000);
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    log(fs.readFileSync(__filename, 'utf8').split('*/')[0]!.replace(/^\/\*\*|^ \* ?/gm, ''));
    return;
  }
  const { assertToolsInstalled, launchBrowser, startCodeServer, workbenchUrl } = await import('../../scripts/lib/vscode.mjs');
  assertToolsInstalled();
  if (!process.argv.includes('--no-package')) {
    log('packaging the extension (npm run package)');
    execFileSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const srv = await startLocalServer({ seed: 'demo' });
  const queueId = await fill(srv);
  const { VSIX, runCommand, openLangSmithContainer } = await import('../e2e/workbench');
  const server = await startCodeServer({ vsix: VSIX, env: { LANGSMITH_ENDPOINT: srv.url, LANGSMITH_API_KEY: srv.apiKey, LANGSMITH_WORKSPACE_ID: '' } });
  const browser = await launchBrowser();
  const rows: { what: string; figure: string; goal: string; met: boolean; note?: string }[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(workbenchUrl(server));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await openLangSmithContainer(page);
    await page.locator('.part.sidebar [role="treeitem"]').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(4_000);

    // open: the palette's Review Queue, the queue picked; Enter → the first item's name painted.
    await runCommand(page, 'LangSmith: Review Queue');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: QUEUE }).first().waitFor({ timeout: 30_000 });
    await input.fill(QUEUE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: QUEUE }).first().waitFor();
    const t0 = Date.now();
    await input.press('Enter');
    const frame = await reviewFrame(page, 'run-name');
    await frame.getByTestId('run-name').filter({ hasText: 'bench-answer-' }).first().waitFor({ timeout: 60_000 });
    const openMs = Date.now() - t0;
    // Where the time went: until the page's document started (VS Code: the command, the panel, its frames), and
    // from there to the first item painted (the page's bundle, its ready request answered by the host, the paint).
    const pageStart = await frame.evaluate(() => (globalThis as unknown as { performance: { timeOrigin: number } }).performance.timeOrigin);
    const vscodeMs = Math.max(0, Math.round(pageStart - t0));
    const loaded = await frame.evaluate(() => {
      const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string; responseEnd?: number; startTime: number }[] } }).performance;
      return [...perf.getEntriesByType('resource'), ...perf.getEntriesByType('paint')].map((e) => `${e.name.split('/').pop()}@${Math.round(e.responseEnd ?? e.startTime)}`).join(', ');
    });
    log(`page timeline (ms from its start): ${loaded}`);
    const logs = execFileSync('grep', ['-rh', '--include=*.log', 'Review: the queue', server.runDir], { encoding: 'utf8' }).trim();
    log(`host: ${logs}`);
    const pageMs = openMs - vscodeMs;
    log(`open: ${openMs} ms (VS Code until the page starts ${vscodeMs} ms, the page to the first item painted ${pageMs} ms)`);
    rows.push({
      what: `Review Queue on a queue of ${ITEMS.toLocaleString('en')} items: Enter in the picker to the first item painted`,
      figure: `${openMs} ms`,
      goal: `≤ ${GOALS.openMs} ms`,
      met: openMs <= GOALS.openMs,
      note: `VS Code opening the panel until its page starts ${vscodeMs} ms; the page loading, asking and painting the first item ${pageMs} ms`,
    });

    // done: keyboard only; measured in the page from the Ctrl+Enter keydown to the frame after the next name.
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const before = (await frame.getByTestId('run-name').first().textContent()) ?? '';
      await frame.getByTestId('choice').filter({ hasText: 'right' }).first().waitFor();
      await frame.evaluate((prev) => {
        const w = globalThis as unknown as InPage;
        const { MutationObserver, requestAnimationFrame, performance, document } = w;
        w.lswNext = new Promise<number>((resolve, reject) => {
          let t0 = 0;
          document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) t0 = performance.now(); }, { capture: true, once: false });
          const observer = new MutationObserver(() => {
            const name = document.querySelector('[data-testid="run-name"]')?.textContent ?? '';
            const inputs = document.querySelector('[data-testid="inputs"]')?.textContent ?? '';
            if (t0 && name && name !== prev && inputs.includes('Bench question')) {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - t0));
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          setTimeout(() => reject(new Error('no next item within 30 s')), 30_000);
        });
      }, before);
      // Focus in the page (not a text field), pick the category with `1`, then Done.
      await frame.getByTestId('field').first().focus();
      await frame.locator('body').press('1');
      await frame.locator('body').press('Control+Enter');
      samples.push(Math.round(await frame.evaluate(() => (globalThis as unknown as InPage).lswNext!)));
    }
    log(`done → next samples (ms): ${samples.join(', ')}`);
    const doneMs = median(samples);
    rows.push({ what: `Done (Ctrl+Enter) to the next item shown with its inputs (median of ${ROUNDS})`, figure: `${doneMs} ms`, goal: `≤ ${GOALS.doneMs} ms`, met: doneMs <= GOALS.doneMs, note: `samples ${samples.join(', ')} ms` });

    // list: the item list holds a page, and more as it scrolls.
    const list = frame.getByTestId('item-list');
    if (!(await list.isVisible().catch(() => false))) await frame.getByTestId('toggle-items').click();
    await list.waitFor({ timeout: 15_000 });
    await frame.locator('[data-testid="item-list"]:not([data-loaded="0"])').waitFor({ timeout: 15_000 });
    const rowsBefore = await frame.getByTestId('item-row').count();
    const loadedBefore = Number((await list.getAttribute('data-loaded')) ?? rowsBefore);
    for (let k = 0; k < 5; k++) {
      await list.evaluate((el) => ((el as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (el as unknown as { scrollHeight: number }).scrollHeight));
      await page.waitForTimeout(400);
    }
    const loadedAfter = Number((await list.getAttribute('data-loaded')) ?? (await frame.getByTestId('item-row').count()));
    log(`item list: ${loadedBefore} items loaded, ${loadedAfter} after scrolling to the end five times`);
    rows.push({ what: 'Item list: items loaded before and after scrolling to its end five times', figure: `${loadedBefore} → ${loadedAfter}`, goal: 'pages as it scrolls', met: loadedAfter > loadedBefore });

    // server: every Done landed once.
    const client = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey });
    const archived = await client.annotationQueues.items.count(queueId, 'archived');
    let feedback = 0;
    for await (const f of client.feedback.list({ feedbackKeys: ['bench-verdict'] })) if (f.key === 'bench-verdict') feedback++;
    log(`server: ${archived} items completed, ${feedback} bench-verdict feedback`);
    rows.push({ what: `On the server after ${ROUNDS} reviews: items completed, feedback entries`, figure: `${archived}, ${feedback}`, goal: `${ROUNDS}, ${ROUNDS}`, met: archived === ROUNDS && feedback === ROUNDS });
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(server.runDir, { recursive: true, force: true });
    await srv.close();
  }
  const lines = ['| Measure | Result | Goal | Met |', '|---|---|---|---|', ...rows.map((r) => `| ${r.what} | ${r.figure}${r.note ? ` (${r.note})` : ''} | ${r.goal} | ${r.met ? 'yes' : '**no**'} |`)];
  log(`\n${lines.join('\n')}`);
  if (process.argv.includes('--write')) {
    const file = path.join(ROOT, 'docs/BENCHMARKS.md');
    const text = fs.readFileSync(file, 'utf8');
    const start = '<!-- bench:review -->';
    const end = '<!-- /bench:review -->';
    const block = `${start}\n${lines.join('\n')}\n${end}`;
    fs.writeFileSync(file, text.includes(start) ? text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block) : `${text.trimEnd()}\n\n${block}\n`);
    log('recorded in docs/BENCHMARKS.md');
  }
  if (!rows.every((r) => r.met)) process.exitCode = 2;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
