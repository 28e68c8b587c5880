/**
 * @module stubs/json-patch.test
 * RFC 7396 (its appendix A examples) and RFC 6902 (examples from its appendix A), and errors that
 * name the operation.
 */
import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, PatchError } from './json-patch.js';

describe('JSON Merge Patch (RFC 7396 appendix A)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });
  it('leaves the target unchanged', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('JSON Patch (RFC 6902 appendix A)', () => {
  it.each([
    [{ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    [
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    [{ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [{ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    [
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    [{ foo: null }, [{ op: 'add', path: '/foo', value: 1 }], { foo: 1 }],
    [{ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [{ a: [1] }, [{ op: 'copy', from: '/a', path: '/b' }], { a: [1], b: [1] }],
  ])('%j with %j', (target, ops, result) => {
    expect(jsonPatch(target, ops)).toEqual(result);
  });

  it.each([
    [{ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], /\/0: test failed/],
    [{ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], /\/0: no member "baz"/],
    [{ foo: [1] }, [{ op: 'add', path: '/foo/5', value: 1 }], /out of range/],
    [{}, [{ op: 'jump', path: '' }], /\/0\/op/],
    [{}, [{ op: 'add', path: 'x', value: 1 }], /\/0\/path/],
    [{}, [{ op: 'replace', path: '/a' }], /value is required/],
    [{}, [{ op: 'remove', path: '/a' }], /no member "a"/],
  ])('%j with %j fails', (target, ops, message) => {
    expect(() => jsonPatch(target, ops)).toThrow(PatchError);
    expect(() => jsonPatch(target, ops)).toThrow(message);
  });
});
