/** @module product-parts.contract.test — the product-parts family against the document (checks narrowed to its operations). */
import { familySuite } from '../src/suite/support/family-suite.js';

familySuite('product-parts');
