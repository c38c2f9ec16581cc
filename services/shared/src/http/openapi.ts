import { z } from 'zod';
import { openApiPath, type RouteSpec } from './route-table.ts';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  security: Array<Record<string, string[]>>;
  /** Who may call it (the route table's auth) and whether it touches one user's own data. */
  'x-auth': RouteSpec['auth'];
  'x-owned'?: boolean;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  jsonSchemaDialect: string;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Partial<Record<RouteSpec['method'], OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const TAG_DESCRIPTIONS: Record<string, string> = {
  accounts: 'Registration, login, profile, users, testimonials (and /internal/accounts/* for the user check)',
  catalog: 'Products, stock, collections, homepage (and /internal/inventory/* for checkout and order histories)',
  checkout: 'Delivery charges, coupons, saved addresses, payments (and /internal/checkout/* for order histories)',
  order: 'Orders, the admin dashboard, the order push stream (and /internal/orders/* for checkout)',
  gateway: 'This document and its docs page',
};

/**
 * A zod schema as JSON Schema 2020-12, as the client sends it (io: 'input': before transforms and
 * defaults); what JSON Schema cannot say (a preprocess's function, a refinement) reads as "anything" or is
 * left out rather than thrown.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema as JsonSchema;
      const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; shape?: Record<string, z.ZodType> } } })._zod
        ?.def;
      // z.file(): a multipart file part.
      if (def?.type === 'file') {
        for (const k of Object.keys(json)) delete json[k];
        Object.assign(json, { type: 'string', contentMediaType: 'application/octet-stream' });
      }
      // Required: the fields the schema refuses to miss. zod guesses for preprocessed fields (a preprocess
      // that fills a blank in reads as required, a number read from text as optional); asking is exact.
      if (def?.type === 'object' && def.shape) {
        const shape = def.shape;
        const required = Object.keys(shape).filter((key) => !acceptsMissing(shape[key]));
        if (required.length) json.required = required;
        else delete json.required;
      }
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

function acceptsMissing(schema: z.ZodType | undefined): boolean {
  try {
    return schema !== undefined && schema.safeParse(undefined).success;
  } catch {
    return false; // an async refinement: say required
  }
}

/** `put /api/products/:id/delist` -> `putApiProductsIdDelist`. */
export function operationIdOf(route: Pick<RouteSpec, 'method' | 'path'>): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** An object schema's properties as parameters (`in` path or query). */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

const SECURITY: Record<RouteSpec['auth'], Array<Record<string, string[]>>> = {
  // Anyone; a token, if sent, is still read (an admin sees more).
  public: [{}, { bearerAuth: [] }],
  user: [{ bearerAuth: [] }],
  admin: [{ bearerAuth: [] }],
  service: [{ bearerAuth: [] }],
  signed: [{ razorpaySignature: [] }],
};

export const AUTH_NOTE: Record<RouteSpec['auth'], string> = {
  public: 'Anyone (a token is optional).',
  user: 'A signed-in user (Bearer token).',
  admin: 'An admin (Bearer token of an admin account).',
  service: "Another service process only (Bearer service token); served by the catalog's and order's own processes.",
  signed: 'Razorpay: the body signed with the webhook secret (x-razorpay-signature).',
};

function operationOf(route: RouteSpec): OpenApiOperation {
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
  if (route.stream)
    parameters.push(
      {
        name: 'ticket',
        in: 'query',
        required: false,
        description:
          'A 60-second ticket from POST /api/orders/stream-ticket, for EventSource clients, which cannot set headers',
        schema: { type: 'string' },
      },
      {
        name: 'access_token',
        in: 'query',
        required: false,
        description: 'Deprecated (it puts a 7-day token in URLs): the Bearer token; use ticket',
        deprecated: true,
        schema: { type: 'string' },
      },
    );
  if (route.auth === 'signed')
    parameters.push(
      {
        name: 'x-razorpay-signature',
        in: 'header',
        required: true,
        description: 'HMAC-SHA256 of the raw body with the webhook secret, hex',
        schema: { type: 'string' },
      },
      {
        name: 'x-razorpay-event-id',
        in: 'header',
        required: false,
        description: 'The event id; a repeated one is answered {status: duplicate}',
        schema: { type: 'string' },
      },
    );
  const responses: OpenApiOperation['responses'] = {};
  for (const [status, description] of Object.entries(route.responses)) {
    const ok = status.startsWith('2');
    responses[status] = {
      description,
      content:
        ok && route.stream
          ? { 'text/event-stream': { schema: { type: 'string' } } }
          : { 'application/json': { schema: ok ? {} : { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: OpenApiOperation = {
    operationId: operationIdOf(route),
    summary: route.summary,
    tags: [route.service],
    ...(parameters.length ? { parameters } : {}),
    responses,
    security: SECURITY[route.auth],
    'x-auth': route.auth,
    ...(route.owned ? { 'x-owned': true } : {}),
  };
  if (route.body) {
    const schema = jsonSchemaOf(route.body);
    const required = Array.isArray(schema.required) && schema.required.length > 0;
    // The image forms take JSON too (without the file).
    op.requestBody = {
      required,
      content:
        route.bodyType === 'multipart'
          ? { 'multipart/form-data': { schema }, 'application/json': { schema } }
          : { 'application/json': { schema } },
    };
  }
  return op;
}

/**
 * The OpenAPI 3.1 document of the given routes (the route table): one operation per route, its parameters
 * and body from the same zod schemas the handlers parse with, tagged by service.
 */
export function openApiDocument(routes: readonly RouteSpec[], info: OpenApiInfo): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  for (const route of routes) {
    const op = operationOf(route);
    if (ids.has(op.operationId)) throw new Error(`Two routes share the operationId ${op.operationId}`);
    ids.add(op.operationId);
    const item = (paths[openApiPath(route.path)] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is specified twice`);
    item[route.method] = op;
  }
  const services = [...new Set(routes.map((r) => r.service))];
  return {
    openapi: '3.1.0',
    info,
    jsonSchemaDialect: DIALECT,
    tags: services.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            title: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        razorpaySignature: { type: 'apiKey', in: 'header', name: 'x-razorpay-signature' },
      },
    },
  };
}
