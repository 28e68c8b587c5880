/** Proof file 3 of 8 (proof-file.ts says what each does). */
import { defineProofFile } from './proof-file.js';

defineProofFile(3);
