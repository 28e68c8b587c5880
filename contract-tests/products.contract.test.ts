/** @module products.contract.test — the products family against the document (checks narrowed to its operations). */
import { familySuite } from '../src/suite/support/family-suite.js';

familySuite('products');
