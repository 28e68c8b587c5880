/**
 * Generated from spec/openapi.yaml by `npm run types:gen` (scripts/named-types.ts); do not edit
 * by hand. A named type for every schema of the document, its operationIds and its releases.
 */
import type { components, operations } from './types.gen.js';

/** The operationId of an operation of the document (every release, the unreleased included). */
export type OperationId = keyof operations;

/** A release named by the document's `info.x-changelog`, newest first. */
export type Release = 'unreleased' | '1.3.0' | '1.2.0' | '1.1.1' | '1.1.0' | '1.0.0';

/** The body of an error response (4xx, 5xx) of some operation, as the document declares it. */
export type ErrorBody =
  | UnauthorizedError
  | ForbiddenError
  | NotFoundError
  | RateLimitError
  | ServerError
  | BadRequestError
  | PayloadTooLargeError;

/** `#/components/schemas/UnauthorizedError` (documented) */
export type UnauthorizedError = components['schemas']['UnauthorizedError'];

/** `#/components/schemas/ForbiddenError` (documented) */
export type ForbiddenError = components['schemas']['ForbiddenError'];

/** `#/components/schemas/NotFoundError` (documented) */
export type NotFoundError = components['schemas']['NotFoundError'];

/** `#/components/schemas/RateLimitError` (documented) */
export type RateLimitError = components['schemas']['RateLimitError'];

/** `#/components/schemas/ServerError` (documented) */
export type ServerError = components['schemas']['ServerError'];

/** `#/components/schemas/BadRequestError` (reference) */
export type BadRequestError = components['schemas']['BadRequestError'];

/** `#/components/schemas/PayloadTooLargeError` (inferred) */
export type PayloadTooLargeError = components['schemas']['PayloadTooLargeError'];

/** `#/components/schemas/Pagination` (documented) */
export type Pagination = components['schemas']['Pagination'];

/** `#/components/schemas/CategoryEntry` (documented) */
export type CategoryEntry = components['schemas']['CategoryEntry'];

/** `#/components/schemas/CategoryList` (documented) */
export type CategoryList = components['schemas']['CategoryList'];

/** `#/components/schemas/DocumentReference` (documented) */
export type DocumentReference = components['schemas']['DocumentReference'];

/** `#/components/schemas/DocumentReferenceStrict` (documented) */
export type DocumentReferenceStrict = components['schemas']['DocumentReferenceStrict'];

/** `#/components/schemas/OrderableReference` (documented) */
export type OrderableReference = components['schemas']['OrderableReference'];

/** `#/components/schemas/BoardKitReference` (documented) */
export type BoardKitReference = components['schemas']['BoardKitReference'];

/** `#/components/schemas/Partner` (documented) */
export type Partner = components['schemas']['Partner'];

/** `#/components/schemas/ImageList` (documented) */
export type ImageList = components['schemas']['ImageList'];

/** `#/components/schemas/DocumentReferenceList` (documented) */
export type DocumentReferenceList = components['schemas']['DocumentReferenceList'];

/** `#/components/schemas/DocumentReferenceStrictList` (documented) */
export type DocumentReferenceStrictList = components['schemas']['DocumentReferenceStrictList'];

/** `#/components/schemas/OrderableReferenceList` (documented) */
export type OrderableReferenceList = components['schemas']['OrderableReferenceList'];

/** `#/components/schemas/BoardKitReferenceList` (documented) */
export type BoardKitReferenceList = components['schemas']['BoardKitReferenceList'];

/** `#/components/schemas/WwwUpdateDate` (documented) */
export type WwwUpdateDate = components['schemas']['WwwUpdateDate'];

/** `#/components/schemas/ProductCommon` (documented) */
export type ProductCommon = components['schemas']['ProductCommon'];

/** `#/components/schemas/ProductSoftwareToolLink` (documented) */
export type ProductSoftwareToolLink = components['schemas']['ProductSoftwareToolLink'];

/** `#/components/schemas/RelatedProduct` (documented) */
export type RelatedProduct = components['schemas']['RelatedProduct'];

/** `#/components/schemas/ApplicationBlockDiagram` (documented) */
export type ApplicationBlockDiagram = components['schemas']['ApplicationBlockDiagram'];

/** `#/components/schemas/Product` (documented) */
export type Product = components['schemas']['Product'];

/** `#/components/schemas/ProductV1_0_0` (documented) */
export type ProductV1_0_0 = components['schemas']['ProductV1_0_0'];

/** `#/components/schemas/ProductV1_2_0` (documented) */
export type ProductV1_2_0 = components['schemas']['ProductV1_2_0'];

/** `#/components/schemas/ProductById` (documented) */
export type ProductById = components['schemas']['ProductById'];

/** `#/components/schemas/ProductList` (documented) */
export type ProductList = components['schemas']['ProductList'];

/** `#/components/schemas/ProductPart` (reference) */
export type ProductPart = components['schemas']['ProductPart'];

/** `#/components/schemas/PartStatus` (reference) */
export type PartStatus = components['schemas']['PartStatus'];

/** `#/components/schemas/PriceBreak` (reference) */
export type PriceBreak = components['schemas']['PriceBreak'];

