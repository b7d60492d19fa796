// The extension ships small and loads little at activation: the production bundles against their goals, each
// module in one bundle only, and what activation loads (extension.js and what it requires at its top level)
// stays apart from what is loaded on first use. Sizes are bytes of minified output, so this is exact, not a timing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';

const root = path.resolve(__dirname, '../..');
const KB = 1000;
/** The bundles of the .vsix that run in the extension host or in Node (the command line), see esbuild.mjs HOST. */
const HOST = ['extension', 'undici', 'client', 'csv', 'promptFile', 'experiments', 'promptReferences', 'agent', 'panels', 'workbench', 'cli'];
/** The bundles the extension loads on first use, never at activation. */
const LAZY = ['./client.js', './undici.js', './csv.js', './promptFile.js', './experiments.js', './promptReferences.js', './agent.js', './panels.js'];

describe('production bundles', function () {
  this.timeout(120_000);
  let out: string;
  let meta: Record<string, Metafile>;
  const size = (f: string) => fs.statSync(path.join(out, f)).size;
  /**
   * The bundles Node loads when it requires `files` in turn (each list counting only what the earlier ones did not
   * load), with `vscode` a stand-in: what the host loads at activation, read from the require cache.
   */
  const loads = (...files: string[]): string[][] => {
    const script = `
      const Module = require('node:module');
      const load = Module._load;
      const stub = new Proxy(function () {}, { get: (t, k) => (k === '__esModule' ? false : stub), apply: () => stub, construct: () => stub });
      Module._load = function (request, ...rest) { return request === 'vscode' ? stub : load.call(this, request, ...rest); };
      const seen = new Set();
      const lists = ${JSON.stringify(files)}.map((f) => {
        require(${JSON.stringify(out)} + '/' + f);
        const now = Object.keys(require.cache).filter((k) => k.startsWith(${JSON.stringify(out + path.sep)}) && !seen.has(k));
        now.forEach((k) => seen.add(k));
        return now.map((k) => k.slice(${out.length + 1}));
      });
      process.stdout.write(JSON.stringify(lists));`;
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[][];
  };

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bundles-'));
    execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=extension,webviews', `--out=${out}`, `--metafile=${path.join(out, 'meta.json')}`], { cwd: root, stdio: 'pipe' });
    meta = JSON.parse(fs.readFileSync(path.join(out, 'meta.json'), 'utf8')) as Record<string, Metafile>;
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  // Bundles that run together share their modules: the host's bundles (one Node process: the extension host,
  // or the command line's) and the webviews' (one page each, from one folder). A module on both sides (the
  // protocols the host and an app speak, zod) is in one bundle of each: the two sides share no code at run time.
  // Not shipped, and so not counted: dist/server.js (the local server) and the extension tests.
  for (const [side, targets] of [['host', HOST], ['webview', ['webviews']]] as const) {
    it(`no module is in two of the ${side}'s bundles`, () => {
      const holders = new Map<string, string[]>();
      for (const target of targets) {
        for (const [file, output] of Object.entries(meta[target]!.outputs)) {
          if (file.endsWith('.map')) continue;
          for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
            // A module kept in another bundle leaves a one-line require of it in its importers (see esbuild.mjs).
            if (bytesInOutput === 0 || input.startsWith('shared-module:')) continue;
            holders.set(input, [...(holders.get(input) ?? []), path.basename(file)]);
          }
        }
      }
      assert.ok(holders.size > 0);
      const twice = [...holders].filter(([, files]) => files.length > 1).map(([input, files]) => `${input} (${files.join(', ')})`);
      assert.deepEqual(twice, [], `modules in more than one bundle:\n${twice.join('\n')}`);
    });
  }

  it('activation loads at most 40 KB: dist/extension.js and the shared bundles it requires', () => {
    const [first] = loads('extension.js');
    const bytes = first!.reduce((n, f) => n + size(f), 0);
    assert.ok(bytes <= 40 * KB, `${first!.join(' + ')} is ${bytes} bytes`);
  });

  it('dist/workbench.js, the second part of activation, with what it requires beyond the first, is at most 300 KB', () => {
    const [, second] = loads('extension.js', 'workbench.js');
    const bytes = second!.reduce((n, f) => n + size(f), 0);
    assert.ok(bytes <= 300 * KB, `${second!.join(' + ')} is ${bytes} bytes`);
  });

  it('each webview bundle is at most 330 KB, and an app with the chunks it imports at most 370 KB', () => {
    const dir = path.join(out, 'webviews');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    assert.ok(files.length > 0);
    for (const f of files) assert.ok(size(`webviews/${f}`) <= 330 * KB, `${f} is ${size(`webviews/${f}`)} bytes`);
    const imports = (f: string, seen = new Set<string>()): Set<string> => {
      for (const [, c] of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/from"\.\/(chunk-[\w-]+\.js)"/g)) {
        if (!seen.has(c!)) imports(c!, seen.add(c!));
      }
      return seen;
    };
    for (const app of files.filter((f) => !f.startsWith('chunk-'))) {
      const loaded = [app, ...imports(app)];
      const bytes = loaded.reduce((n, f) => n + size(`webviews/${f}`), 0);
      assert.ok(bytes <= 370 * KB, `${loaded.join(' + ')} is ${bytes} bytes`);
    }
  });

  it('activation loads no bundle of a single feature: those load on first use, by import()', () => {
    const [first, second] = loads('extension.js', 'workbench.js');
    const atActivation = [...first!, ...second!];
    for (const f of atActivation) assert.ok(f === 'extension.js' || f === 'workbench.js' || /^chunk-[0-9a-f]+\.js$/.test(f), `activation loads ${f}`);
    // The first part loads the second on first use (an import() in the source), a turn after activate's synchronous part.
    assert.ok(fs.readFileSync(path.join(out, 'extension.js'), 'utf8').includes('require("./workbench.js")'), 'extension.js never loads ./workbench.js');
    // Each bundle of a single feature is loaded by something activation loads.
    const code = atActivation.map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n');
    for (const lazy of LAZY) assert.ok(code.includes(`require("${lazy}")`), `nothing loaded at activation loads ${lazy}`);
  });
});
