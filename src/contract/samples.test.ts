/**
 * @module samples.test
 * One realistic record per resource, written from the source's field lists, must pass the shared
 * validators; deliberately broken copies must fail with the pointer and rule a reader would expect.
 * The samples are typed with the generated types, so a schema change that breaks them fails twice:
 * in `tsc` and here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createValidators,
  loadContract,
  type components,
  type Contract,
  type Validators,
  type Violation,
} from './index.js';

type S = components['schemas'];

const WEB = 'https://www.example.com';
const API = 'https://api.example.com/web-data/v1';
const UPDATED = '2026-07-14T09:30:00Z';

const docRef = (
  agileId: string,
  dcpDocumentId: string | null,
  title: string,
  type = 'Data Sheet',
): S['DocumentReference'] => ({
  agileId,
  dcpDocumentId,
  title,
  type,
  language: 'en',
  href: dcpDocumentId ? `/documents/${dcpDocumentId}` : `/documents/agile-id/${agileId}`,
});

const strictRef = (ref: S['DocumentReference']): S['DocumentReferenceStrict'] => ({
  ...ref,
  dcpDocumentId: ref.dcpDocumentId ?? '',
});

const category: S['CategoryList'] = [
  { level: 1, title: 'Power Management' },
  { level: 2, title: 'Switching Regulators' },
];

const productCommon: S['ProductCommon'] = {
  productId: 'LTM4700',
  wwwUpdateDate: UPDATED,
  uuid: '6f1c2a52-2f0e-4a41-9a37-0d5d1b0c9e11',
  title: 'LTM4700: Dual 50A or Single 100A µModule Regulator',
  url: `${WEB}/products/ltm4700.html`,
  category,
  description: 'The LTM4700 is a dual 50A or single 100A step-down µModule regulator.',
  features:
    'Dual 50A or single 100A output\nWide input voltage range: 4.5V to 16V\nPMBus interface',
  applications: 'Data centers\nTelecom and networking',
  images: [`${WEB}/images/ltm4700.png`],
  orderableProducts: [{ orderableId: 'LTM4700EY#PBF', href: '/product-parts/LTM4700EY%23PBF' }],
  relatedBoardsKits: [
    { boardKitId: 'DC2702A', title: 'LTM4700 Demo Board', href: `${API}/boards-kits/DC2702A` },
  ],
  softwareTools: [{ softwareToolName: 'LTpowerPlay', href: '/software-tools/LTpowerPlay' }],
};

/** List item, and the 1.0.0 by-ID shape. */
const product: S['Product'] = {
  ...productCommon,
  additionalDetails: null,
  relatedProducts: [
    {
      productId: 'LTM4680',
      title: 'LTM4680: Dual 30A µModule Regulator',
      href: '/products/LTM4680',
    },
  ],
  featuredDocuments: [docRef('AG-0001', 'DCP-1001', 'LTM4700 Data Sheet')],
  relatedDocuments: [docRef('AG-0002', null, 'Power Module Selection Guide', 'Selection Guide')],
  relatedDocumentsSecondary: [],
};

/** The 1.2.0 by-ID shape: applicationBlockDiagrams, no additionalDetails/relatedProducts, string DCP ids. */
const product120: S['ProductV1_2_0'] = {
  ...productCommon,
  featuredDocuments: [strictRef(docRef('AG-0001', 'DCP-1001', 'LTM4700 Data Sheet'))],
  relatedDocuments: [],
  relatedDocumentsSecondary: [],
  applicationBlockDiagrams: [
    {
      title: 'Data Center Power',
      description: 'Point-of-load conversion for FPGAs.',
      imageUrl: `${WEB}/diagrams/dc-power-thumb.png`,
      url: `${WEB}/diagrams/dc-power.html`,
    },
  ],
};

