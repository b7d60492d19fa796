/** Web page links of the service (spec §2). Pure functions of the host and ids. */

export const COMMIT_PREFIX_LENGTH = 8;

/**
 * The web host for an API URL: a trailing `/api/v1` or `/api` is dropped; `api.smith.langchain.com`
 * becomes `smith.langchain.com` and the regional `{region}.api.smith.langchain.com` becomes
 * `{region}.smith.langchain.com`; any other host (localhost, self-hosted) keeps its own origin.
 */
export function webUrlFromApiUrl(apiUrl: string): string {
  const url = new URL(apiUrl.trim());
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/v1')) path = path.slice(0, -'/api/v1'.length);
  else if (path.endsWith('/api')) path = path.slice(0, -'/api'.length);
  let host = url.host;
  const m = /^(?:(.+)\.)?api\.smith\.langchain\.com$/i.exec(url.hostname);
  if (m) host = `${m[1] ? `${m[1]}.` : ''}smith.langchain.com${url.port ? `:${url.port}` : ''}`;
  return `${url.protocol}//${host}${path}`;
}

export function publicRunUrl(host: string, shareToken: string): string {
  return `${host}/public/${shareToken}/r`;
}

export function publicDatasetUrl(host: string, shareToken: string): string {
  return `${host}/public/${shareToken}/d`;
}

export function projectUrl(host: string, tenantId: string, projectId: string): string {
  return `${host}/o/${tenantId}/projects/p/${projectId}`;
}

export function datasetUrl(host: string, tenantId: string, datasetId: string): string {
  return `${host}/o/${tenantId}/datasets/${datasetId}`;
}

export interface PromptLinkTarget {
  owner: string;
  repo: string;
  /** Commit hash; 'latest' or absent means no commit segment. */
  commit?: string;
  /** True when the prompt belongs to the caller's tenant (owner '-' or the caller's handle). */
  own: boolean;
  /** The caller's organization id (settings id), for own prompts. */
  organizationId?: string;
}

export function promptUrl(host: string, t: PromptLinkTarget): string {
  const segment = t.commit && t.commit !== 'latest' ? `/${t.commit.slice(0, COMMIT_PREFIX_LENGTH)}` : '';
  if (t.own) return `${host}/prompts/${t.repo}${segment}?organizationId=${t.organizationId ?? ''}`;
  return `${host}/hub/${t.owner}/${t.repo}${segment}`;
}
