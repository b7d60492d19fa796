import assert from 'node:assert/strict';
import { LangSmithConflictError, LangSmithNotFoundError, collect, type LangSmithClient } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, unique } from './_server';

describe('client ↔ local server: projects', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  it('creates a project with a client-generated id, description and metadata, and reads it by id and by name', async () => {
    const name = unique('proj');
    const p = await c.projects.create({ name, description: 'd', metadata: { team: 'a' } });
    assert.match(p.id, /^[0-9a-f-]{36}$/);
    assert.equal(p.name, name);
    assert.equal(p.description, 'd');
    assert.deepEqual((p.extra as { metadata: unknown }).metadata, { team: 'a' });
    assert.equal((await c.projects.read({ projectId: p.id })).name, name);
    assert.equal((await c.projects.read({ projectName: name })).id, p.id);
    assert.equal(await c.projects.exists({ projectName: name }), true);
  });

  it('raises Project[...] not found for a missing project, and exists() says false', async () => {
    await assert.rejects(c.projects.read({ projectName: 'no-such-project' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithNotFoundError);
      assert.equal(e.message, 'Project[id=undefined, name=no-such-project] not found');
      return true;
    });
    const id = '00000000-0000-4000-8000-000000000001';
    await assert.rejects(c.projects.read({ projectId: id }), { message: `Project[id=${id}, name=undefined] not found` });
    assert.equal(await c.projects.exists({ projectId: id }), false);
  });

  it('refuses a second project of the same name (conflict) unless upsert is asked', async () => {
    const name = unique('dup');
    const first = await c.projects.create({ name });
    await assert.rejects(c.projects.create({ name }), LangSmithConflictError);
    const again = await c.projects.create({ name, upsert: true });
    assert.equal(again.id, first.id);
  });

  it('updates and deletes a project', async () => {
    const p = await c.projects.create({ name: unique('upd') });
    const end = new Date();
    const u = await c.projects.update(p.id, { name: `${p.name}-2`, description: 'new', endTime: end });
    assert.equal(u.name, `${p.name}-2`);
    assert.equal(u.description, 'new');
    assert.ok(u.end_time);
    await c.projects.delete({ projectName: u.name });
    assert.equal(await c.projects.exists({ projectId: p.id }), false);
  });

  it('lists with filters, lazily over several pages', async () => {
    const prefix = unique('many');
    for (let i = 0; i < 5; i++) await c.projects.create({ name: `${prefix}-${i}`, metadata: { i } });
    const seen = await collect(c.projects.list({ nameContains: prefix, pageSize: 2 }));
    assert.deepEqual(seen.map((p) => p.name).sort(), [0, 1, 2, 3, 4].map((i) => `${prefix}-${i}`));
    const byName = await collect(c.projects.list({ name: `${prefix}-3` }));
    assert.equal(byName.length, 1);
    const limited = await collect(c.projects.list({ nameContains: prefix, limit: 3, pageSize: 2 }));
    assert.equal(limited.length, 3);
  });

  it('keeps tenants apart: the other tenant cannot read our project', async () => {
    const p = await c.projects.create({ name: unique('mine') });
    const other = otherClientFor(srv());
    assert.equal(await other.projects.exists({ projectId: p.id }), false);
    assert.equal(await other.projects.exists({ projectName: p.name }), false);
  });

  it('lists by reference dataset, reference-free, with stats', async () => {
    const ds = await c.datasets.create({ name: unique('refds') });
    const exp = await c.projects.create({ name: unique('exp'), referenceDatasetId: ds.id });
    const free = await c.projects.create({ name: unique('free') });
    const byRef = await collect(c.projects.list({ referenceDatasetId: ds.id }));
    assert.deepEqual(byRef.map((p) => p.id), [exp.id]);
    const refFree = await collect(c.projects.list({ referenceFree: true, includeStats: true }));
    assert.ok(refFree.some((p) => p.id === free.id));
    assert.ok(!refFree.some((p) => p.id === exp.id));
    const withStats = await c.projects.read({ projectId: free.id, includeStats: true });
    assert.equal(withStats.run_count ?? 0, 0);
  });
});
