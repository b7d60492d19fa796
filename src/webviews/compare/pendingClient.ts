// The shape of `client.experiments` this side codes against until the client has it.
import type { ExperimentRow, ExperimentSummary } from '../../experiments/types';

declare module '../../client' {
  interface LangSmithClient {
    readonly experiments: {
      list(o: { datasetId: string; signal?: AbortSignal }): Promise<ExperimentSummary[]>;
      read(o: { ids: string[]; signal?: AbortSignal }): Promise<ExperimentSummary[]>;
      exampleIds(o: { datasetId: string; asOf?: string | null; split?: string | null; limit?: number; signal?: AbortSignal }): Promise<string[]>;
      rows(o: { datasetId: string; experimentIds: string[]; exampleIds: string[]; scoresOnly?: boolean; signal?: AbortSignal }): Promise<ExperimentRow[]>;
    };
  }
}
