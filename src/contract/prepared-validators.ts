/**
 * @module prepared-validators
 * Validators compiled at build time: `npm run build` writes ajv's standalone code for the schemas
 * a start and the first requests need (each operation's parameters and request body, every
 * release; the configuration files), one CommonJS file per schema in `dist/spec/validators/`,
 * named by its setup and the SHA-256 of the schema's JSON. A validator is used only for the very
 * schema it was made from, so an edited document or file cannot meet a stale one; any other
 * schema is compiled by ajv at run time (validators.ts), which then loads ajv's compiler.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { packagePath } from '../package-root.js';
import type { Schema } from './model.js';

export const PREPARED_VALIDATORS_DIR = packagePath('dist', 'spec', 'validators');
/** The two ajv setups: without defaults (bodies, responses, files) and filling in the schema's defaults (parameters, request bodies). */
export type Setup = 'plain' | 'defaults';

const requireCjs = createRequire(import.meta.url);

/** Where the prepared validator of this schema is (or would be). */
export function preparedFile(setup: Setup, schema: Schema, dir = PREPARED_VALIDATORS_DIR): string {
  const digest = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  return join(dir, `${setup}-${digest}.cjs`);
}

/** The validator the build prepared for exactly this schema, or undefined. */
export function preparedValidator(
  setup: Setup,
  schema: Schema,
  dir = PREPARED_VALIDATORS_DIR,
): ValidateFunction | undefined {
  const file = preparedFile(setup, schema, dir);
  return existsSync(file) ? (requireCjs(file) as ValidateFunction) : undefined;
}
