/** @module documents.contract.test — the documents family against the document (checks narrowed to its operations). */
import { familySuite } from './support/family-suite.js';

familySuite('documents');
