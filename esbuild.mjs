// One build for every bundle of the project.
//   node esbuild.mjs                 development build (source maps)
//   node esbuild.mjs --production    minified, no source maps (what the .vsix ships)
//   node esbuild.mjs --watch         rebuild on change
//   node esbuild.mjs --only=server   just the local server (npm run server); --only=a,b for several targets
//   node esbuild.mjs --only=cli      just the command line, dist/cli.js (npm run cli)
//   node esbuild.mjs --out=DIR       write the bundles into DIR instead of dist/
//   node esbuild.mjs --quiet         no line when done (npm run cli: the output is the command line's alone)
//   node esbuild.mjs --help          this text
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  const usage = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3));
  console.log(usage.join('\n'));
  process.exit(0);
}
const production = args.includes('--production');
const watch = args.includes('--watch');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
/** --out=DIR writes the bundles there instead of dist/ (the size checks build into a temporary folder). */
const dist = args.find((a) => a.startsWith('--out='))?.slice('--out='.length) || 'dist';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
};

const webviewApps = fs.readdirSync('webview-ui/src/apps', { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join('webview-ui/src/apps', d.name, 'main.tsx')))
  .map((d) => d.name);

/**
 * What activation does not need is bundled apart and loaded on first use through a dynamic `import()`:
 * undici (only with a proxy or a CA file; VS Code's fetch serves otherwise), the API client (the zod schemas
 * of every resource), the CSV parser (only for a dataset from a CSV file)
 * and the prompt-file format (YAML and manifests, only once a prompt file is open). The client's errors are a bundle of their own that both the extension and the client
 * require, so that one class of each exists and `instanceof` holds on either side.
 */
const APART = {
  undici: { entry: 'undici', lazy: true },
  client: { entry: 'src/common/clientEntry.ts', lazy: true },
  clientErrors: { entry: 'src/client/errors.ts', lazy: false },
  csv: { entry: 'src/common/csv.ts', lazy: true },
  // Prompt files: the prompt-file engine (YAML, manifests, sync), loaded when a prompt file is first seen.
  promptFile: { entry: 'src/promptFile/index.ts', lazy: true },
  // Experiments: the evaluators and the runner, loaded when an experiment is run or an evaluators file is seen.
  experiments: { entry: 'src/experiments/index.ts', lazy: true },
  // Prompt references in source code: the finder and the lookups, loaded when a source file first holds a pull.
  promptReferences: { entry: 'src/promptReferences/engine.ts', lazy: true },
  // The agent tools in agent mode: loaded on an agent's first call.
  agent: { entry: 'src/agent/index.ts', lazy: true },
  // The panels' host side (every webview app's controller): loaded when the first panel opens or is restored.
  panels: { entry: 'src/webviews/panelApps.ts', lazy: true },
  // Activation's second part (views, providers, watchers, commands): loaded a turn after activate's first part.
  workbench: { entry: 'src/workbench.ts', lazy: true },
};
const apartFile = (entry) => (entry.includes('/') ? path.resolve(entry) : entry);

/** @returns {import('esbuild').Plugin} the plugin that keeps the other APART bundles out of bundle `self`. */
function bundledApart(self) {
  return {
    name: 'bundled-apart',
    setup(build) {
      build.onResolve({ filter: /^(undici|\.{1,2}\/.*)$/ }, (args) => {
        const target = args.path === 'undici' ? 'undici' : path.resolve(args.resolveDir, args.path);
        for (const [name, { entry, lazy }] of Object.entries(APART)) {
          if (name === self) continue;
          const file = apartFile(entry);
          if (target !== file && `${target}.ts` !== file && path.join(target, 'index.ts') !== file) continue;
          // Only the extension's own bundle must not load a lazy one at start; lazy bundles may require each other.
          if (lazy && args.kind !== 'dynamic-import' && self === 'extension') {
            return { errors: [{ text: `${args.importer} imports ${args.path} statically; it is loaded on first use: await import('${args.path}')` }] };
          }
          return { path: `./${name}.js`, external: true };
        }
        return undefined;
      });
    },
  };
}

const nodeBundle = (name, entry) => ({
  ...common,
  entryPoints: { [name]: entry },
  outdir: dist,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  plugins: [bundledApart(name)],
});

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  // Extension host: Node, CommonJS, vscode provided by the host.
  extension: nodeBundle('extension', 'src/extension.ts'),
  // The bundles the extension loads apart (see APART).
  ...Object.fromEntries(Object.entries(APART).map(([name, { entry }]) => [name, nodeBundle(name, entry)])),
  // One browser bundle per webview app: dist/webviews/<app>.js (+ .css when the app imports any).
  webviews: {
    ...common,
    entryPoints: Object.fromEntries(webviewApps.map((a) => [a, `webview-ui/src/apps/${a}/main.tsx`])),
    outdir: path.join(dist, 'webviews'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  },
  // The local LangSmith-compatible server: run with the system Node; its packages stay in node_modules
  // (better-sqlite3 is native), so it is never part of the .vsix.
  server: {
    ...common,
    minify: false,
    entryPoints: { server: 'server/main.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // The command line (the package's `bin`): one self-contained file for plain Node, every package inside it.
  cli: {
    ...common,
    entryPoints: { cli: 'src/cli/bin.ts' },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLI_VERSION__: JSON.stringify(JSON.parse(fs.readFileSync('package.json', 'utf8')).version) },
  },
  // Mocha suites that run inside the real extension host.
  extensionTests: {
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: ['test/extension/suite/*.ts'],
    outdir: 'out/test/extension',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  },
};

const selected = only ? only.split(',') : Object.keys(targets).filter((t) => !(production && t === 'extensionTests'));
for (const name of selected) {
  if (!targets[name]) throw new Error(`unknown target ${name}; known: ${Object.keys(targets).join(', ')}`);
}
const present = selected.filter((name) => {
  const eps = targets[name].entryPoints;
  if (Array.isArray(eps)) return true;
  // Paths must exist (an app may not be written yet); a bare package name (undici) resolves from node_modules.
  return Object.values(eps).every((p) => !p.includes('/') || fs.existsSync(p)) && Object.keys(eps).length > 0;
});

if (watch) {
  for (const name of present) {
    const ctx = await esbuild.context(targets[name]);
    await ctx.watch();
  }
  console.log(`[esbuild] watching ${present.join(', ')}`);
} else {
  const t0 = Date.now();
  await Promise.all(present.map((name) => esbuild.build(targets[name])));
  // The command line runs as `./dist/cli.js` too (its banner names node).
  if (present.includes('cli')) fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
  if (!args.includes('--quiet')) console.log(`[esbuild] built ${present.join(', ')}${production ? ' (production)' : ''} in ${Date.now() - t0} ms`);
}
