/**
 * @module recordings
 * Recorded sessions, one concern shared by the proxy (writes them with `--fixtures`) and the mock
 * (serves them with `--replay`): the fixture format, the recorder, the loader that trusts nothing
 * in a directory it is handed, and the replay middleware.
 */
export {
  FIXTURE_FORMAT,
  MAX_BODY_BYTES,
  MAX_META_BYTES,
  MAX_TOTAL_BYTES,
  canonicalRequest,
  fixtureFiles,
  fixtureKey,
  sha256,
  type CanonicalRequest,
  type FixtureMeta,
} from './format.js';
export { loadRecordings, type Recording } from './load.js';
export {
  createRecorder,
  RecordingsError,
  type Recorder,
  type RecordInput,
  type RecordOutcome,
} from './recorder.js';
export { createReplayMiddleware, REPLAYED_HEADER } from './replay.js';
