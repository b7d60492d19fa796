import assert from 'node:assert/strict';
import { offsetPaged, collect } from '../../../src/client/paging';
import { dottedStamp } from '../../../src/client/tracing';
import { parseServerVersion, multipartExamplesSupported, SEMVER_MAX_LENGTH } from '../../../src/client/context';

describe('client paging', () => {
  const data = Array.from({ length: 250 }, (_, i) => i);

  it('pages lazily: nothing is fetched before iteration, one page per step', async () => {
    const asked: [number, number][] = [];
    const it = offsetPaged(async (o, l) => (asked.push([o, l]), data.slice(o, o + l)), { pageSize: 100 });
    assert.equal(asked.length, 0);
    const first = await it.next();
    assert.equal(first.value, 0);
    assert.deepEqual(asked, [[0, 100]]);
    await it.return(undefined);
  });

  it('reads every item across pages, honouring offset and limit', async () => {
    const fetchPage = async (o: number, l: number) => data.slice(o, o + l);
    assert.deepEqual(await collect(offsetPaged(fetchPage, { pageSize: 100 })), data);
    assert.deepEqual(await collect(offsetPaged(fetchPage, { pageSize: 100, offset: 240 })), data.slice(240));
    assert.deepEqual(await collect(offsetPaged(fetchPage, { pageSize: 100, limit: 120, prefetch: 3 })), data.slice(0, 120));
    assert.deepEqual(await collect(offsetPaged(fetchPage, { pageSize: 100, prefetch: 3 })), data);
  });
});

describe('client tracing ids and server versions', () => {
  it('formats dotted-order stamps as YYYYMMDDTHHMMSSffffffZ', () => {
    const us = Date.UTC(2026, 10, 21, 7, 5, 9, 123) * 1000 + 456;
    assert.equal(dottedStamp(us), '20261121T070509123456Z');
  });

  it('compares server versions with semver, refusing versions over 256 characters', () => {
    assert.equal(SEMVER_MAX_LENGTH, 256);
    assert.equal(parseServerVersion('0.12.3'), '0.12.3');
    assert.equal(parseServerVersion(`1.0.0-${'a'.repeat(300)}`), null);
    assert.equal(parseServerVersion(undefined), null);
    assert.equal(multipartExamplesSupported({ version: '0.12.0' }), true);
    assert.equal(multipartExamplesSupported({ version: '0.5.0' }), false);
    assert.equal(multipartExamplesSupported({ version: '0.12.0', instance_flags: { dataset_examples_multipart_enabled: false } }), false);
    assert.equal(multipartExamplesSupported({ version: 'x'.repeat(300) }), false);
  });
});