const productPart: S['ProductPart'] = {
  orderableId: 'LTM4700EY#PBF',
  BOPN: 'LTM4700EY',
  productCategory: 'Power Management',
  firstProductSubcategory: 'Switching Regulators',
  genericId: 'LTM4700',
  genericTitle: 'LTM4700: Dual 50A µModule Regulator',
  genericUrl: '/products/LTM4700',
  productFamily: 'Switching Regulators',
  '1kuPrice': 70,
  budgetaryPrice: [
    { units: 1, price: 98.5, currency: 'USD' },
    { units: 100, price: 81.2, currency: 'USD' },
    { units: 1000, price: 70, currency: 'USD' },
  ],
  status: 'Active',
  type: 'µModule Regulators',
  description: 'Dual 50A µModule regulator, BGA-144, lead-free',
  class: 'BGA',
  category: 'Surface Mount',
  leadCount: 144,
  dimensions: { length: 15, width: 22, thickness: 5.01, pitch: 1.27 },
  peakReflowTemperature: '245',
  leadFree: true,
  partAvailability: 'In Stock',
  featuredDocument: { documentTitle: 'LTM4700 Data Sheet', documentUrl: '/documents/DCP-1001' },
  images: [`${WEB}/images/parts/ltm4700.jpg`],
  chipImage: `${WEB}/images/chips/ltm4700.png`,
  regulatory: {
    htsus: '8542.39.0001',
    eccn: 'EAR99',
    moistureSensitivityLevel: '3',
    rohsCompliant: true,
    chinaRohsCompliant: true,
    hazardousMaterials: {
      mercury: false,
      lead: false,
      halogen: false,
      cadmium: false,
      hexavalentChromium: false,
      pbde: false,
      pbb: false,
    },
  },
  lifecycle: 'Production',
  alternative: { alternativeGenericId: null, alternativeNote: null },
  packaging: {
    package: { packageCode: 'BGA-144', href: '/packages/BGA-144' },
    carrierType: 'Tray',
    packageCode: 'Y144',
    pbFreeCategory: 'e1',
    jedecStandard: 'MO-275',
    quantityPerCarrier: 84,
    quantityPerReel: null,
    reelSize: null,
    tapePin1Quad: null,
    tapePocketPitch: null,
    packageUrl: '/packages/BGA-144',
    packageDescription: '144-Lead Plastic BGA',
    packageName: 'BGA-144',
    prevCode: null,
  },
  plp: 'PWR',
  sampleable: true,
  directBuy: true,
  replacementProduct: null,
  replacementProductRemark: null,
  distiInventory: {
    value: {
      'example-distribution': {
        part: 'ED-LTM4700EY',
        quantity: 1250,
        distributorName: 'Example Distribution',
        shoppingCartUrl: 'https://distributor.example.com/cart?p=LTM4700EY',
      },
    },
    updated: UPDATED,
    inStock: 1,
    quantity: 1250,
  },
  cadModel: [
    {
      cadSoftware: 'Multiple',
      ...docRef('AG-0100', 'DCP-2001', 'LTM4700 Symbol and Footprint', 'CAD Model'),
    },
    {
      cadSoftware: 'Multiple',
      url: 'https://cad.example.com/ltm4700',
      providedBy: 'Example CAD Vendor',
    },
  ],
  parametricAttributes: [
    {
      productPartAttributeId: 'vin-max',
      attributeName: 'Vin Max',
      attributeValues: [16],
      href: '/product-parts/attributes/vin-max',
      attributeValuesParsed: [
        { type: 'GP', value: 'LTM4700', href: '/products/LTM4700' },
        { type: 'URL', value: 'Selection table', url: `${WEB}/selection/umodule` },
      ],
    },
  ],
};

const attribute: S['ProductPartAttribute'] = {
  productPartAttributeId: 'vin-max',
  attributeName: 'Vin Max',
  attributeType: 'numeric',
  filterType: 'range',
  possibleValues: [],
  unit: 'V',
  description: 'Maximum input voltage.',
};

const crossReference: S['CrossReferenceResponse'] = {
  data: [
    {
      partNumber: 'TPS546D24A',
      results: [
        {
          crossPartNumber: 'TPS546D24A',
          crossManufacturer: 'Example Semiconductor',
          matchType: 'Functional',
          orderableId: 'LTC7150SEV#PBF',
          genericId: 'LTC7150S',
          status: 'Active',
          comments: 'Pin-compatible; verify the compensation network.',
          description: '20V, 20A synchronous step-down regulator',
          dataSource: 'Renesas Database',
          href: '/product-parts/LTC7150SEV%23PBF',
        },
      ],
    },
    { partNumber: 'UNKNOWN-123', results: [] },
  ],
};

