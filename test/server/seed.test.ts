// `--seed demo`: the content the issue asks for, read back through the official client.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { api, client, collect } from './helpers';

describe('--seed demo content', function () {
  this.timeout(60_000);
  const srv = withLocalServer({ seed: 'demo' });

  it('projects with a few hundred nested runs: inputs, outputs, errors, latency; feedback', async () => {
    const c = client(srv());
    const projects = await collect(c.listProjects());
    assert.ok(projects.length >= 2, `projects: ${projects.length}`);
    let total = 0;
    let nested = 0;
    let errors = 0;
    let withLatency = 0;
    let withIo = 0;
    const runIds: string[] = [];
    for (const p of projects) {
      for await (const r of c.listRuns({ projectId: p.id })) {
        total++;
        if (r.parent_run_id) nested++;
        if (r.error) errors++;
        if (r.end_time && r.start_time && new Date(r.end_time).getTime() > new Date(r.start_time).getTime()) withLatency++;
        if (r.inputs && Object.keys(r.inputs).length && r.outputs && Object.keys(r.outputs).length) withIo++;
        if (!r.parent_run_id && runIds.length < 200) runIds.push(r.id);
      }
    }
    assert.ok(total >= 200, `a few hundred runs, got ${total}`);
    assert.ok(nested >= total / 2, `nested runs: ${nested} of ${total}`);
    assert.ok(errors > 0 && errors < total / 4, `some errors: ${errors}`);
    assert.ok(withLatency >= total * 0.9, `runs with a latency: ${withLatency}`);
    assert.ok(withIo >= total / 2, `runs with inputs and outputs: ${withIo}`);
    const feedback = await collect(c.listFeedback({ runIds }));
    assert.ok(feedback.length > 0, 'feedback on runs');
  });

  it('datasets with splits, several versions and tags', async () => {
    const c = client(srv());
    const datasets = await collect(c.listDatasets());
    assert.ok(datasets.length >= 2);
    let checked = 0;
    for (const d of datasets) {
      const versions = (await api(srv(), 'GET', `/datasets/${d.id}/versions`)).body as Array<{ as_of: string; tags?: string[] }>;
      if (versions.length < 3) continue;
      checked++;
      const tags = versions.flatMap((v) => v.tags ?? []);
      assert.ok(tags.includes('v1') && tags.includes('prod'), `tags of ${d.name}: ${tags}`);
      const splits = (await api(srv(), 'GET', `/datasets/${d.id}/splits`)).body as string[];
      assert.ok(splits.length >= 2, `splits of ${d.name}: ${splits}`);
      const atV1 = await collect(c.listExamples({ datasetId: d.id, asOf: 'v1' }));
      const latest = await collect(c.listExamples({ datasetId: d.id }));
      assert.ok(atV1.length > 0 && latest.length > 0);
      const diff = (await api(srv(), 'GET', `/datasets/${d.id}/versions/diff?from_version=v1&to_version=latest`)).body;
      assert.ok(diff.examples_added.length + diff.examples_modified.length + diff.examples_removed.length > 0, 'the versions differ');
    }
    assert.ok(checked >= 1, 'a dataset with versions and tags');
  });

  it('prompts with several commits: chat and plain, f-string and mustache', async () => {
    const c = client(srv());
    const prompts = await collect(c.listPrompts({ isArchived: undefined } as any));
    assert.ok(prompts.length >= 3, `prompts: ${prompts.length}`);
    const formats = new Set<string>();
    const kinds = new Set<string>();
    let multiCommit = 0;
    for (const p of prompts) {
      const commits = await collect(c.listCommits(`${p.owner}/${p.repo_handle}`));
      if (commits.length >= 2) multiCommit++;
      const text = JSON.stringify(commits.map((x) => x.manifest));
      for (const f of ['f-string', 'mustache']) if (text.includes(`"template_format":"${f}"`)) formats.add(f);
      for (const x of commits) {
        let m = x.manifest as { id?: string[]; kwargs?: { first?: unknown } };
        if (m.id?.at(-1) === 'RunnableSequence') m = m.kwargs?.first as typeof m;
        const cls = m?.id?.at(-1);
        if (cls === 'ChatPromptTemplate') kinds.add('chat');
        if (cls === 'PromptTemplate') kinds.add('plain');
      }
    }
    assert.ok(multiCommit >= 2, `prompts with several commits: ${multiCommit}`);
    assert.deepEqual([...formats].sort(), ['f-string', 'mustache']);
    assert.ok(kinds.has('chat'), 'a chat prompt');
    assert.ok(kinds.has('plain'), 'a plain prompt');
  });

  it('an annotation queue with runs', async () => {
    const c = client(srv());
    const queues = await collect(c.listAnnotationQueues());
    assert.ok(queues.length >= 1);
    const sizes = await Promise.all(queues.map((q) => c.getSizeFromAnnotationQueue(q.id)));
    assert.ok(sizes.some((s) => s.size > 0), `queue sizes: ${JSON.stringify(sizes)}`);
    const first = queues[sizes.findIndex((s) => s.size > 0)]!;
    const run = await c.getRunFromAnnotationQueue(first.id, 0);
    assert.ok(run.id);
  });
});
