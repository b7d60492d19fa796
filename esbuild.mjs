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
import { createHash } from 'node:crypto';

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
/** --metafile=FILE writes esbuild's metafile of every built target there, one object keyed by target. */
const metafile = args.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);

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

const VERSION = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;

const nodeBundle = (name, entry) => ({
  ...common,
  entryPoints: { [name]: entry },
  outdir: dist,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  // import() of a bundle becomes a require in a promise: Node's import() of a CommonJS file sees only the names
  // its lexer finds, and a bundle that re-exports a shared bundle's module hides them.
  supported: { 'dynamic-import': false },
  // The command line's version; any bundle may hold the module that reads it.
  define: { __CLI_VERSION__: JSON.stringify(VERSION) },
  plugins: [bundledApart(name), zodEnglishOnly()],
});

/**
 * zod's entries export every locale (`z.locales`, 1.6 MB of source); the extension and the command line speak
 * English to zod (the default). Within one bundle esbuild drops the unused locales, but a shared bundle exports
 * zod's whole namespace (see splitHost), so here zod's locale index offers English only.
 * @returns {import('esbuild').Plugin}
 */
function zodEnglishOnly() {
  const english = path.resolve('node_modules/zod/v4/locales/en.js');
  return {
    name: 'zod-english-only',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: 'locales', namespace: 'zod-english' } : undefined));
      // A shared bundle that holds it imports it by the name the metafile gives it.
      build.onResolve({ filter: /^zod-english:locales$/ }, () => ({ path: 'locales', namespace: 'zod-english' }));
      build.onLoad({ filter: /.*/, namespace: 'zod-english' }, () => ({ contents: `export { default as en } from ${JSON.stringify(english)};`, loader: 'js', resolveDir: process.cwd() }));
    },
  };
}

/**
 * The bundles of the .vsix that run in Node: the extension, the bundles it loads apart, and the command line (the
 * MCP server the extension offers runs it as `node dist/cli.js`). Together they hold each module once: a module
 * that two of them reach goes into a shared bundle, dist/chunk-<hash>.js, which the others require (see
 * splitHost). Node's require cache then gives one copy of it per process, so its classes and its state are one.
 */
const HOST = ['extension', ...Object.keys(APART), 'cli'];

/**
 * Esbuild splits code only for ES modules, and the extension's main must be CommonJS (VS Code 1.90), as must
 * whatever loads `vscode`. So the split is done here, the way esbuild splits ES modules: one pass bundles each
 * host entry on its own and reads from the metafile which modules each reaches; a module reached from exactly
 * one entry stays in that entry's bundle. The others are grouped by what loads them (an entry, or an import()
 * whose module is then loaded on its own): the modules loaded by the same set of these form one shared bundle,
 * so nothing is loaded before it is needed. A module imports statically only modules loaded whenever it is, so
 * a shared bundle requires only shared bundles of a larger set: no cycle between bundles. The second pass builds every bundle, the import of a
 * module kept elsewhere becoming `require("./chunk-<hash>.js").m<n>`.
 * @returns {Promise<{ units: Record<string, import('esbuild').BuildOptions>, plan: Map<string, { owner: string, name?: string }> }>}
 */
