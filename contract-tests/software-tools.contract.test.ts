/** @module software-tools.contract.test — the software-tools family against the document (checks narrowed to its operations). */
import { familySuite } from '../src/suite/support/family-suite.js';

familySuite('software-tools');
