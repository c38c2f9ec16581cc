import { describe, expect, it } from 'vitest';
import type { Decider } from '@shop/shared/eventstore/types';
import { deciderSpec } from './given-when-then.ts';

// A counter that refuses to go past 2: enough to show the helper passes and fails where it should.
type Added = { type: 'Added'; data: { by: number } };
class TooMany extends Error {}
const counter: Decider<{ add: number }, number, Added> = {
  initialState: () => 0,
  evolve: (n, e) => n + e.data.by,
  decide: (c, n) => {
    if (n + c.add > 2) throw new TooMany('too many');
    return c.add === 0 ? [] : [{ type: 'Added', data: { by: c.add } }];
  },
};
const given = deciderSpec(counter);
const added = (by: number): Added => ({ type: 'Added', data: { by } });

describe('given/when/then for deciders', () => {
  it('folds the history, decides, and answers the events for the next given', () => {
    const first = given([])
      .when({ add: 1 })
      .then([added(1)]);
    expect(given(first).state()).toBe(1);
    given(first).when({ add: 0 }).then([]);
    given([added(1), added(1)])
      .when({ add: 1 })
      .then(TooMany);
    given([added(2)])
      .when({ add: 1 })
      .then(/too/);
    expect(
      given([])
        .when({ add: 2 })
        .thenMatches([{ data: { by: 2 } }]),
    ).toEqual([added(2)]);
  });
  it('fails on other events, on a refusal it did not expect, and on a refusal that did not come', () => {
    expect(() =>
      given([])
        .when({ add: 1 })
        .then([added(2)]),
    ).toThrow();
    expect(() => given([]).when({ add: 1 }).then([])).toThrow();
    expect(() =>
      given([added(2)])
        .when({ add: 1 })
        .then([added(1)]),
    ).toThrow('too many');
    expect(() => given([]).when({ add: 1 }).then('too many')).toThrow();
    expect(() =>
      given([])
        .when({ add: 1 })
        .thenMatches([{ data: { by: 1 } }, { data: { by: 1 } }]),
    ).toThrow();
  });
});
