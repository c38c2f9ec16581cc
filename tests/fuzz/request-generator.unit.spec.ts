import { describe, expect, it, vi } from 'vitest';
import { ROUTE_TABLE } from '../../services/gateway/src/route-table.ts';
import { createRng } from '@shop/test-support/prng';
import { RequestGenerator, routeKey, type FuzzTarget } from './request-generator.ts';
import { accepts, validValue } from './zod-values.ts';

const target: FuzzTarget = {
  routes: ROUTE_TABLE,
  identities: {
    jwtSecret: 'unit-secret-unit-secret-unit-secret',
    user: { token: 'user.token.x', id: 'u1', email: 'u@example.in' },
    admin: { token: 'admin.token.x', id: 'a1', email: 'a@example.in' },
  },
  hints: { 'param:/api/products/:id': ['p1'], 'field:productId': ['p1'] },
  webhookSecret: 'hook',
};

describe('request generator', () => {
  it('is deterministic: request i of seed s is always the same request', () => {
    const a = new RequestGenerator(target, 42);
    // a generator built seconds later mints the same tokens (CI once saw two built across a second's edge)
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 5_000);
    const b = new RequestGenerator(target, 42);
    later.mockRestore();
    for (const i of [0, 1, 57, 999, 12345]) {
      const x = a.generate(i);
      const y = b.generate(i);
      expect({ ...x, body: x.body?.toString('base64') }).toEqual({ ...y, body: y.body?.toString('base64') });
    }
    // and in any order: a request depends on its seed and index alone
    expect(a.generate(7).target).toBe(new RequestGenerator(target, 42).generate(7).target);
    const other = new RequestGenerator(target, 43);
    const differ = [0, 1, 2, 3, 4].filter((i) => a.generate(i).target !== other.generate(i).target);
    expect(differ.length).toBeGreaterThan(0);
  });

  it('covers every route of the table once per round', () => {
    const g = new RequestGenerator(target, 1);
    const n = ROUTE_TABLE.length;
    const seen = new Set(Array.from({ length: n }, (_, i) => g.generate(n + i).route));
    expect(seen).toEqual(new Set(ROUTE_TABLE.map(routeKey)));
  });

  it('writes bodies the shop must refuse: wrong types, deep nesting, bad UTF-8, prototype keys', () => {
    const g = new RequestGenerator(target, 5);
    const variants = Array.from({ length: 2000 }, (_, i) => g.generate(i).variant.join('; ')).join('\n');
    for (const kind of [
      /nested 10000 deep/,
      /invalid UTF-8/,
      /__proto__/,
      /wrong-type/,
      /malformed JSON/,
      /multipart: /,
      /token alg-none/,
      /token expired/,
      /param \w+ "\.\.\/\.\.\/etc\/passwd"/,
      /chunked/,
    ])
      expect(variants).toMatch(kind);
  }, 30_000);

  it("makes values each route's schema accepts (for nearly every schema of the table)", () => {
    const rng = createRng(3);
    const schemas = ROUTE_TABLE.flatMap((r) =>
      (['params', 'query', 'body'] as const).flatMap((part) =>
        r[part] ? [{ name: `${routeKey(r)} ${part}`, schema: r[part] }] : [],
      ),
    );
    const never = schemas
      .filter(
        ({ schema }) =>
          !Array.from({ length: 10 }, () => validValue(schema, { rng, hints: target.hints })).some((v) =>
            accepts(schema, v),
          ),
      )
      .map((s) => s.name);
    // order-of-payment's paymentStreamId must name razorpayOrderId's stream: a relation no generator reads
    expect(never.filter((n) => !n.includes('order-of-payment'))).toEqual([]);
  });
});
