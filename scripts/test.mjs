// `npm test`: installs what is missing, builds once what the chosen layers need, then runs the layers and prints
// each layer's counts and seconds, and the run's total.
//   node scripts/test.mjs                  all layers
//   node scripts/test.mjs unit client      only these layers
//   node scripts/test.mjs --serial         one layer at a time (by default two lanes run side by side, each
//                                          in order: the Node layers and then the extension layer; the build,
//                                          the webview and the e2e layers)
// Layers: types (tsc), lint (ESLint: typescript-eslint and the architecture's doors), unit, server, client, webview (the built webview apps in Chromium with a fake host),
// extension (mocha inside the real VS Code extension host), e2e
// (Playwright + Chromium clicking the real workbench with the packaged .vsix).
//
// The build: one production build (the bundles the .vsix ships) serves the webview layer, the extension layer
// (with the extension's test bundle beside it) and the e2e layer (which packages it into the .vsix).
// Output: the layer that comes first in the order above prints as it runs; a layer running beside it keeps its
// output and prints it whole once every layer before it has printed, so the log reads as a serial run's would.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const npx = (args) => ['npx', ['--no-install', ...args]];
// lane: layers of one lane run one after another, in this order; the lanes run side by side (unless --serial).
// browser: the layer needs the run's build (and Chromium and code-server); it waits for the build, whose lane is
// that of the first browser layer. The lanes are about even in a full run: the extension layer follows the Node
// layers, which end after the build, while the webview and e2e layers, the longest, take the other lane.
const layers = [
  { name: 'types', lane: 'node', cmd: npx(['tsc', '--noEmit', '-p', '.']), then: [npx(['tsc', '--noEmit', '-p', 'webview-ui']), npx(['tsc', '--noEmit', '-p', 'test/webview'])], counts: false },
  { name: 'lint', lane: 'node', cmd: ['node', ['scripts/lint.mjs']], counts: 'lint' },
  { name: 'unit', lane: 'node', cmd: npx(['mocha', '--config', 'test/unit/.mocharc.json']) },
  { name: 'server', lane: 'node', cmd: npx(['mocha', '--config', 'test/server/.mocharc.json']) },
  { name: 'client', lane: 'node', cmd: npx(['mocha', '--config', 'test/client/.mocharc.json']) },
  { name: 'webview', lane: 'browser', browser: true, cmd: npx(['mocha', '--config', 'test/webview/.mocharc.json']) },
  { name: 'extension', lane: 'node', browser: true, cmd: ['node', ['test/extension/run.mjs']] },
  { name: 'e2e', lane: 'browser', browser: true, cmd: npx(['mocha', '--config', 'test/e2e/.mocharc.json']) },
];

const help = process.argv.includes('--help') || process.argv.includes('-h');
const serial = process.argv.includes('--serial');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !layers.some((l) => l.name === w));
if (unknown.length) {
  console.error(`Unknown layer(s): ${unknown.join(', ')}. Layers: ${layers.map((l) => l.name).join(', ')}`);
  process.exit(2);
}
if (help) {
  console.log(`npm test [-- LAYER ...] [-- --serial]: installs what is missing, builds once, then runs the layers${wanted.length ? ` (here: ${wanted.join(', ')})` : ''}.
Layers: ${layers.map((l) => l.name).join(', ')} (all when none is named). Two lanes run side by side: the
Node layers then extension, and the build, webview and e2e; --serial runs one layer at a time.`);
  process.exit(0);
}
const selected = wanted.length ? layers.filter((l) => wanted.includes(l.name)) : layers;
const names = new Set(selected.map((l) => l.name));

/**
 * The one build of the run, as steps: the production bundles (only the webviews when the webview layer alone
 * needs a build), the extension's test bundle for the extension layer, and for the e2e layer the .vsix made from
 * those same bundles by `npm run package`'s own vsce step.
 */
function buildSteps() {
  const steps = [];
  if (names.has('extension') || names.has('e2e')) steps.push(['node', ['esbuild.mjs', '--production']]);
  else if (names.has('webview')) steps.push(['node', ['esbuild.mjs', '--production', '--only=webviews']]);
  if (names.has('extension')) steps.push(['node', ['esbuild.mjs', '--only=extensionTests']]);
  if (names.has('e2e')) {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.package;
    const vsce = pkg.split('&&').map((s) => s.trim()).find((s) => s.startsWith('vsce '));
    if (!vsce) throw new Error(`package.json's package script has no vsce step: ${pkg}`);
    steps.push(npx(vsce.split(/\s+/)));
  }
  return steps;
}

function ensureInstalled() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules/.package-lock.json');
  if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < fs.statSync(lock).mtimeMs) {
    console.log('[test] installing npm dependencies (npm ci)');
    run(['npm', ['ci', '--no-audit', '--no-fund']]);
  }
  if (selected.some((l) => l.browser)) {
    run(['bash', ['scripts/setup-tools.sh']]);
  }
}

