import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { decideHomepage, evolveHomepage, initialHomepageState } from './decider.ts';
import { HOMEPAGE_STREAM, type CarouselSlide } from './events.ts';

/** Application service: home page configuration commands against the catalog event store. */
export class Homepage {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  /** Saves the carousel and/or sections (a part left out keeps its value). Returns the stream version (0: never saved). */
  async configure(
    input: { carousel?: CarouselSlide[]; sections?: { value: unknown } },
    actor: string,
  ): Promise<number> {
    return decideAndAppend(
      this.store,
      HOMEPAGE_STREAM,
      { initialState: initialHomepageState, evolve: evolveHomepage, decide: decideHomepage },
      () => ({ type: 'ConfigureHomepage', data: { ...input, now: this.clock() } }),
      actor,
    );
  }
}
