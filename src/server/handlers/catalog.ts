/**
 * @module handlers/catalog
 * Boards and kits, packages and software tools: lists and by-ID lookups over their collections.
 */
import { byIdHandler, listHandler, type Handler } from './respond.js';

export const listBoardsKits: Handler = listHandler((api) => api.listings.boardsKits);
export const getBoardKit: Handler = byIdHandler(
  (api) => api.dataset.boardsKits,
  'board_kit_id',
  'Board or kit',
);

export const listPackages: Handler = listHandler((api) => api.listings.packages);
export const getPackage: Handler = byIdHandler(
  (api) => api.dataset.packages,
  'package_code',
  'Package',
);

export const listSoftwareTools: Handler = listHandler((api) => api.listings.softwareTools);
export const getSoftwareTool: Handler = byIdHandler(
  (api) => api.dataset.softwareTools,
  'software_tool_id',
  'Software tool',
);
