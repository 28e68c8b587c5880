/**
 * @module api/exports.test
 * The package root exports a named type for every schema of the document (and its operationIds,
 * releases and error bodies), each the generated alias: read by the TypeScript compiler from
 * src/index.ts, so a schema whose export is missing or shadowed by another export fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SPEC_PATH } from '../../scripts/check-types-fresh.js';
import { NAMED_TYPES_PATH } from '../../scripts/named-types.js';

const INDEX_PATH = fileURLToPath(new URL('../index.ts', import.meta.url));
const TYPES_GEN_PATH = fileURLToPath(new URL('../contract/types.gen.ts', import.meta.url));

/** Each name the package root exports, with the file that declares what it resolves to. */
function rootExports(): Map<string, string> {
  const program = ts.createProgram([INDEX_PATH], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const root = checker.getSymbolAtLocation(program.getSourceFile(INDEX_PATH)!)!;
  const out = new Map<string, string>();
  for (const symbol of checker.getExportsOfModule(root)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    out.set(symbol.getName(), target.declarations?.[0]?.getSourceFile().fileName ?? '');
  }
  return out;
}

describe('the package root exports the API types', () => {
  const exported = rootExports();
  const schemas = Object.keys(
    (parse(readFileSync(SPEC_PATH, 'utf8')) as { components: { schemas: object } }).components
      .schemas,
  );

  it('a named type for every schema of the document, each the generated alias', () => {
    expect(schemas.length).toBeGreaterThan(50);
    const missing = schemas.filter((name) => exported.get(name) !== NAMED_TYPES_PATH);
    expect(missing).toEqual([]);
  });

  it('the unions read from the document, and the generated interfaces', () => {
    for (const name of ['OperationId', 'Release', 'ErrorBody'])
      expect(exported.get(name), name).toBe(NAMED_TYPES_PATH);
    for (const name of ['paths', 'components', 'operations'])
      expect(exported.get(name), name).toBe(TYPES_GEN_PATH);
  });
});
