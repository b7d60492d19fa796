// One build for every bundle of the project.
//   node esbuild.mjs                 development build (source maps)
//   node esbuild.mjs --production    minified, no source maps (what the .vsix ships)
//   node esbuild.mjs --watch         rebuild on change
//   node esbuild.mjs --only=server   just the local server (npm run server); --only=a,b for several targets
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
 * undici is a large module the extension needs only for a proxy or a CA file (otherwise VS Code's own fetch
 * serves): it is its own bundle, dist/undici.js, which the extension loads on first use through `import('undici')`.
 * @type {import('esbuild').Plugin}
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => (args.kind === 'dynamic-import' ? { path: './undici.js', external: true } : undefined));
  },
};

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  // Extension host: Node, CommonJS, vscode provided by the host.
  extension: {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [undiciApart],
  },
  // undici for the extension, loaded when first needed (see undiciApart).
  undici: {
    ...common,
    entryPoints: { undici: 'undici' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  // One browser bundle per webview app: dist/webviews/<app>.js (+ .css when the app imports any).
  webviews: {
    ...common,
    entryPoints: Object.fromEntries(webviewApps.map((a) => [a, `webview-ui/src/apps/${a}/main.tsx`])),
    outdir: 'dist/webviews',
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
  console.log(`[esbuild] built ${present.join(', ')}${production ? ' (production)' : ''} in ${Date.now() - t0} ms`);
}
