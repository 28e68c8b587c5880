/**
 * @module admin/admin-parts
 * The parts of the app the control endpoints read and change (not the app itself), handed to each
 * resource's route file, and the one reading of a key a control names.
 */
import type { Contract, Validators } from '../../contract/index.js';
import type { AdjustableClock } from '../../state/clock/clock.js';
import type { ApiContext } from '../context.js';
import type { KeyStore } from '../config/keys.js';
import type { AppOptions } from '../options.js';

/** The parts of the app the control endpoints read and change (not the app itself). */
export interface AdminParts {
  options: Pick<
    AppOptions,
    'seed' | 'scale' | 'tierOverride' | 'bodyTimeoutMs' | 'instanceId' | 'origin' | 'adminHosts'
  >;
  contract: Contract;
  keys: KeyStore;
  clock: AdjustableClock;
  apis: readonly Pick<ApiContext, 'environment' | 'basePath'>[];
  validators: Validators;
  /** Each purpose's demo key name (`fullAccess` -> its name), as /examples names them. */
  keyNamesByPurpose?: ReadonlyMap<string, string>;
}

/** A key's name for its name, its purpose (`fullAccess`, as /examples names them) or its secret. */
export function keyNameOf(
  state: Pick<AdminParts, 'keys' | 'keyNamesByPurpose'>,
  value: string,
): string | undefined {
  if (state.keys.records.some((k) => k.name === value)) return value;
  const byPurpose = state.keyNamesByPurpose?.get(value);
  if (byPurpose !== undefined) return byPurpose;
  return state.keys.lookup(value)?.name;
}

/** What a control's match and key are read against: the served release, its parsers, the keys. */
export const matchContextOf = (state: AdminParts) => ({
  contract: state.contract,
  validators: state.validators,
  keyNameOf: (value: string) => keyNameOf(state, value),
});
