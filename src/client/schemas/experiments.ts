// Experiments: the comparative experiment and the experiment-runs read with its feedback per run.

import * as z from 'zod';
import { str, num, recordish, uuid } from './fields';
import { RunV2Schema } from './runs';

export const ComparativeExperimentSchema = z.looseObject({
  id: uuid,
  name: str,
  experiment_ids: z.array(z.string()).nullish(),
  /** What LangSmith answers instead of experiment_ids: the experiments with their names. */
  experiments_info: z.array(z.looseObject({ id: z.string(), name: str })).nullish(),
  reference_dataset_id: str,
  description: str,
  created_at: str,
  modified_at: str,
  extra: recordish,
});
export type ComparativeExperiment = z.infer<typeof ComparativeExperimentSchema>;

/** A run's feedback per key as v2 aggregates it (`FEEDBACK_STATS`). */
export const RunFeedbackStatsSchema = z.record(
  z.string(),
  z.looseObject({ n: num, avg: num, values: recordish, comments: z.array(z.string()).nullish() }),
);

/** POST /api/v2/datasets/{id}/experiment-runs: examples, each with the runs of the experiments asked for. */
export const ExperimentRunsV2ResponseSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      id: z.string(),
      inputs: recordish,
      outputs: recordish,
      metadata: recordish,
      runs: z.array(RunV2Schema.extend({ latency_seconds: num, feedback_stats: RunFeedbackStatsSchema.nullish() })).nullish(),
    }),
  ),
  next_cursor: str,
});
export type ExperimentRunsV2Response = z.infer<typeof ExperimentRunsV2ResponseSchema>;
