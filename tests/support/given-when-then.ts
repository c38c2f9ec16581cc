import { expect } from 'vitest';
import type { Decider, DomainEvent } from '@shop/shared/eventstore/types';

type ErrorClass = abstract new (...args: never[]) => Error;
/** What a command is expected to produce: these events (exactly), or a refusal (message, pattern or class). */
export type Expected<E> = readonly E[] | string | RegExp | ErrorClass;

export interface When<E> {
  /** Asserts the outcome; answers the decided events (none when refused), to build the next `given`. */
  then(expected: Expected<E>): E[];
  /** Asserts the decided events match these partial shapes, one for one. */
  thenMatches(expected: readonly object[]): E[];
  /** The decided events, for assertions the two above do not express. */
  events(): E[];
}

/**
 * given/when/then for a pure decider: `given(history).when(command).then(events | error)`. The state is
 * the history folded by evolve from initialState, exactly as the event store's aggregates load it.
 */
export function deciderSpec<C, S, E extends DomainEvent>(decider: Decider<C, S, E>) {
  return function given(history: readonly E[] = []) {
    return {
      /** The state the history folds to. */
      state: (): S => history.reduce(decider.evolve, decider.initialState()),
      when(command: C): When<E> {
        const decide = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
        return {
          then(expected) {
            if (Array.isArray(expected)) {
              const events = decide();
              expect(events).toEqual(expected);
              return events;
            }
            expect(decide).toThrow(expected as string | RegExp | ErrorClass);
            return [];
          },
          thenMatches(expected) {
            const events = decide();
            expect(events).toHaveLength(expected.length);
            expected.forEach((shape, i) => expect(events[i]).toMatchObject(shape));
            return events;
          },
          events: decide,
        };
      },
    };
  };
}
