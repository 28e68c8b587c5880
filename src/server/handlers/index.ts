/**
 * @module handlers
 * operationId -> handler. The app registers a route for every operation of the served release
 * and fails at startup if one has no handler here.
 */
import type { Handler } from './respond.js';
import { getProduct, listProducts } from './products.js';
import {
  crossReferenceProductParts,
  getProductPart,
  getProductPartAttribute,
  listProductPartAttributes,
  listProductParts,
  searchProductParts,
} from './product-parts.js';
import {
  checkDocumentDownload,
  downloadDocument,
  getDocument,
  getDocumentByAgileId,
  listDocuments,
  listDocumentTypes,
} from './documents.js';
import {
  getBoardKit,
  getPackage,
  getSoftwareTool,
  listBoardsKits,
  listPackages,
  listSoftwareTools,
} from './catalog.js';

export type { Answer, Handler, HandlerInput } from './respond.js';

export const handlers: Readonly<Record<string, Handler>> = {
  listProducts,
  getProduct,
  listProductParts,
  getProductPart,
  searchProductParts,
  listProductPartAttributes,
  getProductPartAttribute,
  crossReferenceProductParts,
  listDocuments,
  getDocument,
  getDocumentByAgileId,
  listDocumentTypes,
  downloadDocument,
  checkDocumentDownload,
  listBoardsKits,
  getBoardKit,
  listPackages,
  getPackage,
  listSoftwareTools,
  getSoftwareTool,
};
