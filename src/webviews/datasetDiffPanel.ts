// The dataset version diff panel (stub: to be built).
import { DatasetDiffKey, DatasetDiffReady } from '../protocol/datasetDiff';
import type { PanelApp } from './panels';

export const datasetDiffApp: PanelApp<DatasetDiffKey, typeof DatasetDiffReady.result.shape.state> = {
  ready: DatasetDiffReady,
  parseKey: (raw) => {
    const key = DatasetDiffKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => key.datasetId,
  title: () => 'Compare Dataset Versions',
  open() {
    return { state: async () => ({ datasetName: '' }) };
  },
};