async function planHost() {
  const reach = new Map(); // module (metafile path) -> entries whose bundle holds it
  const inputs = new Map(); // module -> its metafile input (format, imports)
  const roots = new Set(); // what is loaded on its own: the entries and what is imported by import()
  const firstPass = await Promise.all(HOST.map((name) => esbuild.build({
    ...hostTarget(name), minify: false, sourcemap: false, write: false, metafile: true, logLevel: 'silent',
  })));
  firstPass.forEach(({ metafile }, i) => {
    for (const output of Object.values(metafile.outputs)) if (output.entryPoint) roots.add(output.entryPoint);
    for (const [file, input] of Object.entries(metafile.inputs)) {
      inputs.set(file, input);
      if (!reach.has(file)) reach.set(file, new Set());
      reach.get(file).add(HOST[i]);
      for (const imported of input.imports) if (imported.kind === 'dynamic-import' && !imported.external) roots.add(imported.path);
    }
  });
  // Which of those load each module at once (by static imports): modules loaded together share a bundle, so a
  // module imported by import() is not loaded with the static imports of the same bundles.
  const loadedBy = new Map([...inputs.keys()].map((file) => [file, new Set()]));
  for (const root of roots) {
    const stack = [root];
    while (stack.length > 0) {
      const file = stack.pop();
      if (!inputs.has(file) || loadedBy.get(file).has(root)) continue;
      loadedBy.get(file).add(root);
      for (const imported of inputs.get(file).imports) if (imported.kind !== 'dynamic-import' && !imported.external) stack.push(imported.path);
    }
  }
  /** @type {Map<string, { owner: string, name?: string }>} */
  const plan = new Map();
  for (const [file, entries] of reach) {
    const owner = entries.size === 1 ? [...entries][0] : `chunk-${createHash('sha256').update([...loadedBy.get(file)].sort().join(',')).digest('hex').slice(0, 8)}`;
    plan.set(file, { owner, format: inputs.get(file).format });
  }
  // A module is exported from its shared bundle when a module of another bundle imports it.
  const exported = new Map(); // chunk -> modules it exports
  for (const [file, input] of inputs) {
    for (const imported of input.imports) {
      if (imported.external || !plan.has(imported.path)) continue;
      const target = plan.get(imported.path);
      if (target.owner === plan.get(file).owner || target.name) continue;
      if (!exported.has(target.owner)) exported.set(target.owner, []);
      const list = exported.get(target.owner);
      target.name = `m${list.length}`;
      list.push(imported.path);
    }
  }
  /** @type {Record<string, import('esbuild').BuildOptions>} */
  const units = Object.fromEntries(HOST.map((name) => [name, { ...hostTarget(name), plugins: [...hostTarget(name).plugins, splitHost(name, plan)] }]));
  const chunks = [...new Set([...plan.values()].map((p) => p.owner).filter((o) => o.startsWith('chunk-')))].sort();
  for (const chunk of chunks) {
    const files = (exported.get(chunk) ?? []).sort();
    for (const [i, file] of files.entries()) plan.get(file).name = `m${i}`;
    // An ES module is exported as its namespace, marked as one so that a default import finds `default`; a
    // CommonJS module as its module.exports, as a require of it expects.
    const spec = (file) => JSON.stringify(/^[\w-]+:/.test(file) ? file : path.resolve(file)); // namespace:path for a plugin's module
    const lines = files.flatMap((file, i) => (inputs.get(file).format === 'esm'
      ? [`import * as m${i} from ${spec(file)};`, `esModule(m${i});`]
      : [`const m${i} = require(${spec(file)});`]));
    lines.unshift("function esModule(ns) { if (!Object.prototype.hasOwnProperty.call(ns, '__esModule')) Object.defineProperty(ns, '__esModule', { value: true }); }");
    lines.push(`export { ${files.map((_, i) => `m${i}`).join(', ')} };`);
    const { entryPoints: _entryPoints, outdir: _outdir, ...options } = nodeBundle(chunk, 'unused');
    units[chunk] = {
      ...options,
      stdin: { contents: lines.join('\n'), resolveDir: process.cwd(), sourcefile: `${chunk}.js`, loader: 'js' },
      outfile: path.join(dist, `${chunk}.js`),
      plugins: [...options.plugins, splitHost(chunk, plan)],
    };
  }
  return { units, plan };
}

/** @returns {import('esbuild').Plugin} the plugin that takes from bundle `self` the modules other bundles hold. */
function splitHost(self, plan) {
  return {
    name: 'split-host',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'shared-module') {
          // The facade of an ES module imports its CommonJS view; that view requires the shared bundle.
          if (args.path.endsWith('.cjs')) return { path: args.path, namespace: 'shared-module', pluginData: { ...args.pluginData, view: 'cjs' } };
          return { path: args.path, external: true };
        }
        if (args.pluginData?.splitHost || args.kind === 'entry-point') return undefined;
        const { kind, importer, resolveDir, namespace, with: attributes } = args;
        const resolved = await build.resolve(args.path, { kind, importer, resolveDir, namespace, with: attributes, pluginData: { splitHost: true } });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        // As the metafile names it: a path relative to the project, or namespace:path for a module of a plugin.
        const file = resolved.namespace === 'file' ? path.relative(process.cwd(), resolved.path).split(path.sep).join('/') : `${resolved.namespace}:${resolved.path}`;
        const where = plan.get(file);
        if (!where || where.owner === self) return undefined;
        if (!where.name) return { errors: [{ text: `${file} is in ${where.owner} but not exported from it` }] };
        // The path names the export, not the file: a `.mjs` path would make esbuild read the stub as an ES module.
        return { path: `${where.owner}.js#${where.name}`, namespace: 'shared-module', pluginData: where };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared-module' }, ({ path: stub, pluginData: where }) => {
        const require = `module.exports = require(${JSON.stringify(`./${where.owner}.js`)}).${where.name};`;
        // A CommonJS module is imported as what its require gives, as before. An ES module goes through an ES
        // facade: an importer in an ES package ("type": "module") reads the default export of a CommonJS module
        // as its whole module.exports, which is right for a CommonJS module but not for the namespace of an ES one.
        const facade = `export * from ${JSON.stringify(`${stub}.cjs`)};\nexport { default } from ${JSON.stringify(`${stub}.cjs`)};`;
        return { contents: where.format === 'esm' && where.view !== 'cjs' ? facade : require, loader: 'js', resolveDir: process.cwd(), pluginData: where };
      });
    },
  };
}

/** The stylesheets of webview-ui/src/common/, which every page links as dist/webviews/common.css before its app's. */
const COMMON_STYLES = fs.readdirSync('webview-ui/src/common', { recursive: true }).filter((f) => f.endsWith('.css')).map((f) => path.resolve('webview-ui/src/common', f)).sort();