function run([cmd, args]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[test] \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** Colour codes in a layer's output (ESC [ … m), left out before the counts are read. */
const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * The log: entries (the build and the layers) print in the order of `order`. The first entry not yet finished
 * prints live; a later one keeps its output until every entry before it has finished, then prints it at once.
 */
function makeLog(order) {
  const entries = new Map(order.map((name) => [name, { chunks: [], done: false }]));
  let cursor = 0;
  const live = (name) => order[cursor] === name;
  const flush = (name) => {
    for (const [stream, chunk] of entries.get(name).chunks) stream.write(chunk);
    entries.get(name).chunks = [];
  };
  return {
    write(name, stream, chunk) {
      if (live(name)) stream.write(chunk);
      else entries.get(name).chunks.push([stream, chunk]);
    },
    done(name) {
      entries.get(name).done = true;
      while (cursor < order.length && entries.get(order[cursor]).done) {
        cursor++;
        if (cursor < order.length) flush(order[cursor]);
      }
    },
  };
}

/** Runs a command, its output going to the log, and reads mocha's or our runner's closing counts from it. */
function runLayer(log, name, [cmd, args]) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const echo = (stream) => (chunk) => {
      text += chunk;
      log.write(name, stream, chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('error', (err) => log.write(name, process.stderr, `[test] ${cmd}: ${err.message}\n`));
    child.on('close', (code) => {
      const plain = text.replace(ANSI_COLOURS, '');
      const num = (re) => Number(re.exec(plain)?.[1] ?? 0);
      const passed = num(/(\d+) passing/) || num(/^(\d+) passed, \d+ failed/m);
      const failed = num(/(\d+) failing/) || num(/^\d+ passed, (\d+) failed/m);
      const pending = num(/(\d+) pending/);
      const lint = /^lint: (.*)$/m.exec(plain)?.[1];
      resolve({ code: code ?? 1, passed, failed, pending, lint });
    });
  });
}

ensureInstalled();
const steps = buildSteps();
// The entries of the run in print order; the build goes just before the first layer that needs it.
const entries = [...selected];
if (steps.length) {
  const first = entries.findIndex((l) => l.browser);
  entries.splice(first, 0, { name: 'build', lane: entries[first].lane, counts: 'build', steps });
}
const log = makeLog(entries.map((e) => e.name));
const results = new Map();
const started = Date.now();

async function runEntry(entry) {
  log.write(entry.name, process.stdout, `\n[test] ── ${entry.name} ──\n`);
  const t0 = Date.now();
  let r;
  if (entry.steps) {
    for (const step of entry.steps) {
      r = await runLayer(log, entry.name, step);
      if (r.code !== 0) break;
    }
  } else {
    r = await runLayer(log, entry.name, entry.cmd);
    for (const next of entry.then ?? []) if (r.code === 0) r = await runLayer(log, entry.name, next);
  }
  results.set(entry.name, { ...entry, ...r, seconds: ((Date.now() - t0) / 1000).toFixed(1) });
  log.done(entry.name);
  return r.code === 0;
}

/** Whether the build succeeded, once it has ended (at once when there is none). */
let buildEnded;
const built = steps.length ? new Promise((resolve) => (buildEnded = resolve)) : Promise.resolve(true);

async function runLane(lane) {
  for (const entry of lane) {
    // Without its build, no browser layer can run.
    if (entry.browser && !(await built)) {
      results.set(entry.name, { ...entry, code: 1, passed: 0, failed: 0, pending: 0, seconds: '0.0', skipped: true });
      log.done(entry.name);
      continue;
    }
    const ok = await runEntry(entry);
    if (entry.name === 'build') buildEnded(ok);
  }
}

const lanes = serial ? [entries] : [...new Set(entries.map((e) => e.lane))].map((lane) => entries.filter((e) => e.lane === lane));
await Promise.all(lanes.map(runLane));
const wall = ((Date.now() - started) / 1000).toFixed(1);

console.log('\n[test] summary');
let passed = 0;
let failed = 0;
let broken = false;
let layerSeconds = 0;
for (const r of entries.map((e) => results.get(e.name))) {
  const counts = r.skipped
    ? 'not run: the build failed'
    : r.counts === 'build'
      ? (r.code === 0 ? 'built' : 'failed')
      : r.counts === false
        ? (r.code === 0 ? 'clean' : 'errors')
        : r.counts === 'lint'
          ? (r.lint ?? 'did not finish')
          : `${r.passed} passed, ${r.failed} failed${r.pending ? `, ${r.pending} pending` : ''}`;
  console.log(`  ${r.name.padEnd(10)} ${counts.padEnd(34)} ${r.seconds.padStart(6)} s${r.code === 0 ? '' : `  (exit ${r.code})`}`);
  layerSeconds += Number(r.seconds);
  if (r.counts === 'lint' && !r.lint) broken = true;
  if (r.counts !== false && r.counts !== 'lint' && r.counts !== 'build') {
    passed += r.passed;
    failed += r.failed;
    // A layer that ran nothing is a failure: its tests were not found or did not load.
    if (r.passed === 0 && r.failed === 0 && r.pending === 0) broken = true;
  }
  if (r.code !== 0) broken = true;
}
// The run's wall time; with lanes side by side it is less than the layers' sum.
const how = lanes.length > 1 ? `${lanes.length} lanes; layers' sum ${layerSeconds.toFixed(1)} s` : 'one lane, in order';
console.log(`  ${'total'.padEnd(10)} ${how.padEnd(34)} ${wall.padStart(6)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
