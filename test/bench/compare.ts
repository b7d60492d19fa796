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
 *   scroll       the grid scrolled from the top to the bottom, moved once per animation frame by the same distance,
 *                as a 60 Hz display shows a scroll of BENCH_SCROLL_MS (~28,000 px/s: a fling): every frame has the same
 *                work to do however busy the machine is, and a slow frame makes the scroll take longer. The frame
 *                times (gaps between requestAnimationFrame callbacks) p50 and p95, the longest, frames per second,
 *                the frames that showed a row still loading, and the `compare/rows` requests it made;
 *                goal: 60 fps (frame time p95 ≤ 1.5 refreshes, 25 ms)
 *
 * Wall-clock times grow with whatever else the machine runs. So each run is also traced (Chromium's DevTools
 * timeline) and the page's own work is reported as CPU time of the renderer's main thread (the trace's thread
 * time, which a busy machine does not inflate): up to the first rows painted, and per frame while scrolling
 * (p50 / p95, the share of frames whose work fits in a 60 Hz refresh, and the average split into scripting,
 * style and layout, paint and the rest). The load average is printed with the figures.
 *
 * The bundle measured is the production one (built first into dist/webviews, then the development build is put
 * back), unless --no-build (then whatever dist/webviews holds).
 *
 * Options: BENCH_RUNS=5 · BENCH_EXAMPLES=1000 · BENCH_EXPERIMENTS=3 · BENCH_FIRST_ROWS=50 · BENCH_SCROLL_MS=5000 ·
 *          BENCH_HOST_MS=0 (delay of the fake host's row answers) · BENCH_CPU_SLOWDOWN=1 · BENCH_TRACE=0 (no
 *          trace, no CPU figures) · --top (the trace's costliest events, to the first rows and scrolling) · --no-build · --help
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { CompareState, IndexRow, RowContent } from '../../src/protocol/compare';
import { launchBrowser, openApp } from '../webview/harness';

// The functions given to the page run in the browser.
declare const window: any, document: any, MutationObserver: any, performance: any, requestAnimationFrame: (callback: () => void) => number;

const ROOT = path.resolve(__dirname, '../..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const EXAMPLES = Number(process.env['BENCH_EXAMPLES'] ?? 1000);
const EXPERIMENTS = Number(process.env['BENCH_EXPERIMENTS'] ?? 3);
const FIRST_ROWS = Number(process.env['BENCH_FIRST_ROWS'] ?? 50);
const SCROLL_MS = Number(process.env['BENCH_SCROLL_MS'] ?? 5000);
const HOST_MS = Number(process.env['BENCH_HOST_MS'] ?? 0);
const CPU_SLOWDOWN = Number(process.env['BENCH_CPU_SLOWDOWN'] ?? 1);
const TRACE = process.env['BENCH_TRACE'] !== '0';
/** One refresh at 60 Hz. */
const REFRESH_MS = 1000 / 60;
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

/** Installed in every page before its scripts: notes when the first row with contents is in the DOM and painted
 *  (and marks it, for the trace). */
function watchFirstRows(): void {
  const w = window as { __firstRows?: { inDom: number; painted: number } };
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="row"] [data-testid="inputs"]')) return;
    observer.disconnect();
    const inDom = performance.now();
    requestAnimationFrame(() =>
      setTimeout(() => {
        w.__firstRows = { inDom, painted: performance.now() };
        performance.mark('bench-first-rows', { startTime: w.__firstRows.painted });
      }),
    );
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** The trace of one page, from before its navigation to the end of its scroll. */
interface Tracer {
  stop(): Promise<TraceEvent[]>;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds: wall time, and (where the platform gives it) the thread's CPU time. */
  ts: number;
  dur?: number;
  tts?: number;
  tdur?: number;
  args?: { name?: string; data?: { startTime?: number } };
}

const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'v8'];

async function startTrace(cdp: CDPSession): Promise<Tracer> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { recordMode: 'recordContinuously', includedCategories: CATEGORIES } });
  return {
    stop: async () => {
      const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await done;
      return events;
    },
  };
}