const document: S['Document'] = {
  agileId: 'AG-0001',
  dcpDocumentId: 'DCP-1001',
  url: `${WEB}/media/ltm4700.pdf`,
  category,
  product: [
    {
      productId: 'LTM4700',
      type: 'Product',
      title: 'LTM4700',
      nid: '48213',
      uuid: '6f1c2a52-2f0e-4a41-9a37-0d5d1b0c9e11',
      language: 'en',
    },
  ],
  title: 'LTM4700 Data Sheet',
  type: 'Data Sheet',
  subType: ['Driver Package'],
  fileType: 'PDF',
  secureDocument: false,
  revisionDate: '2025-11-03',
  wwwUpdateDate: UPDATED,
  language: 'en',
  nid: '91377',
  uuid: 'b8e7f0a4-1c44-4d1e-8f57-5f7d2e0f5a10',
  translation: [
    {
      language: 'ja',
      dcpDocumentId: 'DCP-1001-JA',
      agileId: 'AG-0001-JA',
      title: 'LTM4700 データシート',
      href: '/documents/DCP-1001-JA',
    },
  ],
  published: true,
  featured: true,
  relationship: '',
  filename: 'ltm4700.pdf',
  disclaimer: [
    {
      dcpDocumentId: 'DCP-9000',
      agileId: 'AG-9000',
      language: 'en',
      title: 'Important Notice',
      href: '/documents/DCP-9000',
    },
  ],
  myrenesasDocument: false,
  href: '/documents/DCP-1001',
};

const pagination = (total: number): S['Pagination'] => ({
  offset: 0,
  limit: 10,
  total,
  has_more: total > 10,
});

const documentTypes: S['DocumentTypeList'] = {
  data: [
    { type: 'Data Sheet', subTypes: [] },
    { type: 'Manual - Software', subTypes: ['Driver Package', 'Peripherals - Clock'] },
  ],
  pagination: pagination(2),
};

const boardKit: S['BoardKit'] = {
  boardKitId: 'DC2702A',
  wwwUpdateDate: UPDATED,
  uuid: '0f3c8e77-4b0a-44a3-9bb6-6a2f3b0b7d21',
  title: 'LTM4700 Demo Board',
  url: `${WEB}/boards/dc2702a.html`,
  boardKitType: 'demonstration',
  category: [{ level: 1, title: 'Power Management' }],
  description: 'Demonstrates the LTM4700 in a dual-output configuration.',
  features: 'Dual 50A outputs\nPMBus connector',
  applications: 'Evaluation of high-current point-of-load designs',
  additionalDetails: null,
  images: [`${WEB}/images/dc2702a.jpg`],
  orderableProducts: [{ orderableId: 'DC2702A', href: `${API}/product-parts/DC2702A` }],
  relatedBoardsKits: [],
  featuredDocuments: [docRef('AG-0300', 'DCP-3001', 'DC2702A User Guide', 'User Guide')],
  relatedDocuments: [],
  softwareTools: [
    { name: 'LTpowerPlay', url: `${WEB}/ltpowerplay` },
    { name: 'Sample scripts', url: null },
  ],
  partner: null,
};

const pkg: S['Package'] = {
  packageCode: '05-08-1990',
  wwwUpdateDate: UPDATED,
  url: `${WEB}/packages/05-08-1990.html`,
  uuid: '4c2b1d0e-7a5f-4e3d-9c8b-1a2b3c4d5e6f',
  title: 'BGA-144 (16mm x 16mm x 5.01mm)',
  packageType: 'BGA',
  packageName: 'BGA-144',
  category: 'Ball Grid Array',
  class: null,
  description: '144-ball grid array package.',
  specifications: {
    leadCount: 144,
    pitch: 1.27,
    length: 16,
    width: 16,
    thickness: 5.01,
    dimensions: '16 x 16 x 5.01',
    peakReflowTemp: 245,
    jeitaStandard: null,
    mark: null,
  },
  packageStatus: 'Active',
  regulatory: { leadFree: 'Yes', pbFreeCategory: 'e1' },
  tubeOrTray: 'Tray',
  previousCode: null,
  images: [`${WEB}/images/packages/bga-144.png`],
  chipImage: `${WEB}/images/chips/bga-144.png`,
  relatedDocuments: [
    {
      ...docRef('AG-0400', 'DCP-4001', 'BGA-144 Outline Drawing', 'Package Drawing'),
      href: `${API}/documents/DCP-4001`,
    },
  ],
};

