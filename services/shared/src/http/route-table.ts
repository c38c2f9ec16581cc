import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { requireAdmin, requireAuth, requireService } from '../auth/tokens.ts';
import { parseInput } from './validation.ts';

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
 * What is known of a route without running it: the static part of its declaration (`Route`). The route
 * table (every service's routes) is what the gateway forwards by, and what the OpenAPI document, the
 * authorization matrix and the fuzzer are generated from.
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

/** `/api/products/:id` -> `/api/products/{id}` (OpenAPI's form). */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the mount parsed from a request with the route's schemas (undefined for a part it declares none of). */
export interface RouteInput<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
}

/** The live part of a route: answers one request, given what the mount parsed. */
export type RouteHandler<In extends RouteInput = RouteInput> = (req: Request, res: Response, input: In) => unknown;

/**
 * Route middleware between the guard and the input parsing (rate limits, an upload's form parser), built
 * from the ports. The mount calls each factory once, so the routes naming one factory share what it built
 * (one rate-limit budget for all payment calls).
 */
export type MiddlewareFactory<Ports> = (ports: Ports) => RequestHandler[];

/** What a route declares beyond its spec: how the mount guards, parses and answers it. */
export interface RouteMount<Ports> {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** One message for any bad body, instead of one naming each field. */
  bodyMessage?: string;
  /** The guard when it is not the auth's own (requireAuth, requireAdmin, requireService, none). */
  guard?: RequestHandler;
  middleware?: MiddlewareFactory<Ports>;
  /** Builds the handler from the ports it uses (the pool, a domain service, the clock ...). */
  handler(ports: Ports): RouteHandler<RouteInput<any, any, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * One route, declared once next to its handler. Its spec part (everything but `mount`) is plain data,
 * importable without starting anything: the gateway's route table, the OpenAPI document, the
 * authorization matrix and the fuzzer read it; `mountRoutes` mounts it with the ports.
 */
export interface Route<Ports = unknown> extends RouteSpec {
  readonly mount: RouteMount<Ports>;
}

/** What a service's api file writes for one route: its spec and how it is mounted, in one object. */
export interface RouteDeclaration<
  Ports,
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
>
  extends
    Omit<RouteSpec, 'service' | 'params' | 'query' | 'body'>,
    Omit<RouteMount<Ports>, 'params' | 'query' | 'body' | 'handler'> {
  /** Parsed by the mount (400 naming the field) before the handler runs, and documented. */
  params?: P;
  query?: Q;
  body?: B;
  /**
   * What the OpenAPI document and the fuzzer show instead, where it is not what the mount parses: a
   * multipart form's file parts, or a part the handler reads itself (then left out of `query`/`body`).
   */
  documented?: { query?: z.ZodType; body?: z.ZodType };
  handler(ports: Ports): RouteHandler<RouteInput<Parsed<P>, Parsed<Q>, Parsed<B>>>;
}

/**
 * The route declarer of one service's routes whose handlers use `Ports`:
 * `const route = routeOf<{ pool: pg.Pool }>('order')`, then `route({ method, path, auth, ..., handler })`.
 */
export function routeOf<Ports>(service: string) {
  return <
    P extends z.ZodType | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    declared: RouteDeclaration<Ports, P, Q, B>,
  ): Route<Ports> => {
    const { params, query, body, bodyMessage, guard, middleware, handler, documented, ...spec } = declared;
    const shownQuery = documented?.query ?? query;
    const shownBody = documented?.body ?? body;
    return {
      ...spec,
      service,
      ...(params ? { params } : {}),
      ...(shownQuery ? { query: shownQuery } : {}),
      ...(shownBody ? { body: shownBody } : {}),
      mount: { params, query, body, bodyMessage, guard, middleware, handler },
    };
  };
}

const GUARDS: Record<RouteAuth, RequestHandler | undefined> = {
  public: undefined,
  signed: undefined, // the handler checks the signature over the raw body
  user: requireAuth,
  admin: requireAdmin,
  service: requireService,
};

/**
 * Mounts routes on `router`, each as: its guard (from its auth), its middleware, then a handler that parses
 * params, query and body with its schemas (in that order; a missing body reads as {}) and runs its handler.
 */
export function mountRoutes<Ports>(router: Router, routes: readonly Route<Ports>[], ports: Ports): Router {
  const built = new Map<MiddlewareFactory<Ports>, RequestHandler[]>();
  const middlewareOf = (factory: MiddlewareFactory<Ports>) => {
    let handlers = built.get(factory);
    if (!handlers) built.set(factory, (handlers = factory(ports)));
    return handlers;
  };
  for (const route of routes) {
    const { params, query, body, bodyMessage, middleware } = route.mount;
    const guard = route.mount.guard ?? GUARDS[route.auth];
    const handle = route.mount.handler(ports);
    const answer: RequestHandler = async (req, res) => {
      const input = {
        params: params ? parseInput(params, req.params) : undefined,
        query: query ? parseInput(query, req.query) : undefined,
        body: body ? parseInput(body, req.body ?? {}, bodyMessage) : undefined,
      };
      await handle(req, res, input);
    };
    const handlers = [...(guard ? [guard] : []), ...(middleware ? middlewareOf(middleware) : []), answer];
    router.route(route.path)[route.method](handlers);
  }
  return router;
}
