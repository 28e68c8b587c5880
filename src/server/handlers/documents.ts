/**
 * @module handlers/documents
 * Document lists and lookups (by DCP id and by agile id), document types, and the unreleased
 * download endpoint (GET bytes, HEAD headers only).
 */
import { byIdHandler, findOr404, listHandler, type Handler } from './respond.js';

export const listDocuments: Handler = listHandler((api) => api.listings.documents);

export const getDocument: Handler = byIdHandler(
  (api) => api.dataset.documents,
  'dcp_id',
  'Document',
  (api, id) => api.dataset.documentByDcpId(id),
);

export const getDocumentByAgileId: Handler = byIdHandler(
  (api) => api.dataset.documents,
  'agile_id',
  'Document',
);

export const listDocumentTypes: Handler = listHandler((api) => api.listings.documentTypes);

/** Quotes a filename for `content-disposition` (RFC 6266), with a UTF-8 form when it is not ASCII. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const fileResponse: Handler = (api, _operation, input) => {
  const id = input.path.dcp_id;
  const file = api.dataset.documentFile(findOr404(api.dataset.documentByDcpId(id), 'Document', id));
  // HEAD is answered from the GET response with its body dropped (Hono does this), so both agree.
  return {
    status: 200,
    body: file.bytes as Uint8Array<ArrayBuffer>,
    headers: {
      'content-type': file.contentType,
      'content-disposition': contentDisposition(file.filename),
    },
  };
};

export const downloadDocument: Handler = fileResponse;
export const checkDocumentDownload: Handler = fileResponse;