const softwareTool: S['SoftwareTool'] = {
  softwareToolName: 'LTpowerPlay',
  wwwUpdateDate: UPDATED,
  url: `${WEB}/software/ltpowerplay.html`,
  uuid: '9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d',
  shortDescription: 'Power system management GUI.',
  description: 'A Windows development environment for digital power system management.',
  softwareType: 'Evaluation Software',
  parentSoftwareCategory: ['Power Management Software'],
  features: 'Telemetry\nFault logging',
  additionalDetails: null,
  documentationDetails: null,
  downloadDetails: 'Windows 10 and later.',
  releaseInformation: null,
  targetDeviceDescription: null,
  discontinued: false,
  externalUrl: null,
  images: [],
  evaluationBoards: [
    { boardKitId: 'DC2702A', title: 'LTM4700 Demo Board', href: '/boards-kits/DC2702A' },
  ],
  orderableProducts: [],
  featuredDocuments: [],
  relatedDocuments: [docRef('AG-0500', null, 'LTpowerPlay Quick Start', 'User Guide')],
  relatedDocumentsSecondary: [],
  relatedSoftwareTools: [{ softwareToolName: 'LTspice', href: '/software-tools/LTspice' }],
  relatedSoftwareToolsSecondary: [{ name: 'Power Studio', href: '/software-tools/Power%20Studio' }],
  alternative: {
    softwareToolName: 'Power Studio',
    href: '/software-tools/Power%20Studio',
    notes: null,
  },
  partner: [{ name: 'Example Partner', url: null }],
  relatedVideos: [
    { videoId: 'vid-001', title: 'Getting started', url: 'https://video.example.com/vid-001' },
  ],
};

