import * as z from 'zod';
import { ClientContext } from '../context';
import { LangSmithError } from '../errors';
import { datasetUrl, projectUrl, publicDatasetUrl, publicRunUrl } from '../links';
import { MSG } from '../messages';
import { ProjectSchema } from '../schemas';
import { projectTarget } from './common';
import type { DatasetsResource } from './datasets';
import type { ProjectsResource } from './projects';
import type { PromptsResource } from './prompts';

/** Links to the service's web pages (spec §2). */
export class LinksResource {
  private tenantIdPromise?: Promise<string>;

  constructor(
    private readonly ctx: ClientContext,
    private readonly projects: ProjectsResource,
    private readonly datasets: DatasetsResource,
    private readonly prompts: PromptsResource,
  ) {}

  /** The web host the links point to. */
  get host(): string {
    return this.ctx.webUrl;
  }

  publicRun(shareToken: string): string {
    return publicRunUrl(this.ctx.webUrl, shareToken);
  }

  publicDataset(shareToken: string): string {
    return publicDatasetUrl(this.ctx.webUrl, shareToken);
  }

  /** The tenant id, from the first project of the listing; 'No projects found to resolve tenant.' when none. */
  tenantId(o: { signal?: AbortSignal } = {}): Promise<string> {
    if (!this.tenantIdPromise) {
      this.tenantIdPromise = (async () => {
        const list = await this.ctx.http.request({
          path: '/sessions',
          query: { limit: 1 },
          action: 'resolve tenant',
          schema: z.array(ProjectSchema),
          signal: o.signal,
        });
        const tenant = list[0]?.tenant_id;
        if (!tenant) throw new LangSmithError(MSG.noProjectsForTenant, { action: 'resolve tenant' });
        return tenant;
      })().catch((e: unknown) => {
        this.tenantIdPromise = undefined;
        throw e;
      });
    }
    return this.tenantIdPromise;
  }

  async project(o: { projectId?: string; projectName?: string; signal?: AbortSignal }): Promise<string> {
    projectTarget(o);
    const id = o.projectId ?? (await this.projects.read(o)).id;
    return projectUrl(this.ctx.webUrl, await this.tenantId(o), id);
  }

  async dataset(o: { datasetId?: string; datasetName?: string; signal?: AbortSignal }): Promise<string> {
    const id = await this.datasets.resolveId(o);
    return datasetUrl(this.ctx.webUrl, await this.tenantId(o), id);
  }

  /** `name`, `owner/name` or with `:commit`; own prompts link under /prompts, others under /hub. */
  prompt(identifier: string, o: { signal?: AbortSignal } = {}): Promise<string> {
    return this.prompts.url(identifier, o);
  }
}
