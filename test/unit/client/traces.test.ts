// The trace read's pure parts: the parent a dotted order names.
import assert from 'node:assert/strict';
import { dottedParentId } from '../../../src/client/resources/traces';

const A = '0a1b2c3d-0000-4000-8000-000000000001';
const B = '0a1b2c3d-0000-4000-8000-000000000002';
const C = '0a1b2c3d-0000-4000-8000-00000000000C';

describe('trace reads: the parent a dotted order names', () => {
  it('is the id of the second-to-last segment, lower case', () => {
    assert.equal(dottedParentId(`20261127T100000000000Z${A}.20261127T100001000000Z${B}`), A);
    assert.equal(dottedParentId(`20261127T100000000000Z${A}.20261127T100001000000Z${C}.20261127T100002000000Z${B}`), C.toLowerCase());
  });

  it('is null for a root and for no dotted order', () => {
    assert.equal(dottedParentId(`20261127T100000000000Z${A}`), null);
    assert.equal(dottedParentId(''), null);
    assert.equal(dottedParentId(null), null);
  });
});
