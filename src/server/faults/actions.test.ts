/**
 * @module faults/actions.test
 * The table of actions is the one source: each integer field's bounds are the ones its parser
 * holds (the console's form offers them), and the catalogue offers every such field's bounds.
 */
import { describe, expect, it } from 'vitest';
import { catalogue } from '../console/catalogue.js';
import { ACTION_BOUNDS, ACTION_FIELD_NAMES, ACTION_FIELDS, ActionError } from './actions.js';

describe('the table of actions', () => {
  it("holds each integer field's bounds as its parser does", () => {
    const bounded = Object.keys(ACTION_BOUNDS);
    expect(bounded.length).toBeGreaterThan(0);
    for (const name of ACTION_FIELD_NAMES) {
      const { bounds, parse } = ACTION_FIELDS[name];
      if (!bounds) continue;
      expect(parse(bounds.minimum, name), name).toBe(bounds.minimum);
      expect(() => parse(bounds.minimum - 1, name), name).toThrow(ActionError);
      if (bounds.maximum === undefined) continue;
      expect(parse(bounds.maximum, name), name).toBe(bounds.maximum);
      expect(() => parse(bounds.maximum! + 1, name), name).toThrow(ActionError);
    }
  });

  it("is where the console's catalogue reads each action's bounds", () => {
    const { bounds } = catalogue(
      { release: 'r', operations: [], document: {} } as never,
      { records: [] } as never,
      [],
    );
    expect(bounds).toMatchObject(ACTION_BOUNDS);
  });
});
