/** Proof file 1 of 8 (proof-file.ts says what each does). */
import { defineProofFile } from './proof-file.js';

defineProofFile(1);
