import * as z from 'zod';
import { ClientContext } from '../context';
import { assertUuid, parsePublicToken } from '../ids';
import { DatasetSchema, ExampleSchema, RunSchema, type Dataset, type Example, type Run } from '../schemas';

/** Reads of shared runs and datasets by their share token (or the public page's URL). */
export class PublicResource {
  constructor(private readonly ctx: ClientContext) {}

  /** The share token in a public dataset link or token; `Invalid public dataset URL or token: …` otherwise. */
  parseDatasetToken(tokenOrUrl: string): string {
    return parsePublicToken(tokenOrUrl, 'dataset');
  }

  /** The share token in a public trace link or token; `Invalid public run URL or token: …` otherwise. */
  parseRunToken(tokenOrUrl: string): string {
    return parsePublicToken(tokenOrUrl, 'run');
  }

  async readDataset(tokenOrUrl: string, o: { signal?: AbortSignal } = {}): Promise<Dataset> {
    const token = parsePublicToken(tokenOrUrl, 'dataset');
    return this.ctx.http.request({ path: `/public/${token}/datasets`, action: 'read shared dataset', schema: DatasetSchema, signal: o.signal });
  }

  async listExamples(tokenOrUrl: string, o: { exampleIds?: string[]; signal?: AbortSignal } = {}): Promise<Example[]> {
    const token = parsePublicToken(tokenOrUrl, 'dataset');
    for (const id of o.exampleIds ?? []) assertUuid(id, 'exampleId');
    return this.ctx.http.request({
      path: `/public/${token}/examples`,
      query: { id: o.exampleIds },
      action: 'list shared examples',
      schema: z.array(ExampleSchema),
      signal: o.signal,
    });
  }

  async listRuns(tokenOrUrl: string, o: { runIds?: string[]; signal?: AbortSignal } = {}): Promise<Run[]> {
    const token = parsePublicToken(tokenOrUrl, 'run');
    for (const id of o.runIds ?? []) assertUuid(id, 'runId');
    return this.ctx.http.request({
      path: `/public/${token}/runs`,
      query: { share_token: token, id: o.runIds },
      action: 'list shared runs',
      schema: z.array(RunSchema),
      signal: o.signal,
    });
  }
}
