/** @module documents.contract.test — the documents family against the document (checks narrowed to its operations). */
import { familySuite } from '../src/suite/support/family-suite.js';

familySuite('documents');
