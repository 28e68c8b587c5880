/**
 * @module contract
 * The project's single reading of `spec/openapi.yaml`: the server, the contract suite and the
 * proxy import from here and nowhere else.
 */
export * from './model.js';
export * from './load.js';
export {
  PAGING,
  filterParameters,
  offsetUnitOf,
  itemsSkipped,
  offsetForPage,
} from './list-parameters.js';
export { declaredResponse } from './operations.js';
export * from './releases.js';
export * from './validators.js';
export type { components, paths } from './types.gen.js';
export * from './prune.js';
export * from './release-view.js';
export * from './undeclared.js';
export * from './pointer.js';
export { compareValues, type OrderedValue } from './order.js';
export * from './check-response.js';
export * from './json-body.js';
export * from './router.js';
export * from './fact-kinds.js';
export { child, isNode, markOf, place, rootPlace, type Placed } from './marks.js';
export * from './truncate.js';
export { capName, MAX_NAME_LENGTH } from './names.js';
export * from './judge/index.js';
