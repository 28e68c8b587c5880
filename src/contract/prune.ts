/**
 * @module prune
 * Serving an older release: the dataset holds today's records, and a release's document (trimmed
 * by `x-since`) no longer declares the properties added later. A pruner drops exactly those,
 * following the schema through `allOf`/`oneOf`/`anyOf` and `items`, and, when asked, every string
 * the caller says the release cannot hold (a link to an operation it lacks: release-view.ts).
 */
import type { Schema } from './model.js';

export type Pruner = (value: unknown) => unknown;

/** The schemas that apply at one level: the schema and every combinator branch below it. */
export function schemasAt(schema: Schema, out: Schema[] = []): Schema[] {
  out.push(schema);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches as Schema[]) schemasAt(branch, out);
  }
  return out;
}

export interface PruneOptions {
  /** A string property or array item for which this is true is left out, whatever the schema says. */
  dropString?: (value: string) => boolean;
}

/**
 * A function that copies a value, keeping only properties some applicable schema declares (and no
 * string `dropString` rejects). An object whose schemas declare no properties at all is kept whole.
 */
export function createPruner(schema: Schema, options: PruneOptions = {}): Pruner {
  const { dropString } = options;
  const dropped = (value: unknown) => typeof value === 'string' && dropString?.(value) === true;
  const cache = new Map<Schema, Pruner>();
  const build = (node: Schema): Pruner => {
    const hit = cache.get(node);
    if (hit) return hit;
    const levels = schemasAt(node);
    const properties = new Map<string, Schema[]>();
    const items: Schema[] = [];
    for (const level of levels) {
      const props = level.properties as Record<string, Schema> | undefined;
      if (props)
        for (const [name, sub] of Object.entries(props))
          properties.set(name, [...(properties.get(name) ?? []), sub]);
      if (level.items && typeof level.items === 'object') items.push(level.items as Schema);
    }
    const childPruners = new Map<string, Pruner>();
    let itemPruner: Pruner | undefined;
    const pruner: Pruner = (value) => {
      if (Array.isArray(value)) {
        if (items.length === 0) return value as unknown[];
        itemPruner ??= build({ anyOf: items });
        return (dropString ? value.filter((v) => !dropped(v)) : value).map(itemPruner);
      }
      if (!value || typeof value !== 'object' || properties.size === 0) return value;
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value)) {
        const subs = properties.get(name);
        if (!subs || dropped(child)) continue;
        let prune = childPruners.get(name);
        if (!prune)
          childPruners.set(name, (prune = build(subs.length === 1 ? subs[0] : { anyOf: subs })));
        out[name] = prune(child);
      }
      return out;
    };
    cache.set(node, pruner);
    return pruner;
  };
  return build(schema);
}