/** One sample per (operation, status) the source or the document defines a body for. */
const VALID: [operationId: string, status: number, body: unknown][] = [
  ['listProducts', 200, { data: [product], pagination: pagination(1) }],
  [
    'listProducts',
    200,
    { data: [{ ...product, category: [category] }], pagination: pagination(1) },
  ],
  // The reference's product carries applicationBlockDiagrams in the list too.
  [
    'listProducts',
    200,
    {
      data: [{ ...product, applicationBlockDiagrams: product120.applicationBlockDiagrams }],
      pagination: pagination(1),
    },
  ],
  ['getProduct', 200, product],
  ['getProduct', 200, product120],
  // Only the identifier (and, on the list/1.0.0 shape, the two fields the source says are present) is required.
  ['getProduct', 200, { productId: 'LTM4700', additionalDetails: null, relatedProducts: [] }],
  ['getProduct', 200, { productId: 'LTM4700', applicationBlockDiagrams: [] }],
  ['listProductParts', 200, { data: [productPart], pagination: pagination(1) }],
  ['getProductPart', 200, productPart],
  [
    'searchProductParts',
    200,
    {
      data: [
        {
          orderableId: productPart.orderableId,
          genericId: 'LTM4700',
          status: 'Active',
          parametricAttributes: [
            {
              productPartAttributeId: 'vin-max',
              attributeName: 'Vin Max',
              attributeValues: [16],
              href: '/product-parts/attributes/vin-max',
            },
          ],
          href: '/product-parts/LTM4700EY%23PBF',
        },
      ],
      pagination: pagination(1),
      filters: {
        productId: 'LTM4700',
        applied: [{ productPartAttributeId: 'vin-max', operator: 'range', min: 12, max: 20 }],
      },
    },
  ],
  ['listProductPartAttributes', 200, { data: [attribute], pagination: pagination(1) }],
  ['getProductPartAttribute', 200, attribute],
  ['crossReferenceProductParts', 200, crossReference],
  ['listDocuments', 200, { data: [document], pagination: pagination(25) }],
  ['getDocument', 200, document],
  ['getDocumentByAgileId', 200, document],
  // subType: the reference's example sends one string.
  ['getDocumentByAgileId', 200, { ...document, subType: 'Driver Package' }],
  ['getDocument', 200, { agileId: 'AG-0001' }],
  ['listDocumentTypes', 200, documentTypes],
  ['listBoardsKits', 200, { data: [boardKit], pagination: pagination(1) }],
  ['getBoardKit', 200, boardKit],
  // The source's category strings, and the reference schema's tool links, are accepted too.
  [
    'getBoardKit',
    200,
    {
      ...boardKit,
      category: ['Power Management'],
      softwareTools: [{ softwareToolName: 'LTpowerPlay', href: '/software-tools/LTpowerPlay' }],
    },
  ],
  ['getBoardKit', 200, { boardKitId: 'DC2702A' }],
  ['listPackages', 200, { data: [pkg], pagination: pagination(1) }],
  ['getPackage', 200, pkg],
  ['getPackage', 200, { packageCode: '05-08-1990' }],
  ['listSoftwareTools', 200, { data: [softwareTool], pagination: pagination(1) }],
  ['getSoftwareTool', 200, softwareTool],
  // The source's parent-category items `{title}` are accepted too.
  [
    'getSoftwareTool',
    200,
    { ...softwareTool, parentSoftwareCategory: [{ title: 'Power Management Software' }] },
  ],
  ['getSoftwareTool', 200, { softwareToolName: 'LTpowerPlay' }],
  [
    'getPackage',
    400,
    { error: 'query parameter "limit" must be integer (type: integer), received "ten"' },
  ],
  ['searchProductParts', 400, { error: 'body /productId is required (required: productId)' }],
  ['getPackage', 401, { error: 'Missing or invalid API key', code: 401 }],
  ['getPackage', 403, { error: 'This key may not use the packages endpoints', code: 403 }],
  ['getPackage', 404, { error: 'No package with code "X"' }],
  ['getPackage', 429, { error: 'Rate limit exceeded', code: 429, retry_after: 42 }],
  ['getPackage', 500, { error: 'Internal server error' }],
  ['crossReferenceProductParts', 413, { error: 'Request body too large' }],
];

let contract: Contract;
let validators: Validators;
beforeAll(async () => {
  contract = await loadContract();
  validators = createValidators(contract);
});

const check = (operationId: string, status: number, body: unknown): Violation[] =>
  validators.checkResponseBody(contract.operation(operationId), status, body);

/** A deep copy with one change applied. */
function broken<T>(sample: T, change: (copy: T) => void): T {
  const copy = structuredClone(sample);
  change(copy);
  return copy;
}

/** The pointer/rule pairs of a list of violations. */
const rules = (violations: Violation[]): { pointer: string; rule: string }[] =>
  violations.map(({ pointer, rule }) => ({ pointer, rule }));

describe('valid samples pass', () => {
  for (const [operationId, status, body] of VALID) {
    it(`${operationId} ${status}`, () => {
      expect(check(operationId, status, body)).toEqual([]);
    });
  }
});

