// A dataset and what is kept with it: splits, versions, tags and the diff between two versions.

import * as z from 'zod';
import { str, num, bool, recordish, uuid } from './fields';

export const DatasetSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  data_type: z.string().nullish(),
  inputs_schema_definition: recordish,
  outputs_schema_definition: recordish,
  extra: recordish,
  metadata: recordish,
  created_at: str,
  modified_at: str,
  example_count: num,
  tenant_id: str,
});
export type Dataset = z.infer<typeof DatasetSchema>;

export const DatasetSplitUpdateSchema = z.looseObject({ split_name: z.string(), examples: z.array(z.string()), remove: bool });
export const DatasetVersionSchema = z.looseObject({ as_of: z.string(), tags: z.array(z.string()).nullish() });
export type DatasetVersion = z.infer<typeof DatasetVersionSchema>;
export const DatasetTagSchema = z.looseObject({ as_of: z.string(), tag: z.string() });
export const DatasetDiffSchema = z.looseObject({
  examples_added: z.array(z.string()),
  examples_modified: z.array(z.string()),
  examples_removed: z.array(z.string()),
});
export type DatasetDiff = z.infer<typeof DatasetDiffSchema>;