/** `#/components/schemas/PartRegulatory` (reference) */
export type PartRegulatory = components['schemas']['PartRegulatory'];

/** `#/components/schemas/PartPackaging` (reference) */
export type PartPackaging = components['schemas']['PartPackaging'];

/** `#/components/schemas/AttributeValue` (reference) */
export type AttributeValue = components['schemas']['AttributeValue'];

/** `#/components/schemas/PartParametricAttribute` (reference) */
export type PartParametricAttribute = components['schemas']['PartParametricAttribute'];

/** `#/components/schemas/AttributeValueParsed` (documented) */
export type AttributeValueParsed = components['schemas']['AttributeValueParsed'];

/** `#/components/schemas/DistiInventory` (reference) */
export type DistiInventory = components['schemas']['DistiInventory'];

/** `#/components/schemas/DistributorStock` (reference) */
export type DistributorStock = components['schemas']['DistributorStock'];

/** `#/components/schemas/CadModel` (reference) */
export type CadModel = components['schemas']['CadModel'];

/** `#/components/schemas/ProductPartList` (reference) */
export type ProductPartList = components['schemas']['ProductPartList'];

/** `#/components/schemas/ProductPartAttribute` (reference) */
export type ProductPartAttribute = components['schemas']['ProductPartAttribute'];

/** `#/components/schemas/ProductPartAttributeList` (reference) */
export type ProductPartAttributeList = components['schemas']['ProductPartAttributeList'];

/** `#/components/schemas/SearchOperator` (documented) */
export type SearchOperator = components['schemas']['SearchOperator'];

/** `#/components/schemas/ProductPartSearchRequest` (reference) */
export type ProductPartSearchRequest = components['schemas']['ProductPartSearchRequest'];

/** `#/components/schemas/SearchFilter` (reference) */
export type SearchFilter = components['schemas']['SearchFilter'];

/** `#/components/schemas/ProductPartSearchResponse` (reference) */
export type ProductPartSearchResponse = components['schemas']['ProductPartSearchResponse'];

/** `#/components/schemas/SearchResultPart` (reference) */
export type SearchResultPart = components['schemas']['SearchResultPart'];

/** `#/components/schemas/CrossReferenceRequest` (reference) */
export type CrossReferenceRequest = components['schemas']['CrossReferenceRequest'];

/** `#/components/schemas/CrossReferenceResponse` (reference) */
export type CrossReferenceResponse = components['schemas']['CrossReferenceResponse'];

/** `#/components/schemas/CrossReferenceResult` (reference) */
export type CrossReferenceResult = components['schemas']['CrossReferenceResult'];

/** `#/components/schemas/CrossReferenceMatch` (reference) */
export type CrossReferenceMatch = components['schemas']['CrossReferenceMatch'];

/** `#/components/schemas/DocumentProduct` (documented) */
export type DocumentProduct = components['schemas']['DocumentProduct'];

/** `#/components/schemas/DocumentTranslation` (documented) */
export type DocumentTranslation = components['schemas']['DocumentTranslation'];

/** `#/components/schemas/DocumentDisclaimer` (documented) */
export type DocumentDisclaimer = components['schemas']['DocumentDisclaimer'];

/** `#/components/schemas/Document` (documented) */
export type Document = components['schemas']['Document'];

/** `#/components/schemas/DocumentList` (reference) */
export type DocumentList = components['schemas']['DocumentList'];

/** `#/components/schemas/DocumentType` (reference) */
export type DocumentType = components['schemas']['DocumentType'];

/** `#/components/schemas/DocumentTypeList` (reference) */
export type DocumentTypeList = components['schemas']['DocumentTypeList'];

/** `#/components/schemas/FileBytes` (inferred) */
export type FileBytes = components['schemas']['FileBytes'];

/** `#/components/schemas/BoardKitType` (documented) */
export type BoardKitType = components['schemas']['BoardKitType'];

/** `#/components/schemas/BoardKit` (documented) */
export type BoardKit = components['schemas']['BoardKit'];

/** `#/components/schemas/BoardSoftwareToolLink` (documented) */
export type BoardSoftwareToolLink = components['schemas']['BoardSoftwareToolLink'];

/** `#/components/schemas/BoardKitList` (documented) */
export type BoardKitList = components['schemas']['BoardKitList'];

/** `#/components/schemas/PackageStatus` (documented) */
export type PackageStatus = components['schemas']['PackageStatus'];

/** `#/components/schemas/PackageSpecifications` (documented) */
export type PackageSpecifications = components['schemas']['PackageSpecifications'];

/** `#/components/schemas/PackageRegulatory` (documented) */
export type PackageRegulatory = components['schemas']['PackageRegulatory'];

/** `#/components/schemas/Package` (documented) */
export type Package = components['schemas']['Package'];

/** `#/components/schemas/PackageList` (reference) */
export type PackageList = components['schemas']['PackageList'];

/** `#/components/schemas/SoftwareTool` (documented) */
export type SoftwareTool = components['schemas']['SoftwareTool'];

/** `#/components/schemas/SoftwareToolList` (reference) */
export type SoftwareToolList = components['schemas']['SoftwareToolList'];
