/**
 * @module fact-kinds.test
 * The kinds-of-fact table: marks inherited from the nearest marked parent, overridden by a child's
 * own mark, alternatives merged; and the committed page matches the document.
 */
import { describe, expect, it } from 'vitest';
import { checkKindsFresh } from '../../scripts/kinds-of-fact.js';
import { countKinds, operationFacts, renderKindsTable } from './fact-kinds.js';
import type { Operation } from './model.js';

const listOperation: Operation = {
  operationId: 'listThings',
  method: 'get',
  path: '/things',
  summary: '',
  family: 'things',
  source: 'documented',
  since: '1.0.0',
  parameters: [
    {
      name: 'limit',
      in: 'query',
      required: false,
      schema: {},
      commaJoined: false,
      source: 'reference',
      since: '1.0.0',
    },
    {
      name: 'thing_id',
      in: 'path',
      required: true,
      schema: {},
      commaJoined: false,
      source: 'documented',
      since: '1.0.0',
    },
    {
      name: 'x-api-key',
      in: 'header',
      required: true,
      schema: {},
      commaJoined: false,
      source: 'documented',
      since: '1.0.0',
    },
  ],
  requestBody: {
    required: true,
    schema: {
      'x-source': 'reference',
      properties: { productId: {}, guess: { 'x-source': 'inferred' } },
    },
  },
  responses: new Map([
    [
      '200',
      {
        status: '200',
        description: '',
        source: 'documented',
        headers: [],
        contentTypes: ['application/json'],
        jsonSchema: {
          properties: {
            data: {
              type: 'array',
              items: {
                'x-source': 'documented',
                oneOf: [
                  { properties: { id: {}, old: {} } },
                  { 'x-source': 'reference', properties: { id: {}, renamed: {} } },
                ],
              },
            },
          },
        },
      },
    ],
  ]),
};

describe('kinds of fact', () => {
  it('reads parameters, body fields and record fields, each with the nearest mark', () => {
    const facts = operationFacts(listOperation);
    expect(facts.source).toBe('documented');
    expect(facts.facts).toEqual([
      { label: '?limit', source: 'reference' },
      { label: '{thing_id}', source: 'documented' },
      { label: 'body.productId', source: 'reference' },
      { label: 'body.guess', source: 'inferred' },
      { label: 'id', source: 'documented' },
      { label: 'old', source: 'documented' },
      { label: 'renamed', source: 'reference' },
    ]);
    expect(countKinds([facts])).toEqual({ documented: 4, reference: 3, inferred: 1 });
  });

  it('renders one row per operation with a column per kind', () => {
    const table = renderKindsTable({ operations: [listOperation] });
    expect(table).toContain('Totals: 4 documented, 3 reference, 1 inferred.');
    expect(table).toContain(
      '| `GET /things` | documented | `{thing_id}`, `id`, `old` | `?limit`, `body.productId`, `renamed` | `body.guess` |',
    );
  });

  it('the committed docs/kinds-of-fact.md matches the document', async () => {
    expect(await checkKindsFresh()).toBeUndefined();
  });
});