/**
 * Esbuild splits JavaScript but gives each app one stylesheet of everything it imports, so the common
 * components' styles would be in every app's. This plugin leaves them out of the apps' stylesheets and writes
 * them once, to common.css.
 * @returns {import('esbuild').Plugin}
 */
function commonStyles() {
  return {
    name: 'common-styles',
    setup(build) {
      build.onResolve({ filter: /\.css$/ }, (args) => {
        const file = path.resolve(args.resolveDir, args.path);
        return COMMON_STYLES.includes(file) ? { path: file, namespace: 'common-style' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'common-style' }, () => ({ contents: '', loader: 'css' }));
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        await esbuild.build({
          ...common,
          stdin: { contents: COMMON_STYLES.map((f) => `@import ${JSON.stringify(f)};`).join('\n'), resolveDir: process.cwd(), loader: 'css', sourcefile: 'common.css' },
          outfile: path.join(build.initialOptions.outdir, 'common.css'),
        });
      });
    },
  };
}

/** The build of host bundle `name` on its own, as the first pass sees it. */
function hostTarget(name) {
  if (name === 'extension') return nodeBundle('extension', 'src/extension.ts');
  // The command line (the package's `bin`), run by plain Node; it requires the shared bundles beside it.
  if (name === 'cli') return { ...nodeBundle('cli', 'src/cli/bin.ts'), banner: { js: '#!/usr/bin/env node' } };
  return nodeBundle(name, APART[name].entry);
}

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  // Extension host: Node, CommonJS, vscode provided by the host; the bundles the extension loads apart (see
  // APART) and the command line. Built together (see planHost): --only=<any of them> builds them all.
  ...Object.fromEntries(HOST.map((name) => [name, hostTarget(name)])),
  // One browser bundle per webview app: dist/webviews/<app>.js (+ .css when the app imports any).
  webviews: {
    ...common,
    entryPoints: Object.fromEntries(webviewApps.map((a) => [a, `webview-ui/src/apps/${a}/main.tsx`])),
    outdir: path.join(dist, 'webviews'),
    platform: 'browser',
    // ES modules split into shared chunks (React, the toolkit, zod, the common components): each module once;
    // the page loads an app as <script type="module">, whose imports inherit the script's nonce.
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    metafile: true,
    plugins: [commonStyles(), {
      // Chunks are named by their content: those of an earlier build would otherwise stay beside (and in the .vsix).
      name: 'drop-stale-chunks',
      setup: (build) => build.onEnd((result) => {
        if (result.metafile) removeStaleChunks(build.initialOptions.outdir, Object.keys(result.metafile.outputs).map((f) => path.basename(f, '.js')));
      }),
    }],
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

const hostPresent = present.filter((name) => HOST.includes(name));
const others = present.filter((name) => !HOST.includes(name));

/** Builds every host bundle (when any is asked for) and drops the shared bundles of an earlier layout. */
async function buildHost() {
  if (hostPresent.length === 0) return {};
  const { units } = await planHost();
  const built = await Promise.all(Object.entries(units).map(async ([name, options]) => [name, await esbuild.build({ ...options, metafile: Boolean(metafile) })]));
  removeStaleChunks(dist, Object.keys(units));
  // The command line runs as `./dist/cli.js` too (its banner names node).
  fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
  return Object.fromEntries(built.map(([name, result]) => [name, result.metafile]));
}

/** Removes dir/chunk-*.js (and their maps) that the last build did not write, so the .vsix takes no stale one. */
function removeStaleChunks(dir, keep) {
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const m = /^(chunk-[^.]+)\.js(\.map)?$/.exec(f);
    if (m && !keep.includes(m[1])) fs.rmSync(path.join(dir, f));
  }
}

if (watch) {
  for (const name of others) {
    const ctx = await esbuild.context(targets[name]);
    await ctx.watch();
  }
  if (hostPresent.length > 0) {
    // A change anywhere in the host's sources rebuilds all of it: the shared bundles may change with any import.
    let pending;
    const rebuild = () => {
      clearTimeout(pending);
      pending = setTimeout(() => buildHost().catch((err) => console.error(`[esbuild] ${err.message}`)), 100);
    };
    const ctx = await esbuild.context({
      ...hostTarget('extension'), entryPoints: Object.fromEntries(HOST.map((name) => [name, hostTarget(name).entryPoints[name]])),
      write: false, logLevel: 'silent', plugins: [{ name: 'rebuild-host', setup: (build) => build.onEnd(rebuild) }],
    });
    await ctx.watch();
  }
  console.log(`[esbuild] watching ${present.join(', ')}`);
} else {
  const t0 = Date.now();
  const [host, ...rest] = await Promise.all([buildHost(), ...others.map((name) => esbuild.build({ ...targets[name], metafile: Boolean(metafile) || targets[name].metafile === true }))]);
  if (metafile) fs.writeFileSync(metafile, JSON.stringify({ ...host, ...Object.fromEntries(others.map((name, i) => [name, rest[i].metafile])) }));
  if (!args.includes('--quiet')) console.log(`[esbuild] built ${present.join(', ')}${production ? ' (production)' : ''} in ${Date.now() - t0} ms`);
}
