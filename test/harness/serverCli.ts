// The local server's CLI as `npm run server` runs it: server/main.ts bundled the way esbuild.mjs's server target
// bundles it, from the current sources, into a folder of the test's own.
import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../..');

/** Bundles server/main.ts into `dir`/server.js and returns that path. */
export async function bundleServerCli(dir: string): Promise<string> {
  const bundle = path.join(dir, 'server.js');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
  return bundle;
}
