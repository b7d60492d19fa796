import assert from 'node:assert/strict';
import {
  checkTemplateFormat,
  extractVariables,
  fstringVariables,
  mustacheVariablePaths,
  parseFString,
  renderTemplate,
  writeFString,
} from '../../../src/client/templates';

describe('client templates: f-string', () => {
  it('parses variables and literal text', () => {
    assert.deepEqual(parseFString('Hi {name}, you are {role}.'), [
      { type: 'literal', text: 'Hi ' },
      { type: 'variable', name: 'name' },
      { type: 'literal', text: ', you are ' },
      { type: 'variable', name: 'role' },
      { type: 'literal', text: '.' },
    ]);
  });

  it('treats {{ and }} as literal braces', () => {
    assert.equal(renderTemplate('JSON: {{"a": {x}}}', { x: 1 }), 'JSON: {"a": 1}');
    assert.deepEqual(fstringVariables('{{not}} {yes}'), ['yes']);
  });

  it("raises Unclosed '{' in template.", () => {
    assert.throws(() => parseFString('Hello {name'), { message: "Unclosed '{' in template." });
  });

  it("raises Single '}' in template.", () => {
    assert.throws(() => parseFString('Hello name}'), { message: "Single '}' in template." });
  });

  it('raises (f-string) Missing value for input {name}', () => {
    assert.throws(() => renderTemplate('Hi {name} {other}', { name: 'x' }, 'f-string'), {
      message: '(f-string) Missing value for input other',
    });
  });

  it('lists variables once, in order', () => {
    assert.deepEqual(extractVariables('{b} {a} {b}', 'f-string'), ['b', 'a']);
  });

  it('writes parsed nodes back to the same template', () => {
    const t = 'A {{literal}} and {var} }} {{';
    assert.equal(writeFString(parseFString(t)), t);
  });

  it('renders objects as JSON and numbers as text', () => {
    assert.equal(renderTemplate('{o} {n}', { o: { a: 1 }, n: 2 }), '{"a":1} 2');
  });
});

describe('client templates: mustache', () => {
  it('renders sections, inverted sections and dotted names without HTML escaping', () => {
    const t = 'Hi {{user.name}}{{#items}} [{{.}}]{{/items}}{{^none}} (empty){{/none}} {{html}}';
    assert.equal(renderTemplate(t, { user: { name: 'Ada' }, items: ['a', 'b'], html: '<b>&' }, 'mustache'), 'Hi Ada [a] [b] (empty) <b>&');
  });

  it('extracts top-level input names; dotted paths stay available', () => {
    const t = '{{user.name}} {{#items}}{{title}}{{/items}} {{&raw}} {{user.age}}';
    assert.deepEqual(extractVariables(t, 'mustache'), ['user', 'items', 'raw']);
    assert.deepEqual(mustacheVariablePaths(t), ['user.name', 'items', 'raw', 'user.age']);
  });
});

describe('client templates: formats', () => {
  it('accepts f-string and mustache', () => {
    assert.equal(checkTemplateFormat('f-string'), 'f-string');
    assert.equal(checkTemplateFormat('mustache'), 'mustache');
  });

  it('raises Invalid template format listing the allowed ones', () => {
    assert.throws(() => checkTemplateFormat('jinja2'), {
      message: 'Invalid template format. Got `jinja2`; should be one of f-string,mustache',
    });
    assert.throws(() => renderTemplate('x', {}, 'bogus' as 'f-string'), {
      message: 'Invalid template format. Got `bogus`; should be one of f-string,mustache',
    });
  });
});
