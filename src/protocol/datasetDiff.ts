// The dataset version diff webview (stub: to be built).
import * as z from 'zod/mini';
import { defineReady } from './messages';

export const DatasetDiffKey = z.strictObject({ datasetId: z.string() });
export type DatasetDiffKey = z.infer<typeof DatasetDiffKey>;

export const DatasetDiffReady = defineReady('datasetDiff', z.strictObject({ datasetName: z.string() }));
