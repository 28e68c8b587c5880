/**
 * @module release-view
 * What a served release's document says a body may hold, for a server whose data is today's: the
 * fields a record declares (a sort key's `x-sort` field included), and the links it may carry. A
 * link is a relative API path (`/packages/...`) or an absolute URL under the base URL; it exists
 * in a release when a GET operation of that release's document answers its path (DECISIONS 84).
 * Everything here reads a contract already trimmed to the release (load.ts), so what belongs to
 * which release comes from `x-since` alone.
 */
import type { Operation, Schema } from './model.js';
import { createPruner, schemasAt, type Pruner } from './prune.js';
import { createOperationRouter } from './router.js';

/** The item schema of a list operation's `data` (its records), or undefined for other operations. */
export function listItemSchema(op: Operation): Schema | undefined {
  const body = op.responses.get('200')?.jsonSchema;
  const data = (body?.properties as Record<string, Schema> | undefined)?.data;
  return data?.items as Schema | undefined;
}

/** The schemas a property is declared by at one level (through combinators and array items). */
function propertySchemas(schemas: readonly Schema[], name: string): Schema[] {
  const found: Schema[] = [];
  for (const at of schemas) {
    for (const level of schemasAt(at)) {
      const props = level.properties as Record<string, Schema> | undefined;
      const sub = props && Object.hasOwn(props, name) ? props[name] : undefined;
      if (!sub) continue;
      found.push(sub);
      if (sub.items && typeof sub.items === 'object') found.push(sub.items as Schema);
    }
  }
  return found;
}

/** Whether the record schema declares the dotted field path (`distiInventory.updated`). */
export function declaresField(schema: Schema, path: string): boolean {
  let level: Schema[] = [schema];
  for (const name of path.split('.')) {
    level = propertySchemas(level, name);
    if (level.length === 0) return false;
  }
  return true;
}

/**
 * A test for strings that are links to nothing in the release: a relative path (`/...`) or an
 * absolute URL under `baseUrl` whose path no GET operation of `operations` answers. Any other
 * string (a web page, a plain value) is not a link and passes.
 */
export function deadLinkTest(
  operations: readonly Operation[],
  baseUrl: string,
): (value: string) => boolean {
  const router = createOperationRouter(operations);
  const base = `${baseUrl.replace(/\/+$/, '')}/`;
  return (value) => {
    let path: string;
    if (value.startsWith('/')) path = value;
    else if (value.startsWith(base)) path = value.slice(base.length - 1);
    else return false;
    const end = path.search(/[?#]/);
    const match = router.match('GET', end < 0 ? path : path.slice(0, end));
    return match === undefined || !('operation' in match);
  };
}

/** A pruner for a body of the release: its schema's properties only, and no link to an operation it lacks. */
export function createReleaseView(schema: Schema, isDeadLink: (value: string) => boolean): Pruner {
  return createPruner(schema, { dropString: isDeadLink });
}