describe('broken samples fail with the right pointer and rule', () => {
  it('wrong type: a number sent as a string', () => {
    const body = broken(pkg, (p) => {
      (p.specifications as unknown as Record<string, unknown>).pitch = '1.27';
    });
    expect(rules(check('getPackage', 200, body))).toEqual([
      { pointer: '/specifications/pitch', rule: 'type: number' },
    ]);
  });

  it('wrong type inside a list envelope points into data', () => {
    const body = {
      data: [product, broken(product, (p) => Object.assign(p, { title: 42 }))],
      pagination: pagination(2),
    };
    expect(rules(check('listProducts', 200, body))).toEqual([
      { pointer: '/data/1/title', rule: 'type: string' },
    ]);
  });

  it('missing required field: the record identifier', () => {
    const body = broken(document, (d) => {
      delete (d as Partial<S['Document']>).agileId;
    });
    const violations = check('getDocumentByAgileId', 200, body);
    expect(rules(violations)).toEqual([{ pointer: '/agileId', rule: 'required: agileId' }]);
    expect(violations[0].source).toBe('documented');
  });

  it('missing required field: the identifier of a nested reference', () => {
    const body = broken(pkg, (p) => {
      delete (p.relatedDocuments![0] as Partial<S['DocumentReference']>).agileId;
    });
    expect(rules(check('getPackage', 200, body))).toEqual([
      { pointer: '/relatedDocuments/0/agileId', rule: 'required: agileId' },
    ]);
  });

  it('missing field whose presence the source states: relatedProducts in the product list', () => {
    const item = broken(product, (p) => {
      delete (p as Partial<S['Product']>).relatedProducts;
    });
    expect(rules(check('listProducts', 200, { data: [item], pagination: pagination(1) }))).toEqual([
      { pointer: '/data/0/relatedProducts', rule: 'required: relatedProducts' },
    ]);
  });

  it('an absent optional field passes; a null in a non-nullable field fails', () => {
    // Neither the source nor the reference states these fields' presence: leaving them out is no violation.
    const absent = broken(softwareTool, (t) => {
      delete (t as Partial<S['SoftwareTool']>).externalUrl;
      delete (t as Partial<S['SoftwareTool']>).discontinued;
    });
    expect(check('getSoftwareTool', 200, absent)).toEqual([]);
    // Sent, a field must still have its type: `discontinued` is a boolean, never null.
    const nulled = broken(softwareTool, (t) => Object.assign(t, { discontinued: null }));
    expect(rules(check('getSoftwareTool', 200, nulled))).toEqual([
      { pointer: '/discontinued', rule: 'type: boolean' },
    ]);
  });

  it('bad enum value', () => {
    const body = broken(boardKit, (b) => Object.assign(b, { boardKitType: 'prototype' }));
    expect(rules(check('getBoardKit', 200, body))).toEqual([
      {
        pointer: '/boardKitType',
        rule: 'enum: development, evaluation, demonstration, reference, starter',
      },
    ]);
  });

  it('bad enum value in a nested object', () => {
    const body = broken(pkg, (p) => Object.assign(p.regulatory!, { leadFree: 'yes' }));
    expect(rules(check('getPackage', 200, body))).toEqual([
      { pointer: '/regulatory/leadFree', rule: 'enum: Yes, No' },
    ]);
  });

  it('null where the source does not allow null', () => {
    const body = broken(softwareTool, (t) => Object.assign(t, { description: null }));
    expect(rules(check('getSoftwareTool', 200, body))).toEqual([
      { pointer: '/description', rule: 'type: string' },
    ]);
  });

  it('null DCP id in a document reference is accepted in both product shapes (the reference declares it nullable)', () => {
    expect(check('getProduct', 200, product)).toEqual([]);
    const body = broken(product120, (p) =>
      Object.assign(p.featuredDocuments![0], { dcpDocumentId: null }),
    );
    expect(check('getProduct', 200, body)).toEqual([]);
  });

  it('a by-ID product with applicationBlockDiagrams is the 1.2.0 shape, the 1.0.0 fields beside them undeclared, not a failure (DECISIONS 82)', () => {
    expect(check('getProduct', 200, { ...product120, additionalDetails: null })).toEqual([]);
    expect(check('getProduct', 200, { ...product, applicationBlockDiagrams: [] })).toEqual([]);
    // Without the diagrams it is the 1.0.0 shape, whose stated fields stay required.
    const { relatedProducts: _r, ...withoutRelated } = product;
    expect(rules(check('getProduct', 200, withoutRelated))).toContainEqual({
      pointer: '/relatedProducts',
      rule: 'required: relatedProducts',
    });
  });

  it('category level outside 1..4, in the flat form', () => {
    const body = broken(product, (p) => {
      p.category = [{ level: 5, title: 'Too deep' }] as unknown as S['CategoryList'];
    });
    expect(rules(check('getProduct', 200, body))).toEqual([
      { pointer: '/category/0/level', rule: 'enum: 1, 2, 3, 4' },
    ]);
  });

  // On a tie in error count, closestBranchErrors prefers the branch that got deepest into the value:
  // here the array branch's error, not the object branch's "must be object".
  it('category level outside 1..4, in the grouped form, is reported inside the inner array', () => {
    const body = broken(product, (p) => {
      p.category = [[{ level: 5, title: 'Too deep' }]] as unknown as S['CategoryList'];
    });
    expect(rules(check('getProduct', 200, body))).toEqual([
      { pointer: '/category/0/0/level', rule: 'enum: 1, 2, 3, 4' },
    ]);
  });

  it('wrong error code constant', () => {
    expect(rules(check('getPackage', 401, { error: 'nope', code: 403 }))).toEqual([
      { pointer: '/code', rule: 'const: 401' },
    ]);
  });

  it('429 without retry_after', () => {
    expect(rules(check('getPackage', 429, { error: 'slow down', code: 429 }))).toEqual([
      { pointer: '/retry_after', rule: 'required: retry_after' },
    ]);
  });

  it('pagination has_more as a string', () => {
    const body = { data: [], pagination: { ...pagination(0), has_more: 'false' } };
    expect(rules(check('listBoardsKits', 200, body))).toEqual([
      { pointer: '/pagination/has_more', rule: 'type: boolean' },
    ]);
  });

  it('a violation in an inferred field is reported as inferred', () => {
    const body = broken(productPart, (p) => Object.assign(p, { BOPN: 7 }));
    const violations = check('getProductPart', 200, body);
    expect(rules(violations)).toEqual([{ pointer: '/BOPN', rule: 'type: string' }]);
    expect(violations[0].source).toBe('inferred');
    expect(violations[0].actual).toBe(7);
  });

  it('a violation in a field only the reference shows is reported as reference', () => {
    const body = broken(document, (d) => Object.assign(d, { subType: 7 }));
    const violations = check('getDocument', 200, body);
    expect(rules(violations)).toEqual([{ pointer: '/subType', rule: 'type: array' }]);
    expect(violations[0].source).toBe('reference');
    expect(violations[0].actual).toBe(7);
  });

  it('a null sub-type (a form neither the source nor the reference shows)', () => {
    expect(
      rules(
        check(
          'getDocument',
          200,
          broken(document, (d) => Object.assign(d, { subType: null })),
        ),
      ),
    ).toEqual([{ pointer: '/subType', rule: 'type: array' }]);
  });

  it('a sub-type list item that is not a string', () => {
    const body = broken(document, (d) => Object.assign(d, { subType: ['Driver Package', 3] }));
    expect(rules(check('getDocument', 200, body))).toEqual([
      { pointer: '/subType/1', rule: 'type: string' },
    ]);
  });

  it("the vendor-named field has the reference's spelling and type", () => {
    const body = broken(document, (d) => Object.assign(d, { myrenesasDocument: 'no' }));
    expect(rules(check('getDocument', 200, body))).toEqual([
      { pointer: '/myrenesasDocument', rule: 'type: boolean' },
    ]);
  });

  it('a board/kit category item that is neither a string nor a category entry', () => {
    const body = broken(boardKit, (b) => Object.assign(b, { category: [42] }));
    const violations = rules(check('getBoardKit', 200, body));
    expect(violations).toHaveLength(1);
    expect(violations[0].pointer).toBe('/category/0');
  });

  it('a 400 body is a plain {error}: a missing error string fails', () => {
    expect(rules(check('getPackage', 400, {}))).toEqual([
      { pointer: '/error', rule: 'required: error' },
    ]);
    expect(rules(check('searchProductParts', 400, { error: 400 }))).toEqual([
      { pointer: '/error', rule: 'type: string' },
    ]);
  });

  it('a parsed attribute value with neither href nor url', () => {
    const body = broken(productPart, (p) => {
      delete p.parametricAttributes![0].attributeValuesParsed![0].href;
    });
    // Both branches miss one property; the first (href) is reported.
    expect(rules(check('getProductPart', 200, body))).toEqual([
      { pointer: '/parametricAttributes/0/attributeValuesParsed/0/href', rule: 'required: href' },
    ]);
  });

  it('a price break at a quantity the source does not name', () => {
    const body = broken(productPart, (p) => Object.assign(p.budgetaryPrice![1], { units: 50 }));
    expect(rules(check('getProductPart', 200, body))).toEqual([
      { pointer: '/budgetaryPrice/1/units', rule: 'enum: 1, 100, 1000' },
    ]);
  });

  it('a part status outside every form the reference shows', () => {
    const body = broken(productPart, (p) => Object.assign(p, { status: 'Production' }));
    expect(rules(check('getProductPart', 200, body))).toEqual([
      {
        pointer: '/status',
        rule: 'enum: Active, Preview, NRND, Not Recommended for New Designs, Not Recommended<br /> for New Designs, Obsolete',
      },
    ]);
  });

  it("the forms the reference's examples send where they contradict its schema are accepted", () => {
    const body = broken(productPart, (p) =>
      Object.assign(p, {
        '1kuPrice': '70.00',
        images: `${WEB}/images/parts/ltm4700.jpg`,
        partAvailability: true,
        featuredDocument: { title: 'LTM4700 Data Sheet', url: '/documents/DCP-1001' },
      }),
    );
    Object.assign(body.packaging!, {
      quantityPerCarrier: '84',
      quantityPerReel: '2500',
      tapePocketPitch: '12',
    });
    Object.assign(body.regulatory!, { rohsCompliant: 'Yes' });
    body.parametricAttributes![0].attributeValues = [{ value: 16, unit: 'V' }];
    expect(check('getProductPart', 200, body)).toEqual([]);
  });
});

