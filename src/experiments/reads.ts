// The experiment reads the comparison and the commands use, in one place: the summaries of a dataset's
// experiments, the ids of its examples, and the rows (each example with every experiment's root run for it).
import * as l10n from '@vscode/l10n';
import type { LangSmithClient } from '../client';
import type { ExperimentRow, ExperimentSummary } from './types';

/** Example ids asked for in one rows call: the v2 experiment-runs query answers pages of at most 100 examples,
 *  and the client asks for one page of as many as it is given. */
export const ROWS_PER_REQUEST = 100;
/** Rows requests at once for a large dataset. */
const PARALLEL = 4;

/** The experiments of a dataset, newest first. */
export async function datasetExperiments(client: LangSmithClient, datasetId: string, signal?: AbortSignal): Promise<ExperimentSummary[]> {
  return client.experiments.list({ datasetId, signal });
}

/** These experiments with their stats, in the order asked. */
export async function readExperiments(client: LangSmithClient, ids: string[], signal?: AbortSignal): Promise<ExperimentSummary[]> {
  return client.experiments.read({ ids, signal });
}

/** Rows for these examples, in the order asked; `scoresOnly` leaves out inputs and outputs. */
export async function experimentRows(
  client: LangSmithClient,
  o: { datasetId: string; experimentIds: string[]; exampleIds: string[]; scoresOnly: boolean; signal?: AbortSignal },
): Promise<ExperimentRow[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < o.exampleIds.length; i += ROWS_PER_REQUEST) chunks.push(o.exampleIds.slice(i, i + ROWS_PER_REQUEST));
  const answers: ExperimentRow[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      answers[i] = await client.experiments.rows({ ...o, exampleIds: chunks[i]! });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, chunks.length) }, worker));
  return answers.flat();
}

/** Why these experiments cannot be compared (one of another dataset), or undefined. */
export function otherDatasetProblem(datasetId: string, summaries: Pick<ExperimentSummary, 'name' | 'datasetId'>[]): string | undefined {
  const other = summaries.find((s) => s.datasetId !== datasetId);
  if (!other) return undefined;
  return other.datasetId
    ? l10n.t('“{0}” was run on another dataset: only experiments of one dataset can be compared, example by example.', other.name)
    : l10n.t('“{0}” is not an experiment (it has no reference dataset): only experiments of one dataset can be compared.', other.name);
}
