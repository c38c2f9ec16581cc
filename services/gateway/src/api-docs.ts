import fs from 'node:fs';
import { Router } from 'express';
import { mountRoutes, routeOf } from '@shop/shared/http/route-table';
import {
  AUTH_NOTE,
  openApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
} from '@shop/shared/http/openapi';
import { ROUTE_TABLE } from './route-table.ts';

const version = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

let built: OpenApiDocument | undefined;
/** The shop's OpenAPI document: every service route, and these two. */
export function shopOpenApiDocument(): OpenApiDocument {
  built ??= openApiDocument([...ROUTE_TABLE, ...DOCS_ROUTES], {
    title: 'Kapda API',
    version,
    description:
      'The HTTP API of the Kapda shop. JSON in and out; errors are {message} (400 names the field). Send ' +
      "`Authorization: Bearer <token>` (from /api/auth/login). /internal/* routes are for the shop's own " +
      'processes (service tokens) and answer only in the distributed mode.',
  });
  return built;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const schemaText = (s: JsonSchema) => escape(JSON.stringify(s, null, 2));

function operationHtml(method: string, path: string, op: OpenApiOperation): string {
  const params = op.parameters ?? [];
  const body = op.requestBody;
  return [
    `<section id="${escape(op.operationId)}">`,
    `<h3><code>${method.toUpperCase()} ${escape(path)}</code></h3>`,
    `<p>${escape(op.summary)}</p>`,
    `<p><strong>Who:</strong> ${escape(AUTH_NOTE[op['x-auth']])}${op['x-owned'] ? ' Only their own.' : ''}</p>`,
    params.length
      ? '<table><caption>Parameters</caption><thead><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr></thead><tbody>' +
        params
          .map(
            (p) =>
              `<tr><td><code>${escape(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td>` +
              `<td><code>${escape(JSON.stringify(p.schema))}</code>${p.description ? ` ${escape(p.description)}` : ''}</td></tr>`,
          )
          .join('') +
        '</tbody></table>'
      : '',
    body
      ? Object.entries(body.content)
          .map(
            ([type, { schema }]) =>
              `<details><summary>Body (${escape(type)}${body.required ? '' : ', optional'})</summary><pre>${schemaText(schema)}</pre></details>`,
          )
          .join('')
      : '',
    '<dl>' +
      Object.entries(op.responses)
        .map(([status, r]) => `<dt>${status}</dt><dd>${escape(r.description)}</dd>`)
        .join('') +
      '</dl>',
    '</section>',
  ].join('\n');
}

/** The document as a plain HTML page (no script, no style: it shows under any Content-Security-Policy). */
export function docsPage(doc: OpenApiDocument): string {
  const sections = doc.tags.map((tag) => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => (op && op.tags.includes(tag.name) ? [{ method, path, op }] : [])),
    );
    return [
      `<h2 id="tag-${escape(tag.name)}">${escape(tag.name)}</h2>`,
      `<p>${escape(tag.description)}</p>`,
      ...ops.map((o) => operationHtml(o.method, o.path, o.op)),
    ].join('\n');
  });
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escape(doc.info.title)} ${escape(doc.info.version)}</title></head><body>`,
    `<h1>${escape(doc.info.title)} ${escape(doc.info.version)}</h1>`,
    `<p>${escape(doc.info.description ?? '')}</p>`,
    '<p>The OpenAPI 3.1 document: <a href="/api/openapi.json">/api/openapi.json</a></p>',
    `<nav><ul>${doc.tags.map((t) => `<li><a href="#tag-${escape(t.name)}">${escape(t.name)}</a></li>`).join('')}</ul></nav>`,
    ...sections,
    '</body></html>',
  ].join('\n');
}

const route = routeOf<Record<string, never>>('gateway');

let page: string | undefined;
/** The document's own routes, answered by the gateway (embedded shop and distributed gateway alike). */
export const DOCS_ROUTES = [
  route({
    method: 'get',
    path: '/api/openapi.json',
    auth: 'public',
    summary: 'This API as an OpenAPI 3.1 document',
    responses: { 200: 'The OpenAPI document' },
    handler: () => (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.json(shopOpenApiDocument());
    },
  }),
  route({
    method: 'get',
    path: '/api/docs',
    auth: 'public',
    summary: 'This API as an HTML page: each route, who may call it, its parameters, body and answers',
    responses: { 200: 'An HTML page' },
    handler: () => (_req, res) => {
      page ??= docsPage(shopOpenApiDocument());
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(page);
    },
  }),
];

/** GET /api/openapi.json and GET /api/docs. */
export function apiDocsRouter(): Router {
  return mountRoutes(Router(), DOCS_ROUTES, {});
}
