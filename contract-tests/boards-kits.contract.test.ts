/** @module boards-kits.contract.test — the boards-kits family against the document (checks narrowed to its operations). */
import { familySuite } from '../src/suite/support/family-suite.js';

familySuite('boards-kits');
