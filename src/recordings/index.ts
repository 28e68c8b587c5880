/**
 * @module recordings
 * Recorded sessions, one concern shared by the proxy (writes them with `--recordings`) and the mock
 * (serves them with `--replay`): the recording format, the recorder, the loader that trusts nothing
 * in a directory it is handed, the replay middleware, and the one list of personal data no kept
 * live value may hold (`looksPersonal`, for anything else that keeps live values).
 */
export {
  RECORDING_FORMAT,
  MAX_BODY_BYTES,
  MAX_META_BYTES,
  MAX_TOTAL_BYTES,
  canonicalRequest,
  recordingFiles,
  recordingKey,
  sha256,
  type CanonicalRequest,
  type RecordingMeta,
} from './format.js';
export { loadRecordings, type Recording } from './load.js';
export {
  createRecorder,
  RecordingsError,
  type Recorder,
  type RecordInput,
  type RecorderOptions,
  type RecordOutcome,
} from './recorder.js';
export {
  findPersonalData,
  looksPersonal,
  PERSONAL_NAME_PARTS,
  PERSONAL_NAME_WORDS,
  PERSONAL_VALUE_KINDS,
  type PersonalDataOptions,
} from './personal-data.js';
export { createReplayMiddleware, REPLAYED_HEADER } from './replay.js';