describe('request bodies', () => {
  const body = (operationId: string, value: unknown) =>
    validators.checkRequestBody(contract.operation(operationId), value);

  it('a valid search request passes and gets its defaults', () => {
    const request: Record<string, unknown> = {
      productId: 'LTM4700',
      filters: [
        { productPartAttributeId: 'vin-max', operator: 'gte', values: [12] },
        { productPartAttributeId: 'iout', operator: 'range', min: 10, max: 50 },
        { productPartAttributeId: 'topology', values: ['Buck', 'Boost'] },
      ],
    };
    expect(body('searchProductParts', request)).toEqual([]);
    expect(request).toMatchObject({ limit: 10, offset: 0 });
  });

  it('filters are optional', () => {
    expect(body('searchProductParts', { productId: 'LTM4700' })).toEqual([]);
  });

  it('bad operator enum in a filter', () => {
    const problems = body('searchProductParts', {
      productId: 'LTM4700',
      filters: [{ productPartAttributeId: 'vin-max', operator: 'between', values: [3] }],
    });
    expect(problems.map((p) => [p.name, p.rule])).toEqual([
      ['/filters/0/operator', 'enum: eq, gt, gte, lt, lte, range'],
    ]);
    expect(problems[0].received).toBe('between');
  });

  it('missing required productId', () => {
    const problems = body('searchProductParts', { filters: [] });
    expect(problems.map((p) => [p.name, p.rule])).toEqual([['/productId', 'required: productId']]);
  });

  it('cross-reference accepts 200 part numbers and rejects 201', () => {
    const numbers = (n: number): string[] => Array.from({ length: n }, (_, i) => `COMP-${i + 1}`);
    expect(body('crossReferenceProductParts', { partNumbers: numbers(200) })).toEqual([]);
    const problems = body('crossReferenceProductParts', { partNumbers: numbers(201) });
    expect(problems.map((p) => [p.name, p.rule])).toEqual([['/partNumbers', 'maxItems: 200']]);
  });

  it('cross-reference rejects an empty list and a non-array', () => {
    expect(body('crossReferenceProductParts', { partNumbers: [] }).map((p) => p.rule)).toEqual([
      'minItems: 1',
    ]);
    expect(
      body('crossReferenceProductParts', { partNumbers: 'ADP123' }).map((p) => [p.name, p.rule]),
    ).toEqual([['/partNumbers', 'type: array']]);
  });
});
