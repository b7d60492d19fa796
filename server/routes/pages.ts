// Minimal read-only web pages at the links LangSmith's UI serves, so "Open in LangSmith" and shared
// links work against this server. Everything shown is escaped; nothing runs in the page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { pText, qText, route } from '../route';
import { isUuid } from '../ids';
import { jsonOrNull } from '../json';
import { type RunRow, runStatus } from '../store/runs';
import type { DatasetRow } from '../store/datasets';
import type { RevRow } from '../store/revisions';
import type { CommitRow, RepoRow } from '../store/prompts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.5rem;margin:0;max-height:20rem;overflow:auto}
.muted{color:#666}.err{color:#a00}`;

/** Text for HTML: every page writes server text through this. */
function h(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .header('x-content-type-options', 'nosniff');
  return reply.send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${h(title)}</title><style>${STYLE}</style></head>
<body><p class="muted">LangSmith Workbench local server · read-only</p>${body}</body></html>`);
}

const notFoundPage = (reply: FastifyReply, what: string) => page(reply, 404, 'Not found', `<h1>Not found</h1><p>${h(what)} does not exist or is not shared.</p>`);
const pretty = (text: string | null) => (text == null ? '<span class="muted">—</span>' : `<pre>${h(JSON.stringify(JSON.parse(text), null, 2))}</pre>`);

function runTable(runs: RunRow[]) {
  const depth = (r: RunRow) => (r.dotted_order ? r.dotted_order.split('.').length - 1 : 0);
  return `<table><tr><th>Run</th><th>Type</th><th>Status</th><th>Start</th><th>End</th></tr>${runs
    .map((r) => `<tr><td>${'&nbsp;&nbsp;'.repeat(depth(r))}${h(r.name)}</td><td>${h(r.run_type)}</td><td class="${r.error ? 'err' : ''}">${h(runStatus(r))}</td><td>${h(r.start_time)}</td><td>${h(r.end_time)}</td></tr>`)
    .join('')}</table>`;
}

function runDetail(r: RunRow) {
  return `<h2>${h(r.name)}</h2><table><tr><th>Inputs</th><td>${pretty(r.inputs)}</td></tr><tr><th>Outputs</th><td>${pretty(r.outputs)}</td></tr>${
    r.error ? `<tr><th>Error</th><td class="err"><pre>${h(r.error)}</pre></td></tr>` : ''
  }</table>`;
}

function examplesTable(rows: RevRow[]) {
  return `<table><tr><th>Inputs</th><th>Outputs</th><th>Split</th></tr>${rows
    .map((e) => `<tr><td>${pretty(e.inputs)}</td><td>${pretty(e.outputs)}</td><td>${h((jsonOrNull<{ dataset_split?: string[] }>(e.metadata)?.dataset_split ?? []).join(', '))}</td></tr>`)
    .join('')}</table>`;
}

function datasetPage(ctx: Ctx, reply: FastifyReply, d: DatasetRow) {
  const rows = ctx.st.all<RevRow>('SELECT * FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL ORDER BY created_at, example_id LIMIT 200', d.id);
  const n = ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL', d.id)!.n;
  return page(reply, 200, d.name, `<h1>Dataset: ${h(d.name)}</h1><p>${h(d.description ?? '')}</p><p class="muted">${n} examples${n > 200 ? ' (first 200 shown)' : ''}</p>${examplesTable(rows)}`);
}

function promptPage(ctx: Ctx, reply: FastifyReply, repo: RepoRow | undefined, owner: string, ref: string | undefined) {
  if (!repo) return notFoundPage(reply, `Prompt ${owner}`);
  const commits = ctx.st.all<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC', repo.id);
  const commit = ref ? commits.find((c) => c.commit_hash.startsWith(ref.toLowerCase())) : commits[0];
  if (ref && !commit) return notFoundPage(reply, `Commit ${ref}`);
  return page(reply, 200, repo.repo_handle, `<h1>Prompt: ${h(owner)}/${h(repo.repo_handle)}</h1><p>${h(repo.description ?? '')}</p>
<p class="muted">${commits.length} commits${repo.is_public ? ' · public' : ' · private'}${repo.is_archived ? ' · archived' : ''}</p>
${commit ? `<h2>Commit ${h(commit.commit_hash.slice(0, 8))}</h2><pre>${h(JSON.stringify(JSON.parse(commit.manifest), null, 2))}</pre>` : '<p>No commits yet.</p>'}`);
}

// Path parameters are taken as text and an id that is not a UUID gets the "not found" page: a browser
// following a mangled link should see a page, not a JSON 422.
const TokenParams = z.object({ token: pText() });
const ProjectParams = z.object({ tenant: pText(), id: pText() });
const RunParams = ProjectParams.extend({ runId: pText() });
const OwnPromptParams = z.object({ repo: pText(), hash: pText().optional() });
const HubPromptParams = OwnPromptParams.extend({ owner: pText() });

const lower = (id: string) => (isUuid(id) ? id.toLowerCase() : undefined);

export function registerPages(app: FastifyInstance, ctx: Ctx) {
  const pub = { public: true, noFaults: true };

  route(app, 'GET', '/public/:token/r', { params: TokenParams, config: pub }, ({ params, reply }) => {
    const token = lower(params.token);
    const root = token ? ctx.st.one<RunRow>('SELECT * FROM runs WHERE share_token = ?', token) : undefined;
    if (!root) return notFoundPage(reply, 'This run');
    const runs = ctx.st.all<RunRow>('SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? ORDER BY dotted_order', root.trace_id ?? root.id, root.tenant_id);
    return page(reply, 200, root.name ?? 'Run', `<h1>Shared run: ${h(root.name)}</h1>${runTable(runs)}${runDetail(root)}`);
  });

  route(app, 'GET', '/public/:token/d', { params: TokenParams, config: pub }, ({ params, reply }) => {
    const token = lower(params.token);
    const d = token ? ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE share_token = ?', token) : undefined;
    if (!d) return notFoundPage(reply, 'This dataset');
    return datasetPage(ctx, reply, d);
  });

  route(app, 'GET', '/o/:tenant/projects/p/:id', { params: ProjectParams, config: pub }, ({ params, reply }) => {
    const id = lower(params.id);
    const s = id ? ctx.st.one<{ id: string; name: string; description: string | null }>('SELECT * FROM sessions WHERE id = ? AND tenant_id = ?', id, params.tenant) : undefined;
    if (!s) return notFoundPage(reply, 'This project');
    const runs = ctx.st.all<RunRow>('SELECT * FROM runs WHERE session_id = ? AND parent_run_id IS NULL ORDER BY start_time DESC LIMIT 100', s.id);
    return page(reply, 200, s.name, `<h1>Project: ${h(s.name)}</h1><p>${h(s.description ?? '')}</p><h2>Latest traces</h2>${runTable(runs)}`);
  });

  route(app, 'GET', '/o/:tenant/projects/p/:id/r/:runId', { params: RunParams, config: pub }, ({ params, reply }) => {
    const runId = lower(params.runId);
    const r = runId
      ? ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND session_id = ? AND tenant_id = ?', runId, params.id.toLowerCase(), params.tenant)
      : undefined;
    if (!r) return notFoundPage(reply, 'This run');
    const runs = ctx.st.all<RunRow>('SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? ORDER BY dotted_order', r.trace_id ?? r.id, r.tenant_id);
    return page(reply, 200, r.name ?? 'Run', `<h1>Run: ${h(r.name)}</h1>${runTable(runs)}${runDetail(r)}`);
  });

  route(app, 'GET', '/o/:tenant/datasets/:id', { params: ProjectParams, config: pub }, ({ params, reply }) => {
    const id = lower(params.id);
    const d = id ? ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ? AND tenant_id = ?', id, params.tenant) : undefined;
    if (!d) return notFoundPage(reply, 'This dataset');
    return datasetPage(ctx, reply, d);
  });

  // The workspace's own prompt, named by the organizationId query parameter (as LangSmith's links do).
  for (const url of ['/prompts/:repo', '/prompts/:repo/:hash']) {
    route(app, 'GET', url, { params: OwnPromptParams, query: z.object({ organizationId: qText() }), config: pub }, ({ params, query, reply }) => {
      const tenant = query.organizationId ? ctx.tenantById.get(query.organizationId) : undefined;
      if (!tenant) return notFoundPage(reply, 'This prompt');
      const repo = ctx.st.one<RepoRow>('SELECT * FROM repos WHERE tenant_id = ? AND repo_handle = ?', tenant.id, params.repo);
      return promptPage(ctx, reply, repo, tenant.handle, params.hash);
    });
  }

  // A public prompt on the hub, by its owner's handle.
  for (const url of ['/hub/:owner/:repo', '/hub/:owner/:repo/:hash']) {
    route(app, 'GET', url, { params: HubPromptParams, config: pub }, ({ params, reply }) => {
      const tenant = ctx.tenantByHandle.get(params.owner);
      const repo = tenant ? ctx.st.one<RepoRow>('SELECT * FROM repos WHERE tenant_id = ? AND repo_handle = ? AND is_public = 1', tenant.id, params.repo) : undefined;
      return promptPage(ctx, reply, repo, params.owner, params.hash);
    });
  }
}
