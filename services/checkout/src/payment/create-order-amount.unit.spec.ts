import { describe, expect, it } from 'vitest';
import { ValidationError } from '@shop/shared/errors/errors';
import { parseInput } from '@shop/shared/http/validation';
import { CreateOrderBody } from './api.ts';

/** The message POST /api/payment/create-order answers (400) for `amount`. */
const refusalOf = (amount: unknown): string | undefined => {
  try {
    parseInput(CreateOrderBody, { amount });
    return undefined;
  } catch (err) {
    if (err instanceof ValidationError) return err.message;
    throw err;
  }
};

describe('the amount of POST /api/payment/create-order (issue 27 item 7)', () => {
  it('names the maximum for a too-large amount (it said "whole number of paise")', () => {
    expect(refusalOf(1e20)).toBe('Amount must be at most 1000000000');
  });

  it('refuses more than 2 decimals instead of rounding 1.005 to a paisa nobody typed', () => {
    expect(refusalOf(1.005)).toBe('Amount can have at most 2 decimals');
    expect(refusalOf(-5)).toBe('Amount must be at least 0');
  });

  it('takes rupees with up to 2 decimals, as given', () => {
    expect(parseInput(CreateOrderBody, { amount: 1499.5 }).amount).toBe(1499.5);
    expect(parseInput(CreateOrderBody, {}).amount).toBeUndefined();
  });
});
