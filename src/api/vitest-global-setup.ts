/**
 * @module api/vitest-global-setup
 * `web-data-api-double/vitest/global-setup`, for vitest's `globalSetup` as it is: one mock for the
 * whole run, seeded by `MOCK_SEED` (or the running mock `WEB_DATA_MOCK_URL` names), provided to
 * every test file for `useWebDataMock`. Options of your own: a set-up file exporting
 * `webDataGlobalSetup({ ... })` from `web-data-api-double/vitest`.
 */
import { webDataGlobalSetup } from './vitest.js';

export default webDataGlobalSetup();
