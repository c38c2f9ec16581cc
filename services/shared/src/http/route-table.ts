import type { z } from 'zod';

/**
 * Who may call a route:
 * - `public`: anyone (a token, if sent, is still checked);
 * - `user`: a signed-in shopper or admin (requireAuth);
 * - `admin`: an admin (requireAdmin);
 * - `service`: another service process, with the service token (requireService, /internal/*);
 * - `signed`: anyone whose request carries a valid provider signature (the payment webhook).
 */
export type RouteAuth = 'public' | 'user' | 'admin' | 'service' | 'signed';

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One route of the shop's HTTP API, declared in its service's routes.ts with the same zod schemas the
 * handler parses with. The route table (every service's specs) is what the OpenAPI document, the authorization
 * matrix and the fuzzer are generated from; a test checks it against the routers actually mounted, so
 * the table cannot drift from the code.
 */
export interface RouteSpec {
  method: RouteMethod;
  /** Express form, full path: '/api/products/:id'. */
  path: string;
  auth: RouteAuth;
  /** The service that owns it (accounts, catalog, checkout, order). */
  service: string;
  /** One line for the API docs. */
  summary: string;
  /** Path parameters (`:id` ...). */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** How the body is sent: JSON (default) or a multipart form (image uploads). */
  bodyType?: 'json' | 'multipart';
  /** Status codes the route answers with, and what each means (2xx first). */
  responses: Record<number, string>;
  /** Server-sent events (text/event-stream) rather than one JSON answer. */
  stream?: boolean;
  /**
   * Ownership: the route reads or changes something that belongs to one user (an address, an order, a
   * payment); another user must neither see nor change it (checked by the IDOR tests).
   */
  owned?: boolean;
}

/** Declares a route spec (typed; keeps each service's table a plain array). */
export const route = (spec: RouteSpec): RouteSpec => spec;

/** `/api/products/:id` -> `/api/products/{id}` (OpenAPI's form). */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');
