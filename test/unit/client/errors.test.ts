import assert from 'node:assert/strict';
import {
  LangSmithAuthError,
  LangSmithConflictError,
  LangSmithError,
  LangSmithNotFoundError,
} from '../../../src/client';
import { detailFromBody, detailFromText, errorForStatus } from '../../../src/client/errors';

describe('client errors', () => {
  it('reads detail as a string, an array joined by newlines, or Unspecified error', () => {
    assert.equal(detailFromBody({ detail: 'Dataset not found' }), 'Dataset not found');
    assert.equal(detailFromBody({ detail: ['first', 'second'] }), 'first\nsecond');
    assert.equal(
      detailFromBody({ detail: [{ loc: ['body', 'name'], msg: 'field required', type: 'missing' }, 'plain'] }),
      'body.name: field required\nplain',
    );
    assert.equal(detailFromBody({ detail: 42 }), 'Unspecified error');
    assert.equal(detailFromBody({}), 'Unspecified error');
    assert.equal(detailFromText(''), 'Unspecified error');
    assert.equal(detailFromText('upstream exploded'), 'upstream exploded');
    assert.equal(detailFromText('{"message":"nope"}'), 'nope');
  });

  it('names the action, status and text, and picks the subtype', () => {
    const nf = errorForStatus('read dataset', 404, 'Not Found', '{"detail":"Dataset not found"}');
    assert.ok(nf instanceof LangSmithNotFoundError && nf instanceof LangSmithError);
    assert.equal(nf.message, 'Failed to read dataset: 404 Not Found\nDataset not found');
    assert.equal(nf.status, 404);
    assert.equal(nf.action, 'read dataset');
    assert.equal(nf.detail, 'Dataset not found');
    assert.ok(errorForStatus('create prompt', 409, '', '{}') instanceof LangSmithConflictError);
    assert.equal(errorForStatus('create prompt', 409, '', '{}').message, 'Failed to create prompt: 409 Conflict\nUnspecified error');
    assert.ok(errorForStatus('list', 401, 'Unauthorized', '') instanceof LangSmithAuthError);
    assert.ok(errorForStatus('list', 403, 'Forbidden', '') instanceof LangSmithAuthError);
    const e500 = errorForStatus('list', 500, 'Internal Server Error', '{"detail":["a","b"]}');
    assert.equal(e500.constructor, LangSmithError);
    assert.equal(e500.message, 'Failed to list: 500 Internal Server Error\na\nb');
  });
});
