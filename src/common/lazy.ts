// The bundles the extension loads on first use (see esbuild.mjs, APART), each through one loader made by
// bundleLoader: here, or beside the one module that loads it where importing it from here would close a cycle
// (dist/workbench.js in extension.ts, dist/panels.js in webviews/descriptors.ts). When one cannot be loaded, the files under the running window are not the ones
// it started with (an update replaced them): the window is told to reload, once, instead of a stack trace for
// each feature that fails. No `vscode` import, so the panels' descriptors stay plain Node; the extension hands in
// how to tell the window (setMissingBundleReporter).
import type * as Agent from '../agent';
import type * as Experiments from '../experiments';
import type * as PromptFile from '../promptFile';
import type * as PromptReferences from '../promptReferences/engine';
import type * as ClientEntry from './clientEntry';
import type * as Csv from './csv';

/** A bundle of the extension that could not be loaded (the window has been told to reload). */
export class BundleMissingError extends Error {
  constructor(
    readonly bundle: string,
    readonly reason: unknown,
  ) {
    super(`dist/${bundle} could not be loaded: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'BundleMissingError';
  }
}

let report: (error: BundleMissingError) => void = () => undefined;
let reported = false;

/** How the window is told (once) that a bundle is missing: set by the extension at activation. */
export function setMissingBundleReporter(reporter: (error: BundleMissingError) => void): void {
  report = reporter;
  reported = false;
}

/** One bundle's loader: the first call imports it, later calls share that promise; a failure may be retried. */
export function bundleLoader<T>(bundle: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((reason: unknown) => {
      loading = undefined;
      const error = new BundleMissingError(bundle, reason);
      if (!reported) {
        reported = true;
        report(error);
      }
      throw error;
    }));
}

/** Each bundle loaded on first use, by its file in dist/. */
export const lazy = {
  /** The API client with the zod schemas of every resource: on the first client. */
  client: bundleLoader<typeof ClientEntry>('client.js', () => import('./clientEntry')),
  /** undici: only with a proxy or a CA file. */
  undici: bundleLoader<typeof import('undici')>('undici.js', () => import('undici')),
  /** The CSV parser: when a dataset is made from a CSV file. */
  csv: bundleLoader<typeof Csv>('csv.js', () => import('./csv')),
  /** The prompt-file engine (YAML, manifests, sync): when a prompt file is first seen. */
  promptFile: bundleLoader<typeof PromptFile>('promptFile.js', () => import('../promptFile')),
  /** The evaluators and the runner: when an experiment is run or an evaluators file is seen. */
  experiments: bundleLoader<typeof Experiments>('experiments.js', () => import('../experiments')),
  /** The finder and lookups of prompt references: when a source file first holds a pull. */
  promptReferences: bundleLoader<typeof PromptReferences>('promptReferences.js', () => import('../promptReferences/engine')),
  /** The agent tools: on an agent's first call. */
  agent: bundleLoader<typeof Agent>('agent.js', () => import('../agent')),
};