/** The harness makes its own browser context; this one adds the watcher, the trace (and CPU throttling) first. */
function instrumented(browser: Browser, traced: (tracer: Tracer) => void): Browser {
  return {
    newContext: async (options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> => {
      const context = await browser.newContext(options);
      await context.addInitScript(watchFirstRows);
      const newPage = context.newPage.bind(context);
      context.newPage = async () => {
        const page = await newPage();
        const cdp = await context.newCDPSession(page);
        if (CPU_SLOWDOWN > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
        if (TRACE) traced(await startTrace(cdp));
        return page;
      };
      return context;
    },
  } as Browser;
}

interface ScrollResult {
  frames: number;
  /** performance.now() of each animation frame. */
  stamps: number[];
  gaps: number[];
  loadingFrames: number;
  bottomShownAfter: number;
  /** performance.now() at the `bench-scroll` mark (ties the page's clock to the trace's). */
  markedAt: number;
}

/** Scrolls the grid from top to bottom in SCROLL_MS at 60 Hz, the same distance each frame; then waits for the last rows. */
async function scroll(page: Page): Promise<ScrollResult> {
  const script = `new Promise((resolve) => {
    const frames = Math.round(${SCROLL_MS} / 1000 * 60);
    const grid = document.querySelector('[data-testid="grid"]');
    const loading = () => grid.querySelector('[data-testid="inputs-pending"]') !== null;
    const stamps = [];
    let loadingFrames = 0, ended = 0;
    const markedAt = performance.now();
    performance.mark('bench-scroll', { startTime: markedAt });
    const settle = () => {
      grid.scrollTop = grid.scrollHeight;
      if (loading() || !grid.querySelector('[data-row="${EXAMPLES - 1}"]')) return requestAnimationFrame(settle);
      resolve({ frames: stamps.length, stamps, gaps: stamps.slice(1).map((s, i) => s - stamps[i]), loadingFrames, bottomShownAfter: performance.now() - ended, markedAt });
    };
    const step = (t) => {
      stamps.push(t);
      if (loading()) loadingFrames++;
      const p = Math.min(1, (stamps.length - 1) / frames);
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

// ---- the trace: the page's main thread, its tasks and where their CPU time went

type Kind = 'scripting' | 'style and layout' | 'paint' | 'other';
const KINDS: Kind[] = ['scripting', 'style and layout', 'paint', 'other'];
const SCRIPTING = /^(EvaluateScript|v8\.|V8\.|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|MinorGC|MajorGC|GCEvent|BlinkGC|FireIdleCallback|XHR|ParseScript|CompileScript|CompileCode|OptimizeCode|CacheScript|StreamingCompile|EvaluateModule|RunTimer|ScheduledAction|HandlePostMessage)/;
const LAYOUT = /^(UpdateLayoutTree|RecalculateStyles|Layout|UpdateLayerTree|HitTest|ScheduleStyleRecalculation|InvalidateLayout|IntersectionObserver|ScrollLayer|ParseAuthorStyleSheet|StyleInvalidator)/;
const PAINT = /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|UpdateLayer|RasterTask|Rasterize|Decode|ImageDecode|PaintSetup|PaintImage|Animation)/;
const kindOf = (name: string): Kind => (SCRIPTING.test(name) ? 'scripting' : LAYOUT.test(name) ? 'style and layout' : PAINT.test(name) ? 'paint' : 'other');

/** A complete slice of the main thread: wall and CPU time (ms, the trace's clock), and its own CPU time. */
interface Slice {
  name: string;
  start: number;
  end: number;
  cpu: number;
  self: number;
  root: boolean;
}

interface MainThread {
  slices: Slice[];
  /** The trace's clock (ms) at the page's performance.now() 0, from a mark of the page. */
  origin: number;
  /** Whether the trace has thread times (else the CPU figures are wall times). */
  threadTimes: boolean;
}

/** The renderer main thread that made the mark, its slices nested (each one's own time without its children's). */
function mainThread(events: TraceEvent[], mark: string, markedAt: number): MainThread | undefined {
  const marked = events.find((e) => e.cat.includes('blink.user_timing') && e.name === mark);
  if (!marked) return undefined;
  const mine = events.filter((e) => e.pid === marked.pid && e.tid === marked.tid);
  const slices: (Slice & { wallUs: number })[] = [];
  const open: TraceEvent[] = [];
  let threadTimes = false;
  const push = (name: string, ts: number, dur: number, tdur: number | undefined) => {
    if (tdur !== undefined) threadTimes = true;
    const cpu = (tdur ?? dur) / 1000;
    slices.push({ name, start: ts / 1000, end: (ts + dur) / 1000, cpu, self: cpu, root: false, wallUs: dur });
  };
  for (const e of mine) {
    if (e.ph === 'X' && e.dur !== undefined) push(e.name, e.ts, e.dur, e.tdur);
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) push(b.name, b.ts, e.ts - b.ts, b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : undefined);
    }
  }
  slices.sort((a, b) => a.start - b.start || b.wallUs - a.wallUs);
  const stack: Slice[] = [];
  for (const s of slices) {
    while (stack.length && stack[stack.length - 1]!.end <= s.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && s.end <= parent.end + 1e-6) parent.self -= s.cpu;
    else {
      stack.length = 0;
      s.root = true;
    }
    stack.push(s);
  }
  return { slices, origin: marked.ts / 1000 - markedAt, threadTimes };
}

/** The main thread's CPU time in tasks that started in [from, to) (the trace's clock, ms). */
function cpuIn(t: MainThread, from: number, to: number): number {
  let sum = 0;
  for (const s of t.slices) if (s.root && s.start >= from && s.start < to) sum += s.cpu;
  return sum;
}

/** Own CPU time per event name of the slices that started in [from, to). */
function own(t: MainThread, from: number, to: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const x of t.slices) if (x.start >= from && x.start < to && x.self > 0) byName.set(x.name, (byName.get(x.name) ?? 0) + x.self);
  return byName;
}

interface TraceFigures {
  /** Main-thread CPU from the navigation to the first rows painted. */
  firstRowsCpu: number;
  /** Main-thread CPU per scroll frame. */
  frameCpu: number[];
  /** Own CPU time per kind and per event name over the scroll. */
  byKind: Record<Kind, number>;
  byName: Map<string, number>;
  /** Own CPU time per event name up to the first rows. */
  firstByName: Map<string, number>;
  threadTimes: boolean;
}

function figures(events: TraceEvent[], firstRowsPainted: number, s: ScrollResult): TraceFigures | undefined {
  const load = mainThread(events, 'bench-first-rows', firstRowsPainted);
  const scrolled = mainThread(events, 'bench-scroll', s.markedAt);
  if (!load || !scrolled) return undefined;
  const firstRowsCpu = cpuIn(load, load.origin, load.origin + firstRowsPainted);
  const at = s.stamps.map((x) => scrolled.origin + x);
  const frameCpu = at.slice(1).map((t, i) => cpuIn(scrolled, at[i]!, t));
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const byName = own(scrolled, at[0]!, at[at.length - 1]!);
  for (const [name, cpu] of byName) byKind[kindOf(name)] += cpu;
  const firstByName = own(load, load.origin, load.origin + firstRowsPainted);
  return { firstRowsCpu, frameCpu, byKind, byName, firstByName, threadTimes: load.threadTimes && scrolled.threadTimes };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  const build = !process.argv.includes('--no-build');
  const top = process.argv.includes('--top');
  if (build) execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=webviews'], { cwd: ROOT, stdio: 'inherit' });
  const bundle = path.join(ROOT, 'dist/webviews/compare.js');
  const production = !fs.readFileSync(bundle, 'utf8').includes('sourceMappingURL');
  const s = state();
  const browser = await launchBrowser();
  const firstRows: number[] = [];
  const firstRequests: number[] = [];
  const scrolls: (ScrollResult & { asks: number })[] = [];
  const traces: TraceFigures[] = [];
  const loads = [load()];
  try {
    log(`comparison webview: ${EXAMPLES.toLocaleString('en')} examples × ${EXPERIMENTS} experiments, ${KEYS.length} keys, first ${FIRST_ROWS} rows with the state, ${RUNS} runs, ` +
      `${production ? 'production' : 'development'} bundle (${(fs.statSync(bundle).size / 1000).toFixed(1)} KB), Chromium ${browser.version()}, ` +
      `host answers after ${HOST_MS} ms, CPU slowdown ${CPU_SLOWDOWN}×, ${TRACE ? 'traced' : 'not traced'}; ${os.cpus().length} cores, load average ${loads[0]}`);
    for (let run = 0; run < RUNS; run++) {
      let tracer: Tracer | undefined;
      const app = await openApp(instrumented(browser, (t) => (tracer = t)), 'compare', { handlers: handlers(s), width: 1200, height: 900 });
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
        const trace = tracer && figures(await tracer.stop(), first.painted, result);
        if (tracer && !trace) throw new Error('the trace has no marks of the page');
        if (trace) traces.push(trace);
        loads.push(load());
        log(`  run ${run + 1}: first rows in the DOM ${ms(first.inDom)}, painted ${ms(first.painted)}; ${requests} requests for the first screen; ` +
          `scroll: ${result.frames} frames, frame time p50 ${ms(percentile(result.gaps, 0.5))} p95 ${ms(percentile(result.gaps, 0.95))} max ${ms(Math.max(...result.gaps))}, ` +
          `${result.loadingFrames} frames with a row loading, ${app.requests('compare/rows').length - before} row requests, bottom rows shown ${ms(result.bottomShownAfter)} after` +
          (trace ? `; main-thread CPU: ${ms(trace.firstRowsCpu)} to the first rows, per frame p50 ${ms(percentile(trace.frameCpu, 0.5))} p95 ${ms(percentile(trace.frameCpu, 0.95))}` : '') +
          `; load average ${loads[loads.length - 1]}`);
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
  const fps = median(scrolls.map((x) => (x.frames - 1) / ((x.stamps[x.stamps.length - 1]! - x.stamps[0]!) / 1000)));
  log('');
  log(`Wall clock (load average ${loads[0]} at the start, ${loads[loads.length - 1]} at the end, ${os.cpus().length} cores):`);
  log('');
  log(`| What | Median | Worst | Goal |`);
  log(`|---|---|---|---|`);
  log(`| First rows painted after the panel's page starts loading (${EXAMPLES.toLocaleString('en')} × ${EXPERIMENTS}) | ${ms(median(firstRows))} | ${ms(Math.max(...firstRows))} | ≤ ${GOALS.firstRowsMs} ms ${Math.max(...firstRows) <= GOALS.firstRowsMs ? '✓' : '✗'} |`);
  log(`| Requests for the first screen and summary (ready + compare/rows) | ${median(firstRequests)} | ${Math.max(...firstRequests)} | ≤ ${GOALS.requests} ${Math.max(...firstRequests) <= GOALS.requests ? '✓' : '✗'} |`);
  const seconds = scrolls.map((x) => (x.stamps[x.stamps.length - 1]! - x.stamps[0]!) / 1000);
  log(`| Frames per second scrolling top to bottom (${median(scrolls.map((x) => x.frames))} frames, ${SCROLL_MS / 1000} s at 60 fps) | ${fps.toFixed(0)} fps (${median(seconds).toFixed(1)} s) | ${Math.max(...seconds).toFixed(1)} s | 60 fps |`);
  log(`| Frame time while scrolling, p50 / p95 (all runs) | ${ms(p50)} / ${ms(p95)} | max ${ms(Math.max(...gaps))} | p95 ≤ ${GOALS.p95FrameMs} ms ${p95 <= GOALS.p95FrameMs ? '✓' : '✗'} |`);
  log(`| Frames that showed a row still loading | ${median(scrolls.map((x) => x.loadingFrames))} of ${median(scrolls.map((x) => x.frames))} | ${Math.max(...scrolls.map((x) => x.loadingFrames))} | — |`);
  log(`| compare/rows requests during the scroll | ${median(scrolls.map((x) => x.asks))} | ${Math.max(...scrolls.map((x) => x.asks))} | — |`);
  log(`| Bottom rows shown after the scroll ends | ${ms(median(scrolls.map((x) => x.bottomShownAfter)))} | ${ms(Math.max(...scrolls.map((x) => x.bottomShownAfter)))} | — |`);
  if (!traces.length) return;
  const cpu = traces.flatMap((t) => t.frameCpu);
  const fits = cpu.filter((x) => x <= REFRESH_MS).length / cpu.length;
  const frames = cpu.length;
  const split = KINDS.map((k) => `${k} ${ms(traces.reduce((n, t) => n + t.byKind[k], 0) / frames)}`).join(', ');
  log('');
  log(`The page's own work: CPU time of the renderer's main thread, from the trace${traces.every((t) => t.threadTimes) ? '' : ' (this platform gives no thread times: wall times instead)'}:`);
  log('');
  log(`| What | Median | Worst | Goal |`);
  log(`|---|---|---|---|`);
  const firstCpu = traces.map((t) => t.firstRowsCpu);
  log(`| Main-thread CPU up to the first rows painted | ${ms(median(firstCpu))} | ${ms(Math.max(...firstCpu))} | ≤ ${GOALS.firstRowsMs} ms ${Math.max(...firstCpu) <= GOALS.firstRowsMs ? '✓' : '✗'} |`);
  log(`| Main-thread CPU per scroll frame, p50 / p95 (all runs) | ${ms(percentile(cpu, 0.5))} / ${ms(percentile(cpu, 0.95))} | max ${ms(Math.max(...cpu))} | p95 ≤ ${ms(REFRESH_MS)} ${percentile(cpu, 0.95) <= REFRESH_MS ? '✓' : '✗'} |`);
  log(`| Scroll frames whose work fits in a 60 Hz refresh | ${(fits * 100).toFixed(0)}% | — | — |`);
  log(`| Average per scroll frame | ${split} | — | — |`);
  if (top) {
    const costliest = (what: string, per: number, pick: (t: TraceFigures) => Map<string, number>) => {
      const names = new Map<string, number>();
      for (const t of traces) for (const [n, v] of pick(t)) names.set(n, (names.get(n) ?? 0) + v);
      log('');
      log(`Costliest events ${what}:`);
      for (const [n, v] of [...names].sort((a, b) => b[1] - a[1]).slice(0, 15)) log(`  ${n.padEnd(40)} ${ms(v / per)}  (${kindOf(n)})`);
    };
    costliest('up to the first rows (own CPU time per run)', traces.length, (t) => t.firstByName);
    costliest('while scrolling (own CPU time per frame)', frames, (t) => t.byName);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
